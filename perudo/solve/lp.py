"""The sequence form of a round (von Stengel's) as one linear program, solved by HiGHS
(highspy): over the whole round, or over the moves a double oracle keeps (a sub-round where
each seat may make only those moves, and may always call); its optimal basis made exact
(:mod:`perudo.solve.rational`)."""

from __future__ import annotations

import contextlib
import ctypes
import math
import sys
import threading
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

import attrs
import highspy
import numba
import numpy as np
from scipy import sparse

from perudo.errors import SolveError
from perudo.solve import rational
from perudo.solve.tree import Round, Seat, Strategy

T = TypeVar("T")


@attrs.frozen(eq=False)
class Restricted:
    """The sequences of one seat a linear program holds: each held (edge, hand) of the seat
    numbered from 1 (0 is the empty sequence), and the constraints of its information
    states (a decision with a hand whose sequence before it is held)."""

    index: np.ndarray  # edges x hands: each held sequence's number, -1 where not held
    count: int  # the sequences, the empty one included
    constraints: Any  # the sequence-form constraints, a sparse matrix
    states: np.ndarray  # decisions x hands: each information state's constraint, -1 if none

    @classmethod
    def of(cls, seat: Seat, held: np.ndarray, reached: np.ndarray) -> Restricted:
        """The sequences of ``seat`` whose (edge, hand) is ``held`` (a mask) at the
        decisions ``reached`` (a mask)."""
        parents, firsts = seat.arrays()
        owner = np.repeat(np.arange(len(parents)), np.diff(firsts))
        mask = usable(seat, held, reached)
        index = np.full(mask.shape, -1, dtype=np.int64)
        index[mask] = np.arange(1, int(mask.sum()) + 1)
        # the information states: a reached decision with a hand whose parent is held
        parent = np.where(
            parents[:, None] < 0, 0, index[np.maximum(parents, 0)]
        )  # decisions x hands: the sequence before, -1 where not held
        states = reached[:, None] & (parent >= 0)
        row = np.full(states.shape, -1, dtype=np.int64)
        row[states] = np.arange(1, int(states.sum()) + 1)
        d, h = np.nonzero(states)
        e, k = np.nonzero(mask & (row[owner] >= 0))
        rows = np.concatenate([[0], row[d, h], row[owner[e], k]])
        cols = np.concatenate([[0], parent[d, h], index[e, k]])
        values = np.concatenate([[1.0], -np.ones(len(d)), np.ones(len(e))])
        count = int(mask.sum()) + 1
        constraints = sparse.csr_matrix(
            (values, (rows.astype(np.int32), cols.astype(np.int32))),
            shape=(int(states.sum()) + 1, count),
        )
        return cls(index=index, count=count, constraints=constraints, states=row)

    def widen(self, plan: np.ndarray) -> np.ndarray:
        """A realization plan over the held sequences as one over the whole seat, in its
        numbering (1 + edge x hands + hand; zero where not held)."""
        return _spread(self.index, plan, 0)


def usable(seat: Seat, held: np.ndarray, reached: np.ndarray) -> np.ndarray:
    """The held (edge, hand) pairs of ``seat`` a sub-round has: legal, at a reached
    decision, after a held pair of the same hand (or at the seat's first decision)."""
    parents, firsts = seat.arrays()
    allowed = seat.allowed()
    if allowed is not None:
        held = held & allowed
    mask = np.zeros_like(held)
    everyone = np.ones(held.shape[1], dtype=bool)
    for decision in np.flatnonzero(reached):
        parent = parents[decision]
        before = everyone if parent < 0 else mask[parent]
        a, b = firsts[decision], firsts[decision + 1]
        mask[a:b] = held[a:b] & before
    return mask


def alive(round_: Round, held: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Each seat's decisions reached by ``held`` moves alone (both seats', each held with
    some hand)."""
    owners = [np.repeat(np.arange(len(s.firsts)), np.diff(s.arrays()[1])) for s in round_.seats]
    reached = (
        np.zeros(len(round_.seats[0].firsts), dtype=np.bool_),
        np.zeros(len(round_.seats[1].firsts), dtype=np.bool_),
    )
    _reached(round_.order, held[0].any(axis=1), held[1].any(axis=1), owners[0], owners[1], *reached)
    return reached


@numba.njit(cache=True)
def _reached(
    order: Any, some0: Any, some1: Any, owner0: Any, owner1: Any, out0: Any, out1: Any
) -> None:
    """``alive``'s walk over the decisions in the order they were reached."""
    for i in range(order.shape[0]):
        seat, decision, before, edge = order[i, 0], order[i, 1], order[i, 2], order[i, 3]
        if before < 0:
            ok = True
        elif before == 0:
            ok = some0[edge] and out0[owner0[edge]]
        else:
            ok = some1[edge] and out1[owner1[edge]]
        if ok:
            if seat == 0:
                out0[decision] = True
            else:
                out1[decision] = True


