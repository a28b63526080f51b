"""The differential driver of the batch engine: the same games played by
:class:`perudo.batch.BatchGames` and by :class:`perudo.GameState`, with the same dice and
the same actions, compared at every step (tests/test_batch.py runs it)."""

from __future__ import annotations

import numpy as np

import perudo
from perudo.batch import BatchGames
from perudo.encoding import action_encoding, observation_encoding
from perudo.interop.turns import placing_returns


def compare(
    key: str | perudo.Variant,
    players: int,
    games: int,
    seed: int,
    *,
    observe: int = 0,
    starting_dice: tuple[int, ...] | None = None,
) -> int:
    """Play ``games`` random games both ways and assert they agree; the steps compared.
    The first ``observe`` games also compare every seat's observation at every step;
    ``starting_dice`` gives each seat's dice at the start, on both engines."""
    variant = key if isinstance(key, perudo.Variant) else perudo.load_variant(key)
    key = variant.key
    table = BatchGames.new(variant, players, games, seed, starting_dice=starting_dice)
    numbers = action_encoding(variant, players)
    encoding = observation_encoding(variant, players)
    rng = np.random.default_rng(seed + 1)
    states = reference_states(table)
    steps = 0
    returns = np.zeros((games, players))
    out: list[tuple[int, ...]] = [() for _ in range(games)]
    while not table.over.all():
        mask = table.legal_mask()
        may = table.may_call()
        seat_masks = [table.legal_mask(by=seat) for seat in range(players)]
        for seat in range(players) if observe else ():
            seen = table.observe(seat)
            for i in range(min(observe, games)):
                want = encoding.encode(states[i].view(seat))
                got_obs = seen[i].tolist()
                assert got_obs == want, (
                    key,
                    players,
                    i,
                    seat,
                    steps,
                    differing(encoding, got_obs, want),
                )
        actions = np.zeros(games, dtype=np.int64)
        by = table.to_act.astype(np.int64).copy()
        for i, state in enumerate(states):
            if state.is_over:
                assert table.over[i]
                continue
            assert table.to_act[i] == state.to_act, (key, i, steps)
            legal = numbers.encode_all(state.legal_actions())
            assert np.flatnonzero(mask[i]).tolist() == list(legal), (key, players, i, steps)
            callers = [s for s in range(players) if state.legal_actions(by=s) and s != state.to_act]
            for seat in range(players):  # what each seat may do, out of turn too
                want = numbers.encode_all(state.legal_actions(by=seat))
                got = np.flatnonzero(seat_masks[seat][i]).tolist()
                assert got == sorted(want), (key, players, i, seat, steps, got, want)
            want_may = set(state.view(state.to_act).may_call)
            assert set(np.flatnonzero(may[i]).tolist()) == want_may, (key, i, steps)
            if callers and rng.random() < 0.3:  # the exact call, a re-roll: out of turn
                by[i] = callers[int(rng.integers(len(callers)))]
                theirs = numbers.encode_all(state.legal_actions(by=int(by[i])))
                actions[i] = theirs[int(rng.integers(len(theirs)))]
            else:
                actions[i] = legal[int(rng.integers(len(legal)))]
        result = table.step(actions, by=by)
        returns += result.rewards
        for i, state in enumerate(states):
            if state.is_over:
                continue
            action = numbers.decode(int(actions[i]))
            rolled = table.cup(i, int(by[i])) if isinstance(action, perudo.Act) else None
            after = state.apply(action, by=int(by[i]), rolled=rolled)
            steps += 1
            if after.last_result is not state.last_result:
                assert result.ended[i]
                out[i] += after.last_result.out
                check_call(table, i, after)
                if not after.is_over:
                    after = after.with_dice(table.hands(i))
            else:
                assert not result.ended[i]
            assert result.done[i] == after.is_over
            if after.is_over:
                assert set(np.flatnonzero(result.winners[i]).tolist()) == set(after.winners)
                if variant.scoring.moves_dice:
                    want = placing_returns(players, out[i], after.winners)
                else:
                    want = [float(p.score) for p in after.players]
                assert np.allclose(returns[i], want), (key, i, returns[i], want)
            counts = [len(p.dice) for p in after.players]
            assert table.held[i].tolist() == counts, (key, i, steps)
            assert table.scores[i].tolist() == [p.score for p in after.players]
            states[i] = after
    return steps


