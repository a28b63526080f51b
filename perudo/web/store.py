"""Where a table server keeps its tables: one SQLite file (the standard library's
:mod:`sqlite3`), and the key that signs its games' records and its rows, in a file of its own.

A table is one row: how it was set up, who sits where (each seat's token kept only as a
hash), its game as a signed :class:`~perudo.GameRecord`, written again with every
accepted move in the same transaction, when it left the server's active tables (finished
or abandoned: kept for its record), and a signature over all of it, made with the server's
key, so that whoever can write the file but not read the key cannot take a seat.
:meth:`~perudo.web.TableStore.save` returns once SQLite has the move on disk
(``synchronous=FULL``), so a server that acknowledges a move after it has saved it never
acknowledges one a crash can lose; :meth:`~perudo.web.TableStore.tables` gives the active
rows back, from which the server rebuilds its tables (:meth:`perudo.web.Table.load`).

The database, its ``-wal`` and ``-shm`` files and the key file are made readable and
writable by their owner alone (mode 0600); one that others may read or write, or that
another user owns, is refused, since it holds every game's seed.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> key = server_key(folder / "perudo.key")
>>> len(key), server_key(folder / "perudo.key") == key  # made once, then read
(32, True)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import sqlite3
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

import attrs

from perudo.errors import StoreError, shown

__all__ = [
    "KEY_BYTES", "MAX_RECORD_CHARS", "MAX_SETUP_CHARS", "Store", "StoreLock", "StoredTable",
    "TableStore", "is_postgres_url", "read_key", "server_key", "store_name",
]  # fmt: skip

#: The bytes of a server's signing key.
KEY_BYTES = 32
#: The most characters of one table's stored record read back (a record's own limit on
#: moves keeps a real one far below it).
MAX_RECORD_CHARS = 4_000_000
#: The most characters of a stored setup or seating read back.
MAX_SETUP_CHARS = 65_536

_COLUMNS = ("id", "created", "setup", "people", "record", "over", "closed", "creator",
            "signature")  # fmt: skip
_SCHEMA = """
CREATE TABLE IF NOT EXISTS perudo_tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    setup TEXT NOT NULL,
    people TEXT NOT NULL,
    record TEXT NOT NULL,
    over INTEGER NOT NULL,
    closed REAL,
    creator TEXT NOT NULL DEFAULT '',
    signature TEXT NOT NULL DEFAULT ''
)
"""
_INDEX = "CREATE INDEX IF NOT EXISTS perudo_tables_closed ON perudo_tables (closed, created)"
#: What a store may hold: this table, its primary key's index and the index above.
_OURS = {
    ("table", "perudo_tables"), ("index", "sqlite_autoindex_perudo_tables_1"),
    ("index", "perudo_tables_closed"),
}  # fmt: skip


def server_key(path: Path | str) -> bytes:
    """The signing key kept in ``path``: read, or made on the first start (random bytes,
    written as hex, in a new file that only its owner may read or write: mode 0600).

    Raises:
        StoreError: the file is not a key (its length or its digits), is not a plain file,
            another user owns it, or others than its owner may read or write it.
    """
    path = Path(path)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return read_key(path)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        key = os.urandom(KEY_BYTES)
        file.write(key.hex() + "\n")
    return key


def read_key(path: Path | str) -> bytes:
    """The signing key kept in ``path`` (as :func:`~perudo.web.server_key` wrote it), never made:
    ``perudo replay --key`` checks a served game's record with it.

    Raises:
        StoreError: as :func:`~perudo.web.server_key`, or the file cannot be read.
    """
    path = Path(path)
    try:
        _check_private(path, "the key file")
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(descriptor, "rb") as file:
            text = file.read(2 * KEY_BYTES + 3)
    except OSError as error:
        raise StoreError(f"the key file {shown(str(path))}: {error.strerror}") from None
    try:
        key = bytes.fromhex(text.decode("ascii").strip())
    except (UnicodeDecodeError, ValueError):
        key = b""
    if len(key) != KEY_BYTES:
        raise StoreError(f"the key file {shown(str(path))} does not hold a key of "
                         f"{KEY_BYTES} bytes in hex")  # fmt: skip
    return key


def _check_private(path: Path, what: str) -> None:
    """Refuse ``path`` unless it is a plain file of this user's that nobody else may read
    or write (not a link: a link's target is whatever its maker chose)."""
    mode = path.lstat()
    if not stat.S_ISREG(mode.st_mode):
        raise StoreError(f"{what} {shown(str(path))} is not a plain file")
    if hasattr(os, "geteuid") and mode.st_uid != os.geteuid():
        raise StoreError(
            f"{what} {shown(str(path))} belongs to another user (uid {mode.st_uid}): a file "
            "someone else made could be theirs to read or change; remove it"
        )
    if mode.st_mode & 0o077:
        raise StoreError(
            f"{what} {shown(str(path))} may be read or written by others (mode "
            f"{stat.S_IMODE(mode.st_mode):04o}): make it 0600 (chmod 600) or remove it"
        )


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
        closed: When the table left the server's active tables (finished, or abandoned:
            kept for its record), ``None`` while it is active.
        creator: Who made it, as the server's keyed hash of the client's address (the
            address itself is never kept).
        signature: The server's signature over every field above
            (:meth:`~perudo.web.StoredTable.signed`).
    """

    id: str
    created: float
    setup: dict[str, Any]
    people: dict[str, Any]
    record: str
    over: bool
    closed: float | None = None
    creator: str = ""
    signature: str = ""

    def signed(self, key: bytes) -> StoredTable:
        """This row with its signature made with ``key``."""
        return attrs.evolve(self, signature=_signature(key, _texts(self)))

    def is_signed_by(self, key: bytes) -> bool:
        """Whether the signature holds for every field under ``key``."""
        return hmac.compare_digest(self.signature, _signature(key, _texts(self)))


def _texts(table: StoredTable) -> tuple[Any, ...]:
    """What a row says, as the store writes it."""
    return (table.id, float(table.created), _json(table.setup), _json(table.people),
            table.record, int(table.over), table.closed, table.creator)  # fmt: skip


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _signature(key: bytes, texts: tuple[Any, ...]) -> str:
    message = json.dumps(texts, separators=(",", ":"), ensure_ascii=True).encode("ascii")
    return "hmac-sha256:" + hmac.new(key, message, hashlib.sha256).hexdigest()


class StoreLock:
    """The one server that serves the tables of the store ``path``: an exclusive lock on
    the file ``path.lock`` beside it (``flock``), held until :meth:`release` or until the
    process ends, however it ends (a SIGKILL included: the system lets it go).

    Raises:
        StoreError: another process holds it (a second ``perudo serve`` on one ``--db``
            would answer pages the first serves, each with its own copy of a table).
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path).with_name(Path(path).name + ".lock")
        self._descriptor: int | None = None
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not a Unix: no lock to take
            return
        try:
            descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as error:
            raise StoreError(f"the lock {shown(str(self.path))} cannot be opened: "
                             f"{shown(error.strerror)}") from None  # fmt: skip
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(descriptor)
            raise StoreError(
                f"another perudo serve uses the tables in {shown(str(path))} (it holds "
                f"{shown(str(self.path))}): stop it first, or give this one a --db of its own"
            ) from None
        self._descriptor = descriptor

    def release(self) -> None:
        """Let the store go (a second call does nothing)."""
        if self._descriptor is not None:
            os.close(self._descriptor)  # closing the file lets its lock go
            self._descriptor = None


