"""CFR+ over a walked round, compiled with numba: each seat's regrets and average strategy
for all of its hands at once (one row per edge, one column per hand), the chance of the
deal folded into the payoffs, as :class:`~perudo.solve.tree.Round` holds them.

Tammelin's CFR+ (regret matching with regrets kept non-negative, alternating updates, the
average weighted by the iteration), and the exact best response in floats that measures
how far the average is from an equilibrium (OpenSpiel's exploitability: the mean over the
two seats of what a best response gains).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any, Protocol

import attrs
import numba
import numpy as np

from perudo.solve.tree import Round

_jit = numba.njit(cache=True, error_model="numpy")


@_jit
def _matched(regret: Any, firsts: Any, legal: Any, out: Any) -> None:
    """Regret matching: each decision's probabilities, in proportion to its positive
    regrets (uniform where none is positive), for every hand, over the moves ``legal`` with
    the hand."""
    hands = regret.shape[1]
    for d in range(firsts.shape[0] - 1):
        a, b = firsts[d], firsts[d + 1]
        for h in range(hands):
            total = 0.0
            count = 0
            for e in range(a, b):
                if legal[e, h]:
                    count += 1
                    if regret[e, h] > 0.0:
                        total += regret[e, h]
            for e in range(a, b):
                if not legal[e, h]:
                    out[e, h] = 0.0
                elif total > 0.0:
                    out[e, h] = regret[e, h] / total if regret[e, h] > 0.0 else 0.0
                else:
                    out[e, h] = 1.0 / count


@_jit
def _normalised(weights: Any, firsts: Any, legal: Any, out: Any) -> None:
    """Each decision's probabilities in proportion to ``weights`` (an average strategy's
    realization weights), uniform over the moves ``legal`` with the hand where they are
    all zero."""
    hands = weights.shape[1]
    for d in range(firsts.shape[0] - 1):
        a, b = firsts[d], firsts[d + 1]
        for h in range(hands):
            total = 0.0
            count = 0
            for e in range(a, b):
                total += weights[e, h]
                if legal[e, h]:
                    count += 1
            for e in range(a, b):
                if total > 0.0:
                    out[e, h] = weights[e, h] / total
                else:
                    out[e, h] = 1.0 / count if legal[e, h] else 0.0


@_jit
def _reach(sigma: Any, parents: Any, firsts: Any, out: Any) -> None:
    """The probability that a seat playing ``sigma`` makes each of its edges, for every
    hand (decisions are numbered parents first)."""
    hands = sigma.shape[1]
    for d in range(parents.shape[0]):
        p = parents[d]
        for e in range(firsts[d], firsts[d + 1]):
            for h in range(hands):
                out[e, h] = sigma[e, h] * (out[p, h] if p >= 0 else 1.0)


@_jit
def _terminal(ends: Any, payoff: Any, other: Any, seat: int, out: Any, root: Any) -> None:
    """Each edge of ``seat``'s counterfactual value from the calls right after it: the
    payoff to ``seat`` weighted by the other seat's reach ``other``."""
    out[:] = 0.0
    root[:] = 0.0
    n0, n1 = payoff.shape[1], payoff.shape[2]
    for i in range(ends.shape[0]):
        e0, e1, o = ends[i, 0], ends[i, 1], ends[i, 2]
        if seat == 0:
            for h0 in range(n0):
                acc = 0.0
                for h1 in range(n1):
                    acc += payoff[o, h0, h1] * (other[e1, h1] if e1 >= 0 else 1.0)
                if e0 >= 0:
                    out[e0, h0] += acc
                else:
                    root[h0] += acc
        else:
            for h1 in range(n1):
                acc = 0.0
                for h0 in range(n0):
                    acc -= payoff[o, h0, h1] * (other[e0, h0] if e0 >= 0 else 1.0)
                if e1 >= 0:
                    out[e1, h1] += acc
                else:
                    root[h1] += acc


@_jit
def _regrets(sigma: Any, parents: Any, firsts: Any, values: Any, root: Any, regret: Any) -> None:
    """CFR+'s update, children before parents: each edge's regret against its decision's
    value under ``sigma``, kept non-negative; the value passed up to the edge before."""
    hands = sigma.shape[1]
    for d in range(parents.shape[0] - 1, -1, -1):
        a, b, p = firsts[d], firsts[d + 1], parents[d]
        for h in range(hands):
            v = 0.0
            for e in range(a, b):
                v += sigma[e, h] * values[e, h]
            for e in range(a, b):
                r = regret[e, h] + values[e, h] - v
                regret[e, h] = r if r > 0.0 else 0.0
            if p >= 0:
                values[p, h] += v
            else:
                root[h] += v


