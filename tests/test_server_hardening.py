"""What a server exposes, tried as an attacker would (the second hardening, issue 22).

Each test is the regression test of one finding: it failed before the fix. The browser
table server's own attacks are in ``tests/test_serve_attacks.py``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest

import perudo
from perudo import Bid, GameRecord, InvalidVariantError, RecordError
from perudo.loader import variants_dir
from perudo.simulate import simulate

KEY = b"a server's secret key, 32 bytes!"
SECRET = "THE-PARENT-TEXT-NOBODY-MAY-READ"


def _declaration(key: str, extends: str) -> str:
    return f'extends = "{extends}"\nkey = "{key}"\n'


# --- 5. signed uploads ------------------------------------------------------------------


def _signed_record() -> GameRecord:
    state = perudo.new_game("italian", ["Ana", "Ben"], seed=3).apply(Bid(1, 2))
    return GameRecord.from_state(state)


@pytest.mark.parametrize("field", ["variant", "fingerprint", "players", "signature", "action"])
def test_a_lone_surrogate_in_a_signed_json_record_is_a_record_error(field: str) -> None:
    data = _signed_record().to_dict(key=KEY)
    if field == "players":
        data["players"] = ["Ana", "\ud800"]
    elif field == "action":
        data["moves"][0]["action"] = "1x\ud800"
    else:
        data[field] = "\ud800"
    text = json.dumps(data)  # the surrogate as JSON writes it: "\ud800"
    assert "\\ud800" in text
    with pytest.raises(RecordError):
        GameRecord.from_json(text, key=KEY)
    with pytest.raises(RecordError):
        GameRecord.from_dict(data, key=KEY)
    saved = perudo.state_to_dict(_signed_record().replay(), key=KEY)
    saved["record"] = data
    with pytest.raises(RecordError):
        perudo.state_from_dict(saved, key=KEY)


def test_a_lone_surrogate_in_a_signed_text_record_is_a_record_error() -> None:
    text = _signed_record().to_text(key=KEY)
    for forged in (text.replace("Ben", "\ud800"), text.replace("hmac-sha256:", "\ud800")):
        with pytest.raises(RecordError):
            GameRecord.from_text(forged, key=KEY)
    with pytest.raises(RecordError, match="not valid Unicode"):
        GameRecord.from_text(text.replace("Ben", "\ud800"), key=KEY)


def test_a_record_with_a_lone_surrogate_cannot_be_signed() -> None:
    record = GameRecord(variant="italian", fingerprint="sha256:0123456789abcdef", seed=1,
                        players=("Ana", "\udfff"))  # fmt: skip
    with pytest.raises(RecordError, match="not valid Unicode"):
        record.to_text(key=KEY)
    with pytest.raises(RecordError, match="not valid Unicode"):
        record.to_dict(key=KEY)


@pytest.mark.parametrize("key", [b"", b"short", b"fifteen bytes!!", bytearray(b"x" * 15)])
def test_a_signing_key_shorter_than_16_bytes_is_refused(key: bytes) -> None:
    record = _signed_record()
    for call in (
        lambda: record.to_text(key=key),
        lambda: record.to_dict(key=key),
        lambda: GameRecord.from_text(record.to_text(key=KEY), key=key),
        lambda: GameRecord.from_json(record.to_json(key=KEY), key=key),
        lambda: perudo.state_to_dict(record.replay(), key=key),
    ):
        with pytest.raises(RecordError, match="at least 16 bytes"):
            call()
    assert GameRecord.from_text(record.to_text(key=b"x" * 16), key=b"x" * 16) == record


def test_a_signing_key_is_bytes() -> None:
    with pytest.raises(RecordError, match="bytes"):
        _signed_record().to_text(key="a text key of more than 16 characters")  # type: ignore[arg-type]


# --- 8. declaration files reach no other file ------------------------------------------


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    """A user's folder of declarations, and a private folder beside it."""
    mine, private = tmp_path / "mine", tmp_path / "private"
    mine.mkdir()
    private.mkdir()
    parent = (variants_dir() / "wango.toml").read_text(encoding="utf-8")
    parent = parent.replace('key = "wango"', 'key = "secret"')
    parent = parent.replace('name = "WANGO', f'name = "{SECRET} WANGO', 1)
    assert SECRET in parent
    (private / "secret.toml").write_text(parent, encoding="utf-8")
    (mine / "base.toml").write_text(parent.replace("secret", "base"), encoding="utf-8")
    return mine, private


