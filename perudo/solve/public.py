"""A round too big to walk, as its public graph, and CFR+ over the tree it unfolds
(compiled with numba), never built.

The positions of a round whose future is the same (the standing bid, the seat to act, the
round's rules and the seats' standing: :func:`~perudo.solve.size.future`) are one node of
its graph: the two-dice rounds at six faces have 16.8 million histories, and a few hundred
nodes. A depth-first walk of the graph meets the histories in the same order every time, so
each move of each history (an edge of its seat) has a number, counted from the sizes of the
graph's subtrees, and each seat holds only its regrets and the sums of its average strategy
per edge and hand, in float32: 8 bytes, against the walked round's 57 and its positions
(:class:`~perudo.solve.cfr.Regrets`). The strategies, reaches and values of an iteration
live in the walk's frames, one row per depth. A call is valued against the other seat's
reach summed by class of hands (:class:`Settled`), and a subtree neither seat's play
reaches is skipped. The first decision's moves are shared among numba's threads.

The iterations are :class:`~perudo.solve.cfr.Regrets`' (Tammelin's CFR+, alternating,
the average weighted by the iteration), and so is the exploitability: each seat's exact
best response against the other's average, in floats.

A round with chance inside it (a re-roll), or whose kinds may read the whole round (a
registered kind, a pressured bid's doubling), is walked instead: its histories do not
merge.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs
import numba
import numpy as np

from perudo.actions import Action
from perudo.errors import SolveError
from perudo.solve.size import fits, future, gib
from perudo.solve.tree import (
    Hand,
    Outcome,
    alternating,
    call_key,
    deals,
    going_on,
    public_key,
    round_name,
    settle,
)
from perudo.state import GameState
from perudo.view import PlayerView

__all__ = ["Graph", "PublicRegrets", "graph", "merges"]

_jit = numba.njit(cache=True, error_model="numpy")

#: The bytes CFR+ holds per (edge, hand) of a seat: its regrets and its average's sums.
BYTES_PER_ENTRY = 8


def merges(start: GameState) -> bool:
    """Whether the round from ``start`` merges into a public graph: no chance inside it
    (no action of the ``actions`` axis), and no registered kind that may read the whole
    round."""
    variant = start.variant
    return not (
        variant.user_kinds
        or variant.actions.kind != "none"
        or start.rules.raising.times_per_bid != 1
    )


@attrs.frozen(eq=False)
class Graph:
    """A round's public graph: its nodes (positions whose future is the same), each node's
    seat to act and moves, the node each move leads to (or the call's outcome), and the
    size of the tree each node unfolds into.

    Attributes:
        start: The round's first position.
        seats: Each node's seat to act.
        firsts: Each node's first move (one more: the moves' count).
        children: The node each move leads to, or ``-1 - outcome`` for a call.
        sizes: Each seat's edges in the tree a node unfolds into (its own moves included).
        decisions: Each seat's decisions in that tree.
        depth: The most moves of a history.
        widest: The most moves at a decision.
        actions: Each node's moves.
        outcomes: The calls that end the round, one per way they settle.
        hands: Each seat's possible hands.
        chances: Each hand's chance.
    """

    start: GameState
    seats: np.ndarray
    firsts: np.ndarray
    children: np.ndarray
    sizes: np.ndarray
    decisions: np.ndarray
    depth: int
    widest: int
    actions: list[tuple[Action, ...]]
    outcomes: list[Outcome]
    hands: tuple[list[Hand], list[Hand]]
    chances: tuple[list[Any], list[Any]]

    @property
    def edges(self) -> tuple[int, int]:
        """Each seat's edges in the whole tree."""
        return int(self.sizes[0, 0]), int(self.sizes[0, 1])

    @property
    def infosets(self) -> int:
        """Both seats' information states: each decision with each hand."""
        return int(self.decisions[0, 0]) * len(self.hands[0]) + int(self.decisions[0, 1]) * len(
            self.hands[1]
        )

    @property
    def memory(self) -> int:
        """The bytes CFR+ holds on the tree, about."""
        entries = self.edges[0] * len(self.hands[0]) + self.edges[1] * len(self.hands[1])
        return BYTES_PER_ENTRY * entries

    def shared(self, threads: int) -> np.ndarray:
        """The first decision's moves shared among ``threads`` threads, the largest
        subtree first to the least loaded (one row per thread, -1 after its last move)."""
        k = int(self.firsts[1])
        loads = [0] * threads
        rows: list[list[int]] = [[] for _ in range(threads)]
        weights = [int(self.sizes[c].sum()) if c >= 0 else 0 for c in self.children[:k]]
        for j in sorted(range(k), key=lambda j: -weights[j]):
            t = loads.index(min(loads))
            loads[t] += weights[j] + 1
            rows[t].append(j)
        groups = np.full((threads, k), -1, dtype=np.int64)
        for t, row in enumerate(rows):
            groups[t, : len(row)] = row
        return groups

    def place(self, view: PlayerView) -> tuple[int, int, int] | None:
        """The node, the first edge and the hand (its index) of ``view``'s decision, found
        by replaying the round's moves to it; None where the view is not at a decision of
        its seat in this round."""
        seat = view.player
        if seat is None or view.to_act != seat or view.acts:
            return None
        target = public_key(view)
        bids = target[3]
        try:
            hand = self.hands[seat].index(tuple(sorted(view.dice)))
        except ValueError:
            return None
        state, node, bases = self.start, 0, [0, 0]
        while public_key(state) != target:
            s, a = int(self.seats[node]), int(self.firsts[node])
            nexts = list(bases)
            nexts[s] += int(self.firsts[node + 1]) - a
            for j, move in enumerate(self.actions[node]):
                child = int(self.children[a + j])
                if child < 0:
                    continue
                after = state.apply(move)
                key = public_key(after)
                if key == target or (len(key[3]) < len(bids) and key[3] == bids[: len(key[3])]):
                    state, node, bases = after, child, nexts
                    break
                nexts[0] += int(self.sizes[child, 0])
                nexts[1] += int(self.sizes[child, 1])
            else:
                return None
        if int(self.seats[node]) != seat:
            return None
        return node, bases[seat], hand


