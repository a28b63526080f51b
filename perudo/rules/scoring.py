"""Scoring components: last player with dice, or WANGO party points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs

from perudo.actions import Bid
from perudo.rules.base import Words, first_paragraph, param

__all__ = [
    "MAX_POINTS",
    "MAX_PRESSURE_USES",
    "MAX_ROUNDS",
    "MAX_ROUNDS_PER_PLAYER",
    "Elimination",
    "FixedRounds",
    "PartyPoints",
]

#: The most points one call may move.
MAX_POINTS = 1000
#: The most pressure uses a player may have for a game.
MAX_PRESSURE_USES = 100
#: The most rounds a game of fixed rounds may last.
MAX_ROUNDS = 1000
#: The most rounds per player of WANGO party scoring (2,000 rounds at 20 players).
MAX_ROUNDS_PER_PLAYER = 100


@attrs.frozen
class Elimination:
    """A lost call costs one die; a player with no dice is out; the last player with dice wins."""

    axis: ClassVar[str] = "scoring"
    kind: ClassVar[str] = "elimination"
    moves_dice: ClassVar[bool] = True
    pressure_uses: ClassVar[int] = 0

    def points_for(self, *, pressured: bool) -> int:
        """No points move."""
        return 0

    def penalty(self, *, bid: Bid, count: int, held: int) -> int:
        """One die."""
        return 1

    def round_limit(self, players: int) -> int | None:
        """No fixed number of rounds."""
        return None

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return first_paragraph(self)

    def label(self, words: Words) -> str:
        """A short label."""
        return "last in"

    def is_over(self, dice_counts: Sequence[int], *, rounds_played: int) -> bool:
        """Over when at most one player holds dice."""
        return sum(1 for n in dice_counts if n) <= 1

    def winners(self, dice_counts: Sequence[int], scores: Sequence[int]) -> tuple[int, ...]:
        """The seat still holding dice."""
        return tuple(seat for seat, n in enumerate(dice_counts) if n)


@attrs.frozen
class PartyPoints:
    """WANGO party mode: N players play ``rounds_per_player * N`` rounds with their dice,
    nobody is eliminated, and each challenge moves points from its loser to its winner.

    Attributes:
        rounds_per_player: Rounds per player at the start (2: 2N rounds).
        points: Points a challenge moves.
        pressure_points: Points it moves when anyone used pressure in the round.
        pressure_uses: Pressure uses each player has for the game.
    """

    axis: ClassVar[str] = "scoring"
    kind: ClassVar[str] = "points"
    moves_dice: ClassVar[bool] = False
    rounds_per_player: int = param(int, minimum=1, maximum=MAX_ROUNDS_PER_PLAYER)
    points: int = param(int, minimum=1, maximum=MAX_POINTS)
    pressure_points: int = param(int, minimum=1, maximum=MAX_POINTS)
    pressure_uses: int = param(int, minimum=0, maximum=MAX_PRESSURE_USES)

    def points_for(self, *, pressured: bool) -> int:
        """Points moved by a challenge."""
        return self.pressure_points if pressured else self.points

    def penalty(self, *, bid: Bid, count: int, held: int) -> int:
        """No die: points move instead."""
        return 0

    def is_over(self, dice_counts: Sequence[int], *, rounds_played: int) -> bool:
        """Over after ``rounds_per_player * N`` rounds."""
        return rounds_played >= self.rounds_per_player * len(dice_counts)

    def round_limit(self, players: int) -> int | None:
        """``rounds_per_player * players``."""
        return self.rounds_per_player * players

    def winners(self, dice_counts: Sequence[int], scores: Sequence[int]) -> tuple[int, ...]:
        """Every seat with the highest score: ties share the win."""
        return _top(scores)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        return (
            f"N players play {self.rounds_per_player}N rounds with their dice; nobody is "
            f"eliminated. A challenge moves {self.points} point from its loser to its "
            f"winner, {self.pressure_points} if anyone used pressure in the round (never "
            f"more). Each player has {self.pressure_uses} pressure uses for the game. "
            "The highest score wins; ties share the win."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return "points"


@attrs.frozen
class FixedRounds:
    """A fixed number of rounds with the dice each player started with; each challenge moves
    ``points`` from its loser to its winner; the highest score wins (OpenSpiel's
    ``liars_dice`` is one round: the loser scores -1, the winner +1).

    Attributes:
        rounds: Rounds in the game.
        points: Points a challenge moves.
    """

    axis: ClassVar[str] = "scoring"
    kind: ClassVar[str] = "rounds"
    moves_dice: ClassVar[bool] = False
    pressure_uses: ClassVar[int] = 0
    rounds: int = param(int, minimum=1, maximum=MAX_ROUNDS)
    points: int = param(int, minimum=1, maximum=MAX_POINTS)

    def points_for(self, *, pressured: bool) -> int:
        """``points``."""
        return self.points

    def penalty(self, *, bid: Bid, count: int, held: int) -> int:
        """No die: points move instead."""
        return 0

    def is_over(self, dice_counts: Sequence[int], *, rounds_played: int) -> bool:
        """Over after ``rounds`` rounds."""
        return rounds_played >= self.rounds

    def round_limit(self, players: int) -> int | None:
        """``rounds``."""
        return self.rounds

    def winners(self, dice_counts: Sequence[int], scores: Sequence[int]) -> tuple[int, ...]:
        """Every seat with the highest score: ties share the win."""
        return _top(scores)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        rounds = "one round" if self.rounds == 1 else f"{self.rounds} rounds"
        return (
            f"The game is {rounds}, played with the dice each player started with. A "
            f"challenge moves {self.points} point{'s' if self.points > 1 else ''} from its "
            "loser to its winner; the highest score wins."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return f"{self.rounds} rnd"[:8]


def _top(scores: Sequence[int]) -> tuple[int, ...]:
    top = max(scores)
    return tuple(seat for seat, score in enumerate(scores) if score == top)
