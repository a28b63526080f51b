"""Small games solved exactly: the value of a round, or of a whole game, between two players,
and the strategies that reach it.

Needs the extra ``perudo[solve]`` (highspy, HiGHS's own bindings, which solve the linear
programs and give their basis; SciPy, whose sparse LU makes the basis exact; and numba,
which compiles CFR+). The game is read from the engine itself, so any declared rule
set solves, registered kinds included. A round is walked once, with
:class:`~perudo.GameState`'s own legal moves (a rule kind sees the
:class:`~perudo.rules.RoundContext`, never a die, so what is legal never depends on the
hands, but for an action that puts dice out); every call then settles with the engine for
every deal of the dice (each sorted hand with its chance). Chance inside a round is
followed where an action re-rolls every die it leaves under the cup (Bluff's re-roll): the
action is a move of its seat, legal with the hands that hold the dice it puts out, and each
outcome of the dice re-rolled, with its chance, is known to that seat alone. A bidder who may
re-roll after its bid decides before the next player moves, or lets its chance pass. A
player knows its own hand, the dice its own re-rolls drew, and every move made; the sequence form
of the game (von Stengel's) is a linear program whose solution is an equilibrium. A small
round is one linear program; a large one is solved by a double oracle: CFR+ picks the moves
played, the linear program of that sub-round is solved, and exact best responses in the
whole round either prove its equilibrium or add the moves that gain against it
(``perudo.solve.exact``). Before anything is built, a round's size is counted and the
memory it needs estimated: one past ``max_nodes`` positions, or past the memory it may use
(``memory=``, by default what the machine has free), is refused at once with the estimate.
A long solve reports its progress (``progress=``, one line at a time).

The value is **proven**, never a float: the equilibrium the solver found is made exact
(each probability a :class:`~fractions.Fraction`: the linear program's basis solved in
fractions, by iterative refinement and rational reconstruction, ``perudo.solve.rational``),
and each side's exact best response is computed in fractions. What seat 0's strategy
guarantees against every reply is a lower bound of the value, what seat 1's concedes an
upper bound; when both are the same number, :attr:`Solution.exact` is true.

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

import itertools
import math
import time
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

import attrs

try:
    import highspy  # noqa: F401
    import numba  # noqa: F401
    import numpy  # noqa: F401
    import scipy  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on what is installed
    from perudo.errors import install_hint

    raise ImportError(f"perudo.solve needs {error.name}: {install_hint('solve')}") from error

from perudo.actions import Action
from perudo.errors import SolveError, shown
from perudo.solve import stationary
from perudo.solve.approximate import Approximation, approximate_round
from perudo.solve.bot import SolutionBot
from perudo.solve.checks import (
    MAX_NODES,
    checked,
    checked_limit,
    checked_memory,
    dice_payoff,
    game_payoff,
    reporter,
)
from perudo.solve.exact import Effort, Kept, Part, Report, on_grid, solve_from
from perudo.solve.proof import best_response
from perudo.solve.tree import (
    Seat,
    Strategy,
    Table,
    deals,
    dealt,
    placeholder,
    round_start,
    start_state,
    state_table,
    view_table,
    walk,
)
from perudo.state import GameState
from perudo.variant import Variant
from perudo.view import PlayerView

__all__ = [
    "FIXED_POINT_PASSES",
    "MAX_NODES",
    "Approximation",
    "Effort",
    "Solution",
    "SolutionBot",
    "SolveError",
    "approximate_round",
    "deals",
    "exploitability",
    "solve_game",
    "solve_round",
]

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
        effort: What solving took: decisions walked, CFR+'s iterations, the linear
            programs and the largest one's size.
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
    effort: Effort
    _solved: Mapping[Table, Part | None]  # None: two rounds a view cannot tell apart

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
            "effort": attrs.asdict(self.effort),
        }

    def strategy(self, view: PlayerView) -> Mapping[Action, Fraction]:
        """The probability of each legal action at the decision of ``view`` (a view of a
        position the solution covers). After a re-roll of its own, the view no longer shows
        the hand the seat was dealt: its probabilities are then those of every hand it may
        have been dealt, each weighed by the hand's chance and by the seat's own moves on
        the way (the seat plays as well as it would knowing it); after two, the first
        re-roll's dice are no longer shown either, and the decision is not covered.

        Raises:
            SolveError: the solution does not cover that decision.
        """
        seat = view.player
        found = self._find(view) if seat in (0, 1) and view.to_act == seat else None
        if found is None:
            raise SolveError(f"the solution does not cover this decision of seat {shown(seat)}")
        return found

    def _find(self, view: PlayerView) -> dict[Action, Fraction] | None:
        part = self._solved.get(view_table(view))
        return None if part is None else part.find(view)

    def bot(self, seed: int | None = None) -> SolutionBot:
        """A bot that plays the solution's strategies (at decisions it covers)."""
        return SolutionBot(self, seed, name="solution")


