"""A rule kind written outside perudo: "lose the difference" (a common house rule).

The loser of a challenge loses as many dice as the bid was wrong by, at least one and at
most all they hold: a false bid costs its bidder (quantity - count) dice, a true one costs
the challenger (count - quantity), at least one.

It is a scoring kind: a frozen attrs class with ``axis`` and ``kind`` and the methods of
:class:`perudo.rules.ScoringRule`, registered with :func:`perudo.register_kind`. Its
``settle`` sees the call counted (:class:`perudo.rules.CallContext`) and gives every seat's
change of dice.
:func:`variant` is WANGO classic with it. Run this file to play a seeded game between bots
and check the rule at every challenge.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

import perudo
from perudo.bots import OddsBot
from perudo.match import choose_move
from perudo.rules import CallContext, Elimination, Words


@perudo.register_kind
@attrs.frozen
class LoseTheDifference(Elimination):
    """The loser of a challenge loses as many dice as the bid was wrong by (at least one);
    a player with no dice is out; the last player with dice wins. Everything but the
    settlement and the prose is the built-in elimination's."""

    kind: ClassVar[str] = "lose-the-difference"

    def settle(self, context: CallContext) -> tuple[int, ...]:
        """The loser loses how far the bid was wrong, at least one (the engine keeps it at
        most the dice they hold)."""
        loser = context.challenge_loser
        lost = max(1, abs(context.called.bid.quantity - context.count))
        return tuple(-lost if seat == loser else 0 for seat in range(context.players))

    def describe(self, words: Words, dice: int) -> str:
        """The rule as sentences."""
        return (
            f"The loser of a '{words.dudo}' loses as many dice as the bid was wrong by, at "
            "least one and at most all they hold. The last player with dice wins."
        )

    def label(self, words: Words) -> str:
        """A short label for the editions matrix."""
        return "lose dif"


def variant() -> perudo.Variant:
    """WANGO classic, where a challenge costs the difference."""
    return perudo.load_variant("wango").derive(
        "wango-lose-the-difference",
        name="WANGO classic, lose the difference",
        reason="A common house rule: the loser loses as many dice as the bid was wrong by.",
        scoring=LoseTheDifference(),
    )


def main() -> None:
    edition = variant()
    state = perudo.new_game(edition, 4, seed=11)
    bots = [OddsBot(seed=seat) for seat in range(4)]
    challenges = 0
    while not state.is_over:
        seat, action = choose_move(state, bots)
        before = state
        state = state.apply(action, by=seat)
        result = state.last_result
        if result is not None and result is not before.last_result:
            assert result.loser is not None
            held = len(before.players[result.loser].dice)
            wrong_by = abs(result.bid.quantity - result.count)
            lost = held - len(state.players[result.loser].dice) if not state.is_over else None
            expected = min(max(1, wrong_by), held)
            assert result.changes[result.loser] == -expected, (result, expected)
            assert lost in (None, expected)
            challenges += 1
    print(f"{edition.name}: {challenges} challenges, each checked; winner seat {state.winners}")
    print(edition.describe("scoring"))


if __name__ == "__main__":
    main()
