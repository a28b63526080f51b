"""The batch engine against its references: run on demand (``python bench/batch.py``), never
as a test (CI runs ``--quick`` as a smoke run, with no threshold).

Every ratio is against a reference measured in the same run on the same machine, each the
median of several repetitions [min-max]:

1. one round of 2 players x 5 dice with random legal moves (deal, bids until the first
   call): :func:`perudo.batch.play_random` with ``one_round=True`` (WANGO classic, as
   ``bench/run.py`` plays it) against OpenSpiel's ``liars_dice`` through pyspiel, each
   through its Python API (the target: at least 50x), and against the limit of this CPU
   (``bench/limit.py``, the plain rules compiled with numba; the target: 0.25 of it);
2. full random 4-player games of every edition of RULES.md: ``play_random`` against the
   plain-Python floor (``bench/floor.py``), in actions per second (the target: at least
   10x), and the limit's rate;
3. the Gymnasium ``PerudoVectorEnv`` (one learning seat against batch bots) against the
   single-game ``PerudoSoloEnv``, in agent steps per second;
4. encoding one view: :meth:`ObservationEncoding.encode`, against the encoder before
   issue 17 (``bench/reference_encoding.py``) on the same views (the target: at most a
   fifth of the time), and :meth:`BatchGames.observe` per game;
5. the memory of ``BatchGames`` for 100,000 four-player games of each edition.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

import floor
import reference_encoding

try:
    import limit
except ImportError:  # numba is not installed: the limit is left out
    limit = None
from run import RULES_EDITIONS, measure, openspiel_rounds

import perudo
from perudo.batch import BatchGames, play_random
from perudo.encoding import observation_encoding


def limit_rate(work: object, repeats: int) -> float | None:
    """The limit kernel's rate for ``work`` (compiled first), or ``None`` without numba."""
    if limit is None:
        print("   the limit (bench/limit.py) skipped: numba is not installed")
        return None
    limit.play(1, 2, 5, True, 1)  # compile (or load from numba's cache) outside the timing
    return measure(work, repeats)[0]  # type: ignore[arg-type]