def store_name(db: str) -> str:
    """Where the tables are, as a server says it: the file, or the database's URL without
    its user and password.

    >>> store_name("postgresql://perudo:secret@db.lan/perudo"), store_name("t.sqlite")
    ('postgresql://db.lan:5432/perudo', 't.sqlite')
    """
    if "://" not in db:
        return db
    place = urlsplit(db)
    return f"{place.scheme}://{place.hostname}:{place.port or 5432}{place.path}"


def is_postgres_url(db: object) -> bool:
    """Whether ``db`` names a PostgreSQL database (``postgresql://...``), not a file.

    >>> is_postgres_url("postgresql://perudo@127.0.0.1/perudo"), is_postgres_url("t.sqlite")
    (True, False)
    """
    return isinstance(db, str) and db.startswith(("postgresql://", "postgres://"))


class Store(Protocol):
    """Where a server keeps its tables: :class:`TableStore` (SQLite, one server, the
    default) or :class:`~perudo.web.postgres.PostgresStore` (PostgreSQL, several servers,
    each table under one's lease). A store of one server holds every table's lease."""

    def save_all(self, tables: Iterable[StoredTable]) -> None: ...
    def remove(self, table_id: str) -> None: ...
    def tables(self, *, limit: int = ...) -> Iterator[StoredTable]: ...
    def closed(self, table_id: str) -> StoredTable | None: ...
    def prune(self, keep: int) -> int: ...
    def close(self) -> None: ...
    def claim(self, table_id: str) -> bool: ...
    def renew(self) -> set[str]: ...
    def release(self, table_id: str) -> None: ...
    def orphans(self, *, limit: int = ...) -> list[StoredTable]: ...
    def holder_address(self, table_id: str) -> str | None: ...
    def addresses(self) -> set[str]: ...


