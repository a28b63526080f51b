"""Kinds of the ``actions`` axis: what players may do besides bid, call and declare.

An action of this axis is an :class:`~perudo.Act`: a word and its numbers (``reroll 2 5``).
Its kind (:class:`~perudo.rules.ActionRule`) lists the actions open to a seat, says why one
is refused, and tells the engine what a legal one does (:class:`~perudo.rules.ActEffect`).
"""

from __future__ import annotations

import itertools
from typing import ClassVar

import attrs

from perudo.actions import MAX_DICE_PER_PLAYER, Act
from perudo.players import holds
from perudo.rules.axes import RoundContext
from perudo.rules.base import ActEffect, Violation, Words, param

__all__ = ["NoActions", "Reroll", "RerollThenBid", "RollAndDraw", "RollBeforeBid"]


def _taken_since_bid(player: int, context: RoundContext) -> list[str]:
    """The words of the actions ``player`` has taken since the round's last bid (this
    turn's roll and draws, or a re-roll after its own bid), in order."""
    after = len(context.bids)
    return [placed.act.word for placed in context.acts
            if placed.player == player and placed.after == after]  # fmt: skip


@attrs.frozen
class NoActions:
    """No action besides bids, calls and declarations."""

    axis: ClassVar[str] = "actions"
    kind: ClassVar[str] = "none"

    @property
    def words(self) -> tuple[str, ...]:
        """No action word."""
        return ()

    @property
    def out_of_turn(self) -> bool:
        """Nobody acts out of turn by this axis."""
        return False

    def moves(self, player: int, cup: tuple[int, ...], context: RoundContext) -> tuple[Act, ...]:
        """No action is ever open."""
        return ()

    def check(
        self, action: Act, player: int, cup: tuple[int, ...], context: RoundContext
    ) -> Violation | None:
        """Every action of this axis is refused (the engine never asks)."""
        return Violation("no-such-action", f"{action}: this edition has no such action")

    def effect(
        self, action: Act, player: int, cup: tuple[int, ...], context: RoundContext
    ) -> ActEffect:
        """Nothing (never asked)."""
        return ActEffect()

    def every_move(self, dice: int, faces: int) -> tuple[Act, ...]:
        """No action."""
        return ()

    def describe(self, words: Words, dice: int) -> str:
        """The rule as a sentence."""
        return "A player bids, calls or declares: there is no other action."

    def label(self, words: Words) -> str:
        """A short label for the editions matrix."""
        return "-"


@attrs.frozen
class Reroll:
    """Bluff's re-roll: right after making a bid, before the next player acts, the bidder
    may put one or more dice out of the cup in the open (face up, seen by all, counted for
    that player until the round ends) and re-roll the dice still under the cup, which stay
    hidden. A die put out stays out for the rest of the round; at least one die stays under
    the cup to be re-rolled. Written ``reroll`` and the faces put out: ``reroll 2 5``."""

    axis: ClassVar[str] = "actions"
    kind: ClassVar[str] = "reroll"
    word: ClassVar[str] = "reroll"

    @property
    def words(self) -> tuple[str, ...]:
        """``("reroll",)``."""
        return (self.word,)

    @property
    def out_of_turn(self) -> bool:
        """The bidder re-rolls while the next player is to act."""
        return True

    def moves(self, player: int, cup: tuple[int, ...], context: RoundContext) -> tuple[Act, ...]:
        """Every choice of dice to put out (at least one, leaving at least one under the
        cup), each faces in rising order, fewest dice first; ``()`` when the player may not
        re-roll now."""
        if self._when(player, context) is not None or len(cup) < 2:
            return ()
        return tuple(
            Act(self.word, chosen)
            for size in range(1, len(cup))
            for chosen in sorted(set(itertools.combinations(cup, size)))
        )

    def check(
        self, action: Act, player: int, cup: tuple[int, ...], context: RoundContext
    ) -> Violation | None:
        """Why ``player`` may not put ``action``'s faces out and re-roll the rest now:
        ``not-the-bidder``, ``too-late`` (the next player acted), ``already-rerolled`` (once
        a bid), ``nothing-put-out``, ``die-not-held`` (a face the cup does not hold),
        ``nothing-to-reroll`` (no die would stay under the cup)."""
        refused = self._when(player, context)
        if refused is not None:
            return refused
        chosen = action.numbers
        if not chosen:
            return Violation(
                "nothing-put-out",
                f"{action}: name the dice you put out in the open, for example "
                f"'{self.word} {cup[0] if cup else 1}'",
            )
        if not holds(cup, chosen):
            under = " ".join(map(str, cup)) or "nothing"
            return Violation(
                "die-not-held",
                f"{action}: you hold {under} under your cup; put out only dice you hold there",
            )
        if len(chosen) >= len(cup):
            return Violation(
                "nothing-to-reroll",
                f"{action}: at least one die stays under your cup to be re-rolled",
            )
        return None

    def _when(self, player: int, context: RoundContext) -> Violation | None:
        bids = context.bids
        if not bids or bids[-1].player != player:
            if any(placed.player == player for placed in bids):
                return Violation(
                    "too-late", "you re-roll right after your bid, before the next player acts"
                )
            return Violation("not-the-bidder", "only the player who just bid may re-roll")
        if _taken_since_bid(player, context):
            return Violation("already-rerolled", "you have re-rolled after this bid already")
        return None

    def effect(
        self, action: Act, player: int, cup: tuple[int, ...], context: RoundContext
    ) -> ActEffect:
        """The faces named go out in the open; the rest of the cup is re-rolled."""
        return ActEffect(put_out=tuple(sorted(action.numbers)), reroll=True)

    def every_move(self, dice: int, faces: int) -> tuple[Act, ...]:
        """Every choice of 1 to ``dice - 1`` faces (with repeats), fewest first."""
        return tuple(
            Act(self.word, chosen)
            for size in range(1, dice)
            for chosen in itertools.combinations_with_replacement(range(1, faces + 1), size)
        )

    def describe(self, words: Words, dice: int) -> str:
        """The rule as sentences."""
        return (
            "After making a bid, before the next player acts, the bidder may put one or more "
            "dice out in the open (face up, seen by all, counted for that player until the "
            "round ends) and re-roll the dice still under the cup, which stay hidden; at "
            "least one die stays under the cup. A die put out stays out for the rest of the "
            f"round. Written '{self.word} 2 5': put a 2 and a 5 out, re-roll the rest."
        )

    def label(self, words: Words) -> str:
        """A short label for the editions matrix."""
        return "re-roll"


