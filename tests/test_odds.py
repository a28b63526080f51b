"""Exact odds, checked against exhaustive enumeration and against simulation."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from helpers import game, play

from perudo import Bid, Declare
from perudo.dice import count
from perudo.odds import (
    at_least,
    bid_odds,
    chance_of,
    chance_table,
    exact_chance_of,
    exact_odds,
    exactly,
    view_odds,
)


def enumerate_odds(
    bid: Bid, own: tuple[int, ...], unseen: int, *, wild: bool
) -> tuple[Fraction, Fraction]:
    """P(true), P(exact) by listing every roll of the unseen dice."""
    true = exact = 0
    rolls = list(itertools.product(range(1, 7), repeat=unseen))
    for roll in rolls:
        total = count([own, roll], bid.face, wild_ones=wild)
        true += total >= bid.quantity
        exact += total == bid.quantity
    return Fraction(true, len(rolls)), Fraction(exact, len(rolls))


@pytest.mark.parametrize("wild", [True, False])
@pytest.mark.parametrize("unseen", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("face", [1, 2, 6])
def test_odds_match_exhaustive_enumeration(wild: bool, unseen: int, face: int) -> None:
    own = (1, face if face != 1 else 3, 5)
    for quantity in range(1, unseen + 5):
        bid = Bid(quantity, face)
        true, exact = enumerate_odds(bid, own, unseen, wild=wild)
        assert bid_odds(bid, own_dice=own, unseen=unseen, wild_ones=wild) == true
        assert exact_odds(bid, own_dice=own, unseen=unseen, wild_ones=wild) == exact
        table = chance_table(own, unseen, wild_ones=wild)
        assert chance_of(table, bid) == pytest.approx(float(true), abs=1e-12)
        assert exact_chance_of(table, bid) == pytest.approx(float(exact), abs=1e-12)


def test_odds_match_simulation_on_a_large_table() -> None:
    rng = random.Random(12)
    own, unseen, bid = (1, 4, 4, 2, 6), 25, Bid(11, 4)
    trials = 40_000
    hits = exact = 0
    for _ in range(trials):
        roll = [rng.randint(1, 6) for _ in range(unseen)]
        total = count([own, roll], 4, wild_ones=True)
        hits += total >= bid.quantity
        exact += total == bid.quantity
    p = float(bid_odds(bid, own_dice=own, unseen=unseen, wild_ones=True))
    q = float(exact_odds(bid, own_dice=own, unseen=unseen, wild_ones=True))
    for estimate, value in ((hits / trials, p), (exact / trials, q)):
        sigma = (value * (1 - value) / trials) ** 0.5
        assert abs(estimate - value) < 5 * sigma


def test_edges() -> None:
    third = Fraction(1, 3)
    assert at_least(0, own=0, unseen=3, chance=third) == 1
    assert at_least(2, own=2, unseen=0, chance=third) == 1
    assert at_least(5, own=1, unseen=3, chance=third) == 0
    assert exactly(5, own=1, unseen=3, chance=third) == 0
    assert exactly(1, own=2, unseen=3, chance=third) == 0
    assert sum(exactly(k, own=0, unseen=6, chance=third) for k in range(7)) == 1


def test_view_odds_follow_the_round_rules() -> None:
    state = game("italian", [[1, 1, 4], [2, 3, 5, 6, 6], [2, 2]])
    view = state.view(0)
    assert view_odds(view, Bid(3, 4)) == 1  # two wild ones and a four
    palifico = play(
        game("french-calza", [[1, 1, 4], [2, 3, 5, 6, 6], [2, 3]], first=2), "9x6", "dudo"
    )
    palifico = palifico.with_dice([[1, 1, 4], [2, 3, 5, 6, 6], [2]])
    assert palifico.special_round == "palifico"
    odds = view_odds(palifico.view(0), Bid(3, 4))
    assert odds == bid_odds(Bid(3, 4), own_dice=(1, 1, 4), unseen=6, wild_ones=False)
    assert odds < 1


def test_a_hidden_die_counts_as_unseen() -> None:
    state = play(game("italian", [[2, 3, 4, 5, 5], [2, 3]], first=1), "9x6", "dudo")
    view = state.view(1)
    assert view.dice_hidden
    assert view.unseen == 6
    after = state.apply(Declare("palifico"))
    assert after.view(1).unseen == 5
