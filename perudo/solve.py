"""Small games solved exactly: the value of one round between two players, and the
strategies that reach it.

Needs the extra ``perudo[solve]`` (SciPy, whose HiGHS solves the linear program). The game
is read from the engine itself, so any declared rule set solves, registered kinds included:
every deal of the dice (each sorted hand with its chance), then every legal move of
:class:`~perudo.GameState` until the round's call settles. A player knows its own hand and
every move made; the sequence form of the game (von Stengel's) is a linear program whose
solution is an equilibrium.

The value is **proven**, never a float: the equilibrium the solver found is made exact
(each probability a :class:`~fractions.Fraction`), and each side's exact best response is
computed in fractions. What seat 0's strategy guarantees against every reply is a lower
bound of the value, what seat 1's concedes an upper bound; when both are the same number,
:attr:`Solution.exact` is true.

The payoff to seat 0 is its change of dice minus seat 1's where calls move dice (a die lost
by seat 1 is +1, losing the difference counts the difference), or the points it receives
where calls move points. Bids above the dice in play are left out where the edition has no
cap: they are certainly false (:meth:`~perudo.GameState.legal_actions` lists bids up to
the dice in play).

>>> from perudo.solve import solve_round
>>> solution = solve_round("openspiel-liars-dice", dice=(1, 1))  # doctest: +SKIP
>>> solution.value, solution.exact  # doctest: +SKIP
(Fraction(-7, 258), True)
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import attrs

try:
    import numpy as np
    from scipy import sparse
    from scipy.optimize import linprog
except ImportError as error:  # pragma: no cover - depends on what is installed
    from perudo.errors import install_hint

    raise ImportError(f"perudo.solve needs {error.name}: {install_hint('solve')}") from error

from perudo.actions import Action, Declare
from perudo.errors import SolveError, shown
from perudo.loader import load_variant
from perudo.players import PlacedBid
from perudo.state import GameState, new_game
from perudo.variant import Variant
from perudo.view import PlayerView

__all__ = [
    "MAX_NODES",
    "Solution",
    "SolutionBot",
    "SolveError",
    "deals",
    "exploitability",
    "solve_round",
]

#: The most positions a round solved may have, every deal and every history together. A
#: round past it is refused with a :class:`~perudo.SolveError` naming it, before memory
#: runs out.
MAX_NODES = 3_000_000

#: What a seat knows at a decision: its seat, its hand, the round's bids so far (who made each).
Infoset = tuple[int, tuple[int, ...], tuple[tuple[int, str], ...]]


@attrs.frozen(eq=False, repr=False)
class Solution:
    """An exact solution of a round (:func:`solve_round`).

    Attributes:
        variant: The edition.
        dice: Each seat's dice.
        opener: The seat that bids first.
        value: The value for seat 0 (its expected payoff under equilibrium play), proven
            when :attr:`exact` (else the middle of :attr:`bounds`, still a fraction).
        exact: Whether both bounds are the same number.
        bounds: The proven interval of the value: what seat 0's strategy guarantees, and
            what seat 1's concedes.
        infosets: The number of information states of both seats (the decisions the
            solution covers).
        seconds: The time the solution took (building, solving, proving).
    """

    variant: Variant
    dice: tuple[int, int]
    opener: int
    value: Fraction
    exact: bool
    bounds: tuple[Fraction, Fraction]
    infosets: int
    seconds: float
    _strategies: tuple[dict[Infoset, dict[Action, Fraction]], dict[Infoset, dict[Action, Fraction]]]

    def __repr__(self) -> str:
        proven = "exact" if self.exact else f"within [{self.bounds[0]}, {self.bounds[1]}]"
        return (
            f"<Solution {self.variant.key} {self.dice[0]}v{self.dice[1]}, seat {self.opener} "
            f"opens: {self.value} ({float(self.value):.6f}, {proven}), {self.infosets} "
            "information states>"
        )

    def strategy(self, view: PlayerView) -> Mapping[Action, Fraction]:
        """The probability of each legal action at the decision of ``view`` (a view of a
        position of the round solved).

        Raises:
            SolveError: the solution does not cover that decision.
        """
        seat = view.player
        found = None if seat is None or seat > 1 else self._strategies[seat].get(_view_key(view))
        if found is None:
            raise SolveError(f"the solution does not cover this decision of seat {shown(seat)}")
        return dict(found)

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
        return self._draw(self.solution.strategy(view))

    def policy(self, view: PlayerView) -> Mapping[Action, Fraction]:
        """The probability of each legal action."""
        return self.solution.strategy(view)

    def _draw(self, strategy: Mapping[Action, Fraction]) -> Action:
        actions = list(strategy)
        weights = [float(strategy[a]) for a in actions]
        return self._random.choices(actions, weights=weights)[0]


def _infoset(seat: int, hand: tuple[int, ...], bids: Sequence[PlacedBid]) -> Infoset:
    """What ``seat`` knows at a decision of a round (the one place the key is made): its
    hand and the round's bids so far, with who made them."""
    return seat, hand, tuple((placed.player, str(placed.bid)) for placed in bids)


