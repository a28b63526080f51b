"""Small games solved exactly: the value of a round, or of a whole game, between two players,
and the strategies that reach it.

Needs the extra ``perudo[solve]`` (SciPy, whose HiGHS solves the linear program). The game
is read from the engine itself, so any declared rule set solves, registered kinds included.
A round is walked once, with :class:`~perudo.GameState`'s own legal moves (a rule kind sees
the :class:`~perudo.rules.RoundContext`, never a die, so what is legal never depends on the
hands); every call then settles with the engine for every deal of the dice (each sorted
hand with its chance). A player knows its own hand and every move made; the sequence form
of the game (von Stengel's) is a linear program whose solution is an equilibrium.

The value is **proven**, never a float: the equilibrium the solver found is made exact
(each probability a :class:`~fractions.Fraction`), and each side's exact best response is
computed in fractions. What seat 0's strategy guarantees against every reply is a lower
bound of the value, what seat 1's concedes an upper bound; when both are the same number,
:attr:`Solution.exact` is true.

In a round (:func:`solve_round`) the payoff to seat 0 is its change of dice minus seat 1's
where calls move dice (a die lost by seat 1 is +1, losing the difference counts the
difference), or the points it receives where calls move points. In a game
(:func:`solve_game`) it is +1 for a win and -1 for a loss (a shared win 0), and each round
is solved with the values of the rounds it leads to. Bids above the dice in play are left
out where the edition has no cap: they are certainly false
(:meth:`~perudo.GameState.legal_actions` lists bids up to the dice in play).

>>> from perudo.solve import solve_round
>>> solution = solve_round("openspiel-liars-dice", dice=(1, 1))  # doctest: +SKIP
>>> solution.value, solution.exact  # doctest: +SKIP
(Fraction(-7, 258), True)
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import math
import random
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, TypeVar

import attrs

try:
    import numpy as np
    from scipy import sparse
    from scipy.optimize import linprog
except ImportError as error:  # pragma: no cover - depends on what is installed
    from perudo.errors import install_hint

    raise ImportError(f"perudo.solve needs {error.name}: {install_hint('solve')}") from error

from perudo.actions import Action, Bid, Calza, Declare, HandBid, Paso
from perudo.errors import SolveError, shown
from perudo.loader import load_variant
from perudo.setup import new_game
from perudo.state import GameState
from perudo.variant import Variant
from perudo.view import PlayerView

T = TypeVar("T")

__all__ = [
    "MAX_NODES",
    "Solution",
    "SolutionBot",
    "SolveError",
    "deals",
    "exploitability",
    "solve_game",
    "solve_round",
]

#: The most positions a round solved may have, counted as its calls (each ending a history
#: of bids) times the deals of the dice. A round past it is refused with a
#: :class:`~perudo.SolveError` naming it, before memory runs out (each position is a
#: coefficient of the linear program).
MAX_NODES = 40_000_000

Hand = tuple[int, ...]

#: Where a decision is in its round, as every player sees it: the declarations still
#: offered, the special round declared, and the bids with who made them (and what each claims).
Public = tuple[tuple[str, ...], bool, "str | None", tuple[tuple[int, str, str], ...]]

#: Each decision's action probabilities, by (decision, hand); a decision missing is played
#: uniformly (the seat's own strategy never reaches it).
Strategy = dict[tuple[int, int], tuple[Fraction, ...]]

#: Which round of a game a position is in, as a player sees it: each seat's dice and score,
#: and the seat that opened the round.
Table = tuple[tuple[int, ...], tuple[int, ...], int]


def _public(facts: GameState | PlayerView) -> Public:
    """Where ``facts`` (a state or a view) is in its round (the one place the key is made)."""
    bids = tuple((placed.player, str(placed.bid), placed.claim) for placed in facts.bids)
    return facts.offers, facts.must_declare, facts.special_round, bids


def _table(counts: Sequence[int], scores: Sequence[int], facts: GameState | PlayerView) -> Table:
    """Which round of a game ``facts`` is in (the one place the key is made)."""
    bids = facts.bids
    opener = bids[0].player if bids else facts.to_act
    assert opener is not None
    return tuple(counts), tuple(scores), opener


def _state_table(state: GameState) -> Table:
    players = state.players
    return _table([len(p.dice) for p in players], [p.score for p in players], state)


def _view_table(view: PlayerView) -> Table:
    seats = view.seats
    return _table([s.dice_count for s in seats], [s.score for s in seats], view)


def deals(dice: int, faces: int) -> list[tuple[Hand, Fraction]]:
    """Every sorted hand of ``dice`` dice of ``faces`` faces, with its chance.

    >>> deals(2, 2)
    [((1, 1), Fraction(1, 4)), ((1, 2), Fraction(1, 2)), ((2, 2), Fraction(1, 4))]
    """
    hands = []
    for hand in itertools.combinations_with_replacement(range(1, faces + 1), dice):
        ways = math.factorial(dice)
        for face in set(hand):
            ways //= math.factorial(hand.count(face))
        hands.append((hand, Fraction(ways, faces**dice)))
    return hands


@attrs.define(eq=False)
class _Seat:
    """One seat's decisions in a round, the same for each of its hands. The seat's sequence
    of (edge ``e``, hand ``h``) is number ``1 + e * len(hands) + h``; 0 is the empty one."""

    hands: list[Hand]
    chances: list[Fraction]
    parents: list[int] = attrs.field(factory=list)  # each decision's edge before it, or -1
    firsts: list[int] = attrs.field(factory=list)  # each decision's first edge
    actions: list[tuple[Action, ...]] = attrs.field(factory=list)
    states: list[GameState] | None = None  # a position of each decision, where kept
    edges: int = 0

    @classmethod
    def dealt(cls, dice: int, faces: int) -> _Seat:
        """A seat holding ``dice`` dice, with every hand it may be dealt."""
        hands = deals(dice, faces)
        return cls([hand for hand, _ in hands], [chance for _, chance in hands])

    def decide(self, parent: int, actions: tuple[Action, ...], state: GameState) -> int:
        """Add a decision; its number."""
        self.parents.append(parent)
        self.firsts.append(self.edges)
        self.actions.append(actions)
        if self.states is not None:
            self.states.append(state)
        self.edges += len(actions)
        return len(self.firsts) - 1

    @property
    def sequences(self) -> int:
        return 1 + self.edges * len(self.hands)

    def numbers(self, edges: np.ndarray) -> np.ndarray:
        """The sequence numbers of ``edges`` (-1 for the empty one) for every hand: one row
        per edge."""
        n = len(self.hands)
        return np.where(edges[:, None] < 0, 0, 1 + edges[:, None] * n + np.arange(n))

    def probabilities(self, strategy: Strategy, decision: int, hand: int) -> tuple[Fraction, ...]:
        found = strategy.get((decision, hand))
        if found is None:
            n = len(self.actions[decision])
            return (Fraction(1, n),) * n
        return found


@attrs.define(eq=False)
class _Round:
    """A round as both seats' decisions, every call that ends it (each seat's last edge and
    the call's outcome), and for each outcome a position before the call and the call (the
    calls that settle alike for every deal share one)."""

    start: GameState
    seats: tuple[_Seat, _Seat]
    decisions: dict[Public, tuple[int, int]]
    ends: np.ndarray  # one row per call: seat 0's last edge, seat 1's, the outcome
    outcomes: list[tuple[GameState, Action]]

    @property
    def infosets(self) -> int:
        return sum(len(seat.firsts) * len(seat.hands) for seat in self.seats)

    def settle(self, value: Callable[[GameState], tuple[Fraction, Fraction]]) -> _Payoffs:
        """Each outcome's payoff to seat 0 for every deal (chance included), as proven
        bounds: ``value`` gives them for the position after the call."""
        hands0, hands1 = self.seats[0].hands, self.seats[1].hands
        chance = np.array(
            [[c0 * c1 for c1 in self.seats[1].chances] for c0 in self.seats[0].chances],
            dtype=object,
        )
        low = np.empty((len(self.outcomes), len(hands0), len(hands1)), dtype=object)
        high = np.empty_like(low)
        for index, (state, action) in enumerate(self.outcomes):
            for i, j in itertools.product(range(len(hands0)), range(len(hands1))):
                after = _dealt(state, (hands0[i], hands1[j])).apply(action)
                low[index, i, j], high[index, i, j] = value(after)
            low[index] *= chance
            high[index] *= chance
        return _Payoffs(low, high)


@attrs.frozen(eq=False)
class _Payoffs:
    """Each outcome's payoff to seat 0 by deal (seat 0's hand, seat 1's), times its chance:
    the lowest and the highest it may be (the same in a round)."""

    low: np.ndarray
    high: np.ndarray


def _dealt(state: GameState, hands: tuple[Hand, Hand]) -> GameState:
    """``state`` with the two seats holding ``hands``."""
    players = tuple(
        attrs.evolve(player, dice=hand) for player, hand in zip(state.players, hands, strict=True)
    )
    return attrs.evolve(state, players=players)


def _name(state: GameState) -> str:
    counts = [len(p.dice) for p in state.players]
    special = f", a {state.special_round} round" if state.special_round else ""
    offered = f", {' or '.join(state.offers)} to declare" if state.offers else ""
    return (
        f"the {counts[0]}v{counts[1]} round of {state.variant.name} (seat {state.to_act} "
        f"opening{special}{offered})"
    )


def _walk(start: GameState, limit: int, *, positions: bool = False) -> _Round:
    """Every decision and call of the round from ``start``, with the engine's legal moves
    (and a position of each decision, with ``positions``)."""
    variant = start.variant
    faces = variant.dice.faces
    counts = [len(player.dice) for player in start.players]
    seats = (_Seat.dealt(counts[0], faces), _Seat.dealt(counts[1], faces))
    if positions:
        for seat in seats:
            seat.states = []
    per_call = len(seats[0].hands) * len(seats[1].hands)
    _check_size(start, per_call, limit)
    decisions: dict[Public, tuple[int, int]] = {}
    ends: list[tuple[int, int, int]] = []
    outcomes: list[tuple[GameState, Action]] = []
    settled: dict[Any, int] = {}
    whole = bool(variant.user_kinds)  # a registered kind may read the whole round
    out_of_turn = variant.has_out_of_turn
    # the moves that go on with the round: bids (of a quantity or a hand), declarations, a
    # pass, an exact claim (a Bull)
    going_on: tuple[type, ...] = (Bid, HandBid, Declare, Paso)
    if variant.claims_in_chain:
        going_on += (Calza,)

    def visit(state: GameState, last: tuple[int, int]) -> None:
        seat = state.to_act
        assert seat is not None
        if out_of_turn and state.legal_actions(by=1 - seat):
            raise SolveError(
                f"in {_name(start)} seat {1 - seat} may act out of turn, which the solver does "
                "not follow (it solves games of alternating turns)"
            )
        actions = state.legal_actions()
        side = seats[seat]
        decision = side.decide(last[seat], actions, state)
        decisions[_public(state)] = (seat, decision)
        first = side.firsts[decision]
        for k, action in enumerate(actions):
            mine = (first + k, last[1]) if seat == 0 else (last[0], first + k)
            if isinstance(action, going_on):
                visit(state.apply(action), mine)
                continue
            key = _call_key(state, action, whole)
            outcome = settled.get(key)
            if outcome is None:
                outcome = settled[key] = len(outcomes)
                outcomes.append((state, action))
            ends.append((*mine, outcome))
            if len(ends) * per_call > limit:
                raise SolveError(
                    f"{_name(start)} is too big to solve: more than {limit:,} positions"
                )

    visit(start, (-1, -1))
    return _Round(
        start=start,
        seats=seats,
        decisions=decisions,
        ends=np.array(ends, dtype=np.int64).reshape(-1, 3),
        outcomes=outcomes,
    )


def _call_key(state: GameState, action: Action, whole: bool) -> Any:
    """What a call's outcome depends on besides the hands: the call, its caller, the
    standing bid, the wild face at the call, the round's rules and the seats' standing (with
    perudo's own kinds; a registered kind's may depend on every bid of the round)."""
    context = state.context
    key = (
        action, state.to_act, state.pressured, context.bids[-1], context.wild, state.rules,
        state.special_round, _standing(state),
    )  # fmt: skip
    return (key, context.bids) if whole else key


def _check_size(start: GameState, per_call: int, limit: int) -> None:
    """Refuse at once a round certainly past ``limit`` positions: its deals times the bid
    histories of one deal, counted as the subsets of the bids open at the opening (each bid
    raises the one before); the walk stops any other past it."""
    bids = sum(1 for action in start.legal_actions() if isinstance(action, (Bid, HandBid)))
    if bids > 60 or per_call * 2**bids > limit:
        raise SolveError(
            f"{_name(start)} is too big to solve: {per_call:,} deals of up to 2^{bids} bid "
            f"histories each, past the {limit:,} positions a solution may hold"
        )


# --- the linear program -------------------------------------------------------------------


def _payoff_matrix(round_: _Round, payoffs: np.ndarray) -> Any:
    """Seat 0's payoff (chance included) at each pair of sequences, as a sparse matrix
    (seat 0's sequences by seat 1's)."""
    seats = round_.seats
    ends = round_.ends
    rows = seats[0].numbers(ends[:, 0])  # calls x hands of seat 0
    cols = seats[1].numbers(ends[:, 1])
    values = payoffs.astype(np.float64)[ends[:, 2]]  # calls x hands0 x hands1
    shape = values.shape
    r = np.broadcast_to(rows[:, :, None], shape).ravel()
    c = np.broadcast_to(cols[:, None, :], shape).ravel()
    matrix = sparse.coo_matrix(
        (values.ravel(), (r, c)), shape=(seats[0].sequences, seats[1].sequences)
    )
    return matrix.tocsr()


def _constraints(seat: _Seat) -> Any:
    """The sequence-form constraints of ``seat``: the empty sequence is 1, and each
    information state's sequences sum to the one before it."""
    n = len(seat.hands)
    hands = np.arange(n)
    parents = np.array(seat.parents, dtype=np.int64)
    decisions = np.arange(len(parents))
    firsts = np.array(seat.firsts, dtype=np.int64)
    sizes = np.diff(np.append(firsts, seat.edges))
    owner = np.repeat(decisions, sizes)  # each edge's decision
    info_rows = 1 + decisions[:, None] * n + hands  # one row per (decision, hand)
    parent_cols = seat.numbers(parents)
    edge_rows = 1 + owner[:, None] * n + hands
    edge_cols = seat.numbers(np.arange(seat.edges))
    rows = np.concatenate([[0], info_rows.ravel(), edge_rows.ravel()])
    cols = np.concatenate([[0], parent_cols.ravel(), edge_cols.ravel()])
    values = np.concatenate([[1.0], -np.ones(info_rows.size), np.ones(edge_rows.size)])
    shape = (1 + len(parents) * n, seat.sequences)
    return sparse.csr_matrix((values, (rows, cols)), shape=shape)


