"""Play one game of every edition between bots and print who won."""

from __future__ import annotations

import perudo
from perudo.bots import OddsBot
from perudo.match import play


def main() -> None:
    for key in perudo.variant_names():
        players = min(4, perudo.load_variant(key).players.max)  # OpenSpiel's: two
        state = perudo.new_game(key, players, seed=2026)
        bots = [OddsBot(seed=seat) for seat in range(players)]
        final = play(state, bots)
        winners = ", ".join(final.players[seat].name for seat in final.winners)
        print(f"{key:20} {final.round_number:3} rounds, won by {winners}")


if __name__ == "__main__":
    main()
