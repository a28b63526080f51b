"""WANGO party mode: 2N rounds, points, pressure."""

from __future__ import annotations

import pytest
from helpers import SIX, game, play

import perudo
from perudo import Bid, Dudo, IllegalActionError

HANDS = [[2, 2, 2, 3, 3], [4, 4, 4, 5, 5], [6, 6, 6, 2, 3]]  # no ones


def scores(state: perudo.GameState) -> list[int]:
    return [player.score for player in state.players]


def refusal(state: perudo.GameState, action: perudo.Action) -> str:
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action)
    return caught.value.reason


def test_a_challenge_moves_one_point_and_nobody_loses_dice() -> None:
    state = play(game("wango-party", HANDS), "9x6", "dudo")  # false: the bidder loses
    result = state.last_result
    assert result is not None
    assert (result.loser, result.gainer, result.points) == (0, 1, (-1, 1, 0))
    assert scores(state) == [-1, 1, 0]
    assert [len(p.dice) for p in state.players] == [5, 5, 5]
    assert state.to_act == 0  # the point loser starts
    assert str(result).endswith("Player 1 gives 1 point to Player 2")


def test_pressure_moves_three_points_and_never_stacks() -> None:
    state = play(game("wango-party", HANDS), "3x6!", "dudo")  # true: the challenger loses
    assert scores(state) == [3, -3, 0]
    assert state.players[0].pressure_left == 1
    state = play(game("wango-party", HANDS), "3x6!", "4x6", "5x2!", "dudo!")
    result = state.last_result
    assert result is not None
    assert max(result.points) == 3  # three uses in the round still move 3
    assert [p.pressure_left for p in state.players] == [0, 2, 1]
    assert scores(state) == [3, 0, -3]


def test_pressure_uses_run_out() -> None:
    state = game("wango-party", HANDS)
    state = play(state, "1x2!", "1x3", "1x4", "2x2!")  # seat 0 spends both uses
    assert state.players[0].pressure_left == 0
    state = play(state, "2x3", "2x4")
    assert state.to_act == 0
    assert refusal(state, Bid(3, 2, pressure=True)) == "pressure-used-up"
    assert refusal(state, Dudo(pressure=True)) == "pressure-used-up"
    assert Bid(3, 2, pressure=True) not in state.legal_actions()
    assert state.is_legal(Bid(3, 2))
    # a player may spend both uses in one round: a pressured bid, then a pressured challenge
    fresh = play(game("wango-party", HANDS), "1x2!", "1x3", "1x4", "dudo!")
    assert fresh.last_result is not None
    assert max(fresh.last_result.points) == 3


def test_pressure_is_refused_where_the_edition_has_none() -> None:
    for edition in SIX:
        state = game(edition, HANDS)
        if edition == "wango-party":
            assert Bid(1, 2, pressure=True) in state.legal_actions()
            continue
        assert refusal(state, Bid(1, 2, pressure=True)) == "no-pressure"
        assert not any(getattr(a, "pressure", False) for a in state.legal_actions())
        state = play(state, "1x2")
        assert refusal(state, Dudo(pressure=True)) == "no-pressure"


def test_the_game_lasts_2n_rounds_scores_may_go_negative_and_ties_share_the_win() -> None:
    state = game("wango-party", HANDS)
    losers = []
    for round_number in range(1, 7):
        assert state.round_number == round_number
        assert not state.is_over
        state = state.with_dice(HANDS)
        opener = state.to_act
        state = play(state, "15x6", "dudo")  # always false: the opener loses a point
        losers.append(opener)
        assert [len(p.dice) for p in state.players] == [5, 5, 5]
    assert state.is_over
    assert state.to_act is None
    assert state.round_number == 6
    assert sum(scores(state)) == 0
    assert min(scores(state)) < 0
    top = max(scores(state))
    assert state.winners == tuple(seat for seat, s in enumerate(scores(state)) if s == top)
    assert state.legal_actions() == ()


def test_a_tie_at_the_end_is_shared() -> None:
    state = game("wango-party", [[2, 2], [2, 2]])
    for _ in range(4):  # 2 players: 4 rounds; the challenger always loses, then opens
        state = play(state.with_dice([[2, 2], [2, 2]]), "1x2", "dudo")
    assert state.is_over
    assert scores(state) == [0, 0]
    assert state.winners == (0, 1)