#: HiGHS's feasibility tolerances, tighter than its defaults (1e-7): the closer the floats,
#: the more often their nearest small fractions are the exact equilibrium.
_TOLERANCES = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}


def _plans(round_: _Round, matrix: Any) -> tuple[np.ndarray, np.ndarray]:
    """Both seats' realization plans at an equilibrium, from one linear program: the
    sequence form's max_x f'q s.t. F'q <= A'x for the seat with fewer sequences (seat 1
    maximises minus seat 0's payoff), whose dual is the other seat's plan (von Stengel).
    Dual simplex, so the dual is a vertex too: its probabilities are as exact as the
    primal's."""
    seat = 0 if round_.seats[0].sequences <= round_.seats[1].sequences else 1
    me, other = round_.seats[seat], round_.seats[1 - seat]
    a_t = matrix.T.tocsr() if seat == 0 else -matrix  # theirs x mine
    e, f = _constraints(me), _constraints(other)
    n_me, n_q = me.sequences, f.shape[0]
    cost = np.zeros(n_me + n_q)
    cost[n_me] = -1.0  # maximise q[0]
    inequality = sparse.hstack([-a_t, f.T]).tocsr()  # F'q - A'x <= 0
    equality = sparse.hstack([e, sparse.csr_matrix((e.shape[0], n_q))]).tocsr()
    b_eq = np.zeros(e.shape[0])
    b_eq[0] = 1.0
    bounds = [(0, None)] * n_me + [(None, None)] * n_q
    result = _interruptible(
        lambda: linprog(
            cost, A_ub=inequality, b_ub=np.zeros(other.sequences), A_eq=equality, b_eq=b_eq,
            bounds=bounds, method="highs-ds", options=_TOLERANCES,
        )
    )  # fmt: skip
    if result.status != 0:  # pragma: no cover - a well-formed sequence form always solves
        raise SolveError(f"the linear program did not solve: {result.message}")
    mine, theirs = np.asarray(result.x[:n_me]), -np.asarray(result.ineqlin.marginals)
    return (mine, theirs) if seat == 0 else (theirs, mine)