def size(
    round_: Round, parts: tuple[Restricted, Restricted], primal: int | None = None
) -> tuple[int, int, int]:
    """The linear program's rows, columns and payoff coefficients (``primal``: as
    :func:`plans` takes it)."""
    primal = _primal(parts) if primal is None else primal
    rows = parts[1 - primal].count + parts[primal].constraints.shape[0]
    cols = parts[primal].count + parts[1 - primal].constraints.shape[0]
    return rows, cols, _payoff_entries(round_, parts, None)[0].size


def _primal(parts: tuple[Restricted, Restricted]) -> int:
    """The seat whose plan is the primal variables: the one with fewer sequences (at a
    round's first program; :func:`plans` keeps it after)."""
    return 0 if parts[0].count <= parts[1].count else 1


def _payoff_entries(
    round_: Round, parts: tuple[Restricted, Restricted], payoffs: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The payoff matrix's entries: seat 0's sequence, seat 1's and the payoff (chance
    included), at every call both seats' held sequences reach."""
    ends = round_.ends
    indexes = []
    for part, column in zip(parts, (0, 1), strict=True):
        extended = np.vstack([part.index, np.zeros((1, part.index.shape[1]), np.int64)])
        indexes.append(extended[ends[:, column]])  # -1 (the empty sequence) is the last row
    both = (indexes[0] >= 0).any(axis=1) & (indexes[1] >= 0).any(axis=1)
    i0, i1, outcome = indexes[0][both], indexes[1][both], ends[both, 2]
    pairs = (i0[:, :, None] >= 0) & (i1[:, None, :] >= 0)
    c, h0, h1 = np.nonzero(pairs)
    values = np.zeros(0) if payoffs is None else payoffs[outcome[c], h0, h1]
    return i0[c, h0], i1[c, h1], values


@attrs.frozen(eq=False)
class Vertex:
    """An optimal basic solution of a part's linear program: both seats' realization plans
    in floats (each over the whole seat, zero off the part), and the basis that makes them
    exact (:func:`exact`)."""

    plans: tuple[np.ndarray, np.ndarray]
    basic: np.ndarray  # the basic columns
    bound: np.ndarray  # the rows at a bound (not basic)
    primal: int  # the seat whose plan was the primal variables
    # each LP column's and row's basis status over the whole round (for the next start):
    # the primal seat's sequences, the other's information states, the other's sequences,
    # the primal seat's constraints; -1 where the part has none
    statuses: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    started: bool  # whether HiGHS solved it from the basis of the part before
    iterations: int  # the iterations of this answer (simplex, or interior point and crossover)
    seconds: float  # the wall time HiGHS took for this answer
    # the seconds a warm start ran before it was given up for a start from nothing
    abandoned: float | None = None


