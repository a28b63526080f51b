"""How the batch engine's steps are compiled, and the random numbers they draw.

Every step of :mod:`perudo.batch` is a plain Python function over one game's row of the
batch's arrays, compiled by numba (:func:`compiled`) into machine code once per machine
(numba's cache keeps it beside the module, or in the user's cache where that is read-only).
One step calls others across modules, and numba checks a cached function only against its
own file: so every cached step of the package is checked against all of its modules at once
(:func:`sources_stamp`), and a change to any one of them compiles them all again.

A Ctrl-C while a step is compiled, or loaded from the cache, is held until that is done
(:func:`interrupts_held` says why).

The dice and the random policy draw from one xorshift64* generator per batch, the 64-bit
word ``bits[0]`` the batch keeps (``BatchGames.bits``; ``bits[1]`` holds a die drawn with
another): the same seed gives the same games.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numba.core import caching
from numpy.typing import NDArray

__all__ = [
    "below",
    "compiled",
    "die",
    "inlined",
    "interrupts_held",
    "next_bits",
    "row",
    "rows",
    "seed_bits",
    "sources_stamp",
]

F = TypeVar("F", bound=Callable[..., Any])


_HERE = Path(__file__).parent


@functools.cache
def sources_stamp() -> bytes:
    """A hash of every module of :mod:`perudo.batch`: what a cached step is checked against."""
    digest = hashlib.sha256()
    for path in sorted(_HERE.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.digest()


class _Stamped:
    """A numba cache locator for this package's modules, stamped with all of them."""

    def get_source_stamp(self) -> bytes:
        return sources_stamp()

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        if Path(py_file).parent != _HERE:
            return None
        return super().from_function(py_func, py_file)  # type: ignore[misc]


class _UserProvided(_Stamped, caching.UserProvidedCacheLocator):
    """In ``NUMBA_CACHE_DIR`` where it is set."""


class _InTree(_Stamped, caching.InTreeCacheLocator):
    """Beside the modules, where ``__pycache__`` is writable."""


class _UserWide(_Stamped, caching.UserWideCacheLocator):
    """In the user's cache directory otherwise."""


# numba's list of locators, tried in order (CacheImpl in newer numba, _CacheImpl in older).
_IMPL: Any = vars(caching).get("CacheImpl") or vars(caching)["_CacheImpl"]
_IMPL._locator_classes[:0] = [_UserProvided, _InTree, _UserWide]


def compiled(function: F) -> F:
    """``function`` compiled by numba (nopython mode, cached on disk), typed as it was."""
    return _jit(function, nogil=True)


def inlined(function: F) -> F:
    """``function`` compiled into each compiled function that calls it (a step of one
    game). Measured on ``play_random``: inlining every step plays 1.6 times as fast as
    inlining only the smallest, for a first compile half as long again."""
    return _jit(function, inline="always")


def _jit(function: F, **options: Any) -> F:
    """``function`` as numba compiles every step (cached on disk, NumPy's error model), with
    ``options``."""
    return cast(F, _holding(numba.njit(cache=True, error_model="numpy", **options)(function)))


def _holding(dispatcher: Any) -> Any:
    """``dispatcher``, compiling (or loading from the cache) with Ctrl-C held. numba's
    dispatcher does both in its ``compile`` method, on a first call with new types too."""
    compile_ = dispatcher.compile

    @functools.wraps(compile_)
    def compile(signature: Any) -> Any:
        with interrupts_held():
            return compile_(signature)

    dispatcher.compile = compile
    return dispatcher


_held: list[int] = []  # the signals held by interrupts_held, in the main thread
#: The signals held while a step compiles: Ctrl-C, and SIGTERM where a Python handler
#: turns it into an exception (``perudo``'s command line does).
HELD = (signal.SIGINT, signal.SIGTERM)


def _hold(signum: int, frame: FrameType | None) -> None:
    _held.append(signum)


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C (``SIGINT``), and ``SIGTERM``, in this block, and give each to the
    handler it was meant for once the block is done; in the main thread, where a handler of
    Python's runs, and for a signal whose handler is a Python function (the default for
    SIGINT raises ``KeyboardInterrupt``; the command line's for SIGTERM raises too).

    llvmlite hands numba's machine code to LLVM, and back from numba's cache, through ctypes
    callbacks; an exception raised inside one is printed as "Exception ignored" and
    dropped. Every compiled step compiles inside this block, so a Ctrl-C in the first
    second of a run is not lost. Blocks nest: the outermost one gives the signals back.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handlers = {number: signal.getsignal(number) for number in HELD}
    held = [n for n, handler in handlers.items() if callable(handler) and handler is not _hold]
    for number in held:
        signal.signal(number, _hold)
    try:
        yield
    finally:
        for number in held:
            signal.signal(number, handlers[number])
        if held and _held:
            caught: list[int] = list(dict.fromkeys(_held))
            _held.clear()
            for signum in caught:  # each handler runs now, outside any callback
                signal.raise_signal(signum)


@inlined
def rows(n: int) -> range:
    """The rows 0 to ``n - 1`` of a batch, as numba's unsigned integers: every compiled loop
    over games takes its rows from here. An index numba knows is not negative skips the
    check for one counted from the end (a compare and an add at every array access):
    measured, 8 to 15% of :func:`~perudo.batch.play_random`'s time."""
    return range(np.uint64(n))


@inlined
def row(k: int) -> int:
    """Row ``k`` as :func:`rows` gives it (for a row not taken from it)."""
    return np.uint64(k)  # type: ignore[return-value]  # an int to the Python that reads it


@inlined
def next_bits(bits: NDArray[np.uint64]) -> Any:
    """xorshift64*: the next 64 random bits of the generator ``bits[0]``."""
    x = bits[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    bits[0] = x
    return x * np.uint64(2685821657736338717)


@inlined
def below(bits: NDArray[np.uint64], n: int) -> np.int64:
    """A number from 0 to ``n - 1`` (``n`` below 2**32), drawn from the generator."""
    high = next_bits(bits) >> np.uint64(32)
    return np.int64((high * np.uint64(n)) >> np.uint64(32))


@inlined
def die(bits: NDArray[np.uint64], faces: int) -> np.int64:
    """A die of ``faces`` faces less one (0 to ``faces - 1``): two dice from each 64 bits of
    the generator, the second kept in ``bits[1]`` until it is drawn (1 above it; 0 none)."""
    kept = bits[1]
    if kept:
        bits[1] = 0
        return np.int64(kept - np.uint64(1))
    word = next_bits(bits)
    low = word & np.uint64(0xFFFFFFFF)
    bits[1] = ((low * np.uint64(faces)) >> np.uint64(32)) + np.uint64(1)
    return np.int64(((word >> np.uint64(32)) * np.uint64(faces)) >> np.uint64(32))


def seed_bits(rng: np.random.Generator) -> NDArray[np.uint64]:
    """A generator drawn from ``rng``: its word (never 0, which xorshift never leaves), and
    no die kept."""
    return np.array([rng.integers(1, 2**64, dtype=np.uint64), 0], dtype=np.uint64)
