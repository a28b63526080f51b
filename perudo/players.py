"""The seats of a game and the bids they make."""

from __future__ import annotations

import attrs

from perudo.actions import Bid

__all__ = ["PlacedBid", "Player"]


@attrs.frozen
class Player:
    """One seat at the table.

    Attributes:
        name: The player's name.
        dice: The hand this round, sorted; empty once the player is out.
        score: Points (WANGO party mode); 0 elsewhere.
        pressure_left: Pressure uses left (WANGO party mode); 0 elsewhere.
        had_special: Whether the player has had their once-per-game special round.
    """

    name: str
    dice: tuple[int, ...]
    score: int = 0
    pressure_left: int = 0
    had_special: bool = False

    @property
    def is_in(self) -> bool:
        """Whether the player still holds dice."""
        return bool(self.dice)


@attrs.frozen
class PlacedBid:
    """A bid of the round and the seat that made it."""

    player: int
    bid: Bid
