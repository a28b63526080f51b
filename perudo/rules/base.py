"""What every component shares: violations, provenance and declared parameters."""

from __future__ import annotations

from typing import Any, Literal

import attrs

from perudo.actions import CHALLENGE, CHALLENGE_PRESSED, EXACT_CALL, PASS, Action, Declare

__all__ = [
    "PROVENANCE_KINDS",
    "ActEffect",
    "Provenance",
    "RoundStart",
    "Violation",
    "Words",
    "capitalised",
    "component_table",
    "first_paragraph",
    "one_seat",
    "param",
]

PROVENANCE_KINDS = ("stated", "inherited", "reading")


def one_seat(players: int, seat: int, change: int) -> tuple[int, ...]:
    """A settlement that changes ``seat``'s dice (or points) by ``change`` and no other
    seat's, at a table of ``players``.

    >>> one_seat(3, 1, -1)
    (0, -1, 0)
    """
    changes = [0] * players
    changes[seat] = change
    return tuple(changes)


@attrs.frozen
class Violation:
    """Why an action breaks a rule: a stable ``reason`` code and a sentence for the player."""

    reason: str
    message: str


@attrs.frozen
class Provenance:
    """Where an edition's setting on one axis comes from.

    Attributes:
        kind: ``"stated"`` (the source says it), ``"inherited"`` (the source is silent and
            the base rule applies) or ``"reading"`` (the source is ambiguous; this is the
            meaning chosen).
        quote: The source's own sentence(s), in the source's language.
        reason: What the base rule supplies (inherited) or why this meaning (reading).
        translation: An English translation of ``quote`` where the source is in another
            language: made for perudo, not the source's own, and shown as such.
    """

    kind: Literal["stated", "inherited", "reading"]
    quote: str | None = None
    reason: str | None = None
    translation: str | None = None


@attrs.frozen
class Words:
    """What an edition calls things, used wherever a person reads them: notation it accepts,
    records, views, prose, the command line. Words are not rules: two editions that differ
    only in words play the same game.

    Attributes:
        dudo: The challenge: ``"Dudo"``, ``"Dubito"``, ``"Perudo"``, ``"Liar"`` ...
        calza: The exact call (``"Calza"``, ``"Jonti"``, ``"Spot on"``), or ``None`` for an
            edition without one.
        paso: The pass (``"Paso"``, ``"Pass"``), or ``None`` for an edition without one.
        ones: What the ones are called (``"Aces"``, ``"Pacos"``), or ``None`` for "ones".
        special_round: The one-die round (``"Palifico"``, ``"Calzone"``, ``"Last stand"``),
            or ``None`` for an edition without one.
        ordinary: What a player declares to play an ordinary round instead of the special
            one, where the edition offers that choice.
        faces: Names of other faces, as ``(face, name)`` pairs in face order (Bluff's
            sixes are ``"stars"``); a face not named is ``"2s"``, ``"3s"`` ...
    """

    dudo: str
    calza: str | None = None
    paso: str | None = None
    ones: str | None = None
    special_round: str | None = None
    ordinary: str = "ordinary"
    faces: tuple[tuple[int, str], ...] = ()

    def face_name(self, face: int) -> str:
        """What ``face`` is called, in the plural: ``"ones"`` (or the edition's word),
        ``"5s"``, or the edition's name for it."""
        if face == 1:
            return self.ones or "ones"
        for named, name in self.faces:
            if named == face:
                return name
        return f"{face}s"

    def bid_said(self, bid: object, claim: str = "bid") -> str:
        """A link of the bid chain as people read it (:attr:`perudo.PlacedBid.claim`):
        ``"3x5"``; an exact claim with the exact call's word before it, ``"Bull 3x5"``; a
        pass with the pass's word and the bid it leaves standing, ``"Paso (3x5 stands)"``;
        a challenge that leaves it standing, ``"Liar (3x5 stands)"``."""
        if claim == "exact":
            return f"{self.calza or 'exactly'} {bid}"
        if claim == "pass":
            return f"{self.paso or 'pass'} ({bid} stands)"
        if claim == "doubt":
            return f"{self.dudo} ({bid} stands)"
        return str(bid)

    def counted(self, count: int, face: int) -> str:
        """``count`` dice showing ``face``, as a player says it: ``"1 one"``, ``"1 five"``,
        ``"1 star"``, ``"3 ones"``, ``"3 5s"``.

        >>> Words(dudo="Dudo").counted(1, 5), Words(dudo="Dudo", ones="Aces").counted(1, 1)
        ('1 five', '1 Ace')
        """
        name = self.face_name(face)
        if count != 1:
            return f"{count} {name}"
        if name == f"{face}s" and face < len(_NUMBERS):
            return f"1 {_NUMBERS[face]}"
        return f"1 {name[:-1] if name.endswith('s') and len(name) > 1 else name}"

    def declaration(self, role: str) -> str:
        """The name a :class:`~perudo.Declare` carries for ``role``: ``"special"`` (the
        one-die round, in lower case) or ``"ordinary"``."""
        if role == "special":
            return (self.special_round or "special round").lower()
        return self.ordinary.lower()

    def action_words(self) -> tuple[tuple[str, Action], ...]:
        """Every word a player may type for an action, as :func:`perudo.parse_action`
        reads it (lower case, single spaces), with the action: the challenge and its
        pressure form (the word and ``!``), the exact call, the pass, and each declaration
        (alone and after ``declare``)."""
        dudo = _spoken(self.dudo)
        said: list[tuple[str, Action]] = [(dudo, CHALLENGE), (dudo + "!", CHALLENGE_PRESSED)]
        if self.calza is not None:
            said.append((_spoken(self.calza), EXACT_CALL))
        if self.paso is not None:
            said.append((_spoken(self.paso), PASS))
        roles = ("special", "ordinary") if self.special_round is not None else ("ordinary",)
        for role in roles:
            name = self.declaration(role)
            said += [(_spoken(name), Declare(name)), (_spoken(f"declare {name}"), Declare(name))]
        return tuple(said)

    @property
    def ones_word(self) -> str:
        """What the ones are called, ``"ones"`` by default (:meth:`face_name` of 1)."""
        return self.face_name(1)


