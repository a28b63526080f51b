"""The batch engine against its references: run on demand (``python bench/batch.py``), never
as a test (CI runs ``--quick`` as a smoke run, with no threshold).

Every ratio is against a reference measured in the same run on the same machine. The
contestants of a section run interleaved (one repetition of each in turn), and each rate is
the median of the repetitions [min-max], in wall time and in CPU time (``time.process_time``):

1. one round of 2 players x 5 dice with random legal moves (deal, bids until the first
   call): :func:`perudo.batch.play_random` with ``one_round=True`` (WANGO classic, as
   ``bench/run.py`` plays it; the headline at a batch of 4,096) against OpenSpiel's
   ``liars_dice`` through pyspiel, each through its Python API (the target: at least 50x),
   and against the limit of this CPU (``bench/limit.py``, the plain rules compiled the same
   way; the target: 0.25 of it);
2. full random 4-player games of every shipped edition the batch engine plays (those it
   refuses are named): ``play_random`` against the plain-Python floor (``bench/floor.py``),
   in actions per second (the target: at least 10x), and the limit's rate; Bluff also
   with random bots that re-roll (``play_bots``, out-of-turn actions included);
3. the mask path: ``legal_mask()`` then ``step()`` each turn, what a learning agent runs,
   against the ``step(random_actions())`` loop (the target: within 2x);
4. the Gymnasium ``PerudoVectorEnv`` (one learning seat against batch bots) against the
   single-game ``PerudoSoloEnv``, in agent steps per second, at 16 and 1,024 games, for
   Italian and for Bluff (whose agent is asked about its re-roll after each bid);
5. how the rates scale: the step loop at batches of 1k to 256k games, and ``play_random``
   at 2 to 10 players (French Jonti, which seats them all);
6. the first call's compile time, cold (an empty numba cache) and from the cache, each in a
   fresh process;
7. encoding one view: :meth:`ObservationEncoding.encode`, against the encoder before its
   rewrite of 2026-11-30 (``bench/reference_encoding.py``) on the same views (the target: at
   most a fifth of the time), and :meth:`BatchGames.observe` per game;
8. memory per game of ``BatchGames`` for each edition at four players: its arrays, and the
   most one call allocates besides.
"""

from __future__ import annotations

import argparse
import inspect
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

import floor
import reference_encoding

try:
    import limit
except ImportError:  # numba is not installed: the limit is left out
    limit = None
from run import measure, openspiel_rounds

import perudo
from perudo.batch import BatchGames, play_random
from perudo.batch.arrays import bytes_per_game, call_bytes_per_game
from perudo.batch.rules import batch_rules
from perudo.encoding import observation_encoding


def _plays(key: str) -> str | None:
    """Why the batch engine refuses the shipped edition ``key``, or ``None``."""
    try:
        batch_rules(perudo.load_variant(key))
    except perudo.GameSetupError as error:
        return str(error).split(" of ")[0].removeprefix("the batch engine does not implement ")
    return None


#: The shipped editions the batch engine plays that seat four, and those it refuses.
FOUR = tuple(
    key
    for key in perudo.variant_names()
    if perudo.load_variant(key).players.max >= 4 and _plays(key) is None
)
REFUSED = {key: why for key in perudo.variant_names() if (why := _plays(key)) is not None}


