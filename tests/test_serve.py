"""``perudo serve`` started as the README says, on 127.0.0.1, and stopped after: tables made
over HTTP, played over WebSockets, a server killed with SIGKILL mid-game that loses no
acknowledged move, seats that come back by their token, a stand-in after the timeout."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")
websockets = pytest.importorskip("websockets", reason="websockets comes with the web extra")
from web_server import Server, next_message  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import InvalidStatus  # noqa: E402
from websockets.typing import Origin  # noqa: E402

import perudo  # noqa: E402
from perudo.record import GameRecord  # noqa: E402

ITALIAN = perudo.load_variant("italian")


async def _my_turn(ws: ClientConnection, last: dict[str, Any] | None = None) -> dict[str, Any]:
    """The messages from ``last`` (the one just read) until one where this seat is to act
    (or the game is over)."""
    message = last if last is not None else await next_message(ws)
    while True:
        if message["type"] == "view":
            view = message["view"]
            if view["winners"] or (view["to_act"] == message["seat"] and message["legal"]):
                return message
        message = await next_message(ws)


async def _play(
    ws: ClientConnection, moves: int | None, sent: list[str], last: dict[str, Any]
) -> dict[str, Any]:
    """From ``last`` (the message just read), play this seat's first legal move at each of
    its turns, ``moves`` times (``None``: to the end); each move sent is added to ``sent``
    once the server has answered it. The last message read."""
    while moves is None or moves > 0:
        message = await _my_turn(ws, last)
        if message["view"]["winners"]:
            return message
        move = message["legal"][0]
        await ws.send(json.dumps({"move": move}))
        last = await next_message(ws)  # the table after the move: the acknowledgement
        assert last["type"] == "view", last
        sent.append(move)
        if moves is not None:
            moves -= 1
    return last


@pytest.mark.slow
def test_a_killed_server_loses_no_acknowledged_move_and_play_goes_on(tmp_path: Path) -> None:
    server = Server(tmp_path)
    server.start()
    try:
        tables = [server.table([None, "odds", "odds"], seed=seed) for seed in (3, 4)]
        sent: dict[str, list[str]] = {table: [] for table in tables}
        tokens: dict[str, str] = {}

        async def first_half() -> None:
            for table in tables:
                async with connect(server.socket_url(table, "name=Ana")) as ws:
                    joined = await next_message(ws)
                    assert joined["seat"] == 0
                    tokens[table] = joined["token"]
                    await _play(ws, 3, sent[table], joined)

        asyncio.run(first_half())
        server.kill()  # mid-game: no shutdown of any kind
        server.start()

        async def second_half() -> None:
            for table in tables:
                async with connect(server.socket_url(table, f"token={tokens[table]}")) as ws:
                    back = await next_message(ws)
                    assert back["seat"] == 0  # the seat came back by its token
                    assert back["names"][0] == "Ana"
                    end = await _play(ws, None, sent[table], back)
                    assert end["view"]["winners"]

        asyncio.run(second_half())
        key = (tmp_path / "perudo.key").read_bytes()
        for table in tables:
            status, text = server.get(f"/tables/{table}/record")
            assert status == 200
            record = GameRecord.from_text(text.decode(), key=bytes.fromhex(key.decode()))
            mine = [str(action) for seat, action in record.moves if seat == 0]
            answered = [str(perudo.parse_action(move, variant=ITALIAN)) for move in sent[table]]
            assert mine == answered, table  # every move answered is in the record, in order
    finally:
        server.stop()


def test_a_seat_belongs_to_its_token_and_spectators_see_no_hand(server: Server) -> None:
    table = server.table([None, None, "odds"])

    async def go() -> None:
        async with connect(server.socket_url(table, "name=Ana")) as ana:
            first = await next_message(ana)
            assert first["seat"] == 0
            assert first["view"]["dice"]  # her own hand
            async with connect(server.socket_url(table, "name=Bea")) as bea:
                assert (await next_message(bea))["seat"] == 1
                async with connect(server.socket_url(table, "name=Cy")) as cy:
                    watching = await next_message(cy)
                    assert watching["seat"] is None  # the seats are taken
                    assert watching["view"]["dice"] == []
                    assert "token" not in watching or watching["token"] is None
                async with connect(server.socket_url(table, "token=a-guess")) as guess:
                    assert (await next_message(guess))["seat"] is None

    asyncio.run(go())


@pytest.mark.slow
def test_a_dropped_persons_turn_is_played_by_a_bot_after_the_timeout(server: Server) -> None:
    table = server.table([None, "odds"], timeout=1)

    async def go() -> None:
        async with connect(server.socket_url(table, "name=Ana")) as ana:
            await _my_turn(ana, await next_message(ana))  # her turn: she leaves without moving
        await asyncio.sleep(2.5)
        async with connect(server.socket_url(table, "")) as watcher:
            seen = await next_message(watcher)
            deadline = time.monotonic() + 10
            while not seen["view"]["winners"] and 0 not in seen["stood_in"]:
                assert time.monotonic() < deadline
                seen = await next_message(watcher)
            assert seen["view"]["winners"] or seen["stood_in"] == [0]

    asyncio.run(go())


def test_a_foreign_page_and_a_bad_setup_are_refused(server: Server) -> None:
    table = server.table([None, "odds"])
    status, _ = server.post("/api/tables", {"variant": "italian", "bots": [None, "odds"]},
                            origin="http://evil.example")  # fmt: skip
    assert status == 403
    status, body = server.post("/api/tables", {"variant": "italian", "bots": [None, "nobody"]})
    assert status == 400
    assert b"not a bot" in body
    status, body = server.post("/api/tables", {"variant": "nope", "bots": [None, "odds"]})
    assert status == 400
    assert b"offers" in body
    assert server.get(f"/tables/{table}/record")[0] == 409  # not over yet
    assert server.get("/tables/nothing/record")[0] == 404
    status, page = server.get(f"/tables/{table}")
    assert status == 200
    assert b"<html" in page

    async def go() -> None:
        with pytest.raises(InvalidStatus):
            await connect(
                server.socket_url(table, "name=Eve"), origin=Origin("http://evil.example")
            )
        with pytest.raises(InvalidStatus):
            await connect(server.socket_url("nothing", "name=Eve"))

    asyncio.run(go())
    listing = json.loads(server.get("/api/tables")[1])
    assert [row["id"] for row in listing["tables"]] == [table]


def test_serving_beyond_the_loopback_warns_about_plain_http(tmp_path: Path) -> None:
    server = Server(tmp_path, "--host", "0.0.0.0")
    server.start()
    time.sleep(0.2)
    errors = server.stop()
    assert "plain HTTP" in errors
    assert "TLS" in errors


def test_a_malformed_frame_is_refused_to_its_sender_alone(server: Server) -> None:
    table = server.table([None, "odds"])

    async def go() -> None:
        async with connect(server.socket_url(table, "name=Ana")) as ana:
            await _my_turn(ana, await next_message(ana))
            for frame in ("not json", json.dumps({"nomove": 1}), json.dumps({"move": "9x99"})):
                await ana.send(frame)
                answer = await next_message(ana)
                while answer["type"] != "refused":
                    answer = await next_message(ana)
                assert answer["reason"] in ("malformed-message", "malformed-action"), answer
            with contextlib.suppress(Exception):
                await ana.send(b"\x00binary")

    asyncio.run(go())


@pytest.mark.slow
def test_a_house_rule_named_on_the_command_line_is_offered_and_kept(tmp_path: Path) -> None:
    declaration = Path(__file__).parent.parent / "examples" / "house_rule.toml"
    server = Server(tmp_path, "--variant", "italian", "--variant", str(declaration))
    server.start()
    try:
        listing = json.loads(server.get("/api/tables")[1])
        assert listing["variants"] == ["house_rule", "italian"]
        table = server.table([None, "odds"], variant="house_rule")
        assert server.post("/api/tables", {"variant": "wango", "bots": [None, "odds"]})[0] == 400
        server.kill()
        server.start()  # the house rule's table is rebuilt under the same declaration
        (row,) = json.loads(server.get("/api/tables")[1])["tables"]
        assert row["id"] == table
        assert row["edition"] == "Kitchen-table WANGO"
    finally:
        server.stop()
