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


@pytest.mark.parametrize("engine", ["reference", "batch"])
def test_the_named_measures_add_up(engine: str) -> None:
    """First-player advantage, balance, decisiveness and game length, and the counts per
    game, each with its interval, from what the run counted."""
    if engine == "batch":
        pytest.importorskip("numba", reason="the batch engine needs the extra perudo[batch]")
    result = simulate("italian", 3, 300, seed=4, engine=engine, keep_games=True)
    assert result.engine == engine
    assert sum(result.place_wins) == 300
    assert result.first_player_wins == result.place_wins[0]
    fair = result.fair_share
    advantage = result.first_player_advantage
    assert advantage.estimate == pytest.approx(float(result.place_wins[0]) / 300 - fair)
    assert advantage.low < advantage.estimate < advantage.high
    gaps = [abs(float(w) / 300 - fair) for w in result.place_wins]
    assert result.balance.estimate == pytest.approx(max(gaps))
    assert 0 <= result.balance.low <= result.balance.estimate <= result.balance.high
    # An early lead tells something in Italian: its holder wins more than a fair share.
    assert result.decisiveness.low > fair
    # One call a round: Dubito per game is game length, to the last digit of its interval.
    assert dict(result.per_game("calls"))["challenge"] == result.rounds_interval
    assert dict(result.calls)["challenge"] == result.rounds
    for name, interval in result.per_game("declarations"):
        assert interval.low <= dict(result.declarations)[name] / 300 <= interval.high
    outcomes = result.outcomes
    assert outcomes is not None
    assert len(outcomes.game_length) == 300
    assert sum(outcomes.game_length) == result.rounds
    assert sum(outcomes.first_player_advantage) == pytest.approx(float(result.place_wins[0]))
    assert sum(outcomes.decisiveness) == pytest.approx(float(result.leader_wins))
    assert sum(outcomes.first_bot) == pytest.approx(300 * dict(result.win_rate_by_bot)["odds"])
    with pytest.raises(ValueError, match="counter"):
        result.per_game("wins")


def test_the_opener_is_the_first_place_and_a_fixed_opener_makes_seats_places() -> None:
    """OpenSpiel's liars_dice always opens with seat 0: each place is that seat."""
    result = simulate("openspiel-liars-dice", 2, 200, seed=1)
    assert result.place_wins == result.wins
    drawn = simulate("italian", 2, 200, seed=1)
    assert drawn.place_wins != drawn.wins  # the roll-off spreads the opening over seats


def test_a_paired_difference_reads_the_same_games_of_two_runs() -> None:
    a = simulate("italian", 3, 200, seed=2, keep_games=True)
    b = simulate("spanish", 3, 200, seed=2, keep_games=True)
    itself = a.paired(a, "game_length")
    assert (itself.interval.low, itself.interval.estimate, itself.interval.high) == (0, 0, 0)
    rounds = a.paired(b, "game_length")
    assert rounds.interval.estimate == pytest.approx(a.mean_rounds - b.mean_rounds)
    first = a.paired(b, "first_player_advantage")
    assert first.interval.estimate == pytest.approx(
        a.first_player_advantage.estimate - b.first_player_advantage.estimate
    )
    assert first.interval.percent_scale
    with pytest.raises(ValueError, match="keep_games"):
        simulate("italian", 3, 10, seed=2).paired(b, "game_length")
    with pytest.raises(ValueError, match="the same games"):
        a.paired(simulate("spanish", 3, 200, seed=3, keep_games=True), "game_length")
    with pytest.raises(ValueError, match="one of"):
        a.paired(b, "rounds")


def test_a_forfeited_game_is_left_out_of_the_pairs() -> None:
    import math

    from perudo.simulate import GameOutcomes

    kept = GameOutcomes.empty()
    kept.add(1, 0, 10, 0.5)
    tally_like = GameOutcomes.empty()
    tally_like.add(math.nan, math.nan, math.nan, math.nan)
    kept.extend(tally_like)
    assert len(kept.game_length) == 2
    assert math.isnan(kept.game_length[1])


def test_no_share_fixed_by_construction_is_reported() -> None:
    """With one bot in every seat, its share per seat held is the fair share whatever the
    games: the report and the JSON leave it out; with two bots they give it."""
    out = io.StringIO()
    assert main(["simulate", "--games", "30", "--players", "3", "--seed", "1"], out=out) == 0
    text = out.getvalue()
    assert "won per seat held" not in text
    assert "games won by seat" not in text
    assert "won by the opener" in text
    assert "balance" in text
    assert "decisiveness" in text
    out = io.StringIO()
    assert main(["simulate", "--games", "30", "--players", "3", "--json"], out=out) == 0
    data = json.loads(out.getvalue())
    assert "win_share_per_seat_held_by_bot" not in data
    assert set(data["first_player_advantage"]) == {"estimate", "low", "high"}
    out = io.StringIO()
    argv = ["simulate", "--games", "30", "--players", "3", "--bots", "odds,random"]
    assert main(argv, out=out) == 0
    assert "won per seat held, odds" in out.getvalue()


def test_calls_out_of_turn_are_counted_as_what_they_are() -> None:
    """A challenge out of turn (a burst) was counted as an exact call out of turn, in
    editions without any exact call."""
    calls = dict(simulate("outlands-liars-dice", 3, 20, bots=["odds"], seed=2).calls)
    assert calls.get("challenge-out-of-turn", 0) > 0
    assert "exact-out-of-turn" not in calls
    bursts = dict(simulate("bull-and-burst", 3, 20, bots=["random"], seed=2).calls)
    assert bursts.get("bid-out-of-turn", 0) > 0
    assert bursts.get("exact-out-of-turn", 0) > 0  # a Bull out of turn is the exact call's
