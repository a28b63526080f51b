"""How a Dudo or an exact call (Calza, Jonti) ends a round: :class:`Resolution`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import attrs

from perudo.actions import Bid
from perudo.dice import count
from perudo.variant import Variant

__all__ = ["Resolution", "resolve_dudo", "resolve_exact_call"]


@attrs.frozen
class Resolution:
    """The outcome of a call.

    Attributes:
        call: ``"dudo"`` or ``"calza"`` (the exact call, Jonti included).
        word: What the edition calls it: ``"Dubito"``, ``"Perudo"``, ``"Jonti"`` ...
        bid: The bid that was called.
        caller: The seat that called.
        bidder: The seat that made the bid.
        count: Dice of the bid's face (with wild ones if they were wild) among the hands shown.
        revealed: The seats that showed their hands, in the order shown (challenger last).
        hands: Each seat's hand as shown: ``None`` for a hand that stayed hidden, ``()`` for a
            seat already out.
        wild_ones: Whether ones counted as wild in this count.
        loser: The seat that lost a die (or points), if any.
        gainer: The seat that gained a die (or points), if any.
        points: Points moved from ``loser`` to ``gainer`` (party mode), else 0.
        eliminated: The seat that lost its last die, if any.
    """

    call: Literal["dudo", "calza"]
    word: str
    bid: Bid
    caller: int
    bidder: int
    count: int
    revealed: tuple[int, ...]
    hands: tuple[tuple[int, ...] | None, ...]
    wild_ones: bool
    loser: int | None
    gainer: int | None
    points: int
    eliminated: int | None

    @property
    def is_exact(self) -> bool:
        """Whether the count equals the bid's quantity (what an exact call claims)."""
        return self.count == self.bid.quantity

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data; hands that stayed hidden are ``None``."""
        return {
            "call": self.call,
            "word": self.word,
            "bid": str(self.bid),
            "caller": self.caller,
            "bidder": self.bidder,
            "count": self.count,
            "revealed": list(self.revealed),
            "hands": [None if hand is None else list(hand) for hand in self.hands],
            "wild_ones": self.wild_ones,
            "loser": self.loser,
            "gainer": self.gainer,
            "points": self.points,
            "eliminated": self.eliminated,
        }

    def describe(self, names: Sequence[str] | None = None) -> str:
        """A sentence for people, with player names when given."""

        def who(seat: int) -> str:
            return names[seat] if names is not None else f"seat {seat}"

        face = "ones" if self.bid.face == 1 else f"{self.bid.face}s"
        wild = " (ones wild)" if self.wild_ones and self.bid.face != 1 else ""
        shown = "" if self.hands.count(None) == 0 else " among the hands shown"
        head = (
            f"{self.word} by {who(self.caller)} on {self.bid} by {who(self.bidder)}: "
            f"{self.count} {face}{wild}{shown}"
        )
        if self.points:
            assert self.loser is not None
            assert self.gainer is not None
            return (
                f"{head}; {who(self.loser)} gives {self.points} "
                f"point{'s' if self.points > 1 else ''} to {who(self.gainer)}"
            )
        if self.loser is not None:
            out = ", and is out" if self.eliminated is not None else ""
            return f"{head}; {who(self.loser)} loses a die{out}"
        if self.gainer is not None:
            return f"{head}; {who(self.gainer)} gains a die"
        return f"{head}; {who(self.caller)} already holds every die and gains nothing"

    def __str__(self) -> str:
        return self.describe()


def _shown(
    hands: Sequence[tuple[int, ...]], revealed: Sequence[int]
) -> tuple[tuple[int, ...] | None, ...]:
    shown = set(revealed)
    return tuple(hand if seat in shown or not hand else None for seat, hand in enumerate(hands))


def resolve_dudo(
    variant: Variant,
    hands: Sequence[tuple[int, ...]],
    *,
    order: Sequence[int],
    bid: Bid,
    caller: int,
    bidder: int,
    wild_ones: bool,
    pressured: bool,
) -> Resolution:
    """Resolve a Dudo by ``caller`` on ``bidder``'s ``bid``.

    ``order`` lists the seats still in, from the caller's left, the caller last. A count at
    least the quantity makes the caller lose, a lower count the bidder: equality favours
    the bidder. With elimination the loser loses a die; with party points, points move.
    """
    revealed, total = variant.challenge.reveal_hands(hands, order, bid, wild_ones=wild_ones)
    loser, winner = (caller, bidder) if total >= bid.quantity else (bidder, caller)
    points = variant.scoring.points_for(pressured=pressured)
    moves_dice = variant.scoring.moves_dice
    eliminated = loser if moves_dice and len(hands[loser]) == 1 else None
    return Resolution(
        call="dudo",
        word=variant.words.dudo,
        bid=bid,
        caller=caller,
        bidder=bidder,
        count=total,
        revealed=revealed,
        hands=_shown(hands, revealed),
        wild_ones=wild_ones,
        loser=loser,
        gainer=None if moves_dice else winner,
        points=points,
        eliminated=eliminated,
    )


def resolve_exact_call(
    variant: Variant,
    hands: Sequence[tuple[int, ...]],
    *,
    order: Sequence[int],
    bid: Bid,
    caller: int,
    bidder: int,
    wild_ones: bool,
) -> Resolution:
    """Resolve an exact call (Calza, Jonti): every hand is shown. Exactly right: the caller
    gains a die unless already holding the edition's dice per player. Wrong: the caller
    loses a die."""
    total = count([hands[seat] for seat in order], bid.face, wild_ones=wild_ones)
    right = total == bid.quantity
    full = variant.dice.per_player
    held = len(hands[caller])
    return Resolution(
        call="calza",
        word=variant.words.calza or "Calza",
        bid=bid,
        caller=caller,
        bidder=bidder,
        count=total,
        revealed=tuple(order),
        hands=_shown(hands, order),
        wild_ones=wild_ones,
        loser=None if right else caller,
        gainer=caller if right and held < full else None,
        points=0,
        eliminated=caller if not right and held == 1 else None,
    )
