"""An edition's declaration as data: reading it (a dict in, the checked fields of a
:class:`~perudo.Variant` out), laying a declaration's changed sections over its parent's
(``extends`` in a file, :meth:`~perudo.Variant.derive` in Python), and the schema both
follow. Reading files and edition keys is :mod:`perudo.loader`'s business; building the
value is :mod:`perudo.variant`'s.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import attrs

from perudo.actions import MAX_FACES, Act, Action, canonical_action
from perudo.errors import InvalidVariantError, shown
from perudo.rules import AXES, Provenance, Words, check_component, rule_kinds
from perudo.rules.axes import optional
from perudo.rules.base import PROVENANCE_KINDS, component_table
from perudo.rules.bidding import FaceOrQuantity, NoConversion, opening_with_ones
from perudo.rules.registry import is_built_in
from perudo.shipped import variant_names

__all__ = [
    "MAX_WORD",
    "OPTIONAL_AXES",
    "SCHEMA",
    "SUMMARY_AXES",
    "checked_declaration",
    "component_table",
    "is_edition_key",
    "is_left_out",
    "made_summary",
    "merge_declarations",
]

SCHEMA = 1
HEADER = ("key", "name", "source", "language", "summary")
WORDS = ("dudo", "calza", "paso", "ones", "special_round", "ordinary")
_PROVENANCE_KEYS = ("provenance", "quote", "reason", "translation")
#: The longest text a declaration's field may hold (a quote, a summary); words are shorter.
_MAX_TEXT = 4000
#: The longest word an edition may use (its words, a face's name, a score's unit).
MAX_WORD = 40
_MAX_PROBLEMS = 20
_KEY = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}", re.ASCII)


def is_edition_key(text: object) -> bool:
    """Whether ``text`` has the shape of an edition key: 1 to 40 characters, lower-case
    ASCII letters, digits, ``-`` and ``_``, not starting with ``-`` or ``_``.

    >>> is_edition_key("italian"), is_edition_key("../etc/passwd"), is_edition_key("My house")
    (True, False, False)
    """
    return isinstance(text, str) and _KEY.fullmatch(text) is not None


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
    why = "; ".join(text.rstrip(".") for text in reasons)  # one reason an axis, in one line
    why += "." if reasons and reasons[-1].endswith(".") else ""
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


def checked_declaration(data: Mapping[str, Any], *, where: str) -> dict[str, Any]:
    """The fields of a :class:`~perudo.Variant`, by name, from a whole declaration (no
    ``extends``), every one checked: the header, the words, one component per axis (each
    registered kind's methods called once, :func:`~perudo.rules.check_component`) and the
    provenance of each.

    Raises:
        InvalidVariantError: naming every wrong or missing section at once.
    """
    if not isinstance(data, Mapping):
        raise InvalidVariantError(f"{where}: top level: a declaration is a table")
    fail = problems = _Problems()
    known = {"schema", *HEADER, "words", *AXES}
    for name in data:
        if name == "extends":
            fail("extends", "a declaration that extends another is read by the loader")
        elif name not in known:
            fail(shown(name), "unknown key")
    if data.get("schema") != SCHEMA:
        fail("schema", f"must be {SCHEMA}, not {shown(data.get('schema'))}")
    given = [name for name in HEADER if name != "summary" or "summary" in data]
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
    return {**header, "words": words, **components, "provenance": tuple(provenance)}


#: The axes whose first sentence a summary made from the components gives, in order.
SUMMARY_AXES = ("players", "dice", "wilds", "raising", "conversion", "turns", "exact_call",
                "special_round", "scoring")  # fmt: skip


def made_summary(components: Mapping[str, Any], words: Words) -> str:
    """The summary of an edition that declares none: the first sentence of each setting of
    :data:`SUMMARY_AXES`, in the edition's words."""
    dice = components["dice"].per_player
    sentences = []
    for axis in SUMMARY_AXES:
        component = components[axis]
        if axis in OPTIONAL_AXES and component.kind == OPTIONAL_AXES[axis][0]:
            continue  # what leaving the section out means goes without saying
        text = " ".join(str(component.describe(words, dice)).split())
        first = text.split(". ", 1)[0].rstrip(".")
        if first:
            sentences.append(first + ".")
    return " ".join(sentences)[:_MAX_TEXT]


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
        if name not in WORDS and name != "faces":
            fail(f"[words] {shown(name)}", "unknown key")
    given = {
        name: _text(table, name, fail, "[words] ", MAX_WORD) for name in WORDS if name in table
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
        word = _text(table, key, fail, f"{place} ", MAX_WORD)
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
    "claims": ("quantity-of-face", Provenance(
        kind="inherited",
        reason="The declaration names no other claim: a bid names a quantity of a face.",
    )),
    "turns": ("in-turn", Provenance(
        kind="inherited",
        reason="The declaration lets nobody act out of turn: only the player to act bids "
        "or challenges.",
    )),
    "passes": ("none", Provenance(
        kind="inherited",
        reason="The declaration names no pass: the player to act raises or challenges.",
    )),
    "clock": ("none", Provenance(
        kind="inherited",
        reason="The declaration sets no time: a table sets its own, and a bot plays a turn "
        "not made in time.",
    )),
    "actions": ("none", Provenance(
        kind="inherited",
        reason="The declaration names no other action: a player bids, calls or declares.",
    )),
})  # fmt: skip


