"""Play one game of every edition between bots and print who won."""

from __future__ import annotations

import perudo
from perudo.bots import OddsBot
from perudo.demo import play


def main() -> None:
    for key in perudo.variant_names():
        state = perudo.new_game(key, 4, seed=2026)
        bots = [OddsBot(seed=seat) for seat in range(4)]
        final = play(state, bots)
        winners = ", ".join(final.players[seat].name for seat in final.winners)
        print(f"{key:13} {final.round_number:3} rounds, won by {winners}")


if __name__ == "__main__":
    main()
