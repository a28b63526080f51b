"""A server's store, written by one thread of its own: the event loop never waits for the
disk, and the changes of many tables made while one write was under way go to disk
together, in one transaction (one wait for the disk for them all).

A table hands its rows to :meth:`Writer.save` (it is a :class:`~perudo.web.table.Saves`)
and the server awaits :meth:`Writer.durable` before it answers the change: an answered
move is on disk. Every other use of the database (reading a closed table's record,
forgetting the oldest ones) runs on the same thread, through :meth:`Writer.call`, so one
thread alone touches the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from perudo.web.store import Store, StoredTable

__all__ = ["Writer"]

T = TypeVar("T")


class Writer:
    """The writes of ``store``, on a thread of their own, started at once; :meth:`close`
    writes what is left and stops it."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._wake = threading.Condition()
        self._rows: dict[str, StoredTable] = {}  # the latest row of each table, not written
        self._waiting: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[Any], Any]] = []
        self._closing = False
        self.batches = 0  # transactions written (for the tests: many rows, few waits)
        self._thread = threading.Thread(target=self._run, name="perudo-store", daemon=True)
        self._thread.start()

    def save(self, table: StoredTable) -> None:
        """Write ``table`` soon (a later row of the same table replaces it unwritten)."""
        with self._wake:
            self._rows[table.id] = table
            self._wake.notify()

    async def durable(self) -> None:
        """Return once every row saved before this call is on disk.

        Raises:
            StoreError: the write failed (the disk, the file).
        """
        await self.call(None)

    async def call(self, job: Callable[[Store], T] | None) -> T:
        """``job(store)``'s answer, run on the writer's thread after the rows saved so far
        are written (``None``: only those rows)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        with self._wake:
            self._waiting.append((loop, future, job))
            self._wake.notify()
        return await future

    def close(self) -> None:
        """Write what is left, then stop the thread (the store stays open)."""
        with self._wake:
            self._closing = True
            self._wake.notify()
        self._thread.join()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not (self._rows or self._waiting or self._closing):
                    self._wake.wait()
                rows, self._rows = list(self._rows.values()), {}
                waiting, self._waiting = self._waiting, []
                closing = self._closing
            failed: BaseException | None = None
            if rows:
                try:
                    self.store.save_all(rows)
                    self.batches += 1
                except BaseException as error:  # told to every waiter, never lost
                    failed = error
            for loop, future, job in waiting:
                try:
                    if failed is not None:
                        raise failed
                    answer = None if job is None else job(self.store)
                except BaseException as error:
                    _settle(loop, future, error=error)
                else:
                    _settle(loop, future, answer=answer)
            if closing and not self._rows and not self._waiting:
                return


def _settle(
    loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any], *,
    answer: Any = None, error: BaseException | None = None,
) -> None:  # fmt: skip
    def settle() -> None:
        if future.done():  # its caller was cancelled meanwhile
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(answer)

    with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
        loop.call_soon_threadsafe(settle)
