"""A round solved exactly: an equilibrium found in floats, made exact, and proven by each
side's exact best response.

A small round is one linear program. A large one is solved by a double oracle: CFR+ picks
the moves either seat plays with some weight; the linear program of the sub-round where
each seat makes only those moves (and may always call) gives an equilibrium there; each
side's exact best response in the whole round either proves it (the bounds meet) or names
the moves that gain against it, which the next sub-round holds. Outside the sub-round a
seat's strategy calls (:meth:`~perudo.solve.tree.Seat.probabilities`), and the proof is
of that strategy, so the value proven is the whole round's.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs
import numpy as np

from perudo.actions import Action
from perudo.solve import lp, size
from perudo.solve.cfr import Regrets, until
from perudo.solve.proof import best_response
from perudo.solve.tree import (
    Payoffs,
    Round,
    Strategy,
    deals,
    public_key,
    round_name,
    round_start,
    walk,
)
from perudo.state import GameState
from perudo.view import PlayerView

#: What a long solve says as it goes: one line at a time.
Report = Callable[[str], None]

#: The largest denominators tried, in turn, when the equilibrium's probabilities are
#: rounded: where its basis is not made exact (:func:`perudo.solve.lp.exact`), or the
#: payoffs are bounds (a fixed point's pass).
DENOMINATORS = (100_000, 10_000_000, 1_000_000_000)

#: Bounds closer than this are taken for an equilibrium's, rounded: larger denominators
#: are tried before moves that gain by so little are added to the sub-round.
CLOSE = 1e-6

#: A move gains in floats (:func:`_screened`) only past this.
SCREEN = 1e-9

#: Bounds proven this close are the answer, exact or not: the moves the best responses
#: still add gain by the rounding of the floats' probabilities, not by what the sub-round
#: lacks (an equilibrium whose probabilities have denominators past what HiGHS's floats
#: give back).
TIGHT = 1e-12

#: A round whose whole linear program has at most this many payoff coefficients is solved
#: as one; a larger one by the double oracle.
WHOLE = 400_000

#: CFR+ runs until its average strategies are this close to an equilibrium (exploitability,
#: as a share of the largest payoff of a call) or for :data:`CFR_SECONDS`, whichever is first.
CFR_TOLERANCE = 1e-3
CFR_SECONDS = 60.0

#: The weight (a seat's own chance of making the move, with some hand) past which CFR+'s
#: average strategy puts a move in the double oracle's first sub-round.
CFR_WEIGHT = 1e-3


@attrs.frozen
class Effort:
    """What solving took: the decisions walked, CFR+'s iterations, the linear programs
    solved and the largest one's rows, columns and payoff coefficients (of every round
    solved, for a game).

    Attributes:
        decisions: The decisions walked (both seats').
        iterations: The iterations of CFR+.
        programs: The linear programs solved.
        rows: The largest linear program's rows.
        columns: Its columns.
        coefficients: Its payoff coefficients.
    """

    decisions: int = 0
    iterations: int = 0
    programs: int = 0
    rows: int = 0
    columns: int = 0
    coefficients: int = 0

    def __add__(self, other: Effort) -> Effort:
        largest = max(self, other, key=lambda effort: effort.coefficients)
        return Effort(
            decisions=self.decisions + other.decisions,
            iterations=self.iterations + other.iterations,
            programs=self.programs + other.programs,
            rows=largest.rows, columns=largest.columns, coefficients=largest.coefficients,
        )  # fmt: skip


@attrs.frozen(eq=False)
class Solved:
    """A round solved: its decisions, each seat's strategy, the proven bounds and what it
    took."""

    round: Round
    strategies: tuple[Strategy, Strategy]
    bounds: tuple[Fraction, Fraction]
    effort: Effort
    held: tuple[np.ndarray, np.ndarray]  # the double oracle's last sub-round
    vertex: lp.Vertex | None = None  # its last linear program's, where a next solve starts

    @property
    def start(self) -> GameState:
        return self.round.start

    @property
    def infosets(self) -> int:
        return self.round.infosets

    def find(self, view: PlayerView) -> dict[Action, Fraction] | None:
        """The strategy at ``view``'s decision, if this round has it."""
        found = self.round.find(view)
        if found is None:
            return None
        seat, decision, hand = found
        side = self.round.seats[seat]
        strategy = self.strategies[seat]
        chosen = side.chosen(decision, hand, lambda d, h: side.probabilities(strategy, d, h))
        return {action: Fraction(p) for action, p in chosen.items()}


@attrs.frozen(eq=False)
class Declared:
    """A round that opens with a declaration made before the declarer looks at its dice
    (Italian's Palifico or ordinary round): a choice nobody holds a secret for, so the
    declarer takes the declared round that is best for it, each solved on its own."""

    start: GameState
    options: dict[Action, Solved | Declared]

    @property
    def _declarer(self) -> int:
        assert self.start.to_act is not None
        return self.start.to_act

    @property
    def bounds(self) -> tuple[Fraction, Fraction]:
        lows, highs = zip(*(part.bounds for part in self.options.values()), strict=True)
        best = max if self._declarer == 0 else min
        return best(lows), best(highs)

    @property
    def chosen(self) -> Action:
        """The declaration the declarer makes: the best it guarantees (seat 0's lowest
        bound, seat 1's highest)."""
        if self._declarer == 0:
            return max(self.options, key=lambda action: self.options[action].bounds[0])
        return min(self.options, key=lambda action: self.options[action].bounds[1])

    @property
    def infosets(self) -> int:
        return 1 + sum(part.infosets for part in self.options.values())

    @property
    def effort(self) -> Effort:
        return sum((part.effort for part in self.options.values()), Effort())

    def find(self, view: PlayerView) -> dict[Action, Fraction] | None:
        """The strategy at ``view``'s decision, if this round has it."""
        if view.player == self._declarer and public_key(view) == public_key(self.start):
            chosen = self.chosen
            return {action: Fraction(action == chosen) for action in self.options}
        for part in self.options.values():
            found = part.find(view)
            if found is not None:
                return found
        return None


Part = Solved | Declared


#: What a game's passes towards its fixed point keep of each round they solve: the round
#: walked, the double oracle's last sub-round (each seat's held moves) and its last linear
#: program's vertex (the next pass's first program starts from its basis), by the round's
#: start (:func:`~perudo.solve.tree.round_start`).
Kept = dict[Any, tuple[Round, tuple[np.ndarray, np.ndarray], lp.Vertex | None]]


def solve_from(
    start: GameState,
    value: Callable[[GameState], tuple[Fraction, Fraction]],
    limit: int,
    memory: int | None,
    report: Report,
    kept: Kept | None = None,
) -> Part:
    """The round from ``start`` solved, ``value`` giving the payoffs after each call; its
    size estimated first, and refused past ``limit`` positions or ``memory`` bytes. With
    ``kept``, a round solved before (an earlier pass) is not walked again, and its double
    oracle starts from the sub-round it ended with; each round solved is kept."""
    if start.must_declare:  # declared blind, before any die is seen: one round per choice
        options = {
            action: solve_from(start.apply(action), value, limit, memory, report, kept)
            for action in start.legal_actions()
        }
        return Declared(start, options)
    key = round_start(start)
    found = None if kept is None else kept.get(key)
    if found is None:
        round_ = walked(start, limit, memory, report)
    else:  # a later pass: said, so a long pass shows which round it is at
        round_ = found[0]
        report(f"{round_name(start)}, walked before: solved with the last pass's bounds")
    payoffs = round_.settle(value)
    held, warm = (None, None) if found is None else found[1:]
    if np.array_equal(payoffs.low, payoffs.high):
        solved = solve(round_, payoffs, report, held, warm=warm)
    else:
        solved = solve_apart(round_, payoffs, report, held, warm)
    if kept is not None:
        kept[key] = round_, solved.held, solved.vertex
    return attrs.evolve(solved, vertex=None)  # the basis stays with the passes, not the answer


def solve_apart(
    round_: Round,
    payoffs: Payoffs,
    report: Report,
    start: tuple[np.ndarray, np.ndarray] | None = None,
    warm: lp.Vertex | None = None,
) -> Solved:
    """``round_`` whose payoffs are known only within bounds (a game's pass towards its
    fixed point), solved as two rounds of known payoffs: the lowest, whose value seat 0's
    strategy guarantees, and the highest, whose value seat 1's concedes; a round too big
    for one linear program (the double oracle) has each rounded outward to
    :data:`PAYOFF_GRID` and solved exactly, whose proofs converge where float proofs
    crawled (a 2v2 round at four faces: 240 s against over 1,200). The round's value lies
    between, whatever the payoffs are within their bounds (a zero-sum game's value rises
    with its payoffs), and no solver of one round could prove a narrower interval from
    these bounds (but for the grid's 2^-50). One round solved on the bounds' middle, as
    before, proved its strategies against bounds it had not solved for, and its double
    oracle went on adding moves that could never close the gap the bounds leave."""
    seats = round_.seats
    if len(round_.ends) * len(seats[0].hands) * len(seats[1].hands) <= WHOLE:
        # one linear program holds the round: its bounds proven in floats, as they are
        lowest, highest, exact = payoffs.low, payoffs.high, False
    else:  # the double oracle: exact on the grid, or its float proofs crawl
        lowest, highest = _on_grid(payoffs.low, math.floor), _on_grid(payoffs.high, math.ceil)
        exact = True
    report("the lowest payoffs:")
    low = solve(round_, Payoffs(lowest, lowest), report, start, rational=exact, warm=warm)
    report("the highest payoffs:")
    high = solve(
        round_, Payoffs(highest, highest), report, low.held, rational=exact, warm=low.vertex
    )
    effort = low.effort + high.effort
    held = low.held[0] | high.held[0], low.held[1] | high.held[1]
    return Solved(
        round=round_, strategies=(low.strategies[0], high.strategies[1]),
        bounds=(low.bounds[0], high.bounds[1]), effort=effort, held=held, vertex=high.vertex,
    )  # fmt: skip


def walked(start: GameState, limit: int, memory: int | None, report: Report) -> Round:
    """The round from ``start`` walked, once its size is estimated and found within
    ``limit`` positions and ``memory`` bytes (each said to ``report``)."""
    faces = start.variant.dice.faces
    hands = tuple(len(deals(len(player.dice), faces)) for player in start.players)
    found = size.check(start, (hands[0], hands[1]), limit, memory)
    report(f"{round_name(start)}: {found}")
    round_ = walk(start, limit)
    seats = round_.seats
    report(
        f"walked: {len(seats[0].firsts) + len(seats[1].firsts):,} decisions, "
        f"{len(round_.ends):,} calls, {len(seats[0].hands)} x {len(seats[1].hands)} deals"
    )
    return round_


#: The grid (1/2^50) a round's payoffs known within bounds are rounded outward to: their
#: common denominator stays within what the exact basis's floats hold (the bounds of the
#: rounds they come from have denominators past any float), and the bounds stay proven.
PAYOFF_GRID = 2**50


def on_grid(value: Any, grid: int, rounding: Callable[[Any], int]) -> Fraction:
    """``value`` rounded to a multiple of 1/``grid`` by ``rounding`` (``math.floor`` for a
    lower bound, ``math.ceil`` for an upper one: outward, so a bound stays proven)."""
    return Fraction(rounding(value * grid), grid)


def _on_grid(payoffs: np.ndarray, rounding: Callable[[Any], int]) -> np.ndarray:
    """``payoffs`` rounded outward to :data:`PAYOFF_GRID` (:func:`on_grid`), each distinct
    value once."""
    done: dict[Any, Fraction] = {}

    def grid(value: Any) -> Fraction:
        found = done.get(value)
        if found is None:
            found = done[value] = on_grid(value, PAYOFF_GRID, rounding)
        return found

    rounded: np.ndarray = np.frompyfunc(grid, 1, 1)(payoffs)
    return rounded


def solve(
    round_: Round,
    payoffs: Payoffs,
    report: Report,
    start: tuple[np.ndarray, np.ndarray] | None = None,
    *,
    rational: bool = True,
    warm: lp.Vertex | None = None,
) -> Solved:
    """An equilibrium of ``round_`` and its proven bounds: seat 0's strategy against the
    lowest payoffs, seat 1's against the highest; the double oracle's first sub-round is
    ``start`` where given (the moves each seat held, by edge and hand), and its first
    linear program starts from ``warm``'s basis (the same round's last, with other
    payoffs: an earlier pass's, or the other bound's). Where the lowest
    and highest are the same, the equilibrium is made exact from the LP's basis, unless
    ``rational`` is false (then its bounds are proven within :data:`TIGHT`)."""
    middle = ((payoffs.low + payoffs.high) / 2).astype(np.float64)
    seats = round_.seats
    hands = len(seats[0].hands) * len(seats[1].hands)
    iterations = programs = 0
    largest = (0, 0, 0)
    if len(round_.ends) * hands <= WHOLE:
        held = (
            np.ones((seats[0].edges, len(seats[0].hands)), dtype=bool),
            np.ones((seats[1].edges, len(seats[1].hands)), dtype=bool),
        )
    elif start is not None:
        held = start[0].copy(), start[1].copy()
    else:
        held, iterations = _played(round_, middle, report)
    same = rational and np.array_equal(payoffs.low, payoffs.high)
    exact = payoffs.low if same else None  # a round's
    vertex = warm  # the sub-round before's: the next one starts there
    guarantee: tuple[Fraction, Strategy] | None = None  # seat 0's best: what it guarantees
    concession: tuple[Fraction, Strategy] | None = None  # seat 1's best: what it concedes
    while True:
        reached = lp.alive(round_, held)
        parts = (
            lp.Restricted.of(seats[0], held[0], reached[0]),
            lp.Restricted.of(seats[1], held[1], reached[1]),
        )
        primal = None if vertex is None else vertex.primal  # kept once chosen: warm starts
        rows, columns, coefficients = lp.size(round_, parts, primal)
        programs += 1
        largest = max(largest, (rows, columns, coefficients), key=lambda size: size[2])
        report(
            f"linear program: {rows:,} rows, {columns:,} columns, {coefficients:,} payoff "
            "coefficients"
        )
        vertex = lp.plans(round_, parts, middle, vertex)
        if vertex.abandoned is not None:
            report(
                f"the warm start given up after {vertex.abandoned:.0f} s (past its limits): "
                f"solved from nothing by the interior point method in {vertex.iterations:,} "
                f"iterations, {vertex.seconds:.0f} s"
            )
        inside = [part.index >= 0 for part in parts]
        screened = _screened(round_, middle, vertex, inside)
        if screened is not None:  # gains plain in floats: no proof yet
            gap, gains0, gains1 = screened
            _hold(round_, held, gains0, gains1)
            report(
                f"best responses in floats: a gap of {gap:.1e}; "
                f"{len(gains0) + len(gains1):,} moves that gain added"
            )
            continue
        added = 0
        for plans, limit in _candidates(round_, parts, exact, vertex):
            strategy0 = lp.behaviour(seats[0], plans[0], limit)
            strategy1 = lp.behaviour(seats[1], plans[1], limit)
            low, gains1 = best_response(round_, payoffs.low, strategy0, responder=1, held=inside[1])
            high, gains0 = best_response(
                round_, payoffs.high, strategy1, responder=0, held=inside[0]
            )
            if guarantee is None or low > guarantee[0]:
                guarantee = low, strategy0
            if concession is None or high < concession[0]:
                concession = high, strategy1
            if guarantee[0] == concession[0]:
                break
            added = len(gains0) + len(gains1)
            close = float(high - low) < CLOSE
            if close and limit is not None and limit != DENOMINATORS[-1]:
                continue  # the gains may be the rounding's: larger denominators first
            if added:  # the sub-round lacks moves that gain: hold them, solve again
                _hold(round_, held, gains0, gains1)
                break
        assert guarantee is not None
        assert concession is not None
        bounds = guarantee[0], concession[0]
        tight = float(bounds[1] - bounds[0]) < TIGHT
        if bounds[0] == bounds[1] or not added or tight:
            report(
                f"proven: {bounds[0]}"
                if bounds[0] == bounds[1]
                else f"proven within {float(bounds[1] - bounds[0]):.1e}"
            )
            effort = Effort(
                decisions=len(seats[0].firsts) + len(seats[1].firsts), iterations=iterations,
                programs=programs, rows=largest[0], columns=largest[1],
                coefficients=largest[2],
            )  # fmt: skip
            return Solved(
                round=round_, strategies=(guarantee[1], concession[1]), bounds=bounds,
                effort=effort, held=held, vertex=vertex,
            )  # fmt: skip
        report(
            f"best responses: {float(bounds[0]):.6f} to {float(bounds[1]):.6f} (a gap of "
            f"{float(bounds[1] - bounds[0]):.1e}); {added:,} moves that gain added"
        )


def _hold(
    round_: Round, held: tuple[np.ndarray, np.ndarray], gains0: np.ndarray, gains1: np.ndarray
) -> None:
    """The next sub-round: ``held`` with each seat's gaining (edge, hand) pairs, and a move
    at each information state they reach."""
    held[0][gains0[:, 0], gains0[:, 1]] = True
    held[1][gains1[:, 0], gains1[:, 1]] = True
    _fill(round_, held, None)


def _screened(
    round_: Round, middle: np.ndarray, vertex: lp.Vertex, inside: list[np.ndarray]
) -> tuple[float, np.ndarray, np.ndarray] | None:
    """The gap between the floats' best responses to ``vertex``'s plans and the moves that
    gain against them by more than :data:`SCREEN`, when the gap is past :data:`CLOSE`:
    the double oracle's next sub-round, found without fractions; None when the floats see
    the sub-round's equilibrium as close to the whole round's (its proof comes next)."""
    seats = round_.seats
    strategy0 = lp.behaviour(seats[0], vertex.plans[0])
    strategy1 = lp.behaviour(seats[1], vertex.plans[1])
    low, gains1 = best_response(
        round_, middle, strategy0, responder=1, held=inside[1], tolerance=SCREEN
    )
    high, gains0 = best_response(
        round_, middle, strategy1, responder=0, held=inside[0], tolerance=SCREEN
    )
    gap = float(high - low)
    if gap < CLOSE or not (len(gains0) or len(gains1)):
        return None
    return gap, gains0, gains1


def _candidates(
    round_: Round,
    parts: tuple[lp.Restricted, lp.Restricted],
    payoffs: np.ndarray | None,
    vertex: lp.Vertex,
) -> list[tuple[tuple[np.ndarray, np.ndarray], int | None]]:
    """The plans to prove, each with the denominators its probabilities are rounded to:
    the vertex made exact for ``payoffs`` (a round's, exact; None for a fixed point's
    bounds), else its floats rounded to each of :data:`DENOMINATORS` in turn (small
    first; larger where they fall short)."""
    if payoffs is not None:
        exact = lp.exact(round_, parts, payoffs, vertex)
        if exact is not None:
            return [(exact, None)]
    return [(vertex.plans, limit) for limit in DENOMINATORS]


def _played(
    round_: Round, middle: np.ndarray, report: Report
) -> tuple[tuple[np.ndarray, np.ndarray], int]:
    """The moves of the double oracle's first sub-round: the calls, and the moves CFR+'s
    average strategy makes with some weight; each decision the sub-round reaches holds at
    least one move."""
    regrets = Regrets.of(round_, middle)
    chances = np.array(
        [[float(c0 * c1) for c1 in round_.seats[1].chances] for c0 in round_.seats[0].chances]
    )
    scale = float(np.abs(middle / chances).max()) or 1.0
    until(regrets, CFR_TOLERANCE * scale, iterations=10**9, seconds=CFR_SECONDS, report=report)
    played = [
        np.array(side.ending, dtype=bool)[:, None] | (regrets.realization(seat) > CFR_WEIGHT)
        for seat, side in enumerate(round_.seats)
    ]
    held = played[0], played[1]
    _fill(round_, held, (regrets.average(0), regrets.average(1)))
    return held, regrets.iterations


def _fill(
    round_: Round,
    held: tuple[np.ndarray, np.ndarray],
    average: tuple[np.ndarray, np.ndarray] | None,
) -> None:
    """Hold a move at each information state the sub-round reaches with none held (a
    decision without a call, after a move just held): each hand's likeliest under
    ``average``, or the decision's first move."""
    while True:
        reached = lp.alive(round_, held)
        empty = 0
        for seat, side in enumerate(round_.seats):
            parents, firsts = side.arrays()
            usable = lp.usable(side, held[seat], reached[seat])
            counts = np.add.reduceat(usable.astype(np.int64), firsts[:-1], axis=0)
            before = np.where(
                parents[:, None] < 0, True, usable[np.maximum(parents, 0)]
            )  # decisions x hands: the seat may be there with the hand
            for decision, hand in zip(
                *np.nonzero(reached[seat][:, None] & before & (counts == 0)), strict=True
            ):
                a, b = firsts[decision], firsts[decision + 1]
                if average is None:  # the first move legal with the hand
                    k = next(k for k in range(b - a) if side.legal(a + k, int(hand)))
                else:
                    k = int(np.argmax(average[seat][a:b, hand]))
                held[seat][a + k, hand] = True
                empty += 1
        if not empty:
            return
