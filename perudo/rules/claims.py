"""Kinds of the ``claims`` axis: what a bid names. Perudo's bids name a quantity of a face;
Mia's name a hand of two dice, ranked in an order of its own; poker dice's a poker hand."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

import attrs

from perudo.actions import MAX_FACES
from perudo.errors import InvalidVariantError
from perudo.rules.base import Words, first_paragraph, param

__all__ = ["MiaValues", "PokerHands", "QuantityOfFace"]


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


#: The categories of a poker hand of dice, lowest first, with how each is written.
_POKER = ("pair", "two pair", "three", "straight", "full house", "four", "five")


@attrs.frozen
class PokerHands:
    """A bid names a poker hand of dice, and a hand shown holds it when it holds those dice
    (a better hand holds a lower claim). Lowest to highest: a pair, two pair, three of a
    kind, each straight (five faces in a row of ``order``, lowest run first), a full house,
    four of a kind, five of a kind; within each, by the faces named, ranked as ``order``
    lists them (lowest first), a two pair and a full house by their higher part first. A
    hand names its faces: "four 5s", never "four of a kind".

    From a published how-to page (howtodothings.com, "How to Play Liar's Dice"): "'Hands'
    are ranked as follows from lowest to highest: One Pair, Two Pair, Three of a kind,
    Straight - low (1,2,3,4,5), Straight - high (2,3,4,5,6), Full house (Three of a kind and
    One pair), Four of a kind, Five of a kind"; "the player could say he has four - 5s or a
    low straight. You can't just say you have four of a kind"; "If the first player, for
    example, called four 5's, then the next player must have four 6's or five of a kind."

    >>> poker = PokerHands((1, 2, 3, 4, 5, 6))
    >>> ladder = poker.ladder(5, 6)
    >>> len(ladder), ladder[0], ladder[-1]
    (71, (1, 1), (6, 6, 6, 6, 6))
    >>> words = Words(dudo="Liar")
    >>> [poker.hand_name(hand, words) for hand in ((6, 6, 1, 1), (5, 4, 3, 2, 1), (5, 5, 5, 2, 2))]
    ['two pair, 6s and ones', 'low straight', 'full house, 5s on 2s']
    >>> poker.rank((5, 5, 5, 2, 2)) > poker.rank((6, 6, 6)) > poker.rank((6, 6, 5, 5))
    True

    Attributes:
        order: The faces from lowest to highest rank, each once.
    """

    axis: ClassVar[str] = "claims"
    kind: ClassVar[str] = "poker-hands"
    order: tuple[int, ...] = param(tuple, minimum=1, maximum=MAX_FACES)

    def ladder(self, dice: int, faces: int) -> tuple[tuple[int, ...], ...] | None:
        """Every poker hand of the faces ``order`` ranks, lowest first (a hand of more dice
        than one player holds may still be shown across several hands)."""
        if dice < 2 or any(face > faces for face in self.order):
            raise InvalidVariantError(
                f"claims:poker-hands needs two dice or more and faces of the dice ({faces}) "
                f"in its order, not {dice} dice and the order {list(self.order)}"
            )
        return _poker_ladder(self.order)

    def _hands(self, category: str) -> tuple[tuple[int, ...], ...]:
        """The hands of ``category``, lowest first, each its faces highest first."""
        return _poker_hands(self.order, category)

    def hand_name(self, hand: tuple[int, ...], words: Words) -> str:
        """``"pair of 5s"``, ``"two pair, 6s and ones"``, ``"three 5s"``, ``"low
        straight"``, ``"full house, 5s on 2s"``, ``"four 5s"``, ``"five 5s"``."""
        counts = Counter(hand)
        name = words.face_name
        if len(counts) == 5:  # a straight
            runs = self._hands("straight")
            if len(runs) == 2:
                return "low straight" if hand == runs[0] else "high straight"
            return f"straight to {name(self._top(hand))}"
        ranked = sorted(counts, key=lambda face: (counts[face], self.order.index(face)))
        top = ranked[-1]
        if len(counts) == 2 and len(hand) == 5:
            return f"full house, {name(top)} on {name(ranked[0])}"
        if len(counts) == 2:
            return f"two pair, {name(top)} and {name(ranked[0])}"
        return f"{('pair of', 'three', 'four', 'five')[len(hand) - 2]} {name(top)}"

    def _top(self, hand: tuple[int, ...]) -> int:
        return max(hand, key=self.order.index)

    def rank(self, dice: Sequence[int]) -> int:
        """The rank of the highest hand the dice shown hold (1 for the lowest pair), or 0
        for none."""
        return _poker_rank(self.order, tuple(sorted(dice)))

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        ranked = ", ".join(words.face_name(face) for face in self.order)
        return (
            "A bid names a poker hand of dice, and a hand shown holds it when it holds those "
            "dice. Lowest to highest: a pair, two pair, three of a kind, each straight, a full "
            f"house, four of a kind, five of a kind; within each, by the faces named: {ranked}."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return "poker"


@functools.cache
def _poker_hands(order: tuple[int, ...], category: str) -> tuple[tuple[int, ...], ...]:
    """The poker hands of ``category`` over the faces of ``order``, lowest first, each its
    faces highest first."""
    made: list[tuple[int, ...]]
    if category == "two pair":  # by the higher pair, then the lower
        made = [(high,) * 2 + (low,) * 2 for i, high in enumerate(order) for low in order[:i]]
    elif category == "straight":  # five faces in a row of the order, the lowest run first
        made = [tuple(order[i : i + 5]) for i in range(len(order) - 4)]
    elif category == "full house":  # by the three, then the two
        made = [(three,) * 3 + (two,) * 2 for three in order for two in order if two != three]
    else:  # a pair, three, four or five of a face
        size = {"pair": 2, "three": 3, "four": 4, "five": 5}[category]
        made = [(face,) * size for face in order]
    return tuple(tuple(sorted(hand, reverse=True)) for hand in made)


@functools.lru_cache(maxsize=4096)  # the dice shown of a few hands: asked again and again
def _poker_rank(order: tuple[int, ...], dice: tuple[int, ...]) -> int:
    """The rank of the highest poker hand over ``order`` that ``dice`` (sorted) hold."""
    held = Counter(dice)
    ladder = _poker_ladder(order)
    for rank in range(len(ladder), 0, -1):
        if not Counter(ladder[rank - 1]) - held:
            return rank
    return 0


@functools.cache
def _poker_ladder(order: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every poker hand over the faces of ``order``, lowest first."""
    return tuple(hand for category in _POKER for hand in _poker_hands(order, category))
