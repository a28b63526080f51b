"""Programs at a ``perudo serve`` table: the protocol's JSON Schema as served, every message
of whole games valid against it, a seat that keeps sending refused moves benched (a bot
plays for it, it is told why, and it is back once it connects again), and the example
agent playing a whole game against the built-in bots."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
websockets = pytest.importorskip("websockets", reason="websockets comes with the web extra")
jsonschema = pytest.importorskip("jsonschema", reason="jsonschema comes with the dev extra")
from web_server import Server, next_message  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from perudo.web.protocol import PROTOCOL, SCHEMA  # noqa: E402
from perudo.web.table import BENCH_AFTER  # noqa: E402

ROOT = Path(__file__).parent.parent


def test_the_schema_is_served_and_every_message_of_whole_games_holds_to_it(
    server: Server,
) -> None:
    status, body = server.get("/api/schema")
    assert status == 200
    served = json.loads(body)
    assert served == SCHEMA
    jsonschema.Draft202012Validator.check_schema(served)
    received = jsonschema.Draft202012Validator(served)
    sent = jsonschema.Draft202012Validator({"$defs": served["$defs"], "$ref": "#/$defs/sent"})
    kinds: set[str] = set()

    async def game(variant: str, bots: list[str | None]) -> None:
        table = server.table(bots, variant=variant, seed=3)
        async with connect(server.socket_url(table, "name=Ana")) as ana:
            for _ in range(3000):
                message = await next_message(ana)
                errors = sorted(received.iter_errors(message), key=str)
                assert not errors, (message.get("type"), str(errors[0])[:500])
                kinds.add(message["type"])
                if message["type"] != "view":
                    continue
                assert message["protocol"] == PROTOCOL
                if message["view"]["winners"]:
                    return
                legal = message.get("legal", [])
                if message["view"]["to_act"] == 0 and legal:
                    if len(message["view"]["bids"]) == 1:  # a refused move, once a round
                        bad = {"move": "1x9"}  # six faces: no 9s
                        assert sent.is_valid(bad)
                        await ana.send(json.dumps(bad))
                    move = {"move": legal[-1] if message["view"]["bids"] else legal[0]}
                    assert sent.is_valid(move)
                    await ana.send(json.dumps(move))
                elif legal:  # out of turn (Bluff's re-roll after her bid): let it go
                    await ana.send(json.dumps({"move": legal[-1]}))
            raise AssertionError("the game did not end")

    asyncio.run(game("italian", [None, "odds", "odds"]))
    asyncio.run(game("bluff", [None, "odds"]))
    asyncio.run(game("wango-party", [None, "odds", "odds"]))
    assert kinds == {"view", "refused"}
    assert not sent.is_valid({"move": 3})
    assert not sent.is_valid({"rematch": False})
    assert not sent.is_valid({"move": "3x5", "extra": 1})


def test_a_seat_that_keeps_sending_refused_moves_is_benched_until_it_comes_back(
    server: Server,
) -> None:
    table = server.table([None, "odds"], seed=6)

    async def go() -> None:
        async with connect(server.socket_url(table, "name=Ana")) as ana:
            first = await next_message(ana)
            token = first["token"]
            message = first
            while not (message["type"] == "view" and message["view"]["to_act"] == 0):
                message = await next_message(ana)
            told: list[dict[str, Any]] = []
            for number in range(BENCH_AFTER):
                await ana.send(json.dumps({"move": "1x9"}))  # six faces: no 9s
                answer = await next_message(ana)
                while answer["type"] == "view":
                    answer = await next_message(ana)
                assert answer["type"] == "refused"
                if number == BENCH_AFTER - 1:
                    benched = await next_message(ana)
                    told.append(benched)
            assert told[0]["type"] == "benched"
            assert told[0]["reason"] == "refused-moves"
            assert f"{BENCH_AFTER} refused moves in a row" in told[0]["message"]
            # a bot plays for the seat now: its turn passes without it
            for _ in range(200):
                message = await next_message(ana)
                if message["type"] == "view" and 0 in message["stood_in"]:
                    break
            assert message["stood_in"] == [0]
            for _ in range(200):
                message = await next_message(ana)
                moved = [line for line in message.get("log", []) if line["seat"] == 0]
                if moved:
                    break
            assert moved
            await ana.send(json.dumps({"move": "1x2"}))
            answer = await next_message(ana)
            while answer["type"] != "refused":
                answer = await next_message(ana)
            assert "a bot plays for you" in answer["message"]
        async with connect(server.socket_url(table, f"token={token}")) as again:
            back = await next_message(again)
            assert back["seat"] == 0
            assert back["stood_in"] == []  # its own moves again

    asyncio.run(go())


@pytest.mark.slow
def test_the_example_agent_plays_a_whole_game_against_the_bots() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "agent.py")],
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert " wins.\nplaces: " in done.stdout
    places = done.stdout.splitlines()[-1]
    assert places.startswith("places: ")
    assert "Agent" in places
    assert "refused" not in done.stderr
