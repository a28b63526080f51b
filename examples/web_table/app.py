"""A table in a browser: a small real multiplayer server for perudo.

One table: human players join from their browsers, bots fill the other seats. Each
connection receives only its own player's view (``PlayerView.to_dict()`` and its SVG
picture) over a WebSocket, sends moves as JSON (``{"move": "3x5"}``, in the notation or the
edition's words), and gets refusals with their reason. In Bluff the bots wait, after a
person's bid, for that person to re-roll or send ``{"move": "pass"}``. Needs the extra:
``pip install '.[web]'`` (Starlette and uvicorn).

    python examples/web_table/app.py --variant italian --players 3 --humans 1 --port 8000

then open http://127.0.0.1:8000 (on a LAN: ``--host 0.0.0.0``, and http://THIS-MACHINE:8000
on the others).

What a hostile client cannot do here:

- **Take a seat.** The first connection to a free human seat gets it with a secret token,
  which the page keeps; a dropped seat waits for that token and nobody else gets its hand.
  A connection from another site's page (its ``Origin`` is not this server) is refused.
- **Freeze the table.** Nothing awaits a socket while the table's lock is held: every
  message goes into the connection's own bounded queue, and a client that does not read
  (its queue full, or a send that takes too long) is dropped, never waited for.
- **Break it.** A binary, oversized or malformed frame is refused to that client alone;
  whatever ends a handler, its connection is removed; frames past a rate are dropped and
  spectators' frames are ignored; connections past a limit are refused.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import secrets
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

try:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect
except ImportError as error:  # pragma: no cover - the extra is missing
    raise SystemExit(f"the web table needs the extra: pip install '.[web]' ({error})") from None

import perudo
from perudo.bots import make_bot
from perudo.match import play_move
from perudo.svg import table_svg

PAGE = (Path(__file__).parent / "page.html").read_text(encoding="utf-8")
log = logging.getLogger("web_table")

#: The longest frame read, in bytes (a move is a few characters); uvicorn refuses longer.
MAX_FRAME = 4096
#: Messages waiting for one client; a client that lets more pile up is dropped.
QUEUE = 32
#: Seconds one send may take before the client is dropped as too slow.
SEND_TIMEOUT = 5.0
#: Frames a player may send a second (a burst of twice as many); the rest are dropped.
RATE = 10.0
#: Connections the table holds at once (players and spectators); more are refused.
MAX_CONNECTIONS = 64
#: Seconds between two bot moves, so people can follow them.
BOT_PAUSE = 0.05


class Connection:
    """One browser: its seat (``None`` watches), its bounded outgoing queue and the task
    that sends from it, and its frame allowance."""

    def __init__(self, websocket: WebSocket, seat: int | None) -> None:
        self.websocket = websocket
        self.seat = seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=QUEUE)
        self.sender: asyncio.Task[None] | None = None
        self.allowance, self.checked = 2 * RATE, time.monotonic()

    def allows_frame(self) -> bool:
        """Whether one more frame is within the rate (a token bucket)."""
        now = time.monotonic()
        self.allowance = min(2 * RATE, self.allowance + (now - self.checked) * RATE)
        self.checked = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True


class Table:
    """The one true game, the seats of the people at it, and their connections.

    Every method that changes the table runs under ``lock`` and never awaits a socket: it
    puts messages on the connections' queues (:meth:`post`), which their senders empty.
    """

    def __init__(self, variant: str, players: int, humans: int, seed: int | None) -> None:
        self.state = perudo.new_game(variant, players, seed=seed)
        self.humans = list(range(humans))
        self.bots = [
            _Person() if n in self.humans else make_bot("odds", self.state.seed * 31 + n)
            for n in range(players)
        ]  # a person's seat has no bot: nothing moves for it, in turn or out of turn
        # (round, bids, seat) where a person let an action of their own go (Bluff's re-roll)
        self.passed: set[tuple[int, int, int]] = set()
        self.tokens: dict[int, str] = {}  # seat -> the secret of whoever took it
        self.connections: list[Connection] = []
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task[None] | None = None

    # --- seats -------------------------------------------------------------------------

    def seat_for(self, token: str | None) -> tuple[int | None, str | None]:
        """The seat a newcomer takes, and its token: the seat of ``token``, else a human
        seat nobody has taken yet (with a new token), else none (a spectator)."""
        for seat, secret in self.tokens.items():
            if token is not None and secrets.compare_digest(secret, token):
                return seat, secret
        free = next((seat for seat in self.humans if seat not in self.tokens), None)
        if free is None:
            return None, None
        self.tokens[free] = secrets.token_urlsafe(24)
        return free, self.tokens[free]

    def join(self, connection: Connection, token: str | None) -> None:
        if connection.seat is not None:  # the same seat from a new page: the old one goes
            for other in [c for c in self.connections if c.seat == connection.seat]:
                self.drop(other)
        self.connections.append(connection)
        self.post(connection, token=token)
        self.wake_bots()

    def drop(self, connection: Connection) -> None:
        """Remove ``connection``: it gets nothing more (its seat waits for its token)."""
        if connection not in self.connections:
            return
        self.connections.remove(connection)
        try:
            connection.queue.put_nowait(None)  # tells its sender to close the socket
        except asyncio.QueueFull:  # it is not keeping up: stop it now
            if connection.sender is not None:
                connection.sender.cancel()

    # --- messages ----------------------------------------------------------------------

    def message(self, seat: int | None, **extra: Any) -> str:
        view = self.state.public_view() if seat is None else self.state.view(seat)
        data = {"seat": seat, "view": view.to_dict(), "svg": table_svg(view), **extra}
        if seat is not None:
            data["legal"] = [str(a) for a in view.legal_actions]
            if seat == self.waiting_for():
                data["legal"].append("pass")  # let the re-roll go
        return json.dumps(data)

    def post(self, connection: Connection, text: str | None = None, **extra: Any) -> None:
        """Queue a message for ``connection`` (its view by default); a client whose queue
        is full is not read from fast enough, and is dropped."""
        try:
            connection.queue.put_nowait(text or self.message(connection.seat, **extra))
        except asyncio.QueueFull:
            self.drop(connection)

    def broadcast(self) -> None:
        texts: dict[int | None, str] = {}  # one view and one picture a seat, not a connection
        for connection in list(self.connections):
            seat = connection.seat
            if seat not in texts:
                texts[seat] = self.message(seat)
            self.post(connection, texts[seat])

    # --- play ----------------------------------------------------------------------------

    def ready(self) -> bool:
        """Whether every human seat has been taken (the bots wait until then)."""
        return len(self.tokens) == len(self.humans)

    def play(self, connection: Connection, frame: dict[str, Any]) -> None:
        """A frame from ``connection``: a move of its seat, or a refusal to it alone."""
        if connection.seat is None:
            return  # spectators' frames are ignored: they move nothing and get no reply
        if not connection.allows_frame():
            return  # past the rate: dropped unanswered
        if frame.get("type") != "websocket.receive" or not isinstance(frame.get("text"), str):
            self.post(connection, refused="malformed-message", message="send moves as text")
            return
        try:
            data = json.loads(frame["text"])
        except ValueError:
            data = None
        move = data.get("move") if isinstance(data, dict) else None
        if not isinstance(move, str):
            message = 'a message is {"move": "3x5"}, in JSON'
            self.post(connection, refused="malformed-message", message=message)
            return
        if move == "pass" and connection.seat == self.waiting_for():
            self.passed.add((*self.moment(), connection.seat))
            self.broadcast()
            self.wake_bots()
            return
        try:
            action = perudo.parse_action(move[:200], variant=self.state.variant)
            self.state = self.state.apply(action, by=connection.seat)
        except perudo.IllegalActionError as error:
            self.post(connection, refused=error.reason, message=str(error))
            return
        self.broadcast()
        self.wake_bots()

    def moment(self) -> tuple[int, int]:
        """The round and how many bids it has: what a person's pass answers."""
        return self.state.round_number, len(self.state.bids)

    def waiting_for(self) -> int | None:
        """The person the bots wait for: one who may take an action of the edition's own
        out of turn now (Bluff's bidder, right after the bid) and has not let it go."""
        state = self.state
        if state.is_over or not state.variant.actions.out_of_turn:
            return None
        for seat in self.humans:
            asked = seat != state.to_act and (*self.moment(), seat) not in self.passed
            if asked and any(isinstance(a, perudo.Act) for a in state.legal_actions(by=seat)):
                return seat
        return None

    def wake_bots(self) -> None:
        """Start the bots' task if a bot is to act and none is running."""
        to_act = self.state.to_act
        idle = self.bot_task is None or self.bot_task.done()
        bots_move = to_act is not None and to_act not in self.humans
        if idle and self.ready() and bots_move and self.waiting_for() is None:
            self.bot_task = asyncio.get_running_loop().create_task(self.play_bots())

    async def send_all(self, connection: Connection) -> None:
        """Send ``connection``'s queue to its socket, the lock not held. A send past the
        timeout, or a failing one, drops the connection: no other handler ever sees it."""
        try:
            while (text := await connection.queue.get()) is not None:
                await asyncio.wait_for(connection.websocket.send_text(text), SEND_TIMEOUT)
        except Exception:  # a dead or slow socket: the client is gone either way
            pass
        finally:
            self.drop(connection)  # no await since the check: safe without the lock
            with contextlib.suppress(Exception):
                await asyncio.wait_for(connection.websocket.close(code=1008), 1.0)

    async def play_bots(self) -> None:
        """Bots move until a human is to act or the game ends, pausing between moves with
        the lock released."""
        while True:
            async with self.lock:
                if self.state.is_over or self.state.to_act in self.humans:
                    return
                if self.waiting_for() is not None:
                    return
                _, _, self.state = play_move(self.state, self.bots)
                self.broadcast()
            await asyncio.sleep(BOT_PAUSE)