@_jit
def _best(parents: Any, firsts: Any, legal: Any, values: Any, root: Any) -> float:
    """A best response's value from the counterfactual values of the edges (children
    before parents): the best legal edge of each decision passed up."""
    hands = values.shape[1]
    for d in range(parents.shape[0] - 1, -1, -1):
        a, b, p = firsts[d], firsts[d + 1], parents[d]
        for h in range(hands):
            v = -np.inf
            for e in range(a, b):
                if legal[e, h] and values[e, h] > v:
                    v = values[e, h]
            if p >= 0:
                values[p, h] += v
            else:
                root[h] += v
    return float(root.sum())


@_jit
def _accumulate(sums: Any, reach: Any, weight: float) -> None:
    """``sums += weight * reach``, in place (a temporary of the tree's size each iteration
    would cost more than the iteration)."""
    for e in range(sums.shape[0]):
        for h in range(sums.shape[1]):
            sums[e, h] += weight * reach[e, h]


@_jit
def _iterate(
    parents0: Any, firsts0: Any, legal0: Any, parents1: Any, firsts1: Any, legal1: Any,
    ends: Any, payoff: Any, regrets0: Any, regrets1: Any, sums0: Any, sums1: Any, start: int,
    count: int,
) -> None:  # fmt: skip
    """``count`` CFR+ iterations from iteration ``start`` (alternating: seat 0, then seat
    1 against seat 0's new strategy), adding each seat's reach times the iteration to its
    average."""
    sigma0 = np.empty_like(regrets0)
    sigma1 = np.empty_like(regrets1)
    reach0 = np.empty_like(regrets0)
    reach1 = np.empty_like(regrets1)
    values0 = np.empty_like(regrets0)
    values1 = np.empty_like(regrets1)
    root0 = np.empty(regrets0.shape[1])
    root1 = np.empty(regrets1.shape[1])
    for t in range(start, start + count):
        weight = float(t + 1)
        _matched(regrets1, firsts1, legal1, sigma1)
        _reach(sigma1, parents1, firsts1, reach1)
        _terminal(ends, payoff, reach1, 0, values0, root0)
        _matched(regrets0, firsts0, legal0, sigma0)
        _reach(sigma0, parents0, firsts0, reach0)
        _accumulate(sums0, reach0, weight)
        _regrets(sigma0, parents0, firsts0, values0, root0, regrets0)
        _matched(regrets0, firsts0, legal0, sigma0)
        _reach(sigma0, parents0, firsts0, reach0)
        _terminal(ends, payoff, reach0, 1, values1, root1)
        _reach(sigma1, parents1, firsts1, reach1)
        _accumulate(sums1, reach1, weight)
        _regrets(sigma1, parents1, firsts1, values1, root1, regrets1)


@_jit
def _gains(
    parents0: Any, firsts0: Any, legal0: Any, parents1: Any, firsts1: Any, legal1: Any,
    ends: Any, payoff: Any, sums0: Any, sums1: Any,
) -> tuple[float, float, float]:  # fmt: skip
    """Each seat's best response's payoff against the other's average strategy, and seat
    0's payoff when both play their averages."""
    sigma0 = np.empty_like(sums0)
    sigma1 = np.empty_like(sums1)
    reach0 = np.empty_like(sums0)
    reach1 = np.empty_like(sums1)
    values0 = np.empty_like(sums0)
    values1 = np.empty_like(sums1)
    root0 = np.empty(sums0.shape[1])
    root1 = np.empty(sums1.shape[1])
    _normalised(sums0, firsts0, legal0, sigma0)
    _normalised(sums1, firsts1, legal1, sigma1)
    _reach(sigma0, parents0, firsts0, reach0)
    _reach(sigma1, parents1, firsts1, reach1)
    _terminal(ends, payoff, reach1, 0, values0, root0)
    both = 0.0
    for h in range(root0.shape[0]):
        both += root0[h]
    for e in range(values0.shape[0]):
        for h in range(values0.shape[1]):
            both += values0[e, h] * reach0[e, h]
    gain0 = _best(parents0, firsts0, legal0, values0, root0)
    _terminal(ends, payoff, reach0, 1, values1, root1)
    gain1 = _best(parents1, firsts1, legal1, values1, root1)
    return gain0, gain1, both


