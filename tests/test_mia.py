"""Mia as Wikipedia's article gives its rules (quoted at modhoster.com, "Mia"): a bid names
the value of the bidder's two dice, rolled afresh before each bid; the next player raises or
calls the bidder a liar; a Mia may be given up; six lives, the first player out of them
loses. The shipped declaration played through the source's own sentences."""

from __future__ import annotations

import pytest
from helpers import check_random_games, game, play
from invariants import MIA_ORDER

import perudo
from perudo import Act, Bid, Calza, Dudo, HandBid

EDITION = perudo.load_variant("mia")
ROLL = Act("roll")
MIA = HandBid((2, 1))
HANDS = [[5, 4], [6, 6], [3, 1]]  # seat 0 rolled 54, seat 1 a double 6, seat 2 the lowest


def test_the_values_rank_as_the_source_lists_them() -> None:
    """ "the complete list of all values is (in ascending order): 31, 32, 41, 42, 43, 51,
    52, 53, 54, 61, 62, 63, 64, 65, 11, 22, 33, 44, 55, [66,] 21" (games-wiki's list, whose
    66 Wikipedia's gives); "If you roll a 4 and a 6 you will call [...] 64"."""
    named = [name for _, name in EDITION.hand_names]
    assert named == [*MIA_ORDER[:-1], "Mia"]  # the source's list, written out apart
    assert EDITION.claims.rank((4, 6)) == EDITION.claims.rank((6, 4)) == 13
    assert perudo.parse_action("64", variant=EDITION) == HandBid((6, 4))
    assert perudo.parse_action("mia", variant=EDITION) == MIA


def test_each_bid_names_a_higher_value() -> None:
    """ "each player must always announce a value greater than the previous value
    announced" """
    opened = play(game(EDITION, HANDS), "6-5")  # a lie: seat 0 holds 54
    rolled = opened.apply(ROLL, rolled=[2, 2])
    assert rolled.legal_actions()[0] == HandBid((1, 1))  # 65 is the highest non-double
    with pytest.raises(perudo.IllegalActionError) as lower:
        rolled.apply(HandBid((5, 4)))
    assert lower.value.reason == "bid-too-low"
    assert "54 does not raise 65" in str(lower.value)
    with pytest.raises(perudo.IllegalActionError) as quantity:
        rolled.apply(Bid(2, 5))
    assert quantity.value.reason == "bid-names-a-hand"


def test_a_player_rolls_before_raising_and_may_challenge_without_rolling() -> None:
    """ "Believe the passer, roll the dice and pass it on, announcing a higher value" or
    "Call the passer a liar and look at the dice" """
    opened = play(game(EDITION, HANDS), "5-4")  # the opener bids on the dice dealt
    assert opened.legal_actions() == (Dudo(), ROLL)  # a raise only after a roll
    with pytest.raises(perudo.IllegalActionError) as unrolled:
        opened.apply(HandBid((6, 6)))
    assert unrolled.value.reason == "act-first"
    rolled = opened.apply(ROLL, rolled=[1, 3])
    assert rolled.players[1].dice == (1, 3)  # the new roll, seen by the roller alone
    assert rolled.view(0).seats[1].dice_count == 2
    assert all(isinstance(move, HandBid) for move in rolled.legal_actions())  # bid now
    with pytest.raises(perudo.IllegalActionError) as again:
        rolled.apply(ROLL)
    assert again.value.reason == "already-rolled"


def test_a_liar_call_shows_the_bidders_dice_alone() -> None:
    """ "If the dice show a lesser value than that announced, the passer loses a life and
    the receiving player starts a new round. However, if the dice show a greater or equal
    value, the current player loses a life and the next player starts a new round." """
    caught = play(game(EDITION, HANDS), "6-5", "dudo")  # seat 0 holds 54 only
    result = caught.last_result
    assert result is not None
    assert (result.revealed, result.hands) == ((0,), ((4, 5), None, None))
    assert result.points == (-1, 0, 0)
    assert caught.to_act == 1  # the receiving player starts the new round
    assert str(result) == (
        "Liar by Player 2 on 65 by Player 1: the dice shown make 54; Player 1 loses 1 life"
    )
    held = play(game(EDITION, HANDS), "5-4", "dudo")  # exactly 54: it holds
    assert held.last_result is not None
    assert held.last_result.points == (0, -1, 0)
    assert held.to_act == 2  # the next player starts
    under = play(game(EDITION, HANDS), "4-3", "dudo")  # 54 is higher: it holds too
    assert under.last_result is not None
    assert under.last_result.loser == 1


