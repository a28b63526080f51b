"""Kinds of the ``actions`` axis: what players may do besides bid, call and declare.

An action of this axis is an :class:`~perudo.Act`: a word and its numbers (``reroll 2 5``).
Its kind (:class:`~perudo.rules.ActionRule`) lists the actions open to a seat, says why one
is refused, and tells the engine what a legal one does (:class:`~perudo.rules.ActEffect`).
"""

from __future__ import annotations

import itertools
from typing import ClassVar

import attrs

from perudo.actions import Act
from perudo.players import holds
from perudo.rules.axes import RoundContext
from perudo.rules.base import ActEffect, Violation, Words

__all__ = ["NoActions", "Reroll"]


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
        after = len(bids)
        if any(placed.player == player and placed.after == after for placed in context.acts):
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
