"""A PostgreSQL server for the tests, from Debian's package (``apt-get install
postgresql``): made in a temporary folder, listening on 127.0.0.1 only, started for the
tests that need it and stopped after. Run as root (as CI is), its commands run as the
package's ``postgres`` user: PostgreSQL refuses to run as root."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from web_server import free_port


def binaries() -> Path | None:
    """The folder of PostgreSQL's server programs, or ``None`` where it is not installed."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _version(path: str) -> int:
    part = Path(path).parent.parent.name
    return int(part) if part.isdigit() else 0


@contextlib.contextmanager
def postgresql() -> Iterator[str]:
    """A fresh PostgreSQL server's URL (database ``perudo``, user ``perudo``), stopped and
    removed after."""
    folder = binaries()
    assert folder is not None
    as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
    home = Path(tempfile.mkdtemp(prefix="perudo-pg-"))
    data, port = home / "data", free_port()
    if as_root:
        shutil.chown(home, "postgres")
        home.chmod(0o700)
    try:
        subprocess.run([*prefix, str(folder / "initdb"), "-D", str(data), "-U", "perudo",
                        "-A", "trust", "-E", "UTF8", "--no-sync"],
                       check=True, capture_output=True)  # fmt: skip
        subprocess.run([*prefix, str(folder / "pg_ctl"), "-D", str(data), "-w", "-l",
                        str(home / "log"), "-o",
                        f"-p {port} -k {home} -c listen_addresses=127.0.0.1 -c fsync=off",
                        "start"], check=True, capture_output=True)  # fmt: skip
        try:
            subprocess.run([*prefix, str(folder / "createdb"), "-h", "127.0.0.1", "-p",
                            str(port), "-U", "perudo", "perudo"],
                           check=True, capture_output=True)  # fmt: skip
            yield f"postgresql://perudo@127.0.0.1:{port}/perudo"
        finally:
            subprocess.run([*prefix, str(folder / "pg_ctl"), "-D", str(data), "-m", "fast",
                            "-w", "stop"], capture_output=True)  # fmt: skip
    finally:
        shutil.rmtree(home, ignore_errors=True)
