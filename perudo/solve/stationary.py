"""A game's strategies played in every round: what each seat's guarantee over the whole
game, proven, and the value of both played together.

A game that comes back to a round it left (French Calza: a right Calza gives a die back)
is solved in passes (:func:`perudo.solve.solve_game`). Each pass leaves each seat a
strategy in every round it reaches; played in every round, wherever the game comes back,
they are one strategy of the whole game, and what it guarantees is the value of the other
seat's best reply over the whole game: a fixed point of one seat's choices alone.

It is found in floats (sweeps of each round's best response against the rounds' values,
until they settle) and proven in fractions. Seat 0's bound: values ``w`` of every round,
each a margin below the floats' (the margin grows with the rounds the reply can make the
game last), such that in each round ``K`` seat 1's exact best response to seat 0's
strategy, every call worth its result where the game is over and the value ``w`` of the
round it leads to elsewhere, leaves seat 0 more than ``w[K]`` by some ``e > 0``. Then
whatever seat 1 does, the game ends, and seat 0's expected result from ``K`` is at least
``w[K]``: after ``t`` rounds, the value ``w`` of the round being played (the result, once
the game is over) less ``e`` times the rounds played is a submartingale, so ``e`` times the
rounds expected is at most 2 (the most that value can rise), and the expected result is
at least ``w[K]``. Seat 1's bound is the same with the signs turned.

The value of both seats' strategies played together (linear equations, in floats) is the
next pass's guess: the rounds solved on it are a Newton step towards the game's value.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, cast

import attrs
import numpy as np

from perudo.solve.checks import game_payoff
from perudo.solve.exact import Part, Report, Solved, on_grid
from perudo.solve.proof import best_response, reached
from perudo.solve.tree import Round, Strategy, round_start

#: The margins tried, in turn, per round the reply can make the game last: each round's
#: bound is its value in floats less this times those rounds (seat 0's; more for seat 1's).
MARGINS = (1e-10, 1e-8)

#: The sweeps of value iteration stop once none changes a round's value by more than this
#: (the rounds expected before the end, by more than :data:`SETTLED_ROUNDS` of them).
SETTLED = 1e-14
SETTLED_ROUNDS = 1e-6

#: Values in floats this close to a fraction with a denominator up to :data:`SHORT` are
#: tried as that fraction, exactly (a value that is rational, such as 0).
SHORT = 1_000_000
SHORT_FLOATS = 1e-14

#: The most sweeps tried before a seat's strategies are taken to prove nothing.
SWEEPS = 2_000

#: The grid (1/2^40) a game's bounds and guesses are rounded to: short fractions (bounds
#: outward, so they stay proven).
GRID = 2**40


@attrs.frozen(eq=False)
class Links:
    """Where each call of a round leads for every deal: ``after`` the number of the round
    it opens (-1 where the game is over), ``results`` seat 0's result of the game where it
    is over (0 elsewhere) times the deal's chance, ``chances`` the deal's chance (each an
    array of outcomes x seat 0's hands x seat 1's)."""

    round: Round
    after: np.ndarray
    results: np.ndarray
    chances: np.ndarray

    @classmethod
    def of(cls, round_: Round, numbers: Mapping[Any, int]) -> Links:
        """``round_``'s links, each round it leads to numbered by ``numbers`` (by its
        start: :func:`~perudo.solve.tree.round_start`)."""
        chances = round_.weights()
        after = np.full(chances.shape, -1, dtype=np.int64)
        results = np.full(chances.shape, Fraction(0), dtype=object)
        for where, state in round_.followed():
            if state.is_over:
                results[where] = game_payoff(state)
            else:
                after[where] = numbers[round_start(state)]
        return cls(round=round_, after=after, results=results * chances, chances=chances)

    def together(self, strategies: tuple[Strategy, Strategy]) -> np.ndarray:
        """The chance (in floats) that each call is made with each deal, the deal's own
        chance apart, when both seats play ``strategies``: outcomes x seat 0's hands x seat
        1's."""
        seats = self.round.seats
        both = []
        for side, strategy in zip(seats, strategies, strict=True):
            reach, _ = reached(side, _in_floats(strategy), np.dtype(np.float64))
            both.append(np.vstack([reach, np.ones(len(side.hands))]))  # -1: the round's start
        ends = self.round.ends
        chance = np.zeros(self.chances.shape)
        order = np.argsort(ends[:, 2], kind="stable")
        outcomes, starts = np.unique(ends[order, 2], return_index=True)
        for outcome, group in zip(outcomes, np.split(order, starts[1:]), strict=True):
            chance[outcome] = both[0][ends[group, 0]].T @ both[1][ends[group, 1]]
        return chance

    def payoffs(self, values: np.ndarray, *, results: bool = True) -> np.ndarray:
        """Each call's payoff to seat 0 by deal, times its chance: ``values`` of the round
        it leads to, or the game's result where it is over (0 without ``results``); in
        floats or fractions, as ``values`` are."""
        kind = values.dtype
        ahead = np.where(self.after >= 0, values[np.maximum(self.after, 0)], 0)
        payoffs: np.ndarray = ahead * self.chances.astype(kind)
        return payoffs + self.results.astype(kind) if results else payoffs


