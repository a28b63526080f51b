"""An edition of Perudo: one rule component per axis, with where each setting comes from."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

import attrs

from perudo.errors import shown
from perudo.rules import (
    Cap,
    Challenge,
    Conversion,
    Dice,
    DiceInPlayCap,
    Elimination,
    ExactCall,
    ExactCallRule,
    HalveDouble,
    LoserStarts,
    Monotone,
    NoCap,
    NoConversion,
    NoExactCall,
    NoSpecialRound,
    NoWilds,
    OneDieRound,
    Opening,
    PartyPoints,
    PlayerCount,
    Provenance,
    QuantityOrFace,
    Raising,
    RollOff,
    RoundRules,
    Scoring,
    SpecialRound,
    WildOnes,
    Wilds,
)

__all__ = ["AXES", "KINDS", "Variant", "Words"]

#: The axes every edition declares, in the order they are shown.
AXES = (
    "players",
    "dice",
    "wilds",
    "raising",
    "conversion",
    "opening",
    "cap",
    "challenge",
    "exact_call",
    "special_round",
    "starter",
    "first_player",
    "scoring",
)

_CLASSES: dict[str, tuple[Any, ...]] = {
    "players": (PlayerCount,),
    "dice": (Dice,),
    "wilds": (WildOnes, NoWilds),
    "raising": (QuantityOrFace, Monotone),
    "conversion": (HalveDouble, NoConversion),
    "opening": (Opening,),
    "cap": (NoCap, DiceInPlayCap),
    "challenge": (Challenge,),
    "exact_call": (NoExactCall, ExactCall),
    "special_round": (NoSpecialRound, OneDieRound),
    "starter": (LoserStarts,),
    "first_player": (RollOff,),
    "scoring": (Elimination, PartyPoints),
}

#: The component kinds each axis may use: ``KINDS[axis][kind]`` is the component class.
KINDS: dict[str, dict[str, type[Any]]] = {
    axis: {cls.kind: cls for cls in classes} for axis, classes in _CLASSES.items()
}


@attrs.frozen
class Words:
    """What an edition calls things, used wherever a person reads them.

    Attributes:
        dudo: The challenge: ``"Dudo"``, ``"Dubito"``, ``"Perudo"``, ``"challenge"``.
        calza: The exact call (``"Calza"``, ``"Jonti"``), or ``None`` without one.
    """

    dudo: str
    calza: str | None


@attrs.frozen(cache_hash=True, repr=False)
class Variant:
    """An edition: identity, vocabulary, and one component per axis of :data:`~perudo.variant.AXES`.

    Load one with :func:`perudo.load_variant`; every axis is declared, nothing is a
    hidden default. ``provenance`` holds one :class:`~perudo.rules.Provenance` per axis,
    in the order of :data:`~perudo.variant.AXES`; read it with :meth:`provenance_of`.
    """

    key: str
    name: str
    source: str
    language: str
    summary: str
    words: Words
    players: PlayerCount
    dice: Dice
    wilds: Wilds
    raising: Raising
    conversion: Conversion
    opening: Opening
    cap: Cap
    challenge: Challenge
    exact_call: ExactCallRule
    special_round: SpecialRound
    starter: LoserStarts
    first_player: RollOff
    scoring: Scoring
    provenance: tuple[Provenance, ...] = attrs.field(repr=False)
    # Computed once when the edition is made, and gone with it: never a module-level table.
    _round_rules: RoundRules = attrs.field(init=False, eq=False, repr=False)
    _fingerprint: str = attrs.field(init=False, eq=False, repr=False)

    @_round_rules.default
    def _make_round_rules(self) -> RoundRules:
        return RoundRules(
            wild_ones=self.wilds.wild_ones,
            raising=self.raising,
            conversion=self.conversion,
            opening=self.opening.ones,
            cap=self.cap.caps,
        )

    @_fingerprint.default
    def _make_fingerprint(self) -> str:
        text = json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)
        return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def __str__(self) -> str:
        return f"{self.name} ({self.key})"

    def __repr__(self) -> str:
        return f"<Variant {self.key}: {self.name}>"

    def to_dict(self) -> dict[str, Any]:
        """The declaration as plain data, in the shape of a ``variants/*.toml`` file.

        :meth:`from_dict` reads it back to an equal variant.
        """
        words = {"dudo": self.words.dudo}
        if self.words.calza is not None:
            words["calza"] = self.words.calza
        data: dict[str, Any] = {
            "schema": 1,
            "key": self.key,
            "name": self.name,
            "source": self.source,
            "language": self.language,
            "summary": self.summary,
            "words": words,
        }
        for axis in AXES:
            component = getattr(self, axis)
            table: dict[str, Any] = {"kind": component.kind}
            for field in attrs.fields(type(component)):
                table[field.name] = getattr(component, field.name)
            source = self.provenance_of(axis)
            table["provenance"] = source.kind
            if source.quote is not None:
                table["quote"] = source.quote
            if source.reason is not None:
                table["reason"] = source.reason
            data[axis] = table
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Variant:
        """A variant from :meth:`to_dict`'s data (or a parsed declaration), fully checked.

        Raises:
            InvalidVariantError: the data is not a valid declaration.
        """
        from perudo.loader import variant_from_mapping

        return variant_from_mapping(data, where="<dict>")

    @property
    def fingerprint(self) -> str:
        """The short SHA-256 hash of the whole declaration.

        Records carry it, so a game replays only under the rules it was played with.
        """
        return self._fingerprint

    def provenance_of(self, axis: str) -> Provenance:
        """Where this edition's setting on ``axis`` comes from."""
        return self.provenance[AXES.index(axis)]

    def component(self, axis: str) -> Any:
        """The component on ``axis``."""
        if axis not in AXES:
            raise KeyError(f"{shown(axis)} is not an axis: the axes are {', '.join(AXES)}")
        return getattr(self, axis)

    def round_rules(self) -> RoundRules:
        """The bidding rules of an ordinary round of this edition (one shared value)."""
        return self._round_rules

    @property
    def has_pressure(self) -> bool:
        """Whether players may spend pressure (WANGO party mode)."""
        return self.scoring.pressure_uses > 0
