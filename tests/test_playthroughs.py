"""Golden playthroughs: every edition's fixed-seed game still plays exactly as recorded."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from helpers import SIX

sys.path.insert(0, str(Path(__file__).parent / "playthroughs"))
from generate import HERE, playthrough


@pytest.mark.parametrize("key", SIX)
def test_playthrough_is_unchanged(key: str) -> None:
    expected = (HERE / f"{key}.txt").read_text(encoding="utf-8")
    actual = playthrough(key)
    assert actual.splitlines() == expected.splitlines(), (
        f"{key} plays differently: review the diff, then run "
        "python tests/playthroughs/generate.py if the change is intended"
    )
