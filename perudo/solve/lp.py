"""The sequence form of a round (von Stengel's) as one linear program, solved by SciPy's
HiGHS: over the whole round, or over the moves a double oracle keeps (a sub-round where
each seat may make only those moves, and may always call)."""

from __future__ import annotations

import contextlib
import ctypes
import sys
import threading
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

import attrs
import numba
import numpy as np
from scipy import sparse
from scipy.optimize import linprog

from perudo.errors import SolveError
from perudo.solve.tree import Round, Seat, Strategy

T = TypeVar("T")

#: HiGHS's feasibility tolerances, tighter than its defaults (1e-7): the closer the floats,
#: the more often their nearest small fractions are the exact equilibrium.
_TOLERANCES = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}


@attrs.frozen(eq=False)
class Restricted:
    """The sequences of one seat a linear program holds: each held (edge, hand) of the seat
    numbered from 1 (0 is the empty sequence), and the constraints of its information
    states (a decision with a hand whose sequence before it is held)."""

    index: np.ndarray  # edges x hands: each held sequence's number, -1 where not held
    count: int  # the sequences, the empty one included
    constraints: Any  # the sequence-form constraints, a sparse matrix

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
        return cls(index=index, count=count, constraints=constraints)

    def widen(self, plan: np.ndarray) -> np.ndarray:
        """A realization plan over the held sequences as one over the whole seat, in its
        numbering (1 + edge x hands + hand; zero where not held)."""
        whole = np.zeros(1 + self.index.size)
        whole[0] = plan[0]
        held = self.index >= 0
        whole[1:][held.ravel()] = plan[self.index[held]]
        return whole


def usable(seat: Seat, held: np.ndarray, reached: np.ndarray) -> np.ndarray:
    """The held (edge, hand) pairs of ``seat`` a sub-round has: at a reached decision,
    after a held pair of the same hand (or at the seat's first decision)."""
    parents, firsts = seat.arrays()
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


def size(round_: Round, parts: tuple[Restricted, Restricted]) -> tuple[int, int, int]:
    """The linear program's rows, columns and payoff coefficients."""
    primal = _primal(parts)
    rows = parts[1 - primal].count + parts[primal].constraints.shape[0]
    cols = parts[primal].count + parts[1 - primal].constraints.shape[0]
    return rows, cols, _payoff_entries(round_, parts, None)[0].size


def _primal(parts: tuple[Restricted, Restricted]) -> int:
    """The seat whose plan is the primal variables: the one with fewer sequences."""
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


def payoff_matrix(round_: Round, parts: tuple[Restricted, Restricted], payoffs: np.ndarray) -> Any:
    """Seat 0's payoff (chance included) at each pair of held sequences, as a sparse matrix
    (seat 0's sequences by seat 1's), int32 indices."""
    rows, cols, values = _payoff_entries(round_, parts, payoffs.astype(np.float64))
    matrix = sparse.coo_matrix(
        (values, (rows.astype(np.int32), cols.astype(np.int32))),
        shape=(parts[0].count, parts[1].count),
    )
    return matrix.tocsr()


def plans(
    round_: Round, parts: tuple[Restricted, Restricted], payoffs: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Both seats' realization plans at an equilibrium of the part, from one linear
    program: the sequence form's max_x f'q s.t. F'q <= A'x for the seat with fewer
    sequences (seat 1 maximises minus seat 0's payoff), whose dual is the other seat's plan
    (von Stengel). Dual simplex, so the dual is a vertex too: its probabilities are as
    exact as the primal's. Each plan is over the whole seat (zero off the part)."""
    matrix = payoff_matrix(round_, parts, payoffs)
    seat = _primal(parts)
    me, other = parts[seat], parts[1 - seat]
    a_t = matrix.T.tocsr() if seat == 0 else -matrix  # theirs x mine
    e, f = me.constraints, other.constraints
    n_me, n_q = me.count, f.shape[0]
    cost = np.zeros(n_me + n_q)
    cost[n_me] = -1.0  # maximise q[0]
    inequality = sparse.hstack([-a_t, f.T]).tocsr()  # F'q - A'x <= 0
    equality = sparse.hstack([e, sparse.csr_matrix((e.shape[0], n_q))]).tocsr()
    b_eq = np.zeros(e.shape[0])
    b_eq[0] = 1.0
    bounds = [(0, None)] * n_me + [(None, None)] * n_q
    result = interruptible(
        lambda: linprog(
            cost, A_ub=inequality, b_ub=np.zeros(other.count), A_eq=equality, b_eq=b_eq,
            bounds=bounds, method="highs-ds", options=_TOLERANCES,
        )
    )  # fmt: skip
    if result.status != 0:  # pragma: no cover - a well-formed sequence form always solves
        raise SolveError(f"the linear program did not solve: {result.message}")
    mine, theirs = np.asarray(result.x[:n_me]), -np.asarray(result.ineqlin.marginals)
    found = (mine, theirs) if seat == 0 else (theirs, mine)
    return parts[0].widen(found[0]), parts[1].widen(found[1])


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


_threads: list[str] = []


def highs_ran() -> bool:
    """Whether HiGHS has run on a thread of this process. An interrupted process that ran
    it ends with :func:`os._exit`: HiGHS may still be working on its thread, or that
    thread, its Python part over, may still be running C++ destructors of its own, and a
    normal exit that runs the process's C++ destructors beside them is aborted by the C++
    runtime ("terminate called without an active exception", SIGABRT: measured, 3 times
    in 30 interrupts)."""
    return bool(_threads)


def behaviour(seat: Seat, plan: np.ndarray, limit: int) -> Strategy:
    """Each reached decision's action probabilities from a realization plan, as exact
    fractions that sum to 1, each the nearest with a denominator up to ``limit``."""
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
