"""Games between batch bots, tallied per game: what :func:`perudo.simulate.simulate` counts
when it plays on the batch engine."""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np
from numpy.typing import NDArray

from perudo.batch.bots import BatchBot
from perudo.batch.engine import BatchGames
from perudo.variant import Variant

__all__ = ["Played", "play_bots"]


@attrs.frozen
class Played:
    """What happened in each game of a run, one row per game, in game order.

    Attributes:
        winners: ``(games, players)``: the winning seats.
        opener: The seat that opened each game.
        rounds: Rounds played (calls made).
        decisions: Actions taken.
        dudo: Challenges made.
        exact: Rounds ended by the exact call, in turn or out of turn.
        out_of_turn: Exact calls made out of turn (a claim in the chain too: Bull).
        late: Rounds ended by a player letting its time run out (where that costs).
        dudo_out_of_turn: Challenges made out of turn (a burst).
        bids_out_of_turn: Bids made out of turn (a burst).
        acts: The edition's own actions taken (Bluff's re-rolls).
        special: Rounds played as the edition's special round.
        declarations: ``(games, declarations)``: each declaration's count.
        leader: The first seat to lead alone after a call (more dice than every other
            seat, or more points where calls move points); -1 where none did.
    """

    winners: NDArray[np.bool_]
    opener: NDArray[np.int64]
    rounds: NDArray[np.int64]
    decisions: NDArray[np.int64]
    dudo: NDArray[np.int64]
    exact: NDArray[np.int64]
    out_of_turn: NDArray[np.int64]
    late: NDArray[np.int64]
    dudo_out_of_turn: NDArray[np.int64]
    bids_out_of_turn: NDArray[np.int64]
    acts: NDArray[np.int64]
    special: NDArray[np.int64]
    declarations: NDArray[np.int64]
    leader: NDArray[np.int64]


def play_bots(
    variant: Variant,
    players: int,
    seat_bots: NDArray[np.int64],
    bots: Sequence[BatchBot],
    *,
    seed: int,
    batch: int = 4096,
    starting_dice: Sequence[int] | None = None,
) -> Played:
    """Play ``len(seat_bots)`` games; in game ``g``, seat ``s`` is played by
    ``bots[seat_bots[g, s]]``. ``batch`` games are played at once; the dice come from
    ``seed``; ``starting_dice`` is each seat's handicap, as :func:`perudo.new_game` takes it."""
    games = len(seat_bots)
    size = max(1, min(batch, games))
    table = BatchGames.new(variant, players, size, seed, starting_dice=starting_dice)
    ndecl = len(variant.declarations)
    counted = ("rounds", "decisions", "dudo", "exact", "out_of_turn", "late",
               "dudo_out_of_turn", "bids_out_of_turn", "acts", "special")  # fmt: skip
    counts = {name: np.zeros(games, dtype=np.int64) for name in counted}
    declarations = np.zeros((games, ndecl), dtype=np.int64)
    winners = np.zeros((games, players), dtype=np.bool_)
    opener = np.zeros(games, dtype=np.int64)
    leader = np.full(games, -1, dtype=np.int64)
    standing = table.held if table.rules.moves_dice else table.scores  # who leads, by what
    game_of = np.arange(size)  # the game each row plays; -1 once the row has no game left
    opener[:size] = table.opener
    following = size
    rows = np.arange(size)
    out_of_turn_edition = table.variant.has_out_of_turn
    first_decl, first_bid = table.layout.first_declaration, table.layout.first_bid
    first_act = table.layout.first_act
    while (game_of >= 0).any():
        live = ~table.over
        lineup = seat_bots[np.maximum(game_of, 0)]  # (rows, players): each seat's bot
        actor = lineup[rows, np.maximum(table.to_act, 0)]
        acts = np.zeros(size, dtype=np.int64)
        for k, bot in enumerate(bots):
            playing = (actor == k) & live
            if playing.any():
                acts = np.where(playing, bot.act(table), acts)
        by = table.to_act.astype(np.int64)
        if out_of_turn_edition:  # the seats' out-of-turn actions first, in seat order
            taken = np.full((size, players), -1, dtype=np.int64)
            for k, bot in enumerate(bots):
                mine = lineup == k
                if mine.any():
                    taken = np.where(mine, bot.interrupt(table), taken)
            taken[~live] = -1
            calling = (taken >= 0).any(axis=1)
            caller = np.argmax(taken >= 0, axis=1)
            by = np.where(calling, caller, by)
            acts = np.where(calling, taken[rows, caller], acts)
            exact_out = calling & (acts == table.layout.exact_call)
            counts["out_of_turn"][game_of[exact_out]] += 1
            dudo_out = calling & ((acts == 0) | (acts == table.layout.pressed_dudo))
            counts["dudo_out_of_turn"][game_of[dudo_out]] += 1
            counts["bids_out_of_turn"][game_of[calling & (acts >= first_bid)]] += 1
        own = live & (acts >= first_act) & (acts < first_bid)
        counts["acts"][game_of[own]] += 1
        special = table.special.copy()
        played = game_of[live]
        counts["decisions"][played] += 1
        decl = live & (acts >= first_decl) & (acts < first_act)
        if decl.any():
            np.add.at(declarations, (game_of[decl], acts[decl] - first_decl), 1)
        result = table.step(acts, by=by)
        ended = result.ended
        if ended.any():
            g = game_of[ended]
            counts["rounds"][g] += 1
            counts["special"][g] += special[ended]
            exact = acts[ended] == table.layout.exact_call
            late = acts[ended] == table.layout.out_of_time
            counts["dudo"][g] += ~exact & ~late
            counts["exact"][g] += exact
            counts["late"][g] += late
            open_ = ended & (leader[np.maximum(game_of, 0)] < 0)  # no lead seen yet
            if open_.any():
                held = standing[open_]
                top = held.max(axis=1, keepdims=True)
                alone = (held == top).sum(axis=1) == 1
                leader[game_of[open_][alone]] = np.argmax(held, axis=1)[alone]
        done = np.flatnonzero(result.done)
        if len(done):
            winners[game_of[done]] = result.winners[done]
            fresh = done[: max(0, games - following)]
            game_of[fresh] = np.arange(following, following + len(fresh))
            following += len(fresh)
            table._reset(fresh)
            opener[game_of[fresh]] = table.opener[fresh]
            game_of[done[len(fresh) :]] = -1
    return Played(
        winners=winners, opener=opener, declarations=declarations, leader=leader, **counts
    )
