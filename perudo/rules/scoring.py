"""Scoring components: last player with dice, or WANGO party points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs

from perudo.actions import MAX_DICE_PER_PLAYER, MAX_PLAYERS, Bid
from perudo.rules.axes import CallContext, RoundContext, SettledCall
from perudo.rules.base import Words, first_paragraph, one_seat, param

__all__ = [
    "MAX_POINTS",
    "MAX_PRESSURE_USES",
    "MAX_ROUNDS",
    "MAX_ROUNDS_PER_PLAYER",
    "BidderAgainstAll",
    "BurstElimination",
    "Difference",
    "Elimination",
    "FixedRounds",
    "Lives",
    "LivesFirstOut",
    "OutBelow",
    "PartyPoints",
]

#: The most points one call may move.
MAX_POINTS = 1000
#: The most pressure uses a player may have for a game.
MAX_PRESSURE_USES = 100
#: The most rounds a game of fixed rounds may last.
MAX_ROUNDS = 1000
#: The most rounds per player of WANGO party scoring (2,000 rounds at 20 players).
MAX_ROUNDS_PER_PLAYER = 100


@attrs.frozen
class Elimination:
    """A lost call costs one die; a player with no dice is out; the last player with dice wins."""

    axis: ClassVar[str] = "scoring"
    kind: ClassVar[str] = "elimination"
    moves_dice: ClassVar[bool] = True
    pressure_uses: ClassVar[int] = 0
    most_points: ClassVar[int] = 0
    zero_sum: ClassVar[bool] = True  # the returns are by finishing place

    def settle(self, context: CallContext) -> tuple[int, ...]:
        """The loser of the challenge loses one die."""
        return one_seat(context.players, context.challenge_loser, -1)

    def round_limit(self, players: int) -> int | None:
        """No fixed number of rounds."""
        return None

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return first_paragraph(self)

    def label(self, words: Words) -> str:
        """A short label."""
        return "last in"

    def is_over(self, context: SettledCall) -> bool:
        """Over when at most one player holds dice."""
        return context.players_left <= 1

    def winners(self, context: RoundContext) -> tuple[int, ...]:
        """The seat still holding dice."""
        return _holding_dice(context)


@attrs.frozen
class OutBelow(Elimination):
    """A lost call costs one die; a player left with fewer than ``dice`` dice is out, and
    the dice still in their cup leave the game with them; the last player in wins.

    From a published game help page (Aetolia, "Liar's Dice", help 18.2.3): "If you lose a
    challenge, you sacrifice one of your die. Should you fall below three die, you are out
    of the game." Five dice each and ``dice = 3``: a third lost challenge puts a player
    out, with two dice in the cup.

    >>> OutBelow(dice=3).stays_in(0, 3), OutBelow(dice=3).stays_in(0, 2)
    (True, False)

    Attributes:
        dice: The fewest dice a player may hold and stay in.
    """

    kind: ClassVar[str] = "out-below"
    dice: int = param(int, minimum=1, maximum=MAX_DICE_PER_PLAYER)

    def stays_in(self, score: int, dice: int) -> bool:
        """In while holding at least ``dice`` dice."""
        return dice >= self.dice

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return (
            f"A lost challenge costs one die; a player left with fewer than {self.dice} dice "
            "is out. The last player in wins."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return f"out <{self.dice}"


@attrs.frozen
class Difference(Elimination):
    """The loser of a challenge loses the difference (Bluff): a count short of the bid costs
    the bidder the dice it is short, a count over it costs the challenger the dice it is
    over, and a count of exactly the bid costs every player but the bidder one die. A
    player with no dice is out; the last player with dice wins."""

    kind: ClassVar[str] = "difference"

    def settle(self, context: CallContext) -> tuple[int, ...]:
        """Every seat's change of dice after the challenge."""
        bidder = context.called.player
        called = context.called.bid
        assert isinstance(called, Bid)  # a quantity: the dice it was wrong by
        wrong_by = context.count - called.quantity
        if wrong_by == 0:
            return tuple(-1 if n and seat != bidder else 0 for seat, n in enumerate(context.dice))
        loser = bidder if wrong_by < 0 else context.caller
        return one_seat(context.players, loser, -abs(wrong_by))

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        return (
            f"The loser of a '{words.dudo}' loses the difference: if the count is lower than "
            "the bid, the bidder loses as many dice as it is short; if higher, the challenger "
            "loses as many as it is over. If the count is exactly the bid, every player but "
            "the bidder loses one die. The last player with dice wins."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return "differ"


@attrs.frozen
class PartyPoints:
    """WANGO party mode: N players play ``rounds_per_player * N`` rounds with their dice,
    nobody is eliminated, and each challenge moves points from its loser to its winner.

    Attributes:
        rounds_per_player: Rounds per player at the start (2: 2N rounds).
        points: Points a challenge moves.
        pressure_points: Points it moves when anyone used pressure in the round.
        pressure_uses: Pressure uses each player has for the game.
    """

    axis: ClassVar[str] = "scoring"
    kind: ClassVar[str] = "points"
    moves_dice: ClassVar[bool] = False
    zero_sum: ClassVar[bool] = True  # a challenge's points go from its loser to its winner
    rounds_per_player: int = param(int, minimum=1, maximum=MAX_ROUNDS_PER_PLAYER)
    points: int = param(int, minimum=1, maximum=MAX_POINTS)
    pressure_points: int = param(int, minimum=1, maximum=MAX_POINTS)
    pressure_uses: int = param(int, minimum=0, maximum=MAX_PRESSURE_USES)

    @property
    def most_points(self) -> int:
        """The points a challenge moves under pressure, or without, whichever is more."""
        return max(self.points, self.pressure_points)

    def settle(self, context: CallContext) -> tuple[int, ...]:
        """The loser of the challenge gives its points to the winner."""
        return _points(context, self.pressure_points if context.pressured else self.points)

    def is_over(self, context: SettledCall) -> bool:
        """Over after ``rounds_per_player * N`` rounds."""
        return context.round_number >= self.rounds_per_player * context.players

    def round_limit(self, players: int) -> int | None:
        """``rounds_per_player * players``."""
        return self.rounds_per_player * players

    def winners(self, context: RoundContext) -> tuple[int, ...]:
        """Every seat with the highest score: ties share the win."""
        return _top(context.scores)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        return (
            f"N players play {self.rounds_per_player}N rounds with their dice; nobody is "
            f"eliminated. A challenge moves {self.points} point from its loser to its "
            f"winner, {self.pressure_points} if anyone used pressure in the round (never "
            f"more). Each player has {self.pressure_uses} pressure uses for the game. "
            "The highest score wins; ties share the win."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return "points"


@attrs.frozen
class FixedRounds:
    """A fixed number of rounds with the dice each player started with; each challenge moves
    ``points`` from its loser to its winner; the highest score wins (OpenSpiel's
    ``liars_dice`` is one round: the loser scores -1, the winner +1).

    Attributes:
        rounds: Rounds in the game.
        points: Points a challenge moves.
    """

    axis: ClassVar[str] = "scoring"
    kind: ClassVar[str] = "rounds"
    moves_dice: ClassVar[bool] = False
    pressure_uses: ClassVar[int] = 0
    zero_sum: ClassVar[bool] = True  # a challenge's points go from its loser to its winner
    rounds: int = param(int, minimum=1, maximum=MAX_ROUNDS)
    points: int = param(int, minimum=1, maximum=MAX_POINTS)

    @property
    def most_points(self) -> int:
        """``points``."""
        return self.points

    def settle(self, context: CallContext) -> tuple[int, ...]:
        """The loser of the challenge gives ``points`` to the winner."""
        return _points(context, self.points)

    def is_over(self, context: SettledCall) -> bool:
        """Over after ``rounds`` rounds."""
        return context.round_number >= self.rounds

    def round_limit(self, players: int) -> int | None:
        """``rounds``."""
        return self.rounds

    def winners(self, context: RoundContext) -> tuple[int, ...]:
        """Every seat with the highest score: ties share the win."""
        return _top(context.scores)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        rounds = "one round" if self.rounds == 1 else f"{self.rounds} rounds"
        return (
            f"The game is {rounds}, played with the dice each player started with. A "
            f"challenge moves {self.points} point{'s' if self.points > 1 else ''} from its "
            "loser to its winner; the highest score wins."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return f"{self.rounds} rnd"[:8]


@attrs.frozen
class BidderAgainstAll(FixedRounds):
    """A fixed number of rounds with the dice each player started with; the bid called
    pays or is paid by every other player still in: it holds, and its bidder wins
    ``points`` from each of them; it fails, and its bidder pays ``points`` to each. The
    highest score wins.

    From Liar's poker as a published encyclopedia entry gives it (the round ends on "a bid
    that is challenged all around"): "If the bid is successful, he wins a dollar from each
    of the other players, but if the bid is unsuccessful, he loses a dollar to each of the
    other players."
    """

    kind: ClassVar[str] = "bidder-against-all"

    @property
    def most_points(self) -> int:
        """What a bidder wins or pays at the fullest table."""
        return self.points * (MAX_PLAYERS - 1)

    def settle(self, context: CallContext) -> tuple[int, ...]:
        """The bidder against every other seat still in, ``points`` each way."""
        bidder, dice, points = context.called.player, context.dice, self.points
        sign = 1 if context.bid_stands else -1
        others = [seat for seat, held in enumerate(dice) if held and seat != bidder]
        changes = [0] * len(dice)
        for seat in others:
            changes[seat] = -sign * points
        changes[bidder] = sign * points * len(others)
        return tuple(changes)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        rounds = "one round" if self.rounds == 1 else f"{self.rounds} rounds"
        unit = f"{self.points} point{'s' if self.points > 1 else ''}"
        return (
            f"The game is {rounds}, played with the dice each player started with. The bid "
            f"called wins its bidder {unit} from each other player if it holds, and costs "
            f"{unit} to each if it fails; the highest score wins."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return "1 v all"


@attrs.frozen
class Lives:
    """Each player has ``lives`` lives; a lost challenge costs one, and a player with none
    left is out; every hand in keeps its dice. The last player with a life wins.

    With one life it is "Dead Man's Dice", a variation a published games page gives
    (htfbw.com, "Liar's Dice", Alternate Rules): "a player loses immediately if his
    challenge fails or if another player correctly challenges him".

    >>> Lives(3).stays_in(1, 5), Lives(3).stays_in(0, 5)
    (True, False)
    """

    axis: ClassVar[str] = "scoring"
    kind: ClassVar[str] = "lives"
    unit: ClassVar[tuple[str, str]] = ("life", "lives")
    moves_dice: ClassVar[bool] = False  # calls move lives: the score
    pressure_uses: ClassVar[int] = 0
    most_points: ClassVar[int] = 1
    zero_sum: ClassVar[bool] = False  # the returns are the lives left
    lives: int = param(int, minimum=1, maximum=MAX_POINTS)

    @property
    def starting_score(self) -> int:
        """Each player's lives at the start: ``lives``."""
        return self.lives

    def stays_in(self, score: int, dice: int) -> bool:
        """In while a life is left."""
        return score > 0

    def settle(self, context: CallContext) -> tuple[int, ...]:
        """The loser of the challenge loses a life."""
        return one_seat(context.players, context.challenge_loser, -1)

    def round_limit(self, players: int) -> int | None:
        """No fixed number of rounds (a call costs one life: at most every life but the
        winner's last)."""
        return None

    def is_over(self, context: SettledCall) -> bool:
        """Over when at most one player is left."""
        return context.players_left <= 1

    def winners(self, context: RoundContext) -> tuple[int, ...]:
        """The player still in."""
        return _holding_dice(context)

    #: How the game ends, as :meth:`describe` says it.
    ending: ClassVar[str] = (
        "a player with none left is out, while every hand in keeps its dice. The last player "
        "with a life wins."
    )

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        life = "one life" if self.lives == 1 else f"{self.lives} lives"
        return f"Each player has {life}; a lost challenge costs one, and {self.ending}"

    def label(self, words: Words) -> str:
        """A short label."""
        return f"{self.lives} lives"


@attrs.frozen
class LivesFirstOut(Lives):
    """Each player has ``lives`` lives; a lost challenge costs one, and the game ends as soon
    as a player has none left: that player loses, and every other player wins. Every hand
    keeps its dice.

    From the rules of Mia as Wikipedia's article gives them (quoted at modhoster.com,
    "Mia"): "All players start with six lives", and "The first player to lose all of their
    lives loses the game."
    """

    kind: ClassVar[str] = "lives-first-out"
    ending: ClassVar[str] = (
        "the game ends as soon as a player has none left: that player loses, every other "
        "player wins. Every hand keeps its dice."
    )

    def is_over(self, context: SettledCall) -> bool:
        """Over once a player has no life left (the winners: every player still in)."""
        return context.players_left < context.players_in or context.players_left <= 1

    def label(self, words: Words) -> str:
        """A short label."""
        return f"{self.lives} lv/1st"


@attrs.frozen
class BurstElimination(Elimination):
    """A lost call costs one die, as in elimination, and a challenger who called out of
    turn (a burst) and was right also wins a die, never above its starting dice; the last
    player with dice wins.

    From a published online Perudo's house rules (``guyguroz-hue/Perudo``,
    ``docs/GAME_RULES.md`` section 9.2): "Burst Dudo: Challenged bid FALSE: Bidder -1 die;
    Burst-Dudo caller +1 die. Challenged bid TRUE: Burst-Dudo caller -1 die", and "Only
    Burst Dudo can generate a die gain, and never above five".
    """

    kind: ClassVar[str] = "elimination-burst"
    gives_dice: ClassVar[bool] = True  # a right burst wins a die back: no bound on rounds

    def settle(self, context: CallContext) -> tuple[int, ...]:
        """The loser of the challenge loses one die; a right challenger who called out of
        turn wins one (the engine keeps it at most its starting dice)."""
        loser, caller = context.challenge_loser, context.caller
        changes = list(one_seat(context.players, loser, -1))
        if not context.in_turn and loser != caller:
            changes[caller] = 1
        return tuple(changes)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return first_paragraph(self)

    def label(self, words: Words) -> str:
        """A short label."""
        return "last in+"


def _holding_dice(context: RoundContext) -> tuple[int, ...]:
    """The seats still holding dice (those still in)."""
    return tuple([seat for seat, n in enumerate(context.dice) if n])


def _points(context: CallContext, points: int) -> tuple[int, ...]:
    """``points`` from the loser of the challenge to its winner."""
    loser = context.challenge_loser
    winner = context.called.player if loser == context.caller else context.caller
    return tuple(
        [-points if seat == loser else points if seat == winner else 0
         for seat in range(context.players)]
    )  # fmt: skip


def _top(scores: Sequence[int]) -> tuple[int, ...]:
    top = max(scores)
    return tuple(seat for seat, score in enumerate(scores) if score == top)
