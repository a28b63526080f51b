"""Soak: play many random games of every edition and check every action.

    python bench/soak.py [--games 1000000] [--workers 2] [--seed 0]

Game ``i`` is edition ``i mod E`` (every shipped edition) with a player count cycling
through that edition's range (2 to 10 where allowed), seeded with ``seed + i``. Each action
is chosen at random among every seat's legal actions (out-of-turn Jonti and Bluff's
re-roll included). After every action it checks that dice counts change only when a call
resolves, by one die of the seats the resolution names (in Bluff, by the difference, counted
here from the hands), never below 0 or above the edition's dice; that a re-roll is the
bidder's, right after its bid, puts the named dice out, leaves everything else alone and
re-rolls the rest to the faces of the seed's stream for that round and action; that seats
out stay out; that the turn is a seat still in; and at the end that the winners are right
and that replaying the game's record gives an equal state (every 50th game also through the
text and JSON forms). In Mia, a roll is the player to act's, once a bid stands, to the
faces of the seed's stream, and each call's lives are counted from the bidder's two dice.
It prints games, actions checked and violations, and exits 1 if there is any violation.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import perudo
from perudo import Act, GameRecord, GameState
from perudo.dice import reroll

EDITIONS = perudo.variant_names()


def table(index: int) -> tuple[str, int]:
    """The edition and player count of game ``index``."""
    key = EDITIONS[index % len(EDITIONS)]
    variant = perudo.load_variant(key)
    counts = range(variant.players.min, variant.players.max + 1)
    return key, counts[(index // len(EDITIONS)) % len(counts)]


def check_reroll(
    before: GameState, act: Act, seat: int, after: GameState, problems: list[str]
) -> None:
    """Bluff's re-roll, checked from the two states and the seed alone."""
    was, now = before.players[seat], after.players[seat]
    kept = sorted(was.open + act.numbers)
    under = len(was.cup) - len(act.numbers)
    faces = reroll(before.seed, before.round_number, len(before.acts), under)
    if before.bidder != seat or any(a.after == len(before.bids) for a in before.acts):
        problems.append(f"seat {seat} re-rolled, not right after its own bid: {before.bids}")
    if list(now.open) != kept or now.cup != faces or not under:
        problems.append(f"re-roll {act} of {was} gave {now}, not {kept} and {faces}")
    others = [p for s, p in enumerate(after.players) if s != seat]
    if others != [p for s, p in enumerate(before.players) if s != seat]:
        problems.append(f"re-roll {act} changed another seat")
    if after.to_act != before.to_act or after.bids != before.bids:
        problems.append(f"re-roll {act} moved the turn or the bids")


def check_roll(before: GameState, seat: int, after: GameState, problems: list[str]) -> None:
    """Mia's roll, checked from the two states and the seed alone: the player to act, once
    a bid stands, rolls its whole cup to the faces of the seed's stream, then bids."""
    now = after.players[seat]
    faces = reroll(before.seed, before.round_number, len(before.acts), len(now.dice))
    if seat != before.to_act or before.bid is None:
        problems.append(f"seat {seat} rolled out of turn, or before any bid: {before.bids}")
    if now.dice != faces or not after.must_bid or after.to_act != seat:
        problems.append(f"roll by seat {seat} gave {now.dice}, not {faces} and a bid owed")
    others = [p for s, p in enumerate(after.players) if s != seat]
    if others != [p for s, p in enumerate(before.players) if s != seat]:
        problems.append("a roll changed another seat")


#: Mia's values from lowest to highest, as its source lists them, apart from perudo's ladder.
MIA = "31 32 41 42 43 51 52 53 54 61 62 63 64 65 11 22 33 44 55 66 21".split(" ")  # noqa: SIM905


def mia(before: GameState, result: Any) -> list[int] | str:
    """Each seat's change of lives after a Mia call, or why the resolution is wrong: a
    challenge shows the bidder's two dice, whose value (or higher) costs the challenger a
    life (two on a Mia), a lower one the bidder; giving up costs the one who gives up."""
    bid, bidder, caller, n = before.bid, before.bidder, result.caller, len(before.players)
    claimed = MIA.index("".join(map(str, bid.faces))) + 1  # type: ignore[union-attr]
    if result.call == "exact":  # giving up, on a Mia alone
        if claimed != len(MIA) or result.revealed != ():
            return f"{result}: a give-up on {bid}, or a hand shown"
        loser, lost = caller, 1
    else:
        shown = "".join(map(str, sorted(before.players[bidder].dice, reverse=True)))
        rank = MIA.index(shown) + 1
        if result.revealed != (bidder,) or result.count != rank:
            return f"{result}: not the value of seat {bidder}'s two dice alone"
        stands = rank >= claimed
        loser = caller if stands else bidder
        lost = 2 if stands and claimed == len(MIA) else 1
    return [-lost if s == loser else 0 for s in range(n)]


