"""Exact odds that a bid is true, from one player's point of view.

Each unseen die shows the bid's face with probability 1/6, or 1/3 when ones are wild and
the face is not ones (the face itself or a one). The count among the unseen dice is
binomial; the probabilities are exact :class:`fractions.Fraction` values.

>>> at_least(3, own=1, unseen=4, chance=Fraction(1, 3))
Fraction(11, 27)
>>> float(bid_odds(Bid(3, 4), own_dice=(4, 2, 3), unseen=4, wild_ones=True))
0.4074074074074074
>>> view_chance(Bid(3, 4), own_dice=(4, 2, 3), unseen=4, wild_ones=True)
0.4074074074074074
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from math import comb
from typing import TYPE_CHECKING

from perudo.actions import Bid
from perudo.dice import count

if TYPE_CHECKING:
    from perudo.view import PlayerView

__all__ = [
    "at_least",
    "bid_odds",
    "chance_per_die",
    "exact_odds",
    "exactly",
    "view_chance",
    "view_odds",
]


def chance_per_die(face: int, *, wild_ones: bool) -> Fraction:
    """The chance that one unseen die counts for ``face``."""
    return Fraction(1, 3) if wild_ones and face != 1 else Fraction(1, 6)


@cache
def _distribution(unseen: int, chance: Fraction) -> tuple[Fraction, ...]:
    """``P(k of the unseen dice count)`` for k = 0..unseen."""
    miss = 1 - chance
    return tuple(comb(unseen, k) * chance**k * miss ** (unseen - k) for k in range(unseen + 1))


def exactly(quantity: int, *, own: int, unseen: int, chance: Fraction) -> Fraction:
    """The chance that exactly ``quantity`` dice count, ``own`` of them already seen."""
    need = quantity - own
    if not 0 <= need <= unseen:
        return Fraction(0)
    return _distribution(unseen, chance)[need]


def at_least(quantity: int, *, own: int, unseen: int, chance: Fraction) -> Fraction:
    """The chance that at least ``quantity`` dice count, ``own`` of them already seen."""
    need = quantity - own
    if need <= 0:
        return Fraction(1)
    if need > unseen:
        return Fraction(0)
    return sum(_distribution(unseen, chance)[need:], Fraction(0))


def bid_odds(bid: Bid, *, own_dice: Sequence[int], unseen: int, wild_ones: bool) -> Fraction:
    """The chance that ``bid`` is true (a Dudo on it would fail), knowing ``own_dice``
    and that ``unseen`` other dice are in play."""
    own = count([own_dice], bid.face, wild_ones=wild_ones)
    chance = chance_per_die(bid.face, wild_ones=wild_ones)
    return at_least(bid.quantity, own=own, unseen=unseen, chance=chance)


def exact_odds(bid: Bid, *, own_dice: Sequence[int], unseen: int, wild_ones: bool) -> Fraction:
    """The chance that ``bid`` is exactly right (a Calza or Jonti on it would win)."""
    own = count([own_dice], bid.face, wild_ones=wild_ones)
    chance = chance_per_die(bid.face, wild_ones=wild_ones)
    return exactly(bid.quantity, own=own, unseen=unseen, chance=chance)


def view_odds(view: PlayerView, bid: Bid, *, exact: bool = False) -> Fraction:
    """:func:`bid_odds` (or :func:`exact_odds`) for ``bid`` under the round's rules, from
    what ``view``'s player knows. While the player's die is hidden, their hand counts as
    unseen too."""
    odds = exact_odds if exact else bid_odds
    return odds(bid, own_dice=view.dice, unseen=view.unseen, wild_ones=view.rules.wild_ones)


@cache
def _tails(unseen: int, chance: Fraction) -> tuple[float, ...]:
    """``P(at least k of the unseen dice count)`` as floats, for k = 0..unseen+1."""
    dist = _distribution(unseen, chance)
    tails = [float(sum(dist[k:], Fraction(0))) for k in range(unseen + 1)]
    return (*tails, 0.0)


def view_chance(bid: Bid, *, own_dice: Sequence[int], unseen: int, wild_ones: bool) -> float:
    """:func:`bid_odds` as a float, from a cache: the fast form bots use."""
    need = bid.quantity - count([own_dice], bid.face, wild_ones=wild_ones)
    if need <= 0:
        return 1.0
    tails = _tails(unseen, chance_per_die(bid.face, wild_ones=wild_ones))
    return tails[min(need, unseen + 1)]