@pytest.mark.parametrize(
    "extends",
    ["{private}/secret.toml", "../private/secret.toml", "sub/../../private/secret.toml",
     "./base.toml", "..\\\\private\\\\secret.toml", "C:secret.toml", ".toml", "base.TOML"],
)  # fmt: skip
def test_extends_names_no_path_outside_the_folder(folders: tuple[Path, Path], extends: str) -> None:
    mine, private = folders
    child = mine / "child.toml"
    child.write_text(_declaration("child", extends.format(private=private)), encoding="utf-8")
    with pytest.raises(InvalidVariantError, match="extends") as caught:
        perudo.load_variant(child)
    assert SECRET not in str(caught.value)
    assert "name of a .toml file in the same folder" in str(caught.value)


def test_extends_does_not_follow_a_link_out_of_the_folder(folders: tuple[Path, Path]) -> None:
    mine, private = folders
    os.symlink(private / "secret.toml", mine / "link.toml")
    child = mine / "child.toml"
    child.write_text(_declaration("child", "link.toml"), encoding="utf-8")
    with pytest.raises(InvalidVariantError, match="symbolic link") as caught:
        perudo.load_variant(child)
    assert SECRET not in str(caught.value)


def test_extends_reads_a_plain_file_name_beside_the_declaring_file(
    folders: tuple[Path, Path],
) -> None:
    mine, _ = folders
    child = mine / "child.toml"
    child.write_text(_declaration("child", "base.toml"), encoding="utf-8")
    assert perudo.load_variant(child).key == "child"


def test_text_never_extends_a_file(folders: tuple[Path, Path]) -> None:
    _, private = folders
    for extends in (f"{private}/secret.toml", "secret.toml"):
        with pytest.raises(InvalidVariantError, match=r"is not an edition key$"):
            perudo.variant_from_toml(_declaration("child", extends))


# --- 9. no control characters in a declaration's prose ---------------------------------

OSC_TITLE = "\x1b]0;owned\x07"  # sets a terminal's window title
CONTROLS = [OSC_TITLE, "\x1b[2J", "\x1b]52;c;ZWNobyBoaQ==\x07", "a\nb", "\t", "\u202e", "\x00"]


def _with_text(field: str, text: str) -> dict[str, object]:
    data = perudo.load_variant("french-calza").to_dict()
    data["key"] = "house"
    if field in ("name", "source", "language", "summary"):
        data[field] = f"Calza {text} house"
    elif field == "words":
        data["words"]["dudo"] = f"Dudo{text}x"
    else:  # quote, reason, translation: on an axis that has each
        axis = next(a for a in perudo.AXES if "translation" in data[a])
        if field == "reason":
            data[axis] = {**data[axis], "provenance": "reading", "reason": f"why {text}"}
        else:
            data[axis][field] = f"{data[axis][field]} {text}"
    return data


@pytest.mark.parametrize("text", CONTROLS, ids=repr)
@pytest.mark.parametrize(
    "field", ["name", "source", "language", "summary", "quote", "reason", "translation", "words"]
)
def test_every_text_field_refuses_control_characters(field: str, text: str) -> None:
    data = _with_text(field, text)
    with pytest.raises(InvalidVariantError, match=r"U\+[0-9A-F]{4}") as caught:
        perudo.Variant.from_dict(data)
    message = str(caught.value)
    assert message.isprintable(), message  # the error names the character, never prints it


def test_derive_refuses_control_characters_in_a_name() -> None:
    with pytest.raises(InvalidVariantError, match="U\\+001B"):
        perudo.load_variant("italian").derive("house", reason="Ours.", name=f"x{OSC_TITLE}")


def test_a_declaration_file_with_an_escape_sequence_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(
        'extends = "italian"\nkey = "house"\nname = "House \\u001b]0;owned\\u0007"\n',
        encoding="utf-8",
    )
    with pytest.raises(InvalidVariantError, match="name: holds the control"):
        perudo.load_variant(path)


# --- 10. smaller points -----------------------------------------------------------------


@perudo.rules.register_kind
@attrs.frozen
class SeatZeroStarts:
    """Seat 0 opens every round, even once it is out (a broken kind)."""

    axis: ClassVar[str] = "starter"
    kind: ClassVar[str] = "test-seat-zero"

    def next_opener(self, context: perudo.rules.CallContext) -> int:
        return 0

    def describe(self, words: perudo.Words, dice: int) -> str:
        return "Seat 0 opens."

    def label(self, words: perudo.Words) -> str:
        return "seat 0"


def test_a_kind_that_names_a_seat_that_is_out_is_reported_not_stuck() -> None:
    variant = perudo.load_variant("italian").derive(
        "seat-zero", reason="Broken on purpose.", starter={"kind": "test-seat-zero"}
    )
    hands = [[2], [3, 3], [4, 4]]  # seat 0 holds one die, bids on a face nobody holds
    state = perudo.new_game(variant, 3, seed=1, dice=hands, first_player=0).apply(Bid(3, 6))
    broken = r"starter:test-seat-zero .* seat 0, which is out"
    with pytest.raises(InvalidVariantError, match=broken):
        state.apply(perudo.Dudo())  # seat 0 loses its last die; the kind names it to open
    with pytest.raises(InvalidVariantError, match="starter:test-seat-zero"):
        simulate(variant, 3, 5, seed=1)