@attrs.define(eq=False)
class Regrets:
    """CFR+ on a round: the tree as arrays, each seat's regrets and the sums of its
    average strategy (realization weights), and the iterations run."""

    parents: tuple[np.ndarray, np.ndarray]
    firsts: tuple[np.ndarray, np.ndarray]
    legal: tuple[np.ndarray, np.ndarray]  # edge x hand: whether the move is legal with it
    ends: np.ndarray
    payoff: np.ndarray  # outcome x seat 0's hand x seat 1's: seat 0's payoff times chance
    regrets: tuple[np.ndarray, np.ndarray]
    sums: tuple[np.ndarray, np.ndarray]
    iterations: int = 0

    @classmethod
    def of(cls, round_: Round, payoff: np.ndarray) -> Regrets:
        """CFR+ ready to run on ``round_`` with seat 0's payoffs ``payoff`` (floats)."""
        parents, firsts = zip(*(seat.arrays() for seat in round_.seats), strict=True)
        shapes = [(seat.edges, len(seat.hands)) for seat in round_.seats]
        legal = [seat.allowed() for seat in round_.seats]
        return cls(
            parents=(parents[0], parents[1]),
            firsts=(firsts[0], firsts[1]),
            legal=(
                np.ones(shapes[0], np.bool_) if legal[0] is None else legal[0],
                np.ones(shapes[1], np.bool_) if legal[1] is None else legal[1],
            ),
            ends=np.ascontiguousarray(round_.ends),
            payoff=np.ascontiguousarray(payoff, dtype=np.float64),
            regrets=(np.zeros(shapes[0]), np.zeros(shapes[1])),
            sums=(np.zeros(shapes[0]), np.zeros(shapes[1])),
        )

    @staticmethod
    def bytes_per_entry() -> int:
        """The memory CFR+ holds per (edge, hand) of a seat: regrets, sums, and the current
        strategy, reach and values of each iteration (float64 each)."""
        return 7 * 8 + 1  # and whether the move is legal with the hand

    def run(self, count: int) -> None:
        """``count`` more iterations."""
        _iterate(
            self.parents[0], self.firsts[0], self.legal[0], self.parents[1], self.firsts[1],
            self.legal[1], self.ends, self.payoff, self.regrets[0], self.regrets[1],
            self.sums[0], self.sums[1], self.iterations, count,
        )  # fmt: skip
        self.iterations += count

    def gains(self) -> tuple[float, float, float]:
        """Seat 0's best response's payoff against seat 1's average strategy, seat 1's
        against seat 0's (each in its own payoff), and seat 0's payoff when both play
        their averages."""
        result: tuple[float, float, float] = _gains(
            self.parents[0], self.firsts[0], self.legal[0], self.parents[1], self.firsts[1],
            self.legal[1], self.ends, self.payoff, self.sums[0], self.sums[1],
        )  # fmt: skip
        return result

    def exploitability(self) -> float:
        """The average strategies' exploitability (OpenSpiel's: the mean of the two best
        responses' gains; 0 at an equilibrium)."""
        gain0, gain1, _ = self.gains()
        return (gain0 + gain1) / 2

    def average(self, seat: int) -> np.ndarray:
        """Seat ``seat``'s average strategy: each edge's probability at its decision, for
        every hand (uniform where the seat never reached the decision)."""
        out = np.empty_like(self.sums[seat])
        _normalised(self.sums[seat], self.firsts[seat], self.legal[seat], out)
        return out

    def realization(self, seat: int) -> np.ndarray:
        """Seat ``seat``'s average strategy as realization weights: the probability that
        the seat's own moves reach each edge, for every hand."""
        total = float(sum(range(1, self.iterations + 1)))
        return self.sums[seat] / total if total else self.sums[seat]


class Iterating(Protocol):
    """CFR+ as :func:`until` runs it: on a walked round (:class:`Regrets`) or on a round's
    public graph (:class:`~perudo.solve.public.PublicRegrets`)."""

    iterations: int

    def run(self, count: int) -> None: ...

    def exploitability(self) -> float: ...


def until(
    solver: Iterating,
    target: float,
    *,
    iterations: int,
    seconds: float | None,
    report: Callable[[str], None],
) -> list[tuple[int, float, float]]:
    """Iterations of ``solver`` until the exploitability is at most ``target``, or
    ``iterations`` in all, or ``seconds`` spent (if given). The exploitability is measured
    at checkpoints, each reported: after 10 iterations, then each time the iterations have
    doubled (so the target is passed by at most as many iterations again), or further apart
    where measuring would take more than a fifth of the time. The checkpoints: iterations
    run, exploitability, seconds."""
    started = time.perf_counter()
    checkpoints = []
    step = 10
    while True:
        begun = time.perf_counter()
        solver.run(max(1, min(step, iterations - solver.iterations)))
        ran = time.perf_counter()
        gap = solver.exploitability()
        spent = time.perf_counter() - started
        checkpoints.append((solver.iterations, gap, spent))
        report(f"CFR+: {solver.iterations:,} iterations, exploitability {gap:.2e} ({spent:.1f} s)")
        if gap <= target or solver.iterations >= iterations:
            return checkpoints
        if seconds is not None and spent >= seconds:
            return checkpoints
        took = max(ran - begun, 1e-9) / step  # an iteration
        measured = time.perf_counter() - ran
        step = max(solver.iterations, math.ceil(4 * measured / took))
        if seconds is not None:  # no further than the time left
            step = max(1, min(step, int((seconds - spent) / took)))