def graph(start: GameState) -> Graph:
    """The public graph of the round from ``start`` (which :func:`merges`)."""
    assert merges(start)
    continuing = going_on(start.variant)
    out_of_turn = start.variant.has_out_of_turn
    faces = start.variant.dice.faces
    index: dict[Any, int] = {}
    seats: list[int] = []
    actions: list[tuple[Action, ...]] = []
    kids: list[list[int]] = []
    finished: list[int] = []  # the nodes, children first
    outcomes: list[Outcome] = []
    settled: dict[Any, int] = {}

    def node(state: GameState) -> int:
        key = future(state, False)
        found = index.get(key)
        if found is not None:
            return found
        n = index[key] = len(seats)
        assert state.to_act is not None
        if out_of_turn:
            alternating(state, start)
        moves = tuple(state.legal_actions())
        seats.append(state.to_act)
        actions.append(moves)
        kids.append([])
        for move in moves:
            if isinstance(move, continuing):
                kids[n].append(node(state.apply(move)))
            else:
                call = call_key(state, move, False)
                outcome = settled.get(call)
                if outcome is None:
                    outcome = settled[call] = len(outcomes)
                    outcomes.append(Outcome(state=state, action=move))
                kids[n].append(-1 - outcome)
        finished.append(n)
        return n

    try:
        node(start)
    except RecursionError:  # pragma: no cover - a chain of bids thousands long
        raise SolveError(f"{round_name(start)} is too big to solve: its bids never end") from None
    count = len(seats)
    firsts = np.zeros(count + 1, dtype=np.int64)
    firsts[1:] = np.cumsum([len(moves) for moves in actions])
    children = np.array([kid for row in kids for kid in row], dtype=np.int64)
    sizes = np.zeros((count, 2), dtype=np.int64)
    decisions = np.zeros((count, 2), dtype=np.int64)
    depths = np.zeros(count, dtype=np.int64)
    for n in finished:
        sizes[n, seats[n]] = len(actions[n])
        decisions[n, seats[n]] = 1
        for kid in kids[n]:
            if kid >= 0:
                sizes[n] += sizes[kid]
                decisions[n] += decisions[kid]
                depths[n] = max(depths[n], depths[kid])
        depths[n] += 1
    dealt = [deals(len(player.dice), faces) for player in start.players[:2]]
    return Graph(
        start=start, seats=np.array(seats, dtype=np.int64), firsts=firsts, children=children,
        sizes=sizes, decisions=decisions, depth=int(depths[0]),
        widest=max(len(moves) for moves in actions), actions=actions, outcomes=outcomes,
        hands=([h for h, _ in dealt[0]], [h for h, _ in dealt[1]]),
        chances=([c for _, c in dealt[0]], [c for _, c in dealt[1]]),
    )  # fmt: skip


