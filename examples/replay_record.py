"""Store a game as a record, read it back, and replay it to the same state."""

from __future__ import annotations

import tempfile
from pathlib import Path

import perudo
from perudo.bots import OddsBot
from perudo.match import play


def main() -> None:
    state = perudo.new_game("french-jonti", ["Ana", "Ben", "Cleo", "Dario"], seed=11)
    final = play(state, [OddsBot(seed) for seed in range(4)])
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.perudo"
        path.write_text(perudo.GameRecord.from_state(final).to_text(), encoding="utf-8")
        record = perudo.GameRecord.from_text(path.read_text(encoding="utf-8"))
    again = record.replay()
    assert again == final
    print(f"{len(record.moves)} moves replayed; winner {again.players[again.winners[0]].name}")
    print("first lines:", *record.to_text().splitlines()[:6], sep="\n  ")


if __name__ == "__main__":
    main()
