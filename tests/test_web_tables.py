"""perudo.web's tables and their store: saved before a move is answered, rebuilt after a
crash, seats that belong to their tokens, a stand-in bot after the timeout."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
from pathlib import Path

import pytest

import perudo
from perudo.errors import GameSetupError, RecordError, StoreError
from perudo.record import GameRecord
from perudo.web import StoredTable, Table, TableSetup, TableStore, server_key

KEY = bytes(range(32))
VARIANTS = {key: perudo.load_variant(key) for key in ("italian", "bluff", "wango-party")}


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _table(tmp_path: Path, *, variant: str = "italian",
           bots: tuple[str | None, ...] = (None, "odds", "odds"),
           seed: int = 7, timeout: float = 30.0, clock: Clock | None = None) -> Table:  # fmt: skip
    store = TableStore(tmp_path / "perudo.sqlite")
    setup = TableSetup(variant=variant, bots=tuple(bots), seed=seed, timeout=timeout)
    return Table.create(store, KEY, "t1", setup, VARIANTS[variant], clock=clock or Clock())


def _reopened(tmp_path: Path, clock: Clock | None = None) -> list[Table]:
    """The tables as a server rebuilds them on start, from a new connection to the file
    (the old one is left open, as a killed process leaves it)."""
    store = TableStore(tmp_path / "perudo.sqlite")
    return [Table.load(store, KEY, row, VARIANTS, clock=clock or Clock()) for row in store.tables()]


def _play_person(table: Table, seat: int) -> None:
    """The person at ``seat`` makes their first legal move (a Dudo where one is legal)."""
    legal = table.message(seat)["legal"]
    assert table.play(seat, legal[0]) is None


def test_the_key_is_made_once_for_its_owner_alone_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "perudo.key"
    key = server_key(path)
    assert len(key) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert server_key(path) == key
    os.chmod(path, 0o644)
    with pytest.raises(StoreError, match="chmod 600"):
        server_key(path)
    os.chmod(path, 0o600)
    path.write_text("not a key\n")
    with pytest.raises(StoreError, match="does not hold a key"):
        server_key(path)


def test_a_file_that_is_not_a_store_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "perudo.sqlite"
    path.write_bytes(b"this is not a database, at least not sqlite's" * 100)
    path.chmod(0o600)
    with pytest.raises(StoreError, match="not a table store"):
        TableStore(path)


def test_every_accepted_move_is_in_the_store_when_play_returns(tmp_path: Path) -> None:
    table = _table(tmp_path)
    seat, token = table.join("Ana")
    assert seat == 0
    assert token is not None
    moves = 0
    while not table.state.is_over and moves < 400:
        if table.to_act == 0:
            _play_person(table, 0)
        else:
            assert table.bots_move()
        moves += 1
        if table.state.is_over:
            break
        (rebuilt,) = _reopened(tmp_path)  # after every move, as a crash would leave it
        assert GameRecord.from_state(rebuilt.state) == GameRecord.from_state(table.state)
    assert table.state.is_over
    store = TableStore(tmp_path / "perudo.sqlite")
    assert list(store.tables()) == []  # a finished table leaves the active ones
    row = store.closed("t1")  # and is kept for its record
    assert row is not None
    assert row.over
    assert row.closed is not None
    assert GameRecord.from_text(row.record, key=KEY) == GameRecord.from_state(table.state)


def test_a_rebuilt_table_gives_its_seat_back_to_the_token_and_plays_on(tmp_path: Path) -> None:
    table = _table(tmp_path, bots=(None, None, "odds"))
    _, ana = table.join("Ana")
    _, bea = table.join("Bea")
    assert table.join("Cy") == (None, None)  # the people's seats are taken: a spectator
    while table.bots_move():
        pass
    (rebuilt,) = _reopened(tmp_path)
    assert rebuilt.names()[:2] == ["Ana", "Bea"]
    assert rebuilt.join("Mallory", token="a guess") == (None, None)
    assert rebuilt.join("Someone", token=bea) == (1, bea)
    assert rebuilt.join("Anyone", token=ana) == (0, ana)
    seat = rebuilt.to_act
    assert seat in (0, 1)
    _play_person(rebuilt, seat)  # play goes on
    assert GameRecord.from_state(_reopened(tmp_path)[0].state) == GameRecord.from_state(
        rebuilt.state
    )


def test_a_dropped_persons_turn_waits_the_timeout_then_a_bot_plays_it(tmp_path: Path) -> None:
    clock = Clock()
    table = _table(tmp_path, bots=(None, "odds"), timeout=30, clock=clock)
    table.join("Ana")
    while table.bots_move():
        pass
    assert table.to_act == 0
    table.leave(0)
    clock.now += 29
    assert not table.bots_move()  # the turn waits
    assert table.stood_in() == []
    clock.now += 1
    assert table.stood_in() == [0]
    assert table.message(1)["stood_in"] == [0]  # the table shows it
    assert table.bots_move()  # a bot plays for Ana
    assert table.state.log.lates == (len(table.state.log.moves),)  # recorded as made for her
    assert table.join("Eve", token=None) == (None, None)  # a page without the token: no seat


def test_a_seat_sees_only_its_own_view_in_every_message(tmp_path: Path) -> None:
    for variant, bots in (("italian", (None, "odds", "odds")), ("wango-party", (None, "odds")),
                          ("bluff", (None, "odds", "random"))):  # fmt: skip
        folder = tmp_path / variant
        folder.mkdir()
        table = _table(folder, variant=variant, bots=bots, seed=11)
        table.join("Ana")
        messages = 0
        while not table.state.is_over and messages < 600:
            for seat in (None, *range(len(bots))):
                message = table.message(seat)
                view = table.state.public_view() if seat is None else table.state.view(seat)
                assert message["view"] == view.to_dict()
                assert message["seat"] == seat
                messages += 1
            if table.to_act == 0 or table.waiting_for() == 0:
                legal = table.message(0)["legal"]
                assert table.play(0, legal[-1]) is None
            else:
                assert table.bots_move()
        assert table.state.is_over, variant


def test_a_refused_move_is_returned_with_its_reason_and_changes_nothing(tmp_path: Path) -> None:
    table = _table(tmp_path, bots=(None, "odds"))
    table.join("Ana")
    while table.to_act != 1:
        if table.to_act == 0:
            _play_person(table, 0)
    before = table.state
    refusal = table.play(0, "3x5")
    assert refusal is not None
    assert refusal.reason == "not-your-turn"
    assert table.play(0, "nonsense" * 1000) is not None
    assert table.play(0, "pass") is not None
    assert table.state is before


def test_the_record_is_signed_with_the_servers_key(tmp_path: Path) -> None:
    table = _table(tmp_path)
    text = table.record_text()
    assert GameRecord.from_text(text, key=KEY).seed == 7
    with pytest.raises(RecordError):
        GameRecord.from_text(text, key=b"another key of thirty-two bytes!")


def test_a_bad_setup_is_refused_with_a_sentence() -> None:
    with pytest.raises(GameSetupError, match="not a bot"):
        TableSetup(variant="italian", bots=(None, "nobody"))
    with pytest.raises(GameSetupError, match="at least one person"):
        TableSetup(variant="italian", bots=("odds", "odds"))
    with pytest.raises(GameSetupError, match="timeout"):
        TableSetup(variant="italian", bots=(None, "odds"), timeout=-1)
    with pytest.raises(GameSetupError, match="2 to 20 seats"):
        TableSetup.from_dict({"variant": "italian", "bots": [None] * 21})
    with pytest.raises(GameSetupError, match="64 bits"):
        TableSetup(variant="italian", bots=(None, "odds"), seed=2**64)


def test_a_broken_row_is_refused_naming_its_table(tmp_path: Path) -> None:
    table = _table(tmp_path)
    db = sqlite3.connect(tmp_path / "perudo.sqlite")
    db.execute("UPDATE perudo_tables SET record = replace(record, 'seed 7', 'seed 8')")
    db.commit()
    store = TableStore(tmp_path / "perudo.sqlite")
    (row,) = store.tables()
    with pytest.raises(StoreError, match="t1"):
        Table.load(store, KEY, row, VARIANTS)
    setup = {"variant": "nope", "bots": [None, "odds"]}
    store.save(StoredTable(id="t2", created=0.0, setup=setup, people={}, record="",
                           over=False).signed(KEY))  # fmt: skip
    rows = {row.id: row for row in store.tables()}
    with pytest.raises(StoreError, match="does not offer"):
        Table.load(store, KEY, rows["t2"], VARIANTS)
    assert table.id == "t1"


def test_names_are_checked(tmp_path: Path) -> None:
    table = _table(tmp_path)
    for bad in ("", " ", "x" * 25, "a\x1b[31m", 7):
        with pytest.raises(GameSetupError):
            table.join(bad)  # type: ignore[arg-type]
    assert table.join(" Ana ")[0] == 0
    assert table.names()[0] == "Ana"


def test_serve_without_the_web_extra_names_it(capsys: pytest.CaptureFixture[str]) -> None:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        from perudo.cli import main

        assert main(["serve", "--port", "1"]) == 2
        assert "perudo[web]" in capsys.readouterr().err
    else:
        pytest.skip("the web extra is installed: tests/test_serve.py serves")


def test_people_play_under_their_names_once_every_seat_is_taken(tmp_path: Path) -> None:
    table = _table(tmp_path, bots=(None, None, "odds"))
    table.join("Ana")
    refusal = table.play(table.to_act or 0, "1x2")
    assert refusal is not None
    assert "every seat" in str(refusal)  # the game waits for Ben
    with pytest.raises(GameSetupError, match="taken"):
        table.join("ana")
    table.join("Ben")
    assert [player.name for player in table.state.players] == ["Ana", "Ben", "Odds bot 3"]
    assert table.state.log.dice == perudo.new_game("italian", 3, seed=7).log.dice  # same deal


# --- the store: private to its user, signed, and refused when another program wrote it ---


def test_a_new_store_and_its_companions_are_private_and_a_shared_one_is_refused(
    tmp_path: Path,
) -> None:
    path = tmp_path / "perudo.sqlite"
    _table(tmp_path)  # a store made, a row written
    for made in (path, path.with_name("perudo.sqlite-wal"), path.with_name("perudo.sqlite-shm")):
        assert stat.S_IMODE(made.stat().st_mode) == 0o600, made
    path.chmod(0o644)  # every local user could read the seeds
    with pytest.raises(StoreError, match="chmod 600"):
        TableStore(path)
    path.chmod(0o600)
    path.with_name("perudo.sqlite-wal").chmod(0o666)
    with pytest.raises(StoreError, match="read or written by others"):
        TableStore(path)


def test_a_store_or_key_another_user_owns_or_a_link_is_refused(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root to give a file to another user")
    for name, opened in (("perudo.sqlite", TableStore), ("perudo.key", server_key)):
        planted = tmp_path / name
        planted.write_text("" if name.endswith("sqlite") else "ab" * 32)
        planted.chmod(0o600)
        os.chown(planted, 65534, 65534)  # nobody's: planted in a shared folder
        with pytest.raises(StoreError, match="another user"):
            opened(planted)
        planted.unlink()
    target = tmp_path / "elsewhere.key"
    server_key(target)
    (tmp_path / "link.key").symlink_to(target)
    with pytest.raises(StoreError, match="not a plain file"):
        server_key(tmp_path / "link.key")


def test_a_row_changed_without_the_key_does_not_rebuild(tmp_path: Path) -> None:
    table = _table(tmp_path, bots=(None, "odds", "odds"))
    table.join("Ana")
    (signed,) = TableStore(tmp_path / "perudo.sqlite").tables()
    assert Table.load(table._store, KEY, signed, VARIANTS).names()[0] == "Ana"  # as written
    forged_token = "a token the forger knows"
    forged = hashlib.sha256(forged_token.encode()).hexdigest()
    db = sqlite3.connect(tmp_path / "perudo.sqlite")
    (people,) = db.execute("SELECT people FROM perudo_tables").fetchone()
    seats = json.loads(people)
    seats["seats"][0]["token"] = forged  # whoever can write the file takes Ana's seat
    db.execute("UPDATE perudo_tables SET people = ?", (json.dumps(seats),))
    db.commit()
    db.close()
    store = TableStore(tmp_path / "perudo.sqlite")
    (row,) = store.tables()
    with pytest.raises(StoreError, match="not signed by this server's key"):
        Table.load(store, KEY, row, VARIANTS)


@pytest.mark.parametrize(
    "forge",
    [
        "UPDATE perudo_tables SET created = 'yesterday'",
        "UPDATE perudo_tables SET over = 7",
        "UPDATE perudo_tables SET setup = '" + "[" * 5000 + "]" * 5000 + "'",
        "UPDATE perudo_tables SET record = zeroblob(10)",
        "UPDATE perudo_tables SET id = x'0102'",
        "CREATE TRIGGER spy AFTER INSERT ON perudo_tables BEGIN SELECT 1; END",
        "CREATE TABLE extra (x)",
        "ALTER TABLE perudo_tables RENAME TO old; CREATE VIEW perudo_tables AS WITH RECURSIVE "
        "n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT 'x' || i AS id, 0.0 AS created, "
        "'{}' AS setup, '{}' AS people, '' AS record, 0 AS over, NULL AS closed, '' AS creator, "
        "'' AS signature FROM n",
    ],
)
def test_a_store_another_program_wrote_is_a_store_error_and_exit_2(
    tmp_path: Path, forge: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _table(tmp_path)
    db = sqlite3.connect(tmp_path / "perudo.sqlite")
    db.executescript(forge)
    db.commit()
    db.close()
    with pytest.raises(StoreError):
        list(TableStore(tmp_path / "perudo.sqlite").tables())
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from perudo.cli import main

    db_path = str(tmp_path / "perudo.sqlite")
    assert main(["serve", "--db", db_path, "--port", "1", "--variant", "italian"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("perudo: ")
    assert "Traceback" not in err


def test_an_editions_own_word_pass_wins_over_the_tables(tmp_path: Path) -> None:
    """Regression: the table read ``pass`` as "let the option go" before the edition's own
    action of that name (here the edition calls its Dudo "Pass"), and refused it."""
    edition = perudo.load_variant("italian").derive(
        "pass-italian", reason="a test", words={"dudo": "Pass"}
    )
    store = TableStore(tmp_path / "perudo.sqlite")
    setup = TableSetup(variant=edition.key, bots=(None, None), timeout=3600.0)
    table = Table.create(store, KEY, "t1", setup, edition, clock=Clock())
    table.join("Ana")
    table.join("Ben")
    opener = table.to_act
    assert opener is not None
    assert table.play(opener, "1x2") is None
    assert table.play(1 - opener, "pass") is None  # the edition's Pass: a Dudo
    assert table.state.last_result is not None
    assert table.state.round_number == 2