@pytest.mark.parametrize(
    ("words", "problem"),
    [
        ({"dudo": "Jonti"}, "'jonti' would mean both Dudo() and Calza()"),
        ({"calza": "Dudo"}, "'dudo' is the notation of Dudo(), not of Calza()"),
        ({"calza": "Perudo!"}, "'perudo!' would mean both Dudo(pressure=True) and Calza()"),
        ({"dudo": "Calzone"}, "'calzone' would mean both Dudo() and Declare('calzone')"),
        ({"dudo": "3x4"}, "'3x4' is the notation of Bid(3, 4)"),
        ({"calza": "declare calzone"}, "is the notation of Declare('calzone'), not of Calza()"),
        ({"calza": "SPOT  ON", "dudo": "spot on"}, "'spot on' would mean both"),
        ({"ordinary": "Calzone"}, "the special round and the ordinary one are both 'calzone'"),
        ({"ordinary": "Jonti"}, "'jonti' would mean both Calza() and Declare('jonti')"),
    ],
)
def test_edition_words_that_collide_are_refused_when_the_edition_is_made(
    words: dict[str, str], problem: str
) -> None:
    jonti = perudo.load_variant("french-jonti")
    with pytest.raises(InvalidVariantError, match=re.escape(problem)):
        jonti.derive("house", reason="Our words.", words=words)


def test_words_that_only_change_case_or_repeat_the_notation_are_kept() -> None:
    jonti = perudo.load_variant("french-jonti")
    same = jonti.derive("house", reason="Our words.", words={"dudo": "DUDO", "calza": "Calza"})
    assert perudo.parse_action("Dudo!", variant=same) == perudo.Dudo(pressure=True)
    assert perudo.parse_action("calza", variant=same) == perudo.Calza()


@pytest.mark.slow
def test_no_csv_cell_of_a_study_starts_a_formula(tmp_path: Path) -> None:
    import csv

    from perudo.study import run_study, write_report

    words = {"special_round": "=HYPERLINK(1)", "dudo": "@SUM(1)", "calza": "+1"}
    edition = perudo.load_variant("french-jonti").derive("formula", reason="Hostile.", words=words)
    study = run_study([edition], [3], 20, seed=1, engine="reference")
    assert any(k.startswith("=hyperlink") for row in study.rows() for k in row)  # reached
    write_report(study, tmp_path / "out")
    with (tmp_path / "out" / "study.csv").open(encoding="utf-8", newline="") as file:
        cells = [cell for row in csv.reader(file) for cell in row]
    assert any(cell.startswith("'=hyperlink") for cell in cells)
    for cell in cells:
        if cell[:1] in "=+@\t\r" and cell:
            raise AssertionError(f"a cell starts a formula: {cell!r}")
        if cell.startswith("-"):
            float(cell)  # a negative number, never text


LONG = perudo.load_variant("wango-party").derive(
    "long-party", reason="Long games.", scoring={"rounds_per_player": 100}
)


def _long_record(moves: int) -> GameRecord:
    """A game of ``moves`` legal moves: WANGO party bids up, then calls, for many rounds."""
    variant = LONG
    state = perudo.new_game(variant, 2, seed=7)
    while len(state.log.moves) < moves and not state.is_over:
        legal = state.legal_actions()
        bids = [a for a in legal if isinstance(a, Bid) and not a.pressure]
        state = state.apply(bids[0] if bids and len(state.bids) < 6 else perudo.Dudo())
    return GameRecord.from_state(state)


def test_records_take_a_move_limit_everywhere_they_are_read() -> None:
    record = _long_record(40)
    assert len(record.moves) == 40
    text, data = record.to_text(key=KEY), record.to_dict(key=KEY)
    saved = perudo.state_to_dict(record.replay(LONG), key=KEY)
    for limit in (0, 39):
        for read in (
            lambda n: GameRecord.from_text(text, key=KEY, max_moves=n),
            lambda n: GameRecord.from_dict(data, key=KEY, max_moves=n),
            lambda n: GameRecord.from_json(json.dumps(data), key=KEY, max_moves=n),
            lambda n: record.replay(LONG, max_moves=n),
            lambda n: perudo.state_from_dict(saved, variant=LONG, key=KEY, max_moves=n),
        ):
            with pytest.raises(RecordError, match=f"more than {limit} moves"):
                read(limit)
    assert GameRecord.from_text(text, key=KEY, max_moves=40).replay(LONG, max_moves=40) == (
        record.replay(LONG)
    )
    for bad in (-1, 10**6, "40", None, True):
        with pytest.raises(RecordError, match="max_moves"):
            GameRecord.from_text(text, max_moves=bad)  # type: ignore[arg-type]


