"""The tables of several ``perudo serve`` processes in one PostgreSQL database (the extra
``postgres``: psycopg), each table served by one process at a time: the one that holds its
**lease**.

A process claims a table's lease when it makes or takes the table and renews every lease
it holds every few seconds (:data:`LEASE` seconds each); a save is written only under a
lease its process still holds (checked in the save's own transaction, the lease row
locked against a takeover meanwhile), so two processes never both write a table. A
process that dies (a SIGKILL) renews nothing: once its leases run out, another process
takes its active tables, rebuilt from their rows, with every move the dead one had
acknowledged. Each process writes its address in the database, signed with the servers'
shared key, so that a page that reaches the wrong process is sent to the right one, and
only to an address a server of this key wrote.

The rows are the same as in SQLite (:class:`~perudo.web.StoredTable`, signed the same
way); the database's clock is the leases' clock, so the processes' own clocks never
disagree about a lease.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Iterator
from typing import Any

try:
    import psycopg
except ImportError as error:  # pragma: no cover - depends on what is installed
    from perudo.errors import install_hint

    raise ImportError(
        f"perudo.web.postgres needs {error.name}: {install_hint('postgres')}"
    ) from error

from perudo.errors import StoreError, shown
from perudo.web.store import (
    _COLUMNS,
    MAX_RECORD_CHARS,
    MAX_SETUP_CHARS,
    StoredTable,
    _stored,
    _texts,
    store_name,
)

__all__ = ["LEASE", "PostgresStore"]

#: Seconds a lease lasts unless renewed; a process renews its leases three times as often.
LEASE = 10.0

_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS perudo_tables (
        id TEXT PRIMARY KEY, created DOUBLE PRECISION NOT NULL, setup TEXT NOT NULL,
        people TEXT NOT NULL, record TEXT NOT NULL, over INTEGER NOT NULL,
        closed DOUBLE PRECISION, creator TEXT NOT NULL DEFAULT '',
        signature TEXT NOT NULL DEFAULT '')""",
    "CREATE INDEX IF NOT EXISTS perudo_tables_closed ON perudo_tables (closed, created)",
    """CREATE TABLE IF NOT EXISTS perudo_servers (
        holder TEXT PRIMARY KEY, url TEXT NOT NULL, signature TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS perudo_leases (
        id TEXT PRIMARY KEY, holder TEXT NOT NULL, expires DOUBLE PRECISION NOT NULL)""",
]
_NOW = "extract(epoch from clock_timestamp())"