def solve_round(
    variant: Variant | str,
    dice: Sequence[int] = (1, 1),
    *,
    opener: int = 0,
    max_nodes: int = MAX_NODES,
    memory: int | None = None,
    progress: Report | None = None,
) -> Solution:
    """One round between two players holding ``dice``, solved exactly as a zero-sum game
    (the payoff to seat 0 as the module documentation says), seat ``opener`` bidding first.
    A round of more than ``max_nodes`` positions (its calls times the deals), or that would
    need more than ``memory`` bytes (by default what the machine has free), is refused
    before anything is built; ``progress`` is called with each line of progress.

    Raises:
        SolveError: not two seats, dice the edition does not deal, a round past
            ``max_nodes`` positions, a seat that may act out of turn (but for a re-roll
            after its own bid), or chance inside the round that keeps part of a hidden cup
            (a draw) or looks under one.
        InvalidVariantError: a round that never ends (the engine stops a round past the
            bound of its raise order, :attr:`~perudo.rules.RaisingRule.times_per_bid`).
    """
    started = time.perf_counter()
    variant, counts = checked(variant, dice, opener)
    limit = checked_limit(max_nodes)
    memory = checked_memory(memory)
    start = start_state(variant, counts, opener, starting=None)
    part = solve_from(start, dice_payoff, limit, memory, reporter(progress))
    tables = {state_table(part.start): part}
    return _solution(variant, counts, opener, False, part.bounds, tables, started, part.effort)


def solve_game(
    variant: Variant | str,
    dice: Sequence[int] = (1, 2),
    *,
    opener: int = 0,
    max_nodes: int = MAX_NODES,
    memory: int | None = None,
    tolerance: Fraction | float = Fraction(1, 10**6),
    progress: Report | None = None,
) -> Solution:
    """The whole game from a start with ``dice`` (each seat's starting dice: an exact call
    gives back at most those; nobody has had a special round yet), solved exactly: +1 to
    seat 0 for a win, -1 for a loss. Every reachable round is solved with the values of the
    rounds it leads to, special rounds (Palifico) like any other; each round may have up to
    ``max_nodes`` positions and ``memory`` bytes, as :func:`solve_round` says.

    A game that can come back to a round it left (French Calza: a right Calza gives a die
    back) has a value that is a fixed point of its rounds' values. It is computed in
    passes, each solving every round once. The first guesses that a round it comes back
    to is worth 0. Each pass leaves each seat a strategy in every round; played in every
    round, what seat 0's guarantee and seat 1's concede over the whole game is proven
    (``perudo.solve.stationary``): the value's interval. The next pass solves each round
    on the value of both seats' strategies played together, a guess that is a Newton step,
    so each interval is about the square of the one before. Where a seat's strategies
    prove nothing, the passes go on without guesses: the next takes each round it comes
    back to as worth anything within the bounds proven so far (-1 to +1 at first), and
    proves bounds from those. The passes go on until the value's interval is at most
    ``tolerance`` wide (or stops narrowing, or after :data:`FIXED_POINT_PASSES` passes).
    Every bound is proven, so :attr:`Solution.bounds` is a certified interval;
    :attr:`Solution.exact` where it closes (a value that is a short fraction, which the
    strategies prove exactly: WANGO party's game from 1v1 at four faces, 0).

    Raises:
        SolveError: as :func:`solve_round`, naming the first reachable round too big to
            solve, or a ``tolerance`` not between 0 and 1.
    """
    started = time.perf_counter()
    variant, counts = checked(variant, dice, opener)
    limit = checked_limit(max_nodes)
    memory = checked_memory(memory)
    report = reporter(progress)
    tolerance = _checked_tolerance(tolerance)
    solved: dict[Any, Part] = {}
    path: list[Any] = []
    estimates: dict[Any, tuple[Fraction, Fraction]] = {}  # the last pass's, in a cycle
    cyclic: list[Any] = []  # the rounds a pass came back to
    leaning: dict[Any, bool] = {}  # whether each round's value leans on an estimate
    leaned: list[Any] = []  # each value given that leans on one
    kept: Kept = {}  # each round walked, and its last sub-round, for the next pass
    guessed = True  # whether the estimates are a guess (else proven bounds)

    def value(state: GameState) -> tuple[Fraction, Fraction]:
        if state.is_over:
            won = game_payoff(state)
            return won, won
        key = round_start(state)
        if key in path:  # back to a round being solved: its last estimate
            cyclic.append(key)
            leaned.append(key)
            return estimates.get(key, (Fraction(0), Fraction(0)) if guessed else _ANY)
        known = solved.get(key)
        if known is None:
            path.append(key)
            before = len(leaned)
            known = solved[key] = solve_from(placeholder(state), value, limit, memory, report, kept)
            path.pop()
            leaning[key] = len(leaned) > before
        if leaning[key]:
            leaned.append(key)
            if guessed:  # a guess is a point, short: each round is solved once, on it
                middle = on_grid(sum(known.bounds) / 2, stationary.GRID, round)
                return middle, middle
        return known.bounds

    start = start_state(variant, counts, opener, starting=counts)
    first = round_start(start)
    proven: dict[Any, tuple[Fraction, Fraction]] = {}  # each round's bounds, every pass's
    passes = 0
    effort = Effort()
    while True:
        solved.clear()
        cyclic.clear()
        leaning.clear()
        bounds = value(start)
        passes += 1
        effort = sum((one.effort for one in solved.values()), effort)
        if not cyclic:
            break
        found = stationary.played(solved, first, report)
        for key, part in solved.items():  # the narrowest of what each proof gives
            low, high = _ANY if guessed else part.bounds
            for known in (None if found is None else found.bounds.get(key), proven.get(key)):
                if known is not None:
                    low, high = max(low, known[0]), min(high, known[1])
            proven[key] = low, high
        bounds = proven[first]
        width = bounds[1] - bounds[0]
        report(
            f"fixed point, pass {passes}: {float(bounds[0]):.9f} to {float(bounds[1]):.9f} "
            f"(a width of {float(width):.1e}, {len(set(cyclic))} round(s) come back)"
        )
        values = None if found is None else found.values
        guessed = values is not None
        if values is not None:  # a guess, the next pass's
            wider = {key: (_within(values[key], proven[key]),) * 2 for key in set(cyclic)}
        else:
            wider = {key: _outward(proven[key]) for key in set(cyclic)}
        if width <= tolerance or wider == estimates or passes >= FIXED_POINT_PASSES:
            bounds = _outward(bounds)  # short fractions, still proven
            break
        estimates = wider
    tables: dict[Table, Part | None] = {}
    for one in solved.values():
        table = state_table(one.start)
        tables[table] = None if table in tables else one
    return _solution(variant, counts, opener, True, bounds, tables, started, effort, len(solved))


