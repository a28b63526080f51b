"""Edition declarations: ``variants/<key>.toml`` files made into checked :class:`Variant` values."""

from __future__ import annotations

import functools
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from perudo.errors import InvalidVariantError, UnknownVariantError
from perudo.rules import Provenance
from perudo.rules.base import PROVENANCE_KINDS
from perudo.variant import AXES, KINDS, Variant, Words

__all__ = [
    "load_variant",
    "variant_from_mapping",
    "variant_from_toml",
    "variant_names",
    "variants_dir",
]

_HEADER = ("key", "name", "source", "language", "summary")
_PROVENANCE_KEYS = ("provenance", "quote", "reason")
SCHEMA = 1


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
    """The edition ``variant``: a shipped key such as ``"italian"``, or a path to a
    ``.toml`` declaration.

    Raises:
        UnknownVariantError: no shipped edition has that key.
        InvalidVariantError: the declaration is malformed (the message names file and key).
    """
    if isinstance(variant, os.PathLike) or (
        isinstance(variant, str) and (variant.endswith(".toml") or os.sep in variant)
    ):
        return _load_path(Path(variant).resolve())
    if not isinstance(variant, str):
        raise TypeError(f"variant {variant!r} is not an edition key or a path")
    return _load_key(variant)


@functools.cache
def _load_key(key: str) -> Variant:
    names = variant_names()
    if key not in names:
        raise UnknownVariantError(f"unknown edition {key!r}: the editions are {', '.join(names)}")
    return _load_path(variants_dir() / f"{key}.toml")


def _load_path(path: Path) -> Variant:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UnknownVariantError(f"no declaration file at {path}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidVariantError(f"{path}: cannot be read: {error}") from None
    variant = variant_from_toml(text, where=path.name)
    if path.suffix == ".toml" and path.stem != variant.key:
        raise InvalidVariantError(f"{path.name}: key {variant.key!r} does not match the file name")
    return variant


def variant_from_toml(text: str, *, where: str = "<declaration>") -> Variant:
    """Build and check a :class:`Variant` from the text of a TOML declaration.

    Raises:
        InvalidVariantError: the text is not TOML, or not a valid declaration.
    """
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError, TypeError) as error:
        raise InvalidVariantError(f"{where}: not valid TOML: {str(error)[:100]}") from None
    return variant_from_mapping(data, where=where)


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
            raise fail(repr(key), "unknown key")
    if data.get("schema") != SCHEMA:
        raise fail("schema", f"must be {SCHEMA}, not {data.get('schema')!r}")
    header: dict[str, Any] = {key: _text(data, key, fail, "") for key in _HEADER}
    words_table = _table(data, "words", fail)
    for key in words_table:
        if key not in ("dudo", "calza"):
            raise fail(f"[words] {key!r}", "unknown key")
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
        raise fail(f"{prefix}{key}", f"{value!r} is not a non-empty string")
    return value


def _table(data: Mapping[str, Any], key: str, fail: Any) -> Mapping[str, Any]:
    if key not in data:
        raise fail(f"[{key}]", "missing")
    value = data[key]
    if not isinstance(value, Mapping):
        raise fail(f"[{key}]", f"{value!r} is not a table")
    return value


def _axis(data: Mapping[str, Any], axis: str, fail: Any) -> tuple[Any, Provenance]:
    table = _table(data, axis, fail)
    place = f"[{axis}]"
    kinds = KINDS[axis]
    kind = table.get("kind")
    if not isinstance(kind, str) or kind not in kinds:
        raise fail(f"{place} kind", f"{kind!r} is not one of: {', '.join(kinds)}")
    cls = kinds[kind]
    fields = {field.name: field for field in attrs.fields(cls)}
    for key in table:
        if key != "kind" and key not in fields and key not in _PROVENANCE_KEYS:
            raise fail(f"{place} {key!r}", f"unknown key for kind {kind!r}")
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
        raise fail(f"{place} {name}", f"{value!r} is not of type {expected.__name__}")
    if meta["choices"] is not None and value not in meta["choices"]:
        choices = ", ".join(map(str, meta["choices"]))
        raise fail(f"{place} {name}", f"{value!r} is not one of: {choices}")
    if meta["minimum"] is not None and value < meta["minimum"]:
        raise fail(f"{place} {name}", f"{value!r} is below the minimum {meta['minimum']}")
    if meta["maximum"] is not None and value > meta["maximum"]:
        raise fail(f"{place} {name}", f"{value!r} is above the maximum {meta['maximum']}")
    return value


def _provenance(table: Mapping[str, Any], place: str, fail: Any) -> Provenance:
    kind = table.get("provenance")
    if kind not in PROVENANCE_KINDS:
        raise fail(f"{place} provenance", f"{kind!r} is not one of: {', '.join(PROVENANCE_KINDS)}")
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