@attrs.frozen
class RerollThenBid(Reroll):
    """On their turn, before bidding, a player may put one or more dice of one value out of
    the cup in the open (seen by all, counted for that player until the round ends),
    re-roll the dice still under the cup, and then must bid: the re-roll is said together
    with that bid, so nothing else is open until it is made. At least one die stays under
    the cup. Written ``reroll`` and the faces put out: ``reroll 5 5``.

    From the "common hand" Liar's dice as Wikipedia describes it (its variants): "With some
    bidding systems, a player may elect to choose one or more dice of matching value from
    under his cup, place them outside the cup in view of the other players, re-roll the
    remaining dice, and make a new bid."
    """

    kind: ClassVar[str] = "reroll-then-bid"
    binds: ClassVar[bool] = True  # the re-roll is said together with a bid

    @property
    def out_of_turn(self) -> bool:
        """Only the player to act re-rolls, on their own turn."""
        return False

    def moves(self, player: int, cup: tuple[int, ...], context: RoundContext) -> tuple[Act, ...]:
        """Every choice of one value and how many of its dice to put out (at least one,
        leaving at least one under the cup), by value then count; ``()`` when the player
        may not re-roll now."""
        if self._when(player, context) is not None or len(cup) < 2:
            return ()
        return tuple(
            Act(self.word, (face,) * k)
            for face in sorted(set(cup))
            for k in range(1, min(cup.count(face), len(cup) - 1) + 1)
        )

    def check(
        self, action: Act, player: int, cup: tuple[int, ...], context: RoundContext
    ) -> Violation | None:
        """Why ``player`` may not put ``action``'s faces out and re-roll the rest now: as
        Bluff's re-roll (``nothing-put-out``, ``die-not-held``, ``nothing-to-reroll``), and
        ``not-your-turn``, ``already-rerolled`` (once a turn), ``values-differ`` (the dice
        put out show one value)."""
        refused = super().check(action, player, cup, context)
        if refused is None and len(set(action.numbers)) > 1:
            return Violation(
                "values-differ", f"{action}: the dice you put out show one value, such as 5 5"
            )
        return refused

    def _when(self, player: int, context: RoundContext) -> Violation | None:
        if player != context.to_act:
            return Violation("not-your-turn", "you re-roll on your own turn, before your bid")
        if _taken_since_bid(player, context):
            return Violation("already-rerolled", "you have re-rolled this turn already: bid now")
        return None

    def effect(
        self, action: Act, player: int, cup: tuple[int, ...], context: RoundContext
    ) -> ActEffect:
        """The faces named go out in the open, the rest of the cup is re-rolled, and the
        player bids next."""
        return ActEffect(put_out=tuple(sorted(action.numbers)), reroll=True, then_bid=True)

    def every_move(self, dice: int, faces: int) -> tuple[Act, ...]:
        """Every value, put out 1 to ``dice - 1`` times, by value then count."""
        return tuple(
            Act(self.word, (face,) * k) for face in range(1, faces + 1) for k in range(1, dice)
        )

    def describe(self, words: Words, dice: int) -> str:
        """The rule as sentences."""
        return (
            "On their turn, before bidding, a player may put one or more dice of one value "
            "out in the open (face up, seen by all, counted for that player until the round "
            "ends) and re-roll the dice still under the cup; they then must bid. At least one "
            f"die stays under the cup. Written '{self.word} 5 5': put two 5s out, re-roll the "
            "rest, then bid."
        )

    def label(self, words: Words) -> str:
        """A short label for the editions matrix."""
        return "reroll+b"