def plans(
    round_: Round,
    parts: tuple[Restricted, Restricted],
    payoffs: np.ndarray,
    start: Vertex | None = None,
) -> Vertex:
    """Both seats' realization plans at an equilibrium of the part, from one linear
    program: the sequence form's max_x f'q s.t. F'q <= A'x for the seat with fewer
    sequences (seat 1 maximises minus seat 0's payoff), whose dual is the other seat's plan
    (von Stengel). HiGHS's dual simplex, so both are a basic solution: :func:`exact` makes
    them exact. ``start``, the vertex of a smaller part of the same round (the double
    oracle's sub-round before), gives HiGHS its basis to start from: the sequences and
    constraints both hold keep their status, the new ones join the basis as their rows'
    slacks or stay at zero; its primal seat stays the primal one (a program turned round
    would start from nothing: a 1v3 round's took minutes where the warm ones took
    seconds). A warm start that takes more than :data:`WARM_ITERATIONS` simplex iterations
    a row, or more than :data:`WARM_TIMES` the seconds ``start`` took (and
    :data:`WARM_SECONDS`), is given up, and the program solved from nothing by the
    interior point method and its crossover. Each program then runs again at tighter
    feasibility tolerances from the basis it ended at."""
    seat = _primal(parts) if start is None else start.primal
    rows, cols, values, shape = _program(round_, parts, payoffs.astype(np.float64), seat)
    matrix = sparse.csc_matrix(
        (values, (rows.astype(np.int32), cols.astype(np.int32))), shape=shape
    )  # fmt: skip
    me, other = parts[seat], parts[1 - seat]
    n_me, n_q = me.count, other.constraints.shape[0]
    model = highspy.HighsLp()
    model.num_col_, model.num_row_ = shape[1], shape[0]
    model.col_cost_ = _cost(shape[1], n_me)
    model.col_lower_ = np.concatenate([np.zeros(n_me), np.full(n_q, -highspy.kHighsInf)])
    model.col_upper_ = np.full(shape[1], highspy.kHighsInf)
    upper = _bounds(parts, seat)
    model.row_lower_ = np.concatenate(
        [np.full(other.count, -highspy.kHighsInf), upper[other.count :]]
    )
    model.row_upper_ = upper
    model.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    model.a_matrix_.num_col_, model.a_matrix_.num_row_ = shape[1], shape[0]
    model.a_matrix_.start_ = matrix.indptr
    model.a_matrix_.index_ = matrix.indices
    model.a_matrix_.value_ = matrix.data
    # The bindings themselves: highspy.Highs's constructor prints HiGHS's banner on stdout
    # before any option can turn it off.
    highs = highspy._Highs()  # type: ignore[attr-defined]
    for option, value in _OPTIONS.items():
        highs.setOptionValue(option, value)
    highs.passModel(model)
    started = False
    if start is not None:
        started = highs.setBasis(_warm(start, me, other)) == highspy.HighsStatus.kOk
    abandoned = None
    clock = time.perf_counter()
    if started:
        assert start is not None
        highs.setOptionValue("simplex_iteration_limit", int(WARM_ITERATIONS * shape[0]))
        highs.setOptionValue("time_limit", max(WARM_SECONDS, WARM_TIMES * start.seconds))
        interruptible(highs.run)
        given_up = highs.getModelStatus() in _GIVEN_UP
        highs.setOptionValue("simplex_iteration_limit", _NO_LIMIT)  # the limits are the warm
        highs.setOptionValue("time_limit", highspy.kHighsInf)  # start's alone
        if given_up:
            abandoned, started = time.perf_counter() - clock, False
            highs.clearSolver()  # the basis too: from nothing
            clock = time.perf_counter()
    if abandoned is not None:  # not the dual simplex again: it may stall from nothing too
        for option, value in _INTERIOR.items():
            highs.setOptionValue(option, value)
        interruptible(highs.run)
        highs.setOptionValue("solver", _OPTIONS["solver"])
    elif not started:
        interruptible(highs.run)
    iterations = _iterations(highs)
    for option, value in _TIGHT.items():  # from the basis it ended at: a few pivots
        highs.setOptionValue(option, value)
    interruptible(highs.run)
    iterations += _iterations(highs)
    seconds = time.perf_counter() - clock
    status = highs.getModelStatus()
    if status != highspy.HighsModelStatus.kOptimal:  # pragma: no cover - always solves
        raise SolveError(f"the linear program did not solve: {highs.modelStatusToString(status)}")
    solution, basis = highs.getSolution(), highs.getBasis()
    basic = int(highspy.HighsBasisStatus.kBasic)
    columns = np.array([int(s) for s in basis.col_status])
    row_status = np.array([int(s) for s in basis.row_status])
    mine = np.array(solution.col_value[:n_me])
    theirs = -np.array(solution.row_dual[: other.count])
    found = (mine, theirs) if seat == 0 else (theirs, mine)
    statuses = (
        _spread(me.index, columns[: me.count]),
        _spread(other.states, columns[me.count :]),
        _spread(other.index, row_status[: other.count]),
        _spread(me.states, row_status[other.count :]),
    )
    return Vertex(
        plans=(parts[0].widen(found[0]), parts[1].widen(found[1])),
        basic=np.flatnonzero(columns == basic), bound=np.flatnonzero(row_status != basic),
        primal=seat, statuses=statuses, started=started, iterations=iterations, seconds=seconds,
        abandoned=abandoned,
    )  # fmt: skip


