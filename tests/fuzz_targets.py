"""The fuzz targets: each takes raw bytes and feeds them to one reader of perudo.

A target passes when the input loads or raises a documented :class:`perudo.PerudoError`;
anything else escaping is a finding. ``fuzz/run.py`` drives them with atheris; the saved
findings in ``tests/fuzz_regressions/`` run through them in the test suite.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import perudo
from perudo import GameRecord, PerudoError, Variant, state_from_dict, state_to_dict
from perudo.loader import MAX_DECLARATION_BYTES, variants_dir

_SHIPPED = str(variants_dir().resolve())


@contextlib.contextmanager
def _no_file_but_the_shipped() -> Iterator[None]:
    """Fail at once if the code under test opens any file outside ``variants/``."""

    def guard(opener: Callable[..., Any]) -> Callable[..., Any]:
        def checked(file: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(file, int) or str(Path(os.fsdecode(file)).resolve()).startswith(_SHIPPED):
                return opener(file, *args, **kwargs)
            raise AssertionError(f"opened {str(file)[:80]!r}")

        return checked

    saved = builtins.open, io.open, os.open
    builtins.open, io.open, os.open = guard(builtins.open), guard(io.open), guard(os.open)  # type: ignore[assignment]
    try:
        yield
    finally:
        builtins.open, io.open, os.open = saved  # type: ignore[assignment]


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


#: The key of the signed targets: the fuzzer forges records for a server that signs.
KEY = b"the fuzzers' server key, 32 bytes"


def _json_text(data: bytes) -> str:
    """``data`` as text, lone surrogates kept (``\\ud800`` in JSON makes one too)."""
    try:
        return data.decode("utf-8", errors="surrogatepass")
    except UnicodeDecodeError:
        return _text(data)


def record_text_signed(data: bytes) -> None:
    _guard(lambda: GameRecord.from_text(_json_text(data), key=KEY).replay())


def record_json_signed(data: bytes) -> None:
    _guard(lambda: GameRecord.from_json(_json_text(data), key=KEY).replay())


def state_dict_signed(data: bytes) -> None:
    try:
        value = json.loads(_json_text(data))
    except (ValueError, RecursionError):
        return
    _guard(lambda: state_from_dict(value, key=KEY))


def state_dict(data: bytes) -> None:
    value = _json(data)
    _guard(lambda: state_from_dict(value))


def variant_dict(data: bytes) -> None:
    value = _json(data)
    _guard(lambda: Variant.from_dict(value))


def variant_toml(data: bytes) -> None:
    _guard(lambda: perudo.variant_from_toml(_text(data)))


_PATHS = ["/dev/zero", "/dev/stdin", "/etc/passwd", "../variants/italian.toml", "x.toml", "~"]


def record_paths(data: bytes) -> None:
    """A record, a state and a client's edition name whose edition is any text (paths
    included): each is refused or replayed, and no file but the shipped ones is opened."""
    text = _text(data)
    name = _PATHS[data[0] % len(_PATHS)] + text[1:] if data and data[0] < 24 else text
    record = GameRecord.from_state(perudo.new_game("italian", 2, seed=1).apply(perudo.Bid(1, 2)))
    forged = record.to_dict()
    forged["variant"] = name
    state = {"format": "perudo-state", "version": 1, "record": forged, "position": {}}
    with _no_file_but_the_shipped():
        _guard(lambda: GameRecord.from_dict(forged).replay())
        _guard(lambda: GameRecord.from_text(record.to_text().replace("italian", name, 1)).replay())
        _guard(lambda: state_from_dict(state))
        _guard(lambda: perudo.new_game(name, 2))
        _guard(lambda: perudo.load_variant(name))


def toml_shapes(data: bytes) -> None:
    """Large hostile TOML shapes grown from a few bytes (the fuzzer picks shape and size):
    long dotted keys, deep arrays and tables, long numbers, many tables, long strings."""
    if len(data) < 3:
        return
    size = int.from_bytes(data[1:3], "big") * 2  # up to 128 kB: over the limit too
    unit = _text(data[3:]) or "a"
    shapes = [
        lambda: "a" + ("." + unit) * (size // (len(unit) + 1)) + " = 1\n",
        lambda: "x = " + "[" * size + "]" * size,
        lambda: "x = " + "{a = " * size + "1" + "}" * size,
        lambda: "x = " + "1" * size,
        lambda: "".join(f"[t{i}]\n" for i in range(size // 4)),
        lambda: 'q = """' + unit * (size // len(unit)) + '"""\n',
        lambda: "[" + ".".join([unit] * (size // (len(unit) + 1))) + "]\n",
        lambda: ("k = 1\n" * (size // 6)) + unit,
    ]
    text = shapes[data[0] % len(shapes)]()[: 2 * MAX_DECLARATION_BYTES]
    _guard(lambda: perudo.variant_from_toml(text))


TARGETS: dict[str, Callable[[bytes], None]] = {
    "notation": notation,
    "record_text": record_text,
    "record_json": record_json,
    "state_dict": state_dict,
    "record_text_signed": record_text_signed,
    "record_json_signed": record_json_signed,
    "state_dict_signed": state_dict_signed,
    "variant_dict": variant_dict,
    "variant_toml": variant_toml,
    "record_paths": record_paths,
    "toml_shapes": toml_shapes,
}


def seed_corpus() -> dict[str, list[bytes]]:
    """Valid inputs for every target, to start the fuzzers from."""
    state = perudo.new_game("french-jonti", 4, seed=5)
    for _ in range(12):
        state = state.apply(state.legal_actions()[len(state.legal_actions()) // 3])
    record = GameRecord.from_state(state)
    toml = (perudo.loader.variants_dir() / "italian.toml").read_bytes()
    return {
        "notation": [b"3x4", b"12x1!", b"dudo!", b"jonti", b"declare calzone"],
        "record_text": [record.to_text().encode()],
        "record_json": [record.to_json().encode()],
        "state_dict": [json.dumps(state_to_dict(state)).encode()],
        "record_text_signed": [record.to_text(key=KEY).encode()],
        "record_json_signed": [record.to_json(key=KEY).encode()],
        "state_dict_signed": [json.dumps(state_to_dict(state, key=KEY)).encode()],
        "variant_dict": [json.dumps(perudo.load_variant("wango").to_dict()).encode()],
        "variant_toml": [
            toml,
            (variants_dir().parent / "examples" / "house_rule.toml").read_bytes(),
        ]
        if (variants_dir().parent / "examples").is_dir()
        else [toml],
        "record_paths": [b"italian", b"\x00", b"\x01", b"\x03/../italian", b"/proc/self/environ"],
        "toml_shapes": [bytes([shape, 0x80, 0x00]) + b"a" for shape in range(8)],
    }
