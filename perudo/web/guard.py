"""The connections ``perudo serve`` takes (extra ``web``: uvicorn): at most so many on the
server and from one client address, each request head (a WebSocket handshake's too) read
within a deadline and bounded in size.

uvicorn's h11 parser refuses a request head past 16 kB (``httptools``, which
``uvicorn[standard]`` also brings, reads one without bound), but neither parser closes a
connection whose head never ends, and uvicorn caps nothing per address. :class:`Gate`
counts the open connections; :func:`guarded_protocol` is the h11 protocol that asks it
before it reads a byte and closes a connection whose head is late.

An address is a client's IPv4 address, or the first 64 bits of an IPv6 one (the block one
household or machine is given).
"""

from __future__ import annotations

import asyncio
import ipaddress
from typing import Any

try:
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol
except ImportError as error:  # pragma: no cover - depends on what is installed
    from perudo.errors import install_hint

    raise ImportError(f"perudo.web.guard needs {error.name}: {install_hint('web')}") from error

__all__ = ["Gate", "address_of", "guarded_protocol"]

_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s"
)
_LATE = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s"
)


def address_of(host: str) -> str:
    """The address a limit counts ``host`` under: an IPv4 address as it is, an IPv6 one
    as its /64 block (an IPv4 address written as IPv6, as the IPv4 address).

    >>> address_of("127.0.0.1"), address_of("2001:db8::1"), address_of("::ffff:10.0.0.1")
    ('127.0.0.1', '2001:db8::/64', '10.0.0.1')
    """
    try:
        parsed = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]  # a Unix socket's path, or a name: counted as given
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


class Gate:
    """The open connections of a server, by client address, and the limits they meet:
    ``total`` on the server, ``per_address`` from one address, ``head_timeout`` seconds
    for each request head."""

    def __init__(self, *, total: int, per_address: int, head_timeout: float) -> None:
        self.total, self.per_address, self.head_timeout = total, per_address, head_timeout
        self.open: dict[object, str] = {}  # transport -> its address
        self.by_address: dict[str, int] = {}
        self.refused = 0  # connections refused past a limit (for the log and the tests)

    def admit(self, transport: object, host: str) -> str | None:
        """Count ``transport`` from ``host`` in; ``None``, or why it is refused."""
        address = address_of(host)
        if len(self.open) >= self.total:
            why = f"this server holds {self.total} connections already"
        elif self.by_address.get(address, 0) >= self.per_address:
            why = f"{self.per_address} connections from one address at most"
        else:
            self.open[transport] = address
            self.by_address[address] = self.by_address.get(address, 0) + 1
            return None
        self.refused += 1
        return why

    def release(self, transport: object) -> None:
        """``transport`` has closed (nothing if it was not counted)."""
        address = self.open.pop(transport, None)
        if address is None:
            return
        left = self.by_address[address] - 1
        if left:
            self.by_address[address] = left
        else:
            del self.by_address[address]

    def count(self, host: str) -> int:
        """The connections open from ``host``'s address."""
        return self.by_address.get(address_of(host), 0)


def guarded_protocol(gate: Gate) -> type[H11Protocol]:
    """uvicorn's h11 protocol, each connection counted by ``gate`` (one past its limits
    answered 503 and closed before anything is read) and each request head due within
    ``gate.head_timeout`` seconds of the connection, or of the last response (else 408
    and closed). A connection upgraded to a WebSocket stays counted until it closes."""

    class GuardedProtocol(H11Protocol):
        head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            why = gate.admit(transport, self.client[0] if self.client else "")
            if why is not None:
                transport.write(_BUSY % (len(why), why.encode()))
                transport.close()
                return
            self._expect_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._head_arrived()
            gate.release(self.transport)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.transport.get_protocol() is not self or self.conn.their_state is not h11.IDLE:
                self._head_arrived()  # a request to answer, or a WebSocket now

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                self._expect_head()  # the next request's head, on a connection kept alive

        def handle_websocket_upgrade(self, event: Any) -> None:
            transport = self.transport
            super().handle_websocket_upgrade(event)
            socket = transport.get_protocol()
            lost = socket.connection_lost

            def released(exc: Exception | None) -> None:
                gate.release(transport)
                lost(exc)

            socket.connection_lost = released  # type: ignore[method-assign]

        def _expect_head(self) -> None:
            self._head_arrived()
            self.head_timer = self.loop.call_later(gate.head_timeout, self._head_late)

        def _head_arrived(self) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None

        def _head_late(self) -> None:
            self.head_timer = None
            waiting = self.transport.get_protocol() is self and self.conn.their_state is h11.IDLE
            if waiting and not self.transport.is_closing():
                why = b"the request's head did not arrive in time"
                self.transport.write(_LATE % (len(why), why))
                self.transport.close()

    return GuardedProtocol