@attrs.frozen(eq=False)
class Settled:
    """The calls' payoffs, by class of hands: the hands of a seat whose payoffs at a call
    are the same against every hand of the other (with perudo's kinds, those holding as
    many of the bid's face) are one class there, so a call is valued against the other
    seat's reach summed by class, not hand by hand.

    Attributes:
        classes: Each seat's class of each hand at each call (call x hand).
        table: Seat 0's payoff at each call, by class of seat 0's hand and of seat 1's.
        chances: Each seat's chance of each hand.
    """

    classes: tuple[np.ndarray, np.ndarray]
    table: np.ndarray
    chances: tuple[np.ndarray, np.ndarray]

    @classmethod
    def of(
        cls, low: np.ndarray, chances: tuple[list[Any], list[Any]], *, by_class: bool = True
    ) -> Settled:
        """From each call's payoffs times the chance of the deal (exact: call x seat 0's
        hand x seat 1's); without ``by_class``, each hand a class of its own (the same
        values, in the order a walked round's CFR+ adds them up: where regrets tie
        exactly, the order of the sums decides which moves a CFR+ iteration favours)."""
        calls, n0, n1 = low.shape
        classes = np.zeros((calls, n0), dtype=np.int64), np.zeros((calls, n1), dtype=np.int64)
        tables = []
        for o in range(calls):
            payoff = [
                [low[o, x, y] / (chances[0][x] * chances[1][y]) for y in range(n1)]
                for x in range(n0)
            ]
            rows: dict[tuple[Any, ...], int] = {}
            for x in range(n0):
                row = tuple(payoff[x]) if by_class else (x,)
                classes[0][o, x] = rows.setdefault(row, len(rows))
            columns: dict[tuple[Any, ...], int] = {}
            for y in range(n1):
                column = tuple(payoff[x][y] for x in range(n0)) if by_class else (y,)
                classes[1][o, y] = columns.setdefault(column, len(columns))
            table = np.zeros((len(rows), len(columns)))
            for x in range(n0):
                for y in range(n1):
                    table[classes[0][o, x], classes[1][o, y]] = float(payoff[x][y])
            tables.append(table)
        k0 = max(table.shape[0] for table in tables)
        k1 = max(table.shape[1] for table in tables)
        padded = np.zeros((calls, k0, k1))
        for o, table in enumerate(tables):
            padded[o, : table.shape[0], : table.shape[1]] = table
        return cls(
            classes=classes,
            table=padded,
            chances=(
                np.array([float(c) for c in chances[0]]),
                np.array([float(c) for c in chances[1]]),
            ),
        )


# The modes of a walk of the tree: a CFR+ iteration of seat ``me``, a best response of
# ``me`` against the other seat's average, and both seats playing their averages.
_UPDATE, _BEST, _AVERAGE = 0, 1, 2


