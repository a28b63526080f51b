"""The table server of ``perudo serve``: many tables in a browser, over HTTP and WebSockets
(extra ``web``: Starlette and uvicorn).

:class:`TableServer` keeps the tables (:class:`~perudo.web.Table`, saved in a
:class:`~perudo.web.TableStore`), rebuilds them on start, and serves:

- ``GET /``: the page (the open tables; a form to make one), ``GET /tables/ID``: a table's;
- ``GET /api/tables``: the tables as JSON; ``POST /api/tables``: a new one from a
  :class:`~perudo.web.TableSetup` in JSON, answered with its ``id``;
- ``GET /tables/ID/record``: a finished game's signed record, as text;
- ``WS /tables/ID/ws?name=NAME`` (or ``?token=TOKEN`` to come back): the seat's messages
  (:meth:`perudo.web.Table.message`, with ``token`` once, on joining) and its moves,
  ``{"move": "3x5"}``; a refused move is answered ``{"type": "refused", "reason": ...,
  "message": ...}`` to that page alone, and a name no seat takes (another's, or not a
  name) ``{"type": "error", "message": ...}`` after the spectator's view.

What a hostile client cannot do: take a seat (a seat belongs to its token's page), see a
hand (each connection gets its own seat's view or the public one), freeze a table (nothing
awaits a socket under a table's lock; a client whose bounded queue fills or whose send
times out is dropped), or break it (oversized, binary or malformed frames are refused to
that client; frames past a rate, and any from a spectator, are dropped and the client held
back (its frames are not read for a while); a foreign ``Origin``, and a foreign ``Host`` on
a loopback server, are refused).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

try:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect
except ImportError as error:  # pragma: no cover - depends on what is installed
    from perudo.errors import install_hint

    raise ImportError(f"perudo.web.app needs {error.name}: {install_hint('web')}") from error

from perudo.errors import GameSetupError, PerudoError, StoreError
from perudo.variant import Variant, checked_players
from perudo.web.store import TableStore, server_key
from perudo.web.table import Table, TableSetup

__all__ = ["LOOPBACK", "MAX_FRAME", "TableServer"]

log = logging.getLogger("perudo.web")
PAGE = (Path(__file__).parent / "page.html").read_text(encoding="utf-8")

#: The longest frame or request body read, in bytes (a move is a few characters).
MAX_FRAME = 4096
#: Messages waiting for one client; a client that lets more pile up is dropped.
QUEUE = 32
#: Seconds one send may take before the client is dropped as too slow.
SEND_TIMEOUT = 5.0
#: Frames a connection may send a second (a burst of twice as many). The rest are dropped,
#: and after each the server reads nothing more from that client for 1/RATE s, so a flood
#: waits in the client's own TCP buffers instead of costing the server a read a frame.
RATE = 10.0
#: Connections at one table (players and spectators), and tables on one server.
MAX_CONNECTIONS = 64
MAX_TABLES = 1000
#: Seconds between two bot moves, so people can follow them.
BOT_PAUSE = 0.05
#: The host names of the loopback, where a foreign ``Host`` is refused (DNS rebinding).
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


class _Connection:
    """One page at a table: its seat (``None`` watches), its bounded queue and the task
    that sends from it, and its frame allowance (a token bucket)."""

    def __init__(self, websocket: WebSocket, seat: int | None) -> None:
        self.websocket = websocket
        self.seat = seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=QUEUE)
        self.sender: asyncio.Task[None] | None = None
        self.allowance, self.checked = 2 * RATE, time.monotonic()

    def allows_frame(self) -> bool:
        """Whether a frame now is one to read: within the rate, from a seat."""
        now = time.monotonic()
        self.allowance = min(2 * RATE, self.allowance + (now - self.checked) * RATE)
        self.checked = now
        if self.seat is None or self.allowance < 1:
            return False
        self.allowance -= 1
        return True


class _Room:
    """A table's live side: its lock, its connections and its bots' task."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.lock = asyncio.Lock()
        self.connections: list[_Connection] = []
        self.bots: asyncio.Task[None] | None = None
        self.stood_in: list[int] = []  # the stand-ins the pages were last shown
        self.arriving = 0  # connections accepted and not yet joined

    def post(self, connection: _Connection, data: dict[str, Any] | str) -> None:
        """Queue ``data`` (or its JSON text) for ``connection``; one that is not read fast
        enough is dropped."""
        try:
            connection.queue.put_nowait(data if isinstance(data, str) else json.dumps(data))
        except asyncio.QueueFull:
            self.drop(connection)

    def broadcast(self, but: _Connection | None = None) -> None:
        """Queue the table for every connection (``but`` one)."""
        texts: dict[int | None, str] = {}  # one message a seat, not one a connection
        for connection in list(self.connections):
            if connection is but:
                continue
            if connection.seat not in texts:
                texts[connection.seat] = json.dumps(self.table.message(connection.seat))
            self.post(connection, texts[connection.seat])

    def drop(self, connection: _Connection) -> None:
        """``connection`` gets nothing more; its seat waits for its token."""
        if connection not in self.connections:
            return
        self.connections.remove(connection)
        seat = connection.seat
        if seat is not None and not any(c.seat == seat for c in self.connections):
            self.table.leave(seat)
        try:
            connection.queue.put_nowait(None)  # tells its sender to close the socket
        except asyncio.QueueFull:
            if connection.sender is not None:
                connection.sender.cancel()

    def wake(self) -> None:
        """Start the bots' task where one may move and none is running."""
        if self.bots is None or self.bots.done():
            self.bots = asyncio.get_running_loop().create_task(self.play_bots())

    async def play_bots(self) -> None:
        while True:
            async with self.lock:
                if not self.table.bots_move():
                    return
                self.broadcast()
            await asyncio.sleep(BOT_PAUSE)

    async def send_all(self, connection: _Connection) -> None:
        """Send ``connection``'s queue, no lock held; a failing or slow send drops it."""
        try:
            while (text := await connection.queue.get()) is not None:
                await asyncio.wait_for(connection.websocket.send_text(text), SEND_TIMEOUT)
        except Exception:  # a dead or slow socket: the client is gone either way
            pass
        finally:
            self.drop(connection)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(connection.websocket.close(code=1008), 1.0)


