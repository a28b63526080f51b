"""Bidding components: wild ones, raise order, conversion to and from ones, opening, cap.

The one question every component here answers is *the lowest quantity of a face that
raises the standing bid*. Legality checks and the list of legal bids both come from
:func:`lowest_quantity`, so they cannot disagree.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar

import attrs

from perudo.actions import BID_ROWS, Bid
from perudo.rules.axes import RoundRules
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
    "QuantityOrFace",
    "WildFace",
    "WildOnes",
    "check_bid",
    "legal_bids",
    "lowest_quantities",
    "lowest_quantity",
    "may_change_face",
    "opening_sentence",
]

OPENING_ONES = ("forbidden", "allowed", "required")


def _name(face: int) -> str:
    return "ones" if face == 1 else f"{face}s"


# --- wild ones ---------------------------------------------------------------------------


@attrs.frozen
class WildOnes:
    """Ones count for any face 2-6; a bid on ones counts ones only."""

    axis: ClassVar[str] = "wilds"
    kind: ClassVar[str] = "ones"

    def wild_face(self, opening: Bid | None) -> int | None:
        """Always 1."""
        return 1

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        ones = words.ones_word
        return (
            f"{ones.capitalize()} are wild: they count for any face 2-6; a bid on {ones} "
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

    def wild_face(self, opening: Bid | None) -> int | None:
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
    face: int = param(int, minimum=1, maximum=6)
    unless_opened_on: bool = param(bool)

    def wild_face(self, opening: Bid | None) -> int | None:
        """``face``, or ``None`` in a round that opened on it (with ``unless_opened_on``)."""
        if self.unless_opened_on and opening is not None and opening.face == self.face:
            return None
        return self.face

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        name = words.ones_word if self.face == 1 else f"{self.face}s"
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


# --- raise order -------------------------------------------------------------------------


@attrs.frozen
class QuantityOrFace:
    """Raise the quantity (any face), or keep the quantity and raise the face.

    Faces rank 1 (ones, when no conversion applies) to 6.
    """

    axis: ClassVar[str] = "raising"
    kind: ClassVar[str] = "quantity-or-face"

    def lowest(self, standing: Bid, face: int) -> int | None:
        """The lowest quantity of ``face`` that raises ``standing``."""
        return standing.quantity if face > standing.face else standing.quantity + 1

    def explain(self, standing: Bid, bid: Bid) -> Violation:
        """Why ``bid`` (known to be too low) does not raise ``standing``."""
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
            f"Faces rank {words.ones_word} (lowest, where no conversion applies) to 6."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return "qty|face"


@attrs.frozen
class Monotone:
    """Neither the quantity nor the face goes down, and at least one goes up."""

    axis: ClassVar[str] = "raising"
    kind: ClassVar[str] = "monotone"

    def lowest(self, standing: Bid, face: int) -> int | None:
        """The lowest quantity of ``face`` that raises ``standing``; ``None`` for a lower face."""
        if face < standing.face:
            return None
        return standing.quantity if face > standing.face else standing.quantity + 1

    def explain(self, standing: Bid, bid: Bid) -> Violation:
        """Why ``bid`` (known to be illegal) does not raise ``standing``."""
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

    def lowest(self, standing: Bid, face: int) -> int | None:
        """1 for a higher face, one more for the same face, ``None`` for a lower face."""
        if face < standing.face:
            return None
        return 1 if face > standing.face else standing.quantity + 1

    def explain(self, standing: Bid, bid: Bid) -> Violation:
        """Why ``bid`` (known to be illegal) does not raise ``standing``."""
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
    """To ones: at least half the quantity, rounded up. From a bid of a ones: at least 2a+1
    of another face."""

    axis: ClassVar[str] = "conversion"
    kind: ClassVar[str] = "halve-double"

    def lowest(self, standing: Bid, face: int) -> int | None:
        """The lowest quantity when the bid moves onto or off ones; ``None`` otherwise."""
        if face == 1 and standing.face != 1:
            return -(-standing.quantity // 2)
        if standing.face == 1 and face != 1:
            return 2 * standing.quantity + 1
        return None

    def explain(self, standing: Bid, bid: Bid) -> Violation:
        """Why ``bid`` (known to be too low) does not convert ``standing``."""
        low = self.lowest(standing, bid.face)
        head = f"{bid} does not raise {standing}"
        if bid.face == 1:
            why = f"a bid on ones needs at least {low} ones after {standing} (half, rounded up)"
        else:
            why = f"leaving ones needs at least {low} dice (twice {standing.quantity}, plus one)"
        return Violation("bid-too-low", f"{head}: {why}")

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        ones = words.ones_word
        return (
            f"To {ones}: at least half the quantity, rounded up. From a bid of a {ones}: at "
            "least 2a+1 of another face."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return "q/2,2a+1"


@attrs.frozen
class NoConversion:
    """Ones are an ordinary face, ranked lowest, raised like any other."""

    axis: ClassVar[str] = "conversion"
    kind: ClassVar[str] = "none"

    def lowest(self, standing: Bid, face: int) -> int | None:
        """Never a conversion: always ``None``."""
        return None

    def explain(self, standing: Bid, bid: Bid) -> Violation:  # pragma: no cover - never called
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


@attrs.frozen
class Opening:
    """Whether a round may open on ones: ``"forbidden"``, ``"allowed"`` or ``"required"``."""

    axis: ClassVar[str] = "opening"
    kind: ClassVar[str] = "standard"
    ones: str = param(str, choices=OPENING_ONES)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return opening_sentence(self.ones, words)

    def label(self, words: Words) -> str:
        """A short label."""
        return {"forbidden": "no ones", "allowed": "any", "required": "ones"}[self.ones]


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


@functools.lru_cache(maxsize=8192)
def lowest_quantities(
    rules: RoundRules, standing: Bid | None, may_change_face: bool
) -> tuple[int | None, ...]:
    """The lowest quantity of each face (index 1 to 6; index 0 unused) that raises
    ``standing``; ``None`` where no bid on that face is legal (whatever the quantity,
    before any cap). ``may_change_face`` says whether the player may leave a locked face.

    Every legality check and every list of legal bids comes from here.
    """
    if standing is None:
        ones = None if rules.opening == "forbidden" else 1
        others = None if rules.opening == "required" else 1
        return (None, ones, others, others, others, others, others)
    lows: list[int | None] = [None]
    for face in range(1, 7):
        if rules.face_lock and face != standing.face and not may_change_face:
            lows.append(None)
            continue
        low = rules.conversion.lowest(standing, face)
        lows.append(rules.raising.lowest(standing, face) if low is None else low)
    return tuple(lows)


@functools.lru_cache(maxsize=8192)
def legal_bids(
    rules: RoundRules, standing: Bid | None, may_change_face: bool, top: int, pressure: bool
) -> tuple[Bid, ...]:
    """Every legal bid up to quantity ``top``, by face then quantity; with ``pressure``,
    each face's pressured bids follow its plain ones. Interned values from
    :data:`perudo.actions.BID_ROWS`, from the same :func:`lowest_quantities`."""
    plain, pressed = BID_ROWS
    lows = lowest_quantities(rules, standing, may_change_face)
    bids: list[Bid] = []
    for face in range(1, 7):
        low = lows[face]
        if low is not None and low <= top:
            bids.extend(plain[face][low : top + 1])
            if pressure:
                bids.extend(pressed[face][low : top + 1])
    return tuple(bids)


def may_change_face(rules: RoundRules, player: int) -> bool:
    """Whether ``player`` may bid a face other than the standing bid's."""
    return not rules.face_lock or player in rules.face_changers