class _Person:
    """A person's seat among the bots: never asked to move (no ``interrupt`` either)."""

    def act(self, view: object) -> perudo.Action:  # pragma: no cover - people send moves
        raise AssertionError("a person's seat moves by its connection")


LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


def same_origin(websocket: WebSocket, *, loopback: bool) -> bool:
    """Whether the connection comes from this server's own page: a browser always sends
    ``Origin``, and another site's page would send its own. (A program that sends none is
    not a page another site could have opened.) A table on the loopback also wants a
    loopback ``Host``: a site whose name is made to point at 127.0.0.1 (DNS rebinding)
    would otherwise be its own origin."""
    host = websocket.headers.get("host", "").lower()
    if loopback and urlsplit(f"//{host}").hostname not in LOOPBACK:
        return False
    origin = websocket.headers.get("origin")
    return origin is None or urlsplit(origin).netloc.lower() == host


def make_app(
    variant: str, players: int, humans: int, seed: int | None, *, host: str = "127.0.0.1"
) -> Starlette:
    """The table's app; ``host`` is the address it listens on."""
    table = Table(variant, players, humans, seed)
    loopback = host in LOOPBACK

    async def page(request: Any) -> HTMLResponse:
        return HTMLResponse(PAGE)

    async def socket(websocket: WebSocket) -> None:
        if (
            not same_origin(websocket, loopback=loopback)
            or len(table.connections) >= MAX_CONNECTIONS
        ):
            await websocket.close(code=1008)  # before accepting: the client sees a 403
            return
        await websocket.accept()
        async with table.lock:
            seat, token = table.seat_for(websocket.query_params.get("token"))
            connection = Connection(websocket, seat)
            sender = table.send_all(connection)
            connection.sender = asyncio.get_running_loop().create_task(sender)
            table.join(connection, token)
        try:
            while not connection.sender.done():
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                async with table.lock:
                    table.play(connection, frame)
        except (WebSocketDisconnect, RuntimeError):  # RuntimeError: the sender closed it
            pass
        except Exception:
            log.exception("a connection's handler failed")
        finally:  # whatever ended the handler, its connection goes
            async with table.lock:
                table.drop(connection)
            with contextlib.suppress(asyncio.CancelledError):
                await connection.sender

    return Starlette(routes=[Route("/", page), WebSocketRoute("/ws", socket)])


def main() -> None:
    parser = argparse.ArgumentParser(description="A perudo table in the browser.")
    parser.add_argument("--variant", default="italian")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--humans", type=int, default=1)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    app = make_app(args.variant, args.players, args.humans, args.seed, host=args.host)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=MAX_FRAME)


if __name__ == "__main__":
    main()
