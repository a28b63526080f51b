"""Table components: how many players, how many dice, who opens the game and each round."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import attrs

from perudo.actions import MAX_DICE_PER_PLAYER, MAX_PLAYERS
from perudo.rules.base import param

__all__ = ["IF_OUT", "Dice", "LoserStarts", "PlayerCount", "RollOff"]

IF_OUT = ("left", "eliminator")


@attrs.frozen
class PlayerCount:
    """How many players may sit at the table."""

    kind: ClassVar[str] = "range"
    min: int = param(int, minimum=2, maximum=MAX_PLAYERS)
    max: int = param(int, minimum=2, maximum=MAX_PLAYERS)


@attrs.frozen
class Dice:
    """Six-sided dice, ``per_player`` of them in each hand at the start."""

    kind: ClassVar[str] = "standard"
    per_player: int = param(int, minimum=1, maximum=MAX_DICE_PER_PLAYER)


@attrs.frozen
class RollOff:
    """Each player rolls one die; the highest opens the game; a tie at the top rolls again."""

    kind: ClassVar[str] = "roll-off"


@attrs.frozen
class LoserStarts:
    """The player who lost (a die or a point) opens the next round; after an exact call,
    the caller does.

    Attributes:
        if_out: When that player is out: ``"left"`` (the next player still in, clockwise)
            or ``"eliminator"`` (the other party of the Dudo that put them out).
    """

    kind: ClassVar[str] = "loser"
    if_out: str = param(str, choices=IF_OUT)

    def next_opener(
        self,
        *,
        exact_call: bool,
        caller: int,
        bidder: int,
        loser: int | None,
        is_in: Callable[[int], bool],
        left_of: Callable[[int], int],
    ) -> int:
        """The seat that opens the next round."""
        seat = caller if exact_call or loser is None else loser
        if is_in(seat):
            return seat
        if not exact_call and self.if_out == "eliminator":
            return caller if seat == bidder else bidder
        return left_of(seat)
