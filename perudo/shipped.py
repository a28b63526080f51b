"""The shipped editions: the folder of their declarations, and their keys."""

from __future__ import annotations

import functools
from pathlib import Path

from perudo.errors import UnknownVariantError

__all__ = ["variant_names", "variants_dir"]


def variants_dir() -> Path:
    """The folder of the shipped declarations: inside the installed package, or beside it
    in a checkout (an editable install does not copy ``variants/`` into the package)."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "variants", here.parent / "variants"):
        if candidate.is_dir():
            return candidate
    raise UnknownVariantError(f"no variants/ folder found beside {here}")  # pragma: no cover


@functools.cache
def variant_names() -> tuple[str, ...]:
    """The keys of the shipped editions, sorted.

    >>> variant_names()  # doctest: +NORMALIZE_WHITESPACE
    ('aetolia-liars-dice', 'bluff', 'bull-and-burst', 'common-hand-pass', 'dead-mans-dice',
     'fb88-liar-dice', 'french-calza', 'french-jonti', 'immortal-blade-liars-dice', 'italian',
     'liars-poker', 'mia', 'openspiel-liars-dice', 'outlands-liars-dice', 'spanish', 'wango',
     'wango-party')
    """
    return tuple(sorted(path.stem for path in variants_dir().glob("*.toml")))
