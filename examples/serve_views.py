"""What a game server sends: each player's view as JSON, and nothing more."""

from __future__ import annotations

import json

import perudo


def main() -> None:
    state = perudo.new_game("italian", ["Ana", "Ben", "Cleo"], seed=3, first_player=0)
    state = state.apply(perudo.Bid(2, 5))
    for seat in range(len(state.players)):
        view = state.view(seat)
        message = json.dumps(view.to_dict())
        print(f"to {state.players[seat].name}: {len(message)} bytes; sees {view.dice}")
    print(json.dumps(state.view(1).to_dict())[:300], "...")


if __name__ == "__main__":
    main()
