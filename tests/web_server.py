"""``perudo serve`` started on 127.0.0.1 for a test, as the README starts it, and stopped
after it: tests/test_serve.py, tests/test_serve_attacks.py, tests/test_serve_browser.py and
bench/serve.py."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
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

    def __init__(self, folder: Path, *args: str) -> None:
        self.folder, self.args, self.port = folder, args, free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [str(PERUDO), "serve", "--port", str(self.port),
                   "--db", str(self.folder / "perudo.sqlite"), *self.args]  # fmt: skip
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
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

    def post(self, path: str, data: Any, origin: str | None = None) -> tuple[int, Any]:
        headers = {"content-type": "application/json"}
        if origin is not None:
            headers["origin"] = origin
        request = urllib.request.Request(self.url + path, json.dumps(data).encode(), headers)
        try:
            with urllib.request.urlopen(request, timeout=5) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def get(self, path: str) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(self.url + path, timeout=5) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def table(
        self, bots: list[str | None], seed: int | None = None, timeout: float = 3600,
        variant: str = "italian",
    ) -> str:  # fmt: skip
        """A new table's id (a seed only for a table of one person: the server's rule)."""
        setup = {"variant": variant, "bots": bots, "seed": seed, "timeout": timeout}
        status, answer = self.post("/api/tables", setup)
        assert status == 201, answer
        return str(answer["id"])

    def socket_url(self, table: str, query: str) -> str:
        return f"ws://127.0.0.1:{self.port}/tables/{table}/ws?{query}"


@contextlib.contextmanager
def serving(folder: Path, *args: str) -> Iterator[Server]:
    """``perudo serve`` with ``args``, its database in ``folder``, started and, after,
    stopped (its error output checked)."""
    running = Server(folder, *args)
    running.start()
    try:
        yield running
    finally:
        running.stop()
