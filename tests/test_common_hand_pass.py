"""Liar's Dice, common hand, with a pass: the shipped declaration of Wikipedia's common
hand game and its pass variant, played through its own sentences."""

from __future__ import annotations

import pytest
from helpers import game, play

import perudo
from perudo import Bid, Dudo, IllegalActionError, Paso

EDITION = perudo.load_variant("common-hand-pass")
NO_PAIR, PAIRS = [1, 2, 3, 4, 5], [2, 2, 3, 6, 6]


def test_the_declaration_is_the_articles() -> None:
    assert (EDITION.words.dudo, EDITION.words.paso) == ("Liar", "Pass")
    assert (EDITION.passes.kind, EDITION.passes.most_per_round) == ("no-pair", 1)
    assert EDITION.provenance_of("passes").kind == "stated"
    readings = {a for a in perudo.rules.AXES if EDITION.provenance_of(a).kind == "reading"}
    assert readings == {"wilds", "raising", "scoring"}
    assert perudo.parse_action("pass", variant=EDITION) == Paso()


def test_a_pass_does_not_raise_the_bid() -> None:
    """ "If he does so, the bid will not be raised. The next player can raise the bid using
    standard rules, or call the bluff." """
    state = play(game(EDITION, [PAIRS, NO_PAIR, PAIRS]), "4x6", "paso")
    assert (state.bid, state.claim, state.to_act) == (Bid(4, 6), "pass", 2)
    assert state.is_legal(Bid(5, 2))  # a higher quantity of any face
    assert not state.is_legal(Bid(4, 5))  # never under the bid that stands
    assert state.is_legal(Dudo())


@pytest.mark.parametrize(("passer", "loser"), [(NO_PAIR, 2), (PAIRS, 1)])
def test_calling_the_bluff_challenges_the_passers_hand(passer: list[int], loser: int) -> None:
    """ "By doing so, he challenges the claim of the passing player having no two dice with
    the same face": only that hand is shown; the loser loses a die."""
    ended = play(game(EDITION, [PAIRS, passer, PAIRS]), "4x6", "paso", "dudo")
    result = ended.last_result
    assert result is not None
    assert (result.revealed, result.losers, result.claim) == ((1,), (loser,), "pass")
    assert result.hands[0] is None
    assert result.hands[2] is None
    assert ended.to_act == loser  # the loser opens the next round (the base rule)
    assert "Liar by Player 3 on Pass by Player 2: the hand shown is" in result.describe()


def test_a_player_passes_once_a_round() -> None:
    """ "he may choose to pass once in a game round" """
    state = play(game(EDITION, [NO_PAIR, NO_PAIR]), "2x3", "paso", "paso")
    assert Paso() not in state.legal_actions()  # seat 1 passed already this round
    with pytest.raises(IllegalActionError) as refused:
        state.apply(Paso())
    assert refused.value.reason == "pass-not-allowed"
    after = play(state, "3x3", "dudo")  # the next round: passes again
    assert Paso() in play(after, "1x2").legal_actions()


def test_a_challenged_bid_shows_every_hand() -> None:
    """ "If the current player challenges the current bid, all dice are revealed. If the bid
    is valid, the bidder wins. Otherwise, the challenger wins." """
    ended = play(game(EDITION, [PAIRS, NO_PAIR, PAIRS]), "5x6", "dudo")
    result = ended.last_result
    assert result is not None
    assert (result.revealed, result.count, result.losers) == ((2, 0, 1), 5, (1,))
