"""The actions axis: what a player may do besides bid, call or declare, and what it does
(the protocol opened to a user's action: tests/test_actions.py)."""

from __future__ import annotations

import pytest
from helpers import context

from perudo import Act
from perudo.rules import ActEffect, ActionRule, NoActions, Reroll

JUST_BID = context((3, 3, 3), bids=[(1, "3x3")])  # seat 1 has just bid
ANSWERED = context((3, 3, 3), bids=[(1, "3x3"), (2, "4x3")])  # and seat 2 raised it


@pytest.mark.parametrize(
    ("kind", "action", "player", "cup", "round_context", "reason"),
    [
        (NoActions(), Act("reroll", (5,)), 1, (2, 5, 5), JUST_BID, "no-such-action"),
        (Reroll(), Act("reroll", (5,)), 1, (2, 5, 5), JUST_BID, None),  # one out, two re-rolled
        (Reroll(), Act("reroll", (5, 5)), 1, (2, 5, 5), JUST_BID, None),
        (Reroll(), Act("reroll", (5,)), 2, (2, 5, 5), JUST_BID, "not-the-bidder"),
        (Reroll(), Act("reroll", (5,)), 1, (2, 5, 5), ANSWERED, "too-late"),
        (Reroll(), Act("reroll", ()), 1, (2, 5, 5), JUST_BID, "nothing-put-out"),
        (Reroll(), Act("reroll", (6,)), 1, (2, 5, 5), JUST_BID, "die-not-held"),
        (Reroll(), Act("reroll", (2, 5, 5)), 1, (2, 5, 5), JUST_BID, "nothing-to-reroll"),
    ],
)  # fmt: skip
def test_what_a_player_may_do_and_why_not(
    kind: ActionRule, action: Act, player: int, cup: tuple[int, ...],
    round_context: object, reason: str | None,
) -> None:  # fmt: skip
    refused = kind.check(action, player, cup, round_context)  # type: ignore[arg-type]
    assert (refused.reason if refused else None) == reason


@pytest.mark.parametrize(
    ("kind", "player", "cup", "moves"),
    [
        (NoActions(), 1, (2, 5, 5), ()),
        (Reroll(), 1, (2, 5, 5), ((2,), (5,), (2, 5), (5, 5))),  # fewest first, each once
        (Reroll(), 1, (4,), ()),  # one die: nothing would stay under the cup
        (Reroll(), 2, (2, 5, 5), ()),  # not the bidder
    ],
)
def test_the_moves_offered(
    kind: ActionRule, player: int, cup: tuple[int, ...], moves: tuple[tuple[int, ...], ...]
) -> None:
    assert tuple(act.numbers for act in kind.moves(player, cup, JUST_BID)) == moves


def test_what_an_action_does() -> None:
    assert Reroll().effect(Act("reroll", (5, 2)), 1, (2, 5, 5), JUST_BID) == ActEffect(
        put_out=(2, 5), reroll=True
    )
    assert NoActions().effect(Act("reroll", (5,)), 1, (2, 5, 5), JUST_BID) == ActEffect()
    assert (NoActions().out_of_turn, Reroll().out_of_turn) == (False, True)
