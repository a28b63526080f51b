"""Soak: play many random games of every edition and check every action.

    python bench/soak.py [--games 1000000] [--workers 2] [--seed 0]

Game ``i`` is edition ``i mod 6`` with a player count cycling through that edition's
range (2 to 10 where allowed), seeded with ``seed + i``. Each action is chosen at random
among every seat's legal actions (out-of-turn Jonti included). After every action it checks
that dice counts change only when a call resolves, by one die of the seats the resolution
names, never below 0 or above the edition's dice; that seats out stay out; that the turn is
a seat still in; and at the end that the winners are right and that replaying the game's
record gives an equal state (every 50th game also through the text and JSON forms).
It prints games, actions checked and violations, and exits 1 if there is any violation.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import perudo
from perudo import GameRecord, GameState
from perudo.actions import EXACT_CALL

EDITIONS = perudo.variant_names()


def table(index: int) -> tuple[str, int]:
    """The edition and player count of game ``index``."""
    key = EDITIONS[index % len(EDITIONS)]
    variant = perudo.load_variant(key)
    counts = range(variant.players.min, variant.players.max + 1)
    return key, counts[(index // len(EDITIONS)) % len(counts)]


def check_step(before: GameState, after: GameState, problems: list[str]) -> None:
    resolved = after.round_number != before.round_number or after.is_over
    if not resolved and after.players is before.players:  # a bid: the very same seats
        if after.to_act is None or not after.players[after.to_act].dice:
            problems.append(f"the turn went to seat {after.to_act}, which is out")
        return
    old = [len(p.dice) for p in before.players]
    new = [len(p.dice) for p in after.players]
    full = before.variant.dice.per_player
    if any(not 0 <= n <= full for n in new):
        problems.append(f"dice count out of range: {new}")
    if any(o == 0 and n != 0 for o, n in zip(old, new, strict=True)):
        problems.append(f"a seat out came back: {old} -> {new}")
    changed = [seat for seat, (o, n) in enumerate(zip(old, new, strict=True)) if o != n]
    if not resolved and changed:
        problems.append(f"dice changed without a call: {old} -> {new}")
    if resolved:
        result = after.last_result
        if result is None:
            problems.append("a round ended with no resolution")
        elif changed:
            seat = changed[0]
            delta = new[seat] - old[seat]
            expected = result.loser if delta == -1 else result.gainer
            if len(changed) != 1 or abs(delta) != 1 or seat != expected:
                problems.append(f"wrong dice change {old} -> {new} for {result}")
    if not after.is_over and (after.to_act is None or not after.players[after.to_act].dice):
        problems.append(f"the turn went to seat {after.to_act}, which is out")


def play(index: int, seed: int, problems: list[str]) -> int:
    key, players = table(index)
    rng = random.Random(seed + index)
    state = perudo.new_game(key, players, seed=seed + index)
    checked = 0
    while not state.is_over:
        legal = state.legal_actions()
        seat = state.to_act
        callers: list[int] = []
        if state.variant.exact_call.out_of_turn and rng.random() < 0.2:
            callers = [s for s in state.seats_in if s != seat and state.is_legal(EXACT_CALL, by=s)]
        pick = rng.randrange(len(legal) + len(callers))  # uniform over every seat's moves
        if pick < len(legal):
            action = legal[pick]
        else:
            action, seat = EXACT_CALL, callers[pick - len(legal)]
        after = state.apply(action, by=seat)
        check_step(state, after, problems)
        state = after
        checked += 1
    if state.variant.scoring.moves_dice and state.winners != state.seats_in:
        problems.append(f"game {index}: winners {state.winners} but seats in {state.seats_in}")
    record = GameRecord.from_state(state)
    copies = [record.replay()]
    if index % 50 == 0:
        copies += [GameRecord.from_text(record.to_text()).replay()]
        copies += [GameRecord.from_json(record.to_json()).replay()]
    for copy in copies:
        if copy != state or (index % 50 == 0 and GameRecord.from_state(copy) != record):
            problems.append(f"game {index} ({key}, {players}): the replay differs")
    return checked


def chunk(args: tuple[int, int, int]) -> tuple[int, int, list[str]]:
    start, count, seed = args
    problems: list[str] = []
    actions = sum(play(index, seed, problems) for index in range(start, start + count))
    return count, actions, problems[:20]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    size = 2000
    jobs = [
        (start, min(size, args.games - start), args.seed) for start in range(0, args.games, size)
    ]
    started = time.perf_counter()
    games = actions = 0
    problems: list[str] = []
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for done, acted, found in pool.map(chunk, jobs):
            games += done
            actions += acted
            problems += found
            if sys.stderr.isatty():
                print(f"\r{games}/{args.games} games", end="", file=sys.stderr)
    seconds = time.perf_counter() - started
    if sys.stderr.isatty():
        print(file=sys.stderr)
    print(f"games played:     {games:,} ({len(EDITIONS)} editions, 2 to 10 players)")
    print(f"actions checked:  {actions:,}")
    print(f"violations:       {len(problems)}")
    print(f"time:             {seconds:,.0f} s with {args.workers} workers "
          f"({games / seconds:,.0f} games/s)")  # fmt: skip
    for problem in problems[:20]:
        print("  " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