def test_a_mia_may_be_given_up_or_doubted_for_two_lives() -> None:
    """ "If Mia is announced, the next player has two choices: They may give up without
    looking at the dice and lose one life. They may look at the dice. If it was a Mia, they
    lose two lives. If it wasn't, the previous player loses one life as usual." """
    true_mia = game(EDITION, [[1, 2], [6, 6], [3, 1]])
    claimed = true_mia.apply(MIA)
    assert claimed.legal_actions() == (Dudo(), Calza())  # nothing is higher: no roll
    assert perudo.parse_action("give up", variant=EDITION) == Calza()
    gave_up = claimed.apply(Calza())
    assert gave_up.last_result is not None
    assert (gave_up.last_result.revealed, gave_up.last_result.points) == ((), (0, -1, 0))
    assert "no hand is shown" in str(gave_up.last_result)
    doubted = claimed.apply(Dudo())
    assert doubted.last_result is not None
    assert doubted.last_result.points == (0, -2, 0)
    bluffed = game(EDITION, HANDS).apply(MIA).apply(Dudo())  # 54, not a Mia
    assert bluffed.last_result is not None
    assert bluffed.last_result.points == (-1, 0, 0)
    with pytest.raises(perudo.IllegalActionError) as early:
        game(EDITION, HANDS).apply(HandBid((6, 5))).apply(Calza())
    assert early.value.reason == "exact-call-not-allowed"


def test_the_first_player_out_of_lives_loses() -> None:
    """ "All players start with six lives." "The first player to lose all of their lives
    loses the game." Each round here, the opener claims 65 on a 54 and is caught."""
    state = game(EDITION, [[5, 4]] * 3)
    assert [player.score for player in state.players] == [6, 6, 6]
    rounds = 0
    while not state.is_over:
        state = state.with_dice([[5, 4]] * 3).apply(HandBid((6, 5))).apply(Dudo())
        rounds += 1
    assert rounds == 16  # seats 0, 1, 2 lose in turn: seat 0's sixth loss ends it
    assert [player.score for player in state.players] == [0, 1, 1]
    assert state.winners == (1, 2)


def test_a_declaration_refuses_what_a_hand_cannot_be() -> None:
    for changed, axis in [
        ({"wilds": {"kind": "ones"}}, "[wilds]"),
        ({"dice": {"kind": "standard", "per_player": 3}}, "[claims]"),
        ({"passes": {"kind": "no-pair", "per_round": 1}, "words": {"paso": "Pass"}}, "[passes]"),
    ]:
        with pytest.raises(perudo.InvalidVariantError, match=axis.replace("[", r"\[")):
            EDITION.derive("mia-changed", reason="t", **changed)  # type: ignore[arg-type]
    with pytest.raises(perudo.InvalidVariantError, match="give-up needs bids that name hands"):
        perudo.load_variant("italian").derive(
            "italian-give-up", reason="t", exact_call={"kind": "give-up"},
            words={"calza": "Give up"},
        )  # fmt: skip


def test_other_editions_refuse_a_hand() -> None:
    with pytest.raises(perudo.IllegalActionError) as refused:
        perudo.new_game("italian", 2, seed=1).apply(HandBid((6, 5)))
    assert refused.value.reason == "no-hand-bids"


def test_the_encodings_number_the_hands_by_rank() -> None:
    from perudo.encoding import action_encoding

    actions = action_encoding(EDITION, 3)
    assert actions.bid_count == 21
    assert actions.decode(actions.first_bid) == HandBid((3, 1))
    assert actions.decode(actions.size - 1) == MIA


def test_random_games_play_read_back_and_replay() -> None:
    check_random_games(EDITION, 3, 4)
    check_random_games(EDITION, 2, 4)


def test_the_batch_engine_plays_it_as_gamestate_does() -> None:
    """Hands ranked as Mia's values, the roll before each raise, the bidder's dice alone
    shown, two lives on a Mia that holds, giving up on Mia and the first player out of
    lives, on both engines alike, step by step (where the batch extra is installed); and
    Mia's values played for dice."""
    pytest.importorskip("numba", reason="the batch extra is not installed")
    from batch_reference import compare

    assert compare(EDITION, 3, 40, seed=9, observe=3) > 80
    for_dice = EDITION.derive(
        "mia-for-dice",
        reason="Test: Mia's values played for dice, without the roll.",
        scoring={"kind": "elimination"},
        actions={"kind": "none"},
        exact_call={"kind": "none"},
        words={"calza": None},
    )
    assert compare(for_dice, 4, 30, seed=10, observe=3) > 60


def test_the_batch_engine_refuses_hands_beside_what_it_plays_with_quantities() -> None:
    """A challenge that shows every hand, beside Mia's values, is refused by name."""
    pytest.importorskip("numba", reason="the batch extra is not installed")
    from perudo.batch import BatchGames

    shown_all = EDITION.derive(
        "mia-shown-all", reason="Test.", challenge={"kind": "dudo", "reveal": "all"}
    )
    with pytest.raises(perudo.GameSetupError, match="claims kind 'mia' with challenge kind"):
        BatchGames.new(shown_all, 3, batch=2, seed=1)
