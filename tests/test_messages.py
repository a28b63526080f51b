"""The sentences players read, word for word, for every way a rule refuses an action."""

from __future__ import annotations

import pytest
from helpers import game, play

import perudo
from perudo import Bid, Calza, IllegalActionError

FIVE = [2, 3, 4, 5, 6]


def sentence(state: object, action: object, by: perudo.Seat = perudo.TO_ACT) -> tuple[str, str]:
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action, by=by)  # type: ignore[attr-defined]
    return caught.value.reason, str(caught.value)


@pytest.mark.parametrize(
    ("edition", "moves", "bid", "reason", "text"),
    [
        ("italian", ["8x3"], Bid(8, 2), "bid-too-low",
         "8x2 does not raise 8x3: the same quantity needs a higher face"),
        ("italian", ["8x3"], Bid(5, 2), "bid-too-low",
         "5x2 does not raise 8x3: a lower face needs more dice (at least 9)"),
        ("italian", ["8x3"], Bid(8, 3), "bid-too-low",
         "8x3 does not raise 8x3: the same face needs more dice (at least 9)"),
        ("italian", ["8x3"], Bid(7, 6), "bid-too-low",
         "7x6 does not raise 8x3: a higher face needs at least the same quantity (8)"),
        ("italian", ["9x4"], Bid(4, 1), "bid-too-low",
         "4x1 does not raise 9x4: a bid on ones needs at least 5 ones after 9x4 "
         "(half, rounded up)"),
        ("italian", ["8x2", "4x1"], Bid(8, 6), "bid-too-low",
         "8x6 does not raise 4x1: leaving ones needs at least 9 dice (twice 4, plus one)"),
        ("spanish", ["3x3"], Bid(4, 2), "face-lowered",
         "4x2 does not raise 3x3: in this edition the face never goes down"),
        ("spanish", ["3x3"], Bid(3, 3), "bid-too-low",
         "3x3 does not raise 3x3: the same face needs more dice (at least 4)"),
        ("spanish", ["3x3"], Bid(2, 6), "bid-too-low",
         "2x6 does not raise 3x3: the quantity never goes down (at least 3)"),
        ("italian", [], Bid(2, 1), "ones-on-opening", "2x1: a round may not open on ones"),
        ("wango", [], Bid(21, 4), "above-cap",
         "21x4 bids more dice than are in play (20): the quantity is capped"),
    ],
)  # fmt: skip
def test_bid_refusals(edition: str, moves: list[str], bid: Bid, reason: str, text: str) -> None:
    state = play(game(edition, [FIVE] * 4), *moves)
    assert sentence(state, bid) == (reason, text)


def test_special_round_refusals() -> None:
    hands = [[2, 3, 4, 5, 5], [2, 3], [2, 3, 4, 5, 5], [2, 3, 4, 5, 5]]
    spanish = play(game("spanish", hands, first=1), "9x6", "dudo")
    assert sentence(spanish, Bid(2, 3)) == (
        "must-open-on-ones",
        "2x3: this round must open on ones",
    )
    spanish = play(spanish, "1x1")
    assert sentence(spanish, Bid(2, 4)) == (
        "face-locked",
        "2x4 changes the face of 1x1: in a Palafico round only the quantity of ones may go up "
        "for this player",
    )
    italian = play(game("italian", hands, first=1), "9x6", "dudo", "2x4")
    assert sentence(italian, Bid(3, 5)) == (
        "face-locked",
        "3x5 changes the face of 2x4: in a Palifico round only the quantity of 4s may go up "
        "for this player",
    )


def test_exact_call_refusals() -> None:
    hands = [[4, 4], [4, 2, 3], [4, 2, 2, 3], [4, 5], [4, 2, 2, 3, 3]]
    jonti = play(game("french-jonti", hands, first=1), "3x4")
    assert sentence(jonti, Calza(), by=1) == (
        "exact-call-not-allowed",
        "Jonti cannot be called on your own bid",
    )
    assert sentence(jonti, Calza(), by=0) == (
        "exact-call-not-allowed",
        "Jonti cannot be called on the bid of the player who follows you",
    )
    assert sentence(jonti, Calza(), by=4) == (
        "exact-call-not-allowed",
        "Jonti needs fewer than 5 dice in your hand",
    )
    two = play(game("french-jonti", [[4, 4], [2, 3, 4]]), "2x4")
    assert sentence(two, Calza()) == (
        "exact-call-not-allowed",
        "Jonti needs at least 3 players still in (2 are)",
    )
    calza = play(game("french-calza", hands[:3]), "2x4")
    assert sentence(calza, Calza(), by=2) == ("not-your-turn", "Calza is called on your own turn")
    assert sentence(game("french-calza", hands[:3]), Calza()) == (
        "nothing-to-challenge",
        "there is no bid yet to call Calza on",
    )
    assert sentence(play(game("wango", hands[:3]), "2x4"), Calza()) == (
        "no-exact-call",
        "this edition has no exact call (no Calza)",
    )
