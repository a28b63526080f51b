"""How the batch engine chooses for a player: uniformly among the legal actions, counted
and never listed, and whole random games played in compiled code (:func:`perudo.batch.play_random`'s
loop)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from perudo.batch.arrays import Layout
from perudo.batch.compiled import below, compiled, inlined, row, rows
from perudo.batch.handle import Games
from perudo.batch.legality import (
    bids_wait,
    can_press,
    count_acts,
    count_bids,
    cup_size,
    may_call,
    may_challenge,
    may_pass,
    may_reroll,
    may_time_out,
    nth_act,
    nth_bid,
    under_cup,
    wild_face,
)
from perudo.batch.moves import new_game, play
from perudo.batch.rules import BatchRules

__all__ = [
    "play_games",
    "random_action",
    "random_actions",
    "rerolls_keeping_the_bid",
    "uniform_picks",
]


@inlined
def random_action(s: Games, r: BatchRules, t: Layout, i: int) -> int:
    """An action of game ``i``'s player to act, drawn uniformly among those
    :func:`~perudo.batch.legality.fill_mask` lists (0 in a game that is over): the moves
    are counted, never listed."""
    if s.over[i]:
        return 0
    seat = s.to_act[i]
    press = can_press(s, r, i, seat)
    waits = s.must_declare[i] or bids_wait(s, r, i)
    bids = 0 if waits else count_bids(s, r, t, i, seat)
    dudo = may_challenge(s, r, i, seat)
    pressed = t.pressed_dudo >= 0 and dudo and press
    exact = t.exact_call >= 0 and may_call(s, r, i, seat)
    passing = t.passing >= 0 and may_pass(s, r, i, seat)
    late = may_time_out(s, t, i, seat)
    acts = count_acts(s, r, t, i, seat) if r.roll or r.reroll_in_turn else 0  # in turn
    offers = 0
    for d in range(t.declarations):
        offers += s.offers[i, d] and not s.must_bid[i]
    total = bids + dudo + pressed + exact + passing + late + acts + offers
    if total == 0:
        return 0
    pick = int(below(s.bits, total))
    if pick < bids:  # a bid: the face whose run of quantities holds the pick
        return nth_bid(s, r, t, i, seat, pick)
    pick -= bids
    calls = ((0, dudo), (t.pressed_dudo, pressed), (t.exact_call, exact), (t.passing, passing),
             (t.out_of_time, late))  # fmt: skip
    for call, open_ in calls:
        if open_:
            if pick == 0:
                return call
            pick -= 1
    if pick < acts:  # the roll, or a re-roll before the bid
        return nth_act(s, r, t, i, seat, pick) if r.reroll_in_turn else t.first_act
    pick -= acts
    for d in range(t.declarations):
        if s.offers[i, d] and not s.must_bid[i]:
            if pick == 0:
                return t.first_declaration + d
            pick -= 1
    return 0


@compiled
def rerolls_keeping_the_bid(s: Games, out: NDArray[np.int64]) -> None:
    """``out[i]``: in game ``i``, the re-roll by which the bidder (who may re-roll now)
    puts out the dice under its cup that count for its bid (its face and the wild one) and
    re-rolls the rest, when it holds some of each (:meth:`perudo.bots.OddsBot.interrupt`);
    -1 where it may not, or holds none or only those."""
    r, t = s.rules, s.layout
    dice = s.act_faces
    for i in rows(len(out)):
        out[i] = -1
        seat = s.bidder[i]
        if seat < 0 or not may_reroll(s, r, t, i, seat):
            continue
        face, wild = int(s.bid_f[i]), int(wild_face(s, r, i))
        for a in range(t.first_bid - t.first_act):
            match = True
            size = 0
            for f in range(1, t.faces + 1):
                keep = under_cup(s, i, seat, f) if f == face or f == wild else 0  # noqa: SIM109 (numba: no tuple `in`)
                size += keep
                if dice[a, f] != keep:
                    match = False
                    break
            if match and size == dice[a, 0] and size < cup_size(s, t, i, seat):
                out[i] = t.first_act + a
                break


@compiled
def uniform_picks(
    mask: NDArray[np.int8], draws: NDArray[np.float64], out: NDArray[np.int64]
) -> None:
    """``out[i]``: the flagged entry of row ``i`` of ``mask`` that ``draws[i]`` (uniform in
    [0, 1)) picks, each alike; 0 in a row with none flagged."""
    for i in rows(len(out)):
        count = 0
        for a in range(mask.shape[1]):
            count += mask[i, a] != 0
        out[i] = 0
        k = int(draws[i] * count)
        for a in range(mask.shape[1] if count else 0):
            if mask[i, a]:
                if k == 0:
                    out[i] = a
                    break
                k -= 1


@compiled
def random_actions(s: Games, out: NDArray[np.int64]) -> None:
    """``out[i]``: a random legal action of game ``i``'s player to act (:func:`random_action`)."""
    r, t = s.rules, s.layout
    for i in rows(len(out)):
        out[i] = random_action(s, r, t, i)


@compiled
def play_games(s: Games, games: int, one_round: bool) -> int:
    """Play ``games`` random games (with ``one_round``, only each one's first round): the
    new games the batch's rows hold, then a new game in each row in turn; the number of
    decisions taken."""
    r, t = s.rules, s.layout
    decisions = 0
    size = len(s.over)
    for game in range(games):
        i = row(game % size)
        if game >= size:  # the row's first game was dealt with the batch
            new_game(s, r, t, i)
        while not s.over[i]:
            act = random_action(s, r, t, i)
            play(s, r, t, i, act, s.to_act[i], one_round)
            decisions += 1
    return decisions