def _view_key(view: PlayerView) -> Infoset:
    """The information state of ``view``'s decision."""
    assert view.player is not None
    return _infoset(view.player, view.dice, view.bids)


def deals(dice: int, faces: int) -> list[tuple[tuple[int, ...], Fraction]]:
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


@attrs.define
class _Player:
    """One seat's sequence form: its information states and sequences, and a position of
    each information state (to ask a bot what it would do there)."""

    sequences: list[tuple[int, Action] | None] = attrs.field(factory=lambda: [None])
    infosets: dict[Infoset, tuple[int, list[Action], list[int]]] = attrs.field(factory=dict)
    order: list[Infoset] = attrs.field(factory=list)  # in the order first met (parents first)
    states: dict[Infoset, GameState] = attrs.field(factory=dict)

    def at(self, key: Infoset, parent: int, state: GameState) -> tuple[list[Action], list[int]]:
        """The legal actions at the information state ``key`` and their sequence numbers."""
        known = self.infosets.get(key)
        if known is not None:
            return known[1], known[2]
        actions = list(state.legal_actions())
        first = len(self.sequences)
        numbers = list(range(first, first + len(actions)))
        self.sequences.extend((len(self.order), action) for action in actions)
        self.infosets[key] = (parent, actions, numbers)
        self.order.append(key)
        self.states[key] = state
        return actions, numbers


@attrs.define
class _Tree:
    """A round as its sequence form: both seats' sequences, and every terminal position's
    pair of sequences with its chance times seat 0's payoff."""

    players: tuple[_Player, _Player]
    terminals: list[tuple[int, int, Fraction]]

    @classmethod
    def of(cls, variant: Variant, dice: tuple[int, int], opener: int) -> _Tree:
        _check_size(variant, dice, opener)
        tree = cls((_Player(), _Player()), [])
        faces, nodes = variant.dice.faces, 0
        for (hand0, p0), (hand1, p1) in itertools.product(
            deals(dice[0], faces), deals(dice[1], faces)
        ):
            state = new_game(variant, 2, seed=0, dice=[hand0, hand1], first_player=opener)
            nodes = _walk(state, p0 * p1, [0, 0], tree.players, tree.terminals, nodes)
        return tree

    @property
    def infosets(self) -> int:
        return len(self.players[0].infosets) + len(self.players[1].infosets)

    def best_response(self, strategy: dict[Infoset, dict[Action, Fraction]], seat: int) -> Fraction:
        """Seat 0's payoff when seat ``1 - seat`` plays ``strategy`` and ``seat`` best
        responds (minimising seat 0's payoff if it is seat 1), in exact fractions."""
        return _best_response_value(self.players, self.terminals, strategy, responder=seat)


def solve_round(
    variant: Variant | str, dice: Sequence[int] = (1, 1), *, opener: int = 0
) -> Solution:
    """One round between two players holding ``dice``, solved exactly as a zero-sum game
    (the payoff to seat 0 as the module documentation says), seat ``opener`` bidding first.

    Raises:
        SolveError: not two seats, dice the edition does not deal, a round past
            :data:`MAX_NODES` positions, or chance inside the round (a re-roll).
    """
    started = time.perf_counter()
    variant, counts = _checked(variant, dice, opener)
    tree = _Tree.of(variant, counts, opener)
    players, terminals = tree.players, tree.terminals
    x = _solve(players, terminals, maximize=True)
    y = _solve(players, terminals, maximize=False)
    strategies = (_behaviour(players[0], x), _behaviour(players[1], y))
    low = tree.best_response(strategies[0], 1)
    high = tree.best_response(strategies[1], 0)
    exact = low == high
    value = low if exact else (low + high) / 2
    return Solution(
        variant=variant,
        dice=counts,
        opener=opener,
        value=value,
        exact=exact,
        bounds=(low, high),
        infosets=tree.infosets,
        seconds=time.perf_counter() - started,
        strategies=strategies,
    )


