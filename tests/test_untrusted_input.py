"""What a game server trusts perudo with (issue 13): uploads, clients and long games.

Each test is a regression test for one way a hostile client or uploader could make perudo
read a file, hang, take unbounded memory, leak a hand, accept a forged record or crash.
"""

from __future__ import annotations

import copy
import gc
import os
import pickle
import weakref
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest
from fuzz_targets import TARGETS, _no_file_but_the_shipped, seed_corpus

import perudo
from perudo import (
    TO_ACT,
    Bid,
    Dudo,
    EncodingError,
    GameRecord,
    GameSetupError,
    GameState,
    IllegalActionError,
    InvalidVariantError,
    PerudoError,
    RecordError,
    UnknownVariantError,
    state_from_dict,
    state_to_dict,
)
from perudo.loader import MAX_DECLARATION_BYTES, variants_dir
from perudo.players import BidChain
from perudo.record import MAX_RECORD_CHARS
from perudo.simulate import simulate

PATHS = [
    "/dev/zero",
    "/dev/stdin",
    "/etc/passwd",
    "../variants/italian.toml",
    "italian.toml",
    "variants/italian",
    "~/house",
]
KEY = b"a server's secret key, 32 bytes!"


def _record() -> GameRecord:
    return GameRecord.from_state(
        perudo.new_game("italian", 3, seed=4).apply(Bid(2, 3)).apply(Bid(3, 3))
    )


def _house(tmp_path: Path, key: str = "house") -> perudo.Variant:
    text = (variants_dir() / "wango.toml").read_text(encoding="utf-8")
    path = tmp_path / f"{key}.toml"
    path.write_text(text.replace('key = "wango"', f'key = "{key}"'), encoding="utf-8")
    return perudo.load_variant(path)


# --- 1. no string is ever read as a path ---------------------------------------------------


@pytest.mark.parametrize("name", PATHS)
def test_a_string_is_an_edition_key_never_a_path(name: str) -> None:
    with _no_file_but_the_shipped():  # fails the test if any other file is opened
        with pytest.raises(UnknownVariantError, match="not an edition key"):
            perudo.load_variant(name)
        with pytest.raises(UnknownVariantError):
            perudo.new_game(name, 3)
        with pytest.raises(UnknownVariantError):
            simulate(name, 3, 1)
        with pytest.raises(UnknownVariantError):
            perudo.encoding.action_encoding(name, 3)


@pytest.mark.parametrize("name", PATHS)
def test_a_record_or_state_naming_a_path_is_a_record_error(name: str) -> None:
    data = _record().to_dict()
    data["variant"] = name
    state = {"format": "perudo-state", "version": 1, "record": data, "position": {}}
    text = _record().to_text().replace("variant italian", f"variant {name}")
    with _no_file_but_the_shipped():
        for read in (
            lambda: GameRecord.from_dict(data).replay(),
            lambda: GameRecord.from_text(text).replay(),
            lambda: state_from_dict(state),
        ):
            with pytest.raises(RecordError, match="not an edition key"):
                read()


def test_an_unknown_key_in_a_record_is_a_record_error() -> None:
    record = perudo.GameRecord(
        variant="house", fingerprint="sha256:0123456789abcdef", seed=1, players=("A", "B")
    )
    with pytest.raises(RecordError, match="not a shipped edition: pass its Variant"):
        record.replay()


def test_openspiel_takes_edition_keys_only() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    import perudo.interop.openspiel  # noqa: F401  (registers python_perudo)

    with _no_file_but_the_shipped(), pytest.raises(UnknownVariantError):
        pyspiel.load_game("python_perudo", {"variant": "/dev/zero", "players": 2})


def test_files_are_read_only_when_given_as_path_objects(tmp_path: Path) -> None:
    variant = _house(tmp_path)
    assert perudo.load_variant(tmp_path / "house.toml") == variant
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    for path, problem in [
        (fifo, "not a regular file"),  # opened without blocking, then refused
        (Path("/dev/zero"), "not a regular file"),
        (tmp_path, "not a regular file"),
    ]:
        with pytest.raises(InvalidVariantError, match=problem) as caught:
            perudo.load_variant(path)
        assert str(tmp_path) not in str(caught.value)  # no absolute path echoed
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * MAX_DECLARATION_BYTES, encoding="utf-8")
    with pytest.raises(InvalidVariantError, match="larger than") as caught:
        perudo.load_variant(big)
    with pytest.raises(UnknownVariantError, match="no declaration file") as missing:
        perudo.load_variant(tmp_path / "nope.toml")
    assert str(tmp_path) not in str(caught.value) + str(missing.value)


