"""``perudo serve`` started on 127.0.0.1 for a test, as the README starts it, and stopped
after it (the tests of the table server, through the ``server`` fixture of conftest.py),
and the next message a test's WebSocket gets."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

PERUDO = Path(sys.executable).parent / "perudo"  # the console script the README runs


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``perudo serve`` in a subprocess: started, killed, started again on the same port
    and database."""

    def __init__(self, folder: Path, *args: str, host: str = "127.0.0.1") -> None:
        self.folder, self.args, self.host, self.port = folder, args, host, free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.url = f"http://{host}:{self.port}"

    def start(self) -> None:
        command = [str(PERUDO), "serve", "--host", self.host, "--port", str(self.port),
                   "--db", str(self.folder / "perudo.sqlite"), *self.args]  # fmt: skip
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(200):
            if self.process.poll() is not None:
                raise AssertionError(f"the server ended: {self.process.stderr.read()!r}")  # type: ignore[union-attr]
            try:
                socket.create_connection((self.host, self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> str:
        """Stop it; its error output, checked for tracebacks."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.terminate()
        try:
            _, errors = self.process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, errors = self.process.communicate(timeout=10)
            raise AssertionError("the server did not stop within 10 s of SIGTERM") from None
        text = errors.decode()
        assert "Traceback" not in text, text[-3000:]
        return text

    def request(
        self, method: str, path: str, body: bytes | None = None, *,
        headers: dict[str, str] | None = None, source: str = "127.0.0.1",
    ) -> tuple[int, bytes]:  # fmt: skip
        """The status and body of a request from the loopback address ``source`` (any of
        127.0.0.0/8: a client of its own, for the limits per address)."""
        connection = http.client.HTTPConnection(
            self.host, self.port, timeout=10, source_address=(source, 0)
        )
        try:
            connection.request(method, path, body, headers or {})
            answer = connection.getresponse()
            return answer.status, answer.read()
        finally:
            connection.close()

    def post(
        self, path: str, data: Any, origin: str | None = None, source: str = "127.0.0.1"
    ) -> tuple[int, Any]:
        headers = {"content-type": "application/json"}
        if origin is not None:
            headers["origin"] = origin
        status, body = self.request("POST", path, json.dumps(data).encode(), headers=headers,
                                    source=source)  # fmt: skip
        return status, json.loads(body) if status == 201 else body

    def get(self, path: str, source: str = "127.0.0.1") -> tuple[int, bytes]:
        return self.request("GET", path, source=source)

    def table(
        self, bots: list[str | None], seed: int | None = None, timeout: float = 3600,
        variant: str = "italian", source: str = "127.0.0.1",
    ) -> str:  # fmt: skip
        """A new table's id (a seed only for a table of one person: the server's rule),
        made from ``source``."""
        setup = {"variant": variant, "bots": bots, "seed": seed, "timeout": timeout}
        status, answer = self.post("/api/tables", setup, source=source)
        assert status == 201, answer
        return str(answer["id"])

    def socket_url(self, table: str, query: str) -> str:
        return f"ws://{self.host}:{self.port}/tables/{table}/ws?{query}"


@contextlib.contextmanager
def serving(folder: Path, *args: str, host: str = "127.0.0.1") -> Iterator[Server]:
    """``perudo serve`` with ``args``, its database in ``folder``, started and, after,
    stopped (its error output checked)."""
    running = Server(folder, *args, host=host)
    running.start()
    try:
        yield running
    finally:
        running.stop()


async def next_message(ws: Any, timeout: float = 10.0) -> dict[str, Any]:
    """The next message ``ws`` (a WebSocket client) gets, read as JSON, within ``timeout``
    seconds."""
    return dict(json.loads(await asyncio.wait_for(ws.recv(), timeout)))
