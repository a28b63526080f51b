"""Rule components: one small frozen value per axis of the rules.

An edition (:class:`perudo.Variant`) picks one component per axis. Components never
raise on a player's action: they return a :class:`Violation` or ``None`` and the engine
decides what to do with it.
"""

from __future__ import annotations

from perudo.rules.base import Provenance, Violation
from perudo.rules.bidding import (
    Cap,
    Conversion,
    DiceInPlayCap,
    HalveDouble,
    Monotone,
    NoCap,
    NoConversion,
    NoWilds,
    Opening,
    QuantityOrFace,
    Raising,
    RoundRules,
    WildOnes,
    Wilds,
)
from perudo.rules.calls import Challenge, ExactCall, ExactCallRule, NoExactCall
from perudo.rules.scoring import Elimination, PartyPoints, Scoring
from perudo.rules.special import NoSpecialRound, OneDieRound, RoundStart, SpecialRound
from perudo.rules.table import Dice, LoserStarts, PlayerCount, RollOff

__all__ = [
    "Cap",
    "Challenge",
    "Conversion",
    "Dice",
    "DiceInPlayCap",
    "Elimination",
    "ExactCall",
    "ExactCallRule",
    "HalveDouble",
    "LoserStarts",
    "Monotone",
    "NoCap",
    "NoConversion",
    "NoExactCall",
    "NoSpecialRound",
    "NoWilds",
    "OneDieRound",
    "Opening",
    "PartyPoints",
    "PlayerCount",
    "Provenance",
    "QuantityOrFace",
    "Raising",
    "RollOff",
    "RoundRules",
    "RoundStart",
    "Scoring",
    "SpecialRound",
    "Violation",
    "WildOnes",
    "Wilds",
]