def _iterations(highs: Any) -> int:
    """The iterations of HiGHS's last run: the simplex's, or the interior point method's
    and its crossover's."""
    info = highs.getInfo()
    counts = (info.simplex_iteration_count, info.ipm_iteration_count,
              info.crossover_iteration_count)  # fmt: skip
    return sum(max(0, int(count)) for count in counts)


def _spread(numbering: np.ndarray, values: np.ndarray, missing: Any = -1) -> np.ndarray:
    """``values``, one for each of a part's numbered items (0 the root), over every item of
    the seat (``numbering``'s cells, then the root first): ``missing`` where the part has
    none."""
    whole = np.full(1 + numbering.size, missing, dtype=values.dtype)
    whole[0] = values[0]
    held = numbering.ravel() >= 0
    whole[1:][held] = values[numbering.ravel()[held]]
    return whole


def _gather(numbering: np.ndarray, whole: np.ndarray, count: int, new: int) -> np.ndarray:
    """A part's statuses from ``whole`` (:func:`_spread`'s), ``new`` for an item the part
    before did not have."""
    values = np.full(count, new, dtype=np.int64)
    values[0] = whole[0] if whole[0] >= 0 else new
    flat = numbering.ravel()
    held = flat >= 0
    before = whole[1:][held]
    values[flat[held]] = np.where(before >= 0, before, new)
    return values


_LOWER, _BASIC, _ZERO = (int(highspy.HighsBasisStatus.kLower), int(highspy.HighsBasisStatus.kBasic),
                         int(highspy.HighsBasisStatus.kZero))  # fmt: skip


def _warm(start: Vertex, me: Restricted, other: Restricted) -> Any:
    """HiGHS's basis for the part of ``me`` and ``other`` from ``start``'s: a new sequence
    of the primal seat at zero, a new information state's free column at zero, a new row
    basic (its slack). HiGHS takes it as an alien basis and mends what does not fit."""
    sequences, states, their_sequences, constraints = start.statuses
    columns = np.concatenate([
        _gather(me.index, sequences, me.count, _LOWER),
        _gather(other.states, states, other.constraints.shape[0], _ZERO),
    ])  # fmt: skip
    rows = np.concatenate([
        _gather(other.index, their_sequences, other.count, _BASIC),
        _gather(me.states, constraints, me.constraints.shape[0], _BASIC),
    ])  # fmt: skip
    status = highspy.HighsBasisStatus
    basis = highspy.HighsBasis()
    basis.col_status = [status(s) for s in columns.tolist()]
    basis.row_status = [status(s) for s in rows.tolist()]
    basis.valid = True
    basis.alien = True
    return basis


def exact(
    round_: Round, parts: tuple[Restricted, Restricted], payoffs: np.ndarray, vertex: Vertex
) -> tuple[np.ndarray, np.ndarray] | None:
    """``vertex``'s plans in exact fractions (object arrays over each whole seat) for the
    exact ``payoffs`` (fractions): its basis's square system solved exactly (the primal's
    plan by the rows at a bound, the dual's by the basic columns); None when the basis is
    singular, its solution not a plan (a negative entry), or past
    :data:`~perudo.solve.rational.PRECISIONS`."""
    denominator = math.lcm(*(Fraction(p).denominator for p in payoffs.ravel()))
    scaled = np.array([int(Fraction(p) * denominator) for p in payoffs.ravel()], dtype=object)
    seat = vertex.primal
    rows, cols, values, shape = _program(round_, parts, scaled.reshape(payoffs.shape), seat)
    at = np.full(shape[0], -1, dtype=np.int64)
    at[vertex.bound] = np.arange(len(vertex.bound))
    to = np.full(shape[1], -1, dtype=np.int64)
    to[vertex.basic] = np.arange(len(vertex.basic))
    keep = (at[rows] >= 0) & (to[cols] >= 0)
    basis = rational.Integers.of(
        at[rows[keep]], to[cols[keep]], values[keep], (len(vertex.bound), len(vertex.basic))
    )
    me, other = parts[seat], parts[1 - seat]
    cost = _cost(shape[1], me.count)[vertex.basic].astype(np.int64)
    solved = rational.solve(basis, _bounds(parts, seat)[vertex.bound].astype(np.int64), cost)
    if solved is None:
        return None
    primal, dual = solved
    mine = np.zeros(me.count, dtype=object)
    inside = vertex.basic < me.count
    mine[vertex.basic[inside]] = primal[inside]
    theirs = np.zeros(other.count, dtype=object)
    ineq = vertex.bound < other.count
    theirs[vertex.bound[ineq]] = -dual[ineq]
    if any(p < 0 for p in mine) or any(p < 0 for p in theirs):
        return None
    found = (mine, theirs) if seat == 0 else (theirs, mine)
    return parts[0].widen(found[0]), parts[1].widen(found[1])