@attrs.frozen
class Played:
    """What a pass's strategies, played in every round, prove and suggest, by each round's
    start: ``bounds`` what seat 0's guarantee and seat 1's concede (-1 or +1 where a
    seat's prove nothing); ``values`` the rounds' values with both seats' strategies
    played together (in floats, on the grid), the next pass's guess, or None where either
    seat's prove nothing or they never end the game."""

    bounds: dict[Any, tuple[Fraction, Fraction]]
    values: dict[Any, Fraction] | None


def played(parts: Mapping[Any, Part], start: Any, report: Report) -> Played | None:
    """What the strategies of ``parts`` (each round's, by its start) prove, each seat's
    played in every round (:class:`Played`); None where a round opens with a blind
    declaration (its choice is not a strategy of a round). The progress names the values
    from ``start``, the game's first round."""
    solved = [part for part in parts.values() if isinstance(part, Solved)]
    if len(solved) < len(parts):
        return None
    numbers = {key: number for number, key in enumerate(parts)}
    links = [Links.of(part.round, numbers) for part in solved]
    first = numbers[start]
    low = _guaranteed(links, [part.strategies[0] for part in solved], 0, first, report)
    high = _guaranteed(links, [part.strategies[1] for part in solved], 1, first, report)
    bounds = {
        key: (
            Fraction(-1) if low is None else low[number],
            Fraction(1) if high is None else high[number],
        )
        for key, number in numbers.items()
    }
    values = None if low is None or high is None else _together(links, solved)
    if values is None:
        return Played(bounds=bounds, values=None)
    report(f"both seats' strategies played together: {float(values[first]):.9f}")
    return Played(
        bounds=bounds,
        values={
            key: on_grid(Fraction(float(values[number])), GRID, round)
            for key, number in numbers.items()
        },
    )


def _together(links: Sequence[Links], solved: Sequence[Solved]) -> np.ndarray | None:
    """Each round's value with both seats playing their strategies in every round (the
    linear equations of the rounds' values, in floats), or None where they never end the
    game from some round."""
    count = len(links)
    ends = np.zeros(count)
    ahead = np.zeros((count, count))
    for number, (link, part) in enumerate(zip(links, solved, strict=True)):
        chance = link.together(part.strategies)
        ends[number] = float((chance * link.results.astype(np.float64)).sum())
        going = chance * link.chances.astype(np.float64)
        np.add.at(ahead[number], link.after[link.after >= 0], going[link.after >= 0])
    try:
        values: np.ndarray = np.linalg.solve(np.eye(count) - ahead, ends)
    except np.linalg.LinAlgError:
        return None
    return values if np.isfinite(values).all() and np.abs(values).max() <= 1 + 1e-9 else None