# --- 2. limits checked before tomllib and json see the text --------------------------------


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("a" + ".a" * 42_000 + " = 1\n", "larger than 65536"),  # took 9 GiB and 66 s
        ("a" + ".a" * 30_000 + " = 1\n", "longer than 2000"),
        ("a" + ".a" * 500 + " = 1\n", "more than 9 parts"),
        ("[" + ".".join(["t"] * 20) + "]\n", "more than 9 parts"),
        ("x = " + "1" * 5000 + "\n", "longer than 2000"),  # int() past 4,300 digits
        ("x = " + "1" * 30 + "\n", "more than 20 digits"),
        ("x = " + "[" * 9 + "]" * 9 + "\n", "nested deeper"),
        ("x = " + "{a = " * 9 + "1" + "}" * 9 + "\n", "nested deeper"),
        ("# comment\n" * 7000, "larger than"),
    ],
)
def test_hostile_toml_is_refused_before_parsing(text: str, problem: str) -> None:
    with pytest.raises(InvalidVariantError, match=problem):
        perudo.variant_from_toml(text)


def test_the_shape_check_reads_strings_and_comments() -> None:
    # dots, brackets and digits inside strings and comments are not keys, arrays or numbers
    text = (variants_dir() / "italian.toml").read_text(encoding="utf-8")
    noisy = text + "\n# a.b.c.d.e.f.g.h.i.j [[[[[[[[[ 1234567890123456789012345\n"
    noisy = noisy.replace('name = "', 'name = "a.b.c.d.e.f.g.h.i.j.k [[[[[[[[[[ ', 1)
    variant = perudo.variant_from_toml(noisy)
    assert variant.name.startswith("a.b.c.d")


def test_records_over_the_limits_are_refused_before_parsing() -> None:
    with pytest.raises(RecordError, match="longer than"):
        GameRecord.from_text("perudo-record 1\n" + "x" * MAX_RECORD_CHARS)
    with pytest.raises(RecordError, match="longer than"):
        GameRecord.from_json("[" + " " * MAX_RECORD_CHARS + "]")
    data = _record().to_dict()
    data["moves"] = [{"player": 0, "action": "dudo"}] * 200_001
    with pytest.raises(RecordError, match="more than 200000 moves"):
        GameRecord.from_dict(data)


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("dice 1 [[1, 1, 1, 1, 1], [2, 2, 2, 2, 2], [3, 3, 3, 3, 3]]", "given twice"),
        ("dice 2 [[1, 1, 1, 1, 1], [2, 2, 2, 2, 2], [3, 3, 3, 3, 3]]", "out of order"),
    ],
)
def test_a_round_has_one_dice_line(line: str, problem: str) -> None:
    state = perudo.new_game("italian", 3, seed=1)
    state = state.with_dice([[6] * 5] * 3).apply(Bid(2, 3)).apply(Dudo())
    state = state.with_dice([[4, 4, 4, 4], [5] * 5, [6] * 5])
    text = GameRecord.from_state(state).to_text()
    assert text.count("\ndice 1 ") == 1
    assert text.count("\ndice 2 ") == 1
    anchor = "dice 2 " if problem == "given twice" else "dice 1 "
    forged = text.replace(anchor, f"{line}\n{anchor}", 1)
    with pytest.raises(RecordError, match=problem):
        GameRecord.from_text(forged)


def test_setting_a_rounds_dice_twice_keeps_one_line() -> None:
    state = perudo.new_game("italian", 2, seed=1)
    state = state.with_dice([[1] * 5, [2] * 5]).with_dice([[3] * 5, [4] * 5])
    assert GameRecord.from_state(state).dice == (((1, ((3,) * 5, (4,) * 5))),)
    assert GameRecord.from_text(GameRecord.from_state(state).to_text()).replay() == state


def test_replay_never_copies_the_rounds_bids(monkeypatch: pytest.MonkeyPatch) -> None:
    # A tuple of the round's bids per bid made replay quadratic (a 2.3 MB record took 34 s).
    state = perudo.new_game("italian", 2, seed=1, first_player=0)
    for quantity in range(1, 3001):
        state = state.apply(Bid(quantity, 2))
    record = GameRecord.from_state(state)
    built = []
    real = BidChain.as_tuple
    monkeypatch.setattr(BidChain, "as_tuple", lambda self: built.append(1) or real(self))
    replayed = record.replay_as(state.variant)
    assert built == []  # nothing in replay builds the round's tuple of bids
    monkeypatch.undo()
    assert replayed == state
    assert len(replayed.bids) == 3000


# --- 3. None is never "the player to act" ---------------------------------------------------