class PostgresStore:
    """The tables in the PostgreSQL database ``url``, for the process serving at
    ``address`` (the URL pages reach it at), its rows and address signed with ``key``
    (every process on one database shares it). Each table is written only under this
    process's lease (:meth:`claim`).

    Raises:
        StoreError: the database cannot be reached, or holds tables of another shape.
    """

    def __init__(self, url: str, key: bytes, *, address: str, lease: float = LEASE) -> None:
        self.url, self._key, self.lease = url, key, lease
        self.holder = secrets.token_hex(12)
        self._name = store_name(url)
        try:
            self._db = psycopg.connect(url, autocommit=True, connect_timeout=10)
            with self._db.transaction():
                self._db.execute("SELECT pg_advisory_xact_lock(7303041)")  # one maker at once
                for statement in _SCHEMA:
                    self._db.execute(statement)
                columns = [row[0] for row in self._db.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_name = "
                    "'perudo_tables' ORDER BY ordinal_position")]  # fmt: skip
            if columns != list(_COLUMNS):
                raise StoreError(f"the database {shown(self._name)} holds a perudo_tables of "
                                 f"other columns: {shown(', '.join(columns))}")  # fmt: skip
            self._db.execute(
                "INSERT INTO perudo_servers (holder, url, signature) VALUES (%s, %s, %s)",
                (self.holder, address, self._signature(self.holder, address)),
            )
            # the leases on a connection of their own: the server's event loop asks for
            # them while the writer's thread may be inside a transaction on the other
            self._leases = psycopg.connect(url, autocommit=True, connect_timeout=10)
        except psycopg.Error as error:
            raise StoreError(f"the database {shown(self._name)} cannot be used: "
                             f"{shown(str(error).strip())}") from None  # fmt: skip

    def _signature(self, holder: str, address: str) -> str:
        message = f"perudo-server:{holder}:{address}".encode()
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()

    # --- leases -------------------------------------------------------------------------

    def claim(self, table_id: str) -> bool:
        """Take the lease of ``table_id`` for this process, if nobody else holds it (or
        theirs has run out); whether this process holds it now."""
        row = self._run(
            "INSERT INTO perudo_leases (id, holder, expires) VALUES (%s, %s, "
            f"{_NOW} + %s) ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, "
            f"expires = excluded.expires WHERE perudo_leases.expires < {_NOW} "
            "OR perudo_leases.holder = excluded.holder RETURNING id",
            (table_id, self.holder, self.lease),
            leases=True,
        ).fetchone()
        return row is not None

    def renew(self) -> set[str]:
        """Renew every lease this process holds; the tables it still holds (a lease that
        ran out and was taken is not among them)."""
        rows = self._run(
            f"UPDATE perudo_leases SET expires = {_NOW} + %s WHERE holder = %s "
            f"AND expires >= {_NOW} RETURNING id",
            (self.lease, self.holder),
            leases=True,
        ).fetchall()
        return {row[0] for row in rows}

    def release(self, table_id: str) -> None:
        """Let the lease of ``table_id`` go (a table that left the active ones)."""
        self._run("DELETE FROM perudo_leases WHERE id = %s AND holder = %s",
                  (table_id, self.holder), leases=True)  # fmt: skip

    def orphans(self, *, limit: int = 100) -> list[StoredTable]:
        """Active tables whose lease nobody holds (their process died), oldest first."""
        return list(self._rows(
            f"closed IS NULL AND NOT EXISTS (SELECT 1 FROM perudo_leases l WHERE l.id = t.id "
            f"AND l.expires >= {_NOW}) ORDER BY created", (), limit, leases=True))  # fmt: skip

    def holder_address(self, table_id: str) -> str | None:
        """Where the process that holds ``table_id``'s lease serves (``None``: no other
        process holds it, or its address is not signed with this key)."""
        row = self._run(
            "SELECT s.holder, s.url, s.signature FROM perudo_leases l JOIN perudo_servers s "
            f"ON s.holder = l.holder WHERE l.id = %s AND l.expires >= {_NOW} AND l.holder <> %s",
            (table_id, self.holder),
            leases=True,
        ).fetchone()
        if row is None:
            return None
        holder, address, signature = row
        if not hmac.compare_digest(str(signature), self._signature(str(holder), str(address))):
            return None
        return str(address)

    def addresses(self) -> set[str]:
        """Every address a process of this key wrote (its own included)."""
        rows = self._run("SELECT holder, url, signature FROM perudo_servers LIMIT 1000",
                         (), leases=True).fetchall()  # fmt: skip
        return {
            str(url)
            for holder, url, signature in rows
            if hmac.compare_digest(str(signature), self._signature(str(holder), str(url)))
        }

    # --- rows, as :class:`~perudo.web.TableStore` ------------------------------------

    def save(self, table: StoredTable) -> None:
        """Write ``table`` whole (under this process's lease), and return once it is
        committed."""
        self.save_all([table])

    def save_all(self, tables: Iterable[StoredTable]) -> None:
        """Write every table of ``tables`` whole, in one transaction, each under this
        process's lease.

        Raises:
            StoreError: a table whose lease this process no longer holds (nothing of the
                transaction is written), or the database failed.
        """
        columns = ", ".join(_COLUMNS)
        updates = ", ".join(f"{name} = excluded.{name}" for name in _COLUMNS[1:])
        try:
            with self._db.transaction():
                for table in tables:
                    held = self._db.execute(
                        "SELECT 1 FROM perudo_leases WHERE id = %s AND holder = %s AND "
                        f"expires >= {_NOW} FOR SHARE", (table.id, self.holder),
                    ).fetchone()  # fmt: skip
                    if held is None:
                        raise StoreError(f"table {shown(table.id)} is served by another process "
                                         "now: this one's lease ran out")  # fmt: skip
                    self._db.execute(
                        f"INSERT INTO perudo_tables ({columns}) VALUES "
                        f"({', '.join(['%s'] * len(_COLUMNS))}) "
                        f"ON CONFLICT (id) DO UPDATE SET {updates}",
                        (*_texts(table), table.signature),
                    )
        except psycopg.Error as error:
            raise StoreError(f"the database {shown(self._name)} failed: "
                             f"{shown(str(error).strip())}") from None  # fmt: skip

    def remove(self, table_id: str) -> None:
        """Forget the table ``table_id`` (nothing if there is none)."""
        self._run("DELETE FROM perudo_tables WHERE id = %s", (table_id,))

    def tables(self, *, limit: int = 100_000) -> Iterator[StoredTable]:
        """The active tables saved (not closed), oldest first, at most ``limit``."""
        yield from self._rows("closed IS NULL ORDER BY created", (), limit)

    def closed(self, table_id: str) -> StoredTable | None:
        """The closed table ``table_id`` (finished or abandoned), or ``None``."""
        rows = list(self._rows("id = %s AND closed IS NOT NULL", (table_id,), 1))
        return rows[0] if rows else None

    def prune(self, keep: int) -> int:
        """Forget the closed tables past the ``keep`` most recently closed; how many."""
        cursor = self._run(
            "DELETE FROM perudo_tables WHERE closed IS NOT NULL AND id NOT IN (SELECT id FROM "
            "perudo_tables WHERE closed IS NOT NULL ORDER BY closed DESC LIMIT %s)", (keep,),
        )  # fmt: skip
        return max(0, int(cursor.rowcount))

    def close(self) -> None:
        """Let every lease and the address go, and close the connection."""
        try:
            self._leases.execute("DELETE FROM perudo_leases WHERE holder = %s", (self.holder,))
            self._leases.execute("DELETE FROM perudo_servers WHERE holder = %s", (self.holder,))
        except psycopg.Error:
            pass  # the leases run out by themselves
        self._leases.close()
        self._db.close()

    def _rows(
        self, where: str, values: tuple[Any, ...], limit: int, *, leases: bool = False
    ) -> Iterator[StoredTable]:
        query = (
            "SELECT id, created, CASE WHEN length(setup) <= %s THEN setup END,"
            " CASE WHEN length(people) <= %s THEN people END,"
            " CASE WHEN length(record) <= %s THEN record END,"
            f" over, closed, creator, signature FROM perudo_tables t WHERE {where} LIMIT %s"
        )
        rows = self._run(query, (MAX_SETUP_CHARS, MAX_SETUP_CHARS, MAX_RECORD_CHARS, *values,
                                 limit), leases=leases).fetchall()  # fmt: skip
        for row in rows:
            yield _stored(row)

    def _run(self, query: str, values: tuple[Any, ...], *, leases: bool = False) -> Any:
        try:
            return (self._leases if leases else self._db).execute(query, values)
        except psycopg.Error as error:
            raise StoreError(f"the database {shown(self._name)} failed: "
                             f"{shown(str(error).strip())}") from None  # fmt: skip
