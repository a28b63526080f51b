"""Exact odds that a bid is true, from one player's point of view.

Each unseen die shows the bid's face with probability 1/6, or 1/3 when ones are wild and
the face is not ones (the face itself or a one); on dice of ``faces`` faces, 1/faces and
2/faces. The count among the unseen dice is
binomial; the probabilities are exact :class:`fractions.Fraction` values.

>>> at_least(3, own=1, unseen=4, chance=Fraction(1, 3))
Fraction(11, 27)
>>> float(bid_odds(Bid(3, 4), own_dice=(4, 2, 3), unseen=4, wild_ones=True))
0.4074074074074074
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import TYPE_CHECKING

from perudo.actions import Bid
from perudo.dice import count

if TYPE_CHECKING:
    from perudo.view import PlayerView

__all__ = [
    "at_least",
    "bid_odds",
    "chance_of",
    "chance_per_die",
    "chance_table",
    "exact_chance_of",
    "exact_odds",
    "exactly",
    "tail_chances",
    "view_odds",
]


def _wild_face(wild: int | None, wild_ones: bool) -> int | None:
    return 1 if wild_ones else wild


def chance_per_die(
    face: int, *, wild_ones: bool = False, wild: int | None = None, faces: int = 6
) -> Fraction:
    """The chance that one unseen die of ``faces`` faces counts for ``face`` when ``wild``
    is the wild face (``wild_ones`` is short for ``wild=1``)."""
    wild = _wild_face(wild, wild_ones)
    return Fraction(2 if wild is not None and face != wild else 1, faces)


@lru_cache(maxsize=4096)  # bounded: callers choose unseen and chance
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


def _own_and_chance(
    bid: Bid, own_dice: Sequence[int], wild: int | None, faces: int
) -> tuple[int, Fraction]:
    """How many of the player's dice count for ``bid``, and the chance that an unseen die
    does."""
    chance = chance_per_die(bid.face, wild=wild, faces=faces)
    return count([own_dice], bid.face, wild=wild), chance


def bid_odds(
    bid: Bid,
    *,
    own_dice: Sequence[int],
    unseen: int,
    wild_ones: bool = False,
    wild: int | None = None,
    faces: int = 6,
) -> Fraction:
    """The chance that ``bid`` is true (a Dudo on it would fail), knowing ``own_dice``
    and that ``unseen`` other dice of ``faces`` faces are in play; ``wild`` is the wild
    face (``wild_ones`` is short for ``wild=1``)."""
    own, chance = _own_and_chance(bid, own_dice, _wild_face(wild, wild_ones), faces)
    return at_least(bid.quantity, own=own, unseen=unseen, chance=chance)


def exact_odds(
    bid: Bid,
    *,
    own_dice: Sequence[int],
    unseen: int,
    wild_ones: bool = False,
    wild: int | None = None,
    faces: int = 6,
) -> Fraction:
    """The chance that ``bid`` is exactly right (an exact call on it would win)."""
    own, chance = _own_and_chance(bid, own_dice, _wild_face(wild, wild_ones), faces)
    return exactly(bid.quantity, own=own, unseen=unseen, chance=chance)


def view_odds(view: PlayerView, bid: Bid, *, exact: bool = False) -> Fraction:
    """:func:`bid_odds` (or :func:`exact_odds`) for ``bid`` under the round's rules, from
    what ``view``'s player knows: its own hand and every die in the open are known (Bluff's
    re-roll puts dice there), the dice under the other cups are not. While the player's die
    is hidden, their hand counts as unseen too."""
    odds = exact_odds if exact else bid_odds
    faces = view.variant.dice.faces
    return odds(bid, own_dice=view.known, unseen=view.unseen, wild=view.wild_face, faces=faces)


@lru_cache(maxsize=4096)
def tail_chances(unseen: int, *, wild: bool = False, faces: int = 6) -> tuple[float, ...]:
    """The chance that at least ``k`` of ``unseen`` dice count for a face, for ``k`` = 0 to
    ``unseen``, then 0.0; ``wild`` when a wild face counts too (each die counts with chance
    2 in ``faces``, else 1). The floats :func:`chance_table` is made of.

    >>> tail_chances(2)
    (1.0, 0.3055555555555556, 0.027777777777777776, 0.0)
    """
    dist = _distribution(unseen, Fraction(2 if wild else 1, faces))
    tails = [float(sum(dist[k:], Fraction(0))) for k in range(unseen + 1)]
    return (*tails, 0.0)


def chance_table(
    own_dice: Sequence[int],
    unseen: int,
    *,
    wild_ones: bool = False,
    wild: int | None = None,
    faces: int = 6,
) -> tuple[tuple[float, ...], ...]:
    """``table[face][q]``: the chance (a float) that at least ``q`` dice show ``face`` (1
    to ``faces``); for ``q`` past the end of a row, 0. Index 0 is unused. The fast form
    bots use (the same hand, dice and wild face give the same table, computed once).

    >>> table = chance_table((4, 2, 3), unseen=4, wild_ones=True)
    >>> table[4][3]
    0.4074074074074074
    """
    return _chance_table(tuple(own_dice), unseen, _wild_face(wild, wild_ones), faces)


@lru_cache(maxsize=4096)
def _chance_table(
    own_dice: tuple[int, ...], unseen: int, wild: int | None, faces: int = 6
) -> tuple[tuple[float, ...], ...]:
    table: list[tuple[float, ...]] = [()]
    wilds = sum(1 for die in own_dice if die == wild)
    for face in range(1, faces + 1):
        counts_wild = wild is not None and face != wild
        own = sum(1 for die in own_dice if die == face) + (wilds if counts_wild else 0)
        table.append((1.0,) * (own + 1) + tail_chances(unseen, wild=counts_wild, faces=faces)[1:])
    return tuple(table)


def chance_of(table: tuple[tuple[float, ...], ...], bid: Bid) -> float:
    """The chance that ``bid`` is true, from a :func:`chance_table`."""
    row = table[bid.face]
    return row[bid.quantity] if bid.quantity < len(row) else 0.0


def exact_chance_of(table: tuple[tuple[float, ...], ...], bid: Bid) -> float:
    """The chance that ``bid`` is exactly right, from a :func:`chance_table`."""
    row, quantity = table[bid.face], bid.quantity
    at_least = row[quantity] if quantity < len(row) else 0.0
    more = row[quantity + 1] if quantity + 1 < len(row) else 0.0
    return at_least - more
