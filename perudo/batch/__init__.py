"""The batch engine: thousands of games of one edition per call, as NumPy arrays.

Needs the extra ``perudo[batch]`` (NumPy, and numba, which compiles each game's steps: the
first call on a machine compiles them, about 45 s, and numba's cache keeps them for every
later process). :class:`BatchGames` plays ``batch`` games at
once from the same declarations as :class:`~perudo.GameState`, in the numbering of
:mod:`perudo.encoding`; :func:`play_random` plays random games for benchmarks and quick
studies. Editions with rule kinds registered outside perudo are refused by name: play
them with :func:`perudo.new_game`.
"""

from __future__ import annotations

try:
    import numba  # noqa: F401
    import numpy  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on what is installed
    from perudo.errors import install_hint

    raise ImportError(f"perudo.batch needs {error.name}: {install_hint('batch')}") from error

from perudo.batch.engine import BatchGames, StepResult, play_random
from perudo.batch.rules import batch_rules

__all__ = ["BatchGames", "StepResult", "batch_rules", "play_random"]
