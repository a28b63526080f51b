"""Golden playthroughs: one fixed-seed game per edition, action by action, with the state
after each (in the manner of OpenSpiel's playthrough files).

    python tests/playthroughs/generate.py      # rewrite every file, on purpose only

``tests/test_playthroughs.py`` replays each game and compares it with the file, so any
change to what the engine does shows up as a diff to review.
"""

from __future__ import annotations

from pathlib import Path

import perudo
from perudo.bots import OddsBot
from perudo.match import choose_move

HERE = Path(__file__).parent
SEED = 2026
PLAYERS = 4


def describe(state: perudo.GameState) -> str:
    """The whole position on one line (every hand: this file is the referee's view)."""
    hands = " ".join("".join(map(str, p.dice)) or "-" for p in state.players)
    parts = [
        f"round {state.round_number}",
        f"to act {state.to_act}",
        f"hands {hands}",
        f"bids {' '.join(f'{b.player}:{b.bid}' for b in state.bids) or '-'}",
    ]
    if state.special_round or state.offers:
        parts.append(f"special {state.special_round or '-'} offers {','.join(state.offers) or '-'}")
    if state.variant.has_pressure:
        scores = " ".join(f"{p.score}/{p.pressure_left}" for p in state.players)
        parts.append(f"score/pressure {scores}")
    if state.is_over:
        parts.append(f"winners {list(state.winners)}")
    return " | ".join(parts)


def playthrough(key: str) -> str:
    """The playthrough text of edition ``key``."""
    state = perudo.new_game(key, PLAYERS, seed=SEED)
    bots = [OddsBot(seed=SEED + seat) for seat in range(PLAYERS)]
    lines = [
        f"# perudo playthrough: {key}, seed {SEED}, {PLAYERS} players, OddsBot(seed={SEED}+seat)",
        "# regenerate on purpose only: python tests/playthroughs/generate.py",
        f"start: {describe(state)}",
    ]
    number = 0
    while not state.is_over:
        number += 1
        seat, action = choose_move(state, bots)
        previous = state.last_result
        state = state.apply(action, by=seat)
        lines.append(f"{number}. seat {seat} {action}")
        if state.last_result is not previous:
            lines.append(f"   call: {state.last_result}")
        lines.append(f"   {describe(state)}")
    return "\n".join(lines) + "\n"


def main() -> None:
    for key in perudo.variant_names():
        seats = perudo.load_variant(key).players
        if not seats.min <= PLAYERS <= seats.max:
            continue  # OpenSpiel's liars_dice: two players only
        (HERE / f"{key}.txt").write_text(playthrough(key), encoding="utf-8")
        print(f"wrote {key}.txt")


if __name__ == "__main__":
    main()
