"""A bot that plays what a solver found: an exact solution's strategies or CFR+'s
averages."""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Protocol

from perudo.actions import Action
from perudo.view import PlayerView


class Strategic(Protocol):
    """What a solver gives: the probability of each legal action at a view's decision."""

    def strategy(self, view: PlayerView) -> Mapping[Action, Fraction] | Mapping[Action, float]:
        """Each legal action's probability."""
        ...  # pragma: no cover - a protocol


class SolutionBot:
    """Plays a :class:`~perudo.solve.Solution`'s equilibrium strategies (or an
    :class:`~perudo.solve.Approximation`'s averages), drawing each action with its
    probability from its own seeded generator."""

    def __init__(self, solution: Strategic, seed: int | None = None, *, name: str) -> None:
        self.solution = solution
        self.name = name
        self._random = random.Random(seed)

    def act(self, view: PlayerView) -> Action:
        """An action drawn from the strategy at this decision."""
        strategy = self.solution.strategy(view)
        actions = list(strategy)
        weights = [float(strategy[a]) for a in actions]
        return self._random.choices(actions, weights=weights)[0]

    def policy(self, view: PlayerView) -> Mapping[Action, Fraction] | Mapping[Action, float]:
        """The probability of each legal action."""
        return self.solution.strategy(view)
