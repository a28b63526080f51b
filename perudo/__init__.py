"""perudo: the dice game Perudo (Dudo, Liar's Dice) in its documented regional editions.

>>> import perudo
>>> state = perudo.new_game("italian", 3, seed=1, first_player=0)
>>> state = state.apply(perudo.Bid(2, 5))
>>> state.bid, state.to_act
(Bid(2, 5), 1)
"""

from __future__ import annotations

from perudo import encoding, odds
from perudo.actions import Act, Action, Bid, Calza, Declare, Dudo, HandBid, OutOfTime, Paso
from perudo.comparison import compare, verdicts
from perudo.errors import (
    REASONS,
    BotError,
    EncodingError,
    GameSetupError,
    IllegalActionError,
    InvalidVariantError,
    PerudoError,
    RecordError,
    ServeError,
    SolveError,
    StoreError,
    UnknownVariantError,
)
from perudo.loader import load_variant, variant_from_mapping, variant_from_toml, variant_names
from perudo.notation import parse_action
from perudo.players import TO_ACT, PlacedBid, Player, Seat
from perudo.record import GameRecord, PlayerRecord, state_from_dict, state_to_dict
from perudo.resolution import Resolution
from perudo.rules import Provenance, RoundRules, Violation, register_kind, rule_kinds
from perudo.setup import new_game
from perudo.state import GameState
from perudo.variant import AXES, Variant, Words
from perudo.view import PlayerView, SeatView

__version__ = "0.1.0"

__all__ = [
    "AXES",
    "REASONS",
    "TO_ACT",
    "Act",
    "Action",
    "Bid",
    "BotError",
    "Calza",
    "Declare",
    "Dudo",
    "EncodingError",
    "GameRecord",
    "GameSetupError",
    "GameState",
    "HandBid",
    "IllegalActionError",
    "InvalidVariantError",
    "OutOfTime",
    "Paso",
    "PerudoError",
    "PlacedBid",
    "Player",
    "PlayerRecord",
    "PlayerView",
    "Provenance",
    "RecordError",
    "Resolution",
    "RoundRules",
    "Seat",
    "SeatView",
    "ServeError",
    "SolveError",
    "StoreError",
    "UnknownVariantError",
    "Variant",
    "Violation",
    "Words",
    "__version__",
    "compare",
    "encoding",
    "load_variant",
    "new_game",
    "odds",
    "parse_action",
    "register_kind",
    "rule_kinds",
    "state_from_dict",
    "state_to_dict",
    "variant_from_mapping",
    "variant_from_toml",
    "variant_names",
    "verdicts",
]
