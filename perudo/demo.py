"""A game between bots, told play by play in the edition's own words."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from perudo.actions import Action, Bid, Calza, Declare, Dudo
from perudo.bots import Bot, OddsBot, choose_move
from perudo.state import GameState, new_game
from perudo.variant import Variant

__all__ = ["NAMES", "describe_action", "play", "run_demo"]

NAMES = ("Ana", "Ben", "Cleo", "Dario", "Elena", "Felix", "Gina", "Hugo", "Ines", "Jon")


def describe_action(state: GameState, action: Action, player: int) -> str:
    """One line of play-by-play for ``action`` by ``player``, in the edition's words."""
    name = state.players[player].name
    words = state.variant.words
    pressure = " with pressure" if getattr(action, "pressure", False) else ""
    if isinstance(action, Bid):
        return f"{name} bids {action}{pressure}"
    if isinstance(action, Dudo):
        return f"{name}: {words.dudo}!{pressure}"
    if isinstance(action, Calza):
        late = "" if player == state.to_act else " (out of turn)"
        return f"{name}: {words.calza}!{late}"
    assert isinstance(action, Declare)
    return f"{name} declares {action.name.capitalize()}"


def _round_header(state: GameState) -> str:
    opener = state.players[state.to_act].name  # type: ignore[index]
    counts = ", ".join(f"{p.name} {len(p.dice)}" for p in state.players if p.dice)
    line = f"Round {state.round_number}: {opener} opens (dice: {counts})"
    if state.special_round is not None:
        line += f" - {state.variant.words.special_round or state.special_round} round"
    elif state.offers:
        line += f" - {opener} may declare {' or '.join(o.capitalize() for o in state.offers)}"
    return line


def play(
    state: GameState, bots: Sequence[Bot], *, out: TextIO | None = None, max_actions: int = 100_000
) -> GameState:
    """Play ``state`` to the end with one bot per seat, printing to ``out`` when given.

    Before each turn, every other seat's bot may call out of turn (Jonti) where it can.
    """

    def say(line: str) -> None:
        if out is not None:
            print(line, file=out)

    say(_round_header(state))
    for _ in range(max_actions):
        if state.is_over:
            break
        actor, action = choose_move(state, bots)
        say("  " + describe_action(state, action, actor))
        round_number = state.round_number
        state = state.apply(action, by=actor)
        if state.last_result is not None and (state.round_number != round_number or state.is_over):
            names = [player.name for player in state.players]
            result = state.last_result
            shown = "; ".join(
                f"{names[seat]} {' '.join(map(str, result.hands[seat] or ()))}"
                for seat in result.revealed
            )
            say(f"  shown: {shown}")
            say(f"  {result.describe(names)}")
            if not state.is_over:
                say(_round_header(state))
    return state


def run_demo(
    variant: Variant | str = "italian",
    players: int = 4,
    *,
    seed: int | None = None,
    out: TextIO | None = None,
) -> GameState:
    """Play and tell a game between :class:`~perudo.bots.OddsBot` players."""
    out = sys.stdout if out is None else out
    names = NAMES[:players] if 2 <= players <= len(NAMES) else players
    state = new_game(variant, names, seed=seed)
    print(f"{state.variant.name} ({state.variant.key}), seed {state.seed}", file=out)
    bots = [OddsBot(seed=state.seed * 31 + seat) for seat in range(len(state.players))]
    state = play(state, bots, out=out)
    names_of = [state.players[seat].name for seat in state.winners]
    if state.variant.scoring.moves_dice:
        print(f"{names_of[0]} wins.", file=out)
    else:
        scores = ", ".join(f"{p.name} {p.score}" for p in state.players)
        print(f"Scores: {scores}. Winners: {', '.join(names_of)}.", file=out)
    return state