def exploitability(
    bot: Any, variant: Variant | str, dice: Sequence[int] = (1, 1), *, opener: int = 0
) -> Fraction:
    """How much a best response gains against ``bot`` playing both seats of the round, in
    OpenSpiel's sense: the mean over the two seats of a best response's payoff against the
    bot (0 for an equilibrium; the game being zero-sum, the bot's own payoffs cancel). The
    bot gives its action probabilities with ``policy(view)`` (perudo's random bot does);
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
    tree = _Tree.of(variant, counts, opener)
    strategies = [_bot_strategy(tree.players[seat], policy) for seat in (0, 1)]
    gain0 = tree.best_response(strategies[1], 0)  # seat 0 best responds to the bot's seat 1
    gain1 = -tree.best_response(strategies[0], 1)  # seat 1 best responds to its seat 0
    return (gain0 + gain1) / 2


def _bot_strategy(player: _Player, policy: Any) -> dict[Infoset, dict[Action, Fraction]]:
    """A bot's probabilities at each of ``player``'s information states, exact."""
    strategy: dict[Infoset, dict[Action, Fraction]] = {}
    for key in player.order:
        state = player.states[key]
        given = policy(state.view(key[0]))
        _, actions, _ = player.infosets[key]
        try:
            probabilities = {action: Fraction(given.get(action, 0)) for action in actions}
        except (TypeError, ValueError, AttributeError):
            raise SolveError(
                f"the bot's policy {shown(given)} is not action probabilities"
            ) from None
        total = sum(probabilities.values(), Fraction(0))
        if set(given) - set(actions) or any(p < 0 for p in probabilities.values()) or not total:
            raise SolveError(
                f"the bot's policy {shown(given)} is not a distribution over the legal actions"
            )
        strategy[key] = {action: p / total for action, p in probabilities.items()}
    return strategy


def _checked(
    variant: Variant | str, dice: Sequence[int], opener: int
) -> tuple[Variant, tuple[int, int]]:
    """The edition, and the two seats' dice, checked."""
    if not isinstance(variant, Variant):
        variant = load_variant(variant)
    if opener not in (0, 1) or type(opener) is not int:
        raise SolveError(f"opener {shown(opener)} is not seat 0 or 1")
    return variant, _checked_dice(variant, dice)


def _checked_dice(variant: Variant, dice: Sequence[int]) -> tuple[int, int]:
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
    return dice[0], dice[1]


def _check_size(variant: Variant, dice: tuple[int, int], opener: int) -> None:
    """Refuse, before building anything, a round whose positions would pass
    :data:`MAX_NODES`: every deal times the bid histories of one deal, counted as the
    subsets of the bids open at the opening (each bid raises the one before)."""
    faces = variant.dice.faces
    hands = math.comb(faces + dice[0] - 1, dice[0]) * math.comb(faces + dice[1] - 1, dice[1])
    state = new_game(variant, 2, seed=0, dice=[(1,) * dice[0], (1,) * dice[1]], first_player=opener)
    bids = sum(1 for action in state.legal_actions() if not isinstance(action, Declare))
    if bids > 60 or hands * 2**bids > MAX_NODES:
        raise SolveError(
            f"the {dice[0]}v{dice[1]} round of {variant.name} is too big to solve: {hands:,} "
            f"deals of up to 2^{bids} bid histories each, past the {MAX_NODES:,} positions "
            "a solution holds"
        )


def _walk(
    state: GameState,
    chance: Fraction,
    last: list[int],
    players: tuple[_Player, _Player],
    terminals: list[tuple[int, int, Fraction]],
    nodes: int,
) -> int:
    """Add every position from ``state`` on; ``last`` holds each seat's last sequence."""
    nodes += 1
    if nodes > MAX_NODES:
        raise SolveError(f"the round has more than {MAX_NODES:,} positions: too big to solve")
    seat = state.to_act
    assert seat is not None
    key = _infoset(seat, state.players[seat].dice, state.bids)
    actions, numbers = players[seat].at(key, last[seat], state)
    for action, number in zip(actions, numbers, strict=True):
        after = state.apply(action)
        if after.round_number != state.round_number or after.is_over:
            result = after.last_result
            assert result is not None
            if state.variant.scoring.moves_dice:
                payoff = result.changes[0] - result.changes[1]
            else:
                payoff = result.points[0]
            sequences = list(last)
            sequences[seat] = number
            terminals.append((sequences[0], sequences[1], chance * payoff))
            nodes += 1
            continue
        sequences = list(last)
        sequences[seat] = number
        nodes = _walk(after, chance, sequences, players, terminals, nodes)
    return nodes


