"""Dice drawn deterministically from a game's seed.

A state never holds a random generator: each round's dice are a pure function of the
seed, the round number and how many dice each player holds. The draws use BLAKE2b, so
they are the same on every Python version and platform (``random`` only promises that
for ``random()`` itself).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence

__all__ = ["count", "deal", "roll_off"]

FACES = 6
_ACCEPT = 256 - 256 % FACES  # bytes at or above this would bias the faces: skip them


def _faces(seed: int, stream: str) -> Iterator[int]:
    """An endless, reproducible stream of die faces for ``(seed, stream)``."""
    block = 0
    while True:
        digest = hashlib.blake2b(f"perudo:{seed}:{stream}:{block}".encode(), digest_size=64)
        for byte in digest.digest():
            if byte < _ACCEPT:
                yield byte % FACES + 1
        block += 1


def deal(seed: int, round_number: int, counts: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The hands of a round: ``counts[i]`` dice for seat ``i``, each hand sorted.

    >>> deal(7, 1, [2, 0, 3])
    ((4, 6), (), (1, 1, 1))
    """
    faces = _faces(seed, f"round-{round_number}")
    return tuple(tuple(sorted(next(faces) for _ in range(n))) for n in counts)


def roll_off(seed: int, seats: Sequence[int]) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """Who opens the game: every seat rolls one die, the highest starts, a tie at the top
    makes all roll again. Returns the winning seat and every roll, one tuple per throw.

    It draws from its own stream of the seed, so round 1's dice do not depend on it.
    """
    faces = _faces(seed, "roll-off")
    throws: list[tuple[int, ...]] = []
    while True:
        rolls = tuple(next(faces) for _ in seats)
        throws.append(rolls)
        top = max(rolls)
        if rolls.count(top) == 1:
            return seats[rolls.index(top)], tuple(throws)


def count(hands: Sequence[Sequence[int]], face: int, *, wild_ones: bool) -> int:
    """How many dice among ``hands`` show ``face``, ones included when they are wild.

    A bid on ones counts ones only.

    >>> count([(6, 6, 6, 6, 2), (1, 1, 3)], 6, wild_ones=True)
    6
    >>> count([(6, 6, 6, 6, 2), (1, 1, 3)], 6, wild_ones=False)
    4
    """
    wild = wild_ones and face != 1
    return sum(1 for hand in hands for die in hand if die == face or (wild and die == 1))