@attrs.frozen
class RollBeforeBid:
    """Each bid of a round but its first comes after a roll: the player to act, to raise,
    first rolls all their dice afresh under the cup (seen by them alone), then must bid.
    The round's opener bids on the dice dealt. A player may challenge instead, without
    rolling; once every higher bid is taken, nobody rolls. Written ``roll``.

    From the rules of Mia as Wikipedia's article gives them (quoted at modhoster.com,
    "Mia"): the receiving player may "believe the passer, roll the dice and pass it on,
    announcing a higher value".
    """

    axis: ClassVar[str] = "actions"
    kind: ClassVar[str] = "roll"
    binds: ClassVar[bool] = True  # the roll is said together with the bid after it

    @property
    def words(self) -> tuple[str, ...]:
        """``("roll",)``."""
        return ("roll",)

    @property
    def out_of_turn(self) -> bool:
        """Only the player to act rolls."""
        return False

    def before_bid(self, player: int, cup: tuple[int, ...], context: RoundContext) -> Act | None:
        """``roll``, for the player to act once a bid stands and before their roll: no bid
        comes without it."""
        return None if self._when(player, context) is not None else _ROLL

    def moves(self, player: int, cup: tuple[int, ...], context: RoundContext) -> tuple[Act, ...]:
        """``roll`` for the player to act once a bid stands, before their bid; else
        nothing."""
        return () if self._when(player, context) is not None else (_ROLL,)

    def check(
        self, action: Act, player: int, cup: tuple[int, ...], context: RoundContext
    ) -> Violation | None:
        """Why ``player`` may not roll now: out of turn (``not-your-turn``), before any bid
        (``nothing-to-raise``), or again this turn (``already-rolled``); or the roll names
        numbers (``malformed-action``)."""
        if action.numbers:
            return Violation("malformed-action", f"{action}: a roll names no dice: write 'roll'")
        return self._when(player, context)

    def _when(self, player: int, context: RoundContext) -> Violation | None:
        if player != context.to_act:
            return Violation("not-your-turn", "you roll on your own turn, before your bid")
        if not context.bids:
            return Violation(
                "nothing-to-raise", "the round's first bid is made on the dice dealt: bid now"
            )
        if _taken_since_bid(player, context):
            return Violation("already-rolled", "you have rolled this turn already: bid now")
        return None

    def effect(
        self, action: Act, player: int, cup: tuple[int, ...], context: RoundContext
    ) -> ActEffect:
        """Every die under the cup is rolled afresh, and the player bids next."""
        return ActEffect(reroll=True, then_bid=True)

    def every_move(self, dice: int, faces: int) -> tuple[Act, ...]:
        """``roll``."""
        return (_ROLL,)

    def describe(self, words: Words, dice: int) -> str:
        """The rule as sentences."""
        return (
            "Each bid of a round but its first comes after a roll: to raise, the player to "
            "act first rolls all their dice afresh under the cup, seen by them alone, then "
            "must bid. A player may challenge instead, without rolling. Written 'roll'."
        )

    def label(self, words: Words) -> str:
        """A short label for the editions matrix."""
        return "roll+bid"


_ROLL = Act("roll")


