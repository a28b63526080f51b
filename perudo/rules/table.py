"""Table components: how many players, how many dice, who opens the game and each round."""

from __future__ import annotations

from typing import ClassVar

import attrs

from perudo.actions import MAX_DICE_PER_PLAYER, MAX_FACES, MAX_PLAYERS
from perudo.dice import drawn_seat, roll_off
from perudo.rules.axes import RoundContext, SettledCall
from perudo.rules.base import Words, first_paragraph, param

__all__ = [
    "IF_OUT",
    "AfterLoser",
    "Dice",
    "DrawnSeat",
    "FixedSeat",
    "LoserStarts",
    "PlayerCount",
    "RollOff",
    "RotatingStarter",
    "WinnerStarts",
]

IF_OUT = ("left", "eliminator")


@attrs.frozen
class PlayerCount:
    """How many players may sit at the table."""

    axis: ClassVar[str] = "players"
    kind: ClassVar[str] = "range"
    min: int = param(int, minimum=2, maximum=MAX_PLAYERS)
    max: int = param(int, minimum=2, maximum=MAX_PLAYERS)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return (
            f"{self.min} to {self.max} players." if self.min != self.max else f"{self.min} players."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return f"{self.min}-{self.max}"


@attrs.frozen
class Dice:
    """``per_player`` dice in each hand at the start, each with ``faces`` faces numbered 1
    to ``faces`` (six by default).

    Attributes:
        per_player: Dice in each hand at the start.
        faces: Faces of each die, 2 to :data:`~perudo.actions.MAX_FACES`.
    """

    axis: ClassVar[str] = "dice"
    kind: ClassVar[str] = "standard"
    per_player: int = param(int, minimum=1, maximum=MAX_DICE_PER_PLAYER)
    faces: int = param(int, minimum=2, maximum=MAX_FACES, default=6)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        sides = "six-sided" if self.faces == 6 else f"{self.faces}-sided"
        return f"Each player starts with {self.per_player} {sides} dice."

    def label(self, words: Words) -> str:
        """A short label."""
        return str(self.per_player) if self.faces == 6 else f"{self.per_player}d{self.faces}"


@attrs.frozen
class RollOff:
    """Each player rolls one die; the highest opens the game; a tie at the top rolls again."""

    axis: ClassVar[str] = "first_player"
    kind: ClassVar[str] = "roll-off"
    drawn: ClassVar[bool] = True

    def first(self, seed: int, context: RoundContext) -> int:
        """The winner of the roll-off, drawn from the seed."""
        return roll_off(seed, range(context.players))[0]

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return first_paragraph(self)

    def label(self, words: Words) -> str:
        """A short label."""
        return "roll-off"


@attrs.frozen
class DrawnSeat:
    """A seat drawn at random, each alike, opens the game.

    From a published online Perudo's house rules (``guyguroz-hue/Perudo``,
    ``docs/GAME_RULES.md`` section 11): "Drawn at random from the players at the table,
    uniformly. Nothing about seating, hosting or who made the room affects it."
    """

    axis: ClassVar[str] = "first_player"
    kind: ClassVar[str] = "random"
    drawn: ClassVar[bool] = True

    def first(self, seed: int, context: RoundContext) -> int:
        """A seat drawn from the seed, each alike."""
        return drawn_seat(seed, context.players)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return first_paragraph(self)

    def label(self, words: Words) -> str:
        """A short label."""
        return "random"


@attrs.frozen
class FixedSeat:
    """A given seat opens the game (OpenSpiel's ``liars_dice``: player 0).

    Attributes:
        seat: The seat that opens round 1.
    """

    axis: ClassVar[str] = "first_player"
    kind: ClassVar[str] = "seat"
    drawn: ClassVar[bool] = False
    seat: int = param(int, minimum=0, maximum=MAX_PLAYERS - 1)

    def first(self, seed: int, context: RoundContext) -> int:
        """``seat``."""
        return self.seat

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return f"Seat {self.seat} opens the game."

    def label(self, words: Words) -> str:
        """A short label."""
        return f"seat {self.seat}"


@attrs.frozen
class LoserStarts:
    """The player who lost (a die or a point) opens the next round; after an exact call,
    or a call that several players or nobody lost, the caller does.

    Attributes:
        if_out: When that player is out: ``"left"`` (the next player still in, clockwise)
            or ``"eliminator"`` (the other party of the Dudo that put them out).
    """

    axis: ClassVar[str] = "starter"
    kind: ClassVar[str] = "loser"
    if_out: str = param(str, choices=IF_OUT)

    def next_opener(self, context: SettledCall) -> int:
        """The seat that opens the next round."""
        caller, losers = context.caller, context.losers
        challenge = context.call == "challenge" and len(losers) == 1
        seat = losers[0] if challenge else caller
        if context.still_in(seat):
            return seat
        bidder = context.called.player
        if challenge and self.if_out == "eliminator" and seat in (caller, bidder):
            return context.next_in(caller if seat == bidder else bidder)
        return context.next_in(seat)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        text = "The player who lost opens the next round; after an exact call, the caller."
        if self.if_out == "eliminator":
            return text + " If the loser is out, the player who put them out opens."
        return text + " If that player is out, the next player to the left opens."

    def label(self, words: Words) -> str:
        """A short label."""
        return "loser" if self.if_out == "left" else "loser/KO"


@attrs.frozen
class RotatingStarter:
    """The opening passes round the table: the next player to the left of the round's
    opener, still in, opens the next round, whoever won or lost.

    From a published online game's wiki (UO Outlands, "Liars Dice"): "The round is now
    completed, the first player shifts, and players reroll their dice and begin making
    bids again".
    """

    axis: ClassVar[str] = "starter"
    kind: ClassVar[str] = "rotate"

    def next_opener(self, context: SettledCall) -> int:
        """The next seat still in, clockwise from the round's opener (its first bidder)."""
        opener = context.bids[0].player
        return context.next_in((opener + 1) % context.players)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        return first_paragraph(self)

    def label(self, words: Words) -> str:
        """A short label."""
        return "rotate"


@attrs.frozen
class LostDiceStarts:
    """The player who lost dice opens the next round; after a call that several players
    lost (Bluff's exact count), the bidder. If that player is out, the next player to the
    left opens."""

    axis: ClassVar[str] = "starter"
    kind: ClassVar[str] = "lost-dice"

    def next_opener(self, context: SettledCall) -> int:
        """The seat that opens the next round."""
        losers = context.losers
        return context.next_in(losers[0] if len(losers) == 1 else context.called.player)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        return first_paragraph(self)

    def label(self, words: Words) -> str:
        """A short label."""
        return "lost die"


@attrs.frozen
class AfterLoser:
    """The player to the left of the one who lost opens the next round (after a call that
    several players or nobody lost, the player to the left of the caller), the next player
    still in.

    From the rules of Mia as Wikipedia's article gives them (quoted at modhoster.com,
    "Mia"): "If the dice show a lesser value than that announced, the passer loses a life
    and the receiving player starts a new round. However, if the dice show a greater or
    equal value, the current player loses a life and the next player starts a new round."
    """

    axis: ClassVar[str] = "starter"
    kind: ClassVar[str] = "after-loser"

    def next_opener(self, context: SettledCall) -> int:
        """The next seat still in, clockwise from the loser."""
        losers = context.losers
        seat = losers[0] if len(losers) == 1 else context.caller
        return context.next_in((seat + 1) % context.players)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        return first_paragraph(self)

    def label(self, words: Words) -> str:
        """A short label."""
        return "loser+1"


@attrs.frozen
class WinnerStarts:
    """The winner of a challenge opens the next round (Bagos); after an exact call, the
    caller. If that player is out, the next player to the left opens."""

    axis: ClassVar[str] = "starter"
    kind: ClassVar[str] = "winner"

    def next_opener(self, context: SettledCall) -> int:
        """The seat that opens the next round."""
        caller, bidder = context.caller, context.called.player
        seat = caller
        if context.call == "challenge":
            seat = bidder if context.challenge_loser == caller else caller
        return context.next_in(seat)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        return first_paragraph(self)

    def label(self, words: Words) -> str:
        """A short label."""
        return "winner"
