"""What a server exposes, tried as an attacker would (the second hardening, issue 22).

Each test is the regression test of one finding: it failed before the fix. The browser
table's own attacks are in ``tests/test_web_table_attacks.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import perudo
from perudo import Bid, GameRecord, InvalidVariantError, RecordError
from perudo.loader import variants_dir

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
def test_extends_names_no_path_outside_the_folder(
    folders: tuple[Path, Path], extends: str
) -> None:
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
        with pytest.raises(InvalidVariantError, match="is not an edition key$"):
            perudo.variant_from_toml(_declaration("child", extends))
