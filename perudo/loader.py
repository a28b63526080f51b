"""Edition declarations: ``variants/<key>.toml`` files made into checked :class:`Variant` values."""

from __future__ import annotations

import functools
import os
import re
import stat
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from perudo.errors import InvalidVariantError, UnknownVariantError, shown
from perudo.rules import Provenance
from perudo.rules.base import PROVENANCE_KINDS
from perudo.variant import AXES, KINDS, Variant, Words

__all__ = [
    "MAX_DECLARATION_BYTES",
    "is_edition_key",
    "load_variant",
    "variant_from_mapping",
    "variant_from_toml",
    "variant_names",
    "variants_dir",
]

_HEADER = ("key", "name", "source", "language", "summary")
_PROVENANCE_KEYS = ("provenance", "quote", "reason")
SCHEMA = 1

#: The largest declaration read, in bytes (the shipped ones are under 5 kB).
MAX_DECLARATION_BYTES = 64 * 1024
#: Limits checked on a declaration's text before :mod:`tomllib` sees it: its longest line,
#: the parts of a dotted key or table name, the nesting of arrays and inline tables, and the
#: digits of a number. They keep a hostile file from costing more than milliseconds.
_MAX_LINE = 2000
_MAX_DOTS = 8
_MAX_DEPTH = 8
_MAX_DIGITS = 20
#: The longest text a declaration's field may hold (a quote, a summary).
_MAX_TEXT = 4000
_KEY = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}", re.ASCII)


def is_edition_key(text: object) -> bool:
    """Whether ``text`` has the shape of an edition key: 1 to 40 characters, lower-case
    ASCII letters, digits, ``-`` and ``_``, not starting with ``-`` or ``_``.

    >>> is_edition_key("italian"), is_edition_key("../etc/passwd"), is_edition_key("My house")
    (True, False, False)
    """
    return isinstance(text, str) and _KEY.fullmatch(text) is not None


