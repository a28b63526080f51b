"""Bluff (Richard Borg's Liar's Dice, 1993), declared outside perudo: stars are wild, the
loser of a challenge loses the difference, and an exact count costs everyone but the bidder.

Two small kinds say what no built-in kind says: :class:`BluffCount` (the scoring axis: who
loses how many dice after a challenge) and :class:`LostDiceStarts` (the starter axis: the
player who lost dice opens, the bidder after an exact count). Everything else is perudo's
own kinds, with the sixes called "stars" in the edition's words. Bluff's re-roll (a bidder
puts dice out in the open and re-rolls the rest) is an action inside a round, which this
declaration leaves out: the game here is Bluff without it.

Run this file to play a seeded game between bots and check every challenge against the rule.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import attrs

import perudo
from perudo.bots import OddsBot
from perudo.match import choose_move
from perudo.rules import CallContext, Elimination, SettledCall, Words


@perudo.register_kind
@attrs.frozen
class BluffCount(Elimination):
    """The loser of a challenge loses the difference: a count short of the bid costs the
    bidder the dice it is short, a count over it costs the challenger the dice it is over,
    and a count of exactly the bid costs every player but the bidder one die. The last
    player with dice wins."""

    kind: ClassVar[str] = "bluff-count"

    def settle(self, context: CallContext) -> tuple[int, ...]:
        """Every seat's change of dice after the challenge."""
        quantity, bidder = context.called.bid.quantity, context.called.player
        wrong_by = context.count - quantity
        if wrong_by == 0:
            return tuple(-1 if n and seat != bidder else 0 for seat, n in enumerate(context.dice))
        loser = bidder if wrong_by < 0 else context.caller
        return tuple(-abs(wrong_by) if seat == loser else 0 for seat in range(context.players))

    def describe(self, words: Words, dice: int) -> str:
        """The rule as sentences."""
        return (
            f"The loser of a '{words.dudo}' loses the difference: if the count is lower than "
            "the bid, the bidder loses as many dice as it is short; if higher, the challenger "
            "loses as many as it is over. If the count is exactly the bid, every player but "
            "the bidder loses one die. The last player with dice wins."
        )

    def label(self, words: Words) -> str:
        """A short label for the editions matrix."""
        return "bluff"


@perudo.register_kind
@attrs.frozen
class LostDiceStarts:
    """The player who lost dice opens the next round; after a call that several players
    lost (an exact count), the bidder. If that player is out, the next player to the left
    opens."""

    axis: ClassVar[str] = "starter"
    kind: ClassVar[str] = "lost-dice"

    def next_opener(self, context: SettledCall) -> int:
        """The seat that opens the next round."""
        losers = context.losers
        return context.next_in(losers[0] if len(losers) == 1 else context.called.player)

    def describe(self, words: Words, dice: int) -> str:
        """The rule as a sentence."""
        return (
            "The player who lost dice opens the next round; after an exact count, the bidder. "
            "If that player is out, the next player to the left opens."
        )

    def label(self, words: Words) -> str:
        """A short label for the editions matrix."""
        return "lost die"


def variant() -> perudo.Variant:
    """Bluff without the re-roll, from its declaration (``bluff.toml``, beside this file)."""
    return perudo.load_variant(Path(__file__).with_name("bluff.toml"))


def expected_changes(before: perudo.GameState, result: perudo.Resolution) -> list[int]:
    """What the rule says each seat loses, from the dice before the challenge."""
    held = [len(player.dice) for player in before.players]
    wrong_by = result.count - result.bid.quantity
    if wrong_by == 0:
        return [-1 if n and seat != result.bidder else 0 for seat, n in enumerate(held)]
    loser = result.bidder if wrong_by < 0 else result.caller
    return [-min(abs(wrong_by), n) if seat == loser else 0 for seat, n in enumerate(held)]


def main() -> None:
    edition = variant()
    state = perudo.new_game(edition, 4, seed=3)
    bots = [OddsBot(seed=seat) for seat in range(4)]
    challenges = 0
    while not state.is_over:
        seat, action = choose_move(state, bots)
        before = state
        state = state.apply(action, by=seat)
        result = state.last_result
        if result is not None and result is not before.last_result:
            assert list(result.changes) == expected_changes(before, result), result
            challenges += 1
    print(f"{edition.name}: {challenges} challenges, each checked; winner seat {state.winners}")
    print(edition.describe("scoring"))


if __name__ == "__main__":
    main()
