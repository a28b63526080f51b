"""What a player can do: :class:`Bid` (or :class:`HandBid`, in an edition whose bids name
hands), :class:`Dudo`, :class:`Calza`, :class:`Paso`, :class:`Declare`, :class:`OutOfTime`
(where running out of time costs), and :class:`Act`, an action an edition declares beyond
those (Bluff's re-roll).

Actions are small frozen values. Their shape is checked when they are made, so a
``Bid(0, 7)`` never exists; whether an action is *legal* is the game state's business.
"""

from __future__ import annotations

import functools
import re
from typing import Any, ClassVar, Literal, TypeAlias

import attrs

from perudo.errors import IllegalActionError, shown

__all__ = [
    "MAX_ACT_NUMBERS",
    "MAX_DECLARATION",
    "MAX_DICE_PER_PLAYER",
    "MAX_FACES",
    "MAX_HAND",
    "MAX_PLAYERS",
    "MAX_QUANTITY",
    "MAX_TABLE_DICE",
    "Act",
    "Action",
    "AnyBid",
    "Bid",
    "Calza",
    "Declare",
    "Dudo",
    "HandBid",
    "OutOfTime",
    "Paso",
    "canonical_action",
]

#: The largest quantity a bid may name (more dice than any table holds).
MAX_QUANTITY = 9999

#: The longest name a :class:`Declare` may carry.
MAX_DECLARATION = 40

#: The most faces a die may have (an edition's dice have 2 to this many; six by default).
MAX_FACES = 20


def _malformed(message: str) -> IllegalActionError:
    return IllegalActionError("malformed-action", message)


def _check_flag(name: str, value: Any) -> None:
    if type(value) is not bool:
        raise _malformed(f"{name}={shown(value)} is not a flag: use True or False")


@attrs.frozen(repr=False, cache_hash=True)
class Bid:
    """A claim that at least ``quantity`` dice among all hands show ``face``.

    Args:
        quantity: How many dice, 1 to :data:`~perudo.actions.MAX_QUANTITY`.
        face: The face, 1 (ones: Pacos, Aces, Azteco heads) to the edition's highest (6 on
            six-sided dice; any bid names a face of at most
            :data:`~perudo.actions.MAX_FACES`).
        pressure: WANGO party mode only: spend a pressure use with this bid.

    >>> Bid(3, 4)
    Bid(3, 4)
    >>> str(Bid(4, 5, pressure=True))
    '4x5!'
    """

    quantity: int
    face: int
    pressure: bool = False

    def __attrs_post_init__(self) -> None:
        if type(self.quantity) is not int:
            raise _malformed(f"quantity {shown(self.quantity)} is not a whole number of dice")
        if type(self.face) is not int:
            raise _malformed(f"face {shown(self.face)} is not a die face: faces are whole numbers")
        if not 1 <= self.quantity <= MAX_QUANTITY:
            raise _malformed(
                f"quantity {shown(self.quantity)} is not a bid: "
                f"a bid names 1 to {MAX_QUANTITY} dice"
            )
        if not 1 <= self.face <= MAX_FACES:
            raise _malformed(
                f"face {shown(self.face)} is not a die face: faces are 1 to {MAX_FACES}"
            )
        _check_flag("pressure", self.pressure)

    def __str__(self) -> str:
        return f"{self.quantity}x{self.face}{'!' if self.pressure else ''}"

    def __repr__(self) -> str:
        extra = ", pressure=True" if self.pressure else ""
        return f"Bid({self.quantity}, {self.face}{extra})"


def _faces(value: Any) -> Any:
    if isinstance(value, list | tuple) and all(type(face) is int for face in value):
        return tuple(sorted(value, reverse=True))
    return value


#: The most dice a :class:`HandBid` may name.
MAX_HAND = 20


@attrs.frozen(repr=False, cache_hash=True)
class HandBid:
    """A bid that names a hand instead of a quantity of a face: Mia's "65" (a 6 and a 5),
    "Mia" itself (a 2 and a 1), a poker hand. Which hands are bids, how they rank and what
    players call them is the edition's ``claims`` kind's (:class:`perudo.rules.ClaimRule`);
    an edition whose bids are quantities of a face refuses it.

    Args:
        faces: The hand's faces, 2 to :data:`~perudo.actions.MAX_HAND` of them, each 1 to
            :data:`~perudo.actions.MAX_FACES`, in any order: they are kept highest first.

    >>> HandBid((5, 6))
    HandBid((6, 5))
    >>> str(HandBid([1, 2]))
    '2-1'
    """

    faces: tuple[int, ...] = attrs.field(converter=_faces)
    #: A hand is never bid under pressure (WANGO party mode's, for quantity bids).
    pressure: ClassVar[bool] = False

    def __attrs_post_init__(self) -> None:
        faces = self.faces
        if (
            not isinstance(faces, tuple)
            or not 2 <= len(faces) <= MAX_HAND
            or not all(type(face) is int and 1 <= face <= MAX_FACES for face in faces)
        ):
            raise _malformed(
                f"{shown(faces)} is not a hand: 2 to {MAX_HAND} faces, each a whole number "
                f"1 to {MAX_FACES}"
            )

    def __str__(self) -> str:
        return "-".join(map(str, self.faces))

    def __repr__(self) -> str:
        return f"HandBid({self.faces!r})"


