"""``perudo replay FILE`` and ``perudo play --save`` (issue 43, point 2): a saved game told
move by move from the command line, the table drawn at any move, and the bad records and
paths the library refuses, each in one line."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import perudo
from perudo.cli import main
from perudo.narration import narrate
from perudo.record import GameRecord, read_record
from perudo.web.store import server_key

PERUDO = [sys.executable, "-m", "perudo"]


def _game(key: str = "italian", seed: int = 3, players: int = 3) -> perudo.GameState:
    """A whole game, each seat playing its first legal move but a call once two bids
    stand (so rounds end and dice fall)."""
    state = perudo.new_game(perudo.load_variant(key), players, seed=seed)
    while not state.is_over:
        legal = state.legal_actions()
        calls = [a for a in legal if isinstance(a, perudo.Dudo)]
        state = state.apply(calls[0] if calls and len(state.bids) >= 2 else legal[0])
    return state


def _replay(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(["replay", *args], out=out), out.getvalue()


def _moves(told: str) -> list[str]:
    return re.findall(r"^ *\d+\. (.*)$", told, re.M)


@pytest.mark.parametrize("notation", ["text", "json"])
def test_a_record_is_told_move_by_move_as_the_table_told_it(tmp_path: Path, notation: str) -> None:
    state = _game()
    record = GameRecord.from_state(state)
    path = tmp_path / f"game.{notation}"
    path.write_text(record.to_text() if notation == "text" else record.to_json(), "utf-8")
    status, told = _replay(str(path))
    assert status == 0
    lines = narrate(record.states())
    assert _moves(told) == [line.text for line in lines if line.kind == "move"]
    assert len(_moves(told)) == len(record.moves)
    for line in lines:  # the openings, the showdowns and the end, each in place
        assert line.text in told
    assert told.splitlines()[0] == (
        f"Italian Palifico, seed 3: Player 1, Player 2, Player 3; {len(record.moves)} moves"
    )
    assert told.rstrip().endswith(lines[-1].text)  # the winner
    assert "Dubito" in told  # the edition's own word


def test_at_stops_after_that_move_and_draws_the_table_with_every_hand(tmp_path: Path) -> None:
    record = GameRecord.from_state(_game())
    path = tmp_path / "game.txt"
    path.write_text(record.to_text(), "utf-8")
    status, told = _replay(str(path), "--at", "3", "--ascii")
    assert status == 0
    assert [int(n) for n in re.findall(r"^ *(\d+)\. ", told, re.M)] == [1, 2, 3]
    states = list(record.states())
    assert record.replay().is_over
    assert not states[3].is_over
    assert told.endswith(states[3].draw(ascii=True) + "\n")
    for player in states[3].players:  # every hand: the record is the referee's
        assert " ".join(map(str, player.dice)) in told
    status, told = _replay(str(path), "--at", "0")
    assert status == 0
    assert _moves(told) == []


def test_svg_draws_the_table_at_that_move(tmp_path: Path) -> None:
    record = GameRecord.from_state(_game())
    path, picture = tmp_path / "game.txt", tmp_path / "table.svg"
    path.write_text(record.to_text(), "utf-8")
    status, told = _replay(str(path), "--at", "4", "--svg", str(picture))
    assert status == 0
    assert f"The table after move 4 is drawn in {picture}." in told
    drawn = picture.read_text("utf-8")
    assert ET.fromstring(drawn).tag.endswith("svg")
    assert drawn == list(record.states())[4]._repr_svg_()


def test_a_signed_record_is_checked_with_the_servers_key(tmp_path: Path) -> None:
    key_file = tmp_path / "server.key"
    key = server_key(key_file)
    record = GameRecord.from_state(_game())
    path = tmp_path / "game.txt"
    path.write_text(record.to_text(key=key), "utf-8")
    status, told = _replay(str(path), "--key", str(key_file))
    assert status == 0
    assert "; its signature checked" in told.splitlines()[0]
    status, told = _replay(str(path))  # read without the key: not checked, not said to be
    assert status == 0
    assert "signature" not in told.splitlines()[0]
    path.write_text(record.to_text(key=key).replace("seed 3", "seed 4"), "utf-8")
    assert _replay(str(path), "--key", str(key_file))[0] == 2


def test_a_house_rule_replays_with_its_declaration(tmp_path: Path) -> None:
    declaration = tmp_path / "house.toml"
    declaration.write_text('extends = "italian"\nkey = "house"\nname = "Our house"\n', "utf-8")
    variant = perudo.load_variant(declaration)
    state = perudo.new_game(variant, 2, seed=5)
    state = state.apply(state.legal_actions()[0])
    path = tmp_path / "game.txt"
    path.write_text(GameRecord.from_state(state).to_text(), "utf-8")
    status, told = _replay(str(path), "--variant", str(declaration))
    assert status == 0
    assert told.startswith("Our house, seed 5")
    assert _replay(str(path))[0] == 2  # not shipped: the declaration is asked for


@pytest.mark.parametrize(
    ("content", "args", "said"),
    [
        (None, [], "cannot read the record"),
        (b"\xff\xfe junk", [], "not UTF-8"),
        (b"perudo-record 1\nvariant italian\n", [], "record"),
        (b'{"format": "perudo-record"', [], "not JSON"),
        ("record", ["--at", "99"], "--at 99: the record has"),
        ("record", ["--at", "-1"], "is not from 0"),
        ("record", ["--svg", "/no/such/folder/t.svg"], "--svg '/no/such/folder/t.svg': there"),
        ("record", ["--key", "/no/such/key"], "the key file '/no/such/key'"),
    ],
)
def test_bad_records_and_arguments_are_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: bytes | str | None,
    args: list[str],
    said: str,
) -> None:
    path = tmp_path / "game.txt"
    if content == "record":
        path.write_text(GameRecord.from_state(_game()).to_text(), "utf-8")
    elif content is not None:
        path.write_bytes(content)
    try:
        status = main(["replay", str(path), *args], out=io.StringIO())
    except SystemExit as done:  # argparse's refusal
        status = int(str(done.code))
    assert status == 2
    err = capsys.readouterr().err
    assert said in err
    assert len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "t.svg").exists()


def test_a_file_past_the_record_limit_is_refused_without_reading_it_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(perudo.record, "MAX_RECORD_CHARS", 1000)
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 10_000)
    with pytest.raises(perudo.RecordError, match="longer than 1000 characters"):
        read_record(path)
    path.write_text("é" * 1001, "utf-8")  # 1,001 characters in 2,002 bytes
    with pytest.raises(perudo.RecordError, match="longer than 1000 characters"):
        read_record(path)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), key=st.sampled_from(perudo.variant_names()))
def test_any_edition_s_record_reads_back_in_either_notation(seed: int, key: str) -> None:
    variant = perudo.load_variant(key)
    state = perudo.new_game(variant, variant.players.min, seed=seed)
    for _ in range(6):
        if state.is_over:
            break
        state = state.apply(state.legal_actions()[seed % len(state.legal_actions())])
    record = GameRecord.from_state(state)
    assert GameRecord.parse(record.to_text()) == record
    assert GameRecord.parse(" \n" + record.to_json()) == record
    assert GameRecord.parse(record.to_text().encode()) == record


def _play(args: list[str], lines: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PERUDO, "play", *args], input="".join(f"{line}\n" for line in lines),
        capture_output=True, text=True, timeout=120, cwd=cwd,
    )  # fmt: skip


@pytest.mark.parametrize("leave", [["q"], []])  # q, or the end of the input
def test_play_save_keeps_the_game_so_far_when_the_player_leaves(
    tmp_path: Path, leave: list[str]
) -> None:
    done = _play(["--seed", "3", "--save", "so-far.txt"], ["2x3", *leave], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "You left the table." in done.stdout
    assert "Saved to so-far.txt." in done.stdout
    record = read_record(tmp_path / "so-far.txt")
    assert not record.replay().is_over
    assert (0, perudo.Bid(2, 3)) in record.moves
    told = subprocess.run(
        [*PERUDO, "replay", "so-far.txt"], capture_output=True, text=True, cwd=tmp_path,
        timeout=120,
    )  # fmt: skip
    assert told.returncode == 0
    assert "Player 1 bids 2x3" in told.stdout


@pytest.mark.parametrize(
    ("where", "said"),
    [
        ("missing/game.txt", "--save 'missing/game.txt': there is no folder 'missing'"),
        (".", "--save '.' is a folder: name a file in it"),
    ],
)
def test_play_save_checks_the_path_before_the_game(tmp_path: Path, where: str, said: str) -> None:
    done = _play(["--seed", "3", "--save", where], ["2x3", "q"], tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == f"perudo: {said}"
    assert done.stdout == ""  # refused before the table was drawn


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_play_save_refuses_a_folder_it_may_not_write(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    done = _play(["--seed", "3", "--save", "locked/game.txt"], ["q"], tmp_path)
    assert done.returncode == 2
    assert "not allowed to write there" in done.stderr
