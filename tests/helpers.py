"""Small helpers to set up positions in tests."""

from __future__ import annotations

from collections.abc import Sequence

import perudo
from perudo import Action, Bid, Calza, Declare, Dudo, GameState

#: The six editions of RULES.md, from the five sources: the tests of their rules use these.
#: Every shipped edition (OpenSpiel's liars_dice too) is ``perudo.variant_names()``.
SIX = ("french-calza", "french-jonti", "italian", "spanish", "wango", "wango-party")


def act(text: str) -> Action:
    """``"3x4"``, ``"3x4!"``, ``"dudo"``, ``"dudo!"``, ``"calza"``, ``"declare palifico"``."""
    if text.startswith("declare "):
        return Declare(text.removeprefix("declare "))
    pressure = text.endswith("!")
    text = text.removesuffix("!")
    if text == "dudo":
        return Dudo(pressure=pressure)
    if text == "calza":
        return Calza()
    quantity, face = text.split("x")
    return Bid(int(quantity), int(face), pressure=pressure)


def game(
    variant: str,
    hands: Sequence[Sequence[int]],
    *,
    first: int = 0,
    seed: int = 0,
) -> GameState:
    """A game whose round 1 has ``hands`` and is opened by seat ``first``."""
    return perudo.new_game(variant, len(hands), seed=seed, dice=hands, first_player=first)


def play(state: GameState, *moves: str) -> GameState:
    """Apply ``moves`` in turn; ``"calza@3"`` makes seat 3 act out of turn."""
    for move in moves:
        text, _, seat = move.partition("@")
        state = state.apply(act(text), by=int(seat) if seat else perudo.TO_ACT)
    return state


def set_round(state: GameState, hands: Sequence[Sequence[int]]) -> GameState:
    """The same position with this round's hands replaced."""
    return state.with_dice(hands)
