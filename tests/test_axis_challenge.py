"""The challenge axis: which hands a Dudo shows, in what order, and the count."""

from __future__ import annotations

import pytest
from helpers import context

from perudo.rules import AllAroundChallenge, BidderHandChallenge, Challenge, PureHandsChallenge

HANDS = ((3, 3, 1), (2, 2, 5), (3, 6, 6), (4, 4, 4))  # seat 0 to 3


@pytest.mark.parametrize(
    ("reveal", "caller", "bid", "shown", "count"),
    [
        ("all", 1, "4x3", (2, 3, 0, 1), 4),  # every hand, from the caller's left
        ("all", 3, "2x6", (0, 1, 2, 3), 3),
        ("from-left", 1, "1x3", (2,), 1),  # seat 2's hand alone proves one 3
        ("from-left", 1, "2x3", (2, 3, 0), 4),  # stops as soon as the bid is proven
        ("from-left", 1, "9x3", (2, 3, 0, 1), 4),  # never proven: every hand
    ],
)
def test_the_hands_shown_and_the_count(
    reveal: str, caller: int, bid: str, shown: tuple[int, ...], count: int
) -> None:
    round_context = context((3, 3, 3, 3), bids=[((caller - 1) % 4, bid)], to_act=caller)
    assert Challenge(reveal).reveal_hands(HANDS, caller, round_context) == (shown, count)


def test_a_seat_that_is_out_shows_nothing() -> None:
    round_context = context((3, 0, 3, 3), bids=[(0, "2x4")], to_act=2)
    hands = ((3, 3, 1), (), (3, 6, 6), (4, 4, 4))
    assert Challenge("all").reveal_hands(hands, 2, round_context) == ((3, 0, 2), 4)


def test_a_challenge_all_around_counts_every_hand() -> None:
    """Liar's poker: "The end of the game is reached when a player makes a bid that is
    challenged all around": every hand is shown once it is."""
    round_context = context((2, 0, 3, 2), bids=[(2, "3x4")], to_act=3)
    hands = ((1, 4), (), (4, 4, 6), (2, 3))
    assert AllAroundChallenge().reveal_hands(hands, 3, round_context) == ((0, 2, 3), 4)
    assert AllAroundChallenge.all_around


@pytest.mark.parametrize(
    ("bidder", "bid", "count"),
    [
        (0, "2x3", 3),  # seat 0's two 3s and a wild one: the bid holds on its hand alone
        (3, "1x3", 0),  # seat 3 holds no 3: "caught", though seats 0 and 2 hold three
        (1, "2x2", 2),
    ],
)
def test_a_challenge_of_the_bidders_hand_shows_and_counts_it_alone(
    bidder: int, bid: str, count: int
) -> None:
    """UO Outlands' wiki: "the last bidding player's Dice are now revealed to everyone. If
    the accused player is found to have less dice at the value claimed in their bid, they
    are "caught"". (The context's rules make ones wild: they count in the bidder's hand.)"""
    caller = (bidder + 1) % 4
    round_context = context((3, 3, 3, 3), bids=[(bidder, bid)], to_act=caller)
    assert BidderHandChallenge().reveal_hands(HANDS, caller, round_context) == ((bidder,), count)


def test_a_pure_hand_counts_two_more_and_an_impure_one_one_more() -> None:
    """Immortal Blade's wiki: "If all of one side's dices show the same number or 1, the
    total amount of the number will increase by 1 ... If all of one side's dices show the
    same number, the total amount of the number will increase by 2"."""
    round_context = context((3, 3, 3, 3), bids=[(0, "4x3")], to_act=1)
    hands = ((3, 3, 3), (3, 1, 1), (1, 1, 1), (3, 3, 4))  # pure, impure, impure, neither
    counted = PureHandsChallenge().reveal_hands(hands, 1, round_context)
    assert counted == ((2, 3, 0, 1), 3 + 3 + 3 + 2 + 2 + 1 + 1)
    on_ones = context((3, 3, 3, 3), bids=[(0, "2x1")], to_act=1)  # ones count only as ones
    assert PureHandsChallenge().reveal_hands(hands, 1, on_ones) == ((2, 3, 0, 1), 5 + 2)