def variants_dir() -> Path:
    """The folder of the shipped declarations: inside the installed package, or beside it
    in a checkout (an editable install does not copy ``variants/`` into the package)."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "variants", here.parent / "variants"):
        if candidate.is_dir():
            return candidate
    raise UnknownVariantError(f"no variants/ folder found beside {here}")  # pragma: no cover


def variant_names() -> tuple[str, ...]:
    """The keys of the shipped editions, sorted.

    >>> variant_names()
    ('french-calza', 'french-jonti', 'italian', 'spanish', 'wango', 'wango-party')
    """
    return tuple(sorted(path.stem for path in variants_dir().glob("*.toml")))


def load_variant(variant: str | os.PathLike[str]) -> Variant:
    """The edition ``variant``: a shipped key such as ``"italian"``, or a path object
    (:class:`pathlib.Path`) to a ``.toml`` declaration.

    A string is only ever an edition key: a string that looks like a path is refused, never
    opened, so a key taken from a record, a client or a game parameter cannot make perudo
    read a file. To read a declaration file, pass a :class:`pathlib.Path`. The file must be
    a regular file of at most :data:`~perudo.loader.MAX_DECLARATION_BYTES` bytes, and its
    ``key`` must match its file name.

    Raises:
        UnknownVariantError: no shipped edition has that key, the value is not a key, or
            there is no file at the path.
        InvalidVariantError: the declaration is malformed or too large (the message names
            the file and the key).
    """
    if isinstance(variant, os.PathLike):
        return _load_path(Path(variant))
    if not is_edition_key(variant):
        hint = (
            ": to read a declaration file, pass a pathlib.Path" if isinstance(variant, str) else ""
        )
        raise UnknownVariantError(
            f"{shown(variant)} is not an edition key ({', '.join(variant_names())}){hint}"
        )
    return _load_key(variant)


@functools.cache
def _load_key(key: str) -> Variant:
    names = variant_names()
    if key not in names:
        raise UnknownVariantError(f"unknown edition {key!r}: the editions are {', '.join(names)}")
    return _load_path(variants_dir() / f"{key}.toml")


def _load_path(path: Path) -> Variant:
    variant = variant_from_toml(_read_declaration(path), where=shown(path.name, 40))
    if path.suffix == ".toml" and path.stem != variant.key:
        raise InvalidVariantError(
            f"{shown(path.name, 40)}: key {variant.key!r} does not match the file name"
        )
    return variant


def _read_declaration(path: Path) -> str:
    """The text of the declaration file at ``path``: a regular file, read within the size
    limit, never a device or a pipe (opened without blocking, then checked)."""
    name = shown(path.name, 40)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
    try:
        descriptor = os.open(path, flags)
    except FileNotFoundError:
        raise UnknownVariantError(f"no declaration file {name}") from None
    except (OSError, ValueError) as error:  # ValueError: a NUL byte in the path
        reason = getattr(error, "strerror", None) or "not a path"
        raise InvalidVariantError(f"{name}: cannot be read ({reason})") from None
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise InvalidVariantError(f"{name}: not a regular file")
    with open(descriptor, "rb") as file:
        try:
            data = file.read(MAX_DECLARATION_BYTES + 1)
        except OSError as error:
            raise InvalidVariantError(f"{name}: cannot be read ({error.strerror})") from None
    if len(data) > MAX_DECLARATION_BYTES:
        raise InvalidVariantError(f"{name}: larger than {MAX_DECLARATION_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidVariantError(f"{name}: not UTF-8 text") from None


def variant_from_toml(text: str, *, where: str = "<declaration>") -> Variant:
    """Build and check a :class:`Variant` from the text of a TOML declaration.

    The text is checked against the size and shape limits before it is parsed (see
    :data:`~perudo.loader.MAX_DECLARATION_BYTES`).

    Raises:
        InvalidVariantError: the text is too large or too deep, not TOML, or not a valid
            declaration.
    """
    if not isinstance(text, str):
        raise InvalidVariantError(f"{where}: a declaration is text, not {type(text).__name__}")
    _check_shape(text, where)
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError, TypeError) as error:
        raise InvalidVariantError(f"{where}: not valid TOML: {str(error)[:100]}") from None
    return variant_from_mapping(data, where=where)


def _check_shape(text: str, where: str) -> None:
    """Refuse text beyond the limits, in one linear pass that knows TOML's strings and
    comments: too long, a line too long, a dotted key or table name of too many parts,
    arrays or inline tables nested too deep, a number of too many digits."""

    def fail(problem: str) -> InvalidVariantError:
        return InvalidVariantError(f"{where}: {problem}")

    if len(text) > MAX_DECLARATION_BYTES:
        raise fail(f"larger than {MAX_DECLARATION_BYTES} characters")
    for number, row in enumerate(text.split("\n"), start=1):
        if len(row) > _MAX_LINE:
            raise fail(f"line {number} is longer than {_MAX_LINE} characters")
    i, size, line, depth, dots, digits = 0, len(text), 1, 0, 0, 0
    while i < size:
        char = text[i]
        if char in "\"'":
            triple = text.startswith(char * 3, i)
            end = char * 3 if triple else char
            i += len(end)
            while i < size and not text.startswith(end, i):
                if text[i] == "\n":
                    if not triple:
                        break  # an unclosed string: tomllib refuses it
                    line += 1
                i += 2 if char == '"' and text[i] == "\\" else 1
            else:
                i += len(end)
                while triple and i < size and text[i] == char:  # up to two quotes end it
                    i += 1
            digits = 0
            continue
        if char == "#":
            newline = text.find("\n", i)
            i = size if newline < 0 else newline
            continue
        if char == "\n":
            line, dots = line + 1, 0
        elif char in "[{":
            depth += 1
            if depth > _MAX_DEPTH:
                raise fail(f"line {line}: nested deeper than {_MAX_DEPTH}")
        elif char in "]}":
            depth = max(depth - 1, 0)
        elif char == ".":
            dots += 1
            if dots > _MAX_DOTS:
                raise fail(f"line {line}: a key of more than {_MAX_DOTS + 1} parts")
        if char.isdigit() or (char == "_" and digits):
            digits += 1
            if digits > _MAX_DIGITS:
                raise fail(f"line {line}: a number of more than {_MAX_DIGITS} digits")
        else:
            digits = 0
        i += 1


def variant_from_mapping(data: Mapping[str, Any], *, where: str = "<declaration>") -> Variant:
    """Build and check a :class:`Variant` from a parsed declaration.

    ``where`` names the declaration in error messages.
    """

    def fail(place: str, problem: str) -> InvalidVariantError:
        return InvalidVariantError(f"{where}: {place}: {problem}")

    if not isinstance(data, Mapping):
        raise fail("top level", "a declaration is a table")
    known = {"schema", *_HEADER, "words", *AXES}
    for key in data:
        if key not in known:
            raise fail(shown(key), "unknown key")
    if data.get("schema") != SCHEMA:
        raise fail("schema", f"must be {SCHEMA}, not {shown(data.get('schema'))}")
    header: dict[str, Any] = {key: _text(data, key, fail, "") for key in _HEADER}
    if not is_edition_key(header["key"]):
        raise fail("key", f"{shown(header['key'])} is not an edition key (1 to 40 of a-z 0-9 - _)")
    words_table = _table(data, "words", fail)
    for key in words_table:
        if key not in ("dudo", "calza"):
            raise fail(f"[words] {shown(key)}", "unknown key")
    words = Words(
        dudo=_text(words_table, "dudo", fail, "[words] "),
        calza=_text(words_table, "calza", fail, "[words] ") if "calza" in words_table else None,
    )
    components: dict[str, Any] = {}
    provenance: list[Provenance] = []
    for axis in AXES:
        component, source = _axis(data, axis, fail)
        components[axis] = component
        provenance.append(source)
    variant = Variant(**header, words=words, **components, provenance=tuple(provenance))
    _check_consistency(variant, fail)
    return variant


def _text(table: Mapping[str, Any], key: str, fail: Any, prefix: str) -> str:
    if key not in table:
        raise fail(f"{prefix}{key}", "missing")
    value = table[key]
    if not isinstance(value, str) or not value.strip():
        raise fail(f"{prefix}{key}", f"{shown(value)} is not a non-empty string")
    if len(value) > _MAX_TEXT:
        raise fail(f"{prefix}{key}", f"longer than {_MAX_TEXT} characters")
    return value


def _table(data: Mapping[str, Any], key: str, fail: Any) -> Mapping[str, Any]:
    if key not in data:
        raise fail(f"[{key}]", "missing")
    value = data[key]
    if not isinstance(value, Mapping):
        raise fail(f"[{key}]", f"{shown(value)} is not a table")
    return value


def _axis(data: Mapping[str, Any], axis: str, fail: Any) -> tuple[Any, Provenance]:
    table = _table(data, axis, fail)
    place = f"[{axis}]"
    kinds = KINDS[axis]
    kind = table.get("kind")
    if not isinstance(kind, str) or kind not in kinds:
        raise fail(f"{place} kind", f"{shown(kind)} is not one of: {', '.join(kinds)}")
    cls = kinds[kind]
    fields = {field.name: field for field in attrs.fields(cls)}
    for key in table:
        if key != "kind" and key not in fields and key not in _PROVENANCE_KEYS:
            raise fail(f"{place} {shown(key)}", f"unknown key for kind {kind!r}")
    values = {name: _param(table, place, field, fail) for name, field in fields.items()}
    return cls(**values), _provenance(table, place, fail)


def _param(table: Mapping[str, Any], place: str, field: Any, fail: Any) -> Any:
    name = field.name
    if name not in table:
        raise fail(f"{place} {name}", "missing")
    value = table[name]
    meta = field.metadata
    expected = meta["type"]
    if type(value) is not expected:
        raise fail(f"{place} {name}", f"{shown(value)} is not of type {expected.__name__}")
    if meta["choices"] is not None and value not in meta["choices"]:
        choices = ", ".join(map(str, meta["choices"]))
        raise fail(f"{place} {name}", f"{shown(value)} is not one of: {choices}")
    if meta["minimum"] is not None and value < meta["minimum"]:
        raise fail(f"{place} {name}", f"{shown(value)} is below the minimum {meta['minimum']}")
    if meta["maximum"] is not None and value > meta["maximum"]:
        raise fail(f"{place} {name}", f"{shown(value)} is above the maximum {meta['maximum']}")
    return value


def _provenance(table: Mapping[str, Any], place: str, fail: Any) -> Provenance:
    kind = table.get("provenance")
    if kind not in PROVENANCE_KINDS:
        raise fail(
            f"{place} provenance", f"{shown(kind)} is not one of: {', '.join(PROVENANCE_KINDS)}"
        )
    quote = _text(table, "quote", fail, f"{place} ") if "quote" in table else None
    reason = _text(table, "reason", fail, f"{place} ") if "reason" in table else None
    if kind == "stated" and quote is None:
        raise fail(f"{place} quote", "a stated setting quotes the source's sentence")
    if kind in ("reading", "inherited") and reason is None:
        raise fail(f"{place} reason", f"a setting marked {kind} says why")
    return Provenance(kind, quote, reason)


def _check_consistency(variant: Variant, fail: Any) -> None:
    if variant.players.min > variant.players.max:
        raise fail("[players]", f"min {variant.players.min} is above max {variant.players.max}")
    has_call = variant.exact_call.kind != "none"
    if has_call and variant.words.calza is None:
        raise fail("[words] calza", "an edition with an exact call names it")
    if not has_call and variant.words.calza is not None:
        raise fail("[words] calza", "an edition without an exact call has no word for it")
    if has_call and not variant.scoring.moves_dice:
        raise fail("[exact_call]", "an exact call wins or loses dice: it needs elimination scoring")
