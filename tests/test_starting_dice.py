"""Starting dice per seat (a handicap): the deal, the regain cap, records, and every caller
of new_game."""

from __future__ import annotations

import subprocess
import sys

import pytest

import perudo
from perudo import Bid, Calza, GameRecord, GameSetupError
from perudo.record import state_from_dict, state_to_dict
from perudo.simulate import simulate


def test_each_seat_starts_with_its_own_dice() -> None:
    state = perudo.new_game("italian", 4, seed=1, starting_dice=[3, 5, 5, 5])
    assert [len(p.dice) for p in state.players] == [3, 5, 5, 5]
    assert state.starting_dice == (3, 5, 5, 5)
    assert state.context.starting == (3, 5, 5, 5)
    assert state.view(1).starting_dice == (3, 5, 5, 5)
    plain = perudo.new_game("italian", 4, seed=1)
    assert plain.starting_dice == (5, 5, 5, 5)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ([3, 5, 5], "gives 3 counts for 4 players"),
        ([0, 5, 5, 5], "0 of seat 0 is not 1 to 5"),
        ([6, 5, 5, 5], "6 of seat 0 is not 1 to 5"),
        ([True, 5, 5, 5], "True of seat 0"),
        ("3555", "not a list of dice counts"),
    ],
)
def test_bad_starting_dice_are_named(given: object, message: str) -> None:
    with pytest.raises(GameSetupError, match=message):
        perudo.new_game("italian", 4, seed=1, starting_dice=given)  # type: ignore[arg-type]


def test_a_seat_regains_only_up_to_its_own_start() -> None:
    # French Calza: a right Calza gains a die, never above what the caller started with.
    hands = [[2, 2, 3], [4, 4, 4, 5, 6], [2, 3, 5, 6, 6]]
    start = [3, 5, 5]
    full = perudo.new_game("french-calza", 3, seed=1, dice=hands, first_player=1,
                           starting_dice=start)  # fmt: skip
    at_start = full.apply(Bid(2, 4)).apply(Bid(3, 4)).apply(Calza())  # three 4s: right
    assert at_start.last_result is not None
    assert at_start.last_result.changes == (0, 0, 0)  # seat 0 holds its three already
    assert "already holds every die" in str(at_start.last_result)
    two = perudo.new_game("french-calza", 3, seed=1, dice=[[2, 2], *hands[1:]], first_player=1,
                          starting_dice=start)  # fmt: skip
    called = two.apply(Bid(2, 4)).apply(Bid(3, 4)).apply(Calza())
    assert called.last_result is not None
    assert called.last_result.changes == (1, 0, 0)
    assert len(called.players[0].dice) == 3
    # French Jonti: the caller must hold fewer dice than they started with.
    jonti = perudo.new_game("french-jonti", 4, seed=1, first_player=1, starting_dice=[3, 5, 5, 5])
    jonti = jonti.apply(Bid(1, 2)).apply(Bid(2, 2))  # seats 1 and 2 bid; seat 0 may call
    violation = jonti.check(Calza(), by=0)
    assert violation is not None
    assert "fewer than 3 dice" in violation.message


def test_records_replay_the_handicap() -> None:
    state = perudo.new_game("italian", 3, seed=4, starting_dice=[2, 5, 4])
    state = state.apply(state.legal_actions()[0])
    record = GameRecord.from_state(state)
    assert record.starting_dice == (2, 5, 4)
    text = record.to_text(key=b"k" * 16)
    assert "starting-dice [2, 5, 4]" in text
    assert GameRecord.from_text(text, key=b"k" * 16).replay() == state
    data = record.to_dict(key=b"k" * 16)
    assert data["starting_dice"] == [2, 5, 4]
    assert GameRecord.from_dict(data, key=b"k" * 16).replay() == state
    changed = dict(data, starting_dice=[5, 5, 4])
    with pytest.raises(perudo.RecordError):
        GameRecord.from_dict(changed, key=b"k" * 16)  # the signature covers it
    assert state_from_dict(state_to_dict(state)) == state
    plain = GameRecord.from_state(perudo.new_game("italian", 3, seed=4))
    assert "starting_dice" not in plain.to_dict()  # as records were before
    assert "starting-dice" not in plain.to_text()
    with pytest.raises(perudo.RecordError, match="starting dice"):
        GameRecord.from_text(text.replace("[2, 5, 4]", "[2, 99, 4]"))


def test_simulate_and_the_batch_engine_take_it() -> None:
    result = simulate("italian", 3, 20, seed=1, starting_dice=[2, 5, 5], engine="reference")
    assert result.starting_dice == (2, 5, 5)
    assert result.to_dict()["starting_dice"] == [2, 5, 5]
    with pytest.raises(GameSetupError, match="starting_dice"):
        simulate("italian", 3, 2, starting_dice=[2, 5])
    pytest.importorskip("numba", reason="the batch extra is not installed")
    from perudo.batch import BatchGames

    table = BatchGames.new("italian", 3, 8, seed=1, starting_dice=[2, 5, 5])
    assert table.held.tolist() == [[2, 5, 5]] * 8
    assert [len(hand) for hand in table.hands(0)] == [2, 5, 5]
    batch = simulate("italian", 3, 50, seed=1, starting_dice=[2, 5, 5], engine="batch")
    assert batch.games == 50
    from perudo.batch import play_random  # regression: it took no starting dice

    short = play_random("italian", 3, games=200, seed=1, starting_dice=[1, 1, 1])
    assert short < play_random("italian", 3, games=200, seed=1)  # a die each: short games
    assert short == play_random("italian", 3, games=200, seed=1, starting_dice=[1, 1, 1])
    with pytest.raises(GameSetupError, match="starting_dice"):
        play_random("italian", 3, games=2, starting_dice=[1, 1])


def test_the_command_line_takes_it() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "perudo", "demo", "--seed", "3", "--starting-dice", "2,5,5,5"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "17 dice in play (Ana 2, Ben 5, Cleo 5, Dario 5)" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "perudo", "demo", "--starting-dice", "2,x"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2
    assert "'x' is not a whole number" in bad.stderr


def test_the_adapters_take_it() -> None:
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    import pyspiel

    import perudo.interop.openspiel
    from perudo.interop.gymnasium import PerudoSoloEnv
    from perudo.interop.pettingzoo import env as perudo_env

    env = perudo_env("italian", 3, starting_dice=[2, 5, 5])
    env.reset(seed=1)
    observation = env.observe("player_0")["observation"]
    encoding = perudo.encoding.observation_encoding("italian", 3)
    starting = encoding.field("starting_dice")
    assert list(observation[starting.start : starting.stop]) == [2, 5, 5]
    solo = PerudoSoloEnv("italian", 2, starting_dice=[3, 5])
    solo.reset(seed=2)
    assert solo.turns.state.starting_dice == (3, 5)  # type: ignore[union-attr]
    game = pyspiel.load_game("python_perudo", {"players": 3, "starting_dice": "2 5 5"})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    with pytest.raises(GameSetupError, match="starting_dice"):
        pyspiel.load_game("python_perudo", {"players": 3, "starting_dice": "2 5"})


def test_a_study_of_one_table_size_takes_it() -> None:
    from perudo.study import run_study

    study = run_study(["italian"], [3], 4, seed=1, starting_dice=[2, 5, 5], engine="reference")
    assert all(cell.play.starting_dice == (2, 5, 5) for cell in study.cells)
    assert all(cell.skill.starting_dice == (2, 5, 5) for cell in study.cells)
    with pytest.raises(GameSetupError, match="one table size"):
        run_study(["italian"], [3, 4], 2, starting_dice=[2, 5, 5])
