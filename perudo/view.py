"""What one player may see: :class:`PlayerView`."""

from __future__ import annotations

from typing import Any

import attrs

from perudo.actions import Action
from perudo.players import PlacedBid, RoundFacts
from perudo.resolution import Resolution
from perudo.rules import RoundRules
from perudo.variant import Variant

__all__ = ["PlayerView", "SeatView"]


@attrs.frozen
class SeatView:
    """What everyone knows about a seat."""

    name: str
    dice_count: int
    score: int
    pressure_left: int

    @property
    def is_in(self) -> bool:
        """Whether the seat still holds dice."""
        return self.dice_count > 0


@attrs.frozen
class PlayerView(RoundFacts):
    """All that ``player`` may know of a position: their own hand, every seat's dice count
    and score, the round's bids, whose turn it is, and what the last call showed.

    Build one with :meth:`perudo.GameState.view`. Nothing in it (its ``repr``, its
    :meth:`to_dict`, its legal actions) depends on another player's hidden dice.

    Attributes:
        player: The seat this view belongs to; ``None`` for a spectator's
            (:meth:`perudo.GameState.public_view`: no hand, no legal action).
        variant: The edition.
        round_number: The round, from 1.
        dice: The player's own hand; ``()`` while it is hidden (``dice_hidden``).
        dice_hidden: Whether the player may not look yet (Italian: the one-die player
            choosing between Palifico and an ordinary round with two players left).
        seats: Every seat, clockwise.
        bids: The bids of the round and who made them.
        to_act: The seat whose turn it is; ``None`` once the game is over.
        may_call: The seats that may make the exact call now, in or out of turn.
        special_round: The special round in force, if any.
        special_player: The seat whose special round it is.
        offers: Declarations open to the player to act.
        must_declare: Whether the player to act must declare before bidding.
        rules: The bidding rules in force this round.
        legal_actions: This player's legal actions now.
        last_result: The last call as everyone saw it (hands not shown are ``None``).
        winners: The winning seats once the game is over.
    """

    player: int | None
    variant: Variant
    round_number: int
    dice: tuple[int, ...]
    dice_hidden: bool
    seats: tuple[SeatView, ...]
    bids: tuple[PlacedBid, ...]
    to_act: int | None
    may_call: tuple[int, ...]
    special_round: str | None
    special_player: int | None
    offers: tuple[str, ...]
    must_declare: bool
    rules: RoundRules
    legal_actions: tuple[Action, ...]
    last_result: Resolution | None
    winners: tuple[int, ...]

    @property
    def dice_in_play(self) -> int:
        """How many dice all hands hold together."""
        return sum(seat.dice_count for seat in self.seats)

    @property
    def wild_face(self) -> int | None:
        """The face that counts as wild in this round so far (it may depend on the
        round's first bid), or ``None``."""
        return self.rules.wild_face(self.bids[0].bid if self.bids else None)

    @property
    def unseen(self) -> int:
        """How many dice this player cannot see."""
        return self.dice_in_play - len(self.dice)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data, actions in :mod:`perudo.notation`."""
        return {
            "player": self.player,
            "variant": self.variant.key,
            "round_number": self.round_number,
            "dice": list(self.dice),
            "dice_hidden": self.dice_hidden,
            "seats": [attrs.asdict(seat) for seat in self.seats],
            "bids": [{"player": b.player, "bid": str(b.bid)} for b in self.bids],
            "to_act": self.to_act,
            "may_call": list(self.may_call),
            "special_round": self.special_round,
            "special_player": self.special_player,
            "offers": list(self.offers),
            "must_declare": self.must_declare,
            "rules": self.rules.to_dict(),
            "legal_actions": [str(action) for action in self.legal_actions],
            "last_result": None if self.last_result is None else self.last_result.to_dict(),
            "winners": list(self.winners),
        }
