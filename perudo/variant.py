"""An edition of Perudo, and its declaration: one component per axis, with where each
setting comes from.

This module is the one place the declaration schema lives: :meth:`Variant.to_dict` writes
it, :meth:`Variant.from_dict` reads it, :func:`merge_declarations` lays a declaration's
changed sections over its parent's (``extends`` in a file, :meth:`Variant.derive` in
Python). Reading files and edition keys is :mod:`perudo.loader`'s business.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import attrs

from perudo.actions import (
    CHALLENGE,
    CHALLENGE_PRESSED,
    EXACT_CALL,
    MAX_FACES,
    Act,
    Action,
    canonical_action,
)
from perudo.errors import GameSetupError, InvalidVariantError, shown
from perudo.rules import (
    AXES,
    ActionRule,
    CapRule,
    ChallengeRule,
    ConversionRule,
    DiceRule,
    ExactCallRule,
    FirstPlayerRule,
    OpeningRule,
    PlayerCountRule,
    Provenance,
    RaisingRule,
    RoundContext,
    RoundRules,
    ScoringRule,
    SpecialRoundRule,
    StarterRule,
    WildsRule,
    Words,
    check_component,
    rule_kinds,
)
from perudo.rules.base import PROVENANCE_KINDS
from perudo.rules.registry import is_built_in, name_failures
from perudo.shipped import variant_names

__all__ = [
    "AXES",
    "OPTIONAL_AXES",
    "SCHEMA",
    "Variant",
    "Words",
    "checked_players",
    "component_table",
    "is_edition_key",
    "merge_declarations",
]

SCHEMA = 1
_HEADER = ("key", "name", "source", "language", "summary")
_WORDS = ("dudo", "calza", "ones", "special_round", "ordinary")
_PROVENANCE_KEYS = ("provenance", "quote", "reason", "translation")
#: The longest text a declaration's field may hold (a quote, a summary); words are shorter.
_MAX_TEXT = 4000
_MAX_WORD = 40
_MAX_PROBLEMS = 20
_KEY = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}", re.ASCII)


def checked_players(variant: Variant, players: object) -> int:
    """``players`` as a count of seats at ``variant``'s table.

    >>> from perudo import load_variant
    >>> checked_players(load_variant("italian"), 4)
    4

    Raises:
        GameSetupError: not a whole number, or not a table size of the edition, in a
            sentence: ``Italian Palifico is played by 2 to 10 players, not 11``, or, for an
            edition of one size, ``... is played by 2 players, not 3``.
    """
    low, high = variant.players.min, variant.players.max
    if type(players) is not int or not low <= players <= high:
        sizes = f"{low}" if low == high else f"{low} to {high}"
        raise GameSetupError(f"{variant.name} is played by {sizes} players, not {shown(players)}")
    return players


def is_edition_key(text: object) -> bool:
    """Whether ``text`` has the shape of an edition key: 1 to 40 characters, lower-case
    ASCII letters, digits, ``-`` and ``_``, not starting with ``-`` or ``_``.

    >>> is_edition_key("italian"), is_edition_key("../etc/passwd"), is_edition_key("My house")
    (True, False, False)
    """
    return isinstance(text, str) and _KEY.fullmatch(text) is not None


@attrs.frozen(cache_hash=True, repr=False)
class Variant:
    """An edition: identity, vocabulary, and one component per axis of :data:`~perudo.AXES`.

    Load one with :func:`perudo.load_variant`, or make a house rule with :meth:`Variant.derive`;
    every axis is declared, nothing is a hidden default. ``provenance`` holds one
    :class:`~perudo.rules.Provenance` per axis, in the order of :data:`~perudo.AXES`; read it
    with :meth:`provenance_of`.
    """

    key: str
    name: str
    source: str
    language: str
    summary: str
    words: Words
    players: PlayerCountRule
    dice: DiceRule
    wilds: WildsRule
    raising: RaisingRule
    conversion: ConversionRule
    opening: OpeningRule
    cap: CapRule
    challenge: ChallengeRule
    exact_call: ExactCallRule
    special_round: SpecialRoundRule
    actions: ActionRule
    starter: StarterRule
    first_player: FirstPlayerRule
    scoring: ScoringRule
    provenance: tuple[Provenance, ...] = attrs.field(repr=False)
    # Derived once when the edition is made, and gone with it: the one place of the
    # edition's caches (never a module-level table).
    _round_rules: RoundRules = attrs.field(init=False, eq=False, repr=False)
    _fingerprint: str = attrs.field(init=False, eq=False, repr=False)
    _user_kinds: tuple[str, ...] = attrs.field(init=False, eq=False, repr=False)
    _has_actions: bool = attrs.field(init=False, eq=False, repr=False)
    _has_out_of_turn: bool = attrs.field(init=False, eq=False, repr=False)

    @_round_rules.default
    def _make_round_rules(self) -> RoundRules:
        return RoundRules(
            wilds=self.wilds,
            raising=self.raising,
            conversion=self.conversion,
            opening=self.opening.ones,
            cap=self.cap.caps,
            faces=self.dice.faces,
        )

    @_fingerprint.default
    def _make_fingerprint(self) -> str:
        text = json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)
        return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    @_has_actions.default
    def _offers_actions(self) -> bool:
        return bool(self.actions.words)

    @_has_out_of_turn.default
    def _acts_out_of_turn(self) -> bool:
        return bool(self.exact_call.out_of_turn or self.actions.out_of_turn)

    @_user_kinds.default
    def _find_user_kinds(self) -> tuple[str, ...]:
        kinds = []
        for axis in AXES:
            component = self.component(axis)
            if not is_built_in(type(component)):
                name_failures(type(component))  # once a class: its failures name it
                kinds.append(f"{axis}:{component.kind}")
        return tuple(kinds)

    def __str__(self) -> str:
        return f"{self.name} ({self.key})"

    def __repr__(self) -> str:
        return f"<Variant {self.key}: {self.name}>"

    # --- what the edition is -----------------------------------------------------------------

    @property
    def fingerprint(self) -> str:
        """The short SHA-256 hash of the whole declaration.

        Records carry it, so a game replays only under the rules it was played with.
        """
        return self._fingerprint

    @property
    def user_kinds(self) -> tuple[str, ...]:
        """The ``axis:kind`` of every component that is not one of perudo's own (registered
        with :func:`perudo.rules.register_kind`)."""
        return self._user_kinds

    def provenance_of(self, axis: str) -> Provenance:
        """Where this edition's setting on ``axis`` comes from."""
        return self.provenance[AXES.index(axis)]

    def component(self, axis: str) -> Any:
        """The component on ``axis``."""
        if axis not in AXES:
            raise KeyError(f"{shown(axis)} is not an axis: the axes are {', '.join(AXES)}")
        return getattr(self, axis)

    def describe(self, axis: str) -> str:
        """The setting on ``axis`` as sentences, in the edition's words (each component
        writes its own)."""
        return str(self.component(axis).describe(self.words, self.dice.per_player))

    def round_rules(self) -> RoundRules:
        """The bidding rules of an ordinary round of this edition (one shared value)."""
        return self._round_rules

    def round_one(self, counts: Sequence[int]) -> RoundContext:
        """Round 1 of a game of this edition whose seats start with ``counts`` dice, before
        anyone acts, as the rules see it."""
        dice = self.dice
        return RoundContext(
            words=self.words,
            faces=dice.faces,
            dice_per_player=dice.per_player,
            dice=tuple(counts),
            round_number=1,
            to_act=None,
            bids=(),
            rules=self._round_rules,
            scores=(0,) * len(counts),
            starting=tuple(counts),
        )

    @property
    def has_pressure(self) -> bool:
        """Whether players may spend pressure (WANGO party mode)."""
        return self.scoring.pressure_uses > 0

    @property
    def has_actions(self) -> bool:
        """Whether the edition offers actions besides bids, calls and declarations (Bluff's
        re-roll), as its ``actions`` component says."""
        return self._has_actions

    @property
    def has_out_of_turn(self) -> bool:
        """Whether a seat other than the player to act may ever act (the exact call out of
        turn in Jonti, or an action such as Bluff's re-roll by the bidder)."""
        return self._has_out_of_turn

    @property
    def has_exact_call(self) -> bool:
        """Whether the edition has an exact call (Calza, Jonti, Spot on)."""
        return self.exact_call.offered

    def most_rounds(self, players: int, dice: int | None = None) -> int | None:
        """The most rounds a game at a table of ``players`` can last, where the rules bound
        it: the scoring's round limit; else, where calls move dice and no exact call wins
        one back, one round for each die but the winner's last (``dice``: every seat's
        dice together at the start; the edition's full hands by default). ``None`` where
        an exact call may win a die back (the French editions): such a game may go on and
        on.

        (A registered scoring kind whose ``settle`` gives dice back breaks the second
        bound; what reads it saturates there: an observation's ``round`` entry.)

        >>> from perudo import load_variant
        >>> [load_variant(key).most_rounds(4) for key in ("italian", "wango-party", "french-calza")]
        [19, 8, None]
        """
        limit = self.scoring.round_limit(players)
        if limit is not None:
            return limit
        if self.scoring.moves_dice and not self.has_exact_call:
            return (players * self.dice.per_player if dice is None else dice) - 1
        return None

    @property
    def calls(self) -> tuple[Action, ...]:
        """The calls the edition offers as actions. The challenge (with pressure too, in
        party mode) and the exact call, if any."""
        pressed = (CHALLENGE_PRESSED,) if self.has_pressure else ()
        exact = (EXACT_CALL,) if self.has_exact_call else ()
        return (CHALLENGE, *pressed, *exact)

    @property
    def declarations(self) -> tuple[str, ...]:
        """The names a :class:`~perudo.Declare` can carry in this edition, in the order
        offered: the edition's words for its special round and for an ordinary one."""
        return tuple(self.words.declaration(role) for role in self.special_round.declarations)

    # --- the declaration -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The declaration as plain data, in the shape of a ``variants/*.toml`` file.

        :meth:`from_dict` reads it back to an equal variant.
        """
        words = {name: getattr(self.words, name) for name in _WORDS}
        if words["ordinary"] == "ordinary":
            del words["ordinary"]
        spoken: dict[str, Any] = {name: word for name, word in words.items() if word is not None}
        if self.words.faces:
            spoken["faces"] = {str(face): name for face, name in self.words.faces}
        data: dict[str, Any] = {
            "schema": SCHEMA,
            "key": self.key,
            "name": self.name,
            "source": self.source,
            "language": self.language,
            "summary": self.summary,
            "words": spoken,
        }
        for axis in AXES:
            source = self.provenance_of(axis)
            if _is_left_out(axis, self.component(axis), source):
                continue  # what a declaration without the section means: said by leaving out
            table = component_table(self.component(axis))
            table["provenance"] = source.kind
            if source.quote is not None:
                table["quote"] = source.quote
            if source.reason is not None:
                table["reason"] = source.reason
            if source.translation is not None:
                table["translation"] = source.translation
            data[axis] = table
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Variant:
        """A variant from a whole declaration's data (:meth:`to_dict`'s), fully checked.
        (A declaration that ``extends`` another is read by :func:`perudo.variant_from_toml`
        or :func:`perudo.variant_from_mapping`.)

        Raises:
            InvalidVariantError: the data is not a valid declaration; the message names
                every wrong or missing section.
        """
        return read_declaration(data, where="<dict>")

    def derive(
        self,
        key: str,
        *,
        reason: str,
        name: str | None = None,
        summary: str | None = None,
        source: str | None = None,
        language: str | None = None,
        words: Mapping[str, str | None] | None = None,
        players: PlayerCountRule | Mapping[str, Any] | None = None,
        dice: DiceRule | Mapping[str, Any] | None = None,
        wilds: WildsRule | Mapping[str, Any] | None = None,
        raising: RaisingRule | Mapping[str, Any] | None = None,
        conversion: ConversionRule | Mapping[str, Any] | None = None,
        opening: OpeningRule | Mapping[str, Any] | None = None,
        cap: CapRule | Mapping[str, Any] | None = None,
        challenge: ChallengeRule | Mapping[str, Any] | None = None,
        exact_call: ExactCallRule | Mapping[str, Any] | None = None,
        special_round: SpecialRoundRule | Mapping[str, Any] | None = None,
        actions: ActionRule | Mapping[str, Any] | None = None,
        starter: StarterRule | Mapping[str, Any] | None = None,
        first_player: FirstPlayerRule | Mapping[str, Any] | None = None,
        scoring: ScoringRule | Mapping[str, Any] | None = None,
    ) -> Variant:
        """A new edition: this one with the axes given changed. *The* way to make a house
        rule in Python.

        Each axis is given as a component (``cap=perudo.rules.DiceInPlayCap()``), typed by
        its axis's protocol so that mypy refuses a kind of another axis, or as a mapping
        shaped like its TOML section (``cap={"kind": "dice-in-play"}``; without ``kind``,
        the parameters given change this edition's component). A changed axis is marked
        ``reading`` with ``reason``, unless the mapping gives its own provenance.

        Args:
            key: The new edition's key (never a shipped edition's).
            reason: Why the axes change: the provenance of each.
            name: The new edition's name (default: this one's, with the key).
            summary: Its summary (default: where an axis changes, one made from its
                components, never this one's; else this one's).
            source: Where its rules come from (default: where an axis changes, that it is
                derived from this edition, and why; else this one's: a source is never
                credited with rules it does not state; a declaration that ``extends`` one
                is read the same way).
            language: The language of that source (default: this one's).
            words: Words to change (``{"dudo": "Liar"}``).

        >>> import perudo
        >>> capped = perudo.load_variant("italian").derive("italian-capped",
        ...     reason="Our table caps bids.", cap={"kind": "dice-in-play"})
        >>> capped.cap, capped.provenance_of("cap").kind
        (DiceInPlayCap(), 'reading')

        Raises:
            InvalidVariantError: a component of another axis, a shipped key, or an invalid
                result.
        """
        given = locals()  # the keywords above: one per axis, each under the axis's name
        header = {"summary": summary, "source": source, "language": language}
        changes: dict[str, Any] = {"key": key, "name": name or f"{self.name} ({key})"}
        changes |= {field: text for field, text in header.items() if text is not None}
        if words is not None:
            changes["words"] = dict(words)
        for axis in AXES:
            value = given[axis]
            if value is None:
                continue
            table = dict(value) if isinstance(value, Mapping) else component_table(value)
            if not isinstance(value, Mapping) and getattr(value, "axis", axis) != axis:
                raise InvalidVariantError(f"derive: {type(value).__name__} is not a {axis} kind")
            if "provenance" not in table:
                table.update(provenance="reading", reason=reason)
            changes[axis] = table
        return read_declaration(
            merge_declarations(self.to_dict(), changes, where=f"<derive {key}>"),
            where=f"<derive {key}>",
        )


def component_table(component: Any) -> dict[str, Any]:
    """A component as its declaration section: ``kind`` and its parameters."""
    table: dict[str, Any] = {"kind": component.kind}
    for field in attrs.fields(type(component)):
        table[field.name] = getattr(component, field.name)
    return table


# --- merging: extends and derive ----------------------------------------------------------


def merge_declarations(
    parent: Mapping[str, Any], child: Mapping[str, Any], *, where: str
) -> dict[str, Any]:
    """``child``'s sections laid over ``parent``'s declaration.

    A section ``child`` gives replaces the parent's keys it names and keeps the others;
    when it names another ``kind``, the parent's parameters are dropped. A changed section
    says its own provenance. ``child`` gives its own ``key``, never a shipped edition's or
    its parent's. Every problem is reported in one error.

    Raises:
        InvalidVariantError: the child does not say a changed section's provenance, keeps a
            shipped or its parent's key, or is not a table.
    """
    problems: list[str] = []
    if not isinstance(child, Mapping):
        raise InvalidVariantError(f"{where}: top level: a declaration is a table")
    merged = {name: (dict(v) if isinstance(v, Mapping) else v) for name, v in parent.items()}
    key = child.get("key")
    if key is None:
        problems.append("key: a derived edition gives its own key")
    elif key == parent.get("key") or key in variant_names():
        problems.append(f"key: {shown(key)} is a shipped edition's or the parent's key")
    if "summary" not in child and any(name in AXES for name in child):
        merged.pop("summary", None)  # the parent's would tell other rules: made anew
    if "source" not in child and any(name in AXES for name in child):
        merged["source"] = _derived_source(parent, child)  # the parent's does not state them
    for name, value in child.items():
        if name == "extends":
            continue
        if name in AXES:
            problems += _merge_axis(merged, name, value)
        elif name == "words" and isinstance(value, Mapping):
            merged["words"] = {**merged.get("words", {}), **value}
            merged["words"] = {k: v for k, v in merged["words"].items() if v is not None}
        else:
            merged[name] = value
    _raise(problems, where)
    return merged


def _derived_source(parent: Mapping[str, Any], child: Mapping[str, Any]) -> str:
    """The source of an edition that changes axes of ``parent`` and names no source of its
    own: derived from the parent, and why (the changed axes' reasons, once each)."""
    reasons: list[str] = []
    for axis in AXES:
        section = child.get(axis)
        text = (
            section.get("reason") or section.get("quote") if isinstance(section, Mapping) else None
        )
        if isinstance(text, str) and text not in reasons:
            reasons.append(text)
    why = " ".join(reasons)
    why = why if len(why) <= 300 else why[:300] + "..."
    derived = f"derived from {parent.get('name')} ({parent.get('key')})"
    return f"{derived}: {why}" if why else derived


def _merge_axis(merged: dict[str, Any], axis: str, value: Any) -> list[str]:
    place = f"[{axis}]"
    if not isinstance(value, Mapping):
        return [f"{place}: {shown(value)} is not a table"]
    if "provenance" not in value:
        return [
            f"{place} provenance: a changed section says where it comes from "
            "(stated with a quote, inherited or reading with a reason)"
        ]
    parent = merged.get(axis, {})
    same_kind = "kind" not in value or value["kind"] == parent.get("kind")
    kept = {k: v for k, v in parent.items() if k not in _PROVENANCE_KEYS} if same_kind else {}
    merged[axis] = {**kept, **value}
    return []


# --- reading -------------------------------------------------------------------------------


def read_declaration(data: Mapping[str, Any], *, where: str) -> Variant:
    """Build and check a :class:`Variant` from a whole declaration (no ``extends``).

    Raises:
        InvalidVariantError: naming every wrong or missing section at once.
    """
    if not isinstance(data, Mapping):
        raise InvalidVariantError(f"{where}: top level: a declaration is a table")
    fail = problems = _Problems()
    known = {"schema", *_HEADER, "words", *AXES}
    for name in data:
        if name == "extends":
            fail("extends", "a declaration that extends another is read by the loader")
        elif name not in known:
            fail(shown(name), "unknown key")
    if data.get("schema") != SCHEMA:
        fail("schema", f"must be {SCHEMA}, not {shown(data.get('schema'))}")
    given = [name for name in _HEADER if name != "summary" or "summary" in data]
    header = {name: _text(data, name, fail, "", _MAX_TEXT) for name in given}
    if header["key"] is not None and not is_edition_key(header["key"]):
        fail("key", f"{shown(header['key'])} is not an edition key (1 to 40 of a-z 0-9 - _)")
    words = _words(data, fail)
    components: dict[str, Any] = {}
    provenance: list[Provenance] = []
    for axis in AXES:
        component, source = _axis(data, axis, fail)
        components[axis] = component
        provenance.append(source)
    if problems or words is None or None in components.values():
        _raise(problems, where)
    assert words is not None
    for component in components.values():
        if not is_built_in(type(component)):
            try:
                check_component(component, words, components["dice"].per_player)
            except InvalidVariantError as error:
                fail(f"[{component.axis}]", str(error))
    _check_consistency(words, components, fail)
    _raise(problems, where)
    if "summary" not in header:  # made from the components, so it never says another's rules
        header["summary"] = made_summary(components, words)
    return Variant(**header, words=words, **components, provenance=tuple(provenance))


#: The axes whose first sentence a summary made from the components gives, in order.
SUMMARY_AXES = ("players", "dice", "wilds", "raising", "conversion", "exact_call",
                "special_round", "scoring")  # fmt: skip


def made_summary(components: Mapping[str, Any], words: Words) -> str:
    """The summary of an edition that declares none: the first sentence of each setting of
    :data:`SUMMARY_AXES`, in the edition's words."""
    dice = components["dice"].per_player
    sentences = []
    for axis in SUMMARY_AXES:
        text = " ".join(str(components[axis].describe(words, dice)).split())
        first = text.split(". ", 1)[0].rstrip(".")
        if first:
            sentences.append(first + ".")
    return " ".join(sentences)[:_MAX_TEXT]


def inapplicable(variant: Variant) -> tuple[str, ...]:
    """Settings of ``variant`` that can never apply as declared, each as a sentence (``perudo
    rules`` shows them as warnings): the edition still plays, but a setting says more than
    the game can do."""
    found: list[str] = []
    faces, words = variant.dice.faces, variant.words
    wild = variant.wilds.wild_face(variant.round_one((variant.dice.per_player,) * 2))
    converted = getattr(variant.conversion, "face", None)
    for axis, face in (("wilds", wild), ("conversion", converted)):
        if face is not None and face > faces:
            found.append(f"{axis}: the face {face} is not on dice of {faces} faces")
    if converted is not None and wild is None:
        found.append(
            f"conversion: bids convert to and from {words.face_name(converted)}, but no face "
            "is wild, so the conversion prices nothing"
        )
    elif converted is not None and wild is not None and converted != wild:
        found.append(
            f"conversion: bids convert to and from {words.face_name(converted)}, but the wild "
            f"face is {words.face_name(wild)}"
        )
    if variant.special_round.offered and variant.dice.per_player == 1:
        found.append("special_round: every player starts with one die, so nobody ever drops to one")
    least = getattr(variant.exact_call, "min_players", 0)
    if variant.exact_call.offered and least > variant.players.max:
        found.append(
            f"exact_call: it needs {least} players still in, more than sit ({variant.players.max})"
        )
    return tuple(found)


class _Problems(list[str]):
    """The problems found in a declaration; called as ``fail(place, problem)``."""

    def __call__(self, place: str, problem: str) -> None:
        self.append(f"{place}: {problem}")


def _raise(problems: list[str], where: str) -> None:
    if not problems:
        return
    shown_problems = problems[:_MAX_PROBLEMS]
    more = f"; and {len(problems) - _MAX_PROBLEMS} more" if len(problems) > _MAX_PROBLEMS else ""
    raise InvalidVariantError(f"{where}: " + "; ".join(shown_problems) + more)


def _text(table: Mapping[str, Any], key: str, fail: _Problems, prefix: str, limit: int) -> Any:
    if key not in table:
        fail(f"{prefix}{key}", "missing")
        return None
    value = table[key]
    if not isinstance(value, str) or not value.strip():
        fail(f"{prefix}{key}", f"{shown(value)} is not a non-empty string")
        return None
    if len(value) > limit:
        fail(f"{prefix}{key}", f"longer than {limit} characters")
        return None
    if not value.isprintable():
        # ESC and OSC sequences would reach terminals (perudo rules, demo) and SVG raw.
        at, char = next((i, c) for i, c in enumerate(value) if not c.isprintable())
        fail(
            f"{prefix}{key}",
            f"holds the control or invisible character U+{ord(char):04X} at character "
            f"{at + 1}: a text field is one line of printable characters (in TOML, end a "
            'line with \\ inside a """ string to fold it)',
        )
        return None
    return value


def _words(data: Mapping[str, Any], fail: _Problems) -> Words | None:
    table = data.get("words")
    if not isinstance(table, Mapping):
        fail("[words]", "missing" if table is None else f"{shown(table)} is not a table")
        return None
    for name in table:
        if name not in _WORDS and name != "faces":
            fail(f"[words] {shown(name)}", "unknown key")
    given = {
        name: _text(table, name, fail, "[words] ", _MAX_WORD) for name in _WORDS if name in table
    }
    for name, word in given.items():
        if word is not None and word != word.strip():
            fail(f"[words] {name}", f"{shown(word)} has spaces at an end")
    if "dudo" not in table:
        fail("[words] dudo", "missing")
    faces = _face_names(table.get("faces", {}), fail)
    if any(word is None for word in given.values()) or "dudo" not in given or faces is None:
        return None
    return Words(**given, faces=faces)


def _face_names(table: Any, fail: _Problems) -> tuple[tuple[int, str], ...] | None:
    """``[words] faces``: names of faces 2 and up, keyed by the face's number."""
    place = "[words] faces"
    if not isinstance(table, Mapping):
        fail(place, f"{shown(table)} is not a table of face numbers and names")
        return None
    if len(table) > MAX_FACES:
        fail(place, f"names {len(table)} faces, more than a die has ({MAX_FACES})")
        return None
    names: dict[int, str] = {}
    before = len(fail)
    for key in table:
        number = str(key)
        face = int(number) if number.isascii() and number.isdecimal() and len(number) < 3 else 0
        if not 2 <= face <= MAX_FACES or str(face) != number:
            fail(
                f"{place} {shown(key)}",
                f"is not a face 2 to {MAX_FACES} (ones are named by 'ones')",
            )
            continue
        word = _text(table, key, fail, f"{place} ", _MAX_WORD)
        if word is None:
            continue
        if word != word.strip() or not word:
            fail(f"{place} {face}", f"{shown(word)} is empty or has spaces at an end")
        elif word.endswith("!"):
            fail(f"{place} {face}", f"{shown(word)} ends in '!', which marks a pressured bid")
        elif word.lower() in {n.lower() for n in names.values()} or _is_face_number(word):
            fail(f"{place} {face}", f"{shown(word)} names another face too")
        names[face] = word
    if len(fail) != before:
        return None
    return tuple(sorted(names.items()))


def _is_face_number(word: str) -> bool:
    """Whether ``word`` is how a face is written without a name (``"ones"``, ``"5s"``)."""
    lowered = word.lower()
    return lowered == "ones" or (lowered.endswith("s") and lowered[:-1].isdecimal())


#: The axes a declaration may leave out, with the kind and the provenance they then have:
#: ``actions`` came after declarations were written, and a declaration without it offers no
#: other action. :meth:`perudo.Variant.to_dict` leaves such an axis out again, so a declaration's
#: fingerprint is the same as before the axis existed.
OPTIONAL_AXES: Mapping[str, tuple[str, Provenance]] = MappingProxyType({
    "actions": ("none", Provenance(
        kind="inherited",
        reason="The declaration names no other action: a player bids, calls or declares.",
    )),
})  # fmt: skip


def _is_left_out(axis: str, component: Any, source: Provenance) -> bool:
    """Whether ``component`` is what leaving out the optional ``axis`` gives."""
    if axis not in OPTIONAL_AXES:
        return False
    kind, provenance = OPTIONAL_AXES[axis]
    return component.kind == kind and is_built_in(type(component)) and source == provenance


def _axis(data: Mapping[str, Any], axis: str, fail: _Problems) -> tuple[Any, Provenance]:
    place = f"[{axis}]"
    table = data.get(axis)
    if table is None and axis in OPTIONAL_AXES:
        left_out, provenance = OPTIONAL_AXES[axis]
        return rule_kinds(axis)[left_out](), provenance
    if not isinstance(table, Mapping):
        fail(place, "missing" if table is None else f"{shown(table)} is not a table")
        return None, Provenance(kind="stated", quote="", reason=None)
    kinds = rule_kinds(axis)
    kind = table.get("kind")
    if not isinstance(kind, str) or kind not in kinds:
        fail(f"{place} kind", f"{shown(kind)} is not one of: {', '.join(kinds)}")
        return None, _provenance(table, place, fail)
    cls = kinds[kind]
    fields = {field.name: field for field in attrs.fields(cls)}
    for name in table:
        if name != "kind" and name not in fields and name not in _PROVENANCE_KEYS:
            fail(f"{place} {shown(name)}", f"unknown key for kind {kind!r}")
    before = len(fail)
    values = {name: _param(table, place, field, fail) for name, field in fields.items()}
    source = _provenance(table, place, fail)
    if len(fail) != before:
        return None, source
    return cls(**values), source


def _param(table: Mapping[str, Any], place: str, field: Any, fail: _Problems) -> Any:
    name = field.name
    if name not in table:
        if field.default is attrs.NOTHING:
            fail(f"{place} {name}", "missing")
        return field.default
    value = table[name]
    meta = field.metadata
    expected = meta["type"]
    if type(value) is not expected:
        fail(f"{place} {name}", f"{shown(value)} is not of type {expected.__name__}")
    elif meta["choices"] is not None and value not in meta["choices"]:
        choices = ", ".join(map(str, meta["choices"]))
        fail(f"{place} {name}", f"{shown(value)} is not one of: {choices}")
    elif meta["minimum"] is not None and value < meta["minimum"]:
        fail(f"{place} {name}", f"{shown(value)} is below the minimum {meta['minimum']}")
    elif meta["maximum"] is not None and value > meta["maximum"]:
        fail(f"{place} {name}", f"{shown(value)} is above the maximum {meta['maximum']}")
    return value


def _provenance(table: Mapping[str, Any], place: str, fail: _Problems) -> Provenance:
    kind = table.get("provenance")
    if kind not in PROVENANCE_KINDS:
        fail(f"{place} provenance", f"{shown(kind)} is not one of: {', '.join(PROVENANCE_KINDS)}")
        return Provenance(kind="stated", quote="", reason=None)
    quote = _text(table, "quote", fail, f"{place} ", _MAX_TEXT) if "quote" in table else None
    reason = _text(table, "reason", fail, f"{place} ", _MAX_TEXT) if "reason" in table else None
    translation = None
    if "translation" in table:
        translation = _text(table, "translation", fail, f"{place} ", _MAX_TEXT)
        if "quote" not in table:
            fail(f"{place} translation", "translates a quote: give the quote too")
    if kind == "stated" and quote is None and "quote" not in table:
        fail(f"{place} quote", "a stated setting quotes the source's sentence")
    if kind in ("reading", "inherited") and reason is None and "reason" not in table:
        fail(f"{place} reason", f"a setting marked {kind} says why")
    return Provenance(kind=kind, quote=quote, reason=reason, translation=translation)


def _check_words(words: Words, act_words: Sequence[str], fail: _Problems) -> None:
    """Each word a player types stands for one action, and never for another action's
    notation: ``dudo = "Jonti"`` beside ``calza = "Jonti"``, or ``calza = "Dudo"``, or
    ``dudo = "Reroll"`` in an edition whose re-roll is ``reroll``, would make a typed word
    mean what the player did not say."""
    meant: dict[str, Action] = {}
    for word, action in words.action_words():
        canonical = canonical_action(word)
        if isinstance(canonical, Act) and canonical.word not in act_words:
            canonical = None  # a word of no action this edition offers
        if canonical is not None and canonical != action:
            fail("[words]", f"{shown(word)} is the notation of {canonical!r}, not of {action!r}")
        elif meant.setdefault(word, action) != action:
            fail("[words]", f"{shown(word)} would mean both {meant[word]!r} and {action!r}")
    special, ordinary = words.declaration("special"), words.declaration("ordinary")
    if words.special_round is not None and special == ordinary:
        fail("[words]", f"the special round and the ordinary one are both {shown(special)}")


def _check_consistency(words: Words, components: Mapping[str, Any], fail: _Problems) -> None:
    _check_words(words, components["actions"].words, fail)
    players, exact_call, special = (
        components["players"],
        components["exact_call"],
        components["special_round"],
    )
    if players.min > players.max:
        fail("[players]", f"min {players.min} is above max {players.max}")
    has_call = exact_call.offered
    if has_call and words.calza is None:
        fail("[words] calza", "an edition with an exact call names it")
    if not has_call and words.calza is not None:
        fail("[words] calza", "an edition without an exact call has no word for it")
    has_special = special.offered
    if has_special and words.special_round is None:
        fail("[words] special_round", "an edition with a special round names it")
    if not has_special and words.special_round is not None:
        fail("[words] special_round", "an edition without a special round has no word for it")
    if has_call and not components["scoring"].moves_dice:
        fail("[exact_call]", "an exact call wins or loses dice: it needs elimination scoring")
