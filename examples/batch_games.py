"""Thousands of games at once on the batch engine (needs the extra perudo[batch]): step a
batch of Italian games with random legal actions, then compare two editions' game lengths
with odds bots, the simulation playing on the batch engine by itself."""

from __future__ import annotations

import numpy as np

from perudo.batch import BatchGames
from perudo.simulate import simulate


def main() -> None:
    games = BatchGames.new("italian", 4, batch=2000, seed=1)
    steps = 0
    while not games.over.all():
        games.step(games.random_actions())
        steps += 1
    wins = games.winners.sum(axis=0)
    print(f"2000 random Italian games in {steps} batch steps; wins by seat {wins.tolist()}")
    share = np.round(wins / wins.sum(), 3).tolist()
    print(f"share of wins by seat: {share}")
    for key in ("italian", "spanish"):
        result = simulate(key, 4, 5000, bots=["odds"], seed=7)
        low, high = result.rounds_interval.low, result.rounds_interval.high
        print(
            f"{key:8} {result.games} games on the {result.engine} engine: "
            f"{result.mean_rounds:.2f} rounds a game [{low:.2f}, {high:.2f}]"
        )


if __name__ == "__main__":
    main()
