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
        wild: The face that counted as wild in this count, or ``None``.
        loser: The seat that lost the call (dice or points), if any.
        gainer: The seat that gained a die (or points), if any.
        points: Points moved from ``loser`` to ``gainer`` (party mode), else 0.
        eliminated: The seat that lost its last die, if any (the first, if several).
        changes: Each seat's change of dice: by default, ``loser`` loses one and ``gainer``
            gains one (points move no die); rule kinds may move more.
        names: The players' names by seat, when the call was made at a table (a state sets
            them); :meth:`describe` uses them. They take no part in equality.
    """

    call: Literal["dudo", "calza"]
    word: str
    bid: Bid
    caller: int
    bidder: int
    count: int
    revealed: tuple[int, ...]
    hands: tuple[tuple[int, ...] | None, ...]
    wild: int | None
    loser: int | None
    gainer: int | None
    points: int
    eliminated: int | None
    changes: tuple[int, ...] = attrs.field()

    @changes.default
    def _one_die(self) -> tuple[int, ...]:
        changes = [0] * len(self.hands)
        if not self.points:
            if self.loser is not None:
                changes[self.loser] -= 1
            if self.gainer is not None:
                changes[self.gainer] += 1
        return tuple(changes)

    names: tuple[str, ...] | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

    @property
    def out(self) -> tuple[int, ...]:
        """The seats this call left without dice, in seat order."""
        seats = {
            seat
            for seat, (hand, change) in enumerate(zip(self.hands, self.changes, strict=True))
            if change < 0 and hand is not None and len(hand) + change == 0
        }
        if self.eliminated is not None:
            seats.add(self.eliminated)
        return tuple(sorted(seats))

    @property
    def wild_ones(self) -> bool:
        """Whether ones counted as wild in this count."""
        return self.wild == 1

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
            "wild": self.wild,
            "loser": self.loser,
            "gainer": self.gainer,
            "points": self.points,
            "eliminated": self.eliminated,
            "changes": list(self.changes),
        }

    def describe(self, names: Sequence[str] | None = None) -> str:
        """A sentence for people: the players by ``names`` when given, else by the names of
        the table the call was made at, else by seat."""
        names = self.names if names is None else names

        def who(seat: int) -> str:
            return names[seat] if names is not None else f"seat {seat}"

        face = "ones" if self.bid.face == 1 else f"{self.bid.face}s"
        wild_face = "ones" if self.wild == 1 else f"{self.wild}s"
        wild = (
            f" ({wild_face} wild)" if self.wild is not None and self.bid.face != self.wild else ""
        )
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
        parts = []
        for seat, change in enumerate(self.changes):
            dice = "a die" if abs(change) == 1 else f"{abs(change)} dice"
            if change < 0:
                hand = self.hands[seat]
                out = (hand is not None and len(hand) + change == 0) or seat == self.eliminated
                parts.append(f"{who(seat)} loses {dice}" + (", and is out" if out else ""))
            elif change > 0:
                parts.append(f"{who(seat)} gains {dice}")
        if parts:
            return f"{head}; " + "; ".join(parts)
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
    wild: int | None,
    pressured: bool,
    names: tuple[str, ...] | None = None,
) -> Resolution:
    """Resolve a Dudo by ``caller`` on ``bidder``'s ``bid``.

    ``order`` lists the seats still in, from the caller's left, the caller last; ``names``
    are the players' names, kept for :meth:`Resolution.describe`. A count at
    least the quantity makes the caller lose, a lower count the bidder: equality favours
    the bidder. With elimination the loser loses the edition's penalty (one die); with
    party points, points move.
    """
    revealed, total = variant.challenge.reveal_hands(hands, order, bid, wild=wild)
    loser, winner = (caller, bidder) if total >= bid.quantity else (bidder, caller)
    points = variant.scoring.points_for(pressured=pressured)
    moves_dice = variant.scoring.moves_dice
    held = len(hands[loser])
    lost = min(max(variant.scoring.penalty(bid=bid, count=total, held=held), 0), held)
    changes = [0] * len(hands)
    if moves_dice:
        changes[loser] = -lost
    return Resolution(
        call="dudo",
        word=variant.words.dudo,
        bid=bid,
        caller=caller,
        bidder=bidder,
        count=total,
        revealed=revealed,
        hands=_shown(hands, revealed),
        wild=wild,
        loser=loser,
        gainer=None if moves_dice else winner,
        points=points,
        eliminated=loser if moves_dice and lost == held else None,
        changes=tuple(changes),
        names=names,
    )


def resolve_exact_call(
    variant: Variant,
    hands: Sequence[tuple[int, ...]],
    *,
    order: Sequence[int],
    bid: Bid,
    caller: int,
    bidder: int,
    wild: int | None,
    names: tuple[str, ...] | None = None,
) -> Resolution:
    """Resolve an exact call (Calza, Jonti): every hand is shown, and the edition's exact
    call settles it (by default: exactly right, the caller gains a die unless already
    holding the edition's dice per player; wrong, the caller loses a die)."""
    total = count([hands[seat] for seat in order], bid.face, wild=wild)
    right = total == bid.quantity
    full = variant.dice.per_player
    counts = [len(hand) for hand in hands]
    changes = tuple(
        max(min(change, full - n), -n)
        for change, n in zip(
            variant.exact_call.settle(right=right, caller=caller, counts=counts, full=full),
            counts,
            strict=True,
        )
    )
    out = [seat for seat, n in enumerate(counts) if n and n + changes[seat] == 0]
    losers = [seat for seat, change in enumerate(changes) if change < 0]
    gainers = [seat for seat, change in enumerate(changes) if change > 0]
    return Resolution(
        call="calza",
        word=variant.words.calza or "Calza",
        bid=bid,
        caller=caller,
        bidder=bidder,
        count=total,
        revealed=tuple(order),
        hands=_shown(hands, order),
        wild=wild,
        loser=None if right else caller,
        gainer=gainers[0] if len(gainers) == 1 and not losers else None,
        points=0,
        eliminated=out[0] if out else None,
        changes=changes,
        names=names,
    )
