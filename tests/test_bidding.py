"""Raise orders, conversion to and from ones, opening on ones, the quantity cap."""

from __future__ import annotations

import pytest
from helpers import SIX, game, play

import perudo
from perudo import Bid, IllegalActionError

FIVE = [2, 3, 4, 5, 6]
ALL = SIX
QUANTITY_MAJOR = ("italian", "french-calza", "french-jonti", "wango", "wango-party")
WITH_CONVERSION = ALL  # every edition converts (stated or inherited)


def six_players(edition: str) -> perudo.GameState:
    return game(edition, [FIVE] * 6)


def refusal(state: perudo.GameState, bid: Bid) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        state.apply(bid)
    return caught.value


@pytest.mark.parametrize("edition", QUANTITY_MAJOR)
def test_quantity_major_raise_order(edition: str) -> None:
    state = play(six_players(edition), "5x4")
    for face in range(2, 7):
        assert state.is_legal(Bid(6, face))  # more dice, any face
    assert state.is_legal(Bid(5, 5))
    assert state.is_legal(Bid(5, 6))
    assert not state.is_legal(Bid(5, 4))
    assert not state.is_legal(Bid(5, 3))
    assert not state.is_legal(Bid(4, 6))


def test_the_sentence_names_the_rule() -> None:
    state = play(six_players("italian"), "8x3")
    error = refusal(state, Bid(8, 2))
    assert error.reason == "bid-too-low"
    assert str(error) == "8x2 does not raise 8x3: the same quantity needs a higher face"
    assert error.action == Bid(8, 2)
    assert error.player == 1
    assert "at least the same quantity (8)" in str(refusal(state, Bid(7, 6)))
    assert "the same face needs more dice" in str(refusal(state, Bid(8, 3)))


def test_spanish_raise_order_is_monotone() -> None:
    # 003: neither number goes down, at least one goes up (reading; see the declaration).
    state = play(six_players("spanish"), "3x3")
    assert refusal(state, Bid(4, 2)).reason == "face-lowered"  # legal in the other editions
    assert refusal(state, Bid(2, 6)).reason == "bid-too-low"  # the literal reading allows it
    assert refusal(state, Bid(3, 3)).reason == "bid-too-low"
    assert refusal(state, Bid(3, 2)).reason == "face-lowered"
    assert state.is_legal(Bid(3, 6))
    assert state.is_legal(Bid(9, 3))
    italian = play(six_players("italian"), "3x3")
    assert italian.is_legal(Bid(4, 2))


@pytest.mark.parametrize("edition", WITH_CONVERSION)
@pytest.mark.parametrize("quantity", range(1, 31))
def test_conversion_to_ones_at_every_quantity(edition: str, quantity: int) -> None:
    state = six_players(edition)  # 30 dice in play: under every cap
    state = play(state, f"{quantity}x5")
    need = (quantity + 1) // 2
    assert state.is_legal(Bid(need, 1))
    if need > 1:
        error = refusal(state, Bid(need - 1, 1))
        assert error.reason == "bid-too-low"
        assert f"at least {need} ones" in str(error)


@pytest.mark.parametrize("edition", WITH_CONVERSION)
@pytest.mark.parametrize("ones", range(1, 15))
def test_conversion_from_ones_at_every_quantity(edition: str, ones: int) -> None:
    state = play(six_players(edition), f"{2 * ones}x5", f"{ones}x1")
    need = 2 * ones + 1
    for face in range(2, 7):
        assert state.is_legal(Bid(need, face))
        error = refusal(state, Bid(need - 1, face))
        assert error.reason == "bid-too-low"
        assert f"at least {need} dice" in str(error)
    assert state.is_legal(Bid(ones + 1, 1))
    assert not state.is_legal(Bid(ones, 1))


@pytest.mark.parametrize("edition", ["italian", "french-calza", "french-jonti", "spanish"])
@pytest.mark.parametrize("quantity", range(15, 31))
def test_conversion_beyond_the_dice_in_play_without_a_cap(edition: str, quantity: int) -> None:
    state = play(game(edition, [FIVE] * 2), f"{quantity}x4")  # 10 dice in play, no cap
    need = (quantity + 1) // 2
    assert state.is_legal(Bid(need, 1))
    assert not state.is_legal(Bid(need - 1, 1))
    state = play(state, f"{need}x1")
    assert state.is_legal(Bid(2 * need + 1, 6))
    assert not state.is_legal(Bid(2 * need, 6))


@pytest.mark.parametrize("edition", ALL)
def test_no_round_opens_on_ones(edition: str) -> None:
    state = six_players(edition)
    for quantity in (1, 2, 5):
        assert refusal(state, Bid(quantity, 1)).reason == "ones-on-opening"
    assert not any(isinstance(a, Bid) and a.face == 1 for a in state.legal_actions())


@pytest.mark.parametrize("edition", ["wango", "wango-party"])
def test_wango_caps_bids_at_the_dice_in_play(edition: str) -> None:
    state = game(edition, [FIVE, FIVE, [2, 3]])  # 12 dice in play
    assert state.is_legal(Bid(12, 6))
    error = refusal(state, Bid(13, 2))
    assert error.reason == "above-cap"
    assert "12" in str(error)
    state = play(state, "12x5")
    assert state.is_legal(Bid(12, 6))
    assert refusal(state, Bid(13, 5)).reason == "above-cap"
    assert max(a.quantity for a in state.legal_actions() if isinstance(a, Bid)) == 12


@pytest.mark.parametrize("edition", ["italian", "french-calza", "french-jonti", "spanish"])
def test_without_a_cap_a_bid_above_the_dice_in_play_is_legal_and_false(edition: str) -> None:
    state = game(edition, [FIVE, FIVE])
    assert max(a.quantity for a in state.legal_actions() if isinstance(a, Bid)) == 10
    state = play(state, "40x6", "dudo")
    result = state.last_result
    assert result is not None
    assert result.loser == 0


@pytest.mark.parametrize("edition", ALL)
def test_legal_bids_are_exactly_the_bids_apply_accepts(edition: str) -> None:
    state = play(six_players(edition), "7x3")
    offered = {a for a in state.legal_actions() if isinstance(a, Bid)}
    for quantity in range(1, 31):
        for face in range(1, 7):
            bid = Bid(quantity, face)
            assert (bid in offered) == state.is_legal(bid), bid
