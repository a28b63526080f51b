"""A game that comes back to a round it left, bounded by its passes' strategies played in
every round (perudo.solve.stationary): proven bounds, a guess for the next pass, and the
passes of proven bounds alone where a seat's strategies prove nothing."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest
from helpers import four_faces

pytest.importorskip("scipy", reason="the solve extra is not installed: pip install '.[solve]'")

from perudo.solve import solve_game, stationary
from perudo.solve.exact import Declared, Solved
from perudo.solve.tree import start_state

CALZA = four_faces("french-calza")  # a right Calza gives a die back: 1v1 -> 1v2 -> 1v1


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, Any, Any]]:
    """Each pass's rounds, the game's first round and what their strategies prove
    (:func:`perudo.solve.stationary.played`'s arguments and answer), pass by pass."""
    calls: list[tuple[Any, Any, Any]] = []
    original = stationary.played

    def spied(parts: Any, start: Any, report: Any) -> Any:
        found = original(parts, start, report)
        calls.append((dict(parts), start, found))
        return found

    monkeypatch.setattr(stationary, "played", spied)
    return calls


def _widths(lines: list[str]) -> list[float]:
    passes = [line for line in lines if line.startswith("fixed point, pass")]
    return [float(line.split("a width of ")[1].split(",")[0]) for line in passes]


def test_the_strategies_played_in_every_round_close_the_interval_in_few_passes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines: list[str] = []
    game = solve_game(CALZA, (1, 1), tolerance=Fraction(1, 10**8), progress=lines.append)
    low, high = game.bounds
    widths = _widths(lines)
    assert high - low <= Fraction(1, 10**8)
    # each next pass solves its rounds on the guess of both seats' strategies played
    # together, so each interval is about the square of the one before (a Newton step):
    # 1.4e-2, 6.3e-5, 5.1e-10 here, where passes of proven bounds alone narrowed about
    # fourteen times a pass (eleven passes to 8.5e-7)
    assert len(widths) <= 4
    for before, after in itertools.pairwise(widths):
        assert after <= before**1.5
    assert sum("both seats' strategies played together" in line for line in lines) >= 3
    # the same game by passes of proven bounds alone: both intervals hold the value
    monkeypatch.setattr(stationary, "played", lambda parts, start, report: None)
    alone = solve_game(CALZA, (1, 1), tolerance=Fraction(1, 10**7))
    assert max(low, alone.bounds[0]) <= min(high, alone.bounds[1])
    assert high - low < alone.bounds[1] - alone.bounds[0]


def test_each_seats_bound_lies_on_its_side_of_both_strategies_played_together(
    played: list[tuple[Any, Any, Any]],
) -> None:
    # seat 0's strategies guarantee at least its bound against seat 1's, which concede at
    # most theirs: the value of the two played together (linear equations, in floats)
    # lies between, round by round; and every round's calls are certain to end it
    solve_game(CALZA, (1, 1), tolerance=Fraction(1, 10**6))
    assert len(played) >= 2
    for parts, start, found in played:
        assert found is not None
        assert found.values is not None
        assert start in parts
        for key, (low, high) in found.bounds.items():
            assert -1 < low <= high < 1
            assert low - Fraction(1, 10**9) <= found.values[key] <= high + Fraction(1, 10**9)
        numbers = {key: number for number, key in enumerate(parts)}
        for part in parts.values():
            link = stationary.Links.of(part.round, numbers)
            made = link.together(part.strategies) * link.chances.astype(float)
            assert made.sum() == pytest.approx(1, abs=1e-12)


def test_a_bound_the_exact_check_does_not_prove_is_not_given(
    played: list[tuple[Any, Any, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the bounds tried past the values in floats (a margin the wrong way): the exact best
    # responses beat them, so neither seat's strategies prove anything, there is no guess,
    # and the passes go on with proven bounds alone, to the same interval's neighbourhood
    monkeypatch.setattr(stationary, "MARGINS", (-1e-3,))
    lines: list[str] = []
    game = solve_game(CALZA, (1, 1), tolerance=Fraction(1, 10**5), progress=lines.append)
    assert sum(line.endswith("not proven") for line in lines) == 2 * len(played)
    for _, _, found in played:
        assert set(found.bounds.values()) == {(Fraction(-1), Fraction(1))}
        assert found.values is None
    assert not any("played together" in line for line in lines)
    assert len(_widths(lines)) > 4  # the passes of proven bounds alone: many more
    assert game.bounds[1] - game.bounds[0] <= Fraction(1, 10**5)
    assert game.bounds[0] <= Fraction(37050, 10**6) <= game.bounds[1]  # 0.037050...


@pytest.mark.parametrize(
    ("limits", "said"),
    [
        ({"SWEEPS": 1}, "the values did not settle in 1 sweeps"),
        # the values settle at once, the rounds the game lasts never: as where a seat's
        # strategies let the other make the game last without end
        ({"SWEEPS": 5, "SETTLED": 1.0, "SETTLED_ROUNDS": 0.0}, "the game may last without end"),
    ],
    ids=["values", "rounds"],
)
def test_sweeps_that_do_not_settle_prove_nothing(
    limits: dict[str, float],
    said: str,
    played: list[tuple[Any, Any, Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in limits.items():
        monkeypatch.setattr(stationary, name, value)
    lines: list[str] = []
    game = solve_game(CALZA, (1, 1), tolerance=Fraction(1, 10**3), progress=lines.append)
    assert any(said in line for line in lines)
    assert all(found.values is None for _, _, found in played)
    assert game.bounds[0] <= Fraction(37050, 10**6) <= game.bounds[1]


def test_a_round_that_opens_with_a_blind_declaration_is_not_a_strategy_of_a_round() -> None:
    start = start_state(CALZA, (1, 1), 0, starting=(1, 1))
    declared = Declared(start=start, options={})
    assert stationary.played({"declared": declared}, "declared", print) is None
    assert not isinstance(declared, Solved)


def test_a_value_that_is_a_short_fraction_is_proven_exactly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # at three faces French Calza's game from 1v1 is worth 0: each seat's strategies,
    # played in every round, leave the other's replies exactly 0, and the game ends
    # whatever the reply (the check past the margins), so the bound is 0 itself
    calza = CALZA.derive("calza-d3", reason="Test.", dice={"per_player": 5, "faces": 3})
    lines: list[str] = []
    game = solve_game(calza, (1, 1), progress=lines.append)
    assert (game.value, game.exact, game.bounds) == (0, True, (0, 0))
    assert sum(line.endswith("proven at least 0, exactly") for line in lines) == 1
    assert sum(line.endswith("proven at most 0, exactly") for line in lines) == 1
    # the passes of bounds alone agree, within their interval
    monkeypatch.setattr(stationary, "played", lambda parts, start, report: None)
    alone = solve_game(calza, (1, 1), tolerance=Fraction(1, 10**6))
    assert alone.bounds[0] <= 0 <= alone.bounds[1]
    assert not alone.exact
