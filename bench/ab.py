"""The single-state engine now against an earlier commit, in one run: ``python bench/ab.py
--base REV`` (run on demand, never as a test).

It checks out ``REV`` into a temporary git worktree, then plays the same seeded random
games (``new_game``, ``legal_actions``, a seeded choice, ``apply``), and the first rounds of
many two-player WANGO games (the 2x5 round), with each tree's
``perudo`` in turn, alternating processes several times. Each figure is the best of its
repetitions in CPU time, since on a shared machine wall time swings far more than the
change being measured. It prints actions per second for each tree and their ratio.

With ``--batch`` it measures the batch engine instead: ``play_random``'s whole random games
(200 times ``--games`` of them a repetition) and WANGO's 2x5 first rounds, each process
compiling its steps (or loading them from numba's cache) before it times them.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
#: Whole games at these tables, and (two players) round 1 of WANGO's 2x5 game to its call.
TABLES = [("french-jonti", 4), ("italian", 4), ("wango-party", 4), ("spanish", 6), ("wango", 2)]

PLAY = """
import random, sys, time
import perudo

def once(key, players, games):
    rng, actions = random.Random(5), 0
    start = time.process_time()
    if players == 2:  # the 2x5 round: round 1 of many games, to its call
        for game in range(games * 40):
            state = perudo.new_game(key, players, seed=game, first_player=0)
            while state.round_number == 1:
                state = state.apply(rng.choice(state.legal_actions()))
                actions += 1
        return actions / (time.process_time() - start)
    for game in range(games):
        state = perudo.new_game(key, players, seed=game)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            actions += 1
    return actions / (time.process_time() - start)

games, repeats = int(sys.argv[1]), int(sys.argv[2])
for key, players in {tables}:
    print(key, players, max(once(key, players, games) for _ in range(repeats)))
"""

#: With ``--batch``: the batch engine's random games (``play_random``), whole games at these
#: tables, and (two players) WANGO's 2x5 first round.
BATCH_TABLES = [("french-jonti", 4), ("italian", 4), ("wango-party", 4), ("wango", 2)]

PLAY_BATCH = """
import sys, time
import perudo
from perudo.batch import play_random

def once(key, players, games):
    start = time.process_time()
    actions = play_random(key, players, games=games * 200, seed=1, one_round=players == 2)
    return actions / (time.process_time() - start)

games, repeats = int(sys.argv[1]), int(sys.argv[2])
for key, players in {tables}:
    once(key, players, 1)  # compiled (or loaded from the cache) before it is timed
    print(key, players, max(once(key, players, games) for _ in range(repeats)))
"""


def rates(tree: Path, games: int, repeats: int, batch: bool) -> dict[tuple[str, int], float]:
    code = PLAY_BATCH.format(tables=BATCH_TABLES) if batch else PLAY.format(tables=TABLES)
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(  # in the tree, so its perudo is the one imported ("" is first)
        [sys.executable, "-c", code + f"\nassert perudo.__file__.startswith({str(tree)!r})",
         str(games), str(repeats)],
        capture_output=True, text=True, env=env, check=True, cwd=tree,
    )  # fmt: skip
    found = {}
    for line in done.stdout.splitlines():
        key, players, rate = line.split()
        found[(key, int(players))] = float(rate)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=4, help="alternations (default 4)")
    parser.add_argument("--games", type=int, default=30, help="games a repetition")
    parser.add_argument("--repeats", type=int, default=8, help="repetitions a process")
    parser.add_argument(
        "--batch", action="store_true", help="the batch engine's play_random instead"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="perudo-ab-") as scratch:
        base = Path(scratch) / "base"
        subprocess.run(["git", "-C", str(HERE), "worktree", "add", "-q", "--detach", str(base),
                        args.base], check=True)  # fmt: skip
        try:
            best: dict[str, dict[tuple[str, int], float]] = {"base": {}, "now": {}}
            for _ in range(args.rounds):
                for name, tree in (("base", base), ("now", HERE)):
                    for table, rate in rates(tree, args.games, args.repeats, args.batch).items():
                        best[name][table] = max(rate, best[name].get(table, 0.0))
        finally:
            subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(base)],
                           check=True)  # fmt: skip
    print(f"actions/s, best of {args.rounds} x {args.repeats} runs in CPU time; base {args.base}")
    for table in BATCH_TABLES if args.batch else TABLES:
        then, now = best["base"][table], best["now"][table]
        print(f"  {table[0]:14} {table[1]:2}  base {then:9.0f}  now {now:9.0f}  {now / then:5.2f}")


if __name__ == "__main__":
    main()