def _interruptible(solve: Callable[[], T]) -> T:
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
    worker.start()
    while worker.is_alive():
        worker.join(0.1)
    if failure:
        raise failure[0]
    return answer[0]


def _behaviour(seat: _Seat, plan: np.ndarray, limit: int) -> Strategy:
    """Each reached decision's action probabilities from a realization plan, as exact
    fractions that sum to 1, each the nearest with a denominator up to ``limit``."""
    n = len(seat.hands)
    weights = np.maximum(plan[1:].reshape(seat.edges, n), 0.0)
    parents = np.array(seat.parents, dtype=np.int64)
    firsts = np.array(seat.firsts, dtype=np.int64)
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


def _best_response(
    round_: _Round, payoffs: np.ndarray, strategy: Strategy, *, responder: int
) -> Fraction:
    """Seat 0's payoff when seat ``1 - responder`` plays ``strategy`` and ``responder``
    best responds (minimising seat 0's payoff if it is seat 1), in exact fractions."""
    fixed = round_.seats[1 - responder]
    n = len(fixed.hands)
    reach = np.zeros((fixed.edges, n), dtype=object)
    for decision, parent in enumerate(fixed.parents):
        first = fixed.firsts[decision]
        for hand in range(n):
            before = 1 if parent < 0 else reach[parent, hand]
            if before:
                chosen = fixed.probabilities(strategy, decision, hand)
                for k, p in enumerate(chosen):
                    reach[first + k, hand] = before * p
    me = round_.seats[responder]
    value = np.zeros((me.edges, len(me.hands)), dtype=object)
    root = Fraction(0)
    alive = (reach != 0).any(axis=1)
    ones = np.ones(n, dtype=object)
    for e0, e1, outcome in round_.ends:
        theirs, mine = (e1, e0) if responder == 0 else (e0, e1)
        if theirs >= 0 and not alive[theirs]:
            continue
        r = ones if theirs < 0 else reach[theirs]
        gain = r @ payoffs[outcome] if responder == 1 else payoffs[outcome] @ r
        if mine < 0:
            root += sum(gain)
        else:
            value[mine] += gain
    best = np.max if responder == 0 else np.min
    for decision in range(len(me.parents) - 1, -1, -1):  # children before parents
        first = me.firsts[decision]
        chosen = best(value[first : first + len(me.actions[decision])], axis=0)
        parent = me.parents[decision]
        if parent < 0:
            root += sum(chosen)
        else:
            value[parent] += chosen
    return Fraction(root)


