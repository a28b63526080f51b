"""Kinds of the ``turns`` axis: who may bid or challenge when.

In most editions only the player to act bids or challenges, and a bid passes the turn to
the next player still in, clockwise. Some tables let any player bid over the standing bid,
or challenge it, out of turn (a "burst"); play then goes on from the left of the last
bidder. The exact call's own turn rule stays on its axis (``exact_call``), and so does an
action's (``actions``).
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from perudo.rules.axes import RoundContext
from perudo.rules.base import Violation, Words, first_paragraph, param

__all__ = ["TURN_ROLES", "Burst", "InTurn"]

#: The roles a turns kind may open to a seat out of turn: a bid, a challenge.
TURN_ROLES = ("bid", "challenge")


@attrs.frozen
class InTurn:
    """Only the player to act bids or challenges; a bid passes the turn to the next player
    still in, clockwise."""

    axis: ClassVar[str] = "turns"
    kind: ClassVar[str] = "in-turn"

    @property
    def out_of_turn(self) -> tuple[str, ...]:
        """Nothing is open out of turn."""
        return ()

    def check(self, role: str, player: int, context: RoundContext) -> Violation | None:
        """Never asked (nothing is open out of turn): refused."""
        return Violation("not-your-turn", f"it is seat {context.to_act}'s turn")

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return first_paragraph(self)

    def label(self, words: Words) -> str:
        """A short label."""
        return "in turn"


@attrs.frozen
class Burst:
    """Any player still in, but the one who made the standing bid, may bid over it out of
    turn (``bid``) or challenge it out of turn (``challenge``): a "burst". Play then goes on
    from the left of the last bidder; the round's opener still opens it.

    From a published online Perudo's house rules (``guyguroz-hue/Perudo``,
    ``docs/GAME_RULES.md`` section 9): "A player may Burst: make a higher legal bid out of
    normal turn order [...] When Burst activity stops, normal clockwise play resumes with
    the player AFTER the LAST BURST PLAYER", and "A player may Burst Dudo out of turn".
    Whether the player who made the bid may burst over it is not said: here it may not
    (a reading).

    >>> import attrs, perudo
    >>> context = attrs.evolve(perudo.load_variant("italian").round_one((5, 5, 5)),
    ...     to_act=2, bids=(perudo.PlacedBid(1, perudo.Bid(3, 4)),))
    >>> Burst(bid=True, challenge=True).check("challenge", 0, context) is None
    True
    >>> Burst(bid=True, challenge=True).check("bid", 1, context).reason
    'not-your-turn'
    """

    axis: ClassVar[str] = "turns"
    kind: ClassVar[str] = "burst"
    bid: bool = param(bool)
    challenge: bool = param(bool)

    @property
    def out_of_turn(self) -> tuple[str, ...]:
        """Each role open out of turn (``"bid"``, ``"challenge"``), as set."""
        opened = zip(TURN_ROLES, (self.bid, self.challenge), strict=True)
        return tuple(role for role, open_ in opened if open_)

    def check(self, role: str, player: int, context: RoundContext) -> Violation | None:
        """A seat still in, once a bid stands, but not its bidder."""
        if role not in self.out_of_turn:
            return Violation("not-your-turn", f"only the player to act may {role} now")
        if context.bid is None:
            return Violation("not-your-turn", "the round's opener bids first")
        if player == context.bidder:
            return Violation("not-your-turn", "the standing bid is your own")
        return None

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        may = " or ".join(
            what
            for what, open_ in (
                ("bid over it", self.bid),
                (f"call {words.dudo} on it", self.challenge),
            )
            if open_
        )
        if not may:
            return "Only the player to act bids or challenges."
        return (
            f"Once a bid stands, any other player still in may {may} out of turn (a burst); "
            "play goes on from the left of the last bidder."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return (
            "burst " + "+".join(role for role in self.out_of_turn)
            if self.out_of_turn
            else "in turn"
        )