def _constraints(player: _Player) -> Any:
    """The sequence-form constraints of ``player``: the empty sequence is 1, and each
    information state's sequences sum to the one before it."""
    rows, cols, vals = [0], [0], [1.0]
    for index, key in enumerate(player.order, start=1):
        parent, _, numbers = player.infosets[key]
        rows.append(index)
        cols.append(parent)
        vals.append(-1.0)
        for number in numbers:
            rows.append(index)
            cols.append(number)
            vals.append(1.0)
    shape = (len(player.order) + 1, len(player.sequences))
    return sparse.csr_matrix((vals, (rows, cols)), shape=shape)


def _solve(
    players: tuple[_Player, _Player], terminals: list[tuple[int, int, Fraction]], *, maximize: bool
) -> np.ndarray:
    """One seat's realization plan at an equilibrium: seat 0's (``maximize``) or seat 1's,
    from the linear program max_x f'q s.t. F'q <= A'x (von Stengel's sequence form)."""
    me, other = (players[0], players[1]) if maximize else (players[1], players[0])
    sign = 1.0 if maximize else -1.0
    n_me, n_other = len(me.sequences), len(other.sequences)
    rows, cols, vals = [], [], []
    for s0, s1, payoff in terminals:
        mine, theirs = (s0, s1) if maximize else (s1, s0)
        rows.append(theirs)
        cols.append(mine)
        vals.append(sign * float(payoff))
    a_t = sparse.csr_matrix((vals, (rows, cols)), shape=(n_other, n_me))  # A' (theirs x mine)
    e, f = _constraints(me), _constraints(other)
    n_q = f.shape[0]
    # variables: x (n_me, >= 0), q (n_q, free); maximise q[0]
    cost = np.zeros(n_me + n_q)
    cost[n_me] = -1.0
    inequality = sparse.hstack([-a_t, f.T]).tocsr()  # F'q - A'x <= 0
    equality = sparse.hstack([e, sparse.csr_matrix((e.shape[0], n_q))]).tocsr()
    b_eq = np.zeros(e.shape[0])
    b_eq[0] = 1.0
    bounds = [(0, None)] * n_me + [(None, None)] * n_q
    result = linprog(
        cost, A_ub=inequality, b_ub=np.zeros(n_other), A_eq=equality, b_eq=b_eq,
        bounds=bounds, method="highs",
    )  # fmt: skip
    if result.status != 0:  # pragma: no cover - a well-formed sequence form always solves
        raise SolveError(f"the linear program did not solve: {result.message}")
    return np.asarray(result.x[:n_me])


def _behaviour(player: _Player, plan: np.ndarray) -> dict[Infoset, dict[Action, Fraction]]:
    """Each information state's action probabilities from a realization plan, as exact
    fractions that sum to 1 (small denominators first: an equilibrium's are small)."""
    strategy: dict[Infoset, dict[Action, Fraction]] = {}
    for key in player.order:
        parent, actions, numbers = player.infosets[key]
        reach = plan[parent] if parent else 1.0
        weights = [max(plan[n], 0.0) for n in numbers]
        total = sum(weights)
        if reach <= 1e-12 or total <= 1e-12:
            probabilities = [Fraction(1, len(actions))] * len(actions)
        else:
            probabilities = [Fraction(w / total).limit_denominator(100_000) for w in weights]
            probabilities[-1] = Fraction(1) - sum(probabilities[:-1], Fraction(0))
            if probabilities[-1] < 0:
                probabilities = [Fraction(1, len(actions))] * len(actions)
        strategy[key] = dict(zip(actions, probabilities, strict=True))
    return strategy


def _best_response_value(
    players: tuple[_Player, _Player],
    terminals: list[tuple[int, int, Fraction]],
    strategy: dict[Infoset, dict[Action, Fraction]],
    *,
    responder: int,
) -> Fraction:
    """Seat 0's payoff when seat ``1 - responder`` plays ``strategy`` and ``responder``
    best responds (minimising seat 0's payoff if it is seat 1), in exact fractions."""
    fixed = players[1 - responder]
    reach = [Fraction(0)] * len(fixed.sequences)
    reach[0] = Fraction(1)
    for key in fixed.order:  # parents before children
        parent, actions, numbers = fixed.infosets[key]
        for action, number in zip(actions, numbers, strict=True):
            reach[number] = reach[parent] * strategy[key][action]
    gain = [Fraction(0)] * len(players[responder].sequences)
    for s0, s1, payoff in terminals:
        mine, theirs = (s0, s1) if responder == 0 else (s1, s0)
        weight = reach[theirs]
        if weight:
            gain[mine] += weight * payoff
    best = max if responder == 0 else min
    me = players[responder]
    value = list(gain)
    for key in reversed(me.order):  # children before parents
        parent, _, numbers = me.infosets[key]
        value[parent] += best(value[number] for number in numbers)
    return value[0]
