"""The exact-call axis: who may call it and what it settles, kind by kind."""

from __future__ import annotations

import pytest
from helpers import called, context

from perudo.rules import ExactCall, NoExactCall

CALZA = ExactCall("player-to-act", 2, False)
JONTI = ExactCall("not-bidder-or-before", 3, True)


@pytest.mark.parametrize(
    ("kind", "player", "dice", "reason"),
    [
        (CALZA, 0, (3, 5, 5, 5), None),  # the player to act
        (CALZA, 2, (3, 5, 5, 5), "not-your-turn"),
        (JONTI, 0, (3, 5, 5, 5), None),  # out of turn, any seat but the bidder and before
        (JONTI, 2, (3, 3, 3, 3), "exact-call-not-allowed"),  # seat 2 made the bid
        (JONTI, 1, (3, 3, 3, 3), "exact-call-not-allowed"),  # the seat just before it
        (JONTI, 3, (3, 3, 5, 5), "exact-call-not-allowed"),  # five dice: not fewer than 5
        (JONTI, 0, (3, 0, 5, 0), "exact-call-not-allowed"),  # two players still in
        (NoExactCall(), 0, (3, 5, 5, 5), "no-exact-call"),
    ],
)
def test_who_may_call(
    kind: ExactCall | NoExactCall, player: int, dice: tuple[int, ...], reason: str | None
) -> None:
    round_context = context(dice, bids=[(1, "2x3"), (2, "3x3")], to_act=0)
    violation = kind.check(player, round_context)
    assert (None if violation is None else violation.reason) == reason
    if violation is not None:
        assert violation.message  # a sentence for the player


def test_a_handicap_is_the_callers_own_full_hand() -> None:
    round_context = context((3, 3, 3, 3), bids=[(1, "3x3")], starting=(3, 5, 5, 5))
    violation = JONTI.check(3, round_context)
    assert violation is None
    full = JONTI.check(3, context((3, 3, 3, 3), bids=[(1, "3x3")], starting=(3, 5, 5, 3)))
    assert full is not None
    assert "fewer than 3 dice" in full.message


@pytest.mark.parametrize(
    ("count", "changes"),
    [
        (3, (1, 0, 0)),  # right: the caller gains a die (the engine keeps it at the start)
        (2, (-1, 0, 0)),  # wrong: the caller loses one
        (4, (-1, 0, 0)),
    ],
)
def test_what_it_settles(count: int, changes: tuple[int, ...]) -> None:
    call = called(context((4, 5, 5), bids=[(2, "3x3")]), "exact", 0, count)
    assert CALZA.settle(call) == changes
    assert NoExactCall().settle(call) == (0, 0, 0)


def test_flags() -> None:
    assert (CALZA.offered, CALZA.out_of_turn) == (True, False)
    assert (JONTI.offered, JONTI.out_of_turn) == (True, True)
    assert (NoExactCall.offered, NoExactCall.out_of_turn) == (False, False)