def test_none_is_refused_as_a_seat() -> None:
    state = perudo.new_game("italian", 3, seed=2).apply(Bid(2, 3))
    for call in (
        lambda: state.view(None),  # type: ignore[arg-type]
        lambda: state.apply(Dudo(), by=None),  # type: ignore[arg-type]
        lambda: state.legal_actions(by=None),  # type: ignore[arg-type]
        lambda: state.check(Dudo(), by=None),  # type: ignore[arg-type]
    ):
        with pytest.raises(IllegalActionError, match=r"perudo\.TO_ACT") as caught:
            call()
        assert caught.value.reason == "unknown-seat"
    assert state.view(TO_ACT) == state.view(state.to_act)  # type: ignore[arg-type]
    assert state.apply(Dudo(), by=TO_ACT) == state.apply(Dudo())


def test_a_spectator_sees_no_hand() -> None:
    state = perudo.new_game("italian", 3, seed=5, first_player=0)
    other = state.with_dice([[1, 1, 1, 1, 1], [2, 2, 2, 2, 2], [3, 3, 3, 3, 3]])
    for s in (state, other):
        public = s.apply(Bid(2, 3)).public_view()
        assert public.player is None
        assert public.dice == ()
        assert public.legal_actions == ()
    assert state.apply(Bid(2, 3)).public_view() == other.apply(Bid(2, 3)).public_view()
    with pytest.raises(EncodingError, match="spectator"):
        perudo.encoding.observation_encoding("italian", 3).encode(state.public_view())


# --- 4. seeds, per-player records and signatures -------------------------------------------


def test_a_player_record_holds_no_seed_and_no_hidden_die() -> None:
    state = perudo.new_game("italian", 3, seed=11, first_player=0)
    hands = [[1, 2, 3, 4, 5], [6, 6, 6, 6, 6], [2, 2, 2, 2, 2]]
    state = state.with_dice(hands).apply(Bid(2, 3)).apply(Dudo())
    state = state.apply(Bid(2, 4))
    mine = GameRecord.from_state(state).for_player(1)
    data = mine.to_dict()
    assert "seed" not in data
    assert [r["hand"] for r in data["rounds"]] == [[6, 6, 6, 6, 6], list(state.players[1].dice)]
    assert data["rounds"][0]["result"] == state.last_result.to_dict()  # type: ignore[union-attr]
    assert data["rounds"][1]["result"] is None
    assert data["rounds"][1]["moves"] == [{"player": 1, "action": "2x4"}]
    # the round in progress shows only this player's hand
    text = mine.to_json()
    for seat in (0, 2):
        assert (
            str(list(state.players[seat].dice))
            not in text.split('"rounds"')[1].split('"round": 2')[1]
        )
    with pytest.raises(RecordError, match="not a seat"):
        GameRecord.from_state(state).for_player(3)


def test_the_server_how_to_uses_secure_seeds() -> None:
    text = (Path(__file__).parent.parent / "docs" / "howto" / "server.md").read_text("utf-8")
    assert "seed=None" in text
    assert "seed=3" not in text


def test_signed_records_refuse_forgery() -> None:
    record = _record()
    text = record.to_text(key=KEY)
    assert GameRecord.from_text(text, key=KEY) == record
    forged = text.replace("2 1 3x3", "2 1 3x4")
    assert GameRecord.from_text(forged) != record  # unsigned reading: no check
    with pytest.raises(RecordError, match="does not match"):
        GameRecord.from_text(forged, key=KEY)
    with pytest.raises(RecordError, match="does not match"):
        GameRecord.from_text(text, key=b"another key, also of 32 bytes")
    with pytest.raises(RecordError, match="not signed"):
        GameRecord.from_text(record.to_text(), key=KEY)
    as_json = record.to_json(key=KEY)
    assert GameRecord.from_json(as_json, key=KEY) == record
    with pytest.raises(RecordError, match="does not match"):
        GameRecord.from_json(as_json.replace('"3x3"', '"3x4"'), key=KEY)
    state = record.replay()
    assert state_from_dict(state_to_dict(state, key=KEY), key=KEY) == state
    with pytest.raises(RecordError, match="not signed"):
        state_from_dict(state_to_dict(state), key=KEY)
    with pytest.raises(RecordError, match="a bytes value, not str"):
        record.to_text(key="text")  # type: ignore[arg-type]


