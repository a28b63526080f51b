"""perudo's benchmark: run on demand (``python bench/run.py``), never as a test.

Every rate is the median of several repetitions, with the min and max, and every ratio is
against a reference measured in the same run on the same machine:

1. random full games through the public API (``new_game``, ``legal_actions``, a seeded
   random choice, ``apply``) for each edition with 2, 4 and 6 players;
2. the same games played by the plain-Python floor (``bench/floor.py``), printed as the
   ratio perudo / floor (the target was 0.30 of the floor before it was tightened, which
   was 4 to 5 times slower: about 0.06 of today's);
3. one round of 2 players x 5 dice (deal, bids until the first Dudo) through perudo and
   through OpenSpiel's ``liars_dice`` (``pip install open-spiel``; skipped with a note when
   it is not installed), printed as the ratio (the target: at least 1.0);
4. ``is_legal`` checks per second and the size in memory of a 6-player state.

``--quick`` runs fewer games, for a smoke test.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import floor

import perudo


def measure(work: Callable[[], int], repeats: int) -> tuple[float, float, float, float]:
    """Median, min and max of units/s over ``repeats`` runs; and the median seconds."""
    rates, times = [], []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        units = work()
        elapsed = time.perf_counter() - start
        rates.append(units / elapsed)
        times.append(elapsed)
    return statistics.median(rates), min(rates), max(rates), statistics.median(times)


def perudo_games(key: str, players: int, games: int, counter: list[int]) -> Callable[[], int]:
    variant = perudo.load_variant(key)

    def work() -> int:
        rng = random.Random(1)
        actions = 0
        for seed in range(games):
            state = perudo.new_game(variant, players, seed=seed)
            while not state.is_over:
                state = state.apply(rng.choice(state.legal_actions()))
                actions += 1
        counter[0] = actions
        return games

    return work


def floor_games(players: int, games: int, counter: list[int]) -> Callable[[], int]:
    def work() -> int:
        rng, dice = random.Random(1), random.Random(2)
        counter[0] = sum(floor.play_game(players, rng, dice) for _ in range(games))
        return games

    return work


#: The documented regional editions, whose rules the floor plays (OpenSpiel's liars_dice, a
#: one-round game of one die each, is measured against OpenSpiel itself in section 3's terms
#: instead).
RULES_EDITIONS = ("french-calza", "french-jonti", "italian", "spanish", "wango", "wango-party")


def section_games(games: int, repeats: int) -> list[float]:
    print("1-2. Random full games: perudo through its public API, and the plain-Python floor")
    print(f"     ({games} games a run, median of {repeats} runs [min-max])\n")
    head = f"{'edition':13} {'n':>2} {'perudo games/s':>22} {'actions/s':>9} "
    print(head + f"{'floor games/s':>14} {'actions/s':>9} {'ratio':>6}")
    ratios = []
    floors: dict[int, tuple[float, float]] = {}
    for players in (2, 4, 6):
        count = [0]
        median, _, _, seconds = measure(floor_games(players, games, count), repeats)
        floors[players] = (median, count[0] / seconds)
    for key in RULES_EDITIONS:
        for players in (2, 4, 6):
            count = [0]
            median, low, high, seconds = measure(perudo_games(key, players, games, count), repeats)
            actions = count[0] / seconds
            floor_games_s, floor_actions = floors[players]
            ratio = actions / floor_actions
            ratios.append(ratio)
            print(
                f"{key:13} {players:>2} {median:8.0f} [{low:5.0f}-{high:5.0f}] {actions:9.0f} "
                f"{floor_games_s:14.0f} {floor_actions:9.0f} {ratio:6.2f}"
            )
    print(f"\n     ratio = perudo actions/s / floor actions/s; lowest {min(ratios):.2f}"
          " (the target, 0.30 of the floor before it was tightened, is about 0.06)\n")  # fmt: skip
    return ratios


def perudo_rounds(rounds: int) -> Callable[[], int]:
    variant = perudo.load_variant("wango")

    def work() -> int:
        rng = random.Random(1)
        for seed in range(rounds):
            state = perudo.new_game(variant, 2, seed=seed, first_player=0)
            while state.round_number == 1:
                state = state.apply(rng.choice(state.legal_actions()))
        return rounds

    return work


def openspiel_rounds(rounds: int) -> Callable[[], int] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("liars_dice", {"players": 2, "numdice": 5})

    def work() -> int:
        rng = random.Random(1)
        for _ in range(rounds):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(rng.choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
        return rounds

    return work


def section_round(rounds: int, repeats: int) -> None:
    print("3. One round, 2 players x 5 dice: deal, random bids until the first Dudo")
    ours, low, high, _ = measure(perudo_rounds(rounds), repeats)
    print(f"   perudo (wango)        {ours:9.0f} rounds/s [{low:.0f}-{high:.0f}]")
    theirs_work = openspiel_rounds(rounds)
    if theirs_work is None:
        print("   OpenSpiel liars_dice  skipped: open-spiel is not installed "
              "(pip install open-spiel)\n")  # fmt: skip
        return
    theirs, low, high, _ = measure(theirs_work, repeats)
    print(f"   OpenSpiel liars_dice  {theirs:9.0f} rounds/s [{low:.0f}-{high:.0f}]")
    print(f"   ratio perudo / OpenSpiel: {ours / theirs:.2f} (target 1.0)")
    print("   (many rounds at once: the batch engine, python bench/batch.py)\n")


def deep_size(value: object, skip: set[int]) -> int:
    """Bytes held by ``value`` and what it refers to, except objects in ``skip``."""
    seen = set(skip)
    stack, total = [value], 0
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, type):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        stack.extend(gc.get_referents(item))
    return total


def section_checks(repeats: int) -> None:
    print("4. is_legal checks, and the size of a state")
    state = perudo.new_game("italian", 6, seed=3).apply(perudo.Bid(4, 3))
    candidates = [perudo.Bid(q, f) for q in range(1, 31) for f in range(1, 7)]
    candidates += [perudo.Dudo(), perudo.Calza()]

    def work() -> int:
        for _ in range(20):
            for action in candidates:
                state.is_legal(action)
        return 20 * len(candidates)

    median, low, high, _ = measure(work, repeats)
    print(f"   is_legal: {median:,.0f} checks/s [{low:,.0f}-{high:,.0f}]")
    shared = {id(state.variant)} | {id(x) for x in gc.get_referents(state.variant)}
    size = deep_size(state, shared)
    print(f"   a 6-player state after one bid: {size:,} bytes (the shared edition not counted)\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer games, for a smoke test")
    args = parser.parse_args()
    games, rounds, repeats = (20, 500, 3) if args.quick else (300, 20_000, 5)
    print(f"perudo {perudo.__version__}, Python {sys.version.split()[0]}\n")
    section_games(games, repeats)
    section_round(rounds, repeats)
    section_checks(repeats)


if __name__ == "__main__":
    main()