class TableStore:
    """A server's tables in the SQLite file ``path`` (made on the first start, mode 0600).

    Raises:
        StoreError: the file is not a database this store can use, holds anything this
            store did not make (another table, a view, a trigger), or is not private to
            this user (see :func:`~perudo.web.server_key`).
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._held: set[str] = set()
        try:
            descriptor = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            _check_private(self.path, "the table store")
        else:
            os.close(descriptor)
        for suffix in ("-wal", "-shm"):  # SQLite makes them with the database's mode
            companion = self.path.with_name(self.path.name + suffix)
            if os.path.lexists(companion):
                _check_private(companion, "the table store's file")
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA trusted_schema=OFF")
            self._check_schema()
        except sqlite3.Error as error:
            raise StoreError(f"{shown(str(self.path))} is not a table store: "
                             f"{shown(str(error))}") from None  # fmt: skip

    def _check_schema(self) -> None:
        """Make the table on a new file, add the columns an older perudo's lacks, and
        refuse anything else in the file."""
        found = set(self._db.execute("SELECT type, name FROM sqlite_master LIMIT 100"))
        if found - _OURS:
            kind, name = sorted(found - _OURS)[0]
            raise StoreError(f"{shown(str(self.path))} is not a table store: it holds the "
                             f"{kind} {shown(name)}, which perudo does not make")  # fmt: skip
        with self._transaction():
            self._db.execute(_SCHEMA)
            columns = [row[1] for row in self._db.execute("PRAGMA table_info(perudo_tables)")]
            if columns == list(_COLUMNS[:6]):  # a store of an older perudo: its rows unsigned
                self._db.execute("ALTER TABLE perudo_tables ADD COLUMN closed REAL")
                for column in ("creator", "signature"):
                    self._db.execute(
                        f"ALTER TABLE perudo_tables ADD COLUMN {column} TEXT NOT NULL DEFAULT ''"
                    )
                columns = list(_COLUMNS)
            if columns != list(_COLUMNS):
                raise StoreError(f"{shown(str(self.path))} is not a table store: its columns "
                                 f"are {shown(', '.join(map(str, columns)))}")  # fmt: skip
            self._db.execute(_INDEX)

    def close(self) -> None:
        """Close the database (whatever was saved stays)."""
        self._db.close()

    # One server serves a SQLite store (:class:`StoreLock`): it holds every lease.

    def claim(self, table_id: str) -> bool:
        """This server's, always (it alone serves this store)."""
        self._held.add(table_id)
        return True

    def renew(self) -> set[str]:
        """Every table claimed and not released."""
        return set(self._held)

    def release(self, table_id: str) -> None:
        """Let ``table_id`` go."""
        self._held.discard(table_id)

    def orphans(self, *, limit: int = 100) -> list[StoredTable]:
        """None: no other server could have left a table here."""
        return []

    def holder_address(self, table_id: str) -> str | None:
        """None: no other server serves this store."""
        return None

    def addresses(self) -> set[str]:
        """None: no other server serves this store."""
        return set()

    def save(self, table: StoredTable) -> None:
        """Write ``table`` whole, in one transaction, and return once it is on disk."""
        self.save_all([table])

    def save_all(self, tables: Iterable[StoredTable]) -> None:
        """Write every table of ``tables`` whole, in one transaction (one wait for the disk
        for them all), and return once they are on disk."""
        rows = [(*_texts(table), table.signature) for table in tables]
        with self._transaction():
            self._db.executemany(
                f"INSERT OR REPLACE INTO perudo_tables ({', '.join(_COLUMNS)})"
                f" VALUES ({', '.join('?' * len(_COLUMNS))})",
                rows,
            )

    def remove(self, table_id: str) -> None:
        """Forget the table ``table_id`` (nothing if there is none)."""
        with self._transaction():
            self._db.execute("DELETE FROM perudo_tables WHERE id = ?", (table_id,))

    def tables(self, *, limit: int = 100_000) -> Iterator[StoredTable]:
        """The active tables saved (not closed), oldest first, at most ``limit``.

        Raises:
            StoreError: a row that is not one this store wrote (named by its table).
        """
        yield from self._rows("closed IS NULL ORDER BY created", {"limit": limit})

    def closed(self, table_id: str) -> StoredTable | None:
        """The closed table ``table_id`` (finished or abandoned), or ``None``."""
        rows = list(self._rows("id = :id AND closed IS NOT NULL", {"id": table_id, "limit": 1}))
        return rows[0] if rows else None

    def prune(self, keep: int) -> int:
        """Forget the closed tables past the ``keep`` most recently closed; how many."""
        with self._transaction():
            cursor = self._db.execute(
                "DELETE FROM perudo_tables WHERE closed IS NOT NULL AND id NOT IN (SELECT id "
                "FROM perudo_tables WHERE closed IS NOT NULL ORDER BY closed DESC LIMIT ?)",
                (keep,),
            )
        return max(0, cursor.rowcount)

    def _rows(self, where: str, values: dict[str, Any]) -> Iterator[StoredTable]:
        """The rows ``where`` selects (``values`` its parameters, ``limit`` among them),
        each text read back only within its limit."""
        query = (
            "SELECT id, created, CASE WHEN length(setup) <= :short THEN setup END,"
            " CASE WHEN length(people) <= :short THEN people END,"
            " CASE WHEN length(record) <= :long THEN record END,"
            f" over, closed, creator, signature FROM perudo_tables WHERE {where} LIMIT :limit"
        )
        values = {"short": MAX_SETUP_CHARS, "long": MAX_RECORD_CHARS, **values}
        try:
            for row in self._db.execute(query, values):
                yield _stored(row)
        except sqlite3.Error as error:
            raise StoreError(f"{shown(str(self.path))} is not a table store: "
                             f"{shown(str(error))}") from None  # fmt: skip

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
    table_id, created, setup, people, record, over, closed, creator, signature = row
    name = shown(table_id) if isinstance(table_id, str | int | float) else "(not text)"
    if not isinstance(table_id, str) or not 0 < len(table_id) <= 64:
        raise StoreError(f"a stored table {name} is not one this server wrote: its id")
    if type(created) not in (int, float) or type(over) is not int or over not in (0, 1):
        raise StoreError(f"the stored table {name} is not one this server wrote: its columns")
    if closed is not None and type(closed) not in (int, float):
        raise StoreError(f"the stored table {name} is not one this server wrote: its columns")
    if not all(isinstance(text, str) for text in (creator, signature)):
        raise StoreError(f"the stored table {name} is not one this server wrote: its columns")
    if not isinstance(record, str):
        raise StoreError(f"the stored record of table {name} is not text of at most "
                         f"{MAX_RECORD_CHARS:,} characters")  # fmt: skip
    try:
        setup_value, people_value = json.loads(setup), json.loads(people)
    except (TypeError, ValueError, RecursionError):
        setup_value = people_value = None
    if not isinstance(setup_value, dict) or not isinstance(people_value, dict):
        raise StoreError(f"the stored table {name} is not one this server wrote: its setup")
    return StoredTable(
        id=table_id, created=float(created), setup=setup_value, people=people_value,
        record=record, over=bool(over), closed=None if closed is None else float(closed),
        creator=creator, signature=signature,
    )  # fmt: skip
