"""What the adapters cost: run on demand (``python bench/interop.py``), never as a test.

Each rate is the median of several repetitions, with the ratio to a reference measured in
the same run: random games played straight on the engine (``legal_actions``, a seeded
choice, ``apply``), in decisions per second. Then the same kind of games through

1. :mod:`perudo.interop.turns` with every decision encoded and decoded (the adapters' core);
2. the PettingZoo AEC environment (an observation vector and a mask at every decision);
3. OpenSpiel's ``python_perudo`` (chance nodes included, counted apart);

and the cost of encoding one view. Needs the extras (``pip install -e '.[dev]'``).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyspiel

sys.path.insert(0, str(Path(__file__).parent))

from run import measure

import perudo
import perudo.interop.openspiel  # registers python_perudo
from perudo.encoding import observation_encoding
from perudo.interop.pettingzoo import env as perudo_env
from perudo.interop.turns import TurnActions, Turns


def engine(key: str, players: int, games: int) -> Callable[[], int]:
    variant = perudo.load_variant(key)

    def work() -> int:
        rng, decisions = random.Random(1), 0
        for seed in range(games):
            state = perudo.new_game(variant, players, seed=seed)
            while not state.is_over:
                state = state.apply(rng.choice(state.legal_actions()))
                decisions += 1
        return decisions

    return work


def turns(key: str, players: int, games: int) -> Callable[[], int]:
    numbers = TurnActions.of(key, players)

    def work() -> int:
        rng, decisions = random.Random(1), 0
        for seed in range(games):
            game = Turns.start(perudo.new_game(key, players, seed=seed))
            while not game.is_over:
                game = game.apply(numbers.decode(rng.choice(numbers.legal(game))))
                decisions += 1
        return decisions

    return work


def pettingzoo(key: str, players: int, games: int) -> Callable[[], int]:
    env = perudo_env(key, players)

    def work() -> int:
        rng, decisions = np.random.default_rng(1), 0
        for seed in range(games):
            env.reset(seed=seed)
            for _ in env.agent_iter():
                observation, _, terminated, truncated, _ = env.last()
                action = None
                if not (terminated or truncated):
                    action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                    decisions += 1
                env.step(action)
        return decisions

    return work


def openspiel(key: str, players: int, games: int) -> Callable[[], int]:
    game = pyspiel.load_game("python_perudo", {"variant": key, "players": players})

    def work() -> int:
        rng, decisions = random.Random(1), 0
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(rng.randrange(len(state.chance_outcomes())))
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    decisions += 1
        return decisions

    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per repetition")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print("decisions/s of the engine; the others as ratios to it")
    print(f"{'edition':<12} {'players':>7} {'engine/s':>9} {'turns':>6} {'pettingzoo':>10} "
          f"{'openspiel':>9}")  # fmt: skip
    for key in ("italian", "french-jonti", "wango-party"):
        for players in (2, 4):
            base = measure(engine(key, players, args.games), args.repeats)[0]
            ratios = [
                measure(make(key, players, args.games), args.repeats)[0] / base
                for make in (turns, pettingzoo, openspiel)
            ]
            print(f"{key:<12} {players:>7} {base:>9,.0f} {ratios[0]:>6.2f} {ratios[1]:>10.2f} "
                  f"{ratios[2]:>9.2f}")  # fmt: skip
    encoding = observation_encoding("italian", 4)
    view = perudo.new_game("italian", 4, seed=1).apply(perudo.Bid(3, 4)).view(2)
    rate = measure(lambda: sum(1 for _ in range(2000) if encoding.encode(view)), args.repeats)[0]
    print(f"encoding one 4-player Italian view ({encoding.size} entries): {rate:,.0f} views/s")


if __name__ == "__main__":
    main()
