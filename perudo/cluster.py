"""Run simulations on a Dask distributed cluster (the extra ``perudo[dask]``).

:func:`dask_executor` connects to a scheduler and returns a
:class:`concurrent.futures.Executor` that :func:`perudo.simulate.simulate` (and
``perudo simulate --scheduler ADDRESS``) sends the games to. The same seed gives the same
result on one process, on several, and on the cluster.
"""

from __future__ import annotations

from concurrent.futures import Executor
from typing import Any

from perudo.errors import GameSetupError, install_hint, shown

__all__ = ["dask_executor"]


def dask_executor(address: str, *, timeout: float = 10.0) -> tuple[Any, Executor]:
    """A client of the Dask scheduler at ``address`` (``"tcp://host:8786"``) and an
    executor on it. Close the client when done (``client.close()``).

    Raises:
        ImportError: Dask's ``distributed`` is not installed (the message names the extra).
        GameSetupError: no scheduler answers at ``address`` within ``timeout`` seconds, or
            it takes TLS clients and this one has no certificate.
    """
    try:
        from distributed import Client
    except ImportError as error:
        raise ImportError(f"running on a Dask cluster needs {install_hint('dask')}") from error
    if not isinstance(address, str) or not address:
        raise GameSetupError(f"scheduler {shown(address)} is not an address")
    try:
        client = Client(address, timeout=timeout)  # type: ignore[no-untyped-call]
    except TypeError:  # distributed's word for a tls:// address without a client certificate
        raise GameSetupError(
            f"the Dask scheduler at {shown(address)} takes TLS clients only: give this one "
            "its certificate in Dask's configuration (DASK_DISTRIBUTED__COMM__TLS__CA_FILE, "
            "...__TLS__CLIENT__CERT, ...__TLS__CLIENT__KEY)"
        ) from None
    except (OSError, TimeoutError, ValueError) as error:
        raise GameSetupError(
            f"no Dask scheduler answers at {shown(address)}: {type(error).__name__}"
        ) from None
    executor: Executor = client.get_executor()  # type: ignore[no-untyped-call]
    return client, executor
