"""Honest statistics (issue 15): intervals, independent seed streams, seats that rotate."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perudo.cli import DIFFERENCE_LABEL, main
from perudo.simulate import game_seed, seating, simulate
from perudo.stats import (
    Difference,
    Interval,
    difference_of_means,
    difference_of_rates,
    mean_interval,
    wilson,
)


def test_wilson_matches_published_values() -> None:
    # Newcombe (1998), table I: 81/263 -> 0.2553-0.3662; 15/148 -> 0.0624-0.1605; 0/10.
    assert wilson(81, 263).low == pytest.approx(0.2553, abs=5e-5)
    assert wilson(81, 263).high == pytest.approx(0.3662, abs=5e-5)
    assert wilson(15, 148).low == pytest.approx(0.0624, abs=5e-5)
    assert wilson(15, 148).high == pytest.approx(0.1605, abs=5e-5)
    assert wilson(0, 10).low == 0.0
    assert wilson(0, 10).high == pytest.approx(0.2775, abs=5e-5)


@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_contains_its_estimate_and_stays_in_0_1(successes: int, trials: int) -> None:
    successes = min(successes, trials)
    interval = wilson(successes, trials)
    assert 0.0 <= interval.low <= interval.estimate <= interval.high <= 1.0


def test_a_difference_says_whether_it_is_significant() -> None:
    # Newcombe (1998), example (a): 56/70 - 48/80 = 0.2, interval 0.0524-0.3339.
    d = difference_of_rates(wilson(56, 70), 70, wilson(48, 80), 80)
    assert d.interval.estimate == pytest.approx(0.2)
    assert d.interval.low == pytest.approx(0.0524, abs=5e-4)
    assert d.interval.high == pytest.approx(0.3339, abs=5e-4)
    assert d.significant
    same = difference_of_rates(wilson(40, 80), 80, wilson(41, 80), 80)
    assert not same.significant
    assert "not significant at 95%" in str(same)
    values = [3.0, 5.0, 4.0, 6.0, 2.0]
    mean = mean_interval(sum(values), sum(v * v for v in values), len(values))
    assert mean.estimate == 4.0
    assert mean.high - mean.estimate == pytest.approx(1.96 * (2.5 / 5) ** 0.5, rel=1e-3)
    assert not difference_of_means(mean, 5, mean, 5).significant


def test_runs_with_different_seeds_share_no_game() -> None:
    first = {game_seed(0, game) for game in range(2000)}
    second = {game_seed(1, game) for game in range(2000)}
    assert len(first) == 2000
    assert not first & second  # seed + i reused 999 of 1000 games between seeds 0 and 1


def test_bots_sit_in_every_seat_equally_often() -> None:
    bots = ("odds", "random", "odds", "random")
    seats = Counter(
        (seat, bot)
        for game in range(8)
        for seat, bot in enumerate(seating(bots, game, fixed=False))
    )
    assert set(seats.values()) == {4}
    assert all(seating(bots, game, fixed=True) == bots for game in range(8))


def test_results_carry_intervals_and_say_what_they_count() -> None:
    result = simulate("italian", 3, 30, bots=["odds", "random"], seed=2)
    assert result.bots == ("odds", "random", "odds")
    assert sum(i.estimate for i in result.seat_intervals) == pytest.approx(1.0)
    assert all(i.low <= i.estimate <= i.high for i in result.seat_intervals)
    rounds = result.rounds_interval
    assert rounds.low <= result.mean_rounds <= rounds.high
    held = dict(result.bot_intervals)
    assert set(held) == {"odds", "random"}
    assert held["odds"].estimate * 60 + held["random"].estimate * 30 == pytest.approx(30)
    data = result.to_dict()
    assert set(data["win_share_by_seat"][0]) == {"estimate", "low", "high"}
    assert simulate("italian", 3, 30, bots=["odds", "random"], seed=2, fixed_seats=True) != result


def test_the_command_reports_intervals_and_the_difference(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import io

    out = io.StringIO()
    argv = ["simulate", "--compare", "italian", "wango", "--games", "40", "--players", "3"]
    assert main(argv, out=out) == 0
    text = out.getvalue()
    assert "95% confidence interval" in text
    assert "italian minus wango (same seeds):" in text
    assert "significant at 95%" in text
    assert max(len(line) for line in text.splitlines()) <= 80
    out = io.StringIO()
    assert main(["simulate", "--games", "5", "--json", "--fixed-seats"], out=out) == 0
    assert json.loads(out.getvalue())["fixed_seats"] is True


def test_the_widest_difference_line_fits_in_80_columns() -> None:
    """Regression: "  games won by seat 0  +10.0% [-10.6%, 29.5%] (not significant at 95%)"
    ran to 81 columns under the report's 34-column labels."""
    widest = Difference(Interval(-1.0, -1.0, 1.0).percent())
    assert len(str(widest)) == 50
    assert len("  games won by seat 10".ljust(DIFFERENCE_LABEL) + str(widest)) <= 80
