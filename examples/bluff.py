"""Bluff (Richard Borg's Liar's Dice, 1993), shipped as the edition ``bluff``: stars (sixes)
are wild, a bidder may put dice out in the open and re-roll the rest, the loser of a
challenge loses the difference, and an exact count costs everyone but the bidder a die.

Run this file to play seeded games between bots and check every re-roll and every challenge
against the rule, from the moves alone.
"""

from __future__ import annotations

from collections import Counter

import perudo
from perudo.bots import OddsBot
from perudo.match import choose_move


def expected_changes(before: perudo.GameState, result: perudo.Resolution) -> list[int]:
    """What the rule says each seat loses, from the dice before the challenge."""
    held = [len(player.dice) for player in before.players]
    wrong_by = result.count - result.bid.quantity
    if wrong_by == 0:
        return [-1 if n and seat != result.bidder else 0 for seat, n in enumerate(held)]
    loser = result.bidder if wrong_by < 0 else result.caller
    return [-min(abs(wrong_by), n) if seat == loser else 0 for seat, n in enumerate(held)]


def check_reroll(
    before: perudo.GameState, act: perudo.Act, seat: int, after: perudo.GameState
) -> None:
    """The bidder, right after the bid, put the named dice out and re-rolled the rest."""
    was, now = before.players[seat], after.players[seat]
    assert before.bidder == seat, "only the bidder re-rolls"
    assert Counter(now.open) == Counter(was.open) + Counter(act.numbers), "the dice put out"
    assert len(now.cup) == len(was.cup) - len(act.numbers) > 0, "the rest re-rolled"
    assert after.view((seat + 1) % len(after.players)).seats[seat].open == now.open  # seen by all


def main() -> None:
    edition = perudo.load_variant("bluff")
    rerolls = challenges = 0
    for seed in range(5):
        state = perudo.new_game(edition, 4, seed=seed)
        bots = [OddsBot(seed=seed * 10 + seat) for seat in range(4)]
        while not state.is_over:
            seat, action = choose_move(state, bots)
            before, state = state, state.apply(action, by=seat)
            if isinstance(action, perudo.Act):
                check_reroll(before, action, seat, state)
                rerolls += 1
            result = state.last_result
            if result is not None and result is not before.last_result:
                assert list(result.changes) == expected_changes(before, result), result
                challenges += 1
    print(f"{edition.name}: 5 games, {rerolls} re-rolls and {challenges} challenges, each checked")
    print(edition.describe("actions"))


if __name__ == "__main__":
    main()