@attrs.frozen(repr=False)
class Dudo:
    """Challenge the standing bid: "Dudo", "Dubito", "Perudo" or "challenge" by edition.

    >>> str(Dudo()), str(Dudo(pressure=True))
    ('dudo', 'dudo!')
    """

    pressure: bool = False

    def __attrs_post_init__(self) -> None:
        _check_flag("pressure", self.pressure)

    def __str__(self) -> str:
        return "dudo!" if self.pressure else "dudo"

    def __repr__(self) -> str:
        return "Dudo(pressure=True)" if self.pressure else "Dudo()"


@attrs.frozen(repr=False)
class Calza:
    """Claim the standing bid is exactly right: "Calza", or "Jonti" in the French online room.

    >>> str(Calza())
    'calza'
    """

    def __str__(self) -> str:
        return "calza"

    def __repr__(self) -> str:
        return "Calza()"


@attrs.frozen(repr=False)
class Paso:
    """Pass instead of raising: the standing bid stays, and the pass claims something of the
    passer's own hand, as the edition's ``passes`` kind says ("no two dice alike"). The next
    player raises the standing bid or challenges the pass, which is judged on the passer's
    hand alone.

    >>> str(Paso())
    'paso'
    """

    def __str__(self) -> str:
        return "paso"

    def __repr__(self) -> str:
        return "Paso()"


@attrs.frozen(repr=False)
class OutOfTime:
    """Let the time run out, in an edition whose clock costs the player out of time (its
    ``clock`` kind's optional ``forfeit``, :class:`perudo.rules.Forfeit`'s for one):
    they lose one (a die, a life or a point, as the edition counts), no hand is shown, and
    the round ends. A table that keeps time plays it for a player whose time ran out
    (:func:`perudo.match.timeout_move`); since any player may wait for that, it is also a
    move of their own, open to the player to act once a bid stands.

    >>> str(OutOfTime())
    'time'
    """

    def __str__(self) -> str:
        return "time"

    def __repr__(self) -> str:
        return "OutOfTime()"