@attrs.frozen
class RollAndDraw:
    """Each player bids on a hand of their own: to raise, the player to act first rolls all
    their dice afresh under the cup (seen by them alone); then, before bidding, any bidder
    (the round's opener on the dice dealt) may draw up to ``draws`` times: put back chosen
    dice of the cup and roll them again, unseen by the others. A player may challenge
    instead of rolling. Written ``roll``, and ``draw`` with the faces rolled again:
    ``draw 2 3``.

    From a published how-to page (howtodothings.com, "How to Play Liar's Dice"): "the
    player glances at the dice without letting other players see and decides whether to
    "stand pat" or "draw". If the player decides to draw, he or she can re-roll up to two
    times. Once the player is happy with his hand or can no longer re-roll, he must
    specifically announce his hand"; "When it is the next player's turn, he can either
    challenge the previous player or roll the dice for his own hand."

    Attributes:
        draws: The times a bidder may draw before each bid.
    """

    axis: ClassVar[str] = "actions"
    kind: ClassVar[str] = "roll-and-draw"
    binds: ClassVar[bool] = True  # after a roll or a draw: a bid, or another draw
    draws: int = param(int, minimum=1, maximum=MAX_DICE_PER_PLAYER)

    @property
    def words(self) -> tuple[str, ...]:
        """``("roll", "draw")``."""
        return ("roll", "draw")

    @property
    def out_of_turn(self) -> bool:
        """Only the player to act rolls or draws."""
        return False

    def before_bid(self, player: int, cup: tuple[int, ...], context: RoundContext) -> Act | None:
        """``roll``, for the player to act once a bid stands and before their roll."""
        return _ROLL if self._roll_owed(player, context) else None

    def moves(self, player: int, cup: tuple[int, ...], context: RoundContext) -> tuple[Act, ...]:
        """``roll`` while one is owed; else every choice of dice to draw (fewest first, by
        faces), while draws are left."""
        if player != context.to_act:
            return ()
        if self._roll_owed(player, context):
            return (_ROLL,)
        if self._drawn(player, context) >= self.draws:
            return ()
        return tuple(
            Act("draw", chosen)
            for size in range(1, len(cup) + 1)
            for chosen in sorted(set(itertools.combinations(sorted(cup), size)))
        )

    def check(
        self, action: Act, player: int, cup: tuple[int, ...], context: RoundContext
    ) -> Violation | None:
        """Why ``player`` may not take ``action`` now: out of turn (``not-your-turn``); a
        roll before any bid (``nothing-to-raise``) or again (``already-rolled``); a draw
        before the roll owed (``act-first``), of no dice (``malformed-action``), of dice
        not in the cup (``die-not-held``) or past ``draws`` (``draws-used-up``)."""
        if player != context.to_act:
            return Violation("not-your-turn", f"{action}: you roll and draw on your own turn")
        if action.word == "roll":
            if action.numbers:
                return Violation("malformed-action", f"{action}: a roll names no dice")
            if not context.bids:
                return Violation(
                    "nothing-to-raise",
                    "the round's first bid is made on the dice dealt: draw or bid",
                )
            if not self._roll_owed(player, context):
                return Violation("already-rolled", "you have rolled this turn already")
            return None
        if self._roll_owed(player, context):
            return Violation("act-first", f"{action}: first roll, then draw")
        if not action.numbers:
            return Violation("malformed-action", f"{action}: name the dice you roll again")
        if not holds(cup, action.numbers):
            return Violation("die-not-held", f"{action}: your cup holds {list(cup)}")
        if self._drawn(player, context) >= self.draws:
            return Violation(
                "draws-used-up", f"{action}: you have drawn {self.draws} times already: bid now"
            )
        return None

    def _roll_owed(self, player: int, context: RoundContext) -> bool:
        return bool(context.bids) and "roll" not in _taken_since_bid(player, context)

    def _drawn(self, player: int, context: RoundContext) -> int:
        return _taken_since_bid(player, context).count("draw")

    def effect(
        self, action: Act, player: int, cup: tuple[int, ...], context: RoundContext
    ) -> ActEffect:
        """A roll rolls the whole cup; a draw the dice it names; either way a bid (or
        another draw) comes next."""
        if action.word == "roll":
            return ActEffect(reroll=True, then_bid=True)
        return ActEffect(redraw=tuple(sorted(action.numbers)), then_bid=True)

    def every_move(self, dice: int, faces: int) -> tuple[Act, ...]:
        """``roll``, then every draw of 1 to ``dice`` dice, fewest first."""
        draws = itertools.chain.from_iterable(
            itertools.combinations_with_replacement(range(1, faces + 1), size)
            for size in range(1, dice + 1)
        )
        return (_ROLL, *(Act("draw", chosen) for chosen in draws))

    def describe(self, words: Words, dice: int) -> str:
        """The rule as sentences."""
        times = "once" if self.draws == 1 else "twice" if self.draws == 2 else f"{self.draws} times"
        return (
            "To raise, the player to act first rolls all their dice afresh under the cup, seen "
            f"by them alone; before bidding, a bidder may draw up to {times}: roll chosen dice "
            "of the cup again, unseen by the others (the round's opener draws on the dice "
            "dealt). A player may challenge instead of rolling. Written 'roll', and 'draw 2 3' "
            "for the dice rolled again."
        )

    def label(self, words: Words) -> str:
        """A short label for the editions matrix."""
        return "roll+drw"
