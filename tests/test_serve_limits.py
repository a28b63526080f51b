"""``perudo serve`` against one anonymous client: each test is the regression test of one
finding of the audit of a server facing the open network (tables that fill up for good,
endless request heads, idle sockets, tables that play themselves, a player who never
moves, a chosen seed, the record route, DNS rebinding, hostile JSON and frames).

The server runs on 127.0.0.1 with small limits (``--limit``); attackers and honest people
come from other loopback addresses (127.0.0.2, ...), so the limits per address count them
apart. Every loop is bounded in count and time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")
websockets = pytest.importorskip("websockets", reason="websockets comes with the web extra")
from web_server import Server, next_message, serving  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402

from perudo.record import GameRecord  # noqa: E402

pytestmark = pytest.mark.slow  # each starts a server


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _raw(server: Server, source: str = "127.0.0.1") -> socket.socket:
    """A TCP connection to ``server`` from ``source``, nothing sent."""
    sock = socket.create_connection((server.host, server.port), timeout=10,
                                    source_address=(source, 0))  # fmt: skip
    return sock


def _answer(sock: socket.socket, within: float = 10.0) -> bytes:
    """What the server sends on ``sock`` until it closes it (or ``within`` seconds)."""
    sock.settimeout(within)
    data = b""
    deadline = time.monotonic() + within
    with contextlib.suppress(OSError):
        while time.monotonic() < deadline:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    return data


async def _until(ws: ClientConnection, done: Any, timeout: float = 60.0) -> dict[str, Any]:
    """The first message ``done`` accepts, within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        message = await next_message(ws, max(0.1, deadline - time.monotonic()))
        if done(message):
            return message


async def _closed(ws: ClientConnection) -> ConnectionClosed:
    """How the server closed ``ws`` (what it sent before is read and dropped)."""
    try:
        for _ in range(1000):
            await next_message(ws)
    except ConnectionClosed as closed:
        return closed
    raise AssertionError("the connection stayed open")


def _over(message: dict[str, Any]) -> bool:
    return message.get("type") == "view" and bool(message["view"]["winners"])


# --- 1. tables fill up for good --------------------------------------------------------


def test_active_tables_are_capped_per_address_and_a_finished_one_leaves(tmp_path: Path) -> None:
    server = Server(tmp_path, "--limit", "tables=4", "--limit", "tables_per_address=2")
    server.start()
    try:
        quick = server.table([None, "odds"], timeout=0, source="127.0.0.2")
        server.table([None, "odds"], source="127.0.0.2")
        status, body = server.post("/api/tables", {"variant": "italian", "bots": [None, "odds"]},
                                   source="127.0.0.2")  # fmt: skip
        assert status == 400  # the third from one address
        assert b"one address" in body
        server.table([None, "odds"], source="127.0.0.3")
        server.table([None, "odds"], source="127.0.0.3")
        status, body = server.post("/api/tables", {"variant": "italian", "bots": [None, "odds"]},
                                   source="127.0.0.4")  # fmt: skip
        assert status == 400  # the server is full
        assert b"4 active tables" in body

        async def finish() -> None:  # a page at the table: the stand-in plays every turn
            async with connect(server.socket_url(quick, "name=Ana")) as ana:
                await _until(ana, _over)

        asyncio.run(finish())
        again = server.table([None, "odds"], source="127.0.0.4")  # the finished one left
        server.kill()
        server.start()  # the finished table is not counted again after a restart
        status, body = server.post("/api/tables", {"variant": "italian", "bots": [None, "odds"]},
                                   source="127.0.0.5")  # fmt: skip
        assert status == 400
        assert b"4 active tables" in body
        listed = [row["id"] for row in json.loads(server.get("/api/tables")[1])["tables"]]
        assert quick not in listed
        assert again in listed
        assert len(listed) == 4
        status, record = server.get(f"/tables/{quick}/record")  # kept for its record
        assert status == 200
        assert record.startswith(b"perudo-record")
    finally:
        server.stop()


def test_an_abandoned_table_is_closed_and_the_closed_ones_are_bounded(tmp_path: Path) -> None:
    with serving(tmp_path, "--limit", "idle=1", "--limit", "archive=2") as server:
        tables = [server.table([None, "odds"]) for _ in range(4)]

        async def go() -> None:
            async with connect(server.socket_url(tables[0], "")) as watcher:
                await next_message(watcher)
                await asyncio.sleep(3.5)  # past the idle limit and a sweep
                listed = [row["id"] for row in json.loads(server.get("/api/tables")[1])["tables"]]
                assert listed == [tables[0]]  # a page open: still active; the rest closed
            with pytest.raises(InvalidStatus):  # a closed table is no table to join
                await connect(server.socket_url(tables[1], "name=Ana"))

        asyncio.run(go())
        db = sqlite3.connect(f"file:{tmp_path / 'perudo.sqlite'}?mode=ro", uri=True)
        closed = db.execute("SELECT count(*) FROM perudo_tables WHERE closed IS NOT NULL")
        assert closed.fetchone()[0] == 2  # the archive keeps the two most recently closed
        db.close()


