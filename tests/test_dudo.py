"""Counting, Dudo resolution, and the Italian partial reveal."""

from __future__ import annotations

import pytest
from helpers import SIX, game, play

from perudo.dice import count

ALL = SIX


def test_count_with_and_without_wild_ones() -> None:
    hands = [(6, 6, 6, 6, 2), (1, 1, 3)]
    assert count(hands, 6, wild_ones=True) == 6
    assert count(hands, 6, wild_ones=False) == 4
    assert count(hands, 1, wild_ones=True) == 2  # a bid on ones counts ones only
    assert count(hands, 3, wild_ones=True) == 3


@pytest.mark.parametrize("edition", ALL)
def test_equality_favours_the_bidder(edition: str) -> None:
    hands = [[3, 3, 1, 2, 4], [3, 5, 5, 6, 6], [2, 2, 4, 4, 6]]  # four 3s with the one
    true = play(game(edition, hands), "4x3", "dudo")
    assert true.last_result is not None
    assert true.last_result.loser == 1  # challenger
    false = play(game(edition, hands), "5x3", "dudo")
    assert false.last_result is not None
    assert false.last_result.loser == 0  # bidder


@pytest.mark.parametrize("edition", ALL)
def test_a_bid_on_ones_counts_ones_only(edition: str) -> None:
    hands = [[1, 1, 2, 2, 2], [1, 5, 5, 6, 6], [2, 2, 4, 4, 6]]
    state = play(game(edition, hands), "6x2", "3x1", "dudo")
    result = state.last_result
    assert result is not None
    assert result.count == 3
    assert result.loser == 2  # the challenger: exactly three ones


@pytest.mark.parametrize("edition", [e for e in ALL if e != "italian"])
def test_every_hand_is_shown(edition: str) -> None:
    hands = [[6, 6, 6, 6, 6], [2, 2, 2, 2, 2], [3, 3, 3, 3, 3]]
    state = play(game(edition, hands), "2x6", "dudo")
    result = state.last_result
    assert result is not None
    assert result.revealed == (2, 0, 1)  # from the challenger's left, challenger last
    assert None not in result.hands
    assert result.count == 5


def test_italian_reveal_stops_once_the_bid_is_proven() -> None:
    # 000: "Se prima che tutti i giocatori abbiano mostrato i propri dadi si scopre che la
    # scommessa era esatta, non sarà necessario che gli altri giocatori mostrino i propri dadi."
    hands = [[6, 6, 6, 6, 6], [2, 2, 2, 2, 2], [3, 3, 3, 3, 3], [4, 4, 4, 4, 4]]
    state = play(game("italian", hands), "2x6", "dudo")  # seat 1 calls; seat 2, 3, 0 ... show
    result = state.last_result
    assert result is not None
    assert result.revealed == (2, 3, 0)  # proven at seat 0: the challenger's hand stays hidden
    assert result.hands[1] is None
    assert result.hands[0] == (6, 6, 6, 6, 6)
    assert result.count == 5
    assert result.loser == 1
    assert "among the hands shown" in str(result)


def test_italian_reveal_shows_everything_when_the_bid_is_false() -> None:
    hands = [[6, 6, 2, 2, 2], [2, 2, 2, 2, 2], [3, 3, 3, 3, 3]]
    state = play(game("italian", hands), "3x6", "dudo")
    result = state.last_result
    assert result is not None
    assert result.revealed == (2, 0, 1)
    assert result.count == 2
    assert result.loser == 0


def test_a_lost_die_leaves_the_loser_one_die_short_next_round() -> None:
    hands = [[2, 2, 2, 2, 2], [3, 3, 3, 3, 3], [4, 4, 4, 4, 4]]
    state = play(game("wango", hands), "5x6", "dudo")
    assert [len(p.dice) for p in state.players] == [4, 5, 5]
    assert state.round_number == 2
    assert state.to_act == 0  # the loser opens
    assert state.bid is None


def test_resolution_text_uses_the_edition_words() -> None:
    hands = [[2, 2, 2, 2, 2], [3, 3, 3, 3, 3], [4, 4, 4, 4, 4]]
    words = {}
    for edition in ALL:
        result = play(game(edition, hands), "5x6", "dudo").last_result
        assert result is not None
        words[edition] = str(result).split(" by ")[0]
    assert words == {
        "french-calza": "Dudo",
        "french-jonti": "Perudo",
        "italian": "Dubito",
        "spanish": "Dudo",
        "wango": "Challenge",
        "wango-party": "Challenge",
    }
