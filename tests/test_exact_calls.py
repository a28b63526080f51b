"""Calza (French Calza) and Jonti (French Jonti): exact calls in and out of turn."""

from __future__ import annotations

import pytest
from helpers import game, play

import perudo
from perudo import Calza, IllegalActionError

# Seat 0 holds two 4s; seats 1-4 hold one 4 each: six 4s with no ones.
HANDS = [[4, 4], [4, 2, 2, 3, 3], [4, 2, 3, 5, 6], [4, 2, 3, 5, 5], [4, 2, 5, 6, 6]]


def refusal(state: perudo.GameState, by: perudo.Seat = perudo.TO_ACT) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        state.apply(Calza(), by=by)
    return caught.value


# --- Calza -------------------------------------------------------------------------------


def test_calza_right_regains_a_lost_die_and_the_caller_starts() -> None:
    state = game("french-calza", HANDS[:3], first=1)  # four 4s in play
    state = play(state, "3x4", "4x4")  # seat 2 bids; seat 0 (two dice) calls
    assert state.to_act == 0
    state = play(state, "calza")
    result = state.last_result
    assert result is not None
    assert (result.call, result.word, result.count) == ("exact", "Calza", 4)
    assert result.gainer == 0
    assert result.loser is None
    assert [len(p.dice) for p in state.players] == [3, 5, 5]
    assert state.to_act == 0
    assert str(result).endswith("Player 1 gains a die")  # the table's names (issue 18)


def test_calza_at_five_dice_gains_nothing() -> None:
    state = play(game("french-calza", HANDS[1:4], first=0), "3x4", "calza")  # three 4s
    result = state.last_result
    assert result is not None
    assert result.is_exact
    assert result.gainer is None
    assert result.loser is None
    assert [len(p.dice) for p in state.players] == [5, 5, 5]
    assert "gains nothing" in str(result)


def test_calza_wrong_loses_a_die() -> None:
    state = play(game("french-calza", HANDS[1:4], first=0), "4x4", "calza")
    result = state.last_result
    assert result is not None
    assert result.loser == 1
    assert [len(p.dice) for p in state.players] == [5, 4, 5]
    assert state.to_act == 1


def test_calza_only_on_your_turn_and_only_on_a_bid() -> None:
    state = game("french-calza", HANDS[1:4], first=0)
    assert refusal(state).reason == "nothing-to-challenge"
    state = play(state, "2x4")
    assert refusal(state, by=2).reason == "not-your-turn"
    assert refusal(state, by=0).reason == "not-your-turn"
    assert Calza() in state.legal_actions()
    assert state.legal_actions(by=2) == ()


def test_wrong_calza_that_eliminates_the_caller_passes_the_start_left() -> None:
    state = game("french-calza", [[2, 2], [3, 3, 3], [4]], first=1)
    state = play(state, "1x5", "calza")  # seat 2 (one die) calls wrongly and is out
    result = state.last_result
    assert result is not None
    assert result.out == (2,)
    assert state.to_act == 0


@pytest.mark.parametrize("edition", ["italian", "spanish", "wango", "wango-party"])
def test_editions_without_an_exact_call_refuse_it(edition: str) -> None:
    state = play(game(edition, [[2, 3, 4, 5, 6]] * 3), "2x4")
    assert refusal(state).reason == "no-exact-call"
    assert Calza() not in state.legal_actions()


# --- Jonti -------------------------------------------------------------------------------


