"""Bidding components: wild ones, raise order, conversion to and from ones, opening, cap.

The one question every component here answers is *the lowest quantity of a face that
raises the standing bid*. Legality checks and the list of legal bids both come from
:func:`lowest_quantities`, so they cannot disagree.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, ClassVar

import attrs

from perudo.actions import MAX_DICE_PER_PLAYER, MAX_FACES, MAX_PLAYERS, Bid, bid_row
from perudo.errors import InvalidVariantError, shown
from perudo.players import PlacedBid
from perudo.rules.axes import OpeningRule, RoundContext, RoundRules
from perudo.rules.base import Violation, Words, first_paragraph, param

__all__ = [
    "OPENING_ONES",
    "DiceInPlayCap",
    "FaceOrQuantity",
    "HalveDouble",
    "Monotone",
    "NoCap",
    "NoConversion",
    "NoWilds",
    "Opening",
    "OpeningAtLeast",
    "OpeningPlayersIn",
    "QuantityOrFace",
    "RankedFaces",
    "WildFace",
    "WildOnes",
    "WildUntilBidOn",
    "by_standing_bid",
    "check_bid",
    "legal_bids",
    "legal_bids_by_standing",
    "lowest_quantities",
    "may_change_face",
    "opening_sentence",
    "opening_with_ones",
]

OPENING_ONES = ("forbidden", "allowed", "required")
MAX_DICE_IN_PLAY = MAX_PLAYERS * MAX_DICE_PER_PLAYER


# --- wild ones ---------------------------------------------------------------------------


@attrs.frozen
class WildOnes:
    """Ones count for any face 2-6; a bid on ones counts ones only."""

    axis: ClassVar[str] = "wilds"
    kind: ClassVar[str] = "ones"

    def wild_face(self, context: RoundContext) -> int | None:
        """Always 1."""
        return 1

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        ones = words.ones_word
        return (
            f"{ones.capitalize()} are wild: they count for every other face; a bid on {ones} "
            f"counts {ones} only."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return "ones"


@attrs.frozen
class NoWilds:
    """Every die counts for its own face only."""

    axis: ClassVar[str] = "wilds"
    kind: ClassVar[str] = "none"

    def wild_face(self, context: RoundContext) -> int | None:
        """Never a wild face."""
        return None

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return "No face is wild: every die counts for its own face only."

    def label(self, words: Words) -> str:
        """A short label."""
        return "none"


@attrs.frozen
class WildFace:
    """One face counts for every other face; a bid on that face counts it alone.

    Attributes:
        face: The wild face (OpenSpiel's ``liars_dice``: the highest, 6).
        unless_opened_on: Whether a round that opens with a bid on the wild face plays it
            as an ordinary face (Bagos: ones are wild unless the first bid is on ones).
    """

    axis: ClassVar[str] = "wilds"
    kind: ClassVar[str] = "face"
    face: int = param(int, minimum=1, maximum=MAX_FACES)
    unless_opened_on: bool = param(bool)

    def wild_face(self, context: RoundContext) -> int | None:
        """``face``, or ``None`` in a round that opened on it (with ``unless_opened_on``)."""
        bids = context.bids
        first = bids[0].bid if bids else None
        if self.unless_opened_on and type(first) is Bid and first.face == self.face:
            return None
        return self.face

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        name = words.face_name(self.face)
        text = (
            f"{name.capitalize()} are wild: they count for every other face; a bid on {name} "
            f"counts {name} only."
        )
        if self.unless_opened_on:
            text += f" In a round whose first bid is on {name}, {name} are an ordinary face."
        return text

    def label(self, words: Words) -> str:
        """A short label."""
        return (
            f"{self.face}s" + ("*" if self.unless_opened_on else "")
            if self.face != 1
            else ("ones*" if self.unless_opened_on else "ones")
        )


@attrs.frozen
class WildUntilBidOn:
    """One face is wild until anyone bids on it; from that bid on, for the rest of the
    round, it counts only as itself.

    Attributes:
        face: The wild face.
    """

    axis: ClassVar[str] = "wilds"
    kind: ClassVar[str] = "until-bid-on"
    face: int = param(int, minimum=1, maximum=MAX_FACES)

    def wild_face(self, context: RoundContext) -> int | None:
        """``face``, until a bid of the round so far is on it."""
        face = self.face
        bids = context.bids
        return None if any(getattr(placed.bid, "face", 0) == face for placed in bids) else face

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        name = words.face_name(self.face)
        return (
            f"{name.capitalize()} are wild (they count for every other face) until anyone "
            f"bids on {name}; from then on, for the rest of the round, {name} count only as "
            f"{name}."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return f"{words.face_name(self.face)}~"[:8]


# --- raise order -------------------------------------------------------------------------


@attrs.frozen
class QuantityOrFace:
    """Raise the quantity (any face), or keep the quantity and raise the face.

    Faces rank 1 (ones, when no conversion applies) to 6.
    """

    axis: ClassVar[str] = "raising"
    kind: ClassVar[str] = "quantity-or-face"
    times_per_bid: ClassVar[int | None] = 1  # every raise is higher: no bid comes back
    standing_bid_only: ClassVar[bool] = True  # answers from the standing bid alone

    def lowest(self, face: int, context: RoundContext) -> int | None:
        """The lowest quantity of ``face`` that raises the standing bid."""
        standing = _standing(context)
        return standing.quantity if face > standing.face else standing.quantity + 1

    def explain(self, bid: Bid, context: RoundContext) -> Violation:
        """Why ``bid`` (known to be too low) does not raise the standing bid."""
        standing = _standing(context)
        head = f"{bid} does not raise {standing}"
        if bid.face > standing.face:
            why = f"a higher face needs at least the same quantity ({standing.quantity})"
        elif bid.face == standing.face:
            why = f"the same face needs more dice (at least {standing.quantity + 1})"
        elif bid.quantity == standing.quantity:
            why = "the same quantity needs a higher face"
        else:
            why = f"a lower face needs more dice (at least {standing.quantity + 1})"
        return Violation("bid-too-low", f"{head}: {why}")

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return (
            "Raise the quantity (any face), or keep the quantity and raise the face. "
            f"Faces rank {words.ones_word} (lowest, where no conversion applies) to the "
            "highest face."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return "qty|face"


@attrs.frozen
class RankedFaces:
    """Raise the quantity (any face), or keep the quantity and raise the face, the faces
    ranked in a declared order, lowest first: Liar's poker's digits, as Wikipedia's article
    gives them, "are usually ranked in the following order: 2,3,4,5,6,7,8,9,0 (10) and 1
    (Ace)" (``order = [2, 3, 4, 5, 6, 7, 8, 9, 10, 1]``, the 0 a ten). "The next player
    can bid a higher number at that level (three 7s), any number at a higher level (four
    5s)":

    >>> import perudo
    >>> game = perudo.new_game("liars-poker", 3, seed=1)
    >>> order = game.variant.raising
    >>> over = game.apply(perudo.Bid(3, 6)).context  # three 6s stand
    >>> [order.lowest(face, over) for face in (7, 5, 1, 10, 2)]
    [3, 4, 3, 3, 4]
    >>> order.lowest(9, game.apply(perudo.Bid(3, 1)).context)  # over three aces: more 9s
    4

    A face the order leaves out is never a raise (an opening bid may still name it, as the
    opening kind says).

    Attributes:
        order: The faces from lowest to highest rank, each once.
    """

    axis: ClassVar[str] = "raising"
    kind: ClassVar[str] = "ranked-faces"
    times_per_bid: ClassVar[int | None] = 1  # every raise is higher: no bid comes back
    standing_bid_only: ClassVar[bool] = True  # answers from the standing bid alone
    order: tuple[int, ...] = param(tuple, minimum=1, maximum=MAX_FACES)

    def rank(self, face: int) -> int:
        """Where ``face`` stands in the order, 0 the lowest; -1 for a face left out."""
        return self.order.index(face) if face in self.order else -1

    def lowest(self, face: int, context: RoundContext) -> int | None:
        """The lowest quantity of ``face`` that raises the standing bid; ``None`` for a
        face the order leaves out."""
        rank = self.rank(face)
        if rank < 0:
            return None
        standing = _standing(context)
        return standing.quantity if rank > self.rank(standing.face) else standing.quantity + 1

    def explain(self, bid: Bid, context: RoundContext) -> Violation:
        """Why ``bid`` (known to be too low) does not raise the standing bid."""
        standing, words = _standing(context), context.words
        head = f"{bid} does not raise {standing}"
        rank, over = self.rank(bid.face), self.rank(standing.face)
        if rank < 0:
            return Violation(
                "bid-too-low", f"{head}: {words.face_name(bid.face)} rank nowhere in this order"
            )
        if rank > over:
            why = f"a higher-ranked face needs at least the same quantity ({standing.quantity})"
        elif rank == over:
            why = f"the same face needs more dice (at least {standing.quantity + 1})"
        elif bid.quantity == standing.quantity:
            why = f"the same quantity needs a face ranked above {words.face_name(standing.face)}"
        else:
            why = f"a lower-ranked face needs more dice (at least {standing.quantity + 1})"
        return Violation("bid-too-low", f"{head}: {why}")

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        ranked = ", ".join(words.face_name(face) for face in self.order)
        return (
            "Raise the quantity (any face), or keep the quantity and raise the face. "
            f"Faces rank, lowest first: {ranked}."
        )

    def label(self, words: Words) -> str:
        """A short label: ``qty|1 hi`` where only the ones move, to the top."""
        top = len(self.order)
        return "qty|1 hi" if self.order == (*range(2, top + 1), 1) else "qty|rank"


@attrs.frozen
class Monotone:
    """Neither the quantity nor the face goes down, and at least one goes up."""

    axis: ClassVar[str] = "raising"
    kind: ClassVar[str] = "monotone"
    times_per_bid: ClassVar[int | None] = 1  # every raise is higher: no bid comes back
    standing_bid_only: ClassVar[bool] = True  # answers from the standing bid alone

    def lowest(self, face: int, context: RoundContext) -> int | None:
        """The lowest quantity of ``face`` that raises the standing bid; ``None`` for a
        lower face."""
        standing = _standing(context)
        if face < standing.face:
            return None
        return standing.quantity if face > standing.face else standing.quantity + 1

    def explain(self, bid: Bid, context: RoundContext) -> Violation:
        """Why ``bid`` (known to be illegal) does not raise the standing bid."""
        standing = _standing(context)
        head = f"{bid} does not raise {standing}"
        if bid.face < standing.face:
            return Violation("face-lowered", f"{head}: in this edition the face never goes down")
        if bid.face == standing.face:
            why = f"the same face needs more dice (at least {standing.quantity + 1})"
        else:
            why = f"the quantity never goes down (at least {standing.quantity})"
        return Violation("bid-too-low", f"{head}: {why}")

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return "Neither the quantity nor the face goes down, and at least one goes up."

    def label(self, words: Words) -> str:
        """A short label."""
        return "monotone"


@attrs.frozen
class FaceOrQuantity:
    """Raise the face (any quantity), or keep the face and raise the quantity (OpenSpiel's
    ``reset-quantity`` bidding rule)."""

    axis: ClassVar[str] = "raising"
    kind: ClassVar[str] = "face-or-quantity"
    times_per_bid: ClassVar[int | None] = 1  # every raise is higher: no bid comes back
    standing_bid_only: ClassVar[bool] = True  # answers from the standing bid alone

    def lowest(self, face: int, context: RoundContext) -> int | None:
        """1 for a higher face, one more for the same face, ``None`` for a lower face."""
        standing = _standing(context)
        if face < standing.face:
            return None
        return 1 if face > standing.face else standing.quantity + 1

    def explain(self, bid: Bid, context: RoundContext) -> Violation:
        """Why ``bid`` (known to be illegal) does not raise the standing bid."""
        standing = _standing(context)
        head = f"{bid} does not raise {standing}"
        if bid.face < standing.face:
            return Violation("face-lowered", f"{head}: the face never goes down")
        return Violation(
            "bid-too-low",
            f"{head}: the same face needs more dice (at least {standing.quantity + 1})",
        )

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return "Raise the face (with any quantity), or keep the face and raise the quantity."

    def label(self, words: Words) -> str:
        """A short label."""
        return "face|qty"


# --- conversion to and from ones ---------------------------------------------------------


@attrs.frozen
class HalveDouble:
    """To ones: at least half the quantity, rounded up. From a bid on ones: at least twice
    its quantity plus one of another face. (Bluff converts to and from its stars, the
    sixes, the same way.)

    Attributes:
        face: The face bids convert to and from (1: ones; 6 in Bluff).
    """

    axis: ClassVar[str] = "conversion"
    kind: ClassVar[str] = "halve-double"
    standing_bid_only: ClassVar[bool] = True  # answers from the standing bid alone
    face: int = param(int, minimum=1, maximum=MAX_FACES, default=1)

    def lowest(self, face: int, context: RoundContext) -> int | None:
        """The lowest quantity when the bid moves onto or off the converted face; ``None``
        otherwise."""
        standing, special = _standing(context), self.face
        if face == special and standing.face != special:
            return -(-standing.quantity // 2)
        if standing.face == special and face != special:
            return 2 * standing.quantity + 1
        return None

    def explain(self, bid: Bid, context: RoundContext) -> Violation:
        """Why ``bid`` (known to be too low) does not convert the standing bid."""
        standing = _standing(context)
        low = self.lowest(bid.face, context)
        head = f"{bid} does not raise {standing}"
        name = context.words.face_name(self.face)
        if bid.face == self.face:
            why = f"a bid on {name} needs at least {low} {name} after {standing} (half, rounded up)"
        else:
            why = f"leaving {name} needs at least {low} dice (twice {standing.quantity}, plus one)"
        return Violation("bid-too-low", f"{head}: {why}")

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        name = words.face_name(self.face)
        return (
            f"To {name}: at least half the quantity, rounded up. From a bid on {name}: at "
            "least twice its quantity plus one of another face."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return "q/2,2a+1" if self.face == 1 else f"q/2@{self.face}"


@attrs.frozen
class NoConversion:
    """Ones are an ordinary face, ranked lowest, raised like any other."""

    axis: ClassVar[str] = "conversion"
    kind: ClassVar[str] = "none"
    standing_bid_only: ClassVar[bool] = True  # answers from the standing bid alone

    def lowest(self, face: int, context: RoundContext) -> int | None:
        """Never a conversion: always ``None``."""
        return None

    def explain(self, bid: Bid, context: RoundContext) -> Violation:  # pragma: no cover
        """Never called: without a conversion the raise order explains every refusal."""
        raise AssertionError("NoConversion never refuses a bid")

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return f"{words.ones_word.capitalize()} are an ordinary face, raised like any other."

    def label(self, words: Words) -> str:
        """A short label."""
        return "none"


# --- opening and cap ---------------------------------------------------------------------

_OPENING: Mapping[str, str] = MappingProxyType(
    {
        "forbidden": "A round may not open with a bid on {ones}.",
        "allowed": "A round may open with a bid on {ones}.",
        "required": "The opener must bid on {ones}.",
    }
)


def opening_sentence(ones: str, words: Words) -> str:
    """The sentence for an opening setting (``ones`` is ``"forbidden"``, ...)."""
    return _OPENING[ones].format(ones=words.ones_word)


def _opening_low(ones: str, face: int, least: int) -> int | None:
    """``least``, or ``None`` where the ones setting ``ones`` closes ``face`` at the
    opening."""
    if face == 1:
        return None if ones == "forbidden" else least
    return None if ones == "required" else least


#: The end of an opening kind's label that tells its ones setting.
_ONES_LABEL: Mapping[str, str] = MappingProxyType(
    {"forbidden": "", "allowed": ", 1s", "required": ", 1s!"}
)


def _opening_refused(ones: str, least: int, bid: Bid, words: Words, why: str) -> Violation:
    """Why ``bid`` does not open a round whose ones setting is ``ones`` and whose opening
    bid holds at least ``least`` dice (``why`` says where that number comes from)."""
    if bid.face == 1 and ones == "forbidden":
        return Violation("ones-on-opening", f"{bid}: a round may not open on {words.ones_word}")
    if bid.face != 1 and ones == "required":
        return Violation("must-open-on-ones", f"{bid}: this round must open on {words.ones_word}")
    return Violation(
        "opening-too-low", f"{bid}: the opening bid names at least {least} dice ({why})"
    )


@attrs.frozen
class Opening:
    """Any quantity opens a round; whether it may open on ones is ``ones``:
    ``"forbidden"``, ``"allowed"`` or ``"required"``.

    >>> import perudo
    >>> context = perudo.load_variant("italian").round_one((5, 5))
    >>> Opening("forbidden").lowest(1, context), Opening("forbidden").lowest(3, context)
    (None, 1)
    """

    axis: ClassVar[str] = "opening"
    kind: ClassVar[str] = "standard"
    standing_bid_only: ClassVar[bool] = True  # its answers read the face alone
    ones: str = param(str, choices=OPENING_ONES)

    def lowest(self, face: int, context: RoundContext) -> int | None:
        """1, or ``None`` for a face the ones setting closes."""
        return _opening_low(self.ones, face, 1)

    def explain(self, bid: Bid, context: RoundContext) -> Violation:
        """Ones at an opening that forbids them, or another face where ones are required."""
        return _opening_refused(self.ones, 1, bid, context.words, "any quantity")

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return opening_sentence(self.ones, words)

    def label(self, words: Words) -> str:
        """A short label."""
        return {"forbidden": "no ones", "allowed": "any", "required": "ones"}[self.ones]


@attrs.frozen
class OpeningAtLeast:
    """The opening bid names at least ``quantity`` dice (every die in play, when fewer are
    in play); whether it may open on ones is ``ones``, as in the standard opening.

    A table that will not hear "one 3" opens at two dice or more: ``quantity = 2``, as a
    published online Liar Dice's rules give it (fb88, "Liar Dice"): "The quantity of the
    first bid must not be less than two."

    >>> import perudo
    >>> context = perudo.load_variant("italian").round_one((5, 5))
    >>> OpeningAtLeast("forbidden", 2).lowest(3, context)
    2
    """

    axis: ClassVar[str] = "opening"
    kind: ClassVar[str] = "at-least"
    ones: str = param(str, choices=OPENING_ONES)
    quantity: int = param(int, minimum=2, maximum=MAX_DICE_IN_PLAY)

    def lowest(self, face: int, context: RoundContext) -> int | None:
        """``quantity``, or the dice in play when fewer; ``None`` for a face the ones
        setting closes."""
        return _opening_low(self.ones, face, min(self.quantity, context.dice_in_play))

    def explain(self, bid: Bid, context: RoundContext) -> Violation:
        """Too few dice, or a face the ones setting closes."""
        least = min(self.quantity, context.dice_in_play)
        return _opening_refused(self.ones, least, bid, context.words, "the table's rule")

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        return (
            f"The opening bid names at least {self.quantity} dice (every die in play, when "
            f"fewer are in play). {opening_sentence(self.ones, words)}"
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return f">={self.quantity}{_ONES_LABEL[self.ones]}"


@attrs.frozen
class OpeningPlayersIn:
    """The opening bid names at least as many dice as there are players still in;
    whether it may open on ones is ``ones``, as in the standard opening.

    >>> import perudo
    >>> context = perudo.load_variant("italian").round_one((5, 5, 5))
    >>> OpeningPlayersIn("allowed").lowest(1, context)
    3
    """

    axis: ClassVar[str] = "opening"
    kind: ClassVar[str] = "players-in"
    ones: str = param(str, choices=OPENING_ONES)

    def lowest(self, face: int, context: RoundContext) -> int | None:
        """The players still in, or ``None`` for a face the ones setting closes."""
        return _opening_low(self.ones, face, context.players_in)

    def explain(self, bid: Bid, context: RoundContext) -> Violation:
        """Too few dice, or a face the ones setting closes."""
        least = context.players_in
        why = f"one for each of the {least} players still in"
        return _opening_refused(self.ones, least, bid, context.words, why)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        return (
            "The opening bid names at least as many dice as there are players still in. "
            + opening_sentence(self.ones, words)
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return f">=players{_ONES_LABEL[self.ones]}"


def opening_with_ones(opening: OpeningRule, ones: str, by: str) -> OpeningRule:
    """``opening`` with its ones setting ``ones`` (a special round's own, set by ``by``,
    its ``axis:kind``): every opening kind of perudo has the parameter ``ones``; another
    kind without it cannot be played with such a special round."""
    kind: Any = type(opening)  # an attrs class, or refused
    if not attrs.has(kind) or "ones" not in attrs.fields_dict(kind):
        raise InvalidVariantError(
            f"{by} sets whether its round opens on ones, and opening:{opening.kind} has no "
            "parameter 'ones' to set"
        )
    settable: Any = opening
    return opening if settable.ones == ones else attrs.evolve(settable, ones=ones)


@attrs.frozen
class NoCap:
    """Any quantity may be bid; one above the dice in play is legal and certainly false."""

    axis: ClassVar[str] = "cap"
    kind: ClassVar[str] = "none"
    caps: ClassVar[bool] = False

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return first_paragraph(self)

    def label(self, words: Words) -> str:
        """A short label."""
        return "none"


@attrs.frozen
class DiceInPlayCap:
    """A bid's quantity may not exceed the dice still in play."""

    axis: ClassVar[str] = "cap"
    kind: ClassVar[str] = "dice-in-play"
    caps: ClassVar[bool] = True

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return first_paragraph(self)

    def label(self, words: Words) -> str:
        """A short label."""
        return "in play"


# --- legality: the lowest quantity of each face ---------------------------------------

# Under raise orders and conversions that answer from the standing bid alone (perudo's
# own: RoundRules.by_standing_bid), lowest quantities and legal bids are kept by rules and
# standing bid (bounded caches), so a position asks its rules once. Any other kind is asked
# at every position, with the position's own context.
_CACHE_SIZE = 8192
_NO_WORDS = Words(dudo="dudo")


def _standing(context: RoundContext) -> Bid:
    standing = context.bid
    assert isinstance(standing, Bid)  # the raise order is asked only once a bid stands
    return standing


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _lowest_by_standing(
    rules: RoundRules, standing: Bid | None, may_change_face: bool
) -> tuple[int | None, ...]:
    """:func:`_lowest` for rules whose kinds read the standing bid alone (before any bid,
    an opening that reads the face alone: :func:`by_standing_bid`), from a context that
    holds only it."""
    bids = () if standing is None else (PlacedBid(0, standing),)
    context = RoundContext(
        words=_NO_WORDS,
        faces=rules.faces,
        dice_per_player=1,
        dice=(),
        round_number=1,
        to_act=None,
        bids=bids,
        rules=rules,
        scores=(),
        starting=(),
    )
    return _lowest(rules, context, may_change_face)


def clear_caches() -> None:
    """Forget every lowest quantity and list of legal bids kept so far (tests that change a
    kind's code in place use it)."""
    _lowest_by_standing.cache_clear()
    legal_bids_by_standing.cache_clear()


def lowest_quantities(
    rules: RoundRules,
    standing: Bid | None,
    context: Callable[[], RoundContext],
    may_change_face: bool,
) -> tuple[int | None, ...]:
    """The lowest quantity of each face (index 1 to ``rules.faces``; index 0 unused) that
    raises ``standing``, the standing bid; ``None`` where no bid on that face is legal
    (whatever the quantity, before any cap). ``context`` gives the round's context, asked
    only when a rule needs it; ``may_change_face`` says whether the player may leave a
    locked face.

    Every legality check and every list of legal bids comes from here. Where the conversion
    decides a face, it wins over the raise order.
    """
    if by_standing_bid(rules, standing):
        return _lowest_by_standing(rules, standing, may_change_face)
    return _lowest(rules, context(), may_change_face)


def by_standing_bid(rules: RoundRules, standing: Bid | None) -> bool:
    """Whether the lowest quantities over ``standing`` are kept by rules and standing bid:
    the raise order and the conversion say they answer from the standing bid alone, or
    (no bid standing yet) the opening says it answers from the face alone."""
    return rules.by_standing_bid if standing is not None else rules.opening_by_face


#: The fewest dice any round has in play (two seats of one die): the highest opening
#: quantity an opening kind that answers from the face alone may give.
_FEWEST_IN_PLAY = 2


def _opening_lows(rules: RoundRules, context: RoundContext) -> tuple[int | None, ...]:
    """Each face's lowest opening quantity (index 0 unused), as the opening kind says,
    checked: a quantity from 1 to the dice in play, and at least one face open."""
    opening = rules.opening
    lows = (None, *[opening.lowest(face, context) for face in range(1, rules.faces + 1)])
    top = _FEWEST_IN_PLAY if rules.opening_by_face else context.dice_in_play
    for face, low in enumerate(lows):
        if face and low is not None and (type(low) is not int or not 1 <= low <= top):
            raise InvalidVariantError(
                f"rule kind opening:{opening.kind} broke its protocol: lowest({face}) said "
                f"{shown(low)}, not None or a quantity from 1 to {top}"
                + (" (it answers from the face alone)" if rules.opening_by_face else "")
            )
    if lows.count(None) == len(lows):
        raise InvalidVariantError(
            f"rule kind opening:{opening.kind} broke its protocol: lowest() let no face "
            "open the round"
        )
    return lows


def _lowest(
    rules: RoundRules, context: RoundContext, may_change_face: bool
) -> tuple[int | None, ...]:
    standing, faces = context.bid, rules.faces
    if standing is None:
        return _opening_lows(rules, context)
    assert isinstance(standing, Bid)  # the raise order is asked of quantity bids alone
    lows: list[int | None] = [None]
    conversion, raising = rules.conversion, rules.raising
    for face in range(1, faces + 1):
        if rules.face_lock and face != standing.face and not may_change_face:
            lows.append(None)
            continue
        low = conversion.lowest(face, context)
        lows.append(raising.lowest(face, context) if low is None else low)
    return tuple(lows)


def legal_bids(
    rules: RoundRules,
    standing: Bid | None,
    context: Callable[[], RoundContext],
    may_change_face: bool,
    top: int,
    pressure: bool,
) -> tuple[Bid, ...]:
    """Every legal bid over ``standing`` up to quantity ``top``, by face then quantity; with
    ``pressure``, each face's pressured bids follow its plain ones. Interned values from
    :func:`perudo.actions.bid_row`, from the same :func:`lowest_quantities`."""
    if by_standing_bid(rules, standing):
        return legal_bids_by_standing(rules, standing, may_change_face, top, pressure)
    return _bids(rules, lowest_quantities(rules, standing, context, may_change_face), top, pressure)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def legal_bids_by_standing(
    rules: RoundRules, standing: Bid | None, may_change_face: bool, top: int, pressure: bool
) -> tuple[Bid, ...]:
    """:func:`legal_bids` for rules that answer from the standing bid alone
    (``rules.by_standing_bid``), kept by its arguments: the engine's hot path."""
    lows = _lowest_by_standing(rules, standing, may_change_face)
    return _bids(rules, lows, top, pressure)


def _bids(
    rules: RoundRules, lows: tuple[int | None, ...], top: int, pressure: bool
) -> tuple[Bid, ...]:
    bids: list[Bid] = []
    for face in range(1, rules.faces + 1):
        low = lows[face]
        if low is not None and low <= top:
            bids.extend(bid_row(face)[low : top + 1])
            if pressure:
                bids.extend(bid_row(face, True)[low : top + 1])
    return tuple(bids)


def different_bids(rules: RoundRules, top: int, pressure: bool) -> int:
    """How many different bids of quantity at most ``top`` the ``rules`` allow: every
    face, every quantity, with ``pressure`` each in its pressured form too. A round whose
    highest quantity is ``top`` holds at most ``rules.raising.times_per_bid`` times as many
    bids."""
    return rules.faces * top * (2 if pressure else 1)


def may_change_face(rules: RoundRules, player: int) -> bool:
    """Whether ``player`` may bid a face other than the standing bid's."""
    return not rules.face_lock or player in rules.face_changers


def check_bid(
    rules: RoundRules,
    standing: Bid | None,
    context: Callable[[], RoundContext],
    bid: Bid,
    player: int,
    dice_in_play: int,
) -> Violation | None:
    """``None`` if ``player`` may bid ``bid`` over ``standing``; otherwise the violation.
    ``context`` gives the round's context (asked only when a rule needs it)."""
    if bid.face > rules.faces:
        return Violation(
            "no-such-face", f"{bid}: the dice of this edition have faces 1 to {rules.faces}"
        )
    may_change = may_change_face(rules, player)
    if rules.by_standing_bid if standing is not None else rules.opening_by_face:  # hot path
        low = _lowest_by_standing(rules, standing, may_change)[bid.face]
    else:
        low = _lowest(rules, context(), may_change)[bid.face]
    if low is not None and bid.quantity >= low:
        if rules.cap and bid.quantity > dice_in_play:
            return Violation(
                "above-cap",
                f"{bid} bids more dice than are in play ({dice_in_play}): the quantity is capped",
            )
        return None
    round_context = context()
    words = round_context.words
    if standing is None:
        return rules.opening.explain(bid, round_context)
    if low is None and bid.face != standing.face and not may_change:
        round_name = rules.special or "special"
        return Violation(
            "face-locked",
            f"{bid} changes the face of {standing}: in a {round_name} round only the quantity "
            f"of {words.face_name(standing.face)} may go up for this player",
        )
    if rules.conversion.lowest(bid.face, round_context) is not None:
        return rules.conversion.explain(bid, round_context)
    return rules.raising.explain(bid, round_context)
