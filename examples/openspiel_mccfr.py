"""Train outcome-sampling MCCFR (OpenSpiel) on a small Italian table, then play its average
policy against uniform random play.

Needs the extra: pip install '.[openspiel]' in a checkout. The table is two players with one die
each (dice already lost: the last round of a game), under the Italian rules unchanged.

    python examples/openspiel_mccfr.py [iterations]
"""

from __future__ import annotations

import random
import sys

import pyspiel
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import outcome_sampling_mccfr

import perudo.interop.openspiel  # noqa: F401  (registers python_perudo)


def play(game: pyspiel.Game, policies: list[policy_lib.Policy], rng: random.Random) -> list[float]:
    """One game, each player following its policy; the returns."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, chances)[0])
            continue
        probabilities = policies[state.current_player()].action_probabilities(state)
        actions, weights = zip(*probabilities.items(), strict=True)
        state.apply_action(rng.choices(actions, weights)[0])
    return list(state.returns())


def main(iterations: int = 8000, games: int = 2000) -> None:
    game = pyspiel.load_game("python_perudo", {"variant": "italian", "players": 2, "dice": 1})
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(iterations):
        solver.iteration()
    trained = solver.average_policy()
    uniform = policy_lib.UniformRandomPolicy(game)
    rng = random.Random(7)
    total = 0.0
    for number in range(games):
        seat = number % 2  # the trained policy plays each seat half the time
        policies = [uniform, uniform]
        policies[seat] = trained
        total += play(game, policies, rng)[seat]
    print(f"python_perudo {game.get_parameters()}: {game.num_distinct_actions()} actions")
    print(f"MCCFR (outcome sampling): {iterations} iterations")
    print(f"average policy against uniform random, {games} games: mean return {total / games:+.3f}")
    print("(returns: +1 for a win, -1 for a loss; uniform against itself scores 0)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 8000)