def section_rounds(rounds: int, batch: int, repeats: int) -> None:
    print("1. One round, 2 players x 5 dice, random legal moves (rounds/s)")

    def ours() -> int:
        play_random("wango", 2, games=rounds, seed=1, one_round=True, batch=batch)
        return rounds

    rate, low, high, _ = measure(ours, repeats)
    print(f"   perudo.batch, batch {batch:<6} {rate:10.0f} [{low:.0f}-{high:.0f}]")
    theirs_work = openspiel_rounds(max(1, rounds // 20))
    if theirs_work is None:
        print("   OpenSpiel liars_dice skipped: open-spiel is not installed\n")
        return
    theirs, low, high, _ = measure(theirs_work, repeats)
    print(f"   OpenSpiel liars_dice      {theirs:10.0f} [{low:.0f}-{high:.0f}]")
    print(f"   ratio batch / OpenSpiel: {rate / theirs:.1f} (target 50)")
    kernel = limit_rate(lambda: limit.play(rounds, 2, 5, True, 7) and rounds, repeats)
    if kernel is not None:
        print(f"   the limit (bench/limit.py)  {kernel:10.0f}: batch is {rate / kernel:.3f} of it")
    print()


def section_games(games: int, batch: int, repeats: int) -> None:
    print(f"2. Random full 4-player games: actions/s, perudo.batch (batch {batch}) and the floor")
    floor_count = [0]

    def floor_work() -> int:
        rng, dice = random.Random(1), random.Random(2)
        floor_count[0] = sum(floor.play_game(4, rng, dice) for _ in range(max(1, games // 20)))
        return floor_count[0]

    floor_rate, low, high, _ = measure(floor_work, repeats)
    print(f"   floor                      {floor_rate:10.0f} [{low:.0f}-{high:.0f}]")
    ratios = []
    for key in RULES_EDITIONS:
        rate, low, high, _ = measure(
            lambda key=key: play_random(key, 4, games=games, seed=1, batch=batch), repeats
        )
        ratios.append(rate / floor_rate)
        print(f"   {key:26} {rate:10.0f} [{low:.0f}-{high:.0f}] ratio {rate / floor_rate:5.1f}")
    print(f"   lowest ratio {min(ratios):.1f} (target 10)")
    kernel = limit_rate(lambda: limit.play(games, 4, 5, False, 11), repeats)
    if kernel is not None:
        times = kernel / floor_rate
        print(f"   the limit (bench/limit.py)  {kernel:10.0f} actions/s, {times:.0f}x the floor")
    print()


def section_vector_env(steps: int, envs: int, repeats: int) -> None:
    print(f"3. Gymnasium: agent steps/s, PerudoVectorEnv ({envs} games) and PerudoSoloEnv")
    try:
        from perudo.interop.gymnasium import PerudoSoloEnv, PerudoVectorEnv
    except ImportError as error:
        print(f"   skipped: {error}\n")
        return
    single = PerudoSoloEnv("italian", 4, opponents="random")

    def one() -> int:
        rng = np.random.default_rng(1)
        observation, _ = single.reset(seed=1)
        for _ in range(steps):
            action = rng.choice(np.flatnonzero(observation["action_mask"]))
            observation, _, done, _, _ = single.step(action)
            if done:
                observation, _ = single.reset()
        return steps

    vector = PerudoVectorEnv("italian", 4, num_envs=envs, opponents="random")

    def many() -> int:
        vector.reset(seed=1)
        rounds = max(1, steps // envs)
        for _ in range(rounds):
            vector.step(vector.sample_legal())
        return rounds * envs

    one_rate, low, high, _ = measure(one, repeats)
    print(f"   PerudoSoloEnv              {one_rate:10.0f} [{low:.0f}-{high:.0f}]")
    many_rate, low, high, _ = measure(many, repeats)
    print(f"   PerudoVectorEnv            {many_rate:10.0f} [{low:.0f}-{high:.0f}]")
    print(f"   ratio vector / single: {many_rate / one_rate:.1f}\n")


def section_encoding(games: int, repeats: int) -> None:
    print("4. Encoding views as a game goes (the PettingZoo pattern: the acting seat's view")
    print("   after every action), us a view; today's encoder against the one before issue 17")
    rng = random.Random(3)
    views = []
    for seed in range(games):
        state = perudo.new_game("italian", 4, seed=seed)
        while not state.is_over:
            views.append(state.view(state.to_act))
            state = state.apply(rng.choice(state.legal_actions()))
    encoding = observation_encoding("italian", 4)

    def today() -> int:
        for view in views:
            encoding.encode(view)
        return len(views)

    def before() -> int:
        for view in views:
            reference_encoding.encode(encoding, view)
        return len(views)

    assert all(encoding.encode(v) == reference_encoding.encode(encoding, v) for v in views)
    rate, _, _, _ = measure(today, repeats)
    old, _, _, _ = measure(before, repeats)
    print(f"   ObservationEncoding.encode  {1e6 / rate:6.2f} us ({len(views)} views)")
    print(f"   before issue 17             {1e6 / old:6.2f} us: {rate / old:.1f}x faster")
    # The view issue 17 names (43 us then): bench/interop.py's, the player to act after 3x4.
    view = perudo.new_game("italian", 4, seed=1).apply(perudo.Bid(3, 4)).view(2)
    rate, _, _, _ = measure(lambda: sum(1 for _ in range(2000) if encoding.encode(view)), repeats)
    old, _, _, _ = measure(
        lambda: sum(1 for _ in range(2000) if reference_encoding.encode(encoding, view)), repeats
    )
    print(f"   bench/interop.py's view: {1e6 / rate:.2f} us, before {1e6 / old:.2f} us: "
          f"{rate / old:.1f}x faster (target 5x)")  # fmt: skip
    table = BatchGames.new("italian", 4, 4096, seed=1)
    for _ in range(5):
        table.step(table.random_actions())

    def observe() -> int:
        table.observe(0)
        return 4096

    rate, _, _, _ = measure(observe, repeats)
    print(f"   BatchGames.observe          {1e6 / rate:6.2f} us a view (4096 at once)\n")


def section_memory(batch: int) -> None:
    print(f"5. Memory of BatchGames for {batch:,} four-player games")
    for key in RULES_EDITIONS:
        table = BatchGames.new(key, 4, batch, seed=1)
        print(f"   {key:26} {table.nbytes / 2**20:7.1f} MiB")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smoke run: few games")
    parser.add_argument(
        "--round-batch", type=int, default=16384, help="rounds played at once (section 1)"
    )
    parser.add_argument(
        "--game-batch", type=int, default=4096, help="games played at once (section 2)"
    )
    args = parser.parse_args()
    quick = args.quick
    repeats = 1 if quick else 5
    print(f"perudo {perudo.__version__}, NumPy {np.__version__}, Python {sys.version.split()[0]}\n")
    start = time.perf_counter()
    section_rounds(2_000 if quick else 300_000, args.round_batch, repeats)
    section_games(50 if quick else 20_000, args.game_batch, repeats)
    section_vector_env(200 if quick else 20_000, 8 if quick else 1024, repeats)
    section_encoding(5 if quick else 200, repeats)
    section_memory(1_000 if quick else 100_000)
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