#: A warm start (:func:`plans`) is given up past this many simplex iterations a row of
#: its program: a basis handed on is most often a few pivots from the answer (a
#: 27,000-row program of French Calza's 2v2 game in 2 s, 20 s from nothing), but it need
#: not be. From nothing, HiGHS takes 0.2 to 0.9 a row on the rounds measured. (The
#: programs first seen to sit for minutes on a basis handed on sat as long from nothing:
#: that was the tight tolerances, :data:`_TIGHT`.)
WARM_ITERATIONS = 2.0

#: A warm start is given up, too, past this many times the wall time of the program it
#: starts from, for iterations that are slow ...
WARM_TIMES = 10.0

#: ... and past this many seconds, whatever the start took.
WARM_SECONDS = 30.0

_GIVEN_UP = (highspy.HighsModelStatus.kIterationLimit, highspy.HighsModelStatus.kTimeLimit)

_NO_LIMIT = 2**31 - 1  # HiGHS's own default

#: HiGHS's options: its dual simplex (a basic solution, for :func:`exact`) and no output.
_OPTIONS: dict[str, object] = {
    "output_flag": False,
    "solver": "simplex",
    "simplex_strategy": 1,
}

#: The feasibility tolerances of each program's second run, from the basis its first (at
#: HiGHS's defaults, 1e-7) ended at: tighter, for :func:`exact`. Run at these from the
#: start, a 32,744-row program of French Calza's 2v2 game sat in the dual simplex's
#: clean-up for minutes; at the defaults it took 49 s, and 5 more iterations at these.
_TIGHT: dict[str, float] = {
    "primal_feasibility_tolerance": 1e-10,
    "dual_feasibility_tolerance": 1e-10,
}

#: How a program whose warm start was given up is solved: HiGHS's interior point method,
#: then its crossover to a basic solution (for :func:`exact`). The dual simplex from
#: nothing could stall there too: a 37,119-row program of French Calza's 2v2 game sat in
#: its primal clean-up for over 17 minutes at the default tolerances. On the 32,744-row
#: program that stalled at the tight ones, this takes 30 s (the dual simplex 49 s), and
#: the tight run after it no iteration.
_INTERIOR: dict[str, object] = {"solver": "ipm", "run_crossover": "on"}


def _program(
    round_: Round, parts: tuple[Restricted, Restricted], payoffs: np.ndarray, seat: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int]]:
    """The linear program's matrix, as (row, column, value) triples and its shape, of
    ``payoffs``' type (floats, or Python integers): the columns are the primal seat's
    sequences, then the other seat's information states (``q``); the rows are the other
    seat's sequences (``F'q - A'x <= 0``), then the primal seat's constraints
    (``Ex = e``); ``seat`` is the primal seat."""
    r0, r1, values = _payoff_entries(round_, parts, payoffs)
    me, other = parts[seat], parts[1 - seat]
    # -A'x in the other seat's rows: seat 1 maximises minus seat 0's payoff
    theirs, mine, entries = (r1, r0, -values) if seat == 0 else (r0, r1, values)
    f = other.constraints.tocoo()
    e = me.constraints.tocoo()
    rows = np.concatenate([theirs, f.col, other.count + e.row])
    cols = np.concatenate([mine, me.count + f.row, e.col])
    signs = np.concatenate([f.data, e.data]).astype(np.int64).astype(values.dtype)
    data = np.concatenate([entries, signs])
    shape = (other.count + e.shape[0], me.count + f.shape[0])
    return rows.astype(np.int64), cols.astype(np.int64), data, shape


def _cost(columns: int, plan: int) -> np.ndarray:
    """The objective: maximise ``q[0]`` (minimise its opposite)."""
    cost = np.zeros(columns)
    cost[plan] = -1.0
    return cost


