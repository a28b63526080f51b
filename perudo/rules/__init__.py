"""Rule components: one small frozen value per axis of the rules.

An edition (:class:`perudo.Variant`) picks one component per axis. Components never
raise on a player's action: they return a :class:`Violation` or ``None`` and the engine
decides what to do with it. Each axis has a protocol (:mod:`perudo.rules.axes`); a kind
written outside perudo follows it and is made known with :func:`register_kind`.
"""

from __future__ import annotations

from perudo.rules.acts import NoActions, Reroll
from perudo.rules.axes import (
    AXES,
    AXIS_TITLES,
    CALLS,
    ActionRule,
    CallContext,
    CapRule,
    ChallengeRule,
    Component,
    ConversionRule,
    DiceRule,
    ExactCallRule,
    FirstPlayerRule,
    OpeningRule,
    PlayerCountRule,
    RaisingRule,
    RoundContext,
    RoundRules,
    ScoringRule,
    SettledCall,
    SpecialRoundRule,
    StarterRule,
    WildsRule,
)
from perudo.rules.base import ActEffect, Provenance, RoundStart, Violation, Words, param
from perudo.rules.bidding import (
    DiceInPlayCap,
    FaceOrQuantity,
    HalveDouble,
    Monotone,
    NoCap,
    NoConversion,
    NoWilds,
    Opening,
    QuantityOrFace,
    WildFace,
    WildOnes,
    WildUntilBidOn,
)
from perudo.rules.calls import Challenge, ExactCall, NoExactCall
from perudo.rules.registry import check_component, register_kind, rule_kinds
from perudo.rules.scoring import Difference, Elimination, FixedRounds, PartyPoints
from perudo.rules.special import NoSpecialRound, OneDieRound
from perudo.rules.table import (
    Dice,
    FixedSeat,
    LoserStarts,
    LostDiceStarts,
    PlayerCount,
    RollOff,
    WinnerStarts,
)

__all__ = [
    "AXES",
    "AXIS_TITLES",
    "CALLS",
    "ActEffect",
    "ActionRule",
    "CallContext",
    "CapRule",
    "Challenge",
    "ChallengeRule",
    "Component",
    "ConversionRule",
    "Dice",
    "DiceInPlayCap",
    "DiceRule",
    "Difference",
    "Elimination",
    "ExactCall",
    "ExactCallRule",
    "FaceOrQuantity",
    "FirstPlayerRule",
    "FixedRounds",
    "FixedSeat",
    "HalveDouble",
    "LoserStarts",
    "LostDiceStarts",
    "Monotone",
    "NoActions",
    "NoCap",
    "NoConversion",
    "NoExactCall",
    "NoSpecialRound",
    "NoWilds",
    "OneDieRound",
    "Opening",
    "OpeningRule",
    "PartyPoints",
    "PlayerCount",
    "PlayerCountRule",
    "Provenance",
    "QuantityOrFace",
    "RaisingRule",
    "Reroll",
    "RollOff",
    "RoundContext",
    "RoundRules",
    "RoundStart",
    "ScoringRule",
    "SettledCall",
    "SpecialRoundRule",
    "StarterRule",
    "Violation",
    "WildFace",
    "WildOnes",
    "WildUntilBidOn",
    "WildsRule",
    "WinnerStarts",
    "Words",
    "check_component",
    "param",
    "register_kind",
    "rule_kinds",
]
