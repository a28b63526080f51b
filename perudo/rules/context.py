"""What a rule method sees of the game: one read-only value, :class:`RoundContext`.

A kind's method gets its own subject as a parameter (the seat that would call, the face
asked about, the bid judged) and everything else it may need on the context: the seats and
their dice, the player to act, the round's bids with their bidders, the rules in force, the
edition's words. Once a call is made, the context is a :class:`CallContext`, which adds the
call, its caller, the hands shown and the count; once the call is settled, a
:class:`SettledCall`, which adds every seat's change. A kind that needs none of it ignores
it. A kind never sees a :class:`~perudo.GameState`, nor any hidden die.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

import attrs

from perudo.players import BidFacts, PlacedBid
from perudo.rules.base import Words

if TYPE_CHECKING:
    from perudo.rules.axes import RoundRules

__all__ = ["CALLS", "CallContext", "RoundContext", "SettledCall"]

#: The roles of the two calls: the challenge (Dudo, Dubito, Liar) and the exact call
#: (Calza, Jonti, Spot on). The edition's words name them; the engine speaks of roles.
CALLS = ("challenge", "exact")


@attrs.frozen(slots=False)  # short-lived: a dict-based class is made twice as fast
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
        rules: The rules in force this round (after any special round's transform).
        scores: Each seat's score (points editions; zeros elsewhere).
    """

    words: Words
    faces: int
    dice_per_player: int
    dice: tuple[int, ...]
    round_number: int
    to_act: int | None
    bids: Sequence[PlacedBid]
    rules: RoundRules
    scores: tuple[int, ...]

    @property
    def wild(self) -> int | None:
        """The wild face at this moment of the round (it may depend on the bids so far), or
        ``None``. The wilds axis decides it, so a wilds kind never reads it."""
        return self.rules.wild_face(self)

    @property
    def players(self) -> int:
        """The seats at the table."""
        return len(self.dice)

    @property
    def players_in(self) -> int:
        """How many seats hold dice."""
        return len(self.dice) - self.dice.count(0)

    @property
    def dice_in_play(self) -> int:
        """How many dice all hands hold together."""
        return sum(self.dice)

    def is_in(self, seat: int) -> bool:
        """Whether ``seat`` holds dice."""
        return self.dice[seat] > 0

    def left_of(self, seat: int) -> int:
        """The next seat clockwise (to the left) of ``seat`` that holds dice (``seat``
        itself when no other does)."""
        return _next_in(self.dice, seat, 1)

    def right_of(self, seat: int) -> int:
        """The seat before ``seat`` (the one it follows) that holds dice."""
        return _next_in(self.dice, seat, -1)

    def order_from(self, seat: int) -> tuple[int, ...]:
        """The seats holding dice clockwise from ``seat``'s left, ``seat`` last (the order
        hands are shown at a call by ``seat``)."""
        dice, n = self.dice, len(self.dice)
        return tuple([other for k in range(1, n + 1) if dice[other := (seat + k) % n]])


@attrs.frozen(slots=False)  # short-lived: a dict-based class is made twice as fast
class CallContext(RoundContext):
    """The round at a call, its hands shown and counted: what a settlement decides from.
    ``dice`` is every seat's dice when the call was made, ``to_act`` is ``None``, and the
    standing bid is the one called.

    Attributes:
        call: ``"challenge"`` or ``"exact"`` (:data:`~perudo.rules.CALLS`).
        caller: The seat that made the call.
        pressured: Whether anyone used pressure this round (WANGO party mode).
        shown: Each seat's hand as shown: ``None`` for a hand that stayed hidden, ``()`` for
            a seat already out.
        count: The dice among the hands shown that count for the called bid's face (the
            wild face included).
    """

    call: Literal["challenge", "exact"]
    caller: int
    pressured: bool
    shown: tuple[tuple[int, ...] | None, ...]
    count: int

    @property
    def called(self) -> PlacedBid:
        """The bid the call was made on, and its bidder."""
        return self.bids[-1]

    @property
    def bid_stands(self) -> bool:
        """Whether the count is at least the called bid's quantity (a challenge of it is
        lost by the challenger)."""
        return self.count >= self.bids[-1].bid.quantity

    @property
    def is_exact(self) -> bool:
        """Whether the count is exactly the called bid's quantity (an exact call is right)."""
        return self.count == self.bids[-1].bid.quantity

    @property
    def challenge_loser(self) -> int:
        """The seat that loses a plain challenge of the called bid (the challenger if the
        bid stands, else the bidder)."""
        return self.caller if self.count >= self.bids[-1].bid.quantity else self.bids[-1].player


@attrs.frozen(slots=False)  # short-lived: a dict-based class is made twice as fast
class SettledCall(CallContext):
    """A call and what it did: what the starter, the special round and the end of the game
    decide from. ``dice`` and ``scores`` are still those when the call was made; ``after``
    and ``scores_after`` are the table the next round is played at.

    Attributes:
        changes: Each seat's change of dice.
        points: Each seat's change of score.
        after: Each seat's dice after the call.
    """

    changes: tuple[int, ...]
    points: tuple[int, ...]
    after: tuple[int, ...]

    @property
    def scores_after(self) -> tuple[int, ...]:
        """Each seat's score after the call."""
        return tuple([n + change for n, change in zip(self.scores, self.points, strict=True)])

    @property
    def losers(self) -> tuple[int, ...]:
        """The seats that lost dice or points, in seat order."""
        points = self.points
        return tuple([s for s, change in enumerate(self.changes) if change < 0 or points[s] < 0])

    @property
    def gainers(self) -> tuple[int, ...]:
        """The seats that gained dice or points, in seat order."""
        points = self.points
        return tuple([s for s, change in enumerate(self.changes) if change > 0 or points[s] > 0])

    def still_in(self, seat: int) -> bool:
        """Whether ``seat`` holds dice after the call."""
        return self.after[seat] > 0

    def next_in(self, seat: int) -> int:
        """``seat`` if it holds dice after the call, else the next seat clockwise that does."""
        after = self.after
        return seat if after[seat] else _next_in(after, seat, 1)


def _next_in(dice: Sequence[int], seat: int, step: int) -> int:
    n = len(dice)
    for k in range(1, n):
        other = (seat + step * k) % n
        if dice[other]:
            return other
    return seat
