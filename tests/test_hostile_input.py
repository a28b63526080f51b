"""Hostile input: anything a caller passes either loads or raises a documented PerudoError.

Each case here is a regression test for an input that once escaped as another exception
(found by reading the readers before fuzzing them, or by the fuzzers in ``fuzz/``); the
files in ``tests/fuzz_regressions/`` are inputs the fuzzers saved.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import perudo
from perudo import GameRecord, PerudoError, Variant, state_from_dict

HERE = Path(__file__).parent
WANGO = perudo.load_variant("wango").to_dict()


@pytest.mark.parametrize(
    "make",
    [
        # RecursionError from json on deep nesting
        lambda: GameRecord.from_json("[" * 100_000),
        lambda: GameRecord.from_text("perudo-record 1\nplayers " + "[" * 100_000 + "\nend 0\n"),
        # ValueError from int() past 4300 digits
        lambda: GameRecord.from_json("1" * 5000),
        lambda: GameRecord.from_text("perudo-record 1\nseed " + "1" * 5000 + "\nend 0\n"),
        lambda: GameRecord.from_text("perudo-record 1\n" + "1" * 5000 + " 0 dudo\nend 1\n"),
        # TypeError from an unhashable kind
        lambda: Variant.from_dict({**WANGO, "cap": {"kind": [1], "provenance": "stated"}}),
        lambda: perudo.variant_from_toml('[cap]\nkind = ["none"]\n'),
        # RecursionError from deep TOML arrays
        lambda: perudo.variant_from_toml("x = " + "[" * 100_000),
        # not text at all
        lambda: GameRecord.from_json(None),  # type: ignore[arg-type]
        lambda: GameRecord.from_text(b"perudo-record 1"),  # type: ignore[arg-type]
        lambda: state_from_dict(
            {"format": "perudo-state", "version": 1, "record": [], "position": 1}
        ),
    ],
)
def test_hostile_input_raises_a_perudo_error(make: object) -> None:
    with pytest.raises(PerudoError):
        make()  # type: ignore[operator]


@pytest.mark.parametrize(
    "path", sorted((HERE / "fuzz_regressions").glob("*")), ids=lambda p: p.name
)
def test_saved_fuzz_inputs(path: Path) -> None:
    target, _, _ = path.name.partition("-")
    data = path.read_bytes()
    from fuzz_targets import TARGETS  # the same entry points the fuzzers call

    TARGETS[target](data)