@attrs.frozen(eq=False)
class _Solved:
    """A round solved: its decisions, each seat's strategy and the proven bounds."""

    round: _Round
    strategies: tuple[Strategy, Strategy]
    bounds: tuple[Fraction, Fraction]

    @property
    def start(self) -> GameState:
        return self.round.start

    @property
    def infosets(self) -> int:
        return self.round.infosets

    def find(self, view: PlayerView) -> dict[Action, Fraction] | None:
        """The strategy at ``view``'s decision, if this round has it."""
        where = self.round.decisions.get(_public(view))
        if where is None or where[0] != view.player:
            return None
        seat, decision = where
        side = self.round.seats[seat]
        try:
            hand = side.hands.index(tuple(sorted(view.dice)))
        except ValueError:
            return None
        chosen = side.probabilities(self.strategies[seat], decision, hand)
        return dict(zip(side.actions[decision], chosen, strict=True))


@attrs.frozen(eq=False)
class _Declared:
    """A round that opens with a declaration made before the declarer looks at its dice
    (Italian's Palifico or ordinary round): a choice nobody holds a secret for, so the
    declarer takes the declared round that is best for it, each solved on its own."""

    start: GameState
    options: dict[Action, _Part]

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

    def find(self, view: PlayerView) -> dict[Action, Fraction] | None:
        """The strategy at ``view``'s decision, if this round has it."""
        if view.player == self._declarer and _public(view) == _public(self.start):
            chosen = self.chosen
            return {action: Fraction(action == chosen) for action in self.options}
        for part in self.options.values():
            found = part.find(view)
            if found is not None:
                return found
        return None


