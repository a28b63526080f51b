"""A table server's parts, for ``perudo serve`` and for game servers that keep their own
accounts: :class:`Table` (one game, its people and bots, what each seat may see),
:class:`TableStore` (the tables in SQLite, saved before a move is answered) and
:func:`server_key` (the key that signs their records).

These need nothing beyond perudo itself; the HTTP and WebSocket server around them needs
the extra ``web`` (Starlette and uvicorn).
"""

from __future__ import annotations

from perudo.web.store import StoredTable, TableStore, server_key
from perudo.web.table import Table, TableSetup

__all__ = ["StoredTable", "Table", "TableSetup", "TableStore", "server_key"]
