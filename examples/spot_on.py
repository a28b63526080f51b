"""A call written outside perudo: "spot on" (a common pub rule), with a pub's own words.

Instead of bidding or challenging, the player to act may say the standing bid is exactly
right. If it is, every other player still in loses one die and the caller opens the next
round; if not, the caller loses one die. No dice are ever gained. :func:`variant` is the
Italian edition with it, in a pub's words: the challenge is "Liar", the call "Spot on", the
one-die round "Last stand". Run this file
to play a seeded game between bots and check the rule at every call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs

import perudo
from perudo.bots import OddsBot
from perudo.match import choose_move
from perudo.rules import CallContext, RoundContext, Violation, Words, show_every_hand


@perudo.register_kind
@attrs.frozen
class SpotOn:
    """The player to act may claim the standing bid is exactly right: if it is, every other
    player still in loses a die; if not, the caller loses one."""

    axis: ClassVar[str] = "exact_call"
    kind: ClassVar[str] = "spot-on"
    offered: ClassVar[bool] = True
    out_of_turn: ClassVar[bool] = False

    def check(self, player: int, context: RoundContext) -> Violation | None:
        """Only on your own turn."""
        if player != context.to_act:
            return Violation("not-your-turn", f"{context.words.calza} is called on your own turn")
        return None

    def reveal_hands(
        self, hands: Sequence[Sequence[int]], caller: int, context: RoundContext
    ) -> tuple[tuple[int, ...], int]:
        """Every hand is shown and counted, wild ones included."""
        return show_every_hand(hands, caller, context)

    def settle(self, context: CallContext) -> tuple[int, ...]:
        """Right: every other player still in loses a die. Wrong: the caller loses one."""
        caller = context.caller
        if not context.is_exact:
            return tuple(-1 if seat == caller else 0 for seat in range(context.players))
        return tuple(-1 if seat != caller and n else 0 for seat, n in enumerate(context.dice))

    def describe(self, words: Words, dice: int) -> str:
        """The rule as sentences."""
        return (
            f"'{words.calza}': the player to act claims the standing bid is exactly right. "
            "Right: every other player still in loses a die, and the caller opens the next "
            "round. Wrong: the caller loses a die. No die is ever gained."
        )

    def label(self, words: Words) -> str:
        """A short label for the editions matrix."""
        return (words.calza or "spot on")[:8]


def variant() -> perudo.Variant:
    """The Italian edition with "spot on", in a pub's words."""
    return perudo.load_variant("italian").derive(
        "italian-spot-on",
        name="Italian Palifico with Spot on",
        reason="A common pub rule: the player to act may call the bid spot on.",
        exact_call=SpotOn(),
        words={"dudo": "Liar", "calza": "Spot on", "special_round": "Last stand"},
    )


def main() -> None:
    edition = variant()
    state = perudo.new_game(edition, 4, seed=5)
    bots = [OddsBot(seed=seat, exact=0.2) for seat in range(4)]
    calls = 0
    while not state.is_over:
        seat, action = choose_move(state, bots)
        before = state
        state = state.apply(action, by=seat)
        result = state.last_result
        if result is None or result is before.last_result or result.call != "exact":
            continue
        calls += 1
        counts = [len(p.dice) for p in before.players]
        if result.is_exact:
            expected = [-1 if s != seat and n else 0 for s, n in enumerate(counts)]
        else:
            expected = [-1 if s == seat else 0 for s in range(len(counts))]
        assert list(result.changes) == expected, (result, expected)
        assert result.word == "Spot on"
    print(f"{edition.name}: {calls} '{edition.words.calza}' calls, each checked")
    print(
        repr(perudo.parse_action("spot on", variant=edition)),
        repr(perudo.parse_action("LIAR", variant=edition)),
    )


if __name__ == "__main__":
    main()