_Part = _Solved | _Declared


def _solve_from(
    start: GameState, value: Callable[[GameState], tuple[Fraction, Fraction]], limit: int
) -> _Part:
    """The round from ``start`` solved, ``value`` giving the payoffs after each call."""
    if start.must_declare:  # declared blind, before any die is seen: one round per choice
        options = {
            action: _solve_from(start.apply(action), value, limit)
            for action in start.legal_actions()
        }
        return _Declared(start, options)
    round_ = _walk(start, limit)
    return _solve(round_, round_.settle(value))


def _solve(round_: _Round, payoffs: _Payoffs) -> _Solved:
    """An equilibrium of ``round_`` and its proven bounds: seat 0's strategy against the
    lowest payoffs, seat 1's against the highest."""
    middle = (payoffs.low + payoffs.high) / 2
    matrix = _payoff_matrix(round_, middle)
    plans = _plans(round_, matrix)
    guarantee: tuple[Fraction, Strategy] | None = None  # seat 0's best: what it guarantees
    concession: tuple[Fraction, Strategy] | None = None  # seat 1's best: what it concedes
    for limit in _DENOMINATORS:  # small denominators first; larger where they fall short
        strategy0 = _behaviour(round_.seats[0], plans[0], limit)
        strategy1 = _behaviour(round_.seats[1], plans[1], limit)
        low = _best_response(round_, payoffs.low, strategy0, responder=1)
        high = _best_response(round_, payoffs.high, strategy1, responder=0)
        if guarantee is None or low > guarantee[0]:
            guarantee = low, strategy0
        if concession is None or high < concession[0]:
            concession = high, strategy1
        if guarantee[0] == concession[0]:
            break
    assert guarantee is not None
    assert concession is not None
    return _Solved(round_, (guarantee[1], concession[1]), (guarantee[0], concession[0]))