@_jit
def _strategy(table: Any, base: int, k: int, hands: int, average: bool, out: Any) -> None:
    """The probabilities of a decision's ``k`` edges from ``base``, for every hand: regret
    matching on regrets, or the average from its sums (uniform where none is positive)."""
    for h in range(hands):
        total = 0.0
        for j in range(k):
            x = table[base + j, h]
            if average or x > 0.0:
                total += x
        for j in range(k):
            x = table[base + j, h]
            if total > 0.0:
                out[j, h] = x / total if (average or x > 0.0) else 0.0
            else:
                out[j, h] = 1.0 / k


@_jit
def _settled(
    o: int, me: int, classes0: Any, classes1: Any, table: Any, chance0: Any, chance1: Any,
    reach0: Any, reach1: Any, out: Any, by_class: Any,
) -> None:  # fmt: skip
    """Seat ``me``'s counterfactual value of each hand at the call of outcome ``o``."""
    if me == 0:
        _against(classes0[o], classes1[o], table[o], chance0, chance1, reach1, 1.0, out,
                 by_class)  # fmt: skip
    else:
        _against(classes1[o], classes0[o], table[o].T, chance1, chance0, reach0, -1.0, out,
                 by_class)  # fmt: skip


@_jit
def _against(
    mine: Any, theirs: Any, table: Any, my_chance: Any, their_chance: Any, reach: Any,
    sign: float, out: Any, by_class: Any,
) -> None:  # fmt: skip
    """A call's value to each of a seat's hands: the other seat's ``reach`` summed by class
    of its hands (the hands that settle alike), then each of the seat's classes' payoff
    (``table``: its class by theirs; ``sign``: seat 0's payoff is the seat's, or minus)
    against those sums."""
    by_class[: table.shape[1]] = 0.0
    for y in range(their_chance.shape[0]):
        by_class[theirs[y]] += their_chance[y] * reach[y]
    for x in range(my_chance.shape[0]):
        acc = 0.0
        row = mine[x]
        for k in range(table.shape[1]):
            acc += table[row, k] * by_class[k]
        out[x] = sign * my_chance[x] * acc


@numba.njit(cache=True, error_model="numpy", parallel=True)
def _walk(
    me: int, mode: int, weight: float, depth: int, widest: int, seats: Any, firsts: Any,
    children: Any, sizes: Any, classes0: Any, classes1: Any, table: Any, chance0: Any,
    chance1: Any, regrets0: Any, regrets1: Any, sums0: Any, sums1: Any, groups: Any,
) -> float:  # fmt: skip
    """One walk of the whole tree: the first decision's moves shared among the threads
    (``groups``: each thread's moves, -1 after the last), each move's subtree walked by
    :func:`_subtree`, then the first decision's own value and update. Seat ``me``'s value
    (seat 0's payoff for seat 0, the negative for seat 1), chance included; the same, to
    the last bit, whatever the threads."""
    h0, h1 = regrets0.shape[1], regrets1.shape[1]
    hands = max(h0, h1)
    hme = h0 if me == 0 else h1
    reach0 = np.ones((2, h0))
    reach1 = np.ones((2, h1))
    values = np.zeros((2, hands))
    edge_values = np.zeros((2, widest, hands))
    sigma = np.zeros((2, widest, hands))
    nodes = np.zeros(2, dtype=np.int64)
    moves = np.zeros(2, dtype=np.int64)
    bases = np.zeros(2, dtype=np.int64)
    next0 = np.zeros(2, dtype=np.int64)
    next1 = np.zeros(2, dtype=np.int64)
    _enter(0, 0, 0, 0, me, mode, seats, firsts, regrets0, regrets1, sums0, sums1, reach0,
           reach1, values, sigma, nodes, moves, bases, next0, next1)  # fmt: skip
    s = seats[0]
    k = firsts[1]
    best = s == me and mode == _BEST
    starts = np.zeros((k, 2), dtype=np.int64)  # where each move's subtree's edges start
    c0, c1 = next0[0], next1[0]
    for j in range(k):
        starts[j, 0], starts[j, 1] = c0, c1
        if children[j] >= 0:
            c0 += sizes[children[j], 0]
            c1 += sizes[children[j], 1]
    moved = np.zeros((k, hands))
    for t in numba.prange(groups.shape[0]):
        start0 = np.ones(h0)
        start1 = np.ones(h1)
        by_class = np.zeros(max(table.shape[1], table.shape[2]))
        for i in range(groups.shape[1]):
            j = groups[t, i]
            if j < 0:
                break
            for h in range(h0):
                start0[h] = sigma[0, j, h] if s == 0 and not best else 1.0
            for h in range(h1):
                start1[h] = sigma[0, j, h] if s == 1 and not best else 1.0
            child = children[j]
            if child < 0:
                _settled(-1 - child, me, classes0, classes1, table, chance0, chance1, start0,
                         start1, moved[j], by_class)  # fmt: skip
            else:
                _subtree(child, starts[j, 0], starts[j, 1], start0, start1, me, mode, weight,
                         depth, widest, seats, firsts, children, sizes, classes0, classes1,
                         table, chance0, chance1, regrets0, regrets1, sums0, sums1,
                         moved[j])  # fmt: skip
    for j in range(k):
        for h in range(hme):
            if s == me:
                edge_values[0, j, h] = moved[j, h]
            else:
                values[0, h] += moved[j, h]
    _leave(0, me, mode, weight, k, s, bases[0], regrets0, regrets1, sums0, sums1, reach0,
           reach1, values, edge_values, sigma, hme)  # fmt: skip
    total = 0.0
    for h in range(hme):
        total += values[0, h]
    return total


