"""The browser table under attack (issue 22, items 1-4): examples/web_table served on
127.0.0.1 and attacked with a real WebSocket client (the ``websockets`` package). After
each attack, a seated player's next move is answered within a second, and no message
holds a hand it should not."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
websockets = pytest.importorskip("websockets", reason="websockets comes with the web extra")
from web_server import APP, web_table  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402

ANSWER = 1.0  # seconds: a seated player's move is answered within this


@pytest.fixture
def server() -> Iterator[str]:
    args = ("--variant", "italian", "--players", "3", "--humans", "2", "--seed", "11")
    with web_table(*args) as port:
        yield f"ws://127.0.0.1:{port}/ws"


class Client:
    """A connection whose messages are read in the background into ``messages``."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.messages: list[dict[str, Any]] = []
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, url: str, token: str | None = None, **options: Any) -> Client:
        client = cls(await connect(url + (f"?token={token}" if token else ""), **options))
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
        while "refused" not in (message := await self.next_message(after)):
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
    view = player.messages[-1]
    legal = view.get("legal", [])
    mine = view["view"]["to_act"] == player.seat and legal
    bids = [move for move in legal if re.match(r"\d+x\d$", move)]
    move = (bids[0] if bids else legal[0]) if mine else "9x99"  # malformed, on any turn
    index = len(player.messages)
    start = time.monotonic()
    await player.ws.send(json.dumps({"move": move}))
    answer = await (player.next_message(index) if mine else player.refusal(index))
    took = time.monotonic() - start
    if not mine:
        assert answer["refused"] == "malformed-action", answer
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
        f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    status = int((await reader.readline()).split()[1])
    writer.close()
    return status


def check_no_leak(client: Client, seat: int | None, secrets: list[str]) -> None:
    """Every message ``client`` received shows ``seat``'s view alone: a spectator no hand,
    a player only their own; no seat's token but its own."""
    for data in client.messages:
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


def test_the_table_survives_every_attack(server: str) -> None:
    asyncio.run(_attacks(server))


async def _attacks(url: str) -> None:
    ana, ben = await Client.open(url), await Client.open(url)
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
    assert refusal["refused"] == "malformed-message"
    assert all("refused" not in m for m in ben.messages[seen_by_ben:])
    spy = await Client.open(url)
    watchers.append(spy)
    await spy.ws.send(b"\xff" * 100)
    await both_answered()

    # 2. malformed JSON, and JSON that is not a move
    for text in ('{"move": ', "3x5", '{"move": 5}', "[]", '{"move": "\\ud800"}'):
        before = len(ben.messages)
        await ben.ws.send(text)
        answer = await ben.refusal(before)
        assert answer["refused"] in ("malformed-message", "malformed-action"), (text, answer)
    await both_answered()

    # 3. 20,000 small frames from a client that never reads (a spectator), then from a
    #    seated player that stops reading: neither freezes the table
    mute = await connect(url, max_queue=1)  # reads nothing past one message
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
            await connect(url, origin=origin)  # type: ignore[arg-type]
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


# --- the table's own rules, without a network ------------------------------------------


def _app() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("web_table_app", APP)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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


def test_a_client_that_lets_its_queue_fill_is_dropped_not_waited_for() -> None:
    app = _app()

    async def scenario() -> None:
        table = app.Table("italian", 3, 1, seed=1)
        idle = app.Connection(FakeSocket(), None)  # no sender: nothing leaves its queue
        table.join(idle, None)  # its first message
        for _ in range(app.QUEUE - 1):
            table.broadcast()  # never awaits: the table goes on whatever the clients do
        assert idle in table.connections
        table.broadcast()
        assert idle not in table.connections  # its queue overflowed: dropped

    asyncio.run(scenario())


def test_a_send_past_the_timeout_drops_the_client() -> None:
    app = _app()
    app.SEND_TIMEOUT = 0.2

    async def scenario() -> None:
        table = app.Table("italian", 3, 1, seed=1)
        stuck = app.Connection(FakeSocket(), None)  # its first send never finishes
        stuck.sender = asyncio.create_task(table.send_all(stuck))
        table.join(stuck, None)
        await asyncio.wait_for(stuck.sender, 2)
        assert stuck not in table.connections
        assert stuck.websocket.closed

    asyncio.run(scenario())


def test_a_send_that_fails_drops_that_connection_alone() -> None:
    app = _app()

    async def scenario() -> None:
        table = app.Table("italian", 3, 1, seed=1)
        dead, alive = (
            app.Connection(FakeSocket(fail=True), None),
            app.Connection(FakeSocket(), None),
        )
        for connection in (dead, alive):
            connection.sender = asyncio.create_task(table.send_all(connection))
            table.join(connection, None)
        await asyncio.wait_for(dead.sender, 2)
        assert table.connections == [alive]
        table.broadcast()  # nothing raises for the dead one
        await asyncio.sleep(0)
        assert alive.websocket.sent == 1
        alive.sender.cancel()

    asyncio.run(scenario())


def test_a_seat_goes_only_to_its_token() -> None:
    app = _app()
    table = app.Table("italian", 3, 2, seed=1)
    seat, token = table.seat_for(None)
    assert (seat, len(token)) == (0, 32)
    assert table.seat_for(None)[0] == 1
    assert table.seat_for(None) == (None, None)  # every human seat taken: a spectator
    assert table.seat_for("a guess") == (None, None)
    assert table.seat_for(token) == (0, token)  # the dropped seat waited for its token