def test_jonti_eligibility_seat_by_seat() -> None:
    # Seat 1 bids; seat 0 (just before the bidder) and seat 1 (the bidder) may not call.
    hands = [[4, 4], [4, 2, 3], [4, 2, 2, 3], [4, 5], [4, 2, 2, 3, 3]]
    state = play(game("french-jonti", hands, first=1), "3x4")
    assert state.to_act == 2
    reasons = {}
    for seat in range(5):
        violation = state.check(Calza(), by=seat)
        reasons[seat] = None if violation is None else violation.reason
        assert state.is_legal(Calza(), by=seat) is (violation is None)
        assert (Calza() in state.legal_actions(by=seat)) is (violation is None)
    assert reasons == {
        0: "exact-call-not-allowed",  # the seat just before the bidder
        1: "exact-call-not-allowed",  # the bidder
        2: None,  # in turn
        3: None,  # out of turn
        4: "exact-call-not-allowed",  # holds five dice
    }
    assert "own bid" in str(state.check(Calza(), by=1).message)  # type: ignore[union-attr]
    assert "follows you" in str(state.check(Calza(), by=0).message)  # type: ignore[union-attr]
    assert "fewer than 5 dice" in str(state.check(Calza(), by=4).message)  # type: ignore[union-attr]


def test_jonti_seat_before_the_bidder_skips_seats_that_are_out() -> None:
    hands = [[2, 3, 4, 5], [2], [2, 3, 4], [4, 4]]
    state = play(game("french-jonti", hands, first=1), "9x6", "dudo")  # seat 1 is out
    assert state.to_act == 2
    state = play(state, "1x4")
    assert state.to_act == 3
    assert "follows you" in refusal(state, by=0).message  # seat 0 is now just before seat 2
    assert state.is_legal(Calza(), by=3)


def test_jonti_out_of_turn_right_gains_a_die_and_the_caller_starts() -> None:
    hands = [[4, 4], [4, 2, 3], [4, 2, 2, 3], [4, 5]]  # five 4s
    state = play(game("french-jonti", hands, first=1), "5x4", "calza@3")
    result = state.last_result
    assert result is not None
    assert (result.word, result.caller, result.bidder, result.count) == ("Jonti", 3, 1, 5)
    assert result.gainer == 3
    assert [len(p.dice) for p in state.players] == [2, 3, 4, 3]
    assert state.to_act == 3
    assert state.bid is None
    assert state.check(Calza(), by=0) is not None  # the round is over: no second call


def test_jonti_wrong_loses_a_die() -> None:
    hands = [[4, 4], [4, 2, 3], [4, 2, 2, 3], [4, 5]]
    state = play(game("french-jonti", hands, first=1), "4x4", "calza@3")
    result = state.last_result
    assert result is not None
    assert result.loser == 3
    assert [len(p.dice) for p in state.players] == [2, 3, 4, 1]
    assert state.to_act == 3
    assert state.offers == ("calzone",)  # a drop to one die offers Calzone


def test_jonti_needs_three_players_still_in() -> None:
    state = play(game("french-jonti", [[4, 4], [2, 3, 4]], first=0), "2x4")
    assert refusal(state).reason == "exact-call-not-allowed"
    assert "at least 3 players" in str(refusal(state))
    state = play(game("french-jonti", [[4, 4], [2, 3, 4], [5]], first=0), "2x4")
    assert state.is_legal(Calza())


def test_a_dudo_that_eliminates_lets_the_eliminator_start() -> None:
    # 002: "si un joueur est sorti du jeu [...] ce sera au joueur qui l'a frappé de commencer"
    hands = [[2, 3, 4, 5, 5], [2], [2, 3, 4, 5, 5], [2, 3, 4, 5, 5]]
    state = play(game("french-jonti", hands, first=1), "9x6", "dudo")
    assert not state.players[1].is_in
    assert state.to_act == 2  # the challenger
    hands = [[2, 3, 4, 5, 5], [2, 3, 4, 5, 5], [2], [2, 3, 4, 5, 5]]
    state = play(game("french-jonti", hands, first=1), "2x2", "dudo")
    assert not state.players[2].is_in  # a wrong Perudo put seat 2 out
    assert state.to_act == 1  # the bidder struck them
    italian = play(game("italian", hands, first=1), "2x2", "dudo")
    assert italian.to_act == 3  # elsewhere: the next player to the left