_NUMBERS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty",
)  # fmt: skip


def _spoken(word: str) -> str:
    """A word as the notation compares it: lower case, runs of spaces as one."""
    return " ".join(word.split()).lower()


@attrs.frozen
class RoundStart:
    """How a round begins, as a special-round component decides it.

    Attributes:
        special: Whether the special round is in force from the start.
        offers: Declarations the opener may make before the first bid, as roles
            (``"special"``, ``"ordinary"``); the edition's words name them.
        must_declare: Whether the opener must declare before bidding.
        uses_special: Whether this start spends the player's once-per-game special round.
        player: The seat whose special round this is (or is offered): a seat still in.
            Required with ``special``, ``offers`` or ``uses_special``: a special round is
            always someone's.
        opens: Whether ``player`` opens the round, before the starter's opener (a
            farewell round); else the starter's opener does.
        owed: The seats owed a special round in later rounds, in the order owed (several
            that fell at once, each given their own round in turn); the next call's
            ``start`` is told them.
    """

    special: bool = False
    offers: tuple[str, ...] = ()
    must_declare: bool = False
    uses_special: bool = False
    player: int | None = None
    opens: bool = False
    owed: tuple[int, ...] = ()


@attrs.frozen
class ActEffect:
    """What an action of the ``actions`` axis does to the round, as its kind decides it; the
    engine carries it out.

    Attributes:
        put_out: Faces the player puts out of the cup into the open, seen by every player
            for the rest of the round (each a die the player holds under the cup).
        reroll: Whether the player then re-rolls every die still under the cup: the new
            faces are drawn from the game's seed stream (or given, by a record or a server)
            and stay hidden.
        look_at: A seat whose cup the player looks under, or ``None``: one die under it,
            drawn at random from the game's seed stream, is seen by the player and shown to
            that seat (told which die was seen), and by nobody else.
        then_bid: Whether the action binds the next move: it is said together with a bid,
            so the player is to act and may only bid, or take another action its kind
            still offers it (``bid-required`` refuses anything else, by anyone, until that
            bid). Only a kind that says ``binds = True`` gives it.
        redraw: Faces of the player's cup rolled again in place (a draw): the new faces
            from the game's seed stream (or given), as hidden as the rest of the cup, which
            stays as it was. Not together with ``put_out`` or ``reroll``.
    """

    put_out: tuple[int, ...] = ()
    reroll: bool = False
    look_at: int | None = None
    then_bid: bool = False
    redraw: tuple[int, ...] = ()


def capitalised(text: str) -> str:
    """``text`` with a capital first letter and the rest as it is (``str.capitalize``
    lowers the rest): an edition's word where it opens a sentence.

    >>> capitalised("challenge"), capitalised("Dubito"), capitalised("a bid or dudo")
    ('Challenge', 'Dubito', 'A bid or dudo')
    """
    return text[:1].upper() + text[1:]


def first_paragraph(component: object) -> str:
    """The first paragraph of a component's class docstring, on one line: the prose of a
    component whose setting needs no other words. A kind's ``describe`` may return it, so
    the rule is said once, in the docstring that ``register_kind`` requires.

    >>> from perudo.rules import RollOff
    >>> first_paragraph(RollOff())
    'Each player rolls one die; the highest opens the game; a tie at the top rolls again.'
    """
    doc = type(component).__doc__ or ""
    return " ".join(doc.strip().split("\n\n")[0].split())


def component_table(component: Any) -> dict[str, Any]:
    """A component as its declaration section: ``kind`` and its parameters (an order as a
    list, as TOML and JSON hold it)."""
    table: dict[str, Any] = {"kind": component.kind}
    for field in attrs.fields(type(component)):
        value = getattr(component, field.name)
        table[field.name] = list(value) if isinstance(value, tuple) else value
    return table


def param(
    kind: type,
    *,
    choices: tuple[Any, ...] | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
    default: Any = attrs.NOTHING,
) -> Any:
    """A component parameter that a declaration sets: its type, allowed values, range, and
    a ``default`` where a declaration may leave it out (a parameter added to a kind after
    declarations of it were written).

    The loader reads this metadata to check declarations; it is not an attrs validator, so
    switching validators off changes nothing. A whole number (``int`` without ``choices``)
    gives ``minimum`` and ``maximum``: a kind that leaves either out is refused by
    :func:`~perudo.rules.register_kind`. An order (``tuple``: a TOML list, such as the
    faces of a raise order, lowest first) holds whole numbers from ``minimum`` to
    ``maximum``, each once, and needs both bounds too.
    """
    metadata = {"type": kind, "choices": choices, "minimum": minimum, "maximum": maximum}
    return attrs.field(metadata=metadata, default=default)