#: The largest denominators tried, in turn, when the equilibrium's probabilities are made
#: exact: an equilibrium's are small; a round whose continuation values are not needs more.
_DENOMINATORS = (100_000, 10_000_000, 1_000_000_000)


# --- solutions ----------------------------------------------------------------------------


@attrs.frozen(eq=False, repr=False)
class Solution:
    """An exact solution of a round (:func:`solve_round`) or a game (:func:`solve_game`).

    Attributes:
        variant: The edition.
        dice: Each seat's dice at the start.
        opener: The seat that bids first.
        game: Whether the whole game is solved (else one round).
        value: The value for seat 0 (its expected payoff under equilibrium play), proven
            when :attr:`exact` (else the middle of :attr:`bounds`, still a fraction).
        exact: Whether both bounds are the same number.
        bounds: The proven interval of the value: what seat 0's strategy guarantees, and
            what seat 1's concedes.
        infosets: The number of information states of both seats (the decisions the
            solution covers), in every round solved.
        rounds: The number of rounds solved (1 for a round; a game's every reachable round).
        seconds: The time the solution took (building, solving, proving).
    """

    variant: Variant
    dice: tuple[int, int]
    opener: int
    game: bool
    value: Fraction
    exact: bool
    bounds: tuple[Fraction, Fraction]
    infosets: int
    rounds: int
    seconds: float
    _solved: Mapping[Table, _Part | None]  # None: two rounds a view cannot tell apart

    def __repr__(self) -> str:
        low, high = self.bounds
        what = "game" if self.game else "round"
        if self.exact:
            value = f"{self.value} ({float(self.value):.6f}, exact)"
        else:  # the bounds' fractions may be long
            value = f"{float(self.value):.6f} (within {float(high - low):.1e})"
        return (
            f"<Solution {self.variant.key} {self.dice[0]}v{self.dice[1]} {what}, seat "
            f"{self.opener} opens: {value}, {self.infosets} information states>"
        )

    def to_dict(self) -> dict[str, Any]:
        """The solution as JSON-ready data (what ``perudo solve --json`` prints): the value
        and the bounds as fractions in strings (``"-7/258"``), the value as a decimal too."""
        low, high = self.bounds
        return {
            "variant": self.variant.key,
            "dice": list(self.dice),
            "opener": self.opener,
            "game": self.game,
            "value": str(self.value),
            "decimal": float(self.value),
            "exact": self.exact,
            "bounds": [str(low), str(high)],
            "infosets": self.infosets,
            "rounds": self.rounds,
            "seconds": round(self.seconds, 3),
        }

    def strategy(self, view: PlayerView) -> Mapping[Action, Fraction]:
        """The probability of each legal action at the decision of ``view`` (a view of a
        position the solution covers).

        Raises:
            SolveError: the solution does not cover that decision.
        """
        seat = view.player
        found = self._find(view) if seat in (0, 1) and view.to_act == seat else None
        if found is None:
            raise SolveError(f"the solution does not cover this decision of seat {shown(seat)}")
        return found

    def _find(self, view: PlayerView) -> dict[Action, Fraction] | None:
        part = self._solved.get(_view_table(view))
        return None if part is None else part.find(view)

    def bot(self, seed: int | None = None) -> SolutionBot:
        """A bot that plays the solution's strategies (at decisions it covers)."""
        return SolutionBot(self, seed)


class SolutionBot:
    """Plays a :class:`Solution`'s equilibrium strategies, drawing each action with its
    probability from its own seeded generator."""

    def __init__(self, solution: Solution, seed: int | None = None) -> None:
        self.solution = solution
        self.name = "solution"
        self._random = random.Random(seed)

    def act(self, view: PlayerView) -> Action:
        """An action drawn from the solution's strategy at this decision."""
        strategy = self.solution.strategy(view)
        actions = list(strategy)
        weights = [float(strategy[a]) for a in actions]
        return self._random.choices(actions, weights=weights)[0]

    def policy(self, view: PlayerView) -> Mapping[Action, Fraction]:
        """The probability of each legal action."""
        return self.solution.strategy(view)


