"""What one ``perudo serve`` holds, and what one client may take of it: each limit with its
default, set with ``perudo serve --limit NAME=VALUE`` or :class:`Limits` in Python.

>>> Limits().tables, Limits.parse(["tables=50", "idle=600"]).idle
(1000, 600.0)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from perudo.errors import GameSetupError, shown

__all__ = ["Limits"]


def _positive(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if type(value) not in (int, float) or not 0 < value <= 10**9:
        raise GameSetupError(f"the limit {attribute.name} is a number above 0, not {shown(value)}")
    if attribute.type in (int, "int") and type(value) is not int:
        raise GameSetupError(f"the limit {attribute.name} is a whole number, not {shown(value)}")


@attrs.frozen(kw_only=True)
class Limits:
    """The limits of one table server.

    Attributes:
        tables: Active tables on the server (a finished or abandoned table is not active).
        tables_per_address: Active tables made from one client address.
        archive: Closed tables (finished or abandoned) whose rows are kept for their
            records; past it the oldest closed are forgotten.
        idle: Seconds a table stays active with no page open at it; then it is closed as
            abandoned. Its bots and stand-ins play only while a page is open.
        connections: Open connections on the server (pages, WebSockets, requests).
        connections_per_address: Open connections from one client address (an IPv6
            client's /64 block).
        connections_per_table: WebSockets at one table, players and spectators.
        head_timeout: Seconds a request's head (a WebSocket handshake's too) and a
            request's body may take to arrive.
        bot_moves: Bot and stand-in moves a second, every table together.
        bot_moves_per_address: Bot and stand-in moves a second at the tables made from one
            address, together.
        lease: Seconds a server's hold on a table lasts unless renewed, in a store shared
            by several servers (PostgreSQL): how long a dead server's tables wait before
            another takes them. A server renews its leases three times as often.
    """

    tables: int = attrs.field(default=1000, validator=_positive)
    tables_per_address: int = attrs.field(default=10, validator=_positive)
    archive: int = attrs.field(default=10_000, validator=_positive)
    idle: float = attrs.field(default=1800.0, converter=float, validator=_positive)
    connections: int = attrs.field(default=2000, validator=_positive)
    connections_per_address: int = attrs.field(default=50, validator=_positive)
    connections_per_table: int = attrs.field(default=64, validator=_positive)
    head_timeout: float = attrs.field(default=10.0, converter=float, validator=_positive)
    bot_moves: float = attrs.field(default=100.0, converter=float, validator=_positive)
    bot_moves_per_address: float = attrs.field(default=20.0, converter=float, validator=_positive)
    lease: float = attrs.field(default=10.0, converter=float, validator=_positive)

    @classmethod
    def parse(cls, settings: Iterable[str]) -> Limits:
        """The defaults with each ``NAME=VALUE`` of ``settings`` set.

        Raises:
            GameSetupError: a name that is no limit, or a value that is not one.
        """
        names = {field.name: field for field in attrs.fields(cls)}
        values: dict[str, Any] = {}
        for setting in settings:
            name, equals, text = setting.partition("=")
            field = names.get(name.strip())
            if field is None or not equals:
                raise GameSetupError(f"{shown(setting)} is not NAME=VALUE with a NAME of "
                                     f"{', '.join(names)}")  # fmt: skip
            text = text.strip()
            try:
                number: int | float = int(text) if field.type in (int, "int") else float(text)
            except ValueError:
                raise GameSetupError(f"the limit {field.name} is a number, not "
                                     f"{shown(text)}") from None  # fmt: skip
            values[field.name] = number
        return cls(**values)

    def described(self) -> list[str]:
        """Each limit as ``name=value``."""
        return [f"{field.name}={getattr(self, field.name):g}" for field in attrs.fields(Limits)]
