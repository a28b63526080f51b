"""Editions drawn over the round's structure kinds (the opening, turns out of turn, special
rounds that queue, lives, the exact call's count, an exact claim in the bid chain, a pass, a
challenge all around, a re-roll said with a bid), each laid over a shipped edition, played
in random games with every action checked: what is listed applies and what is refused says
why, every view reads back from its observation, and every game replays from its record."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import any_action, choose, moves

import perudo
from perudo import GameState, IllegalActionError
from perudo.encoding import observation_encoding

ONES = st.sampled_from(["forbidden", "allowed", "required"])


@st.composite
def drawn_editions(draw: st.DrawFn) -> tuple[perudo.Variant, int, int]:
    """A shipped edition with some of its axes drawn from the round's structure kinds."""
    base = perudo.load_variant(draw(st.sampled_from(["italian", "french-calza", "wango",
                                                     "bluff", "french-jonti"])))  # fmt: skip
    axes: dict[str, Any] = {}
    words: dict[str, Any] = {}
    opening = draw(st.sampled_from(["standard", "at-least", "players-in"]))
    axes["opening"] = {"kind": opening, "ones": draw(ONES)}
    if opening == "at-least":
        axes["opening"]["quantity"] = draw(st.integers(2, 4))
    if draw(st.booleans()):
        axes["turns"] = {"kind": "burst", "bid": draw(st.booleans()), "challenge": True}
    scoring = draw(st.sampled_from(["keep", "lives", "elimination-burst"]))
    if scoring == "lives":
        axes["scoring"] = {"kind": "lives", "lives": draw(st.integers(1, 3))}
    elif scoring == "elimination-burst" and base.scoring.kind == "elimination":
        axes["scoring"] = {"kind": "elimination-burst"}
    if draw(st.booleans()):
        axes["special_round"] = {
            "kind": "farewell-round", "once_per_player": draw(st.booleans()),
            "two_players": "same", "optional": False, "opening": draw(ONES),
            "face_change": "nobody",
        }  # fmt: skip
        words["special_round"] = base.words.special_round or "Farewell"
    if draw(st.booleans()):
        axes["first_player"] = {"kind": "random"}
    if draw(st.booleans()):  # a re-roll said together with a bid (it binds the next move)
        axes["actions"] = {"kind": "reroll-then-bid"}
    if draw(st.booleans()) and not base.has_pressure:  # a bid stands till challenged all around
        axes["challenge"] = {"kind": "all-around"}
    if draw(st.booleans()):  # a pass: no two dice alike
        axes["passes"] = {"kind": "no-pair", "per_round": draw(st.integers(1, 2))}
        words["paso"] = "Paso"
    if draw(st.booleans()):  # the faces ranked in a drawn order (Liar's poker's ace high)
        faces = list(range(1, base.dice.faces + 1))
        axes["raising"] = {"kind": "ranked-faces", "order": draw(st.permutations(faces))}
    if draw(st.booleans()):  # an exact claim in the bid chain (a Bull)
        who = draw(st.sampled_from(["any-player", "player-to-act"]))
        axes["exact_call"] = {"kind": "exact-claim", "who": who}
        words["calza"] = "Bull"
    try:
        variant = base.derive("drawn", reason="Drawn by Hypothesis.", words=words, **axes)
    except perudo.InvalidVariantError:
        from hypothesis import assume

        assume(False)
    players = draw(st.integers(2, min(5, variant.players.max)))
    return variant, players, draw(st.integers(0, 2**32))


def _check_views(state: GameState, encoding: Any) -> None:
    for seat in range(len(state.players)):
        view = state.view(seat)
        assert encoding.decode(encoding.encode(view), [p.name for p in state.players]) == view
        hidden = [s for s in range(len(state.players)) if s != seat]
        assert all(not hasattr(view.seats[s], "dice") for s in hidden)  # counts only


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn_editions(), st.randoms(use_true_random=False))
def test_drawn_editions_play_with_every_action_checked(
    drawn: tuple[perudo.Variant, int, int], rng: random.Random
) -> None:
    variant, players, seed = drawn
    state = perudo.new_game(variant, players, seed=seed)
    encoding = observation_encoding(variant, players)
    start = [p.score for p in state.players]
    steps = 0
    while not state.is_over:
        pairs = moves(state)
        legal = set(pairs)
        for _ in range(4):  # a sampled action outside the legal set is refused, with a reason
            seat = rng.randrange(players)
            action = any_action(rng, state.dice_in_play, capped=state.rules.cap)
            if (action, seat) in legal:
                continue
            with pytest.raises(IllegalActionError) as refused:
                state.apply(action, by=seat)
            assert refused.value.reason in perudo.REASONS
        action, seat = choose(rng, pairs)
        after = state.apply(action, by=seat)
        for before_seat, after_seat, full in zip(
            state.players, after.players, after.starting_dice, strict=True
        ):
            assert 0 <= len(after_seat.dice) <= full
            assert before_seat.is_in or not after_seat.is_in  # a seat out stays out
        if not after.is_over:
            assert after.players[after.to_act].is_in  # type: ignore[index]
            assert after.legal_actions()
            assert all(after.players[s].is_in for s in after.owed)
        state = after
        steps += 1
        if steps % 7 == 0 or state.is_over:
            _check_views(state, encoding)
        assert steps < 3_000
    assert state.winners
    if variant.scoring.kind == "lives":
        assert [p.score for p in state.players] != start
    record = perudo.GameRecord.from_state(state)
    assert perudo.GameRecord.from_json(record.to_json()).replay(variant) == state
    assert perudo.GameRecord.from_text(record.to_text()).replay(variant) == state