# --- 2 and 3. request heads and idle sockets ---------------------------------------------


def test_an_endless_request_head_is_refused_past_16_kb(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        assert server.process is not None
        before = _rss_kib(server.process.pid)
        sock = _raw(server, "127.0.0.2")
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        line, sent = b"X-Padding: " + b"a" * 1000 + b"\r\n", 0
        with contextlib.suppress(OSError):
            while sent < 200_000_000:  # what filled the server before
                sock.sendall(line * 64)
                sent += len(line) * 64
        answer = _answer(sock)
        sock.close()
        assert sent < 20_000_000, sent  # the server stopped reading long before
        assert answer == b"" or answer.startswith(b"HTTP/1.1 400"), answer[:100]
        assert _rss_kib(server.process.pid) - before < 30_000  # KiB
        assert server.get("/api/tables")[0] == 200


def test_a_request_head_or_handshake_that_never_ends_is_closed_at_its_deadline(
    tmp_path: Path,
) -> None:
    with serving(tmp_path, "--limit", "head_timeout=1") as server:
        table = server.table([None, "odds"])
        starts = [
            b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n",  # a page, its head never finished
            f"GET /tables/{table}/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            .encode(),  # a WebSocket handshake, never finished
            b"",  # nothing at all
        ]  # fmt: skip
        for start in starts:
            sock = _raw(server, "127.0.0.2")
            sock.sendall(start)
            began = time.monotonic()
            answer = _answer(sock, within=15)
            sock.close()
            assert answer.startswith(b"HTTP/1.1 408"), answer[:100]
            assert time.monotonic() - began < 10


def test_connections_are_capped_per_address_and_on_the_server(tmp_path: Path) -> None:
    limits = ("--limit", "connections_per_address=5", "--limit", "connections=12",
              "--limit", "head_timeout=60")  # fmt: skip
    with serving(tmp_path, *limits) as server:
        idle = [_raw(server, "127.0.0.2") for _ in range(5)]
        time.sleep(0.3)
        extra = _raw(server, "127.0.0.2")
        assert _answer(extra).startswith(b"HTTP/1.1 503")  # a sixth from one address
        extra.close()
        assert server.get("/api/tables", source="127.0.0.3")[0] == 200  # others still served
        idle += [_raw(server, "127.0.0.3") for _ in range(5)]
        idle += [_raw(server, "127.0.0.4") for _ in range(2)]
        time.sleep(0.3)
        full = _raw(server, "127.0.0.5")
        assert _answer(full).startswith(b"HTTP/1.1 503")  # twelve open: the server's cap
        full.close()
        for sock in idle:
            sock.close()
        time.sleep(0.3)
        assert server.get("/api/tables", source="127.0.0.5")[0] == 200  # released
        table = server.table([None, "odds"])

        async def spectators() -> None:  # silent spectators count too
            pages = [await connect(server.socket_url(table, ""), local_addr=("127.0.0.6", 0))
                     for _ in range(5)]  # fmt: skip
            with pytest.raises((InvalidStatus, OSError, EOFError, ConnectionClosed)):
                await connect(server.socket_url(table, ""), local_addr=("127.0.0.6", 0))
            async with connect(server.socket_url(table, "name=Ana")) as ana:  # another address
                assert (await next_message(ana))["seat"] == 0
            for page in pages:
                await page.close()

        asyncio.run(spectators())


# --- 4. tables that play themselves ------------------------------------------------------


def _moves(db: Path) -> dict[str, int]:
    """The moves of each table's game, as the store holds them (read-only)."""
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = connection.execute("SELECT id, record FROM perudo_tables").fetchall()
    finally:
        connection.close()
    return {table: len(GameRecord.from_text(record).moves) for table, record in rows}


async def _my_turn(page: ClientConnection) -> dict[str, Any]:
    """The first message where ``page``'s seat is to act (or the game is over)."""
    return await _until(page, lambda m: m["type"] == "view" and (
        m["view"]["winners"] or (m["view"]["to_act"] == m["seat"] and m["legal"])))  # fmt: skip


def test_bot_work_is_paced_and_paused_without_a_page(tmp_path: Path) -> None:
    rate = 20
    with serving(tmp_path, "--limit", f"bot_moves={rate}") as server:
        sources = [f"127.0.0.{n}" for n in range(2, 6)]
        tables = [server.table([None] + ["odds"] * 9, timeout=0, source=sources[n % 4])
                  for n in range(40)]  # fmt: skip

        async def go() -> None:
            for table in tables:  # joined and left at once
                async with connect(server.socket_url(table, "name=Eve")) as eve:
                    await next_message(eve)
            await asyncio.sleep(1.0)  # a bot move under way ends
            before = _moves(tmp_path / "perudo.sqlite")
            await asyncio.sleep(2.5)
            assert _moves(tmp_path / "perudo.sqlite") == before  # no page: nothing played
            # A spectator at every table: the bots play, within the server's rate.
            watchers = [await connect(server.socket_url(t, ""), local_addr=(sources[n % 4], 0))
                        for n, t in enumerate(tables)]  # fmt: skip
            counts = [0] * len(watchers)

            async def count(n: int) -> None:
                with contextlib.suppress(ConnectionClosed):
                    async for _ in watchers[n]:
                        counts[n] += 1

            readers = [asyncio.create_task(count(n)) for n in range(len(watchers))]
            await asyncio.sleep(1.0)  # the first messages, and the pace settled
            start, began = sum(counts), time.monotonic()
            # Two people at a table of their own are answered meanwhile.
            mine = server.table([None, None], timeout=3600, source="127.0.0.9")
            async with (
                connect(server.socket_url(mine, "name=Ana"), local_addr=("127.0.0.9", 0)) as ana,
                connect(server.socket_url(mine, "name=Ben"), local_addr=("127.0.0.10", 0)) as ben,
            ):  # fmt: skip
                first = await _until(ben, lambda m: m["type"] == "view" and m["ready"])
                pages = {0: ana, 1: ben}
                seen = first  # the newest view read, at either page
                for _ in range(6):
                    page = pages[seen["view"]["to_act"]]
                    if seen["seat"] != seen["view"]["to_act"] or not seen.get("legal"):
                        seen = await _my_turn(page)  # the mover's own message, not yet read
                    if seen["view"]["winners"]:
                        break
                    sent = time.monotonic()
                    await page.send(json.dumps({"move": seen["legal"][0]}))
                    seen = await _until(page, lambda m: m["type"] == "view")  # the answer
                    assert time.monotonic() - sent < 5.0  # answered, not starved
                    if seen["view"]["winners"]:
                        break
            await asyncio.sleep(max(0.0, 3.0 - (time.monotonic() - began)))
            played = sum(counts) - start
            took = time.monotonic() - began
            for watcher in watchers:
                await watcher.close()
            for reader in readers:
                await reader
            assert played <= rate * took * 1.5 + 40, (played, took)  # 40 tables x 20/s before

        asyncio.run(go())


def test_the_store_is_written_off_the_event_loop_and_in_batches(tmp_path: Path) -> None:
    from perudo.web.store import StoredTable, TableStore
    from perudo.web.writer import Writer

    store = TableStore(tmp_path / "perudo.sqlite")
    slow_saves = store.save_all

    def slow(rows: Any) -> None:
        time.sleep(0.3)  # a slow disk
        slow_saves(rows)

    store.save_all = slow  # type: ignore[method-assign]
    writer = Writer(store)

    async def go() -> None:
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(tick())
        for n in range(50):
            writer.save(StoredTable(id=f"t{n % 5}", created=float(n), setup={}, people={},
                                    record=str(n), over=False))  # fmt: skip
        await writer.durable()
        ticker.cancel()
        assert ticks >= 10  # the loop went on while the disk was slow
        assert writer.batches <= 2  # fifty saves, one or two transactions

    asyncio.run(go())
    writer.close()
    rows = {row.id: row.record for row in TableStore(tmp_path / "perudo.sqlite").tables()}
    assert rows == {f"t{n}": str(45 + n) for n in range(5)}  # each table's latest row


# --- 5. a player who never moves ----------------------------------------------------------


def test_a_connected_player_who_never_moves_is_played_for_after_the_timeout(
    tmp_path: Path,
) -> None:
    with serving(tmp_path) as server:
        table = server.table([None, None], timeout=1)

        async def go() -> None:
            async with (
                connect(server.socket_url(table, "name=Ana")) as ana,
                connect(server.socket_url(table, "name=Ben")) as ben,
            ):
                ready = await _until(ana, lambda m: m["type"] == "view" and m["ready"])
                assert 0 < ready["seconds_left"] <= 1
                # Neither moves; both stay connected. Before, the table waited for ever.
                moved = await _until(ana, lambda m: m["type"] == "view" and m["view"]["bids"],
                                     timeout=15)  # fmt: skip
                assert moved["stood_in"] == []  # nobody dropped: one turn was played for them
                await next_message(ben)

        asyncio.run(go())


# --- 6, 7, 8. the seed, the record route, the host names ---------------------------------


def test_the_seed_is_the_servers_unless_one_person_plays_alone(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        setup = {"variant": "italian", "bots": [None, None, "odds"], "seed": 5}
        status, body = server.post("/api/tables", setup)
        assert status == 400  # the creator would read every hand
        assert b"seed" in body
        alone = server.table([None, "odds"], seed=5)
        secret = server.table([None, None])

        async def go() -> None:
            async with connect(server.socket_url(alone, "name=Ana")) as ana:
                assert (await next_message(ana))["seed"] == 5  # chosen, so everyone's
            async with connect(server.socket_url(secret, "name=Ana")) as ana:
                first = await next_message(ana)
                assert "seed" not in first
                assert "seed" not in json.dumps(first["view"])

        asyncio.run(go())
        assert server.get(f"/tables/{secret}/record")[0] == 409  # in progress: never out
        rows = {row["id"]: row for row in json.loads(server.get("/api/tables")[1])["tables"]}
        assert rows[alone]["seed"] == 5
        assert rows[secret]["seed"] is None


def test_the_record_route_checks_the_host_and_the_origin(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        table = server.table([None, "odds"], timeout=0)

        async def finish() -> None:
            async with connect(server.socket_url(table, "name=Ana")) as ana:
                await _until(ana, _over)

        asyncio.run(finish())
        path = f"/tables/{table}/record"
        for headers in ({"host": "evil.example"}, {"origin": "http://evil.example"}):
            assert server.request("GET", path, headers=headers)[0] == 403
        status, text = server.get(path)
        assert status == 200
        assert GameRecord.from_text(text.decode()).players[0] == "Ana"


def test_a_server_answers_only_its_host_names_on_any_bind(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    with serving(tmp_path / "a", host="127.0.0.2") as server:  # not a loopback name
        assert server.get("/")[0] == 200  # Host: 127.0.0.2:PORT, the bound address
        for host in ("evil.example", f"evil.example:{server.port}", "localhost"):
            assert server.request("GET", "/api/tables", headers={"host": host})[0] == 403
        for kind in ("text/plain", "application/x-www-form-urlencoded"):
            status, _ = server.request("POST", "/api/tables", b'{"variant": "italian"}',
                                       headers={"content-type": kind})  # fmt: skip
            assert status == 415  # what another site's page may send without asking
    (tmp_path / "b").mkdir()
    with serving(tmp_path / "b", "--allowed-host", "perudo.lan", host="127.0.0.2") as server:
        assert server.request("GET", "/", headers={"host": f"perudo.lan:{server.port}"})[0] == 200
        assert server.get("/")[0] == 403  # told its names: the address is not one


# --- 12, 13. hostile JSON and frames ----------------------------------------------------------


def test_json_nested_too_deep_is_refused_like_any_malformed_message(tmp_path: Path) -> None:
    deep = "[" * 2000 + "]" * 2000  # under the 4 kB limit
    with serving(tmp_path) as server:
        status, body = server.request("POST", "/api/tables", deep.encode(),
                                      headers={"content-type": "application/json"})  # fmt: skip
        assert status == 400
        assert b"JSON object" in body
        table = server.table([None, "odds"])

        async def go() -> None:
            async with connect(server.socket_url(table, "name=Ana")) as ana:
                await next_message(ana)
                await ana.send('{"move": ' + "[" * 1900 + "]" * 1900 + "}")
                refusal = await _until(ana, lambda m: m["type"] == "refused")
                assert refusal["reason"] == "malformed-message"
                await ana.send(json.dumps({"move": "9x99"}))  # still connected
                refusal = await _until(ana, lambda m: m["type"] == "refused")
                assert refusal["reason"] == "malformed-action"

        asyncio.run(go())


def test_a_frame_over_the_limit_closes_its_senders_connection_alone(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        table = server.table([None, None])

        async def go() -> None:
            async with (
                connect(server.socket_url(table, "name=Ana")) as ana,
                connect(server.socket_url(table, "name=Ben")) as ben,
            ):
                token = (await next_message(ana))["token"]
                await _until(ben, lambda m: m["type"] == "view" and m["ready"])
                await ana.send(json.dumps({"move": "x" * 5000}))
                closed = await _closed(ana)
                assert closed.rcvd is not None
                assert closed.rcvd.code == 1009
                async with connect(server.socket_url(table, f"token={token}")) as back:
                    assert (await next_message(back))["seat"] == 0  # the seat waited for her
                await ben.send(json.dumps({"move": "9x99"}))  # Ben was never touched
                assert (await _until(ben, lambda m: m["type"] == "refused"))["reason"]

        asyncio.run(go())