@_jit
def _subtree(
    root: int, b0: int, b1: int, start0: Any, start1: Any, me: int, mode: int, weight: float,
    depth: int, widest: int, seats: Any, firsts: Any, children: Any, sizes: Any,
    classes0: Any, classes1: Any, table: Any, chance0: Any, chance1: Any, regrets0: Any,
    regrets1: Any, sums0: Any, sums1: Any, out: Any,
) -> None:  # fmt: skip
    """One depth-first walk of the tree under ``root`` (its seats' edges numbered from
    ``b0`` and ``b1``, reached with each seat's reach ``start0`` and ``start1``), a frame
    per depth (numba's cache does not keep recursive functions safely): seat ``me``'s
    counterfactual value of each hand at each decision (at ``root``'s into ``out``), its
    regrets and sums updated where ``mode`` is an iteration's."""
    h0, h1 = regrets0.shape[1], regrets1.shape[1]
    hands = max(h0, h1)
    hme = h0 if me == 0 else h1
    rows = depth + 2
    reach0 = np.ones((rows, h0))
    reach1 = np.ones((rows, h1))
    reach0[0] = start0
    reach1[0] = start1
    values = np.zeros((rows, hands))
    edge_values = np.zeros((rows, widest, hands))
    sigma = np.zeros((rows, widest, hands))
    by_class = np.zeros(max(table.shape[1], table.shape[2]))
    nodes = np.zeros(rows, dtype=np.int64)
    moves = np.zeros(rows, dtype=np.int64)  # each frame's next move
    bases = np.zeros(rows, dtype=np.int64)  # each frame's first edge, of its seat
    next0 = np.zeros(rows, dtype=np.int64)  # where each frame's next child's edges start
    next1 = np.zeros(rows, dtype=np.int64)
    d = 0
    if not _enter(root, 0, b0, b1, me, mode, seats, firsts, regrets0, regrets1, sums0, sums1,
                  reach0, reach1, values, sigma, nodes, moves, bases, next0, next1):  # fmt: skip
        out[:hme] = 0.0
        return
    while True:
        node = nodes[d]
        a = firsts[node]
        k = firsts[node + 1] - a
        j = moves[d]
        if j < k:  # the next move: its child's value into row d + 1
            s = seats[node]
            best = s == me and mode == _BEST
            for h in range(h0):
                p = sigma[d, j, h] if s == 0 and not best else 1.0
                reach0[d + 1, h] = reach0[d, h] * p
            for h in range(h1):
                p = sigma[d, j, h] if s == 1 and not best else 1.0
                reach1[d + 1, h] = reach1[d, h] * p
            child = children[a + j]
            if child < 0:
                _settled(-1 - child, me, classes0, classes1, table, chance0, chance1,
                         reach0[d + 1], reach1[d + 1], values[d + 1], by_class)  # fmt: skip
            else:
                c0, c1 = next0[d], next1[d]
                next0[d] += sizes[child, 0]
                next1[d] += sizes[child, 1]
                if _enter(child, d + 1, c0, c1, me, mode, seats, firsts, regrets0, regrets1,
                          sums0, sums1, reach0, reach1, values, sigma, nodes, moves, bases,
                          next0, next1):  # fmt: skip
                    d += 1
                    continue
        else:  # every move's value is in: the decision's, and its update
            _leave(d, me, mode, weight, k, seats[node], bases[d], regrets0, regrets1, sums0,
                   sums1, reach0, reach1, values, edge_values, sigma, hme)  # fmt: skip
            if d == 0:
                out[:hme] = values[0, :hme]
                return
            d -= 1
            node = nodes[d]
            j = moves[d]
        # the value of move j of the frame at depth d is in row d + 1
        if seats[node] == me:
            for h in range(hme):
                edge_values[d, j, h] = values[d + 1, h]
        else:
            for h in range(hme):
                values[d, h] += values[d + 1, h]
        moves[d] = j + 1


