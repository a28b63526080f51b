"""perudo play (issue 16): a game against bots in a terminal, piped or at a real one."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect", reason="pexpect (in the dev extra) is not installed")

PERUDO = [sys.executable, "-m", "perudo"]


def play(args: list[str], lines: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PERUDO, "play", *args], input="\n".join(lines) + "\n", capture_output=True,
        text=True, timeout=120, cwd=cwd,
    )  # fmt: skip


def test_a_piped_game_refuses_bad_moves_and_leaves_cleanly(tmp_path: Path) -> None:
    done = play(["--variant", "italian", "--players", "3", "--seed", "4", "--ascii"],
                ["?", "9x21", "3x2", "Dubito", "q"], tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Legal moves: 1x2, 2x2" in out
    assert "Refused (malformed-action)" in out
    assert "in Italian Palifico, write a bid such as 3x4, dubito, palifico or ordinary" in out
    assert "Player 1 bids 3x2" in out
    assert "You left the table." in out
    # Other seats' dice are never drawn: their rows hold only '?'.
    for row in re.findall(r"^  Player [23]  (.*?)  \d dice", out, re.M):
        assert set(row.split()) <= {"?"}, row


def test_a_piped_game_plays_to_the_end_and_saves_the_record_where_told(tmp_path: Path) -> None:
    moves = ["dudo", "1x2"] * 150
    args = ["--variant", "wango", "--players", "2", "--seed", "2"]
    done = play(args, moves, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Game over:" in done.stdout
    assert "Save the record" not in done.stdout  # not a terminal: nobody is asked
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no move taken for a file name
    done = play([*args, "--save", "game.perudo"], moves, tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "game.perudo").read_text("utf-8").startswith("perudo-record 1")
    assert "Saved to game.perudo" in done.stdout


def test_end_of_input_leaves_cleanly(tmp_path: Path) -> None:
    done = play(["--seed", "1"], [], tmp_path)
    assert done.returncode == 0
    assert "You left the table." in done.stdout


def test_a_game_at_a_real_terminal() -> None:
    child = pexpect.spawn(PERUDO[0], [*PERUDO[1:], "play", "--variant", "french-jonti",
                                      "--players", "3", "--seed", "5"],
                          encoding="utf-8", timeout=30)  # fmt: skip
    try:
        child.expect(r"Your move: |now\? \(Enter to pass\)")
        child.sendline("?")
        child.expect("Legal moves:")
        child.sendline("jonti")  # refused at the opening: nothing to call on
        child.expect("Refused")
        child.sendintr()  # Ctrl-C
        child.expect("perudo: interrupted")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 130


@pytest.mark.parametrize(("args", "message"), [
    (["--seat", "5", "--players", "3"], "--seat 5: a table of 3 has seats 1 to 3"),
    (["--seat", "0", "--players", "3"], "--seat: 0 is not from 1 to 20"),
    (["--variant", "klingon"], "unknown edition 'klingon'"),
    (["--bots", "genius"], "unknown bot 'genius'"),
])  # fmt: skip
def test_bad_arguments_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    done = play(args, [], tmp_path)
    assert done.returncode == 2
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_piped_bluff_game_offers_the_reroll_after_the_players_bid(tmp_path: Path) -> None:
    done = play(["--variant", "bluff", "--players", "3", "--seed", "4", "--ascii"],
                ["1x2", "reroll 9", "reroll 2", "q"], tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Reroll now? (Enter to pass)" in out
    assert "Refused (die-not-held)" in out
    assert "Player 1: reroll 2" in out
    assert "| open 2" in out  # the die put out, drawn for everyone


def test_at_a_real_terminal_the_end_asks_where_to_save(tmp_path: Path) -> None:
    child = pexpect.spawn(PERUDO[0], [*PERUDO[1:], "play", "--variant", "wango",
                                      "--players", "2", "--seed", "2"],
                          encoding="utf-8", timeout=30, cwd=str(tmp_path))  # fmt: skip
    try:
        for turn in range(400):
            found = child.expect([r"Your move: ", r"now\? \(Enter to pass\)", r"Save the record"])
            if found == 2:
                child.sendline("game.perudo")
                child.expect("Saved to game.perudo")
                break
            child.sendline(("dudo", "1x2")[turn % 2] if found == 0 else "")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert (tmp_path / "game.perudo").read_text("utf-8").startswith("perudo-record 1")


def test_a_piped_game_with_bursts_offers_a_bid_or_a_challenge_out_of_turn(tmp_path: Path) -> None:
    declaration = tmp_path / "burst.toml"
    declaration.write_text(
        'schema = 1\nextends = "italian"\nkey = "italian-burst"\nname = "Italian, bursts"\n'
        '[turns]\nkind = "burst"\nbid = true\nchallenge = true\nprovenance = "reading"\n'
        'reason = "a table that bursts"\n',
        encoding="utf-8",
    )
    done = play(["--variant", str(declaration), "--seed", "3", "--ascii"],
                ["2x3", "5x6", "q"], tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    asked = out.index("A bid or dubito now? (Enter to pass)")  # Player 3 is to act
    assert out.index("Player 1 bids 5x6") > asked  # the burst, answered to that prompt
    assert "Player 3 bids" not in out[asked : out.index("Player 1 bids 5x6")]


def test_question_mark_lists_the_editions_words_and_an_empty_line_asks_again(
    tmp_path: Path,
) -> None:
    done = play(["--variant", "italian", "--players", "3", "--seed", "4", "--ascii"],
                ["", "?", "3x2", "?", "q"], tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Refused" not in out  # the empty line was asked again, not refused
    first = out.index("Legal moves:")
    assert out[:first].count("Your move: ") == 2
    later = out[out.index("Legal moves:", first + 1) :].splitlines()[0]
    assert "dubito" in later.split(", ")
    assert "dudo" not in later.split(", ")
