"""Scoring components: last player with dice, or WANGO party points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, TypeAlias

import attrs

from perudo.rules.base import param

__all__ = ["Elimination", "PartyPoints", "Scoring"]


@attrs.frozen
class Elimination:
    """A lost call costs one die; a player with no dice is out; the last player with dice wins."""

    kind: ClassVar[str] = "elimination"
    moves_dice: ClassVar[bool] = True
    pressure_uses: ClassVar[int] = 0

    def points_for(self, *, pressured: bool) -> int:
        """No points move."""
        return 0

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

    kind: ClassVar[str] = "points"
    moves_dice: ClassVar[bool] = False
    rounds_per_player: int = param(int, minimum=1)
    points: int = param(int, minimum=1)
    pressure_points: int = param(int, minimum=1)
    pressure_uses: int = param(int, minimum=0)

    def points_for(self, *, pressured: bool) -> int:
        """Points moved by a challenge."""
        return self.pressure_points if pressured else self.points

    def is_over(self, dice_counts: Sequence[int], *, rounds_played: int) -> bool:
        """Over after ``rounds_per_player * N`` rounds."""
        return rounds_played >= self.rounds_per_player * len(dice_counts)

    def winners(self, dice_counts: Sequence[int], scores: Sequence[int]) -> tuple[int, ...]:
        """Every seat with the highest score: ties share the win."""
        top = max(scores)
        return tuple(seat for seat, score in enumerate(scores) if score == top)


Scoring: TypeAlias = Elimination | PartyPoints
