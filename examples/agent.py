"""A program that plays at a ``perudo serve`` table over its WebSocket, as a page would:
it makes a table (itself and two built-in bots), takes its seat, and plays a whole game
from the messages alone (``GET /api/schema`` describes them), then prints the places.

    python examples/agent.py                         # starts a server of its own, then stops it
    python examples/agent.py http://127.0.0.1:8000   # plays at a running server

It needs the ``web`` extra (``websockets`` comes with it). Its play: call the last bid
when it is more than the dice it can expect to see (its own count, plus a third of the
others' dice for a face with ones wild, else a sixth), else bid the lowest legal quantity
of the face it holds most of.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

PERUDO = Path(sys.executable).parent / "perudo"


def choose(message: dict[str, Any]) -> str:
    """The move to send for the turn in ``message`` (a ``view`` message with ``turn``)."""
    view, turn = message["view"], message["turn"]
    hand: list[int] = view["dice"]
    others = message["dice_in_play"] - len(hand)
    bids = view["bids"]
    calls = [move["move"] for move in turn["moves"] if move["kind"] == "call"]
    if bids and calls:
        quantity, _, face = str(bids[-1]["bid"]).partition("x")
        if quantity.isdigit() and face.rstrip("!").isdigit():
            face_number = int(face.rstrip("!"))
            mine = sum(die == face_number or (die == 1 and face_number != 1) for die in hand)
            expected = mine + others * (1 / 6 if face_number == 1 else 1 / 3)
            if int(quantity) > expected + 0.5:
                return calls[0]  # Dudo, in the edition's word
    faces = [face for face in turn["faces"] if face["quantities"]]
    if not faces:  # no plain bid now: a declaration, an action or a call
        return turn["moves"][0]["move"]
    best = max(faces, key=lambda face: (sum(die == face["face"] for die in hand), face["face"]))
    return f"{best['quantities'][0]}x{best['face']}"


async def play(url: str, name: str = "Agent") -> list[str]:
    """One whole game at ``url`` against two bots; the places, first to last."""
    setup = {"variant": "italian", "bots": [None, "odds", "odds"], "seed": None, "timeout": 60}
    request = urllib.request.Request(
        f"{url}/api/tables", data=json.dumps(setup).encode(),
        headers={"content-type": "application/json"}, method="POST",
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=10) as answer:
        table = json.loads(answer.read())["id"]
    with urllib.request.urlopen(f"{url}/api/schema", timeout=10) as answer:
        protocol = json.loads(answer.read())["properties"]["protocol"]["const"]
    socket_url = url.replace("http", "ws", 1) + f"/tables/{table}/ws?name={name}"
    async with connect(socket_url) as websocket:
        moves = 0
        async for text in websocket:
            message = json.loads(text)
            if message["type"] == "refused":  # never expected: say so, and go on
                print(f"refused: {message['message']}", file=sys.stderr)
                continue
            if message["type"] != "view":
                continue
            assert message["protocol"] == protocol
            view = message["view"]
            if view["winners"]:
                names = message["names"]
                print(f"{moves} moves; the last line of the log: {message['log'][-1]['text']}")
                return [names[seat] for seat in message["places"]]
            if view["to_act"] == message["seat"] and message.get("legal"):
                await websocket.send(json.dumps({"move": choose(message)}))
                moves += 1
    raise RuntimeError("the server closed the connection before the end")


@contextlib.contextmanager
def own_server() -> Iterator[str]:
    """``perudo serve`` on a free port of the loopback, its store in a folder of its own,
    stopped after."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as folder:
        command = [str(PERUDO), "serve", "--port", str(port), "--db",
                   str(Path(folder) / "perudo.sqlite"), "--variant", "italian"]  # fmt: skip
        server = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
        try:
            assert server.stderr is not None
            line = server.stderr.readline()  # said once the port is bound
            if not line.startswith("perudo: serving"):
                raise RuntimeError(f"the server did not start: {line}")
            yield f"http://127.0.0.1:{port}"
        finally:
            server.terminate()
            server.wait(timeout=10)


def main() -> None:
    started = time.perf_counter()
    if len(sys.argv) > 1:
        places = asyncio.run(play(sys.argv[1].rstrip("/")))
    else:
        with own_server() as url:
            places = asyncio.run(play(url))
    print("places:", ", ".join(places), f"({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
