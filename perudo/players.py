"""The seats of a game and the bids they make."""

from __future__ import annotations

import attrs

from perudo.actions import Bid

__all__ = ["PlacedBid", "Player", "RoundFacts"]


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


class RoundFacts:
    """What :class:`~perudo.GameState` and :class:`~perudo.PlayerView` both derive from the
    round's bids and whose turn it is."""

    __slots__ = ()
    bids: tuple[PlacedBid, ...]
    to_act: int | None

    @property
    def bid(self) -> Bid | None:
        """The standing bid, or ``None`` before the round's first bid."""
        return self.bids[-1].bid if self.bids else None

    @property
    def bidder(self) -> int | None:
        """The seat that made the standing bid."""
        return self.bids[-1].player if self.bids else None

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.to_act is None