def _lower(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


@attrs.frozen(repr=False)
class Declare:
    """Announce a round's kind before its first bid, in the edition's words:
    ``Declare("palifico")``, ``Declare("ordinary")``, ``Declare("last stand")``. The name
    is kept in lower case; which names a player may declare is the edition's business
    (:attr:`perudo.Variant.declarations`).

    >>> str(Declare("Calzone"))
    'declare calzone'
    """

    name: str = attrs.field(converter=_lower)

    def __attrs_post_init__(self) -> None:
        name = self.name
        if (
            not isinstance(name, str)
            or not 0 < len(name) <= MAX_DECLARATION
            or " ".join(name.split()) != name
            or not name.isprintable()
        ):
            raise _malformed(
                f"{shown(name)} is not a declaration: a name of 1 to {MAX_DECLARATION} "
                "printable characters, words separated by one space"
            )

    def __str__(self) -> str:
        return f"declare {self.name}"

    def __repr__(self) -> str:
        return f"Declare({self.name!r})"


#: The most numbers an :class:`Act` may carry.
MAX_ACT_NUMBERS = 20
_ACT_WORD = re.compile(r"[a-z][a-z-]{0,19}", re.ASCII)
#: Words an :class:`Act` may not take: the notation of the other actions.
_RESERVED = frozenset({"dudo", "calza", "paso", "declare", "time"})


def _numbers(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


@attrs.frozen(repr=False, cache_hash=True)
class Act:
    """An action an edition declares beyond bids, calls and declarations: its word and the
    numbers it names, as its action kind (:class:`perudo.rules.ActionRule`) reads them.
    Bluff's re-roll is ``Act("reroll", (2, 5))``: put a 2 and a 5 out in the open and
    re-roll the dice left under the cup.

    Args:
        word: The action's word, as the notation writes it: 1 to 20 lower-case ASCII letters
            and hyphens, starting with a letter, never ``dudo``, ``calza``, ``paso``,
            ``declare`` or ``time``.
        numbers: Up to :data:`~perudo.actions.MAX_ACT_NUMBERS` whole numbers, 0 to
            :data:`~perudo.actions.MAX_QUANTITY` (faces, seats, quantities: the kind says
            what they mean).

    >>> Act("reroll", (2, 5))
    Act('reroll', (2, 5))
    >>> str(Act("reroll", [5, 2])), str(Act("peek"))
    ('reroll 5 2', 'peek')
    """

    word: str
    numbers: tuple[int, ...] = attrs.field(default=(), converter=_numbers)

    def __attrs_post_init__(self) -> None:
        word, numbers = self.word, self.numbers
        if not isinstance(word, str) or _ACT_WORD.fullmatch(word) is None or word in _RESERVED:
            raise _malformed(
                f"{shown(word)} is not an action word: 1 to 20 lower-case letters and hyphens, "
                "starting with a letter, and not dudo, calza, paso, declare or time"
            )
        if not isinstance(numbers, tuple) or len(numbers) > MAX_ACT_NUMBERS:
            raise _malformed(
                f"numbers {shown(numbers)} of {word!r} are not a list of at most "
                f"{MAX_ACT_NUMBERS} whole numbers"
            )
        for number in numbers:
            if type(number) is not int or not 0 <= number <= MAX_QUANTITY:
                raise _malformed(
                    f"{shown(number)} in {word!r} is not a whole number 0 to {MAX_QUANTITY}"
                )

    def __str__(self) -> str:
        return " ".join((self.word, *map(str, self.numbers)))

    def __repr__(self) -> str:
        return f"Act({self.word!r}, {self.numbers!r})" if self.numbers else f"Act({self.word!r})"


#: Any action a player may take.
Action: TypeAlias = Bid | HandBid | Dudo | Calza | Paso | Declare | OutOfTime | Act
ACTION_TYPES = (Bid, HandBid, Dudo, Calza, Paso, Declare, OutOfTime, Act)
#: A link of the bid chain names one of these: a quantity of a face, or a hand.
AnyBid: TypeAlias = Bid | HandBid


#: The most players a declaration may seat.
MAX_PLAYERS = 20
#: The most dice a declaration may give each player at the start.
MAX_DICE_PER_PLAYER = 20
#: The most dice any table holds (legal bids are listed up to the dice in play).
MAX_TABLE_DICE = MAX_PLAYERS * MAX_DICE_PER_PLAYER


@functools.cache
def bid_row(face: int, pressure: bool = False) -> tuple[Bid, ...]:
    """The interned bids on ``face`` (with or without ``pressure``), indexed by quantity up
    to every table's size (index 0 is a placeholder never read): legal_actions hands out
    slices of these rows instead of building new values. A tuple, so no thread can see a
    row half-grown."""
    return tuple(Bid(max(quantity, 1), face, pressure) for quantity in range(MAX_TABLE_DICE + 1))


#: The challenge, plain and with pressure, and the exact call: the calls by their role.
CHALLENGE = Dudo()
CHALLENGE_PRESSED = Dudo(pressure=True)
EXACT_CALL = Calza()
#: The pass.
PASS = Paso()
#: Letting the time run out, where it costs.
OUT_OF_TIME = OutOfTime()

#: What settles a call: the challenge, the exact call, or the clock (a player out of time).
CallRole: TypeAlias = Literal["challenge", "exact", "time"]
#: The role of each call's action type (the edition's words name the first two: Dudo,
#: Dubito, Liar; Calza, Jonti, Spot on).
CALL_ROLES: dict[type, CallRole] = {Dudo: "challenge", Calza: "exact", OutOfTime: "time"}

_BID = re.compile(r"([1-9][0-9]{0,3})x([1-9]|1[0-9]|20)(!?)", re.ASCII)
_HAND = re.compile(r"(?:[1-9]|1[0-9]|20)(?:-(?:[1-9]|1[0-9]|20)){1,19}", re.ASCII)
_ACT = re.compile(r"([a-z][a-z-]{0,19})((?: (?:0|[1-9][0-9]{0,3})){0,20})", re.ASCII)
_LONGEST_NAME = 200


def canonical_action(text: str) -> Action | None:
    """The action whose canonical notation (``str(action)``) is ``text``, or ``None``: the
    reader of what ``__str__`` writes. :func:`perudo.parse_action` reads the edition's
    words too.

    >>> canonical_action("3x4"), canonical_action("dudo!"), canonical_action("Dudo")
    (Bid(3, 4), Dudo(pressure=True), None)
    >>> canonical_action("reroll 2 5"), canonical_action("6-5")
    (Act('reroll', (2, 5)), HandBid((6, 5)))
    """
    match = _BID.fullmatch(text)
    if match is not None:
        return Bid(int(match[1]), int(match[2]), pressure=bool(match[3]))
    if _HAND.fullmatch(text) is not None:
        hand = HandBid(tuple(int(face) for face in text.split("-")))
        return hand if str(hand) == text else None  # canonical: highest face first
    if text in ("dudo", "dudo!"):
        return CHALLENGE_PRESSED if text.endswith("!") else CHALLENGE
    if text == "calza":
        return EXACT_CALL
    if text == "paso":
        return PASS
    if text == "time":
        return OUT_OF_TIME
    name = text.removeprefix("declare ")
    if name != text and len(name) <= _LONGEST_NAME:
        try:
            return Declare(name) if name == name.lower() else None
        except IllegalActionError:
            return None
    match = _ACT.fullmatch(text)
    if match is not None and match[1] not in _RESERVED:
        return Act(match[1], tuple(int(number) for number in match[2].split()))
    return None
