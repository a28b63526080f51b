"""What every component shares: violations, provenance and declared parameters."""

from __future__ import annotations

from typing import Any, Literal

import attrs

__all__ = ["PROVENANCE_KINDS", "Provenance", "Violation", "param"]

PROVENANCE_KINDS = ("stated", "inherited", "reading")


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
    """

    kind: Literal["stated", "inherited", "reading"]
    quote: str | None = None
    reason: str | None = None


def param(
    kind: type,
    *,
    choices: tuple[Any, ...] | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
) -> Any:
    """A component parameter that a declaration must set: its type, allowed values, range.

    The loader reads this metadata to check declarations; it is not an attrs validator, so
    switching validators off changes nothing.
    """
    metadata = {"type": kind, "choices": choices, "minimum": minimum, "maximum": maximum}
    return attrs.field(metadata=metadata)