def test_refusing_an_illegal_last_move_costs_one_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """An illegal last move of a long record is found by replaying the moves once: no
    second pass, no legal-move listing (counted in calls, not in time)."""
    record = _long_record(600)
    moves = len(record.moves)
    seat = record.moves[-1][0]
    forged = attrs.evolve(record, moves=(*record.moves[:-1], (seat, Bid(1, 2))))
    applied = {"apply": 0, "legal": 0}
    apply, legal = perudo.GameState.apply, perudo.GameState.legal_actions

    def counted_apply(self: perudo.GameState, *args: Any, **kwargs: Any) -> perudo.GameState:
        applied["apply"] += 1
        return apply(self, *args, **kwargs)

    def counted_legal(self: perudo.GameState, *args: Any, **kwargs: Any) -> Any:
        applied["legal"] += 1
        return legal(self, *args, **kwargs)

    monkeypatch.setattr(perudo.GameState, "apply", counted_apply)
    monkeypatch.setattr(perudo.GameState, "legal_actions", counted_legal)
    with pytest.raises(RecordError, match=f"move {moves} ") as caught:
        forged.replay(LONG)
    assert moves == 600
    assert caught.value.move == moves
    assert applied == {"apply": moves, "legal": 0}


def test_decoding_a_huge_number_is_an_encoding_error() -> None:
    numbers = perudo.encoding.action_encoding("italian", 3)
    for number in (10**5000, -(10**5000)):
        with pytest.raises(perudo.EncodingError, match="an integer of 16610 bits"):
            numbers.decode(number)


def test_the_log_of_a_long_game_has_a_short_repr() -> None:
    log = perudo.players.GameLog.of(None, (), tuple((0, Bid(1, 2)) for _ in range(50_000)))
    text = repr(log)
    assert text.startswith("<GameLog of 50000 moves")
    assert len(text) < 200
    assert "49997 earlier, (0, Bid(1, 2))" in text


@pytest.mark.slow
def test_a_study_checks_its_folder_before_it_plays(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    for out in ("/dev/null", str(tmp_path / "a-file"), str(tmp_path / "a-file" / "below")):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "perudo",
                "study",
                "italian",
                "--players",
                "2-6",
                "--games",
                "100000",
                "--out",
                out,
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )  # fmt: skip  (100,000 games a cell: refused in well under the time limit)
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("perudo: the report folder"), done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


def _hand_built_party(points: int) -> perudo.Variant:
    party = perudo.load_variant("wango-party")
    return attrs.evolve(
        party,
        key="made-by-hand",
        scoring=perudo.rules.PartyPoints(
            rounds_per_player=2, points=points, pressure_points=3, pressure_uses=2
        ),
    )


def test_adapters_refuse_numbers_an_observation_cannot_hold() -> None:
    pytest.importorskip("gymnasium", reason="the gymnasium extra is not installed")
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
    from perudo.interop.gymnasium import PerudoSoloEnv
    from perudo.interop.pettingzoo import PerudoEnv

    variant = _hand_built_party(2**62)  # made around the loader, which refuses it
    with pytest.raises(perudo.EncodingError, match="the observation entry score reaches"):
        PerudoSoloEnv(variant, 3).reset(seed=1)

    def observed(variant: perudo.Variant) -> None:
        env = PerudoEnv(variant, 3)
        env.reset(seed=1)
        env.last()

    with pytest.raises(perudo.EncodingError, match="the observation entry score reaches"):
        observed(variant)
    observed(_hand_built_party(1000))
    PerudoSoloEnv(_hand_built_party(1000), 3).reset(seed=1)  # the schema's largest: fine


def test_batch_arguments_out_of_shape_are_encoding_errors() -> None:
    pytest.importorskip("numba", reason="the batch extra is not installed")
    import numpy as np

    from perudo.batch import BatchGames

    table = BatchGames.new("italian", 3, 4, seed=1)
    for seats in ("a", 1.5, [0, 1], None, 3, -1, [0, 1, 2, 3], np.array([[0]])):
        with pytest.raises(perudo.EncodingError):
            table.observe(seats)
    for flags in ([True] * 3, [1, 0, 1, 0], "xxxx", np.zeros((4, 1), bool), 2**70):
        with pytest.raises(perudo.EncodingError, match="where must be 4 flags"):
            table.reset(where=flags)
    for game in (99, -1, "x", 1.0, 10**30, None, True):
        with pytest.raises(perudo.EncodingError, match="game"):
            table.hands(game)  # type: ignore[arg-type]
    assert table.observe(np.array([0, 1, 2, 0])).shape[0] == 4
    table.reset(where=np.zeros(4, bool))
    table.reset(where=np.array([False, True, False, True]))
    assert len(table.hands(np.int64(2))) == 3