class Rate:
    """A contestant's rates over the repetitions: units per wall second and per CPU second."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def __str__(self) -> str:
        wall, cpu = statistics.median(self.wall), statistics.median(self.cpu)
        return (f"{wall:12,.0f} [{min(self.wall):,.0f}-{max(self.wall):,.0f}] "
                f"cpu {cpu:,.0f}")  # fmt: skip

    @property
    def median(self) -> float:
        return statistics.median(self.wall)


def interleaved(works: dict[str, Callable[[], int]], repeats: int) -> dict[str, Rate]:
    """Each work's rate (units it returns per second), the works run in turn ``repeats``
    times after one warm-up run each."""
    rates = {name: Rate() for name in works}
    for work in works.values():
        work()
    for _ in range(repeats):
        for name, work in works.items():
            wall, cpu = time.perf_counter(), time.process_time()
            units = work()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            rates[name].wall.append(units / wall)
            rates[name].cpu.append(units / max(cpu, 1e-9))
    return rates


def show(rates: dict[str, Rate]) -> None:
    for name, rate in rates.items():
        print(f"   {name:34} {rate}")


def section_rounds(rounds: int, batch: int, repeats: int) -> None:
    print(f"1. One round, 2 players x 5 dice, random legal moves (rounds/s; batch {batch})")
    works: dict[str, Callable[[], int]] = {
        "perudo.batch": lambda: (
            play_random("wango", 2, games=rounds, seed=1, one_round=True, batch=batch) and rounds
        )
    }
    theirs = openspiel_rounds(max(1, rounds // 50))
    if theirs is not None:
        works["OpenSpiel liars_dice (pyspiel)"] = theirs
    if limit is not None:
        works["the limit (bench/limit.py)"] = lambda: limit.play(rounds, 2, 5, True, 7) and rounds
    rates = interleaved(works, repeats)
    show(rates)
    ours = rates["perudo.batch"].median
    if theirs is None:
        print("   OpenSpiel liars_dice skipped: open-spiel is not installed")
    else:
        ratio = ours / rates["OpenSpiel liars_dice (pyspiel)"].median
        print(f"   batch / OpenSpiel: {ratio:.1f} (target 50)")
    if limit is not None:
        print(f"   batch / limit: {ours / rates['the limit (bench/limit.py)'].median:.3f} "
              "(target 0.25)")  # fmt: skip
    print()


def section_games(games: int, batch: int, repeats: int) -> None:
    rows = inspect.signature(play_random).parameters["batch"].default
    print(f"2. Random full 4-player games, actions/s (play_random's {rows} rows; the bots' "
          f"batch {batch})")  # fmt: skip

    def floor_work() -> int:
        rng, dice = random.Random(1), random.Random(2)
        return sum(floor.play_game(4, rng, dice) for _ in range(max(1, games // 50)))

    works: dict[str, Callable[[], int]] = {"floor (bench/floor.py)": floor_work}
    for key in FOUR:
        works[key] = lambda key=key: play_random(key, 4, games=games, seed=1)
    works["bluff, random bots that re-roll"] = lambda: bots_actions("bluff", 4, games, batch)
    if limit is not None:
        works["the limit (bench/limit.py)"] = lambda: limit.play(games, 4, 5, False, 11)
    rates = interleaved(works, repeats)
    show(rates)
    floor_rate = rates["floor (bench/floor.py)"].median
    lowest = min(rates[key].median for key in FOUR)  # play_random's, edition by edition
    print(f"   lowest edition / floor: {lowest / floor_rate:.1f} (target 10)")
    print(f"   bluff / floor: {rates['bluff'].median / floor_rate:.1f} (target 10)")
    for key, why in REFUSED.items():
        print(f"   not played yet: {key} ({why})")
    if limit is not None:
        kernel = rates["the limit (bench/limit.py)"].median
        print(f"   lowest edition / limit: {lowest / kernel:.3f} (target 0.25)")
    print()


def bots_actions(key: str, players: int, games: int, batch: int) -> int:
    """Play ``games`` games of ``key`` between random batch bots (their out-of-turn actions
    included: Bluff's re-rolls); the actions taken."""
    from perudo.batch.bots import BatchRandomBot
    from perudo.batch.match import play_bots

    seats = np.zeros((games, players), dtype=np.int64)
    played = play_bots(perudo.load_variant(key), players, seats, [BatchRandomBot(1)], seed=1,
                       batch=batch)  # fmt: skip
    return int(played.decisions.sum())


def step_loop(key: str, players: int, batch: int, steps: int, *, masks: bool) -> Callable[[], int]:
    """``steps`` random steps of ``batch`` games (autoreset), with ``masks``: the legal mask
    asked for before each; the actions taken."""
    table = BatchGames.new(key, players, batch, seed=1, autoreset=True)

    def work() -> int:
        for _ in range(steps):
            if masks:
                table.legal_mask()
            table.step(table.random_actions())
        return steps * batch

    return work


def section_masks(steps: int, batch: int, repeats: int) -> None:
    print(f"3. The mask path, 4-player Italian, actions/s (batch {batch}, autoreset)")
    rates = interleaved(
        {
            "step(random_actions())": step_loop("italian", 4, batch, steps, masks=False),
            "legal_mask() + step()": step_loop("italian", 4, batch, steps, masks=True),
        },
        repeats,
    )
    show(rates)
    ratio = rates["step(random_actions())"].median / rates["legal_mask() + step()"].median
    print(f"   the mask path takes {ratio:.2f}x the step loop's time (target at most 2)\n")


def section_vector_env(key: str, steps: int, envs: int, repeats: int) -> None:
    print(f"4. Gymnasium, {key}: agent steps/s, PerudoVectorEnv ({envs} games) and PerudoSoloEnv")
    try:
        from perudo.interop.gymnasium import PerudoSoloEnv, PerudoVectorEnv
    except ImportError as error:
        print(f"   skipped: {error}\n")
        return
    single = PerudoSoloEnv(key, 4, opponents="random")

    def one() -> int:  # its rate does not hang on the steps: at most 10,000 of them
        rng = np.random.default_rng(1)
        observation, _ = single.reset(seed=1)
        for _ in range(min(steps, 10_000)):
            action = rng.choice(np.flatnonzero(observation["action_mask"]))
            observation, _, done, _, _ = single.step(action)
            if done:
                observation, _ = single.reset()
        return min(steps, 10_000)

    vector = PerudoVectorEnv(key, 4, num_envs=envs, opponents="random")

    def many() -> int:
        vector.reset(seed=1)
        rounds = max(1, steps // envs)
        for _ in range(rounds):
            vector.step(vector.sample_legal())
        return rounds * envs

    rates = interleaved({"PerudoSoloEnv": one, f"PerudoVectorEnv ({envs})": many}, repeats)
    show(rates)
    ratio = rates[f"PerudoVectorEnv ({envs})"].median / rates["PerudoSoloEnv"].median
    target = {16: " (target 5)", 1024: " (target 50)"}.get(envs, "")
    print(f"   vector / single: {ratio:.1f}{target}\n")


def section_encoding(games: int, repeats: int) -> None:
    print("7. Encoding views as a game goes (the PettingZoo pattern: the acting seat's view")
    print("   after every action), us a view; today's encoder against the one before 2026-11-30")
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
    print(f"   before 2026-11-30           {1e6 / old:6.2f} us: {rate / old:.1f}x faster")
    # The view its target named (43 us then): bench/interop.py's, the player to act after 3x4.
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


def section_scaling(actions: int, repeats: int, quick: bool) -> None:
    print("5. Scaling, actions/s: the step loop by batch (4-player Italian), play_random by seats")
    print("   (French Jonti, which seats 2 to 10)")
    batches = (1024, 4096) if quick else (1024, 4096, 16384, 65536, 262144)
    works = {
        f"step loop, batch {batch:>7,}": step_loop(
            "italian", 4, batch, max(2, actions // batch), masks=False
        )
        for batch in batches
    }
    show(interleaved(works, repeats))
    tables = (2, 4) if quick else (2, 3, 4, 6, 8, 10)
    games = max(10, actions // 200)
    works = {
        f"play_random french-jonti, {n:>2} seats": lambda n=n: play_random(
            "french-jonti", n, games=games, seed=1
        )
        for n in tables
    }
    show(interleaved(works, repeats))
    print()


_FIRST_CALL = """
import time
start = time.perf_counter()
from perudo.batch import BatchGames
table = BatchGames.new("italian", 4, 64, seed=1)
table.observe(0)
table.step(table.random_actions())
table.legal_mask()
table.may_call()
table.lowest_quantities()
table.may_press()
from perudo.batch import play_random
play_random("italian", 4, games=2, seed=1)
print(time.perf_counter() - start)
"""


def section_compile(quick: bool) -> None:
    print("6. First call of every step (a fresh process; imports included), seconds")
    if quick:  # a cold compile takes about a minute: not in a smoke run
        print("   skipped with --quick\n")
        return
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for label in ("cold (an empty cache)", "from the cache"):
            out = subprocess.run(
                [sys.executable, "-c", _FIRST_CALL], env=env, check=True, capture_output=True,
                text=True,
            )  # fmt: skip
            print(f"   {label:34} {float(out.stdout):8.2f}")
    print()


def section_memory() -> None:
    print("8. Memory per game, 4 players: the arrays, and the most one call allocates besides")
    for key in FOUR:
        table = BatchGames.new(key, 4, 1, seed=1)
        arrays = bytes_per_game(table.layout)
        calls = call_bytes_per_game(table.variant, 4)
        print(f"   {key:26} {arrays:6,} bytes, and {calls:6,} while observed")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smoke run: few games")
    parser.add_argument("--batch", type=int, default=4096, help="games played at once")
    args = parser.parse_args()
    quick = args.quick
    repeats = 1 if quick else 5
    print(f"perudo {perudo.__version__}, NumPy {np.__version__}, Python {sys.version.split()[0]}\n")
    start = time.perf_counter()
    section_rounds(2_000 if quick else 1_000_000, args.batch, repeats)
    section_games(50 if quick else 50_000, args.batch, repeats)
    section_masks(4 if quick else 50, args.batch, repeats)
    for key in ("italian", "bluff"):
        for envs in (16, 1024):  # each repetition a reset and some 60 steps of every game
            steps = 200 if quick else 60 * envs
            section_vector_env(key, steps, 8 if quick else envs, repeats)
    section_scaling(20_000 if quick else 2_000_000, repeats, quick)
    section_compile(quick)
    section_encoding(5 if quick else 200, repeats)
    section_memory()
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