#: The most passes :func:`solve_game` makes towards the fixed point of a game that comes
#: back to a round it left.
FIXED_POINT_PASSES = 200


def _outward(bounds: tuple[Fraction, Fraction]) -> tuple[Fraction, Fraction]:
    """``bounds`` rounded outward to the grid (:data:`~perudo.solve.stationary.GRID`): the
    fractions stay short, and the bounds stay proven."""
    low, high = bounds
    return on_grid(low, stationary.GRID, math.floor), on_grid(high, stationary.GRID, math.ceil)


#: What a game's value may be: anything from a loss to a win.
_ANY = (Fraction(-1), Fraction(1))


def _within(value: Fraction, bounds: tuple[Fraction, Fraction]) -> Fraction:
    """``value``, or the nearest of ``bounds`` where it lies outside them."""
    return min(max(value, bounds[0]), bounds[1])


def _checked_tolerance(tolerance: Fraction | float) -> Fraction:
    if not isinstance(tolerance, Fraction | int | float) or not 0 < tolerance < 1:
        raise SolveError(f"tolerance {shown(tolerance)} is not a number between 0 and 1")
    return Fraction(tolerance)


def _solution(
    variant: Variant,
    counts: tuple[int, int],
    opener: int,
    game: bool,
    bounds: tuple[Fraction, Fraction],
    tables: Mapping[Table, Part | None],
    started: float,
    effort: Effort,
    rounds: int = 1,
) -> Solution:
    low, high = bounds
    exact = low == high
    infosets = sum(one.infosets for one in tables.values() if one is not None)
    return Solution(
        variant=variant, dice=counts, opener=opener, game=game,
        value=low if exact else (low + high) / 2, exact=exact, bounds=(low, high),
        infosets=infosets, rounds=rounds, seconds=time.perf_counter() - started,
        effort=effort, solved=tables,
    )  # fmt: skip


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
        SolveError: as :func:`solve_round`, a round with chance inside it (a bot's
            re-rolls are not asked of it), or the bot has no ``policy`` or gives one that
            is not a distribution over the legal actions.
    """
    variant, counts = checked(variant, dice, opener)
    policy = getattr(bot, "policy", None)
    if not callable(policy):
        raise SolveError(f"bot {shown(bot)} gives no policy(view): its probabilities are needed")
    start = start_state(variant, counts, opener, starting=None)
    round_ = walk(start, checked_limit(max_nodes), positions=True, chance=False)
    payoffs = round_.settle(dice_payoff).low
    strategies = [_bot_strategy(round_.seats[seat], seat, policy) for seat in (0, 1)]
    gain0 = best_response(round_, payoffs, strategies[1], responder=0)[0]
    gain1 = -best_response(round_, payoffs, strategies[0], responder=1)[0]
    return (gain0 + gain1) / 2


def _bot_strategy(side: Seat, seat: int, policy: Any) -> Strategy:
    """A bot's probabilities at each of ``side``'s decisions, for each hand, exact."""
    strategy: Strategy = {}
    for decision, hand in _every(side):
        assert side.states is not None
        state = side.states[decision]
        hands = [p.dice for p in state.players]
        hands[seat] = side.hands[hand]
        given = policy(dealt(state, (hands[0], hands[1])).view(seat))
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


def _every(side: Seat) -> Iterator[tuple[int, int]]:
    return itertools.product(range(len(side.firsts)), range(len(side.hands)))
