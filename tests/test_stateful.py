"""Stateful testing: a Hypothesis state machine per edition that interleaves legal and
illegal actions, out-of-turn calls, dice set by hand, serialization and views, and checks
the invariants after every step."""

from __future__ import annotations

import json

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)
from invariants import action_space, check_step
from strategies import moves

import perudo
from perudo import Bid, GameRecord, GameState, IllegalActionError, state_from_dict, state_to_dict

STEPS = settings(max_examples=12, stateful_step_count=40, deadline=None)


class PerudoMachine(RuleBasedStateMachine):
    """One game of one edition, driven step by step."""

    edition: str = "italian"

    def __init__(self) -> None:
        super().__init__()
        self.state: GameState | None = None
        self.was_in: tuple[bool, ...] = ()

    @property
    def game(self) -> GameState:
        assert self.state is not None
        return self.state

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        variant = perudo.load_variant(self.edition)
        players = data.draw(st.integers(variant.players.min, min(variant.players.max, 5)))
        self.state = perudo.new_game(variant, players, seed=data.draw(st.integers(0, 2**32)))
        self.was_in = tuple(p.is_in for p in self.state.players)

    def playing(self) -> bool:
        return self.state is not None and not self.state.is_over

    @precondition(playing)
    @rule(data=st.data())
    def legal_move(self, data: st.DataObject) -> None:
        pairs = moves(self.game)
        calls = [pair for pair in pairs if not isinstance(pair[0], Bid)]
        pool = calls if calls and data.draw(st.booleans()) else pairs
        action, seat = data.draw(st.sampled_from(pool))
        after = self.game.apply(action, by=seat)
        check_step(self.game, action, seat, after)
        self.state = after

    @precondition(lambda self: self.state is not None)
    @rule(data=st.data())
    def illegal_move(self, data: st.DataObject) -> None:
        state = self.game
        seat = data.draw(st.integers(0, len(state.players) - 1))
        legal = set(state.legal_actions(by=seat))
        refused = [action for action in action_space(state) if action not in legal]
        attempts: list[tuple[object, object]] = [
            (data.draw(st.sampled_from(refused)), seat),
            ("3x4", seat),  # not an action
            (Bid(1, 2), len(state.players) + 3),  # not a seat
        ]
        other = ((state.to_act or 0) + 1) % len(state.players)  # a seat that is not to act
        if state.bid is not None and perudo.Dudo() not in state.legal_actions(by=other):
            attempts.append((perudo.Dudo(), other))  # out of turn, where no burst is open
        before = state_to_dict(state)
        for action, by in attempts:
            with pytest.raises(IllegalActionError) as caught:
                state.apply(action, by=by)  # type: ignore[arg-type]
            assert caught.value.reason in perudo.REASONS
            assert str(caught.value)
        assert state_to_dict(state) == before  # a refused action changes nothing

    @precondition(lambda self: self.playing() and not self.game.bids)
    @rule(data=st.data())
    def set_dice(self, data: st.DataObject) -> None:
        hands = [
            data.draw(st.lists(st.integers(1, 6), min_size=len(p.dice), max_size=len(p.dice)))
            for p in self.game.players
        ]
        after = self.game.with_dice(hands)
        assert [sorted(h) for h in hands] == [list(p.dice) for p in after.players]
        assert after.round_number == self.game.round_number
        self.state = after

    @precondition(lambda self: self.state is not None)
    @rule()
    def round_trip(self) -> None:
        state = self.game
        record = GameRecord.from_state(state)
        assert GameRecord.from_text(record.to_text()).replay() == state
        assert GameRecord.from_json(record.to_json()).replay() == state
        assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state

    @precondition(lambda self: self.state is not None)
    @rule()
    def views(self) -> None:
        state = self.game
        for seat in range(len(state.players)):
            view = state.view(seat)
            assert json.loads(json.dumps(view.to_dict())) == view.to_dict()
            assert view.legal_actions == state.legal_actions(by=seat)
            assert view.dice == (() if view.dice_hidden else state.players[seat].cup)

    @invariant()
    def counts_turns_and_seats(self) -> None:
        if self.state is None:
            return
        state = self.state
        full = state.variant.dice.per_player
        assert all(0 <= len(p.dice) <= full for p in state.players)
        now_in = tuple(p.is_in for p in state.players)
        assert all(was or not now for was, now in zip(self.was_in, now_in, strict=True))
        self.was_in = now_in
        if not state.is_over:
            assert state.to_act is not None
            assert state.players[state.to_act].is_in

    @invariant()
    def legal_actions_are_what_apply_accepts(self) -> None:
        if self.state is None:
            return
        state = self.state
        space = action_space(state)
        for seat in range(len(state.players)):
            listed = set(state.legal_actions(by=seat))
            accepted = {action for action in space if state.is_legal(action, by=seat)}
            assert listed == accepted, (seat, listed ^ accepted)


for _key in perudo.variant_names():
    _cls = type(f"PerudoMachine_{_key.replace('-', '_')}", (PerudoMachine,), {"edition": _key})
    _test = _cls.TestCase
    _test.settings = STEPS
    _test.pytestmark = [pytest.mark.slow]  # seconds each: the full run's
    globals()[f"TestStateful_{_key.replace('-', '_')}"] = _test

del _key, _cls, _test
