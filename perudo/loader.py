"""Edition declarations: ``variants/<key>.toml`` files made into checked :class:`Variant` values."""

from __future__ import annotations

import copy
import errno
import functools
import os
import stat
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from perudo.declaration import checked_declaration, is_edition_key, merge_declarations
from perudo.errors import InvalidVariantError, UnknownVariantError, shown
from perudo.shipped import variant_names, variants_dir
from perudo.variant import Variant, read_declaration

__all__ = [
    "MAX_DECLARATION_BYTES",
    "is_edition_key",
    "load_variant",
    "variant_from_mapping",
    "variant_from_toml",
    "variant_names",
    "variants_dir",
]

#: The largest declaration read, in bytes (the shipped ones are under 5 kB).
MAX_DECLARATION_BYTES = 64 * 1024
#: Limits checked on a declaration's text before :mod:`tomllib` sees it: its longest line,
#: the parts of a dotted key or table name, the nesting of arrays and inline tables, and the
#: digits of a number. They keep a hostile file from costing more than milliseconds.
_MAX_LINE = 2000
_MAX_DOTS = 8
_MAX_DEPTH = 8
_MAX_DIGITS = 20
#: How deep ``extends`` may chain.
_MAX_EXTENDS = 8


def load_variant(variant: str | os.PathLike[str]) -> Variant:
    """The edition ``variant``: a shipped key such as ``"italian"``, or a path object
    (:class:`pathlib.Path`) to a ``.toml`` declaration.

    A string is only ever an edition key: a string that looks like a path is refused, never
    opened, so a key taken from a record, a client or a game parameter cannot make perudo
    read a file. To read a declaration file, pass a :class:`pathlib.Path`. The file must be
    a regular file of at most :data:`~perudo.loader.MAX_DECLARATION_BYTES` bytes. Its
    ``key`` names the edition and may differ from the file's name. A file may start with
    ``extends = "KEY"`` and give only the sections it changes (see
    :func:`~perudo.declaration.merge_declarations`). ``extends`` names an edition key or a plain
    file name (``"base.toml"``) in the declaring file's own folder: never a path elsewhere,
    and never through a symbolic link.

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
        raise UnknownVariantError(f"{shown(variant)} is not an edition key ({_keys()}){hint}")
    return _load_key(variant)


def _keys() -> str:
    """The shipped editions' keys for a message: all of them while they are few, else the
    first and where to find the rest (a message stays short)."""
    names = variant_names()
    if len(names) <= 8:
        return ", ".join(names)
    return f"{', '.join(names[:6])} ... {len(names)} in all: 'perudo variants' lists them"


@functools.cache
def _load_key(key: str) -> Variant:
    return Variant(**_shipped(key)[1])


@functools.cache
def _shipped(key: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The shipped edition ``key``'s declaration (its ``extends`` resolved) and its checked
    fields: read once, for the edition and for every declaration that extends it."""
    names = variant_names()
    if key not in names:
        raise UnknownVariantError(f"unknown edition {key!r}: the editions are {', '.join(names)}")
    return _declared(variants_dir() / f"{key}.toml")


def _load_path(path: Path, depth: int = 0, *, follow: bool = True) -> Variant:
    return Variant(**_declared(path, depth, follow=follow)[1])


def _declared(
    path: Path, depth: int = 0, *, follow: bool = True
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The declaration in the file at ``path`` with its ``extends`` laid over its parent's
    declaration (as data: never a rebuilt edition's), and its checked fields; every error
    names this file."""
    where = shown(path.name, 40)
    data = _resolve(
        _parse(_read_declaration(path, follow=follow), where), where, path.parent, depth
    )
    return dict(data), checked_declaration(data, where=where)


def _is_plain_file_name(name: object) -> bool:
    """Whether ``name`` is the name of a ``.toml`` file with no folder in it: what
    ``extends`` may name besides an edition key (a file beside the declaring one)."""
    return (
        isinstance(name, str)
        and name.endswith(".toml")
        and 5 < len(name) <= 100
        and name.isprintable()
        and not name.startswith(".")
        and not any(char in name for char in "/\\:\0")
    )


def _read_declaration(path: Path, *, follow: bool = True) -> str:
    """The text of the declaration file at ``path``: a regular file, read within the size
    limit, never a device or a pipe (opened without blocking, then checked). With
    ``follow=False`` (a file named by ``extends``) a symbolic link is refused too."""
    name = shown(path.name, 40)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        descriptor = os.open(path, flags)
    except FileNotFoundError:
        raise UnknownVariantError(f"no declaration file {name}") from None
    except (OSError, ValueError) as error:  # ValueError: a NUL byte in the path
        reason = getattr(error, "strerror", None) or "not a path"
        if not follow and getattr(error, "errno", None) == errno.ELOOP:
            reason = "a symbolic link, which extends does not follow"
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
    :data:`~perudo.loader.MAX_DECLARATION_BYTES`). It may ``extends = "KEY"`` a shipped
    edition (a key only: text never names a file to read).

    Raises:
        InvalidVariantError: the text is too large or too deep, not TOML, or not a valid
            declaration (every wrong or missing section named in one error).
    """
    return variant_from_mapping(_parse(text, where), where=where)


def variant_from_mapping(data: Mapping[str, Any], *, where: str = "<declaration>") -> Variant:
    """Build and check a :class:`Variant` from a parsed declaration, which may
    ``extends = "KEY"`` a shipped edition and give only the sections it changes.

    ``where`` names the declaration in error messages.
    """
    return read_declaration(_resolve(data, where, None, 0), where=where)


def _parse(text: str, where: str) -> dict[str, Any]:
    if not isinstance(text, str):
        raise InvalidVariantError(f"{where}: a declaration is text, not {type(text).__name__}")
    _check_shape(text, where)
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError, TypeError) as error:
        raise InvalidVariantError(f"{where}: not valid TOML: {str(error)[:100]}") from None


def _resolve(
    data: Mapping[str, Any], where: str, folder: Path | None, depth: int
) -> Mapping[str, Any]:
    """``data`` with its ``extends`` laid over the parent's declaration."""
    if not isinstance(data, Mapping) or "extends" not in data:
        return data
    parent = data["extends"]
    if depth >= _MAX_EXTENDS:
        raise InvalidVariantError(f"{where}: extends: more than {_MAX_EXTENDS} levels deep")
    if is_edition_key(parent):
        base = copy.deepcopy(_shipped(parent)[0])  # kept for every child: never changed
    elif folder is not None and _is_plain_file_name(parent):
        base = _declared(folder / parent, depth + 1, follow=False)[0]
    else:
        raise InvalidVariantError(
            f"{where}: extends: {shown(parent)} is not an edition key"
            + (" or the name of a .toml file in the same folder" if folder is not None else "")
        )
    return merge_declarations(base, data, where=where)


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
