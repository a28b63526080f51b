"""The table server of ``perudo serve``: many tables in a browser, over HTTP and WebSockets
(extra ``web``: Starlette and uvicorn).

:class:`TableServer` keeps the tables (:class:`~perudo.web.Table`, saved in a
:class:`~perudo.web.TableStore` by a thread of its own), rebuilds them on start, and serves:

- ``GET /``: the page (the open tables; a form to make one), ``GET /tables/ID``: a table's;
- ``GET /api/tables``: the tables as JSON; ``POST /api/tables``: a new one from a
  :class:`~perudo.web.TableSetup` in JSON (``content-type: application/json``), answered
  with its ``id``;
- ``GET /tables/ID/record``: a finished game's signed record, as text;
- ``WS /tables/ID/ws?name=NAME`` (or ``?token=TOKEN`` to come back): the seat's messages
  (:meth:`perudo.web.Table.message`, with ``token`` once, on joining) and its moves,
  ``{"move": "3x5"}``; a refused move is answered ``{"type": "refused", "reason": ...,
  "message": ...}`` to that page alone, and a name no seat takes (another's, or not a
  name) ``{"type": "error", "message": ...}`` after the spectator's view.

What a hostile client cannot do (each limit is one of :class:`~perudo.web.limits.Limits`):
take a seat (a seat belongs to its token's page), see a hand (each connection gets its own
seat's view or the public one; the seed is the server's secret), freeze a table (nothing
awaits a socket under a table's lock; a client whose bounded queue fills or whose send
times out is dropped; a person's turn past the table's timeout is played by a bot), break
it (binary or malformed frames are refused to that client; a frame over
:data:`MAX_FRAME` closes that client's connection; frames past a rate, and any from a
spectator, are dropped and the client held back), fill the server (active tables and
connections are capped per server and per client address, a request head must arrive in
time and within 16 kB, finished and abandoned tables leave the active ones), or starve the
people with bot work (bots play only while a page is open, within a move rate per server
and per address, and the store is written off the event loop); a page of another site (its
``Origin``) and a host name the server was not told (DNS rebinding) are refused on every
route.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import socket as sockets
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

try:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect
except ImportError as error:  # pragma: no cover - depends on what is installed
    from perudo.errors import install_hint

    raise ImportError(f"perudo.web.app needs {error.name}: {install_hint('web')}") from error

from perudo.errors import GameSetupError, PerudoError, ServeError, StoreError, shown
from perudo.variant import Variant, checked_players
from perudo.web.guard import Gate, address_of, guarded_protocol
from perudo.web.limits import Limits
from perudo.web.protocol import SCHEMA
from perudo.web.store import Store, StoredTable, StoreLock, TableStore, is_postgres_url, server_key
from perudo.web.table import BENCH_AFTER, Table, TableSetup
from perudo.web.writer import Writer

__all__ = ["LOOPBACK", "MAX_FRAME", "TableServer", "default_hosts"]

log = logging.getLogger("perudo.web")
PAGE = (Path(__file__).parent / "page.html").read_text(encoding="utf-8")
#: The page of a table this server does not have (answered with status 404).
MISSING = (Path(__file__).parent / "missing.html").read_text(encoding="utf-8")

#: The longest frame or request body read, in bytes (a move is a few characters); a
#: longer frame closes its sender's connection (WebSocket status 1009).
MAX_FRAME = 4096
#: Messages waiting for one client; a client that lets more pile up is dropped.
QUEUE = 32
#: Seconds one send may take before the client is dropped as too slow.
SEND_TIMEOUT = 5.0
#: Frames a connection may send a second (a burst of twice as many). The rest are dropped,
#: and after each the server reads nothing more from that client for 1/RATE s, so a flood
#: waits in the client's own TCP buffers instead of costing the server a read a frame.
RATE = 10.0
#: Seconds between two bot moves at one table, so people can follow them.
BOT_PAUSE = 0.05
#: Seconds a finished table stays in memory once its last page has gone (its record
#: stays in the store).
FINISHED = 60.0
#: The host names of the loopback.
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
#: The edition a new table's form offers first, where the server offers it (Italian
#: Palifico: the sources' first); else the first by name.
DEFAULT_EDITION = "italian"


def default_hosts(host: str) -> frozenset[str]:
    """The host names a server bound to ``host`` answers when it is told none: the
    loopback's names on the loopback, the address itself on one address, and on every
    interface (``0.0.0.0``, ``::``) this machine's name and the addresses it resolves to.

    >>> sorted(default_hosts("127.0.0.1")), sorted(default_hosts("192.168.1.5"))
    (['127.0.0.1', '::1', 'localhost'], ['192.168.1.5'])
    """
    host = host.strip("[]").lower()
    if host in LOOPBACK:
        return LOOPBACK
    if host not in ("0.0.0.0", "::", ""):
        return frozenset({host})
    names = set(LOOPBACK) | {sockets.gethostname().lower()}
    with contextlib.suppress(OSError):
        for *_, address in sockets.getaddrinfo(sockets.gethostname(), None):
            names.add(str(address[0]).lower())
    return frozenset(names)


def _json_value(text: str | bytes) -> Any:
    """The JSON value of ``text``, or ``None`` for anything that is not JSON (nested too
    deep for Python's parser included)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


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


class _Pace:
    """A rate shared by whoever calls :meth:`take`: ``rate`` a second, in the order they
    asked (a table waits its turn behind the others, never ahead of them)."""

    def __init__(self, rate: float) -> None:
        self.step, self.next = 1.0 / rate, 0.0
        self.lock = asyncio.Lock()

    async def take(self) -> None:
        async with self.lock:
            now = time.monotonic()
            self.next = max(self.next, now)
            wait, self.next = self.next - now, self.next + self.step
            if wait > 0:
                await asyncio.sleep(wait)


class _Room:
    """A table's live side: its lock, its connections and its bots' task."""

    def __init__(self, table: Table, server: TableServer) -> None:
        self.table = table
        self.server = server
        self.lock = asyncio.Lock()
        self.connections: list[_Connection] = []
        self.bots: asyncio.Task[None] | None = None
        self.stood_in: list[int] = []  # the stand-ins the pages were last shown
        self.arriving = 0  # connections accepted and not yet joined
        self.logged = 0  # the log's lines every page has been sent
        self.quiet_since = server.clock()  # since when no page has been open here

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
        since, self.logged = self.logged, len(self.table.log)  # each page has the lines before
        for connection in list(self.connections):
            if connection is but:
                continue
            if connection.seat not in texts:
                texts[connection.seat] = json.dumps(self.table.message(connection.seat, since))
            self.post(connection, texts[connection.seat])

    def drop(self, connection: _Connection) -> None:
        """``connection`` gets nothing more; its seat waits for its token."""
        if connection not in self.connections:
            return
        self.connections.remove(connection)
        if not self.connections:
            self.quiet_since = self.server.clock()
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
        """The bots' moves, one at a time, each within the server's and the creator's
        rates, while a page is open here (nobody watching: nothing to play for)."""
        while self.connections and self.table.bots_may_move:
            await self.server.pace(self.table.creator)
            async with self.lock:
                if not self.connections or not self.table.bots_move():
                    return
                await self.server.writer.durable()
                self.broadcast()
            await asyncio.sleep(BOT_PAUSE)

    async def send_all(self, connection: _Connection) -> None:
        """Send ``connection``'s queue, no lock held; a failing or slow send drops it."""
        try:
            while (text := await connection.queue.get()) is not None:
                async with asyncio.timeout(SEND_TIMEOUT):  # no task a send, as wait_for made
                    await connection.websocket.send_text(text)
        except Exception:  # a dead or slow socket: the client is gone either way
            pass
        finally:
            self.drop(connection)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(connection.websocket.close(code=1008), 1.0)


class TableServer:
    """The tables of one server, kept in the SQLite file ``db`` (this server's alone:
    :class:`~perudo.web.store.StoreLock`) or in the PostgreSQL database the URL ``db``
    names, shared with other servers (:class:`~perudo.web.postgres.PostgresStore`: each
    table served by the one holding its lease; pages reach this one at ``address``), their
    records and rows signed with the key in ``key`` (beside a SQLite database by default,
    made on the first start; the same file for every server on one PostgreSQL database),
    playing the editions ``variants`` (by key), within ``limits`` (by default
    :class:`~perudo.web.limits.Limits`'s defaults). It answers requests that name one of
    ``allowed_hosts`` (by default :func:`default_hosts` of the address ``host`` it is bound
    to). :meth:`app` is its ASGI app; :meth:`run` serves it.

    Raises:
        StoreError: the database or the key file cannot be used, another server uses the
            SQLite file, or a PostgreSQL database was named without a key file.
    """

    def __init__(
        self, db: Path | str, variants: Mapping[str, Variant], *, key: Path | str | None = None,
        host: str = "127.0.0.1", allowed_hosts: Iterable[str] = (), limits: Limits | None = None,
        clock: Callable[[], float] = time.monotonic, address: str | None = None,
    ) -> None:  # fmt: skip
        self.variants = dict(variants)
        self.limits = limits = limits if limits is not None else Limits()
        self.closed = False
        self.lock: StoreLock | None = None
        self.store: Store
        if is_postgres_url(db):  # several servers, each table under one's lease
            if key is None:
                raise StoreError("a PostgreSQL store needs --key FILE: the key every server "
                                 "on it shares")  # fmt: skip
            from perudo.web.postgres import PostgresStore

            self.key = server_key(Path(key))
            self.store = PostgresStore(str(db), self.key, address=address or f"http://{host}",
                                       lease=limits.lease)  # fmt: skip
        else:
            db = Path(db)
            self.key = server_key(Path(key) if key is not None else db.with_suffix(".key"))
            self.lock = StoreLock(db)
            try:
                self.store = TableStore(db)
            except StoreError:
                self.lock.release()
                raise
        self.host = host
        self.allowed_hosts = frozenset(name.lower() for name in allowed_hosts) or default_hosts(
            host
        )
        self.siblings: frozenset[str] = frozenset()  # the other servers' origins (shared store)
        self._renewed = 0.0
        self.gate = Gate(total=limits.connections, per_address=limits.connections_per_address,
                         head_timeout=limits.head_timeout)  # fmt: skip
        self.clock = clock
        self.writer = Writer(self.store)
        self.rooms: dict[str, _Room] = {}
        self._pace = _Pace(limits.bot_moves)  # every table's bots
        self._paces: dict[str, _Pace] = {}  # the bots of the tables made from one address
        for stored in self.store.tables(limit=limits.tables):
            if self.store.claim(stored.id):  # another server's while it holds it
                self._take(stored)

    def _take(self, stored: StoredTable) -> None:
        """Serve the table ``stored`` (its lease held), rebuilt from its row."""
        try:
            table = Table.load(self.writer, self.key, stored, self.variants, clock=self.clock)
        except StoreError as error:  # kept in the store, never played: say so
            log.error("%s", error)
            self.store.release(stored.id)
            return
        self.rooms[table.id] = _Room(table, self)

    # --- tables --------------------------------------------------------------------------

    def creator(self, host: str) -> str:
        """Who a client at ``host`` is in the store: a keyed hash of its address (the
        address itself is never written)."""
        address = address_of(host).encode("utf-8", "replace")
        return hmac.new(self.key, b"creator:" + address, hashlib.sha256).hexdigest()[:24]

    def create(self, data: Any, *, host: str = "") -> Table:
        """A new table from a setup's JSON values (:meth:`perudo.web.TableSetup.from_dict`),
        made by a client at ``host``.

        Raises:
            GameSetupError: a bad setup, an edition this server does not offer, a seed
                chosen for a table of more than one person, or too many active tables (on
                the server, or made from this address).
        """
        setup = TableSetup.from_dict(data)
        variant = self.variants.get(setup.variant)
        if variant is None:
            raise GameSetupError(f"this server offers {', '.join(sorted(self.variants))}, not "
                                 f"{setup.variant!r}")  # fmt: skip
        checked_players(variant, setup.players)
        if setup.seed is not None and setup.bots.count(None) > 1:
            raise GameSetupError(
                "a seed chosen by one person would show them every hand: only a table of one "
                "person and bots takes one (leave it empty for a secret seed)"
            )
        creator = self.creator(host)
        self._check_room(creator)
        table_id = secrets.token_urlsafe(6)
        if not self.store.claim(table_id):  # pragma: no cover - 48 random bits, taken
            raise GameSetupError("a new table's name was taken: try again")
        table = Table.create(self.writer, self.key, table_id, setup, variant, clock=self.clock,
                             creator=creator)  # fmt: skip
        self.rooms[table_id] = _Room(table, self)
        return table

    def rematch(self, table_id: str) -> Table:
        """The rematch of table ``table_id``'s finished game
        (:meth:`perudo.web.Table.rematched`): made once, then the same table for whoever
        asks again; counted against the creator's active tables like any other.

        Raises:
            GameSetupError: no such active table, its game is not over, or too many
                active tables.
        """
        room = self.rooms.get(table_id)
        if room is None:
            raise GameSetupError(f"this server has no table {shown(table_id)}")
        made = room.table.rematch
        if made is not None and made in self.rooms:
            return self.rooms[made].table
        if made is not None:
            raise GameSetupError(f"the rematch, table {made}, has ended")
        self._check_room(room.table.creator)
        new_id = secrets.token_urlsafe(6)
        if not self.store.claim(new_id):  # pragma: no cover - 48 random bits, taken
            raise GameSetupError("the rematch's name was taken: try again")
        table = room.table.rematched(new_id, creator=room.table.creator)
        self.rooms[table.id] = _Room(table, self)
        return table

    def _check_room(self, creator: str) -> None:
        """Refuse a new table past the server's active tables or ``creator``'s."""
        active = [room.table for room in self.rooms.values() if room.table.closed is None]
        if len(active) >= self.limits.tables:
            raise GameSetupError(f"this server holds {self.limits.tables} active tables "
                                 "already: try again once a game has ended")  # fmt: skip
        if sum(table.creator == creator for table in active) >= self.limits.tables_per_address:
            raise GameSetupError(f"{self.limits.tables_per_address} active tables made from "
                                 "one address at most: finish or leave one first")  # fmt: skip

    def editions(self) -> dict[str, Any]:
        """The editions a new table may play, by name, and the one offered first."""
        offered = sorted(self.variants.values(), key=lambda variant: variant.name.casefold())
        default = DEFAULT_EDITION if DEFAULT_EDITION in self.variants else offered[0].key
        return {"editions": [{"key": variant.key, "name": variant.name} for variant in offered],
                "default": default}  # fmt: skip

    def listing(self) -> list[dict[str, Any]]:
        """Every table in play or just finished, as the page lists it (newest first)."""
        rows = []
        for room in reversed(self.rooms.values()):
            table = room.table
            rows.append({
                "id": table.id, "variant": table.setup.variant,
                "edition": table.state.variant.name, "names": table.names(),
                "people": [bot is None for bot in table.setup.bots],
                "ready": table.ready, "over": table.state.is_over,
                "seed": table.setup.seed,
            })  # fmt: skip
        return rows

    async def pace(self, creator: str) -> None:
        """Wait for a bot move's turn: within the rate of the tables made from one
        address, then within the server's."""
        if creator not in self._paces:
            self._paces[creator] = _Pace(self.limits.bot_moves_per_address)
        await self._paces[creator].take()
        await self._pace.take()

    # --- the app ---------------------------------------------------------------------

    def same_origin(self, headers: Mapping[str, str]) -> bool:
        """The request names one of this server's host names (a page whose own name
        points at this server is refused: DNS rebinding) and comes from this server's own
        page (a browser always sends ``Origin``, another site's page its own)."""
        host = headers.get("host", "").lower()
        try:
            name = urlsplit(f"//{host}").hostname
        except ValueError:
            return False
        if name not in self.allowed_hosts:
            return False
        origin = headers.get("origin")
        if origin is None:
            return True
        netloc = urlsplit(origin).netloc.lower()
        return netloc == host or netloc in self.siblings  # a page another server sent here

    def app(self) -> Starlette:
        """The server's ASGI app."""

        async def page(request: Request) -> Response:
            if not self.same_origin(request.headers):
                return PlainTextResponse("forbidden", status_code=403)
            table_id = request.path_params.get("table")
            if table_id is not None and table_id not in self.rooms:
                stored = await self.writer.call(lambda store: store.closed(table_id))
                elsewhere = self.store.holder_address(table_id)
                if elsewhere is None and (stored is None or not stored.is_signed_by(self.key)):
                    return HTMLResponse(MISSING, status_code=404)
            return HTMLResponse(PAGE)

        async def tables(request: Request) -> Response:
            if not self.same_origin(request.headers):
                return PlainTextResponse("forbidden", status_code=403)
            if request.method == "GET":
                return JSONResponse({"tables": self.listing(), "variants": sorted(self.variants),
                                     **self.editions()})  # fmt: skip
            kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":  # a form or text/plain: what another site can send
                return JSONResponse({"error": "a setup is sent as application/json"},
                                    status_code=415)  # fmt: skip
            try:
                body = await asyncio.wait_for(_body(request), self.limits.head_timeout)
            except TimeoutError:
                return JSONResponse({"error": "the setup did not arrive in time"}, status_code=408)
            if body is None:
                return JSONResponse({"error": "the setup is too long"}, status_code=413)
            data = _json_value(body)
            if not isinstance(data, dict):
                return JSONResponse({"error": "a setup is a JSON object"}, status_code=400)
            host = request.client.host if request.client else ""
            try:
                table = self.create(data, host=host)
                await self.writer.durable()
            except PerudoError as error:
                return JSONResponse({"error": str(error)[:300]}, status_code=400)
            return JSONResponse({"id": table.id}, status_code=201)

        async def schema(request: Request) -> Response:
            if not self.same_origin(request.headers):
                return PlainTextResponse("forbidden", status_code=403)
            return JSONResponse(SCHEMA, media_type="application/schema+json")

        async def record(request: Request) -> Response:
            if not self.same_origin(request.headers):
                return PlainTextResponse("forbidden", status_code=403)
            table_id = request.path_params["table"]
            room = self.rooms.get(table_id)
            if room is not None:
                over, text = room.table.state.is_over, room.table.record_text()
            else:
                stored = await self.writer.call(lambda store: store.closed(table_id))
                if stored is None or not stored.is_signed_by(self.key):
                    return PlainTextResponse("no such table", status_code=404)
                over, text = stored.over, stored.record
            if not over:
                return PlainTextResponse("the game is not over", status_code=409)
            headers = {"content-disposition": f'attachment; filename="{table_id}.perudo"'}
            return PlainTextResponse(text, headers=headers)

        async def socket(websocket: WebSocket) -> None:
            room = self.rooms.get(websocket.path_params["table"])
            if room is None and self.same_origin(websocket.headers):
                elsewhere = self.store.holder_address(websocket.path_params["table"])
                if elsewhere is not None:  # another server serves it: the page goes there
                    await websocket.accept()
                    await websocket.send_text(json.dumps({"type": "moved", "url": elsewhere}))
                    await websocket.close(code=1000)
                    return
            full = room is None or (
                len(room.connections) + room.arriving >= self.limits.connections_per_table
            )
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
                self.close()

        return Starlette(
            routes=[
                Route("/", page),
                Route("/tables/{table}", page),
                Route("/api/tables", tables, methods=["GET", "POST"]),
                Route("/api/schema", schema),
                Route("/tables/{table}/record", record),
                WebSocketRoute("/tables/{table}/ws", socket),
            ],
            lifespan=lifespan,
        )

    def run(self, port: int = 8000, *, bound: Callable[[], None] | None = None) -> None:
        """Serve :meth:`app` on this server's host and ``port`` until SIGINT or SIGTERM,
        through uvicorn with the connections guarded (:mod:`perudo.web.guard`: the h11
        parser, whose request head is bounded, each head within its deadline, the
        connections capped) and a WebSocket frame bounded by :data:`MAX_FRAME`; ``bound``
        is called once the port is bound (so what it says is true: pages may come).

        Raises:
            ServeError: the port cannot be bound (taken, or not this machine's address).
        """
        family = sockets.AF_INET6 if ":" in self.host else sockets.AF_INET
        try:
            listener = sockets.create_server((self.host.strip("[]"), port), family=family)
        except OSError as error:
            raise ServeError(f"cannot serve on {shown(self.host)} port {port}: "
                             f"{error.strerror or error}") from None  # fmt: skip
        if bound is not None:
            bound()
        config = uvicorn.Config(
            self.app(), host=self.host, port=port, log_level="warning",
            http=guarded_protocol(self.gate), ws="websockets-sansio", ws_max_size=MAX_FRAME,
            ws_ping_interval=20.0, ws_ping_timeout=20.0, timeout_keep_alive=5,
            ws_per_message_deflate=False,
            timeout_graceful_shutdown=3,
        )  # fmt: skip
        try:
            uvicorn.Server(config).run(sockets=[listener])
        finally:
            listener.close()

    def close(self) -> None:
        """Write what is left, close the store and let it go (once: a second call does
        nothing)."""
        if self.closed:
            return
        self.closed = True
        self.writer.close()
        self.store.close()
        if self.lock is not None:
            self.lock.release()

    async def _serve(self, room: _Room, websocket: WebSocket) -> None:
        query = websocket.query_params
        async with room.lock:
            room.arriving -= 1
            name, problem = query.get("name"), None
            try:
                seat, token = room.table.join(name or "", query.get("token"))
            except GameSetupError as error:  # no name, or not one a seat takes: watching
                seat, token = None, None
                problem = str(error) if name else None
            if name and seat is None and problem is None:
                problem = "this table is full"
            await self.writer.durable()  # a seat taken is on disk before the page hears of it
            connection = _Connection(websocket, seat)
            if seat is not None:  # the same seat from a new page: the old page goes
                for other in [c for c in room.connections if c.seat == seat]:
                    room.drop(other)
            room.connections.append(connection)
            connection.sender = asyncio.get_running_loop().create_task(room.send_all(connection))
            room.post(connection, {**room.table.message(seat), "token": token})
            if problem is not None:
                room.post(connection, {"type": "error", "message": f"{problem}: you are watching"})
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
                    await self._frame(room, connection, frame)
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

    async def _frame(self, room: _Room, connection: _Connection, frame: Mapping[str, Any]) -> None:
        """A frame from ``connection``'s seat: its move, or a refusal to it alone."""
        assert connection.seat is not None
        text = frame.get("text")
        data = _json_value(text) if isinstance(text, str) and len(text) <= MAX_FRAME else None
        if isinstance(data, dict) and data.get("rematch") is True:
            try:
                self.rematch(room.table.id)
            except GameSetupError as error:
                room.post(connection, {"type": "refused", "reason": "no-rematch",
                                       "message": str(error)})  # fmt: skip
                return
            await self.writer.durable()
            room.broadcast()
            return
        move = data.get("move") if isinstance(data, dict) else None
        if not isinstance(move, str):
            room.post(connection, {"type": "refused", "reason": "malformed-message",
                                   "message": 'a message is {"move": "3x5"} (or, once the game '
                                   'is over, {"rematch": true}), in JSON'})  # fmt: skip
            return
        benched = connection.seat in room.table.benched
        refusal = room.table.play(connection.seat, move)
        if refusal is not None:
            room.post(connection, {"type": "refused", "reason": refusal.reason,
                                   "message": str(refusal)})  # fmt: skip
            if not benched and connection.seat in room.table.benched:
                told = (f"{BENCH_AFTER} refused moves in a row: a bot plays for this seat "
                        "until it connects again")  # fmt: skip
                room.post(connection, {"type": "benched", "reason": "refused-moves",
                                       "message": told})  # fmt: skip
                room.stood_in = room.table.stood_in()
                room.broadcast()
                room.wake()
            return
        await self.writer.durable()
        room.broadcast()
        room.wake()

    async def _tick(self) -> None:
        """Once a second: wake the bots of every table with a page open where one may
        move (a turn past its timeout is played by the stand-in), close the tables nobody
        has been at for the ``idle`` limit, and let go of the finished ones nobody
        watches."""
        while True:
            await asyncio.sleep(1.0)
            try:
                await self._sweep()
            except Exception:  # a failing sweep must not end the ticks (the store, the disk)
                log.exception("a sweep of the tables failed")

    async def _leases(self) -> None:
        """Renew this server's leases; drop the tables whose lease another server took
        (their pages are told where they went), and take the active tables whose server
        died (nobody renewed their lease)."""
        held = self.store.renew()
        for room in list(self.rooms.values()):
            if room.table.id in held or room.table.closed is not None:
                continue
            async with room.lock:
                elsewhere = self.store.holder_address(room.table.id)
                for connection in list(room.connections):
                    if elsewhere is not None:
                        room.post(connection, {"type": "moved", "url": elsewhere})
                    room.drop(connection)
            del self.rooms[room.table.id]
        self.siblings = frozenset(
            urlsplit(address).netloc.lower() for address in self.store.addresses()
        )
        active = sum(room.table.closed is None for room in self.rooms.values())
        for stored in self.store.orphans(limit=max(0, self.limits.tables - active)):
            if self.store.claim(stored.id):
                self._take(stored)

    async def _sweep(self) -> None:
        now, closed = self.clock(), 0
        if now - self._renewed >= self.limits.lease / 3:
            self._renewed = now
            await self._leases()
        for room in list(self.rooms.values()):
            table = room.table
            if table.closed is not None:  # finished: kept while watched, then let go
                if not room.connections and now - room.quiet_since >= FINISHED:
                    del self.rooms[table.id]
                    self.store.release(table.id)
                    closed += 1
                continue
            if not room.connections:
                if now - room.quiet_since >= self.limits.idle:
                    async with room.lock:
                        table.close()
                    await self.writer.durable()  # closed in the store before its lease goes
                    del self.rooms[table.id]
                    self.store.release(table.id)
                    closed += 1
                continue
            stood_in = table.stood_in()
            if stood_in != room.stood_in:
                async with room.lock:
                    room.stood_in = stood_in
                    room.broadcast()
            if table.bots_may_move:
                room.wake()
        if closed:
            await self.writer.call(lambda store: store.prune(self.limits.archive))
            creators = {room.table.creator for room in self.rooms.values()}
            for creator in set(self._paces) - creators:
                del self._paces[creator]


async def _body(request: Request) -> bytes | None:
    """The request's body, or ``None`` past :data:`MAX_FRAME` bytes."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FRAME:
            return None
    return body
