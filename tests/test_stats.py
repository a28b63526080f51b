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
    assert "italian minus wango (paired: the same seeds, game by game):" in text
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
    assert len("  first-player advantage".ljust(DIFFERENCE_LABEL) + str(widest)) <= 80


def test_a_paired_difference_is_the_mean_of_the_differences() -> None:
    import math

    from perudo.stats import paired_difference

    same = paired_difference([1, 0, 1, 1], [1, 0, 1, 1])
    assert (same.interval.estimate, same.interval.low, same.interval.high) == (0, 0, 0)
    assert not same.significant
    shifted = paired_difference([5, 7, 6, 9, 4], [4, 6, 5, 8, 3])  # +1 in every pair
    assert shifted.interval.estimate == pytest.approx(1.0)
    assert shifted.interval.low == pytest.approx(1.0)
    assert shifted.significant
    skipped = paired_difference([1.0, math.nan, 3.0], [0.0, 2.0, math.nan])
    assert skipped.interval.estimate == pytest.approx(1.0)
    with pytest.raises(ValueError, match="pairs"):
        paired_difference([1, 2], [1])


def test_pairing_narrows_the_interval_where_the_pairs_agree() -> None:
    """Two measures that share most of their noise (the same games): the paired interval
    is far narrower than the unpaired one from the two means' intervals."""
    import random

    from perudo.stats import difference_of_means, mean_interval, paired_difference

    rng = random.Random(1)
    base = [rng.gauss(10, 3) for _ in range(500)]
    a = [x + rng.gauss(0.2, 0.3) for x in base]
    paired = paired_difference(a, base).interval
    unpaired = difference_of_means(
        mean_interval(sum(a), sum(x * x for x in a), 500), 500,
        mean_interval(sum(base), sum(x * x for x in base), 500), 500,
    ).interval  # fmt: skip
    assert paired.high - paired.low < (unpaired.high - unpaired.low) / 5
    # And it is a 95% interval: over 400 such runs it holds the true +0.2 about 380 times
    # (370 to 393 with probability 0.99).
    held = 0
    for run in range(400):
        rng = random.Random(run)
        base = [rng.gauss(10, 3) for _ in range(100)]
        held += paired_difference([x + rng.gauss(0.2, 0.3) for x in base], base).interval.contains(
            0.2
        )
    assert 370 <= held <= 393, held


def test_the_largest_gap_holds_for_every_share_at_once() -> None:
    from perudo.stats import largest_gap

    even = largest_gap([100, 100, 100], 300, 1 / 3)
    assert even.estimate == pytest.approx(0.0)
    assert even.low == 0
    assert 0.05 < even.high < 0.15
    uneven = largest_gap([150, 100, 50], 300, 1 / 3)
    assert uneven.estimate == pytest.approx(1 / 6)
    assert uneven.low > 0.05  # the gap is there for all three at once
    assert uneven.percent_scale
    wider = largest_gap([150, 100, 50, 0, 0, 0][:3], 300, 1 / 3)
    assert wider == uneven
    # Three shares, each at 1 - 0.05 / 3: wider than one share's 95% interval.
    from perudo.stats import wilson

    alone = wilson(150, 300)
    assert uneven.high - uneven.estimate > alone.high - alone.estimate
