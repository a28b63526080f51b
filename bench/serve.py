"""``perudo serve`` under load, on 127.0.0.1: run on demand (``python bench/serve.py``),
never as a test (CI runs ``--quick`` as a smoke run, with no threshold). Needs the ``web``
extra and ``websockets``.

It starts the server in a subprocess on a fresh database, makes ``--tables`` tables of four
people (no bots), connects four pages to each (each table's people from a loopback address
of their own, 127.0.1.N, as people at different homes), and lets every page play its first
legal move whenever it is to act, all tables at once, until each table has made ``--moves``
moves or ``--seconds`` have passed. Then it prints:

- moves per second, all tables together;
- the time from a move being sent to the last of its table's four pages having the table
  after it: median, 99th percentile and the worst;
- the server's CPU time a move (its own share of the machine, whatever the pages cost);
- the server's resident memory, before the tables and at the end;

and the same run again with one anonymous client attacking beside them, from one address
of its own (127.0.0.66), in a process of its own: it floods the table-making API, sends a
request head that never ends, holds half-sent requests open, makes tables of one person
and nine bots with no time for the person (and watches each so they play), sends JSON
nested 2,000 deep and frames over the limit, floods frames from a seat, and keeps a page
that never reads. The honest pages' 99th percentile is compared between the two runs
(issue 37 asks for at most 2x). The client, the attacker and the server share this
machine's cores, so the rates are theirs together, not the server's alone.

With ``--capacity``, it measures instead how many connections the server holds while
moves stay quick: the same tables play at a person's pace (each table a move every
``--pace`` seconds), and spectators join in steps (``--steps``, spread over the tables,
from loopback addresses of their own, in processes of their own that read every message
and throw it away); at each step, for ``--step-seconds``, the time from a move being sent
to the last of its table's four pages having it: median and 99th percentile. It stops at
the first step whose 99th percentile passes 100 ms (or whose spectators could not all
connect), and prints the most connections (players and spectators) held with it under.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

PERUDO = Path(sys.executable).parent / "perudo"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used, user and system."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _source(table: int) -> str:
    """The loopback address of the people at honest table ``table``."""
    return f"127.0.{1 + table // 250}.{1 + table % 250}"


ATTACKER = "127.0.0.66"
#: An honest table: four people, an hour a turn.
PEOPLE = {"variant": "italian", "bots": [None] * 4, "timeout": 3600}


async def _seated(port: int, table: str, source: str) -> tuple[list[Any], list[dict[str, Any]]]:
    """Four pages seated at ``table`` from ``source``, and the latest message of each (its
    own first, then the later arrivals')."""
    url = f"ws://127.0.0.1:{port}/tables/{table}/ws"
    pages = [await connect(f"{url}?name=P{n}", max_size=2**22, local_addr=(source, 0))
             for n in range(4)]  # fmt: skip
    latest: list[dict[str, Any]] = []
    for n, page in enumerate(pages):
        for _ in range(1 + 3 - n):
            message = json.loads(await page.recv())
        latest.append(message)
    return pages, latest


class Load:
    """One run: the server, its tables, and what the pages measured."""

    def __init__(self, folder: Path, tables: int, moves: int, seconds: float) -> None:
        self.port = _free_port()
        self.tables, self.moves, self.seconds = tables, moves, seconds
        self.process = subprocess.Popen(
            [str(PERUDO), "serve", "--port", str(self.port), "--db", str(folder / "load.sqlite"),
             "--variant", "italian"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        for _ in range(200):
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                break
            time.sleep(0.05)
        self.latencies: list[float] = []
        self.made = 0

    def new_table(self, source: str) -> str:
        return _new_table(self.port, source, PEOPLE)

    async def play_table(self, table: str, source: str, deadline: float) -> None:
        """Four pages at ``table``; each plays when it is to act, the first measuring."""
        pages, latest = await _seated(self.port, table, source)
        try:
            for _ in range(self.moves):
                if time.monotonic() > deadline:
                    return
                view = next(m for m in reversed(latest) if m["type"] == "view")["view"]
                if view["winners"] or view["to_act"] is None:
                    return
                mover = next(n for n, m in enumerate(latest) if m["seat"] == view["to_act"])
                move = latest[mover]["legal"][-1 if len(view["bids"]) > 2 else 0]
                start = time.monotonic()
                await pages[mover].send(json.dumps({"move": move}))
                received = await asyncio.gather(*(page.recv() for page in pages))
                self.latencies.append(time.monotonic() - start)
                latest = [json.loads(text) for text in received]
                self.made += 1
        finally:
            for page in pages:
                await page.close()

    def hostile(self) -> subprocess.Popen[bytes]:
        """The attacker, in a process of its own (so that it slows the server, not the
        measuring pages)."""
        return subprocess.Popen([sys.executable, __file__, "--hostile", str(self.port)])

    async def run(self, hostile: bool) -> dict[str, float]:
        memory_before = _rss_mib(self.process.pid)
        tables = [self.new_table(_source(n)) for n in range(self.tables)]
        attack = self.hostile() if hostile else None
        cpu = _cpu_seconds(self.process.pid)
        await asyncio.sleep(3.0 if hostile else 0.0)  # the attack under way
        start = time.monotonic()
        deadline = start + self.seconds
        await asyncio.gather(*(self.play_table(table, _source(n), deadline)
                               for n, table in enumerate(tables)))  # fmt: skip
        took = time.monotonic() - start
        cpu = _cpu_seconds(self.process.pid) - cpu
        if attack is not None:
            attack.kill()
            attack.wait()
        ordered = sorted(self.latencies)
        return {
            "moves/s": self.made / took,
            "median ms": 1000 * statistics.median(ordered),
            "p99 ms": 1000 * ordered[int(0.99 * (len(ordered) - 1))],
            "worst ms": 1000 * ordered[-1],
            "moves": self.made,
            "server cpu ms a move": 1000 * cpu / max(1, self.made),
            "seconds": took,
            "memory before MiB": memory_before,
            "memory after MiB": _rss_mib(self.process.pid),
        }

    def stop(self) -> None:
        self.process.terminate()
        _, errors = self.process.communicate(timeout=15)
        if b"Traceback" in errors:
            raise SystemExit(errors.decode()[-3000:])


def _new_table(port: int, source: str, setup: dict[str, Any]) -> str:
    """A new table's id, made from ``source``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                            source_address=(source, 0))  # fmt: skip
    try:
        connection.request("POST", "/api/tables", json.dumps(setup),
                           {"content-type": "application/json"})  # fmt: skip
        answer = connection.getresponse()
        body = answer.read()
        if answer.status != 201:
            raise RuntimeError(f"{answer.status}: {body[:200]!r}")
        return str(json.loads(body)["id"])
    finally:
        connection.close()


def _measure(tables: int, moves: int, seconds: float, hostile: bool) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        load = Load(Path(folder), tables, moves, seconds)
        try:
            return asyncio.run(load.run(hostile))
        finally:
            load.stop()


async def _attack(port: int) -> None:
    """One anonymous client's attacks, from one address, all at once, until killed."""
    loop = asyncio.get_running_loop()
    url = f"ws://127.0.0.1:{port}/tables"
    here = {"local_addr": (ATTACKER, 0)}

    async def quietly(attack: Any) -> None:
        while True:  # each attack again whenever the server ends it
            with contextlib.suppress(Exception):
                await attack()
            await asyncio.sleep(0.2)

    async def make_tables() -> None:  # the API flooded: refused past the limit per address
        while True:
            with contextlib.suppress(Exception):
                setup = {"variant": "italian", "bots": [None, "odds"]}
                await loop.run_in_executor(None, _new_table, port, ATTACKER, setup)
            await asyncio.sleep(0.05)

    async def endless_head() -> None:
        _, writer = await asyncio.open_connection("127.0.0.1", port, **here)
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        while True:
            writer.write(b"X-Padding: " + b"a" * 1000 + b"\r\n")
            await writer.drain()

    async def half_sent() -> None:  # as many as the server lets one address hold
        held = []
        for _ in range(60):
            with contextlib.suppress(Exception):
                _, writer = await asyncio.open_connection("127.0.0.1", port, **here)
                writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                held.append(writer)
        await asyncio.sleep(3600)

    async def self_playing() -> list[Any]:  # tables of one person and nine bots, watched
        watchers = []
        for _ in range(8):
            with contextlib.suppress(Exception):
                table = await loop.run_in_executor(
                    None, _new_table, port, ATTACKER,
                    {"variant": "italian", "bots": [None] + ["odds"] * 9, "timeout": 0},
                )  # fmt: skip
                async with connect(f"{url}/{table}/ws?name=Eve", **here) as eve:
                    await eve.recv()
                watchers.append(await connect(f"{url}/{table}/ws", **here))
        return watchers

    async def hostile_frames() -> None:  # deep JSON, frames too long, a flood from a seat
        table = await loop.run_in_executor(
            None, _new_table, port, ATTACKER, {"variant": "italian", "bots": [None, None]}
        )
        mute = await connect(f"{url}/{table}/ws?name=Mute", max_queue=1, **here)
        flood = await connect(f"{url}/{table}/ws?name=Flood", **here)
        while True:
            await flood.send('{"move": ' + "[" * 1900 + "]" * 1900 + "}")
            await flood.send('{"move": "9x99"}')
        await mute.close()  # never reached: the process is killed

    async def too_long() -> None:
        table = await loop.run_in_executor(
            None, _new_table, port, ATTACKER, {"variant": "italian", "bots": [None, "odds"]}
        )
        while True:
            async with connect(f"{url}/{table}/ws?name=Big", **here) as big:
                await big.send("x" * 5000)
                await _drain(big)

    # First what needs tables (the tables past the limit are refused), then the floods,
    # which take what connections the address has left.
    watchers = await self_playing()
    under_way = [asyncio.create_task(quietly(hostile_frames)),
                 asyncio.create_task(quietly(too_long))]  # fmt: skip
    await asyncio.sleep(1.0)
    await asyncio.gather(*under_way, *(_drain(watcher) for watcher in watchers), make_tables(),
                         quietly(endless_head), half_sent())  # fmt: skip


async def _drain(ws: Any) -> None:
    with contextlib.suppress(Exception):
        async for _ in ws:
            pass


class Capacity:
    """The capacity run: paced tables, and spectators added in steps."""

    def __init__(self, folder: Path, tables: int, pace: float) -> None:
        self.port = _free_port()
        self.tables, self.pace = tables, pace
        self.process = subprocess.Popen(
            [str(PERUDO), "serve", "--port", str(self.port), "--db", str(folder / "cap.sqlite"),
             "--variant", "italian", "--limit", "connections=12000", "--limit",
             f"tables={max(1000, tables)}", "--limit", "idle=3600"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        assert self.process.stderr is not None
        self.process.stderr.readline()  # said once the port is bound
        self.errors: list[bytes] = []  # read all along: a full pipe would stop the server
        threading.Thread(target=lambda: self.errors.extend(self.process.stderr or []),
                         daemon=True).start()  # fmt: skip
        self.latencies: list[float] = []
        self.ended = 0

    async def play_table(self, table: str, source: str, stop: asyncio.Event) -> None:
        """Four pages at ``table``, a move every ``pace`` seconds on average until
        ``stop``: each wait drawn from 0.5 to 1.5 times the pace, the first from 0 to 1,
        as people think (tables moving in step would send their moves in bursts)."""
        chance = random.Random(table)
        pages, latest = await _seated(self.port, table, source)
        await asyncio.sleep(chance.uniform(0.0, self.pace))
        try:
            while not stop.is_set():
                began = time.monotonic()
                view = latest[0]["view"]
                if view["winners"] or view["to_act"] is None:
                    self.ended += 1
                    return
                mover = next(n for n, m in enumerate(latest) if m["seat"] == view["to_act"])
                move = latest[mover]["legal"][-1 if len(view["bids"]) > 6 else 0]
                await pages[mover].send(json.dumps({"move": move}))
                received = await asyncio.gather(*(_next_view(page) for page in pages))
                self.latencies.append(time.monotonic() - began)
                latest = received
                wait = chance.uniform(0.5, 1.5) * self.pace
                await asyncio.sleep(max(0.0, wait - (time.monotonic() - began)))
        finally:
            for page in pages:
                await page.close()

    async def run(self, steps: list[int], seconds: float) -> list[dict[str, float]]:
        tables = [_new_table(self.port, _source(n), PEOPLE) for n in range(self.tables)]
        stop = asyncio.Event()
        players = [asyncio.create_task(self.play_table(table, _source(n), stop))
                   for n, table in enumerate(tables)]  # fmt: skip
        watching: list[subprocess.Popen[str]] = []
        results: list[dict[str, float]] = []
        held = 0
        try:
            await asyncio.sleep(2.0)  # the tables under way
            for step in steps:
                if step > held:
                    more = _spectators(self.port, tables, held, step - held)
                    watching.append(more)
                    assert more.stdout is not None
                    line = await asyncio.get_running_loop().run_in_executor(
                        None, more.stdout.readline
                    )
                    connected = int(line.split()[0]) if line.split() else 0
                    held += connected
                    if connected < step - (held - connected):
                        results.append({"spectators": held, "failed": 1.0})
                        break
                self.latencies.clear()
                await asyncio.sleep(seconds)
                ordered = sorted(self.latencies)
                if not ordered:
                    break
                result = {
                    "spectators": held, "connections": held + 4 * (self.tables - self.ended),
                    "moves/s": len(ordered) / seconds,
                    "median ms": 1000 * statistics.median(ordered),
                    "p99 ms": 1000 * ordered[int(0.99 * (len(ordered) - 1))],
                    "memory MiB": _rss_mib(self.process.pid),
                }  # fmt: skip
                results.append(result)
                print(f"  {result['connections']:,.0f} connections ({held:,} spectators): "
                      f"{result['moves/s']:.0f} moves/s, a move to four pages: median "
                      f"{result['median ms']:.1f} ms, p99 {result['p99 ms']:.1f} ms; "
                      f"server memory {result['memory MiB']:.0f} MiB", flush=True)  # fmt: skip
                if result["p99 ms"] > 100:
                    break
        finally:
            stop.set()
            await asyncio.gather(*players, return_exceptions=True)
            for one in watching:
                one.kill()
                one.wait()
        return results

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)
        errors = b"".join(self.errors)
        if b"Traceback" in errors:
            raise SystemExit(errors.decode()[-3000:])


async def _next_view(page: Any) -> dict[str, Any]:
    """The next view message a page gets."""
    while True:
        message = json.loads(await page.recv())
        if message["type"] == "view":
            return dict(message)


def _spectators(port: int, tables: list[str], first: int, count: int) -> subprocess.Popen[str]:
    """``count`` spectators in a process of their own, the ``first``-th on: it prints how
    many connected, then reads and drops every message until killed."""
    return subprocess.Popen(
        [sys.executable, __file__, "--watch", str(port), str(first), str(count), *tables],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip


async def _watch(port: int, first: int, count: int, tables: list[str]) -> None:
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    sockets: list[Any] = []
    for n in range(first, first + count):
        table = tables[n % len(tables)]
        source = f"127.0.{10 + n // 40 // 250}.{1 + n // 40 % 250}"  # 40 an address
        with contextlib.suppress(Exception):
            sockets.append(await connect(f"ws://127.0.0.1:{port}/tables/{table}/ws",
                                         max_size=2**22, local_addr=(source, 0)))  # fmt: skip
    print(len(sockets), flush=True)
    await asyncio.gather(*(_drain(ws) for ws in sockets))
    await asyncio.sleep(3600)


def _capacity(tables: int, pace: float, steps: list[int], seconds: float) -> list[dict[str, float]]:
    with tempfile.TemporaryDirectory() as folder:
        load = Capacity(Path(folder), tables, pace)
        try:
            return asyncio.run(load.run(steps, seconds))
        finally:
            load.stop()


def main() -> None:
    if sys.argv[1:2] == ["--hostile"]:
        with contextlib.suppress(Exception):
            asyncio.run(_attack(int(sys.argv[2])))
        return
    if sys.argv[1:2] == ["--watch"]:
        port, first, count = (int(value) for value in sys.argv[2:5])
        with contextlib.suppress(Exception):
            asyncio.run(_watch(port, first, count, sys.argv[5:]))
        return
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=60, help="moves a table makes, at most")
    parser.add_argument("--seconds", type=float, default=60.0, help="the most a run lasts")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 4 tables, 10 moves")
    parser.add_argument(
        "--capacity",
        action="store_true",
        help="the most connections held with a move's p99 under 100 ms",
    )
    parser.add_argument("--pace", type=float, default=1.0,
                        help="--capacity: seconds between two moves at a table")  # fmt: skip
    parser.add_argument("--steps", default="0,400,800,1600,2400,3200,4000,4800,5600",
                        help="--capacity: the spectators at each step")  # fmt: skip
    parser.add_argument("--step-seconds", type=float, default=10.0,
                        help="--capacity: how long each step is measured")  # fmt: skip
    args = parser.parse_args()
    if args.quick:
        args.tables, args.moves, args.seconds = 4, 10, 20.0
        args.steps, args.step_seconds = "0,40", 3.0
    if args.capacity:
        steps = [int(step) for step in args.steps.split(",")]
        print(f"perudo serve on 127.0.0.1: {args.tables} tables of 4 pages, a move every "
              f"{args.pace:g} s at each, spectators in steps of {steps}")  # fmt: skip
        results = _capacity(args.tables, args.pace, steps, args.step_seconds)
        held = [r for r in results if r.get("p99 ms", 1e9) <= 100 and "failed" not in r]
        if held:
            best = max(held, key=lambda r: r["connections"])
            print(
                f"held: {best['connections']:,.0f} connections ({best['spectators']:,.0f} "
                f"spectators) with a move's p99 at {best['p99 ms']:.1f} ms (under 100 ms)"
            )
        else:
            print("held: none of the steps kept a move's p99 under 100 ms")
        return
    print(f"perudo serve on 127.0.0.1: {args.tables} tables of 4 pages, up to {args.moves} "
          f"moves each, at most {args.seconds:g} s a run")  # fmt: skip
    runs = {
        "quiet": _measure(args.tables, args.moves, args.seconds, hostile=False),
        "beside an attacker": _measure(args.tables, args.moves, args.seconds, hostile=True),
    }
    for name, result in runs.items():
        print(f"{name}: {result['moves']:,.0f} moves in {result['seconds']:.1f} s, "
              f"{result['moves/s']:,.0f} moves/s; a move to all four pages: median "
              f"{result['median ms']:.1f} ms, p99 {result['p99 ms']:.1f} ms, worst "
              f"{result['worst ms']:.1f} ms; the server's CPU {result['server cpu ms a move']:.2f} "
              f"ms a move; its memory {result['memory before MiB']:.0f} -> "
              f"{result['memory after MiB']:.0f} MiB")  # fmt: skip
    quiet, hostile = runs["quiet"]["p99 ms"], runs["beside an attacker"]["p99 ms"]
    print(f"p99 beside the attacker / quiet: {hostile / quiet:.2f} (issue 37: at most 2)")


if __name__ == "__main__":
    main()
