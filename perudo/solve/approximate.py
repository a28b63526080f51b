"""A round too big for an exact solution, approximated: CFR+ (compiled with numba) on the
round's public graph (:mod:`perudo.solve.public`), or on the walked round where chance
inside it keeps its histories apart, with its exploitability measured exactly in floats at
each checkpoint."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from perudo.actions import Action
from perudo.errors import SolveError, shown
from perudo.solve.bot import SolutionBot
from perudo.solve.cfr import Regrets, until
from perudo.solve.checks import (
    MAX_NODES,
    checked,
    checked_limit,
    checked_memory,
    dice_payoff,
    reporter,
)
from perudo.solve.exact import Report, walked
from perudo.solve.public import PublicRegrets, graph, merges
from perudo.solve.size import gib
from perudo.solve.tree import Round, round_name, start_state
from perudo.variant import Variant
from perudo.view import PlayerView


@attrs.frozen(eq=False, repr=False)
class Approximation:
    """A round approximated by CFR+ (:func:`approximate_round`): each seat's average
    strategy, and how far it is from an equilibrium.

    Attributes:
        variant: The edition.
        dice: Each seat's dice.
        opener: The seat that bids first.
        iterations: The CFR+ iterations run.
        exploitability: The average strategies' exploitability, in OpenSpiel's sense: the
            mean over the two seats of what a best response gains against them (0 at an
            equilibrium; the value lies within twice it of :attr:`value`).
        value: Seat 0's payoff when both seats play their average strategies.
        checkpoints: Each checkpoint's iterations, exploitability and seconds.
        infosets: The information states of both seats.
        seconds: The time it took (walking the round and CFR+).
    """

    variant: Variant
    dice: tuple[int, int]
    opener: int
    iterations: int
    exploitability: float
    value: float
    checkpoints: tuple[tuple[int, float, float], ...]
    infosets: int
    seconds: float
    _policy: Callable[[PlayerView], Mapping[Action, float] | None]

    def __repr__(self) -> str:
        return (
            f"<Approximation {self.variant.key} {self.dice[0]}v{self.dice[1]} round, seat "
            f"{self.opener} opens: {self.value:.6f}, exploitability {self.exploitability:.1e} "
            f"after {self.iterations:,} iterations>"
        )

    def to_dict(self) -> dict[str, Any]:
        """The approximation as JSON-ready data."""
        return {
            "variant": self.variant.key,
            "dice": list(self.dice),
            "opener": self.opener,
            "iterations": self.iterations,
            "exploitability": self.exploitability,
            "value": self.value,
            "checkpoints": [list(point) for point in self.checkpoints],
            "infosets": self.infosets,
            "seconds": round(self.seconds, 3),
        }

    def strategy(self, view: PlayerView) -> Mapping[Action, float]:
        """The average strategy's probability of each legal action at ``view``'s decision.

        Raises:
            SolveError: the approximation does not cover that decision.
        """
        found = self._policy(view) if view.to_act == view.player else None
        if found is None:
            raise SolveError(
                f"the approximation does not cover this decision of seat {shown(view.player)}"
            )
        return found

    def bot(self, seed: int | None = None) -> SolutionBot:
        """A bot that plays the average strategies."""
        return SolutionBot(self, seed, name="cfr")


def approximate_round(
    variant: Variant | str,
    dice: Sequence[int] = (1, 1),
    *,
    opener: int = 0,
    exploitability: float = 1e-3,
    iterations: int = 100_000,
    seconds: float | None = None,
    max_nodes: int = MAX_NODES,
    memory: int | None = None,
    progress: Report | None = None,
) -> Approximation:
    """One round between two players holding ``dice`` (the payoffs of
    :func:`~perudo.solve.solve_round`), approximated by CFR+ until its average strategies'
    exploitability is at most ``exploitability``, or ``iterations`` have run, or
    ``seconds`` have passed (if given).

    A round without chance inside it is approximated on its public graph
    (``perudo.solve.public``): the positions whose future is the same merged, the tree
    of its histories never built, 8 bytes held per move and hand of a seat (the 2v2 rounds
    at six faces: 16.8 million decisions, about 5.2 GiB). A round with chance inside it
    (Bluff's re-roll) is walked, as :func:`~perudo.solve.solve_round` walks it, and is
    refused past ``max_nodes`` positions. Either is refused before anything is built past
    ``memory`` bytes (by default what the machine has free).

    >>> from perudo.solve import approximate_round
    >>> cfr = approximate_round("openspiel-liars-dice", exploitability=1e-3)  # doctest: +SKIP
    >>> cfr.exploitability <= 1e-3, round(cfr.value, 2)  # doctest: +SKIP
    (True, -0.03)

    Raises:
        SolveError: as :func:`~perudo.solve.solve_round`, or a target that is not a
            positive number.
    """
    started = time.perf_counter()
    variant, counts = checked(variant, dice, opener)
    limit = checked_limit(max_nodes)
    memory = checked_memory(memory)
    report = reporter(progress)
    if not isinstance(exploitability, int | float) or not exploitability > 0:
        raise SolveError(f"exploitability {shown(exploitability)} is not a positive number")
    if type(iterations) is not int or iterations < 1:
        raise SolveError(f"iterations {shown(iterations)} is not a positive whole number")
    if seconds is not None and (not isinstance(seconds, int | float) or not seconds > 0):
        raise SolveError(f"seconds {shown(seconds)} is not a positive number")
    start = start_state(variant, counts, opener, starting=None)
    solver: Regrets | PublicRegrets
    if merges(start):  # the tree unfolded as CFR+ walks it, never built
        tree = graph(start)
        report(
            f"{round_name(start)}: {int(tree.decisions[0].sum()):,} decisions, "
            f"{len(tree.hands[0])} x {len(tree.hands[1])} deals, merged into "
            f"{len(tree.actions):,} public positions: about {gib(tree.memory)} for CFR+"
        )
        solver = PublicRegrets.of(tree, dice_payoff, memory)
        infosets = tree.infosets
    else:
        round_ = walked(start, limit, memory, report)
        solver = Regrets.of(round_, round_.settle(dice_payoff).low.astype(np.float64))
        infosets = round_.infosets
    checkpoints = until(
        solver, float(exploitability), iterations=iterations, seconds=seconds, report=report
    )
    gain0, gain1, value = solver.gains()
    policy = solver.strategy if isinstance(solver, PublicRegrets) else _walked(round_, solver)
    return Approximation(
        variant=variant, dice=counts, opener=opener, iterations=solver.iterations,
        exploitability=(gain0 + gain1) / 2, value=value, checkpoints=tuple(checkpoints),
        infosets=infosets, seconds=time.perf_counter() - started, policy=policy,
    )  # fmt: skip


def _walked(round_: Round, regrets: Regrets) -> Callable[[PlayerView], dict[Action, float] | None]:
    """The average strategies of CFR+ on a walked round, by view."""
    averages = (regrets.average(0), regrets.average(1))

    def policy(view: PlayerView) -> dict[Action, float] | None:
        found = round_.find(view)
        if found is None:
            return None
        seat, decision, hand = found
        side = round_.seats[seat]

        def probability(d: int, h: int) -> list[float]:
            a = side.firsts[d]
            return averages[seat][a : a + len(side.actions[d]), h].tolist()  # type: ignore[no-any-return]

        chosen = side.chosen(decision, hand, probability)
        return {action: float(p) for action, p in chosen.items()}

    return policy