class TableServer:
    """The tables of one server, kept in the SQLite file ``db``, their records signed with
    the key in ``key`` (beside the database by default, made on the first start), playing
    the editions ``variants`` (by key). :meth:`app` is its ASGI app.

    Raises:
        StoreError: the database or the key file cannot be used.
    """

    def __init__(
        self, db: Path | str, variants: Mapping[str, Variant], *, key: Path | str | None = None,
        host: str = "127.0.0.1", clock: Callable[[], float] = time.monotonic,
    ) -> None:  # fmt: skip
        db = Path(db)
        self.variants = dict(variants)
        self.store = TableStore(db)
        self.key = server_key(Path(key) if key is not None else db.with_suffix(".key"))
        self.loopback = host in LOOPBACK
        self.clock = clock
        self.rooms: dict[str, _Room] = {}
        for stored in self.store.tables():
            try:
                table = Table.load(self.store, self.key, stored, self.variants, clock=clock)
            except StoreError as error:  # kept in the store, never played: say so
                log.error("%s", error)
                continue
            self.rooms[table.id] = _Room(table)

    # --- tables --------------------------------------------------------------------------

    def create(self, data: Any) -> Table:
        """A new table from a setup's JSON values (:meth:`perudo.web.TableSetup.from_dict`).

        Raises:
            GameSetupError: a bad setup, an edition this server does not offer, or too
                many tables.
        """
        setup = TableSetup.from_dict(data)
        variant = self.variants.get(setup.variant)
        if variant is None:
            raise GameSetupError(f"this server offers {', '.join(sorted(self.variants))}, not "
                                 f"{setup.variant!r}")  # fmt: skip
        checked_players(variant, setup.players)
        if len(self.rooms) >= MAX_TABLES:
            raise GameSetupError(f"this server holds {MAX_TABLES} tables already")
        table_id = secrets.token_urlsafe(6)
        table = Table.create(self.store, self.key, table_id, setup, variant, clock=self.clock)
        self.rooms[table_id] = _Room(table)
        return table

    def listing(self) -> list[dict[str, Any]]:
        """Every table as the page lists it (newest first)."""
        rows = []
        for room in reversed(self.rooms.values()):
            table = room.table
            rows.append({
                "id": table.id, "variant": table.setup.variant,
                "edition": table.state.variant.name, "names": table.names(),
                "people": [bot is None for bot in table.setup.bots],
                "ready": table.ready, "over": table.state.is_over,
            })  # fmt: skip
        return rows

    # --- the app ---------------------------------------------------------------------

    def same_origin(self, headers: Mapping[str, str]) -> bool:
        """The request comes from this server's own page: a browser always sends
        ``Origin``, another site's page its own; on the loopback the ``Host`` must be a
        loopback name too (a site whose name points at 127.0.0.1 is its own origin)."""
        host = headers.get("host", "").lower()
        if self.loopback and urlsplit(f"//{host}").hostname not in LOOPBACK:
            return False
        origin = headers.get("origin")
        return origin is None or urlsplit(origin).netloc.lower() == host

    def app(self) -> Starlette:
        """The server's ASGI app."""

        async def page(request: Request) -> Response:
            if not self.same_origin(request.headers):
                return PlainTextResponse("forbidden", status_code=403)
            return HTMLResponse(PAGE)

        async def tables(request: Request) -> Response:
            if not self.same_origin(request.headers):
                return PlainTextResponse("forbidden", status_code=403)
            if request.method == "GET":
                return JSONResponse({"tables": self.listing(), "variants": sorted(self.variants)})
            body = b""
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_FRAME:
                    return JSONResponse({"error": "the setup is too long"}, status_code=413)
            try:
                table = self.create(json.loads(body))
            except (ValueError, PerudoError) as error:
                return JSONResponse({"error": str(error)[:300]}, status_code=400)
            return JSONResponse({"id": table.id}, status_code=201)

        async def record(request: Request) -> Response:
            room = self.rooms.get(request.path_params["table"])
            if room is None:
                return PlainTextResponse("no such table", status_code=404)
            if not room.table.state.is_over:
                return PlainTextResponse("the game is not over", status_code=409)
            headers = {"content-disposition": f'attachment; filename="{room.table.id}.perudo"'}
            return PlainTextResponse(room.table.record_text(), headers=headers)

        async def socket(websocket: WebSocket) -> None:
            room = self.rooms.get(websocket.path_params["table"])
            full = room is None or len(room.connections) + room.arriving >= MAX_CONNECTIONS
            if full or not self.same_origin(websocket.headers):
                await websocket.close(code=1008)  # before accepting: the client sees a 403
                return
            assert room is not None
            room.arriving += 1  # a place kept from here, so handshakes at once cannot pass
            try:
                await websocket.accept()
            except BaseException:
                room.arriving -= 1
                raise
            await self._serve(room, websocket)

        @contextlib.asynccontextmanager
        async def lifespan(app: Starlette) -> AsyncIterator[None]:
            ticker = asyncio.get_running_loop().create_task(self._tick())
            try:
                yield
            finally:
                ticker.cancel()
                self.store.close()

        return Starlette(
            routes=[
                Route("/", page),
                Route("/tables/{table}", page),
                Route("/api/tables", tables, methods=["GET", "POST"]),
                Route("/tables/{table}/record", record),
                WebSocketRoute("/tables/{table}/ws", socket),
            ],
            lifespan=lifespan,
        )

    async def _serve(self, room: _Room, websocket: WebSocket) -> None:
        query = websocket.query_params
        async with room.lock:
            name, problem = query.get("name"), None
            try:
                seat, token = room.table.join(name or "", query.get("token"))
            except GameSetupError as error:  # no name, or not one a seat takes: watching
                seat, token = None, None
                problem = str(error) if name else None
            connection = _Connection(websocket, seat)
            if seat is not None:  # the same seat from a new page: the old page goes
                for other in [c for c in room.connections if c.seat == seat]:
                    room.drop(other)
            room.connections.append(connection)
            room.arriving -= 1
            connection.sender = asyncio.get_running_loop().create_task(room.send_all(connection))
            room.post(connection, {**room.table.message(seat), "token": token})
            if problem is not None:
                room.post(connection, {"type": "error", "message": problem})
            if seat is not None:
                room.broadcast(but=connection)  # the others see who sits down
            room.wake()
        try:
            while not connection.sender.done():
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                if not connection.allows_frame():  # dropped, no lock taken
                    await asyncio.sleep(1 / RATE)  # and the client held back meanwhile
                    continue
                async with room.lock:
                    self._frame(room, connection, frame)
        except (WebSocketDisconnect, RuntimeError):  # RuntimeError: the sender closed it
            pass
        except Exception:
            log.exception("a connection's handler failed")
        finally:  # whatever ended the handler, its connection goes
            async with room.lock:
                room.drop(connection)
                if connection.seat is not None:
                    room.broadcast()  # the others see who left
            with contextlib.suppress(asyncio.CancelledError):
                await connection.sender

    def _frame(self, room: _Room, connection: _Connection, frame: Mapping[str, Any]) -> None:
        """A frame from ``connection``'s seat: its move, or a refusal to it alone."""
        assert connection.seat is not None
        text = frame.get("text")
        data = None
        if isinstance(text, str) and len(text) <= MAX_FRAME:
            with contextlib.suppress(ValueError):
                data = json.loads(text)
        move = data.get("move") if isinstance(data, dict) else None
        if not isinstance(move, str):
            room.post(connection, {"type": "refused", "reason": "malformed-message",
                                   "message": 'a message is {"move": "3x5"}, in JSON'})  # fmt: skip
            return
        refusal = room.table.play(connection.seat, move)
        if refusal is not None:
            room.post(connection, {"type": "refused", "reason": refusal.reason,
                                   "message": str(refusal)})  # fmt: skip
            return
        room.broadcast()
        room.wake()

    async def _tick(self) -> None:
        """Once a second, wake the bots of every table: a dropped person's turn that has
        waited out its timeout is played by the stand-in."""
        while True:
            await asyncio.sleep(1.0)
            for room in list(self.rooms.values()):
                stood_in = room.table.stood_in()
                if room.table.state.is_over or stood_in == room.stood_in:
                    continue
                async with room.lock:
                    room.stood_in = stood_in
                    room.broadcast()
                    room.wake()