@_jit
def _enter(
    node: int, d: int, b0: int, b1: int, me: int, mode: int, seats: Any, firsts: Any,
    regrets0: Any, regrets1: Any, sums0: Any, sums1: Any, reach0: Any, reach1: Any,
    values: Any, sigma: Any, nodes: Any, moves: Any, bases: Any, next0: Any, next1: Any,
) -> bool:  # fmt: skip
    """Start the frame of ``node`` at depth ``d`` (its seats' edges numbered from ``b0``
    and ``b1``): its seat's strategy there; False, with a value of 0, where nobody's play
    gets there (nothing to value, learn or add)."""
    me_reach = reach0[d] if me == 0 else reach1[d]
    other = reach1[d] if me == 0 else reach0[d]
    hme = me_reach.shape[0]
    if not other.any() and (mode != _UPDATE or not me_reach.any()):
        for h in range(hme):
            values[d, h] = 0.0
        return False
    s = seats[node]
    k = firsts[node + 1] - firsts[node]
    base = b0 if s == 0 else b1
    hs = reach0.shape[1] if s == 0 else reach1.shape[1]
    if mode == _UPDATE:
        _strategy(regrets0 if s == 0 else regrets1, base, k, hs, False, sigma[d])
    elif not (s == me and mode == _BEST):
        _strategy(sums0 if s == 0 else sums1, base, k, hs, True, sigma[d])
    for h in range(hme):
        values[d, h] = 0.0
    nodes[d] = node
    moves[d] = 0
    bases[d] = base
    next0[d] = b0 + k if s == 0 else b0
    next1[d] = b1 + k if s == 1 else b1
    return True


@_jit
def _leave(
    d: int, me: int, mode: int, weight: float, k: int, s: int, base: int, regrets0: Any,
    regrets1: Any, sums0: Any, sums1: Any, reach0: Any, reach1: Any, values: Any,
    edge_values: Any, sigma: Any, hme: int,
) -> None:  # fmt: skip
    """End the frame at depth ``d``: at a decision of ``me``, its value from its moves'
    (the best one's in a best response), and in an iteration its regrets and sums."""
    if s != me:
        return
    for h in range(hme):
        v = -np.inf if mode == _BEST else 0.0
        for j in range(k):
            if mode == _BEST:
                v = max(v, edge_values[d, j, h])
            else:
                v += sigma[d, j, h] * edge_values[d, j, h]
        values[d, h] = v
    if mode != _UPDATE:
        return
    regrets = regrets0 if me == 0 else regrets1
    sums = sums0 if me == 0 else sums1
    own = reach0 if me == 0 else reach1
    for j in range(k):
        for h in range(hme):
            r = regrets[base + j, h] + edge_values[d, j, h] - values[d, h]
            regrets[base + j, h] = r if r > 0.0 else 0.0
            sums[base + j, h] += weight * own[d, h] * sigma[d, j, h]


