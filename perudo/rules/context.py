"""What a rule method sees of the game: one read-only value, :class:`RoundContext`.

A kind's method gets its own subject as a parameter (the seat that would call, the face
asked about) and everything else it may need on the context: the seats and their dice, the
player to act, the round's bids with their bidders, the edition's words. Once a call has
settled the round, the context is a :class:`CallContext`, which adds the call, its caller,
its count and its loser. A kind that needs none of it ignores it. A kind never sees a
:class:`~perudo.GameState`, nor any hidden die.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import attrs

from perudo.players import BidFacts, PlacedBid
from perudo.rules.base import Words

__all__ = ["CallContext", "RoundContext"]


@attrs.frozen
class RoundContext(BidFacts):
    """The round as the rules see it, at the moment a method is asked.

    Attributes:
        words: The edition's words (for refusals: ``words.calza`` is the exact call's).
        faces: The faces of each die (6).
        dice_per_player: The dice each player starts the game with.
        dice: Each seat's dice count, clockwise from seat 0.
        round_number: The round, from 1.
        to_act: The seat whose turn it is; ``None`` once the round has ended.
        bids: The round's bids in order, each with its bidder (a read-only sequence: its
            length and its last item cost nothing).
    """

    words: Words
    faces: int
    dice_per_player: int
    dice: tuple[int, ...]
    round_number: int
    to_act: int | None
    bids: Sequence[PlacedBid]

    @property
    def players(self) -> int:
        """The seats at the table."""
        return len(self.dice)

    @property
    def players_in(self) -> int:
        """How many seats hold dice."""
        return len(self.dice) - self.dice.count(0)

    def is_in(self, seat: int) -> bool:
        """Whether ``seat`` holds dice."""
        return self.dice[seat] > 0

    def left_of(self, seat: int) -> int:
        """The next seat clockwise (to the left) of ``seat`` that holds dice (``seat``
        itself when no other does)."""
        dice, n = self.dice, len(self.dice)
        for step in range(1, n):
            if dice[(seat + step) % n]:
                return (seat + step) % n
        return seat

    def right_of(self, seat: int) -> int:
        """The seat before ``seat`` (the one it follows) that holds dice."""
        dice, n = self.dice, len(self.dice)
        for step in range(1, n):
            if dice[(seat - step) % n]:
                return (seat - step) % n
        return seat


@attrs.frozen
class CallContext(RoundContext):
    """The round just settled by a call: what the starter axis decides from. ``dice`` is
    every seat's dice *after* the call (who is still in for the next round), ``to_act`` is
    ``None``, and the standing bid is the one called.

    Attributes:
        call: ``"dudo"`` (the challenge) or ``"calza"`` (the exact call).
        caller: The seat that made the call.
        count: The dice the call counted of the standing bid's face.
        loser: The seat that lost the call (dice or points); ``None`` when nobody did (a
            right exact call).
    """

    call: Literal["dudo", "calza"]
    caller: int
    count: int
    loser: int | None

    @property
    def called(self) -> PlacedBid:
        """The bid the call was made on, and its bidder."""
        return self.bids[-1]