def solve_round(
    variant: Variant | str,
    dice: Sequence[int] = (1, 1),
    *,
    opener: int = 0,
    max_nodes: int = MAX_NODES,
) -> Solution:
    """One round between two players holding ``dice``, solved exactly as a zero-sum game
    (the payoff to seat 0 as the module documentation says), seat ``opener`` bidding first.
    A round of more than ``max_nodes`` positions (its calls times the deals) is refused.

    Raises:
        SolveError: not two seats, dice the edition does not deal, a round past
            ``max_nodes`` positions, a seat that may act out of turn, or chance inside the
            round (a re-roll).
        InvalidVariantError: a round that never ends (the engine stops a round past the
            bound of its raise order, :attr:`~perudo.rules.RaisingRule.times_per_bid`).
    """
    started = time.perf_counter()
    variant, counts = _checked(variant, dice, opener)
    limit = _checked_limit(max_nodes)
    part = _solve_from(_start(variant, counts, opener, starting=None), _dice_payoff, limit)
    tables = {_state_table(part.start): part}
    return _solution(variant, counts, opener, False, part.bounds, tables, started)


def _dice_payoff(after: GameState) -> tuple[Fraction, Fraction]:
    result = after.last_result
    assert result is not None
    if after.variant.scoring.moves_dice:
        payoff = Fraction(result.changes[0] - result.changes[1])
    else:
        payoff = Fraction(result.points[0])
    return payoff, payoff


def solve_game(
    variant: Variant | str,
    dice: Sequence[int] = (1, 2),
    *,
    opener: int = 0,
    max_nodes: int = MAX_NODES,
) -> Solution:
    """The whole game from a start with ``dice`` (each seat's starting dice: an exact call
    gives back at most those; nobody has had a special round yet), solved exactly: +1 to
    seat 0 for a win, -1 for a loss. Every reachable round is solved with the values of the
    rounds it leads to, special rounds (Palifico) like any other; each round may have up to
    ``max_nodes`` positions.

    Raises:
        SolveError: as :func:`solve_round`, naming the first reachable round too big to
            solve; or a game that can come back to a round it left (an exact call that
            gives a die back), whose value is a fixed point the solver does not compute.
    """
    started = time.perf_counter()
    variant, counts = _checked(variant, dice, opener)
    limit = _checked_limit(max_nodes)
    solved: dict[Any, _Part] = {}
    path: list[Any] = []

    def value(state: GameState) -> tuple[Fraction, Fraction]:
        if state.is_over:
            winners = state.winners
            share = [Fraction(int(seat in winners), len(winners)) for seat in (0, 1)]
            return share[0] - share[1], share[0] - share[1]
        key = _round_start(state)
        if key in path:
            raise SolveError(
                f"{variant.name} can come back to {_name(state)} after leaving it (an exact "
                "call gives a die back): the game's value is a fixed point, which the solver "
                "does not compute"
            )
        known = solved.get(key)
        if known is None:
            path.append(key)
            known = solved[key] = _solve_from(_placeholder(state), value, limit)
            path.pop()
        return known.bounds

    bounds = value(_start(variant, counts, opener, starting=counts))
    tables: dict[Table, _Part | None] = {}
    for one in solved.values():
        table = _state_table(one.start)
        tables[table] = None if table in tables else one
    return _solution(variant, counts, opener, True, bounds, tables, started, len(solved))


def _standing(state: GameState) -> tuple[tuple[int, int, int, bool], ...]:
    """Each seat's standing in the game: its dice, score, pressure left and whether it has
    had its special round."""
    return tuple((len(p.dice), p.score, p.pressure_left, p.had_special) for p in state.players)


def _round_start(state: GameState) -> Any:
    """What the rest of a game from the start of a round depends on, besides the dice
    dealt."""
    return (
        _standing(state), state.to_act, state.rules, state.special_round, state.special_player,
        state.owed, state.offers, state.must_declare, state.starting_dice,
    )  # fmt: skip


def _solution(
    variant: Variant,
    counts: tuple[int, int],
    opener: int,
    game: bool,
    bounds: tuple[Fraction, Fraction],
    tables: Mapping[Table, _Part | None],
    started: float,
    rounds: int = 1,
) -> Solution:
    low, high = bounds
    exact = low == high
    infosets = sum(one.infosets for one in tables.values() if one is not None)
    return Solution(
        variant=variant, dice=counts, opener=opener, game=game,
        value=low if exact else (low + high) / 2, exact=exact, bounds=(low, high),
        infosets=infosets, rounds=rounds, seconds=time.perf_counter() - started,
        solved=tables,
    )  # fmt: skip


def _start(
    variant: Variant, counts: tuple[int, int], opener: int, *, starting: tuple[int, int] | None
) -> GameState:
    hands = [(1,) * counts[0], (1,) * counts[1]]
    return new_game(variant, 2, seed=0, dice=hands, first_player=opener, starting_dice=starting)


