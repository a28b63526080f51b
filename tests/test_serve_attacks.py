"""``perudo serve`` under attack: served on 127.0.0.1 and attacked with a real WebSocket
client (the ``websockets`` package). After each attack, a seated player's next move is
answered (the table is not frozen) and no message holds a hand it should not."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

import perudo

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
websockets = pytest.importorskip("websockets", reason="websockets comes with the web extra")
from web_server import serving  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402

# Seconds a seated player's move is answered within. A frozen table never answers; a busy
# machine answers late (1.7 s was seen under load when this was 1 s): the bound says "not
# frozen", generously, and bench/serve.py measures how fast.
ANSWER = 10.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """The WebSocket address of an Italian table of two people and a bot."""
    with serving(tmp_path) as running:
        table = running.table([None, None, "odds"])
        yield f"ws://127.0.0.1:{running.port}/tables/{table}/ws"


class Client:
    """A connection whose messages are read in the background into ``messages``."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.messages: list[dict[str, Any]] = []
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(
        cls, url: str, token: str | None = None, name: str = "Ana", **options: Any
    ) -> Client:
        """A page at the table: by ``token``, or a person named ``name`` (a spectator once
        the people's seats are taken)."""
        query = f"?token={token}" if token else f"?name={name}"
        client = cls(await connect(url + query, **options))
        await client.next_message(0)
        return client

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                self.messages.append(json.loads(text))
        except ConnectionClosed:
            pass

    async def next_message(self, after: int, timeout: float = 5.0) -> dict[str, Any]:
        """The first message past the first ``after``, within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while len(self.messages) <= after:
            if time.monotonic() > deadline:
                raise TimeoutError(f"no message within {timeout} s")
            await asyncio.sleep(0.005)
        return self.messages[after]

    async def refusal(self, after: int) -> dict[str, Any]:
        """The first refusal past the first ``after`` messages (the table's moves go on
        meanwhile: the bots' are broadcast to everyone)."""
        while (message := await self.next_message(after))["type"] != "refused":
            after += 1
        return message

    @property
    def seat(self) -> int | None:
        return self.messages[0]["seat"]

    @property
    def token(self) -> str:
        return str(self.messages[0]["token"])

    async def close(self) -> None:
        await self.ws.close()
        await self.reader


async def answered(player: Client) -> float:
    """Send ``player``'s next move (its lowest legal bid or call on its turn, a move that is
    not one otherwise) and return how long the answer took: the table after the move, or the
    refusal."""
    view = next(m for m in reversed(player.messages) if m["type"] == "view")
    legal = view.get("legal", [])
    mine = view["view"]["to_act"] == player.seat and legal
    bids = [move for move in legal if re.match(r"\d+x\d$", move)]
    move = (bids[0] if bids else legal[0]) if mine else "9x99"  # malformed, on any turn
    index = len(player.messages)
    start = time.monotonic()
    await player.ws.send(json.dumps({"move": move}))
    answer = await asyncio.wait_for(
        player.next_message(index, ANSWER) if mine else player.refusal(index), ANSWER
    )
    took = time.monotonic() - start
    if not mine:
        assert answer["reason"] == "malformed-action", answer
    assert took < ANSWER, (move, took)
    return took


async def drained(ws: ClientConnection) -> int:
    """Read what the server sent ``ws`` until it closed the connection: the count."""
    count = 0
    with contextlib.suppress(ConnectionClosed):
        async for _ in ws:
            count += 1
    return count


async def handshake_status(url: str, host: str) -> int:
    """The HTTP status of a WebSocket handshake to ``url`` that says ``Host: host``."""
    port = int(url.split(":")[2].split("/")[0])
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {urlsplit(url).path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    status = int((await reader.readline()).split()[1])
    writer.close()
    return status


def check_no_leak(client: Client, seat: int | None, secrets: list[str]) -> None:
    """Every message ``client`` received shows ``seat``'s view alone: a spectator no hand,
    a player only their own; no seat's token but its own."""
    for data in client.messages:
        if data["type"] == "refused":
            assert set(data) == {"type", "reason", "message"}
            continue
        if data["type"] == "error":  # a name no seat took
            assert set(data) == {"type", "message"}
            continue
        assert data["seat"] == seat
        view = data["view"]
        assert view["player"] == seat
        if seat is None:
            assert view["dice"] == []
            assert "legal" not in data
        else:
            own = view["seats"][seat]["dice_count"]
            assert len(view["dice"]) in (own, 0)  # 0: hidden while declaring
        for entry in view["seats"]:
            assert set(entry) == {"name", "dice_count", "score", "pressure_left", "open"}
        text = json.dumps(data)
        for secret in secrets:
            assert secret not in text or data.get("token") == secret


@pytest.mark.slow
def test_the_table_survives_every_attack(server: str) -> None:
    asyncio.run(_attacks(server))


async def _attacks(url: str) -> None:
    ana, ben = await Client.open(url, name="Ana"), await Client.open(url, name="Ben")
    assert (ana.seat, ben.seat) == (0, 1)
    tokens = [ana.token, ben.token]
    watchers: list[Client] = []

    async def both_answered() -> None:
        await answered(ana)
        await answered(ben)

    await both_answered()

    # 1. a binary frame: refused to that client alone; from a spectator, ignored
    seen_by_ben = len(ben.messages)
    before = len(ana.messages)
    await ana.ws.send(b"\x00\x01binary")
    refusal = await ana.refusal(before)
    assert refusal["reason"] == "malformed-message"
    assert all(m["type"] != "refused" for m in ben.messages[seen_by_ben:])
    spy = await Client.open(url)
    watchers.append(spy)
    await spy.ws.send(b"\xff" * 100)
    await both_answered()

    # 2. malformed JSON, and JSON that is not a move
    for text in ('{"move": ', "3x5", '{"move": 5}', "[]", '{"move": "\\ud800"}'):
        before = len(ben.messages)
        await ben.ws.send(text)
        answer = await ben.refusal(before)
        assert answer["reason"] in ("malformed-message", "malformed-action"), (text, answer)
    await both_answered()

    # 3. 20,000 small frames from a client that never reads (a spectator), then from a
    #    seated player that stops reading: neither freezes the table
    mute = await connect(url + "?name=Mute", max_queue=1)  # reads nothing past one message
    for _ in range(20_000):
        await mute.send("x")
    await both_answered()
    ben.reader.cancel()
    slow = await connect(url + f"?token={ben.token}", max_queue=1)  # Ben's seat, not read
    for _ in range(20_000):
        await slow.send('{"move": "dudo"}')
    ben = await Client.open(url, ben.token)  # Ben again, from a fresh page: takes his seat
    assert ben.seat == 1
    await both_answered()
    assert await asyncio.wait_for(drained(slow), 10) >= 1  # the page Ben left was closed
    await mute.close()

    # 4. a reconnect without the token: a spectator, never Ben's hand
    await ben.close()
    stranger = await Client.open(url)
    watchers.append(stranger)
    assert stranger.seat is None
    await answered(ana)
    ben = await Client.open(url, tokens[1])  # Ben's token: his seat waited for him
    assert ben.seat == 1
    assert len(ben.messages[0]["view"]["dice"]) == ben.messages[0]["view"]["seats"][1]["dice_count"]
    await both_answered()

    # 5. a page of another site
    for origin in ("http://evil.example", "http://127.0.0.1.evil.example"):
        with pytest.raises(InvalidStatus):
            await connect(url + "?name=Eve", origin=origin)  # type: ignore[arg-type]
    for host in ("evil.example", f"evil.example:{url.split(':')[2].split('/')[0]}"):
        assert await handshake_status(url, host) == 403  # DNS rebinding: not our name
    assert await handshake_status(url, f"localhost:{url.split(':')[2].split('/')[0]}") == 101
    await both_answered()

    # 6. 200 connections at once: the table takes what it holds and refuses the rest
    opened = await asyncio.gather(*(Client.open(url) for _ in range(200)), return_exceptions=True)
    crowd = [c for c in opened if isinstance(c, Client)]
    refused = [c for c in opened if isinstance(c, InvalidStatus)]
    assert len(crowd) + len(refused) == 200
    assert refused, "no connection was refused"
    await both_answered()
    for client in crowd:
        check_no_leak(client, None, tokens)
        await client.close()
    await both_answered()

    for client, seat in [(ana, 0), (ben, 1), *((w, None) for w in watchers)]:
        check_no_leak(client, seat, tokens)
        await client.close()


# --- the live side of a table, without a network ---------------------------------------


class FakeSocket:
    """A socket whose sends never finish (a client that does not read), or fail."""

    def __init__(self, *, fail: bool = False) -> None:
        self.fail, self.sent, self.closed = fail, 0, False

    async def send_text(self, text: str) -> None:
        if self.fail:
            raise RuntimeError("the socket died")
        self.sent += 1
        await asyncio.Event().wait()  # never done

    async def close(self, code: int = 1000) -> None:
        self.closed = True


def _room(tmp_path: Path) -> Any:
    from perudo.web.app import TableServer

    server = TableServer(tmp_path / "perudo.sqlite", {"italian": perudo.load_variant("italian")})
    table = server.create({"variant": "italian", "bots": [None, "odds", "odds"], "seed": 1})
    return server.rooms[table.id]


def test_a_client_that_lets_its_queue_fill_is_dropped_not_waited_for(tmp_path: Path) -> None:
    from perudo.web import app

    async def scenario() -> None:
        room = _room(tmp_path)
        idle = app._Connection(FakeSocket(), None)  # type: ignore[arg-type]  # no sender
        room.connections.append(idle)
        for _ in range(app.QUEUE):
            room.broadcast()  # never awaits: the table goes on whatever the clients do
        assert idle in room.connections
        room.broadcast()
        assert idle not in room.connections  # its queue overflowed: dropped

    asyncio.run(scenario())


def test_a_send_past_the_timeout_drops_the_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from perudo.web import app

    monkeypatch.setattr(app, "SEND_TIMEOUT", 0.2)

    async def scenario() -> None:
        room = _room(tmp_path)
        stuck = app._Connection(FakeSocket(), None)  # type: ignore[arg-type]
        room.connections.append(stuck)
        stuck.sender = asyncio.create_task(room.send_all(stuck))
        room.broadcast()  # its first send never finishes
        await asyncio.wait_for(stuck.sender, 2)
        assert stuck not in room.connections
        assert stuck.websocket.closed

    asyncio.run(scenario())


def test_a_send_that_fails_drops_that_connection_alone(tmp_path: Path) -> None:
    from perudo.web import app

    async def scenario() -> None:
        room = _room(tmp_path)
        dead = app._Connection(FakeSocket(fail=True), None)  # type: ignore[arg-type]
        alive = app._Connection(FakeSocket(), None)  # type: ignore[arg-type]
        for connection in (dead, alive):
            room.connections.append(connection)
            connection.sender = asyncio.create_task(room.send_all(connection))
        room.broadcast()
        await asyncio.wait_for(dead.sender, 2)
        assert room.connections == [alive]
        room.broadcast()  # nothing raises for the dead one
        await asyncio.sleep(0)
        assert alive.websocket.sent == 1
        assert alive.sender is not None
        alive.sender.cancel()

    asyncio.run(scenario())
