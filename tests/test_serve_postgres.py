"""Several ``perudo serve`` processes on one PostgreSQL database (``--db postgresql://...``),
against a real PostgreSQL server started on 127.0.0.1 from Debian's package and stopped
after: each table served by the process that holds its lease, a save refused without it,
a page that reaches the wrong process sent to the right one, and the tables of a process
killed with SIGKILL taken by another with every acknowledged move."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
psycopg = pytest.importorskip("psycopg", reason="the postgres extra is not installed")
websockets = pytest.importorskip("websockets", reason="websockets comes with the web extra")
from pg_server import binaries, postgresql  # noqa: E402
from web_server import Server, next_message  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import InvalidStatus  # noqa: E402

from perudo.errors import StoreError  # noqa: E402
from perudo.web import StoredTable  # noqa: E402
from perudo.web.postgres import PostgresStore  # noqa: E402

if binaries() is None:  # .ci/run installs Debian's postgresql; a developer may not have it
    pytest.skip("no PostgreSQL server (apt-get install postgresql)", allow_module_level=True)

KEY = b"k" * 32
_numbers = itertools.count()


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    with postgresql() as url:
        yield url


@pytest.fixture
def database(server_url: str) -> str:
    """A database of its own for each test, on the module's server."""
    name = f"perudo_{next(_numbers)}"
    with psycopg.connect(server_url, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    return server_url.rsplit("/", 1)[0] + f"/{name}"


def _row(table_id: str, record: str = "") -> StoredTable:
    return StoredTable(id=table_id, created=time.time(), setup={"variant": "italian"},
                       people={}, record=record, over=False).signed(KEY)  # fmt: skip


def test_a_table_is_written_only_under_its_lease(database: str) -> None:
    first = PostgresStore(database, KEY, address="http://127.0.0.1:8001", lease=1.0)
    second = PostgresStore(database, KEY, address="http://127.0.0.1:8002", lease=1.0)
    try:
        assert first.claim("t1")
        assert not second.claim("t1")  # held
        first.save(_row("t1", "one"))
        with pytest.raises(StoreError, match="served by another process now"):
            second.save(_row("t1", "two"))
        (stored,) = second.tables()
        assert stored.record == "one"
        assert stored.is_signed_by(KEY)
        assert second.holder_address("t1") == "http://127.0.0.1:8001"
        assert first.holder_address("t1") is None  # its own: nowhere else to go
        assert second.addresses() == {"http://127.0.0.1:8001", "http://127.0.0.1:8002"}
        assert second.orphans() == []
        # the first stops renewing (as a killed process would): its lease runs out
        time.sleep(1.2)
        assert second.renew() == set()
        assert [row.id for row in second.orphans()] == ["t1"]
        assert second.claim("t1")
        assert first.renew() == set()  # lost
        with pytest.raises(StoreError, match="lease ran out"):
            first.save(_row("t1", "late"))
        second.save(_row("t1", "two"))
        assert [row.record for row in first.tables()] == ["two"]
        # an address nobody signed with the key is never where a page is sent
        with psycopg.connect(database, autocommit=True) as db:
            db.execute("UPDATE perudo_servers SET url = 'http://evil.example' WHERE url = "
                       "'http://127.0.0.1:8002'")  # fmt: skip
        assert first.holder_address("t1") is None
        assert first.addresses() == {"http://127.0.0.1:8001"}
    finally:
        first.close()
        second.close()


def test_a_postgresql_store_wants_the_shared_key_and_a_database_it_can_reach(
    tmp_path: Path, database: str
) -> None:
    from perudo.web.app import TableServer

    with pytest.raises(StoreError, match="needs --key FILE"):
        TableServer(database, {})
    with pytest.raises(StoreError, match="cannot be used"):
        PostgresStore(database.rsplit("/", 1)[0] + "/nowhere", KEY, address="http://x")


async def _view(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message = await next_message(ws)
        if message["type"] == "view":
            return message


@pytest.mark.slow
def test_two_servers_share_the_tables_and_one_takes_the_others_after_a_sigkill(
    tmp_path: Path, database: str
) -> None:
    key = tmp_path / "shared.key"
    common = ("--db", database, "--key", str(key), "--limit", "lease=2", "--variant", "italian")
    first = Server(tmp_path / "a", *common)
    second = Server(tmp_path / "b", *common)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first.start()  # makes the key file; the second reads it
    second.start()
    try:
        table = first.table([None, "odds"], seed=4)
        assert second.get(f"/tables/{table}")[0] == 200  # known there too: not a 404
        assert second.get("/tables/nothing")[0] == 404

        async def go() -> None:
            async with connect(first.socket_url(table, "name=Ana")) as ana:
                message = await _view(ana)
                token = message["token"]
                acknowledged: list[str] = []
                while len(acknowledged) < 3:  # three of Ana's moves, each answered
                    if message["view"]["to_act"] == 0 and message["legal"]:
                        move = message["legal"][0]
                        await ana.send(json.dumps({"move": move}))
                        message = await _view(ana)
                        acknowledged.append(move)
                    else:
                        message = await _view(ana)
                moves = len([line for line in message["log"] if line["kind"] == "move"])
                log = await _whole_log(first, table)
            # a page at the wrong server is sent to the right one
            async with connect(second.socket_url(table, f"token={token}")) as lost:
                moved = await next_message(lost)
                assert moved == {"type": "moved", "url": f"http://127.0.0.1:{first.port}"}
            first.kill()  # SIGKILL: no lease renewed after this
            deadline = time.monotonic() + 30
            while True:  # the second takes the table once the lease has run out
                try:
                    async with connect(second.socket_url(table, f"token={token}")) as back:
                        first_message = await next_message(back)
                        if first_message["type"] == "view":
                            break
                    assert first_message["type"] == "moved"  # the dead one's, until it ran out
                except InvalidStatus:  # between the two: refused until taken
                    pass
                assert time.monotonic() < deadline, "the table was never taken"
                await asyncio.sleep(0.5)
            assert first_message["seat"] == 0
            kept = first_message["log"]
            assert kept[: len(log)] == log  # every acknowledged move kept
            assert len([line for line in kept if line["kind"] == "move"]) >= moves
            async with connect(second.socket_url(table, f"token={token}")) as ana:
                message = await _view(ana)
                while not (message["view"]["to_act"] == 0 and message["legal"]):
                    message = await _view(ana)
                await ana.send(json.dumps({"move": message["legal"][0]}))
                after = await next_message(ana)
                assert after["type"] == "view"  # play goes on at the second server

        asyncio.run(go())
    finally:
        second.stop()
        if first.process is not None and first.process.poll() is None:
            first.stop()


async def _whole_log(server: Server, table: str) -> list[dict[str, Any]]:
    async with connect(server.socket_url(table, "")) as watcher:
        return list((await _view(watcher))["log"])


@pytest.mark.slow
def test_a_page_at_the_wrong_server_plays_at_the_right_one_in_a_browser(
    tmp_path: Path, database: str
) -> None:
    import shutil

    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no system Chromium (apt-get install chromium)")
    key = tmp_path / "shared.key"
    common = ("--db", database, "--key", str(key), "--variant", "italian")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = Server(tmp_path / "a", *common), Server(tmp_path / "b", *common)
    first.start()
    second.start()
    try:
        table = first.table([None, "odds"], seed=9)
        time.sleep(1.5)  # each server has read the other's address (its sweep, every second)
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            try:
                page = browser.new_page()
                page.goto(f"{second.url}/tables/{table}")  # the wrong server
                page.fill("#name", "Ana")
                page.click("#join button[type=submit]")
                status = "document.getElementById('status').textContent"
                page.wait_for_function(f"{status}.startsWith('You are Ana')", timeout=20_000)
                moved = page.evaluate(
                    "window.perudoMessages.filter((m) => m.type === 'moved').map((m) => m.url)"
                )
                assert moved == [first.url]
                page.wait_for_function(f"{status}.endsWith('your turn')", timeout=20_000)
                page.click("#bid")
                page.wait_for_function(
                    "window.perudoMessages.some((m) => m.view && m.view.bids.some("
                    "(b) => b.player === 0))", timeout=20_000,
                )  # fmt: skip
            finally:
                browser.close()
    finally:
        first.stop()
        second.stop()
