"""Random legal games of every edition: legal_actions and apply agree, invariants hold."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from invariants import check_step
from strategies import Table, any_action, choose, moves, tables

import perudo
from perudo import Action, GameState, IllegalActionError


def start(table: Table) -> GameState:
    return perudo.new_game(table.edition, table.players, seed=table.seed)


def play_out(table: Table, rng: random.Random, *, probes: int = 8) -> tuple[GameState, list]:
    state = start(table)
    history: list[tuple[Action, int]] = []
    while not state.is_over:
        pairs = moves(state)
        legal = {(action, seat) for action, seat in pairs}
        for _ in range(probes):  # sampled actions outside the legal set are refused
            seat = rng.randrange(len(state.players))
            action = any_action(rng, state.dice_in_play, capped=state.rules.cap)
            if (action, seat) in legal:
                assert state.is_legal(action, by=seat)
                continue
            assert not state.is_legal(action, by=seat)
            with pytest.raises(IllegalActionError) as caught:
                state.apply(action, by=seat)
            assert caught.value.reason in perudo.REASONS
            assert caught.value.player == seat
        action, seat = choose(rng, pairs)
        assert state.is_legal(action, by=seat)
        after = state.apply(action, by=seat)
        check_step(state, action, seat, after)
        history.append((action, seat))
        state = after
        assert len(history) < 5_000
    return state, history


@pytest.mark.slow
@given(tables(), st.randoms(use_true_random=False))
def test_random_games_keep_every_invariant(table: Table, rng: random.Random) -> None:
    final, history = play_out(table, rng)
    assert final.is_over
    replay = start(table)
    for action, seat in history:
        replay = replay.apply(action, by=seat)
    assert replay == final
    assert hash(replay) == hash(final)


@given(tables(edition="french-jonti"), st.randoms(use_true_random=False))
def test_jonti_is_offered_to_every_eligible_seat(table: Table, rng: random.Random) -> None:
    state = start(table)
    while not state.is_over:
        if state.bid is not None:
            bidder = state.bidder
            assert bidder is not None
            before = state.right_of(bidder)
            for seat in range(len(state.players)):
                offered = perudo.Calza() in state.legal_actions(by=seat)
                expected = (
                    state.players[seat].is_in
                    and seat not in (bidder, before)
                    and len(state.players[seat].dice) < 5
                    and len(state.seats_in) >= 3
                )
                assert offered is expected
        action, seat = choose(rng, moves(state))
        state = state.apply(action, by=seat)


def test_every_legal_action_applies_in_an_opening_position() -> None:
    for edition in perudo.variant_names():
        players = min(3, perudo.load_variant(edition).players.max)
        state = perudo.new_game(edition, players, seed=4)
        for action in state.legal_actions():
            state.apply(action)