def lowest_quantity(rules: RoundRules, standing: Bid | None, face: int, player: int) -> int | None:
    """The lowest quantity of ``face`` that ``player`` may bid now; ``None`` if no bid on
    ``face`` is legal for them (whatever the quantity, before any cap)."""
    return lowest_quantities(rules, standing, may_change_face(rules, player))[face]


def check_bid(
    rules: RoundRules, standing: Bid | None, bid: Bid, player: int, dice_in_play: int
) -> Violation | None:
    """``None`` if ``player`` may bid ``bid`` over ``standing``; otherwise the violation."""
    low = lowest_quantity(rules, standing, bid.face, player)
    if low is not None and bid.quantity >= low:
        if rules.cap and bid.quantity > dice_in_play:
            return Violation(
                "above-cap",
                f"{bid} bids more dice than are in play ({dice_in_play}): the quantity is capped",
            )
        return None
    if standing is None:
        if rules.opening == "required":
            return Violation("must-open-on-ones", f"{bid}: this round must open on ones")
        return Violation("ones-on-opening", f"{bid}: a round may not open on ones")
    if low is None and bid.face != standing.face and not may_change_face(rules, player):
        round_name = (rules.special or "special").capitalize()
        return Violation(
            "face-locked",
            f"{bid} changes the face of {standing}: in a {round_name} round only the quantity "
            f"of {_name(standing.face)} may go up for this player",
        )
    if rules.conversion.lowest(standing, bid.face) is not None:
        return rules.conversion.explain(standing, bid)
    return rules.raising.explain(standing, bid)
