"""The demo: a game between bots, told play by play in the edition's own words."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from perudo.bots import OddsBot
from perudo.match import play
from perudo.setup import new_game
from perudo.state import GameState
from perudo.variant import Variant

__all__ = ["NAMES", "run_demo"]

NAMES = ("Ana", "Ben", "Cleo", "Dario", "Elena", "Felix", "Gina", "Hugo", "Ines", "Jon")


def run_demo(
    variant: Variant | str = "italian",
    players: int = 4,
    *,
    seed: int | None = None,
    out: TextIO | None = None,
    starting_dice: Sequence[int] | None = None,
) -> GameState:
    """Play and tell a game between :class:`~perudo.bots.OddsBot` players (each seat
    starting with ``starting_dice``, as :func:`perudo.new_game` takes them)."""
    out = sys.stdout if out is None else out
    names = NAMES[:players] if 2 <= players <= len(NAMES) else players
    state = new_game(variant, names, seed=seed, starting_dice=starting_dice)
    print(f"{state.variant.name} ({state.variant.key}), seed {state.seed}", file=out)
    bots = [OddsBot(seed=state.seed * 31 + seat) for seat in range(len(state.players))]
    return play(state, bots, out=out, explain=True)  # told to its end: "Ana wins.", or the scores
