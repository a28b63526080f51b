"""Exact best responses, in fractions: what a strategy guarantees against every reply, the
proof of a value, and the moves a reply gains by that a double oracle's sub-round lacks."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from perudo.solve.tree import Round, Seat, Strategy


def best_response(
    round_: Round,
    payoffs: np.ndarray,
    strategy: Strategy,
    *,
    responder: int,
    held: np.ndarray | None = None,
    tolerance: float = 0.0,
) -> tuple[Fraction, np.ndarray]:
    """Seat 0's payoff when seat ``1 - responder`` plays ``strategy`` and ``responder``
    best responds (minimising seat 0's payoff if it is seat 1), in exact fractions; and the
    responder's (edge, hand) pairs outside ``held`` (a mask of its edges by hands) that gain
    strictly more than every held edge of their decision with that hand (where it holds
    some), one row each.

    With ``payoffs`` and ``strategy`` in floats, the same in floats (a screen, never a
    proof; the payoff the float's fraction), a pair gaining only where it gains more than
    ``tolerance``."""
    kind = payoffs.dtype
    reach, live = reached(round_.seats[1 - responder], strategy, kind)
    ones = np.ones(reach.shape[1], dtype=kind)
    me = round_.seats[responder]
    m = len(me.hands)
    value = np.zeros((me.edges, m), dtype=kind)
    touched = np.zeros(me.edges, dtype=bool)
    root = Fraction(0) if kind.kind == "O" else 0.0
    for e0, e1, outcome in round_.ends:
        theirs, mine = (e1, e0) if responder == 0 else (e0, e1)
        if theirs >= 0 and not live[theirs]:
            continue
        r = ones if theirs < 0 else reach[theirs]
        gain = r @ payoffs[outcome] if responder == 1 else payoffs[outcome] @ r
        if mine < 0:
            root += sum(gain)
        else:
            value[mine] += gain
            touched[mine] = True
    best = np.max if responder == 0 else np.min
    worst = -_INFINITY if responder == 0 else _INFINITY  # the sentinel of an unheld move
    better = np.greater if responder == 0 else np.less
    pick = np.argmax if responder == 0 else np.argmin
    gaining: list[tuple[int, int]] = []
    allowed = me.allowed()
    for decision in range(len(me.parents) - 1, -1, -1):  # children before parents
        first = me.firsts[decision]
        size = len(me.actions[decision])
        if not touched[first : first + size].any():
            continue
        rows = value[first : first + size]
        legal = None if allowed is None else allowed[first : first + size]
        if legal is not None:  # a move illegal with a hand is never its best
            rows = np.where(legal, rows, worst)
        chosen = best(rows, axis=0)
        if held is not None:
            mask = held[first : first + size]
            unheld = ~mask if legal is None else ~mask & legal
            some = mask.any(axis=0) & unheld.any(axis=0)
            if some.any():
                inside = best(np.where(mask, rows, worst), axis=0)
                outside = np.where(mask, worst, rows)
                margin = inside  # exact: a fraction plus a float 0.0 would be a float
                if tolerance:
                    margin = inside + tolerance if responder == 0 else inside - tolerance
                for hand in np.flatnonzero(some & better(chosen, margin).astype(bool)).tolist():
                    gaining.append((first + int(pick(outside[:, hand])), hand))
        parent = me.parents[decision]
        if parent < 0:
            root += sum(chosen)
        else:
            value[parent] += chosen
            touched[parent] = True
    return Fraction(root), np.array(gaining, dtype=np.int64).reshape(-1, 2)


def reached(side: Seat, strategy: Strategy, kind: np.dtype[Any]) -> tuple[np.ndarray, np.ndarray]:
    """The chance that ``side``, playing ``strategy``, makes each of its moves with each
    hand (its own moves only: one row per edge, in ``kind``, floats or fractions), and
    whether it makes each with some hand."""
    n = len(side.hands)
    reach = np.zeros((side.edges, n), dtype=kind)
    live = np.zeros(side.edges, dtype=bool)
    ones = np.ones(n, dtype=kind)
    for decision, parent in enumerate(side.parents):
        if parent >= 0 and not live[parent]:
            continue
        before = ones if parent < 0 else reach[parent]
        first = side.firsts[decision]
        for hand in range(n):
            if before[hand]:
                chosen = side.probabilities(strategy, decision, hand)
                for k, p in enumerate(chosen):
                    if p:
                        reach[first + k, hand] = before[hand] * p
                        live[first + k] = True
    return reach, live


_INFINITY = float("inf")
