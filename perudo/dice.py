"""Dice drawn deterministically from a game's seed.

A state never holds a random generator: each round's dice are a pure function of the
seed, the round number and how many dice each player holds. The draws use BLAKE2b, so
they are the same on every Python version and platform (``random`` only promises that
for ``random()`` itself).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterator, Sequence

__all__ = ["SEED_LIMIT", "count", "deal", "drawn_seat", "pick", "reroll", "roll_off"]

#: Seeds are whole numbers strictly between ``-SEED_LIMIT`` and ``SEED_LIMIT`` (64 bits).
SEED_LIMIT = 2**64

FACES = 6


@functools.cache
def _as_face(faces: int) -> bytes:
    """Each byte of a digest read as a face (1 to ``faces``), or 0 for a byte that is
    skipped: bytes at or above the largest multiple of ``faces`` would bias the faces."""
    accept = 256 - 256 % faces
    return bytes(byte % faces + 1 if byte < accept else 0 for byte in range(256))


def _block(seed: int, stream: str, block: int, faces: int = FACES) -> bytes:
    """The faces drawn from one 64-byte BLAKE2b block of ``(seed, stream)``."""
    digest = hashlib.blake2b(f"perudo:{seed}:{stream}:{block}".encode(), digest_size=64)
    return digest.digest().translate(_as_face(faces)).replace(b"\0", b"")


def _faces(seed: int, stream: str) -> Iterator[int]:
    """An endless, reproducible stream of die faces for ``(seed, stream)``."""
    block = 0
    while True:
        yield from _block(seed, stream, block)
        block += 1


def deal(
    seed: int, round_number: int, counts: Sequence[int], faces: int = FACES
) -> tuple[tuple[int, ...], ...]:
    """The hands of a round: ``counts[i]`` dice for seat ``i``, each hand sorted, each die
    of ``faces`` faces.

    >>> deal(7, 1, [2, 0, 3])
    ((4, 6), (), (1, 1, 1))
    """
    stream = f"round-{round_number}"
    need = sum(counts)
    drawn = _block(seed, stream, 0, faces)
    block = 1
    while len(drawn) < need:
        drawn += _block(seed, stream, block, faces)
        block += 1
    hands = []
    start = 0
    for n in counts:
        hands.append(tuple(sorted(drawn[start : start + n])))
        start += n
    return tuple(hands)


def reroll(seed: int, round_number: int, index: int, n: int, faces: int = FACES) -> tuple[int, ...]:
    """The faces of ``n`` dice re-rolled by the round's action number ``index`` (from 0, in
    the order the round's actions were taken): drawn from their own stream of the seed, so
    they depend neither on other rounds' re-rolls nor on the round's deal.

    >>> reroll(7, 1, 0, 3)
    (1, 5, 6)
    """
    stream = f"round-{round_number}-act-{index}"
    drawn = b""
    block = 0
    while len(drawn) < n:
        drawn += _block(seed, stream, block, faces)
        block += 1
    return tuple(sorted(drawn[:n]))


def pick(seed: int, round_number: int, index: int, n: int) -> int:
    """Which of ``n`` dice (from 0, in the sorted hand) the round's action number ``index``
    looks at: drawn from its own stream of the seed, each die equally likely.

    >>> pick(7, 1, 0, 5)
    2
    """
    stream, block = f"round-{round_number}-look-{index}", 0
    while not (drawn := _block(seed, stream, block, n)):  # a block of rejected bytes only
        block += 1
    return drawn[0] - 1


def drawn_seat(seed: int, players: int) -> int:
    """A seat from 0 to ``players - 1``, each alike, drawn from its own stream of the seed
    (who opens a game whose first player is drawn at random).

    >>> drawn_seat(7, 4)
    3
    """
    stream, block = "first-player", 0
    while not (drawn := _block(seed, stream, block, players)):
        block += 1
    return drawn[0] - 1


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


def count(
    hands: Sequence[Sequence[int]],
    face: int,
    *,
    wild: int | None = None,
    wild_ones: bool = False,
) -> int:
    """How many dice among ``hands`` show ``face``, the ``wild`` face included (``wild_ones``
    is short for ``wild=1``). A bid on the wild face counts that face only.

    >>> count([(6, 6, 6, 6, 2), (1, 1, 3)], 6, wild_ones=True)
    6
    >>> count([(6, 6, 6, 6, 2), (1, 1, 3)], 6, wild_ones=False)
    4
    >>> count([(6, 6, 2), (1, 3)], 2, wild=6)
    3
    """
    if wild_ones:
        wild = 1
    if wild is None or wild == face:
        return sum([hand.count(face) for hand in hands])
    return sum([hand.count(face) + hand.count(wild) for hand in hands])