def differing(
    encoding: object, got: list[int], want: list[int]
) -> list[tuple[str, list[int], list[int]]]:
    """The observation fields where ``got`` and ``want`` differ: name, got, wanted."""
    return [
        (f.name, got[f.start : f.start + f.length], want[f.start : f.start + f.length])
        for f in encoding.fields  # type: ignore[attr-defined]
        if got[f.start : f.start + f.length] != want[f.start : f.start + f.length]
    ]


def check_call(table: BatchGames, i: int, state: perudo.GameState) -> None:
    """The batch's last call in game ``i`` is the state's."""
    result = state.last_result
    assert result is not None
    got = {
        "loser": int(table.last_loser[i]),
        "gainer": int(table.last_gainer[i]),
        "points": int(table.last_points[i]),
        "eliminated": int(table.last_eliminated[i]),
        "count": int(table.last_count[i]),
        "wild": int(table.last_wild[i]),
        "changes": table.last_changes[i].tolist(),
    }
    moves_dice = state.variant.scoring.moves_dice
    want = {
        "loser": -1 if result.loser is None else result.loser,
        "gainer": -1 if result.gainer is None else result.gainer,
        "points": max(result.points),
        "eliminated": result.out[0] if len(result.out) == 1 else -1,
        "count": result.count,
        "wild": result.wild or 0,
        "changes": list(result.changes if moves_dice else result.points),
    }
    assert got == want, (state.variant.key, i, got, want)
    revealed = [int(table.last_revealed[i, s]) for s in range(len(state.players))]
    want_order = [0] * len(state.players)
    for position, seat in enumerate(result.revealed, start=1):
        want_order[seat] = position
    assert revealed == want_order


def sample_counts(key: str, players: int, games: int, seed: int, draws: int) -> None:
    """``random_actions`` draws only legal actions, and each legal action about equally
    often, in positions of random games (chi-square-free check: every legal action is
    drawn and no illegal one)."""
    table = BatchGames.new(key, players, games, seed)
    rng = np.random.default_rng(seed)
    for _ in range(8):  # move the games to varied positions
        mask = table.legal_mask()
        table.step(np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask]))
    mask = table.legal_mask()
    seen = np.zeros_like(mask, dtype=np.int64)
    rows = np.arange(games)
    for _ in range(draws):
        seen[rows, table.random_actions()] += 1
    live = ~table.over
    assert not ((seen[live] > 0) & ~mask[live]).any(), "an illegal action was drawn"
    assert (seen[live][mask[live]] > 0).all(), "a legal action was never drawn"


def reference_states(table: BatchGames) -> list[perudo.GameState]:
    """A GameState for each game of a fresh batch: the same dice and first player."""
    return [
        perudo.new_game(
            table.variant,
            table.players,
            seed=i,
            dice=table.hands(i),
            first_player=int(table.to_act[i]),
            starting_dice=table.starting_dice.tolist(),
        )
        for i in range(table.batch)
    ]


def follow(
    table: BatchGames, states: list[perudo.GameState], actions: np.ndarray, by: np.ndarray
) -> list[perudo.GameState]:
    """Step the batch and every state alike (each round dealt the batch's dice)."""
    numbers = action_encoding(table.variant, table.players)
    table.step(actions, by=by)
    after = []
    for i, state in enumerate(states):
        if not state.is_over:
            action = numbers.decode(int(actions[i]))
            rolled = table.cup(i, int(by[i])) if isinstance(action, perudo.Act) else None
            moved = state.apply(action, by=int(by[i]), rolled=rolled)
            if moved.last_result is not state.last_result and not moved.is_over:
                moved = moved.with_dice(table.hands(i))
            state = moved
        after.append(state)
    return after
