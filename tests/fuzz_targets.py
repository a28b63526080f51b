"""The fuzz targets: each takes raw bytes and feeds them to one reader of perudo.

A target passes when the input loads or raises a documented :class:`perudo.PerudoError`;
anything else escaping is a finding. ``fuzz/run.py`` drives them with atheris; the saved
findings in ``tests/fuzz_regressions/`` run through them in the test suite.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any

import perudo
from perudo import GameRecord, GameState, PerudoError, Variant


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def _json(data: bytes) -> Any:
    try:
        return json.loads(_text(data))
    except (ValueError, RecursionError):
        return None  # not JSON: json's concern, not ours


def _guard(call: Callable[[], object]) -> None:
    with contextlib.suppress(PerudoError):
        call()


def notation(data: bytes) -> None:
    _guard(lambda: perudo.parse_action(_text(data)))


def record_text(data: bytes) -> None:
    _guard(lambda: GameRecord.from_text(_text(data)).replay())


def record_json(data: bytes) -> None:
    _guard(lambda: GameRecord.from_json(_text(data)).replay())


def state_dict(data: bytes) -> None:
    value = _json(data)
    _guard(lambda: GameState.from_dict(value))


def variant_dict(data: bytes) -> None:
    value = _json(data)
    _guard(lambda: Variant.from_dict(value))


def variant_toml(data: bytes) -> None:
    _guard(lambda: perudo.variant_from_toml(_text(data)))


TARGETS: dict[str, Callable[[bytes], None]] = {
    "notation": notation,
    "record_text": record_text,
    "record_json": record_json,
    "state_dict": state_dict,
    "variant_dict": variant_dict,
    "variant_toml": variant_toml,
}


def seed_corpus() -> dict[str, list[bytes]]:
    """Valid inputs for every target, to start the fuzzers from."""
    state = perudo.new_game("french-jonti", 4, seed=5)
    for _ in range(12):
        state = state.apply(state.legal_actions()[len(state.legal_actions()) // 3])
    record = state.record()
    toml = (perudo.loader.variants_dir() / "italian.toml").read_bytes()
    return {
        "notation": [b"3x4", b"12x1!", b"dudo!", b"jonti", b"declare calzone"],
        "record_text": [record.to_text().encode()],
        "record_json": [record.to_json().encode()],
        "state_dict": [json.dumps(state.to_dict()).encode()],
        "variant_dict": [json.dumps(perudo.load_variant("wango").to_dict()).encode()],
        "variant_toml": [toml],
    }