def difference(before: GameState) -> list[int]:
    """Bluff's settlement of a challenge of ``before``'s bid, from every hand: the bidder
    loses what the count is short, the challenger what it is over, everyone else one die
    when it is exact."""
    bid, bidder, caller = before.bid, before.bidder, before.to_act
    assert bid is not None
    assert bidder is not None
    assert caller is not None
    wild = 6
    count = sum(
        die == bid.face or (die == wild and bid.face != wild)
        for p in before.players
        for die in p.dice
    )
    held = [len(p.dice) for p in before.players]
    wrong_by = count - bid.quantity
    if wrong_by == 0:
        return [-1 if n and s != bidder else 0 for s, n in enumerate(held)]
    loser = bidder if wrong_by < 0 else caller
    return [-min(abs(wrong_by), n) if s == loser else 0 for s, n in enumerate(held)]


def claims_and_bursts(before: GameState, result: Any, held: list[int]) -> list[int]:
    """Each seat's change of dice where a right exact claim (a Bull) costs every other seat
    a die, a right challenger out of turn (a burst) wins one below its start, and a seat
    out of lives holds no dice (guyguroz-hue/Perudo 8-9; Dead Man's Dice)."""
    n = len(held)
    if result.call != "challenge":
        return [0] * n  # no exact call ends a round in these editions
    if before.variant.scoring.kind == "lives":  # lives: only a seat put out loses its dice
        return [-held[s] if s in result.out else 0 for s in range(n)]
    bid, bidder, caller = result.bid, result.bidder, result.caller
    exact = result.claim == "exact"
    if exact and result.count == bid.quantity:
        return [-1 if held[s] and s != bidder else 0 for s in range(n)]
    holds = result.count == bid.quantity if exact else result.count >= bid.quantity
    changes = [0] * n
    changes[caller if holds else bidder] = -1
    if not holds and caller != before.to_act and held[caller] < before.starting_dice[caller]:
        changes[caller] = 1
    return changes


def out_below(before: GameState, result: Any, held: list[int]) -> list[int]:
    """Each seat's change of dice where a lost challenge costs a die and a seat left with
    fewer than the scoring's ``dice`` loses the rest (Aetolia's "Should you fall below three
    die, you are out of the game")."""
    least = before.variant.scoring.dice
    loser = result.caller if result.count >= result.bid.quantity else result.bidder
    changes = [0] * len(held)
    changes[loser] = -1 if held[loser] - 1 >= least else -held[loser]
    return changes


def pure_hands(before: GameState, face: int) -> int:
    """Immortal Blade's showdown count, from every hand: ones wild (but for a bid on ones),
    a hand of the face alone two more, of the face and ones alone one more."""
    total = 0
    for player in before.players:
        dice = player.dice
        if not dice:
            continue
        counting = [die == face or (die == 1 and face != 1) for die in dice]
        total += sum(counting)
        if all(die == face for die in dice):
            total += 2
        elif face != 1 and all(counting):
            total += 1
    return total


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
    if resolved and before.variant.key == "bluff":
        if [n - o for o, n in zip(old, new, strict=True)] != difference(before):
            problems.append(f"Bluff: {old} -> {new}, not the difference {difference(before)}")
    elif resolved:
        result = after.last_result
        bidder = before.bidder
        if result is None:
            problems.append("a round ended with no resolution")
        elif before.variant.hand_bids:  # Mia: lives, judged on the bidder's two dice
            expected = mia(before, result)
            if isinstance(expected, str) or list(result.points) != expected:
                problems.append(f"{result}: {expected}")
        elif (
            before.variant.challenge.kind == "bidder-hand"
            and bidder is not None
            and (result.count != before.players[bidder].dice.count(result.bid.face))
        ):  # UO Outlands: the bidder's dice alone are counted (nothing is wild there)
            problems.append(f"{result}: not the count of seat {bidder}'s hand alone")
        elif before.variant.challenge.kind == "pure-hands" and result.count != pure_hands(
            before, result.bid.face
        ):  # Immortal Blade: pure and impure hands count more
            problems.append(f"{result}: not the count with pure and impure hands")
        elif before.variant.scoring.kind in ("lives", "elimination-burst", "out-below"):
            settle = out_below if before.variant.scoring.kind == "out-below" else claims_and_bursts
            expected = settle(before, result, old)
            if [n - o for o, n in zip(old, new, strict=True)] != expected:
                problems.append(f"{old} -> {new}, not {expected}, for {result}")
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
    while state.to_act is not None:  # until the game is over
        moves = [(action, state.to_act) for action in state.legal_actions()]
        if state.variant.has_out_of_turn and rng.random() < 0.2:
            moves += [
                (action, s)
                for s in state.seats_in
                if s != state.to_act
                for action in state.legal_actions(by=s)
            ]
        action, seat = rng.choice(moves)  # uniform over every seat's moves
        after = state.apply(action, by=seat)
        if isinstance(action, Act) and action.word == "roll":
            check_roll(state, seat, after, problems)
        elif isinstance(action, Act):
            check_reroll(state, action, seat, after, problems)
        else:
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
