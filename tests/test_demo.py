"""The demo command and the bots it uses."""

from __future__ import annotations

import io

import pytest
from helpers import SIX

import perudo
from perudo.bots import OddsBot, RandomBot
from perudo.cli import main
from perudo.demo import run_demo
from perudo.match import play

WORDS = {
    "italian": "Dubito!",
    "spanish": "Dudo!",
    "french-calza": "Dudo!",
    "french-jonti": "Perudo!",
    "wango": "Challenge!",  # WANGO's word is "challenge": a cry starts with a capital
    "wango-party": "Challenge!",
}


@pytest.mark.parametrize("edition", SIX)
def test_demo_tells_the_game_in_the_edition_words(
    edition: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--variant", edition, "--players", "4", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(perudo.load_variant(edition).name)
    assert WORDS[edition] in out
    for line in out.splitlines():  # every sentence starts with a capital (issue 43)
        assert not line.strip()[:1].islower(), line
    assert "Round 1: " in out
    last = out.rstrip().splitlines()[-1]
    assert last.endswith("wins.") or last.startswith("Scores:")


def test_demo_is_reproducible() -> None:
    one, two = io.StringIO(), io.StringIO()
    run_demo("french-jonti", 5, seed=3, out=one)
    run_demo("french-jonti", 5, seed=3, out=two)
    assert one.getvalue() == two.getvalue()
    assert "Jonti!" in one.getvalue()


def test_demo_names_special_rounds() -> None:
    text = "".join(_demo_text("italian", seed) for seed in range(8))
    assert "Palifico round" in text


def _demo_text(edition: str, seed: int) -> str:
    out = io.StringIO()
    run_demo(edition, 4, seed=seed, out=out)
    return out.getvalue()


def test_variants_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    for key in perudo.variant_names():
        assert key in out


def test_cli_reports_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--variant", "klingon"]) == 2
    assert "unknown edition 'klingon'" in capsys.readouterr().err
    assert main(["demo", "--players", "12"]) == 2


@pytest.mark.parametrize("edition", SIX)
@pytest.mark.parametrize("bot", [RandomBot, OddsBot])
def test_bots_finish_games_in_every_edition(edition: str, bot: type) -> None:
    for seed in range(5):
        state = perudo.new_game(edition, 5, seed=seed)
        final = play(state, [bot(seed * 10 + seat) for seat in range(5)])
        assert final.is_over
        assert final.winners


@pytest.mark.parametrize(("edition", "times"), [("italian", 1), ("wango", 0)])
def test_the_demo_explains_a_count_among_the_hands_shown_once(
    edition: str, times: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 43: Italian's Dubito shows hands only until the bid is proven; the demo says
    what "among the hands shown" means the first time, and never where every hand shows."""
    assert main(["demo", "--variant", edition, "--players", "4", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert ("among the hands shown" in out) is bool(times)
    assert out.count('(A count "among the hands shown" counts the hands that call') == times
    if times:
        first = out.index("among the hands shown")
        assert out.index("(A count") > first  # after the first such count, not before
