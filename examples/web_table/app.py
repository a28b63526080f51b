"""A table in a browser: a small real multiplayer server for perudo (issue 16).

One table: human players join from their browsers, bots fill the other seats. Each
connection receives only its own player's view (``PlayerView.to_dict()`` and its SVG
picture) over a WebSocket, sends moves in the notation or the edition's words, and gets
refusals with their reason. Needs the extra: ``pip install '.[web]'`` (Starlette and
uvicorn).

    python examples/web_table/app.py --variant italian --players 3 --humans 1 --port 8000

then open http://127.0.0.1:8000 (on a LAN: ``--host 0.0.0.0``, and http://THIS-MACHINE:8000
on the others; the first browsers to connect take the human seats, later ones watch).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

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


class Table:
    """The one true game, the seats of the people at it, and their connections."""

    def __init__(self, variant: str, players: int, humans: int, seed: int | None) -> None:
        self.state = perudo.new_game(variant, players, seed=seed)
        self.humans = list(range(humans))
        self.bots = [make_bot("odds", self.state.seed * 31 + n) for n in range(players)]
        self.connections: dict[WebSocket, int | None] = {}
        self.lock = asyncio.Lock()

    def seat_for_newcomer(self) -> int | None:
        taken = set(self.connections.values())
        return next((seat for seat in self.humans if seat not in taken), None)

    def message(self, seat: int | None, **extra: Any) -> str:
        view = self.state.public_view() if seat is None else self.state.view(seat)
        data = {"seat": seat, "view": view.to_dict(), "svg": table_svg(view), **extra}
        if seat is not None:
            data["legal"] = [str(a) for a in view.legal_actions]
        return json.dumps(data)

    async def broadcast(self) -> None:
        for connection, seat in list(self.connections.items()):
            await connection.send_text(self.message(seat))

    async def play_bots(self) -> None:
        """Bots move until a human is to act or the game ends."""
        while not self.state.is_over and self.state.to_act not in self.humans:
            _, _, self.state = play_move(self.state, self.bots)
            await self.broadcast()
            await asyncio.sleep(0.05)


def make_app(variant: str, players: int, humans: int, seed: int | None) -> Starlette:
    table = Table(variant, players, humans, seed)

    async def page(request: Any) -> HTMLResponse:
        return HTMLResponse(PAGE)

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        async with table.lock:
            seat = table.seat_for_newcomer()
            table.connections[websocket] = seat
            await websocket.send_text(table.message(seat))
            if len([s for s in table.connections.values() if s is not None]) == len(table.humans):
                await table.play_bots()
        try:
            while True:
                text = (await websocket.receive_text())[:200]
                async with table.lock:
                    if seat is None:
                        await websocket.send_text(
                            table.message(None, refused="spectator", message="you are watching")
                        )
                        continue
                    try:
                        action = perudo.parse_action(text, variant=table.state.variant)
                        table.state = table.state.apply(action, by=seat)
                    except perudo.IllegalActionError as error:
                        await websocket.send_text(
                            table.message(seat, refused=error.reason, message=str(error))
                        )
                        continue
                    await table.broadcast()
                    await table.play_bots()
        except WebSocketDisconnect:
            table.connections.pop(websocket, None)

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
    app = make_app(args.variant, args.players, args.humans, args.seed)
    # a move is a few characters: refuse any message over 4 kB before it is read
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=4096)


if __name__ == "__main__":
    main()