def _bounds(parts: tuple[Restricted, Restricted], seat: int) -> np.ndarray:
    """Each row's upper bound: 0 for the other seat's sequences, ``e`` for the primal
    ``seat``'s constraints (1 at the empty sequence's); the constraints' lower bounds are
    the same."""
    upper = np.zeros(parts[1 - seat].count + parts[seat].constraints.shape[0])
    upper[parts[1 - seat].count] = 1.0
    return upper


def interruptible(solve: Callable[[], T]) -> T:
    """``solve()``'s answer, computed on a thread of its own while this one waits, so a
    Ctrl-C or SIGTERM stops the solve at once: HiGHS lets go of Python's lock while it
    works, but the signal's handler runs only in the main thread, between Python steps.
    An interrupted solve's thread is left to end with the process."""
    answer: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        if sys.platform.startswith("linux"):  # named for top -H, ps and the tests
            with contextlib.suppress(Exception):
                ctypes.CDLL(None).prctl(15, b"perudo-highs")  # PR_SET_NAME
        try:
            answer.append(solve())
        except BaseException as error:  # handed to the waiting thread
            failure.append(error)

    worker = threading.Thread(target=run, name="perudo-highs", daemon=True)
    _threads.append(worker.name)
    worker.start()
    while worker.is_alive():
        worker.join(0.1)
    if failure:
        raise failure[0]
    return answer[0]


def _ratios(seat: Seat, plan: np.ndarray) -> Strategy:
    """:func:`behaviour` of a plan in fractions: at each decision the part holds that a
    hand reaches, each move's weight over the weight before it (the plan's constraints
    make them sum to 1)."""
    n = len(seat.hands)
    exact = plan.dtype.kind == "O"
    weights = plan[1:].reshape(seat.edges, n)
    played = weights != 0 if exact else weights > 1e-12
    parents, firsts = seat.arrays()
    strategy: Strategy = {}
    zero = Fraction(0)
    for decision, parent in enumerate(parents.tolist()):
        first, last = int(firsts[decision]), int(firsts[decision + 1])
        moved = played[first:last].any(axis=0)  # the part holds the decision for the hand
        before = moved if parent < 0 else moved & played[parent]
        for hand in np.flatnonzero(before).tolist():
            column = weights[first:last, hand]
            if exact:
                reach = 1 if parent < 0 else weights[parent, hand]
                strategy[decision, hand] = tuple(Fraction(w) / reach if w else zero for w in column)
            else:
                kept = np.maximum(column, 0.0)
                strategy[decision, hand] = tuple((kept / kept.sum()).tolist())
    return strategy


_threads: list[str] = []


def highs_ran() -> bool:
    """Whether HiGHS has run on a thread of this process. An interrupted process that ran
    it ends with :func:`os._exit`: HiGHS may still be working on its thread, or that
    thread, its Python part over, may still be running C++ destructors of its own, and a
    normal exit that runs the process's C++ destructors beside them is aborted by the C++
    runtime ("terminate called without an active exception", SIGABRT: measured, 3 times
    in 30 interrupts)."""
    return bool(_threads)


def behaviour(seat: Seat, plan: np.ndarray, limit: int | None = None) -> Strategy:
    """Each reached decision's action probabilities from a realization plan, as exact
    fractions that sum to 1: each the nearest with a denominator up to ``limit`` to a plan
    in floats, or the plan's own ratios (``limit`` None: in fractions for a plan in
    fractions, in floats for one in floats)."""
    if limit is None:
        return _ratios(seat, plan)
    n = len(seat.hands)
    weights = np.maximum(plan[1:].reshape(seat.edges, n), 0.0)
    parents, firsts = seat.arrays()
    firsts = firsts[:-1]
    reach = np.where(parents[:, None] < 0, 1.0, weights[np.maximum(parents, 0)])
    totals = np.add.reduceat(weights, firsts, axis=0) if seat.edges else weights
    strategy: Strategy = {}
    for decision, hand in zip(*np.nonzero((reach > 1e-12) & (totals > 1e-12)), strict=True):
        first = firsts[decision]
        size = len(seat.actions[decision])
        w = weights[first : first + size, hand] / totals[decision, hand]
        probabilities = [Fraction(float(p)).limit_denominator(limit) for p in w]
        total = sum(probabilities, Fraction(0))
        strategy[int(decision), int(hand)] = tuple(p / total for p in probabilities)
    return strategy
