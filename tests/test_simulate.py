"""Simulations: tallies, determinism across workers, the command."""

from __future__ import annotations

import io
import json
from fractions import Fraction

import pytest

import perudo
from perudo.cli import main
from perudo.simulate import simulate


def test_a_small_run_is_tallied() -> None:
    result = simulate("italian", 4, 20, seed=5)
    assert result.games == 20
    assert sum(result.wins) == 20
    # 20 dice, one lost per round and none regained in Italian: the winner keeps 1 to 5.
    assert 20 * 15 <= result.rounds <= 20 * 19
    assert dict(result.calls)["challenge"] == result.rounds
    assert result.mean_actions > result.mean_rounds
    assert sum(result.win_rate_by_seat) == pytest.approx(1.0)


def test_the_result_does_not_depend_on_workers() -> None:
    one = simulate("french-jonti", 4, 24, seed=3, workers=1)
    two = simulate("french-jonti", 4, 24, seed=3, workers=2)
    assert one == two
    assert dict(one.calls).get("exact", 0) > 0


def test_party_ties_share_the_win_and_pressure_is_used() -> None:
    result = simulate("wango-party", 3, 30, seed=1)
    assert sum(result.wins) == 30
    assert result.rounds == 30 * 6
    assert all(isinstance(w, Fraction) for w in result.wins)
    assert dict(result.calls) == {"challenge": 180}


def test_mixed_bots_and_progress() -> None:
    seen = []
    result = simulate(
        "spanish", 4, 10, bots=["odds", "random"], progress=lambda d, t: seen.append((d, t))
    )
    assert result.bots == ("odds", "random", "odds", "random")
    assert dict(result.win_rate_by_bot)["odds"] > dict(result.win_rate_by_bot)["random"]
    assert seen[-1] == (10, 10)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        simulate("italian", 3, 5, bots=["genius"])
    with pytest.raises(ValueError, match="games"):
        simulate("italian", 3, -1)
    # Each a GameSetupError naming the value (issue 13).
    for kwargs, message in [
        ({"workers": 0}, "workers 0"),
        ({"workers": 10**6}, "1 to 256"),
        ({"bots": ["odds"] * 4}, "4 bots named for 3 players"),
        ({"bots": "odds"}, "not a list of bots"),
        ({"bots": []}, "not a list of bots"),
    ]:
        with pytest.raises(perudo.GameSetupError, match=message):
            simulate("italian", 3, 5, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(perudo.GameSetupError, match="0 to 1000000000"):
        simulate("italian", 3, 10**11)  # refused before any game or chunk is made


def test_simulate_command() -> None:
    out = io.StringIO()
    argv = ["simulate", "--variant", "italian", "--players", "3", "--games", "10"]
    assert main(argv, out=out) == 0
    assert "rounds per game" in out.getvalue()
    assert max(len(line) for line in out.getvalue().splitlines()) <= 80
    out = io.StringIO()
    argv = ["simulate", "--compare", "italian", "spanish", "--games", "6", "--json"]
    assert main(argv, out=out) == 0
    data = json.loads(out.getvalue())
    assert [d["variant"] for d in data] == ["italian", "spanish"]
