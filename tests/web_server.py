"""The browser table of examples/web_table, started on 127.0.0.1 for a test and stopped
after it (tests/test_web_table.py and tests/test_web_table_attacks.py)."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

APP = Path(__file__).parent.parent / "examples" / "web_table" / "app.py"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def web_table(*args: str) -> Iterator[int]:
    """The table started with ``args`` (``--variant italian --players 3 ...``) on a free
    port of 127.0.0.1, which it yields once the server answers; stopped after, and its
    error output checked: a traceback there fails the test."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(APP), *args, "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=10)
    assert "Traceback" not in errors.decode(), errors.decode()[-3000:]