def _guaranteed(
    links: Sequence[Links], strategies: Sequence[Strategy], seat: int, first: int, report: Report
) -> list[Fraction] | None:
    """What ``seat``'s ``strategies`` (one per round) guarantee it from each round, proven
    (seat 0's least payoff, seat 1's most), or None; the progress says round ``first``'s."""
    replier = 1 - seat
    floats = [_in_floats(strategy) for strategy in strategies]
    name = f"seat {seat}'s strategies played in every round"

    def reply(number: int, payoffs: np.ndarray, strategy: Strategy) -> Fraction:
        return best_response(links[number].round, payoffs, strategy, responder=replier)[0]

    value = np.zeros(len(links))
    sweeps = 0
    while sweeps < SWEEPS:  # each round in turn, with the others' latest
        sweeps += 1
        change = 0.0
        for number, link in enumerate(links):
            new = float(reply(number, link.payoffs(value), floats[number]))
            change = max(change, abs(new - value[number]))
            value[number] = new
        if change <= SETTLED:
            break
    else:
        report(f"{name}: the values did not settle in {sweeps:,} sweeps")
        return None
    # the most rounds the reply can make the game last, from each round: the margins' scale
    longest = -1.0 if replier == 1 else 1.0  # the reply's payoffs turned where it minimises
    rounds = np.ones(len(links))
    for _ in range(SWEEPS):
        change = 0.0
        for number, link in enumerate(links):
            ahead = reply(number, link.payoffs(longest * rounds, results=False), floats[number])
            new = 1.0 + longest * float(ahead)
            change = max(change, abs(new - rounds[number]) / new)
            rounds[number] = new
        if change <= SETTLED_ROUNDS:
            break
    else:
        report(f"{name}: the game may last without end ({float(rounds.max()):.3g} rounds)")
        return None
    rounding, below = (math.floor, True) if seat == 0 else (math.ceil, False)

    def passed(bounds: list[Fraction], strictly: bool) -> bool:
        """Whether every round's exact reply leaves ``seat`` past its bound (or at it)."""
        exact = np.array(bounds, dtype=object)
        for number, link in enumerate(links):
            found = reply(number, link.payoffs(exact), strategies[number])
            gain = found - bounds[number] if below else bounds[number] - found
            if gain < 0 or (strictly and gain == 0):
                return False
        return True

    for margin in MARGINS:
        shift = -margin if below else margin
        bounds = [
            on_grid(Fraction(float(v + shift * r)), GRID, rounding)
            for v, r in zip(value, rounds, strict=True)
        ]
        if not passed(bounds, strictly=True):
            continue  # not past the bounds: a wider margin, or nothing proven
        # the game ends whatever the reply: the values themselves, where they are short
        # fractions the replies leave exactly, are proven too (a bounded submartingale)
        short = [Fraction(v).limit_denominator(SHORT) for v in value.tolist()]
        exact = [
            fraction if abs(v - float(fraction)) <= SHORT_FLOATS else bound
            for v, fraction, bound in zip(value.tolist(), short, bounds, strict=True)
        ]
        if exact[first] != bounds[first] and passed(exact, strictly=False):  # worth a try
            bounds = exact
        exactly = bounds[first] == short[first]
        said = f"{bounds[first]}, exactly" if exactly else f"{float(bounds[first]):.9f}"
        report(
            f"{name}: {float(value[first]):.9f} in floats after {sweeps} sweeps (the game "
            f"lasting at most {float(rounds.max()):.3g} rounds on average); proven "
            f"{'at least' if below else 'at most'} {said}"
        )
        return bounds
    report(f"{name}: {float(value[first]):.9f} in floats, not proven")
    return None


def _in_floats(strategy: Strategy) -> Strategy:
    """``strategy``'s probabilities in floats: the best responses of the sweeps read them
    alike, several times faster."""
    return cast(Strategy, {key: tuple(map(float, ps)) for key, ps in strategy.items()})
