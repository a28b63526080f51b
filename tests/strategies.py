"""Hypothesis strategies: editions, tables and random legal games."""

from __future__ import annotations

import random

import attrs
from hypothesis import strategies as st
from invariants import DECLARATIONS

import perudo
from perudo import Action, Bid, Calza, Declare, Dudo, GameState

editions = st.sampled_from(perudo.variant_names())


@attrs.frozen
class Table:
    """A game to play: edition, players, seed."""

    edition: str
    players: int
    seed: int


@st.composite
def tables(draw: st.DrawFn, edition: str | None = None, max_players: int = 6) -> Table:
    key = draw(editions) if edition is None else edition
    variant = perudo.load_variant(key)
    players = draw(st.integers(variant.players.min, min(variant.players.max, max_players)))
    return Table(key, players, draw(st.integers(0, 2**32)))


def moves(state: GameState) -> list[tuple[Action, int]]:
    """Every legal (action, seat) pair: the player to act, and out-of-turn calls."""
    assert state.to_act is not None
    pairs = [(action, state.to_act) for action in state.legal_actions()]
    for seat in state.seats_in:
        if seat != state.to_act:
            pairs.extend((action, seat) for action in state.legal_actions(by=seat))
    return pairs


def choose(rng: random.Random, pairs: list[tuple[Action, int]]) -> tuple[Action, int]:
    """A random move that favours calls and low bids, so games end in a sensible length."""
    calls = [pair for pair in pairs if not isinstance(pair[0], Bid)]
    if calls and rng.random() < 0.3:
        return rng.choice(calls)
    bids = [pair for pair in pairs if isinstance(pair[0], Bid)]
    if bids:
        low = min(bid.quantity for bid, _ in bids)  # type: ignore[union-attr]
        near = [pair for pair in bids if pair[0].quantity <= low + 2]  # type: ignore[union-attr]
        return rng.choice(near)
    return rng.choice(pairs)


def any_action(rng: random.Random, dice_in_play: int, *, capped: bool) -> Action:
    """Any well-formed action, legal or not. Bids go up to the dice in play, beyond it only
    under a cap (without one a larger bid is legal but not listed)."""
    kind = rng.randrange(10)
    if kind < 6:
        top = dice_in_play + 2 if capped else dice_in_play
        return Bid(rng.randint(1, top), rng.randint(1, 6), pressure=rng.random() < 0.2)
    if kind < 8:
        return Dudo(pressure=rng.random() < 0.2)
    if kind == 8:
        return Calza()
    return Declare(rng.choice(DECLARATIONS))
