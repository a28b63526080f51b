"""Kinds of the ``claims`` axis: what a bid names. Perudo's bids name a quantity of a face;
Mia's name a hand of two dice, ranked in an order of its own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs

from perudo.errors import InvalidVariantError
from perudo.rules.base import Words, first_paragraph

__all__ = ["MiaValues", "QuantityOfFace"]


@attrs.frozen
class QuantityOfFace:
    """A bid names a quantity of a face: at least that many dice among the hands shown show
    it (the raise order, the opening, the cap and the wild dice say the rest)."""

    axis: ClassVar[str] = "claims"
    kind: ClassVar[str] = "quantity-of-face"

    def ladder(self, dice: int, faces: int) -> tuple[tuple[int, ...], ...] | None:
        """``None``: bids are quantities of a face, not hands."""
        return None

    def hand_name(self, hand: tuple[int, ...], words: Words) -> str:
        """Never asked (no bid names a hand)."""
        return "-".join(map(str, hand))

    def rank(self, dice: Sequence[int]) -> int:
        """Never asked (no bid names a hand)."""
        return 0

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return first_paragraph(self)

    def label(self, words: Words) -> str:
        """A short label."""
        return "qty/face"


#: Mia's hands, lowest first: the other values (higher die first) by their number, then
#: the doubles from 1-1 up, then Mia, 2-1.
_MIA_LADDER = (
    *sorted((high, low) for high in range(3, 7) for low in range(1, high)),
    *((face, face) for face in range(1, 7)),
    (2, 1),
)


@attrs.frozen
class MiaValues:
    """A bid names the value of a player's two dice, read higher die first ("65" for a 6
    and a 5). Lowest to highest: 31, 32, 41, 42, 43, 51 ... 64, 65; then the doubles
    11, 22 ... 66; then Mia, 21, the highest. A bid names a value higher than the one
    before; the two dice shown at a call stand for any value up to their own.

    From the rules of Mia as Wikipedia's article gives them (quoted at modhoster.com, "Mia"):
    "Note that each player must always announce a value greater than the previous value
    announced"; and a challenged value holds "if the dice show a greater or equal value".
    A challenge of Mia is played for two: "If it was a Mia, they lose two lives. If it
    wasn't, the previous player loses one life as usual" (``stake``).

    >>> mia = MiaValues()
    >>> mia.ladder(2, 6)[:3], mia.ladder(2, 6)[-1], len(mia.ladder(2, 6))
    (((3, 1), (3, 2), (4, 1)), (2, 1), 21)
    >>> mia.hand_name((2, 1), Words(dudo="Liar")), mia.rank((5, 4)) < mia.rank((1, 1))
    ('Mia', True)
    """

    axis: ClassVar[str] = "claims"
    kind: ClassVar[str] = "mia"

    def ladder(self, dice: int, faces: int) -> tuple[tuple[int, ...], ...] | None:
        """The 21 values of two six-faced dice, lowest first."""
        if (dice, faces) != (2, 6):
            raise InvalidVariantError(
                f"claims:mia names the values of two dice of six faces, not of {dice} dice "
                f"of {faces} faces: declare [dice] per_player = 2, faces = 6"
            )
        return _MIA_LADDER

    def hand_name(self, hand: tuple[int, ...], words: Words) -> str:
        """``"Mia"`` for 2-1, else the value's two digits: ``"65"``, ``"55"``."""
        return "Mia" if hand == (2, 1) else "".join(map(str, hand))

    def rank(self, dice: Sequence[int]) -> int:
        """The rank of the two dice shown (1 for 31, 21 for Mia); 0 for anything else."""
        hand = tuple(sorted(dice, reverse=True))
        return _MIA_LADDER.index(hand) + 1 if hand in _MIA_LADDER else 0

    def stake(self, hand: tuple[int, ...], stands: bool) -> int:
        """Two for a player who doubts a Mia that the dice show; one otherwise."""
        return 2 if stands and hand == (2, 1) else 1

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        return (
            "A bid names the value of the bidder's two dice, higher die first: from lowest "
            "to highest 31, 32, 41, 42, 43, 51 ... 65, then the doubles 11 to 66, then Mia "
            "(21). Each bid names a higher value; a challenged value holds if the dice show "
            "it or higher. Doubting a Mia that stands costs two."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return "Mia"
