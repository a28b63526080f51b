"""The actions axis: what a player may do besides bid, call or declare, and what it does
(the protocol opened to a user's action: tests/test_actions.py)."""

from __future__ import annotations

import attrs
import pytest
from helpers import context

from perudo import Act
from perudo.players import PlacedAct
from perudo.rules import (
    ActEffect,
    ActionRule,
    NoActions,
    Reroll,
    RerollThenBid,
    RollAndDraw,
    RollBeforeBid,
)

JUST_BID = context((3, 3, 3), bids=[(1, "3x3")])  # seat 1 has just bid
ANSWERED = context((3, 3, 3), bids=[(1, "3x3"), (2, "4x3")])  # and seat 2 raised it
OPENING = context((2, 2, 2))  # no bid yet, seat 0 to act
ROLLED = attrs.evolve(JUST_BID, acts=(PlacedAct(0, Act("roll"), 1),))  # seat 0 rolled
DRAWN_TWICE = attrs.evolve(OPENING, acts=(PlacedAct(0, Act("draw", (5,)), 0),) * 2)
HAND = (5, 4, 3, 2, 1)


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
        # howtodothings' poker dice: "decides whether to "stand pat" or "draw". If the player
        # decides to draw, he or she can re-roll up to two times"; the next player "can
        # either challenge the previous player or roll the dice for his own hand"
        (RollAndDraw(2), Act("roll"), 0, HAND, JUST_BID, None),
        (RollAndDraw(2), Act("draw", (5,)), 0, HAND, JUST_BID, "act-first"),  # roll first
        (RollAndDraw(2), Act("draw", (5, 1)), 0, HAND, OPENING, None),  # the dice dealt
        (RollAndDraw(2), Act("draw", (6,)), 0, HAND, OPENING, "die-not-held"),
        (RollAndDraw(2), Act("draw"), 0, HAND, OPENING, "malformed-action"),
        (RollAndDraw(2), Act("roll"), 0, HAND, OPENING, "nothing-to-raise"),
        (RollAndDraw(2), Act("roll"), 1, HAND, JUST_BID, "not-your-turn"),
        (RollAndDraw(2), Act("roll"), 0, HAND, ROLLED, "already-rolled"),
        (RollAndDraw(2), Act("draw", (5,)), 0, HAND, DRAWN_TWICE, "draws-used-up"),
        (RollAndDraw(3), Act("draw", (5,)), 0, HAND, DRAWN_TWICE, None),
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
        (RollAndDraw(2), 0, (5, 4), ((),)),  # a roll owed, before any draw
        (RollAndDraw(2), 1, (5, 4), ()),
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
    assert (roll.binds, roll.out_of_turn) == (True, False)
    assert roll.before_bid(0, (5, 4), JUST_BID) == Act("roll")
    assert roll.before_bid(0, (5, 4), ROLLED) is None


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
    for action, seat, reason in (
        (Dudo(), 1, "bid-required"),
        (Act("reroll", (2,)), 1, "already-rerolled"),  # its kind offers no second one
        (Bid(9, 6), 2, "bid-required"),
    ):
        with pytest.raises(IllegalActionError) as refused:
            played.apply(action, by=seat)
        assert refused.value.reason == reason
    after = played.apply(Bid(3, 4))
    assert (after.to_act, after.must_bid) == (2, False)
    assert RerollThenBid().effect(Act("reroll", (5,)), 0, (2, 5), JUST_BID).then_bid
    topped = perudo.new_game(edition, 2, seed=1, first_player=0).apply(Bid(2, 3))
    topped = topped.apply(Bid(10, 1))  # ten ones of ten dice: no bid is left to seat 0
    assert not any(isinstance(action, Act) for action in topped.legal_actions())  # no bid left
    with pytest.raises(IllegalActionError) as none_left:
        topped.apply(Act("reroll", (topped.players[0].dice[0],)))
    assert none_left.value.reason == "no-bid-left"


def test_nobody_may_call_exactly_while_a_bid_is_owed() -> None:
    """Regression (found by the batch engine's drawn editions): after a roll its player
    owes a bid and nobody else may act, but the views still listed it in ``may_call``."""
    import perudo
    from perudo import Bid

    edition = perudo.load_variant("french-calza").derive(
        "calza-roll", reason="t", actions={"kind": "roll"}
    )
    state = perudo.new_game(edition, 3, seed=1, first_player=0).apply(Bid(2, 3))
    assert state.view(1).may_call == (1,)  # the player to act may call Calza, before its roll
    rolled = state.apply(Act("roll"))
    assert rolled.must_bid
    assert rolled.view(1).may_call == rolled.view(0).may_call == ()


def test_a_bidder_draws_chosen_dice_again_then_bids() -> None:
    """ "If the player decides to draw, he or she can re-roll up to two times. Once the
    player is happy with his hand or can no longer re-roll, he must specifically announce
    his hand": a draw rolls the dice it names again, hidden, the rest of the cup kept; after
    it the bidder may draw again or bid, and nothing else."""
    import perudo
    from perudo import Dudo, HandBid

    poker = perudo.load_variant("mia").derive(
        "poker-draws", reason="t", dice={"kind": "standard", "per_player": 5},
        claims={"kind": "poker-hands", "order": [1, 2, 3, 4, 5, 6]},
        actions={"kind": "roll-and-draw", "draws": 2},
        exact_call={"kind": "none"}, words={"calza": None},
    )  # fmt: skip
    dealt = [[5, 5, 2, 3, 1], [6, 6, 4, 3, 2]]
    state = perudo.new_game(poker, 2, seed=3, dice=dealt, first_player=0)
    assert state.chance_nodes(Act("draw", (1, 2))) == ((1, 2, 3, 4, 5, 6),) * 2
    drawn = state.apply(Act("draw", (1, 2, 3)), rolled=[5, 4, 4])
    assert drawn.players[0].dice == (4, 4, 5, 5, 5)  # the 5s kept, three dice rolled again
    assert drawn.view(1).seats[0].dice_count == 5  # and unseen by the other player
    assert Dudo() not in drawn.legal_actions()  # a bid, or the second draw
    assert Act("draw", (4, 4)) in drawn.legal_actions()
    again = drawn.apply(Act("draw", (4, 4)), rolled=[5, 5])
    assert not any(isinstance(a, Act) for a in again.legal_actions())  # two draws: bid
    bid = again.apply(HandBid((5, 5, 5, 5, 5)))  # five 5s: true
    assert bid.legal_actions() == (Dudo(), Act("roll"))  # the next player: challenge or roll
    assert bid.apply(Dudo()).last_result.loser == 1  # type: ignore[union-attr]
