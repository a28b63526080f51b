"""Any bot (issue 15): classes, functions and import paths, failures named, forfeits."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import batch_plays
from sample_bots import Cautious, cheat, first_legal, sulky

import perudo
from perudo import BotError, GameSetupError
from perudo.bots import FunctionBot, bot_name, make_bot
from perudo.match import play
from perudo.simulate import simulate

HERE = Path(__file__).parent


def test_any_spec_makes_a_bot() -> None:
    assert isinstance(make_bot("odds", 1), perudo.bots.OddsBot)
    assert isinstance(make_bot("sample_bots:Cautious", 7, allow_import=True), Cautious)
    assert make_bot("sample_bots:Cautious", 7, allow_import=True).seed == 7  # type: ignore[attr-defined]
    assert isinstance(make_bot(first_legal), FunctionBot)
    bot = Cautious()
    assert make_bot(bot) is bot
    assert [bot_name(x) for x in ("odds", Cautious, first_legal, make_bot("random"))] == [
        "odds", "Cautious", "first_legal", "random",
    ]  # fmt: skip
    for spec, problem in [
        ("genius", "unknown bot 'genius'"),
        ("no_such_module:Bot", "does not import: ModuleNotFoundError"),
        ("sample_bots:Nobody", "sample_bots has no Nobody"),
        (42, "42 is not a bot"),
    ]:
        with pytest.raises(GameSetupError, match=problem):
            make_bot(spec, allow_import=True)


def test_a_bot_named_by_import_path_imports_nothing_unless_allowed() -> None:
    """A bot spec from a client or a file never makes perudo import a module (issue 22)."""
    for spec in ("sample_bots:Cautious", "os:system", "no_such_module:Bot"):
        with pytest.raises(GameSetupError, match="would import and run the module"):
            make_bot(spec)
        with pytest.raises(GameSetupError, match="allow_import=True"):
            simulate("italian", 3, 1, bots=["odds", spec], seed=1)
    assert "no_such_module" not in sys.modules


def test_simulate_plays_any_bot_and_only_gives_views() -> None:
    result = simulate("italian", 3, 12, bots=["odds", Cautious, first_legal], seed=1)
    assert result.bots == ("odds", "Cautious", "first_legal")
    assert result.games == 12
    assert sum(wins for _, wins in result.bot_wins) == 12
    by_spec = simulate(
        "italian", 3, 12, bots=["odds", "sample_bots:Cautious", first_legal], seed=1,
        allow_import=True,
    )  # fmt: skip
    assert by_spec.wins == result.wins


def test_an_importable_bot_gives_the_same_result_on_two_workers() -> None:
    bots = ["sample_bots:Cautious", "odds"]
    one = simulate("spanish", 3, 24, bots=bots, seed=4, allow_import=True)
    two = simulate("spanish", 3, 24, bots=bots, seed=4, workers=2, allow_import=True)
    assert one == two


@pytest.mark.parametrize(("bot", "reason"), [(sulky, "raised"), (cheat, "bid-too-low")])
def test_a_failing_bot_is_named_with_its_seat_and_the_games_seed(bot: object, reason: str) -> None:
    with pytest.raises(BotError) as caught:
        simulate("italian", 3, 5, bots=["odds", bot], seed=2, fixed_seats=True)
    error = caught.value
    assert (error.bot, error.seat, error.reason) == (bot_name(bot), 1, reason)
    assert str(error.seed) not in str(error)  # the seed gives every hand: not in the message
    assert "the error's seed replays the game" in str(error)
    state = perudo.new_game("italian", 3, seed=error.seed)
    with pytest.raises(BotError):  # the seed replays the game up to the failure
        play(state, [make_bot("odds", state.seed * 1009), make_bot(bot), make_bot("odds", 0)])


def test_a_failing_bot_can_forfeit_instead() -> None:
    result = simulate("italian", 3, 9, bots=["odds", sulky], seed=2, on_error="forfeit")
    assert dict(result.forfeits)["sulky"] == 9 - result.games
    assert result.games + sum(n for _, n in result.forfeits) == 9


def test_gymnasium_opponents_are_any_bot() -> None:
    pytest.importorskip("gymnasium", reason="the gymnasium extra is not installed")
    from perudo.interop.gymnasium import PerudoSoloEnv

    env = PerudoSoloEnv("italian", 3, opponents=first_legal)
    env.reset(seed=1)
    assert env.turns is not None
    with pytest.raises(GameSetupError, match="unknown bot"):
        PerudoSoloEnv("italian", 3, opponents="genius")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(HERE)}
    return subprocess.run(
        [sys.executable, "-m", "perudo", *args], capture_output=True, text=True, env=env,
        timeout=120,
    )  # fmt: skip


@pytest.mark.slow
def test_the_command_takes_bots_by_import_path() -> None:
    refused = run(
        "simulate", "--games", "6", "--players", "3", "--bots", "odds,sample_bots:Cautious"
    )
    assert refused.returncode == 2
    assert "--bots-from-module" in refused.stderr
    done = run("simulate", "--games", "6", "--players", "3", "--bots", "odds,sample_bots:Cautious",
               "--bots-from-module")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "won per seat held, Cautious" in done.stdout
    bad = run("simulate", "--games", "6", "--bots", "odds,no_such_module:Bot", "--bots-from-module")
    assert bad.returncode == 2
    assert len(bad.stderr.strip().splitlines()) == 1
    assert "does not import" in bad.stderr
    assert "add the folder that holds no_such_module.py, or its package, to PYTHONPATH" in (
        bad.stderr
    )
    failing = run("simulate", "--games", "6", "--players", "3", "--bots", "odds,sample_bots:sulky",
                  "--bots-from-module")  # fmt: skip
    assert failing.returncode == 2
    assert "bot sulky at seat" in failing.stderr
    assert "game seed" in failing.stderr
    forfeit = run(
        "simulate", "--games", "6", "--players", "3", "--bots", "odds,sample_bots:sulky",
        "--on-error", "forfeit", "--json", "--bots-from-module",
    )  # fmt: skip
    assert forfeit.returncode == 0, forfeit.stderr
    assert '"forfeits"' in forfeit.stdout


def test_the_reader_reads_the_bids() -> None:
    from perudo.bots import bid_reading_table
    from perudo.odds import chance_table

    state = perudo.new_game("italian", 3, seed=4, first_player=1, dice=[[2, 3], [1, 4, 6], [2, 2]])
    state = state.apply(perudo.Bid(2, 5))  # seat 1 bids on 5s: it likely holds some
    view = state.view(2)
    read = bid_reading_table(view)
    plain = chance_table(view.dice, view.unseen, wild=view.wild_face)
    assert read[5][2] > plain[5][2]  # 5s are likelier than the dice alone say
    assert read[3][2] < read[5][2]
    assert all(row[0] == 1.0 for row in read[1:])


@pytest.mark.slow
def test_the_reader_is_a_stronger_bot_in_every_edition() -> None:
    # but Bluff, where a bidder shows what it holds by the dice it puts out and re-rolls the
    # rest: the bids say nothing more, and the reader reads none (it plays as the odds bot);
    # and UO Outlands', where a challenge counts the bidder's hand alone: both bots judge a
    # bid on that hand, and the reader has nothing more to read; and Mia, whose bids name
    # the bidder's own fresh roll: both bots judge a hand by its odds alone
    for key in set(perudo.variant_names()) - {"bluff", "outlands-liars-dice", "mia"}:
        players = min(4, perudo.load_variant(key).players.max)
        games = 600 if batch_plays(key) else 120  # a larger sample where it costs nothing
        result = simulate(key, players, games, bots=["reader", "odds"], seed=7)
        shares = dict(result.bot_intervals)
        assert shares["reader"].estimate > shares["odds"].estimate, key


def test_the_reader_reads_no_bid_where_the_bidder_may_reroll() -> None:
    from perudo.bots import bid_reading_table
    from perudo.odds import chance_table

    state = perudo.new_game("bluff", 3, seed=4, first_player=1).apply(perudo.Bid(2, 5))
    view = state.view(2)
    assert bid_reading_table(view) == chance_table(
        view.known, view.unseen, wild=view.wild_face, faces=6
    )


def test_the_odds_bots_judge_a_bid_on_the_bidders_hand_where_only_it_counts() -> None:
    """UO Outlands: "the last bidding player's Dice are now revealed": a bid of more dice
    than its bidder holds is certainly false, and a bot's own bid holds as its hand does."""
    from helpers import game, play

    from perudo.bots import OddsBot, reader_bot

    edition = perudo.load_variant("outlands-liars-dice")
    hands = [[5, 5, 2, 3, 4], [1, 5, 6, 6, 2], [5, 3, 3, 4, 1]]
    # three 6s: likely among all fifteen dice (seat 1 holds two), unlikely in seat 0's five
    state = play(game(edition, hands), "3x6")
    for bot in (OddsBot(seed=1), reader_bot(seed=1)):
        assert bot.act(state.view(1)) == perudo.Dudo()
        assert bot.interrupt(state.view(2)) == perudo.Dudo()  # out of turn too
    opening = game(edition, hands)
    bid = OddsBot(seed=1).act(opening.view(0))  # seat 0 holds two 5s: it bids what it holds
    assert isinstance(bid, perudo.Bid)
    assert bid.quantity <= opening.players[0].dice.count(bid.face)
