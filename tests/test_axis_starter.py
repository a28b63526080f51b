"""The starter axis: who opens the next round, from the settled call."""

from __future__ import annotations

import pytest
from helpers import called, context, settled

from perudo.rules import (
    AfterLoser,
    LoserStarts,
    LostDiceStarts,
    RotatingStarter,
    StarterRule,
    WinnerStarts,
)

# Seat 1 bid; seat 2 called. Changes of dice per seat, and who opens next.
ROWS = [
    (LoserStarts("left"), "challenge", (0, -1, 0, 0), (5, 5, 5, 5), 1),  # the bidder lost
    (LoserStarts("left"), "challenge", (0, 0, -1, 0), (5, 5, 5, 5), 2),  # the caller lost
    (LoserStarts("left"), "challenge", (0, -1, 0, 0), (5, 1, 5, 5), 2),  # out: the left
    (LoserStarts("eliminator"), "challenge", (0, -1, 0, 0), (5, 1, 5, 5), 2),  # who put it out
    (LoserStarts("eliminator"), "challenge", (0, 0, -1, 0), (5, 5, 1, 5), 1),
    (LoserStarts("left"), "exact", (0, 0, 1, 0), (5, 5, 4, 5), 2),  # an exact call: the caller
    (LoserStarts("left"), "exact", (-1, -1, 0, -1), (5, 5, 5, 5), 2),  # several lost: caller
    (WinnerStarts(), "challenge", (0, -1, 0, 0), (5, 5, 5, 5), 2),  # the caller won
    (WinnerStarts(), "challenge", (0, 0, -1, 0), (5, 5, 5, 5), 1),  # the bidder won
    (WinnerStarts(), "exact", (0, 0, -1, 0), (5, 5, 1, 5), 3),  # the caller, out: the left
    (LostDiceStarts(), "challenge", (0, -2, 0, 0), (5, 5, 5, 5), 1),  # who lost dice
    (LostDiceStarts(), "challenge", (0, 0, -2, 0), (5, 5, 5, 5), 2),
    (LostDiceStarts(), "challenge", (0, -2, 0, 0), (5, 2, 5, 5), 2),  # out: the left
    (LostDiceStarts(), "challenge", (-1, 0, -1, -1), (5, 5, 5, 5), 1),  # all but one: the bidder
    # UO Outlands: "the first player shifts": seat 1 opened (the first bid), seat 2 opens next
    (RotatingStarter(), "challenge", (0, -1, 0, 0), (5, 5, 5, 5), 2),
    (RotatingStarter(), "challenge", (0, 0, -1, 0), (5, 5, 1, 5), 3),  # seat 2 out: the left
    # Mia: "the passer loses a life and the receiving player starts a new round", or "the
    # current player loses a life and the next player starts a new round"
    (AfterLoser(), "challenge", (0, -1, 0, 0), (5, 5, 5, 5), 2),  # the bidder lost: the caller
    (AfterLoser(), "challenge", (0, 0, -1, 0), (5, 5, 5, 5), 3),  # the caller lost: its left
    (AfterLoser(), "challenge", (0, 0, -1, 0), (5, 5, 5, 0), 0),  # seat 3 is out: the next
]


@pytest.mark.parametrize(("kind", "call", "changes", "dice", "opener"), ROWS)
def test_who_opens_next(
    kind: StarterRule, call: str, changes: tuple[int, ...], dice: tuple[int, ...], opener: int
) -> None:
    bid_stands = changes[2] < 0 and call == "challenge"  # the caller lost: the bid stood
    count = 3 if bid_stands or call == "exact" else 1
    settled_call = settled(called(context(dice, bids=[(1, "3x3")]), call, 2, count), changes)
    assert kind.next_opener(settled_call) == opener
