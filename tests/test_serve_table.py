"""What a table tells its people and what the server does around it: the game's log (kept
across a restart), the turn laid out for the picker, the end's places, the rematch with the
same seats, a full table, an unknown table's 404, the editions by name, a second server on
one store refused, and ``serve`` saying where it serves only once it listens there."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
websockets = pytest.importorskip("websockets", reason="websockets comes with the web extra")
from web_server import PERUDO, Server, free_port, next_message  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

import perudo  # noqa: E402
from perudo.errors import GameSetupError, StoreError  # noqa: E402
from perudo.web import Table, TableSetup, TableStore  # noqa: E402
from perudo.web.app import TableServer  # noqa: E402

KEY = b"k" * 32
ITALIAN = perudo.load_variant("italian")


def _table(tmp_path: Path, bots: tuple[str | None, ...] = (None, "odds", "odds")) -> Table:
    store = TableStore(tmp_path / "perudo.sqlite")
    setup = TableSetup(variant="italian", bots=bots, seed=7 if bots.count(None) == 1 else None)
    return Table.create(store, KEY, "t1", setup, ITALIAN)


def _to_the_end(table: Table, seat: int) -> None:
    """The person at ``seat`` plays the first legal move, the bots theirs, to the end."""
    for _ in range(2000):
        if table.state.is_over:
            return
        if table.to_act == seat:
            assert table.play(seat, table.message(seat)["legal"][0]) is None
        else:
            assert table.bots_move()
    raise AssertionError("the game did not end")


def test_the_log_grows_with_each_move_and_comes_back_whole_after_a_restart(
    tmp_path: Path,
) -> None:
    table = _table(tmp_path)
    seat, _ = table.join("Ana")
    assert seat == 0
    opener = table.names()[table.state.to_act or 0]
    assert [line.text for line in table.log] == [
        f"Round 1: 15 dice in play (Ana 5, Odds bot 2 5, Odds bot 3 5); {opener} opens"
    ]
    _to_the_end(table, 0)
    assert table.log[-1].kind == "end"
    assert table.log[-1].text == f"{table.names()[table.state.winners[0]]} wins."
    store = TableStore(tmp_path / "perudo.sqlite")
    (stored,) = [row for row in store.tables(limit=10) if row.id == "t1"] or [store.closed("t1")]
    assert stored is not None
    again = Table.load(store, KEY, stored, {"italian": ITALIAN})
    assert again.log == table.log
    message = again.message(None, since=3)
    assert message["log_start"] == 3
    assert message["log"] == [line.to_dict() for line in table.log[3:]]
    assert message["places"][: len(table.state.winners)] == list(table.state.winners)
    assert sorted(message["places"]) == [0, 1, 2]
    assert again.message(None, since=10**9)["log"] == []  # past the end: nothing, no error


def test_a_seat_is_sent_its_turn_laid_out_and_a_spectator_none(tmp_path: Path) -> None:
    table = _table(tmp_path)
    table.join("Ana")
    while table.to_act != 0:
        table.bots_move()
    mine = table.message(0)
    faces = mine["turn"]["faces"]
    assert [face["face"] for face in faces] == [1, 2, 3, 4, 5, 6]
    assert any(face["quantities"] for face in faces)
    assert "turn" not in table.message(None)
    assert mine["dice_in_play"] == table.state.dice_in_play
    assert mine["edition"] == "Italian Palifico"


def test_a_rematch_keeps_the_seats_and_is_made_once(tmp_path: Path) -> None:
    table = _table(tmp_path, (None, None, "odds"))
    _, ana = table.join("Ana")
    _, ben = table.join("Ben")
    assert ana is not None
    assert ben is not None
    with pytest.raises(GameSetupError, match="follows a finished game"):
        table.rematched("t2")
    for _ in range(3000):
        if table.state.is_over:
            break
        seat = table.to_act
        assert seat is not None
        if seat in (0, 1):
            assert table.play(seat, table.message(seat)["legal"][-1]) is None
        else:
            table.bots_move()
    assert table.state.is_over
    rematch = table.rematched("t2")
    assert table.rematch == "t2"
    assert rematch.names()[:2] == ["Ana", "Ben"]
    assert rematch.ready  # every person's seat is theirs already
    assert rematch.join("", ben) == (1, ben)  # each page comes back by its own token
    assert rematch.join("", ana) == (0, ana)
    assert rematch.setup.seed is None
    assert rematch.setup.bots == table.setup.bots
    assert rematch.log[0].text.startswith("Round 1:")
    with pytest.raises(GameSetupError, match="the rematch is table t2"):
        table.rematched("t3")
    store = TableStore(tmp_path / "perudo.sqlite")
    stored = store.closed("t1")
    assert stored is not None
    assert Table.load(store, KEY, stored, {"italian": ITALIAN}).rematch == "t2"


def test_a_whole_game_then_its_rematch_over_the_socket(server: Server) -> None:
    table = server.table([None, "odds"], seed=11)

    async def go() -> None:
        async with connect(server.socket_url(table, "name=Ana")) as ana:
            message = await next_message(ana)
            token = message["token"]
            log: list[dict[str, Any]] = []
            while True:
                if message["type"] == "view":
                    del log[message["log_start"] :]
                    log.extend(message["log"])
                    if message["view"]["winners"]:
                        break
                    if message["view"]["to_act"] == 0 and message["legal"]:
                        if not message["view"]["bids"]:  # before the end: no rematch
                            await ana.send(json.dumps({"rematch": True}))
                            refused = await next_message(ana)
                            while refused["type"] != "refused":
                                refused = await next_message(ana)
                            assert refused["reason"] == "no-rematch"
                        await ana.send(json.dumps({"move": message["legal"][-1]}))
                message = await next_message(ana)
            # the log put together from the pieces is the whole log
            assert log[0]["kind"] == "round"
            assert log[-1]["kind"] == "end"
            async with connect(server.socket_url(table, "")) as watcher:
                whole = await next_message(watcher)
                assert whole["log"] == log
            await ana.send(json.dumps({"rematch": True}))
            answer = await next_message(ana)
            while not answer.get("rematch"):
                answer = await next_message(ana)
            rematch = answer["rematch"]
        async with connect(server.socket_url(rematch, f"token={token}")) as again:
            first = await next_message(again)
            assert first["seat"] == 0
            assert first["names"][0] == "Ana"
            assert first["ready"]

    asyncio.run(go())


def test_a_full_table_says_so_and_an_unknown_one_is_a_404(server: Server) -> None:
    table = server.table([None, "odds"])

    async def go() -> None:
        async with connect(server.socket_url(table, "name=Ana")) as ana:
            await next_message(ana)
            async with connect(server.socket_url(table, "name=Ben")) as ben:
                view = await next_message(ben)
                assert view["seat"] is None
                error = await next_message(ben)
                assert error == {"type": "error",
                                 "message": "this table is full: you are watching"}  # fmt: skip

    asyncio.run(go())
    status, page = server.get("/tables/doesnotexist")
    assert status == 404
    assert b"no such table" in page
    assert server.get(f"/tables/{table}")[0] == 200
    listing = json.loads(server.get("/api/tables")[1])
    assert listing["default"] == "italian"
    names = {edition["key"]: edition["name"] for edition in listing["editions"]}
    assert names["italian"] == "Italian Palifico"
    assert [e["name"] for e in listing["editions"]] == sorted(names.values(), key=str.casefold)


def test_a_second_server_on_one_store_is_refused(tmp_path: Path) -> None:
    first = TableServer(tmp_path / "perudo.sqlite", {"italian": ITALIAN})
    try:
        with pytest.raises(StoreError, match="another perudo serve uses the tables"):
            TableServer(tmp_path / "perudo.sqlite", {"italian": ITALIAN})
        port = free_port()
        command = [str(PERUDO), "serve", "--port", str(port), "--db",
                   str(tmp_path / "perudo.sqlite")]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        assert done.returncode == 2
        assert done.stderr.startswith("perudo: another perudo serve uses the tables")
        assert "serving" not in done.stderr
    finally:
        first.close()
    TableServer(tmp_path / "perudo.sqlite", {"italian": ITALIAN}).close()  # free again


def test_serve_says_where_it_serves_once_it_listens_and_a_taken_port_in_one_line(
    tmp_path: Path,
) -> None:
    port = free_port()
    command = [str(PERUDO), "serve", "--port", str(port), "--db", str(tmp_path / "a.sqlite")]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        editions = len(perudo.variant_names())
        assert line.startswith(f"perudo: serving {editions} editions on http://127.0.0.1:{port}/")
        socket.create_connection(("127.0.0.1", port), timeout=2).close()  # at once: bound
        taken = [str(PERUDO), "serve", "--port", str(port), "--db", str(tmp_path / "b.sqlite"),
                 "--variant", "italian"]  # fmt: skip
        done = subprocess.run(taken, capture_output=True, text=True, timeout=60)
        assert done.returncode == 2
        assert done.stderr.startswith(f"perudo: cannot serve on '127.0.0.1' port {port}: ")
        assert len(done.stderr.splitlines()) == 1
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_connected_person_who_never_moves_is_played_for_and_the_log_says_so(
    server: Server,
) -> None:
    table = server.table([None, "odds"], seed=2, timeout=1)

    async def go() -> None:
        async with connect(server.socket_url(table, "name=Ana")) as ana:
            log: list[dict[str, Any]] = []
            for _ in range(200):  # connected all along, sending nothing
                message = await next_message(ana)
                if message["type"] != "view":
                    continue
                del log[message["log_start"] :]
                log.extend(message["log"])
                late = [line for line in log if line["late"]]
                if late:
                    assert late[0]["seat"] == 0
                    assert late[0]["text"].endswith("(out of time: the table played it)")
                    assert message["stood_in"] == []  # still here: only the turn was played
                    return
            raise AssertionError("the turn was never played")

    asyncio.run(go())
    status, _ = server.get(f"/tables/{table}/record")
    assert status == 409  # the game goes on
