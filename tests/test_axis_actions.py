"""The actions axis: what a player may do besides bid, call or declare, and what it does
(the protocol opened to a user's action: tests/test_actions.py)."""

from __future__ import annotations

import attrs
import pytest
from helpers import context

from perudo import Act
from perudo.players import PlacedAct
from perudo.rules import ActEffect, ActionRule, NoActions, Reroll, RerollThenBid, RollBeforeBid

JUST_BID = context((3, 3, 3), bids=[(1, "3x3")])  # seat 1 has just bid
ANSWERED = context((3, 3, 3), bids=[(1, "3x3"), (2, "4x3")])  # and seat 2 raised it
OPENING = context((2, 2, 2))  # no bid yet, seat 0 to act
ROLLED = attrs.evolve(JUST_BID, acts=(PlacedAct(0, Act("roll"), 1),))  # seat 0 rolled


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
        # Wikipedia's common hand: "one or more dice of matching value" (seat 0 is to act)
        (RerollThenBid(), Act("reroll", (5, 5)), 0, (2, 5, 5), JUST_BID, None),
        (RerollThenBid(), Act("reroll", (2, 5)), 0, (2, 5, 5), JUST_BID, "values-differ"),
        (RerollThenBid(), Act("reroll", (5,)), 1, (2, 5, 5), JUST_BID, "not-your-turn"),
        (RerollThenBid(), Act("reroll", (2, 5, 5)), 0, (2, 5, 5), JUST_BID, "nothing-to-reroll"),
        # Mia: "Believe the passer, roll the dice and pass it on, announcing a higher value"
        (RollBeforeBid(), Act("roll"), 0, (5, 4), JUST_BID, None),
        (RollBeforeBid(), Act("roll"), 1, (5, 4), JUST_BID, "not-your-turn"),
        (RollBeforeBid(), Act("roll"), 0, (5, 4), OPENING, "nothing-to-raise"),  # dealt: bid
        (RollBeforeBid(), Act("roll"), 0, (5, 4), ROLLED, "already-rolled"),
        (RollBeforeBid(), Act("roll", (5,)), 0, (5, 4), JUST_BID, "malformed-action"),
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
        (RerollThenBid(), 0, (2, 5, 5), ((2,), (5,), (5, 5))),  # one value, by value
        (RerollThenBid(), 1, (2, 5, 5), ()),  # not the player to act
        (RollBeforeBid(), 0, (5, 4), ((),)),  # the player to act rolls, naming no die
        (RollBeforeBid(), 1, (5, 4), ()),
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
    roll = RollBeforeBid()
    assert roll.effect(Act("roll"), 0, (5, 4), JUST_BID) == ActEffect(reroll=True, then_bid=True)
    assert (roll.binds, roll.bids_after, roll.out_of_turn) == (True, True, False)


def test_an_action_said_with_a_bid_binds_the_next_move() -> None:
    """ "place them outside the cup in view of the other players, re-roll the remaining
    dice, and make a new bid": after the re-roll its player bids, and only bids."""
    import perudo
    from perudo import Bid, Dudo, IllegalActionError

    edition = perudo.load_variant("italian").derive(
        "italian-reroll", reason="t", actions={"kind": "reroll-then-bid"}
    )
    state = perudo.new_game(edition, 3, seed=1, dice=[[5, 5, 2, 3, 4], [2, 2, 3, 4, 6],
                                                      [1, 3, 4, 5, 6]], first_player=0)  # fmt: skip
    played = state.apply(Bid(2, 3)).apply(Act("reroll", (4,)))  # seat 1 re-rolls, then bids
    assert (played.to_act, played.must_bid, played.players[1].open) == (1, True, (4,))
    assert all(isinstance(action, Bid) for action in played.legal_actions())
    assert played.legal_actions(by=2) == ()
    for action, seat in ((Dudo(), 1), (Act("reroll", (2,)), 1), (Bid(9, 6), 2)):
        with pytest.raises(IllegalActionError) as refused:
            played.apply(action, by=seat)
        assert refused.value.reason == "bid-required"
    after = played.apply(Bid(3, 4))
    assert (after.to_act, after.must_bid) == (2, False)
    assert RerollThenBid().effect(Act("reroll", (5,)), 0, (2, 5), JUST_BID).then_bid
    topped = perudo.new_game(edition, 2, seed=1, first_player=0).apply(Bid(2, 3))
    topped = topped.apply(Bid(10, 1))  # ten ones of ten dice: no bid is left to seat 0
    assert not any(isinstance(action, Act) for action in topped.legal_actions())  # no bid left
    with pytest.raises(IllegalActionError) as none_left:
        topped.apply(Act("reroll", (topped.players[0].dice[0],)))
    assert none_left.value.reason == "no-bid-left"
