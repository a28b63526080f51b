"""What a seat sees of one game of a batch, as the vector of
:func:`perudo.encoding.observation_encoding`: entry for entry what
:meth:`~perudo.encoding.ObservationEncoding.encode` gives for the same position (a test
holds the two to it). Seats are counted from the observer (entry 0: the observer)."""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
from numpy.typing import NDArray

from perudo.batch.arrays import Layout, Spots
from perudo.batch.compiled import compiled, inlined, rows
from perudo.batch.handle import Games
from perudo.batch.legality import fill_mask, fill_out_of_turn, may_call, under_cup, wild_face
from perudo.batch.rules import BatchRules

__all__ = ["last_bid_faces", "observe_games"]

#: An observation's vectors: 32-bit entries, or 64-bit as the adapters' spaces hold them.
Observed: TypeAlias = NDArray[np.int32] | NDArray[np.int64]


@inlined
def flag(out: Observed, start: int, seat: int, me: int, n: int) -> None:
    """Set the entry of ``seat`` (counted from ``me``) in the seat field at ``start``; none
    for no seat (-1)."""
    if start >= 0 and seat >= 0:
        out[start + (seat - me) % n] = 1


@inlined
def observe(s: Games, r: BatchRules, t: Layout, i: int, me: int, at: Spots, out: Observed) -> None:
    """Write seat ``me``'s observation of game ``i`` into ``out`` (zeros)."""
    n = t.players
    out[at.seat + me] = 1
    out[at.round] = min(s.round_number[i], t.observed_rounds)
    hidden = s.must_declare[i] and s.to_act[i] == me
    out[at.hand_hidden] = hidden
    if not hidden:  # the dice under the viewer's cup (those out in the open apart)
        for f in range(t.faces):
            out[at.hand + f] = under_cup(s, i, me, f + 1)
    for k in range(n):
        seat = (me + k) % n
        out[at.dice + k] = s.held[i, seat]
        out[at.starting_dice + k] = s.start_dice[i, seat]
        if at.score >= 0:
            out[at.score + k] = s.scores[i, seat]
        if at.pressure_left >= 0:
            out[at.pressure_left + k] = s.pressure_left[i, seat]
        out[at.may_call + k] = may_call(s, r, i, seat)
        out[at.face_changers + k] = s.changers[i, seat]
        out[at.winners + k] = s.winners[i, seat]
        if at.owed >= 0:
            out[at.owed + k] = s.owed[i, seat]
    flag(out, at.to_act, s.to_act[i], me, n)
    if at.special_round >= 0:
        out[at.special_round] = s.special[i]
    flag(out, at.special_player, s.special_player[i], me, n)
    for d in range(t.declarations):
        out[at.offers + d] = s.offers[i, d]
    out[at.must_declare] = s.must_declare[i]
    out[at.wild] = wild_face(s, r, i)
    for k in range(s.nbids[i]):  # each link's entry: when it was made (from 1), by whom
        at_bid = s.bid_made[i, k] * n + (s.bid_by[i, k] - me) % n
        claim = s.bid_claim[i, k]
        if claim == 0:
            out[at.bids + at_bid] = k + 1
        else:  # a claim, a pass, a doubt: by the bid it names, the seat's next placing of it
            block = at.claims if claim == 1 else at.passes if claim == 2 else at.doubts
            index = block + at_bid
            while out[index]:
                index += t.bids * n
            out[index] = k + 1
    if s.to_act[i] == me:
        fill_mask(s, r, t, i, out[at.legal : at.legal + t.actions])
    else:  # the exact call out of turn, a re-roll after one's bid
        fill_out_of_turn(s, r, t, i, me, out[at.legal : at.legal + t.actions])
    if s.last[i]:
        observe_last(s, r, t, i, me, at, out)
    if at.open >= 0:
        observe_acts(s, t, i, me, at, out)


@inlined
def observe_acts(s: Games, t: Layout, i: int, me: int, at: Spots, out: Observed) -> None:
    """The dice out in the open and the round's own actions, in seat ``me``'s observation
    of game ``i``."""
    n = t.players
    for k in range(n):
        seat = (me + k) % n
        for f in range(t.faces):
            out[at.open + k * t.faces + f] = s.open_faces[i, seat, f + 1]
    for k in range(s.nbids[i] + 1):
        taken = s.acts_after[i, k]
        if taken:
            number, seat = (taken - 1) // n, (taken - 1) % n
            out[at.acts + k] = 1 + number * n + (seat - me) % n


@inlined
def observe_last(
    s: Games, r: BatchRules, t: Layout, i: int, me: int, at: Spots, out: Observed
) -> None:
    """The last call's entries of seat ``me``'s observation of game ``i``."""
    n = t.players
    out[at.last] = 1
    out[at.last_call + s.last_call[i]] = 1
    if at.last_claim >= 0:
        out[at.last_claim] = s.last_claim[i]
    out[at.last_quantity] = s.last_q[i]
    if s.last_f[i] > 0:  # a hand names no face
        out[at.last_face + s.last_f[i] - 1] = 1
    out[at.last_pressure] = s.last_p[i]
    flag(out, at.last_caller, s.last_caller[i], me, n)
    flag(out, at.last_bidder, s.last_bidder[i], me, n)
    out[at.last_count] = s.last_count[i]
    shown = 1 - s.dealt[i]  # the set of faces that holds the hands shown
    for k in range(n):
        seat = (me + k) % n
        out[at.last_revealed + k] = s.last_revealed[i, seat]
        out[at.last_hidden + k] = s.last_hidden[i, seat]
        if s.last_revealed[i, seat]:
            for f in range(t.faces):
                out[at.last_hands + k * t.faces + f] = s.faces[i, shown, seat, f + 1]
    out[at.last_wild] = s.last_wild[i]
    if at.last_points >= 0:
        out[at.last_points] = s.last_points[i]
    for k in range(n):  # each seat's change: who lost, who gained, who went out
        seat = (me + k) % n
        change = s.last_changes[i, seat]
        out[at.last_loser + k] = change < 0
        out[at.last_gainer + k] = change > 0
        out[at.last_eliminated + k] = change < 0 and s.held[i, seat] == 0
        if at.last_changes >= 0:
            out[at.last_changes + k] = change


@compiled
def last_bid_faces(s: Games, out: NDArray[np.int64]) -> None:
    """``out[i, seat]``: the face of ``seat``'s last bid in game ``i``'s round (0: none)."""
    t = s.layout
    for i in rows(out.shape[0]):
        for k in range(s.nbids[i]):
            out[i, s.bid_by[i, k]] = (s.bid_made[i, k] // t.per_bid) % t.faces + 1


@compiled
def observe_games(s: Games, seats: NDArray[np.int64], out: Observed) -> None:
    """Row ``i`` of ``out`` (zeros): seat ``seats[i]``'s observation of game ``i``."""
    r, t, at = s.rules, s.layout, s.spots
    for i in rows(len(seats)):
        observe(s, r, t, i, seats[i], at, out[i])