@attrs.define(eq=False)
class PublicRegrets:
    """CFR+ on a round's public graph (:func:`graph`): each seat's regrets and the sums of
    its average strategy (float32, one row per edge of the tree, one column per hand), and
    the iterations run. Its iterations are :class:`~perudo.solve.cfr.Regrets`'."""

    graph: Graph
    payoff: Settled
    regrets: tuple[np.ndarray, np.ndarray]
    sums: tuple[np.ndarray, np.ndarray]
    groups: np.ndarray  # the first decision's moves, by thread (:meth:`Graph.shared`)
    iterations: int = 0

    @classmethod
    def of(
        cls, graph: Graph, value: Callable[[GameState], Any], memory: int | None
    ) -> PublicRegrets:
        """CFR+ ready to run on ``graph``, each call settled by ``value`` (as
        :meth:`~perudo.solve.tree.Round.settle`); refused past ``memory`` bytes (by default
        what the machine has free)."""
        fits(
            graph.start, graph.memory, memory, "approximate",
            f"{int(graph.decisions[0].sum()):,} decisions, {sum(graph.edges):,} edges, "
            f"{len(graph.hands[0])} x {len(graph.hands[1])} hands: about "
            f"{gib(graph.memory)} for CFR+",
        )  # fmt: skip
        low = settle(graph.outcomes, graph.hands, graph.chances, value).low
        shapes = [(graph.edges[seat], len(graph.hands[seat])) for seat in (0, 1)]
        return cls(
            graph=graph,
            payoff=Settled.of(low, graph.chances),
            regrets=(np.zeros(shapes[0], np.float32), np.zeros(shapes[1], np.float32)),
            sums=(np.zeros(shapes[0], np.float32), np.zeros(shapes[1], np.float32)),
            groups=graph.shared(numba.get_num_threads()),
        )

    def _walk(self, me: int, mode: int, weight: float = 0.0) -> float:
        g = self.graph
        p = self.payoff
        result: float = _walk(
            me, mode, weight, g.depth, g.widest, g.seats, g.firsts, g.children, g.sizes,
            p.classes[0], p.classes[1], p.table, p.chances[0], p.chances[1], self.regrets[0],
            self.regrets[1], self.sums[0], self.sums[1], self.groups,
        )  # fmt: skip
        return result

    def run(self, count: int) -> None:
        """``count`` more iterations (alternating: seat 0, then seat 1 against seat 0's
        new strategy)."""
        for t in range(self.iterations, self.iterations + count):
            self._walk(0, _UPDATE, float(t + 1))
            self._walk(1, _UPDATE, float(t + 1))
        self.iterations += count

    def gains(self) -> tuple[float, float, float]:
        """Seat 0's best response's payoff against seat 1's average strategy, seat 1's
        against seat 0's (each in its own payoff), and seat 0's payoff when both play
        their averages."""
        return self._walk(0, _BEST), self._walk(1, _BEST), self._walk(0, _AVERAGE)

    def exploitability(self) -> float:
        """The average strategies' exploitability (OpenSpiel's: the mean of the two best
        responses' gains; 0 at an equilibrium)."""
        return (self._walk(0, _BEST) + self._walk(1, _BEST)) / 2

    def strategy(self, view: PlayerView) -> Mapping[Action, float] | None:
        """The average strategy's probability of each action at ``view``'s decision, if
        the round has it."""
        found = self.graph.place(view)
        if found is None:
            return None
        node, base, hand = found
        moves = self.graph.actions[node]
        sums = self.sums[int(self.graph.seats[node])][base : base + len(moves), hand]
        total = float(sums.sum(dtype=np.float64))
        if total <= 0.0:
            return dict.fromkeys(moves, 1.0 / len(moves))
        return {move: float(x) / total for move, x in zip(moves, sums, strict=True)}
