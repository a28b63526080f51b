"""The machine's limit for random Perudo: the tightest kernel of the plain rules, compiled
with numba. Run on demand (``python bench/limit.py``), never as a test.

The kernel plays what ``bench/floor.py`` plays: wild ones, conversion to and from ones, one
die lost per challenge, the loser opens, no special rounds, each move drawn uniformly among
the legal ones. It keeps no state beyond a few integers per game and never lists the moves:
it counts them and maps one random index to its move. So its rate is a ceiling for any
engine of the same rules on this CPU, and ``bench/batch.py`` places perudo's batch engine as
a fraction of it.

1. one round of 2 players x 5 dice (deal, bids until the first challenge), rounds/s;
2. full random games of 4 players, actions/s, against the plain-Python floor;
3. compile time, cold and from numba's cache.

Each rate is the median of ``--repeats`` runs [min-max], in wall time. Needs numba (the
``dev`` extra).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

import floor

from perudo.batch.compiled import next_bits

CHALLENGE = -1


#: xorshift64*, the batch engine's own generator: the next 64 bits of ``state[0]``.
_next = next_bits


@numba.njit(cache=True, inline="always")
def _below(bits: np.uint64, n: int) -> int:
    """A number below ``n`` from 32 random ``bits`` (multiply and shift, no division)."""
    return int(((bits & np.uint64(0xFFFFFFFF)) * np.uint64(n)) >> np.uint64(32))


#: The lowest quantity of a face that raises the standing bid (0: none may): the floor's
#: own rule, compiled.
_low = numba.njit(cache=True, inline="always")(floor.lowest)


@numba.njit(cache=True)
def play(games: int, players: int, dice: int, one_round: bool, seed: int) -> int:
    """Play ``games`` random games (or first rounds); the number of actions taken."""
    state = np.empty(1, dtype=np.uint64)
    state[0] = np.uint64(seed * 2 + 1)
    counts = np.empty(players, dtype=np.int64)
    found = np.empty(7, dtype=np.int64)
    actions = 0
    for _ in range(games):
        counts[:] = dice
        alive, opener = players, 0
        while alive > 1:
            total = counts.sum()
            found[:] = 0
            for die in range(0, total, 2):  # two dice from each 64 random bits
                bits = _next(state)
                found[1 + _below(bits, 6)] += 1
                if die + 1 < total:
                    found[1 + _below(bits >> np.uint64(32), 6)] += 1
            seat, bid_q, bid_f, bidder = opener, 0, 0, -1
            while True:
                moves = 1 if bid_q else 0  # the challenge
                for face in range(1, 7):
                    low = _low(face, bid_q, bid_f)
                    if 0 < low <= total:
                        moves += total - low + 1
                pick = _below(_next(state) >> np.uint64(32), moves)
                actions += 1
                if bid_q and pick == moves - 1:  # the challenge, listed last
                    n = found[bid_f] + (found[1] if bid_f != 1 else 0)
                    loser = seat if n >= bid_q else bidder
                    counts[loser] -= 1
                    if counts[loser] == 0:
                        alive -= 1
                    opener = loser
                    while counts[opener] == 0:
                        opener = (opener + 1) % players
                    break
                for face in range(1, 7):  # the pick-th bid, face by face
                    low = _low(face, bid_q, bid_f)
                    if 0 < low <= total:
                        span = total - low + 1
                        if pick < span:
                            bid_q, bid_f = low + pick, face
                            break
                        pick -= span
                bidder = seat
                seat = (seat + 1) % players
                while counts[seat] == 0:
                    seat = (seat + 1) % players
            if one_round:
                break
    return actions


def measure(work: object, repeats: int) -> tuple[float, float, float]:
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        units = work()  # type: ignore[operator]
        rates.append(units / (time.perf_counter() - start))
    return statistics.median(rates), min(rates), max(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="a smoke run: few games")
    args = parser.parse_args()
    repeats = 1 if args.quick else args.repeats
    start = time.perf_counter()
    play(1, 2, 5, True, 1)
    print(f"numba {numba.__version__}: compiled (or loaded from its cache) in "
          f"{time.perf_counter() - start:.2f} s")  # fmt: skip
    rounds = 20_000 if args.quick else 4_000_000
    rate, low, high = measure(lambda: (play(rounds, 2, 5, True, 7), rounds)[1], repeats)
    print(f"1. one round, 2 players x 5 dice: {rate:,.0f} rounds/s [{low:,.0f}-{high:,.0f}]")
    games = 2_000 if args.quick else 200_000
    counted = [0]

    def kernel() -> int:
        counted[0] = play(games, 4, 5, False, 11)
        return counted[0]

    rate, low, high = measure(kernel, repeats)
    print(f"2. full 4-player games: {rate:,.0f} actions/s [{low:,.0f}-{high:,.0f}]")

    def plain() -> int:
        rng, dice = random.Random(1), random.Random(2)
        return sum(floor.play_game(4, rng, dice) for _ in range(max(1, games // 200)))

    floor_rate, low, high = measure(plain, repeats)
    print(f"   the plain-Python floor: {floor_rate:,.0f} actions/s [{low:,.0f}-{high:,.0f}]")
    print(f"   kernel / floor: {rate / floor_rate:.0f}x")


if __name__ == "__main__":
    main()