def _placeholder(state: GameState) -> GameState:
    """``state`` with every hand of ones (what is legal never depends on the hands)."""
    counts = [len(p.dice) for p in state.players]
    return _dealt(state, ((1,) * counts[0], (1,) * counts[1]))


def exploitability(
    bot: Any,
    variant: Variant | str,
    dice: Sequence[int] = (1, 1),
    *,
    opener: int = 0,
    max_nodes: int = MAX_NODES,
) -> Fraction:
    """How much a best response gains against ``bot`` playing both seats of the round, in
    OpenSpiel's sense: the mean over the two seats of a best response's payoff against the
    bot (0 for an equilibrium; the game being zero-sum, the bot's own payoffs cancel). The
    bot gives its action probabilities with ``policy(view)`` (perudo's built-in bots do);
    probabilities given as floats are taken exactly as they are.

    >>> from perudo.bots import RandomBot
    >>> round(float(exploitability(RandomBot(), "openspiel-liars-dice")), 6)  # doctest: +SKIP
    0.780744

    Raises:
        SolveError: as :func:`solve_round`, or the bot has no ``policy`` or gives one that
            is not a distribution over the legal actions.
    """
    variant, counts = _checked(variant, dice, opener)
    policy = getattr(bot, "policy", None)
    if not callable(policy):
        raise SolveError(f"bot {shown(bot)} gives no policy(view): its probabilities are needed")
    start = _start(variant, counts, opener, starting=None)
    round_ = _walk(start, _checked_limit(max_nodes), positions=True)
    payoffs = round_.settle(_dice_payoff).low
    strategies = [_bot_strategy(round_.seats[seat], seat, policy) for seat in (0, 1)]
    gain0 = _best_response(round_, payoffs, strategies[1], responder=0)
    gain1 = -_best_response(round_, payoffs, strategies[0], responder=1)
    return (gain0 + gain1) / 2


def _bot_strategy(side: _Seat, seat: int, policy: Any) -> Strategy:
    """A bot's probabilities at each of ``side``'s decisions, for each hand, exact."""
    strategy: Strategy = {}
    for decision, hand in _every(side):
        assert side.states is not None
        state = side.states[decision]
        hands = [p.dice for p in state.players]
        hands[seat] = side.hands[hand]
        given = policy(_dealt(state, (hands[0], hands[1])).view(seat))
        actions = side.actions[decision]
        try:
            probabilities = [Fraction(given.get(action, 0)) for action in actions]
        except (TypeError, ValueError, AttributeError):
            raise SolveError(
                f"the bot's policy {shown(given)} is not action probabilities"
            ) from None
        total = sum(probabilities, Fraction(0))
        if set(given) - set(actions) or any(p < 0 for p in probabilities) or not total:
            raise SolveError(
                f"the bot's policy {shown(given)} is not a distribution over the legal actions"
            )
        strategy[decision, hand] = tuple(p / total for p in probabilities)
    return strategy


def _every(side: _Seat) -> Iterator[tuple[int, int]]:
    return itertools.product(range(len(side.firsts)), range(len(side.hands)))


def _checked_limit(max_nodes: int) -> int:
    if type(max_nodes) is not int or not 1 <= max_nodes <= MAX_NODES:
        raise SolveError(f"max_nodes {shown(max_nodes)} is not 1 to {MAX_NODES:,} positions")
    return max_nodes


def _checked(
    variant: Variant | str, dice: Sequence[int], opener: int
) -> tuple[Variant, tuple[int, int]]:
    """The edition, and the two seats' dice, checked."""
    if not isinstance(variant, Variant):
        variant = load_variant(variant)
    if opener not in (0, 1) or type(opener) is not int:
        raise SolveError(f"opener {shown(opener)} is not seat 0 or 1")
    if isinstance(dice, str | bytes) or not isinstance(dice, Sequence) or len(dice) != 2:
        raise SolveError(f"dice {shown(dice)} is not two counts: perudo solves two players")
    if variant.players.min > 2:
        raise SolveError(f"{variant.name} is not played by two players")
    for n in dice:
        if type(n) is not int or not 1 <= n <= variant.dice.per_player:
            raise SolveError(
                f"dice {shown(n)} is not 1 to {variant.dice.per_player} dice of {variant.name}"
            )
    if variant.has_actions:
        raise SolveError(
            f"{variant.name} has actions of its own ({', '.join(variant.actions.words)}), "
            "whose chance inside the round the solver does not follow yet"
        )
    return variant, (dice[0], dice[1])
