"""Kinds of the ``passes`` axis: whether a player may pass (Paso) instead of raising, and
what a pass claims of the passer's own hand."""

from __future__ import annotations

from typing import ClassVar

import attrs

from perudo.rules.axes import RoundContext
from perudo.rules.base import Violation, Words, param

__all__ = ["NoPairPass", "NoPass"]


@attrs.frozen
class NoPass:
    """Nobody passes: the player to act raises or challenges."""

    axis: ClassVar[str] = "passes"
    kind: ClassVar[str] = "none"
    offered: ClassVar[bool] = False
    most_per_round: ClassVar[int] = 0

    def check(self, player: int, context: RoundContext) -> Violation | None:
        """Always a violation: there is no pass."""
        return Violation("no-pass", "this edition has no pass: raise the bid or challenge it")

    def holds(self, hand: tuple[int, ...], context: RoundContext) -> bool:
        """Never asked (nobody passes)."""
        return False

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return "Nobody passes."

    def label(self, words: Words) -> str:
        """A short label."""
        return "-"


@attrs.frozen
class NoPairPass:
    """A player whose dice show no two alike may pass instead of raising, at most
    ``per_round`` times a round; the standing bid stays. The next player raises it, or
    challenges the pass: the passer's hand alone is shown, and a hand with two dice alike
    loses the challenge for the passer, else for the challenger. Anyone may pass, as anyone
    may bid, whatever their hand: a pass is a claim like a bid.

    From the "common hand" Liar's dice as Wikipedia describes it (its variants): "When a
    player has no two dice with the same face, he may choose to pass once in a game round.
    If he does so, the bid will not be raised. The next player can raise the bid using
    standard rules, or call the bluff. By doing so, he challenges the claim of the passing
    player having no two dice with the same face."

    Attributes:
        per_round: The times one seat may pass in a round (the source's "once").
    """

    axis: ClassVar[str] = "passes"
    kind: ClassVar[str] = "no-pair"
    offered: ClassVar[bool] = True
    per_round: int = param(int, minimum=1, maximum=3)

    @property
    def most_per_round(self) -> int:
        """The times one seat may pass in a round."""
        return self.per_round

    def check(self, player: int, context: RoundContext) -> Violation | None:
        """``None`` if ``player`` has passed fewer than ``per_round`` times this round."""
        passed = sum(
            1 for placed in context.bids if placed.player == player and placed.claim == "pass"
        )
        if passed >= self.per_round:
            word = context.words.paso or "pass"
            times = "once" if self.per_round == 1 else f"{self.per_round} times"
            return Violation("pass-not-allowed", f"{word}: a player passes {times} a round")
        return None

    def holds(self, hand: tuple[int, ...], context: RoundContext) -> bool:
        """Whether no two of the passer's dice are alike."""
        return len(set(hand)) == len(hand)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        word = words.paso or "Pass"
        times = "once" if self.per_round == 1 else f"up to {self.per_round} times"
        return (
            f"'{word}': the player to act may pass {times} a round, claiming no two of their "
            "dice are alike; the standing bid stays. The next player raises it or challenges "
            "the pass, judged on the passer's hand alone."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return "no pair" if self.per_round == 1 else f"no pr x{self.per_round}"