def is_left_out(axis: str, component: Any, source: Provenance) -> bool:
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
        own = (" (a kind of your own is registered by the plugin that makes it: "
               "perudo.register_kind, or --plugin MODULE on the command line)"
               if isinstance(kind, str) else "")  # fmt: skip
        fail(f"{place} kind", f"{shown(kind)} is not one of: {', '.join(kinds)}{own}")
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
    if expected is tuple:
        return _order(value, f"{place} {name}", meta, fail)
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


def _order(value: Any, place: str, meta: Mapping[str, Any], fail: _Problems) -> Any:
    """An order parameter (a TOML list) as a tuple: whole numbers within the bounds, each
    once."""
    low, high = meta["minimum"], meta["maximum"]
    if not isinstance(value, list | tuple) or not 1 <= len(value) <= high - low + 1:
        fail(place, f"{shown(value)} is not a list of 1 to {high - low + 1} whole numbers")
        return None
    for item in value:
        if type(item) is not int or not low <= item <= high:
            fail(place, f"{shown(item)} is not a whole number from {low} to {high}")
            return None
    if len(set(value)) != len(value):
        fail(place, f"{shown(value)} names a number twice: an order names each once")
        return None
    return tuple(value)


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


#: The axes an edition whose bids name hands never asks (its claims kind ranks and judges
#: the hands), with the kind each must be where one would say what the game does not do
#: (``None``: any kind, never asked).
NOT_ASKED_OF_HANDS: Mapping[str, str | None] = MappingProxyType(
    {"wilds": "none", "raising": None, "conversion": "none", "opening": None, "cap": "none"}
)
#: Perudo's own kinds that count a face or a quantity, which a bid naming a hand lacks.
_COUNTING_KINDS = ("exact_call:exact", "exact_call:exact-claim", "challenge:pure-hands")


def _check_hands(components: Mapping[str, Any], fail: _Problems) -> None:
    """An edition whose bids name hands (its ``claims`` kind gives a ladder): the ladder
    made, and nothing declared that counts a face or a quantity."""
    dice, claims = components["dice"], components["claims"]
    try:
        ladder = claims.ladder(dice.per_player, dice.faces)
    except InvalidVariantError as error:
        fail("[claims]", str(error))
        return
    if ladder is None:
        if components["exact_call"].kind == "give-up":
            fail("[exact_call]", "exact_call:give-up needs bids that name hands ([claims])")
        return
    for axis, kind in NOT_ASKED_OF_HANDS.items():
        if kind is not None and components[axis].kind != kind:
            fail(
                f"[{axis}]",
                f"bids name hands (claims:{claims.kind}), judged by the claims kind alone: "
                f'declare kind = "{kind}"',
            )
    for named in _COUNTING_KINDS:
        axis, kind = named.split(":")
        if components[axis].kind == kind and is_built_in(type(components[axis])):
            fail(f"[{axis}]", f"{named} counts a face, and a bid naming a hand (claims:"
                 f"{claims.kind}) has none")  # fmt: skip
    if components["passes"].offered:
        fail("[passes]", f"a pass is not played with bids that name hands (claims:{claims.kind})")
    if components["special_round"].offered:
        fail(
            "[special_round]",
            f"a special round is not played with bids that name hands (claims:{claims.kind})",
        )
    if components["scoring"].pressure_uses:
        fail(
            "[scoring]", f"pressure is not played with bids that name hands (claims:{claims.kind})"
        )


def _check_consistency(words: Words, components: Mapping[str, Any], fail: _Problems) -> None:
    _check_words(words, components["actions"].words, fail)
    _check_hands(components, fail)
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
    raising, conversion = components["raising"], components["conversion"]
    if isinstance(raising, FaceOrQuantity) and not isinstance(conversion, NoConversion):
        fail(  # the quantity falls with a face raised, and rises again off the converted face
            "[conversion]",
            f"conversion:{conversion.kind} with raising:{raising.kind} lets a bid come back "
            "(1x1, 3x2, 1x3, 1x1: a round that need never end); convert only under a raise "
            "order whose quantity never falls",
        )
    if optional(components["challenge"], "all_around") and components["scoring"].pressure_uses:
        fail("[challenge]", "a challenge all around has no pressure: its doubts spend none")
    has_pass = components["passes"].offered
    if has_pass and words.paso is None:
        fail("[words] paso", "an edition with a pass names it")
    if not has_pass and words.paso is not None:
        fail("[words] paso", "an edition without a pass has no word for it")
    has_special = special.offered
    if has_special and words.special_round is None:
        fail("[words] special_round", "an edition with a special round names it")
    if not has_special and words.special_round is not None:
        fail("[words] special_round", "an edition without a special round has no word for it")
    sets_ones = getattr(special, "opening", None)  # a special round's own ones at its opening
    if isinstance(sets_ones, str):
        try:
            opening_with_ones(components["opening"], sets_ones, f"special_round:{special.kind}")
        except InvalidVariantError as error:
            fail("[opening]", str(error))
