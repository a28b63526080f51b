"""Kinds of the ``clock`` axis: how long a player has to act, and what is played for a
player who does not act in time.

perudo's engine never waits: a table that keeps time (``perudo serve``, ``perudo play``)
asks the edition's clock how long a turn lasts and, once it is out, what to play instead
(:func:`perudo.match.timeout_move`).
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from perudo.actions import (
    CHALLENGE,
    MAX_DICE_PER_PLAYER,
    MAX_FACES,
    MAX_PLAYERS,
    OUT_OF_TIME,
    Action,
    Bid,
)
from perudo.rules.axes import CallContext, RoundContext
from perudo.rules.base import Words, first_paragraph, one_seat, param

__all__ = ["MAX_SECONDS", "DefaultMove", "Forfeit", "NoClock"]

#: The longest turn a clock kind may give, in seconds.
MAX_SECONDS = 3600


@attrs.frozen
class NoClock:
    """The edition keeps no time: a table sets its own, and a bot plays a turn not made
    in time."""

    axis: ClassVar[str] = "clock"
    kind: ClassVar[str] = "none"
    seconds: ClassVar[int | None] = None

    def timeout_move(self, legal: tuple[Action, ...], context: RoundContext) -> Action | None:
        """Nothing of the edition's own: a bot plays the turn."""
        return None

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return first_paragraph(self)

    def label(self, words: Words) -> str:
        """A short label."""
        return "-"


@attrs.frozen
class DefaultMove:
    """A player has ``seconds`` to act. Out of time, a default move is made for them: with
    no bid standing, the bid ``quantity`` x ``face`` where both are given and it is legal,
    else the lowest legal bid (by quantity, then face); once a bid stands, the challenge.
    (Where only a declaration is open, the first offered.)

    From a published online Liar Dice's rules (fb88, "Liar Dice", on non-response within
    the time limit): "if the first player does not make a timely bid, the system would name
    three (1) on behalf of him" (``quantity = 3``, ``face = 1``), and "the system would
    "reveal dice" if a player does not make a timely decision".

    >>> DefaultMove(20, quantity=3, face=1).opening_bid
    Bid(3, 1)

    Attributes:
        seconds: The time a player has to act.
        quantity: The quantity of the bid made for a player out of time before any bid
            stands; 0 for the lowest legal bid.
        face: Its face; 0 for the lowest legal bid.
    """

    axis: ClassVar[str] = "clock"
    kind: ClassVar[str] = "default-move"
    seconds: int = param(int, minimum=1, maximum=MAX_SECONDS)
    quantity: int = param(int, minimum=0, maximum=MAX_PLAYERS * MAX_DICE_PER_PLAYER, default=0)
    face: int = param(int, minimum=0, maximum=MAX_FACES, default=0)

    @property
    def opening_bid(self) -> Bid | None:
        """The bid named for a player out of time before any bid stands, ``None`` for the
        lowest legal one."""
        return Bid(self.quantity, self.face) if self.quantity and self.face else None

    def timeout_move(self, legal: tuple[Action, ...], context: RoundContext) -> Action | None:
        """The challenge once a bid stands, else the named bid where it is legal, else the
        lowest legal bid."""
        if context.bids and CHALLENGE in legal:
            return CHALLENGE
        named = self.opening_bid
        if named is not None and named in legal:
            return named
        return _lowest_bid(legal)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        named = self.opening_bid
        bid = "the lowest legal bid" if named is None else f"the bid {named} where it is legal"
        return (
            f"A player has {self.seconds} seconds to act. Out of time, {bid} is made for "
            f"them, or '{words.dudo}' once a bid stands."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return f"{self.seconds}s"


@attrs.frozen
class Forfeit:
    """A player has ``seconds`` to act. Out of time once a bid stands, they lose one (a
    die, or a life or point where the edition plays for them), no hand is shown, and the
    round ends as after any call: the edition's ``starter`` says who opens the next. The
    opener of a round, out of time before any bid, has the lowest legal bid made for them
    (a round ends on a bid called, never before one).

    Anyone may wait for their time to run out, so letting it run out is a move of the
    player to act (:class:`~perudo.OutOfTime`, written ``time``), offered with the calls
    once a bid stands.

    perudo's own: no published rule set found costs a die for time (fb88's Liar Dice plays
    a default move instead: ``default-move``). A round as an example, two players of two
    dice: seat 0 bids ``1x5``; seat 1's time runs out, and seat 1 loses a die, no hand
    shown.

    >>> Forfeit(30).seconds
    30

    Attributes:
        seconds: The time a player has to act.
    """

    axis: ClassVar[str] = "clock"
    kind: ClassVar[str] = "forfeit"
    seconds: int = param(int, minimum=1, maximum=MAX_SECONDS)

    def timeout_move(self, legal: tuple[Action, ...], context: RoundContext) -> Action | None:
        """Letting the time run out once a bid stands (and it is open), else the lowest
        legal bid."""
        if OUT_OF_TIME in legal:
            return OUT_OF_TIME
        return _lowest_bid(legal)

    def forfeit(self, context: CallContext) -> tuple[int, ...]:
        """The player out of time loses one."""
        return one_seat(context.players, context.caller, -1)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        return (
            f"A player has {self.seconds} seconds to act. Out of time once a bid stands, they "
            "lose one, no hand shown, and the round ends; a round's opener out of time has "
            "the lowest legal bid made for them."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return f"{self.seconds}s, lose one"


def _lowest_bid(legal: tuple[Action, ...]) -> Action | None:
    """The lowest legal bid (by quantity, then face; a hand: the lowest ranked, the first
    offered), else the first legal action."""
    bids = [action for action in legal if isinstance(action, Bid) and not action.pressure]
    if bids:
        return min(bids, key=lambda bid: (bid.quantity, bid.face))
    return legal[0] if legal else None
