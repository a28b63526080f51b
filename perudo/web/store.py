"""Where a table server keeps its tables: one SQLite file (the standard library's
:mod:`sqlite3`), and the key that signs its games' records, in a file of its own.

A table is one row: how it was set up, who sits where (each seat's token kept only as a
hash), and its game as a signed :class:`~perudo.GameRecord`, written again with every
accepted move in the same transaction. :meth:`~perudo.web.TableStore.save` returns once
SQLite has the move on disk (``synchronous=FULL``), so a server that acknowledges a move
after it has saved it never acknowledges one a crash can lose;
:meth:`~perudo.web.TableStore.tables` gives every row back, from which the server rebuilds
its tables (:meth:`perudo.web.Table.load`).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> key = server_key(folder / "perudo.key")
>>> len(key), server_key(folder / "perudo.key") == key  # made once, then read
(32, True)
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from perudo.errors import StoreError, shown

__all__ = ["KEY_BYTES", "MAX_RECORD_CHARS", "StoredTable", "TableStore", "server_key"]

#: The bytes of a server's signing key.
KEY_BYTES = 32
#: The most characters of one table's stored record read back (a record's own limit on
#: moves keeps a real one far below it).
MAX_RECORD_CHARS = 4_000_000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS perudo_tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    setup TEXT NOT NULL,
    people TEXT NOT NULL,
    record TEXT NOT NULL,
    over INTEGER NOT NULL
)
"""


def server_key(path: Path | str) -> bytes:
    """The signing key kept in ``path``: read, or made on the first start (random bytes,
    written as hex, in a new file that only its owner may read or write: mode 0600).

    Raises:
        StoreError: the file is not a key (its length or its digits), or others than its
            owner may read or write it (its mode names which).
    """
    path = Path(path)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read_key(path)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        key = os.urandom(KEY_BYTES)
        file.write(key.hex() + "\n")
    return key


def _read_key(path: Path) -> bytes:
    mode = path.stat().st_mode
    if not stat.S_ISREG(mode):
        raise StoreError(f"the key file {shown(str(path))} is not a file")
    if mode & 0o077:
        raise StoreError(
            f"the key file {shown(str(path))} may be read or written by others (mode "
            f"{stat.S_IMODE(mode):04o}): make it 0600 (chmod 600) or remove it for a new key"
        )
    with path.open("rb") as file:
        text = file.read(2 * KEY_BYTES + 3)
    try:
        key = bytes.fromhex(text.decode("ascii").strip())
    except (UnicodeDecodeError, ValueError):
        key = b""
    if len(key) != KEY_BYTES:
        raise StoreError(f"the key file {shown(str(path))} does not hold a key of "
                         f"{KEY_BYTES} bytes in hex")  # fmt: skip
    return key


@attrs.frozen
class StoredTable:
    """One table as the store holds it.

    Attributes:
        id: The table's name in the server's addresses.
        created: When it was made (seconds since the epoch).
        setup: How it was set up (JSON-ready: the edition, seats, bots, timeout...).
        people: Who sits where (JSON-ready: each seat's name and the hash of its token),
            and what they let go (Bluff's re-roll).
        record: The game so far, a signed :meth:`perudo.GameRecord.to_text`.
        over: The game has ended.
    """

    id: str
    created: float
    setup: dict[str, Any]
    people: dict[str, Any]
    record: str
    over: bool


class TableStore:
    """A server's tables in the SQLite file ``path`` (made on the first start).

    Raises:
        StoreError: the file is not a database this store can use.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute(_SCHEMA)
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{shown(str(self.path))} is not a table store: {error}") from None

    def close(self) -> None:
        """Close the database (whatever was saved stays)."""
        self._db.close()

    def save(self, table: StoredTable) -> None:
        """Write ``table`` whole, in one transaction, and return once it is on disk."""
        row = (
            table.id,
            table.created,
            json.dumps(table.setup),
            json.dumps(table.people),
            table.record,
            int(table.over),
        )
        with self._transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO perudo_tables (id, created, setup, people, record, over)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                row,
            )

    def remove(self, table_id: str) -> None:
        """Forget the table ``table_id`` (nothing if there is none)."""
        with self._transaction():
            self._db.execute("DELETE FROM perudo_tables WHERE id = ?", (table_id,))

    def tables(self) -> Iterator[StoredTable]:
        """Every table saved, oldest first.

        Raises:
            StoreError: a row that is not one this store wrote (named by its table).
        """
        query = (
            "SELECT id, created, setup, people, record, over FROM perudo_tables ORDER BY created"
        )
        for row in self._db.execute(query):
            yield _stored(row)

    def _transaction(self) -> Any:
        return _Transaction(self._db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *rest: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


def _stored(row: tuple[Any, ...]) -> StoredTable:
    table_id, created, setup, people, record, over = row
    if not isinstance(table_id, str) or not isinstance(record, str):
        raise StoreError(f"a stored table {shown(table_id)} is not one this server wrote")
    if len(record) > MAX_RECORD_CHARS:
        raise StoreError(f"the stored record of table {shown(table_id)} passes "
                         f"{MAX_RECORD_CHARS:,} characters")  # fmt: skip
    try:
        setup_value, people_value = json.loads(setup), json.loads(people)
    except (TypeError, ValueError):
        setup_value = people_value = None
    if not isinstance(setup_value, dict) or not isinstance(people_value, dict):
        raise StoreError(f"the stored table {shown(table_id)} is not one this server wrote")
    return StoredTable(table_id, float(created), setup_value, people_value, record, bool(over))