def test_a_forged_dice_line_is_caught_by_the_signature() -> None:
    state = perudo.new_game("italian", 2, seed=3, first_player=0)
    state = state.with_dice([[2, 2, 2, 2, 2], [3, 3, 3, 3, 3]]).apply(Bid(4, 2)).apply(Dudo())
    text = GameRecord.from_state(state).to_text(key=KEY)
    forged = text.replace(
        "[[2, 2, 2, 2, 2], [3, 3, 3, 3, 3]]", "[[3, 3, 3, 3, 3], [3, 3, 3, 3, 3]]"
    )
    assert GameRecord.from_text(forged).replay().last_result.loser == 0  # type: ignore[union-attr]
    with pytest.raises(RecordError, match="does not match"):
        GameRecord.from_text(forged, key=KEY)


# --- 5. long games, errors across processes, bounded caches and messages --------------------


def _long_game() -> GameState:
    state = perudo.new_game("italian", 2, seed=1, first_player=0)
    for quantity in range(1, 2001):  # Italian has no cap: one round of 2,000 raises
        state = state.apply(Bid(quantity, 2))
    return state.apply(Dudo())


def test_states_of_any_length_pickle_and_deep_copy() -> None:
    state = _long_game()
    assert len(state.log.moves) == 2001
    assert pickle.loads(pickle.dumps(state)) == state
    assert copy.deepcopy(state) == state
    during = GameRecord.from_state(state).replay_as(state.variant)
    assert GameRecord.from_state(pickle.loads(pickle.dumps(during))) == GameRecord.from_state(state)


def _refuse(move: str) -> None:
    perudo.new_game("italian", 2, seed=1, first_player=0).apply(perudo.parse_action(move), by=1)


def test_every_error_pickles_and_crosses_a_process_pool() -> None:
    errors: list[PerudoError] = [
        IllegalActionError("bid-too-low", "2x3 does not raise 2x5", action=Bid(2, 3), player=1),
        RecordError("move 3 is illegal", reason="not-your-turn", move=3, player=2),
        InvalidVariantError("house.toml: [cap] kind: missing"),
        UnknownVariantError("unknown edition 'x'"),
        GameSetupError("seed 'x' is not an integer"),
        EncodingError("3 is not an action number"),
        PerudoError("base"),
    ]
    for error in errors:
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error)
        assert str(back) == str(error)
        assert back.__dict__ == error.__dict__
    with ProcessPoolExecutor(max_workers=1) as pool:
        future = pool.submit(_refuse, "3x3")
        with pytest.raises(IllegalActionError) as caught:
            future.result()
        assert caught.value.reason == "not-your-turn"
        assert caught.value.player == 1
        assert pool.submit(str, 1).result() == "1"  # the pool still works


def test_editions_leave_no_trace_once_dropped(tmp_path: Path) -> None:
    variant = _house(tmp_path)
    state = perudo.new_game(variant, 3, seed=1).apply(Bid(2, 3)).apply(Dudo())
    assert state.variant.fingerprint.startswith("sha256:")
    assert state.context.wild == 1
    dropped = weakref.ref(variant)
    del variant, state
    gc.collect()
    assert dropped() is None  # no module-level table keeps house rules alive


@pytest.mark.parametrize(
    "call",
    [
        lambda: perudo.parse_action("x" * 10_000_000),
        lambda: Bid(10**5000, 2),
        lambda: Bid(3, "6" * 1_000_000),  # type: ignore[arg-type]
        lambda: perudo.load_variant("a" * 1_000_000),
        lambda: perudo.new_game("italian", ["A" * 1_000_000, "B"]),
        lambda: perudo.new_game("italian", 3).apply(Bid(2, 3), by="9" * 1_000_000),  # type: ignore[arg-type]
        lambda: GameRecord.from_text("perudo-record 1\n" + "q" * 1_000_000 + "\nend 0\n"),
    ],
)
def test_messages_quote_a_bounded_prefix(call: object) -> None:
    with pytest.raises(PerudoError) as caught:
        call()  # type: ignore[operator]
    assert len(str(caught.value)) < 300


def test_large_tables_are_safe_under_threads() -> None:
    variant = perudo.load_variant("italian")
    data = variant.to_dict()
    data["key"], data["players"]["max"], data["dice"]["per_player"] = "big", 20, 20
    table = perudo.Variant.from_dict(data)
    states = [perudo.new_game(table, 20, seed=seed).apply(Bid(1, 2)) for seed in range(16)]
    expected = [s.legal_actions() for s in states]
    assert len(expected[0]) > 6 * 390  # bids up to 400 dice

    def fresh(state: GameState) -> tuple[perudo.Action, ...]:
        return state_from_dict(state_to_dict(state), variant=table).legal_actions()

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert list(pool.map(fresh, states * 4)) == expected * 4


# --- 7. the fuzz targets, on their seed inputs ------------------------------------------


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_fuzz_targets_run_on_their_seed_corpus(name: str) -> None:
    for data in seed_corpus()[name]:
        TARGETS[name](data)
