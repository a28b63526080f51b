"""Declare a game the shipped editions do not hold, Liar's Dice of poker hands, in TOML
(poker_dice.toml beside this script), and play it: a bid names a poker hand,
each player rolls and draws before bidding, and a challenge shows the bidder's hand alone.
Runs from any directory."""

from __future__ import annotations

from pathlib import Path

import perudo
from perudo.bots import OddsBot, RandomBot
from perudo.match import play

HERE = Path(__file__).parent


def main() -> None:
    variant = perudo.load_variant(HERE / "poker_dice.toml")
    print(variant.name, "-", len(variant.hand_bids), "hands a bid may name, lowest first:")
    print("  ", ", ".join(name for _, name in variant.hand_names[:4]), "...")
    print("  ", ", ".join(name for _, name in variant.hand_names[-3:]))
    state = perudo.new_game(variant, 3, seed=7)
    final = play(state, [OddsBot(1), RandomBot(2), OddsBot(3)])
    winners = [final.players[seat].name for seat in final.winners]
    print(f"{final.round_number} rounds; won by {', '.join(winners)}")
    print("the last call:", final.last_result)
    assert final.is_over


if __name__ == "__main__":
    main()
