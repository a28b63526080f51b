"""Editions told as sentences, for ``perudo rules`` and the edition pages: each component
writes its own (:meth:`perudo.rules.Component.describe`); this module lays them out."""

from __future__ import annotations

from typing import Any

import attrs

from perudo.rules import AXIS_TITLES
from perudo.variant import AXES, Variant

__all__ = ["AXIS_TITLES", "LANGUAGES", "describe", "label", "rules_text", "setting", "source_line"]

#: The languages of the sources, by the code a declaration's ``language`` gives.
LANGUAGES = {"en": "English", "es": "Spanish", "fr": "French", "it": "Italian"}


def describe(variant: Variant, axis: str) -> str:
    """The setting of ``variant`` on ``axis`` as sentences in the edition's words."""
    return variant.describe(axis)


def source_line(variant: Variant) -> str:
    """Where the edition comes from, for people: ``"Source: an Italian rule book, written
    in Italian."``"""
    language = LANGUAGES.get(variant.language, variant.language)
    source = variant.source.rstrip(".")  # one sentence: its own full stop goes
    return f"Source: {source}, written in {language}."


def rules_text(variant: Variant) -> str:
    """The whole edition as prose: one paragraph per axis, with where it comes from."""
    head = f"{variant.name} ({variant.key}). {source_line(variant)}"
    lines = [head, "", variant.summary, ""]
    for axis in AXES:
        source = variant.provenance_of(axis)
        lines.append(f"{AXIS_TITLES[axis]} [{source.kind}]: {describe(variant, axis)}")
        if source.reason and source.kind != "stated":
            lines.append(f"  ({source.reason})")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def setting(component: Any) -> str:
    """A component as ``kind (param=value, ...)``, the form declarations use."""
    params = ", ".join(
        f"{field.name}={getattr(component, field.name)}" for field in attrs.fields(type(component))
    )
    return str(component.kind) + (f" ({params})" if params else "")


def label(variant: Variant, axis: str) -> str:
    """The setting in at most eight characters, for the editions-by-axes matrix (``"n/a"``
    for an axis the edition never asks: :meth:`perudo.Variant.asks`)."""
    if not variant.asks(axis):
        return "n/a"
    return str(variant.component(axis).label(variant.words))[:8]
