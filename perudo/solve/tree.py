"""A round as the solvers read it: both seats' decisions (the same for each of a seat's
hands, since what is legal never depends on a die), every call that ends the round, and the
payoff of each call for every deal, walked once with :class:`~perudo.GameState`'s own legal
moves."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import attrs
import numpy as np

from perudo.actions import Act, Action, Bid, Calza, Declare, HandBid, Paso
from perudo.errors import SolveError
from perudo.setup import new_game
from perudo.state import GameState
from perudo.variant import Variant
from perudo.view import PlayerView

Hand = tuple[int, ...]

#: Where a decision is in its round, as every player sees it: the declarations still
#: offered, the special round declared, and the bids with who made them (and what each claims).
Public = tuple[tuple[str, ...], bool, "str | None", tuple[tuple[int, str, str], ...]]

#: Each decision's action probabilities, by (decision, hand); a decision missing is played
#: as :meth:`Seat.probabilities` says (the seat's own strategy never reaches it, or the
#: solution left it out and calls there).
Strategy = dict[tuple[int, int], tuple[Fraction, ...]]

#: Which round of a game a position is in, as a player sees it: each seat's dice and score,
#: and the seat that opened the round.
Table = tuple[tuple[int, ...], tuple[int, ...], int]


def public_key(facts: GameState | PlayerView) -> Public:
    """Where ``facts`` (a state or a view) is in its round (the one place the key is made)."""
    bids = tuple((placed.player, str(placed.bid), placed.claim) for placed in facts.bids)
    return facts.offers, facts.must_declare, facts.special_round, bids


def _table(counts: Sequence[int], scores: Sequence[int], facts: GameState | PlayerView) -> Table:
    """Which round of a game ``facts`` is in (the one place the key is made)."""
    bids = facts.bids
    opener = bids[0].player if bids else facts.to_act
    assert opener is not None
    return tuple(counts), tuple(scores), opener


def state_table(state: GameState) -> Table:
    players = state.players
    return _table([len(p.dice) for p in players], [p.score for p in players], state)


def view_table(view: PlayerView) -> Table:
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
class Seat:
    """One seat's decisions in a round, the same for each of its hands. The seat's sequence
    of (edge ``e``, hand ``h``) is number ``1 + e * len(hands) + h``; 0 is the empty one."""

    hands: list[Hand]
    chances: list[Fraction]
    parents: list[int] = attrs.field(factory=list)  # each decision's edge before it, or -1
    firsts: list[int] = attrs.field(factory=list)  # each decision's first edge
    actions: list[tuple[Action, ...]] = attrs.field(factory=list)
    ending: list[bool] = attrs.field(factory=list)  # whether each edge ends the round
    states: list[GameState] | None = None  # a position of each decision, where kept
    edges: int = 0

    @classmethod
    def dealt(cls, dice: int, faces: int) -> Seat:
        """A seat holding ``dice`` dice, with every hand it may be dealt."""
        hands = deals(dice, faces)
        return cls([hand for hand, _ in hands], [chance for _, chance in hands])

    def decide(
        self, parent: int, actions: tuple[Action, ...], ending: list[bool], state: GameState
    ) -> int:
        """Add a decision; its number."""
        self.parents.append(parent)
        self.firsts.append(self.edges)
        self.actions.append(actions)
        self.ending.extend(ending)
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
        """The probability of each action at ``decision`` with ``hand``: the strategy's, or
        where it has none, the first call that ends the round (uniform play where nothing
        ends it)."""
        found = strategy.get((decision, hand))
        if found is not None:
            return found
        first = self.firsts[decision]
        n = len(self.actions[decision])
        ends = self.ending[first : first + n]
        if True in ends:
            k = ends.index(True)
            return tuple(Fraction(int(i == k)) for i in range(n))
        return (Fraction(1, n),) * n

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The decisions' parent edges and first edges (one more: the edge count) as int64
        arrays."""
        parents = np.array(self.parents, dtype=np.int64)
        firsts = np.array([*self.firsts, self.edges], dtype=np.int64)
        return parents, firsts


@attrs.define(eq=False)
class Round:
    """A round as both seats' decisions, every call that ends it (each seat's last edge and
    the call's outcome), and for each outcome a position before the call and the call (the
    calls that settle alike for every deal share one). ``order`` lists every decision as it
    was reached (parents first): its seat, its number, and the move before it (the seat and
    edge, -1 at the start)."""

    start: GameState
    seats: tuple[Seat, Seat]
    decisions: dict[Public, tuple[int, int]]
    ends: np.ndarray  # one row per call: seat 0's last edge, seat 1's, the outcome
    outcomes: list[tuple[GameState, Action]]
    order: np.ndarray  # one row per decision: seat, decision, seat before, edge before

    @property
    def infosets(self) -> int:
        return sum(len(seat.firsts) * len(seat.hands) for seat in self.seats)

    def settle(self, value: Callable[[GameState], tuple[Fraction, Fraction]]) -> Payoffs:
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
                after = dealt(state, (hands0[i], hands1[j])).apply(action)
                low[index, i, j], high[index, i, j] = value(after)
            low[index] *= chance
            high[index] *= chance
        return Payoffs(low, high)


@attrs.frozen(eq=False)
class Payoffs:
    """Each outcome's payoff to seat 0 by deal (seat 0's hand, seat 1's), times its chance:
    the lowest and the highest it may be (the same in a round)."""

    low: np.ndarray
    high: np.ndarray


def dealt(state: GameState, hands: tuple[Hand, Hand]) -> GameState:
    """``state`` with the two seats holding ``hands``."""
    players = tuple(
        attrs.evolve(player, dice=hand) for player, hand in zip(state.players, hands, strict=True)
    )
    return attrs.evolve(state, players=players)


def round_name(state: GameState) -> str:
    counts = [len(p.dice) for p in state.players]
    special = f", a {state.special_round} round" if state.special_round else ""
    offered = f", {' or '.join(state.offers)} to declare" if state.offers else ""
    return (
        f"the {counts[0]}v{counts[1]} round of {state.variant.name} (seat {state.to_act} "
        f"opening{special}{offered})"
    )


def going_on(variant: Variant) -> tuple[type, ...]:
    """The moves that go on with the round: bids (of a quantity or a hand), declarations, a
    pass, an exact claim (a Bull)."""
    kinds: tuple[type, ...] = (Bid, HandBid, Declare, Paso)
    return (*kinds, Calza) if variant.claims_in_chain else kinds


def walk(start: GameState, limit: int, *, positions: bool = False) -> Round:
    """Every decision and call of the round from ``start``, with the engine's legal moves
    (and a position of each decision, with ``positions``)."""
    variant = start.variant
    faces = variant.dice.faces
    counts = [len(player.dice) for player in start.players]
    seats = (Seat.dealt(counts[0], faces), Seat.dealt(counts[1], faces))
    if positions:
        for seat in seats:
            seat.states = []
    per_call = len(seats[0].hands) * len(seats[1].hands)
    decisions: dict[Public, tuple[int, int]] = {}
    ends: list[tuple[int, int, int]] = []
    order: list[tuple[int, int, int, int]] = []
    outcomes: list[tuple[GameState, Action]] = []
    settled: dict[Any, int] = {}
    whole = bool(variant.user_kinds)  # a registered kind may read the whole round
    out_of_turn = variant.has_out_of_turn
    continuing = going_on(variant)

    def visit(state: GameState, last: tuple[int, int], before: tuple[int, int]) -> None:
        seat = state.to_act
        assert seat is not None
        actions = state.legal_actions()
        others = state.legal_actions(by=1 - seat) if out_of_turn else ()
        for who, moves in ((seat, actions), (1 - seat, others)):
            drawn = next((move for move in moves if isinstance(move, Act)), None)
            if drawn is not None:
                raise SolveError(
                    f"in {round_name(start)} seat {who} may {drawn.word}, chance inside the "
                    "round that the solver does not follow yet"
                )
        if others:
            raise SolveError(
                f"in {round_name(start)} seat {1 - seat} may act out of turn, which the solver "
                "does not follow (it solves games of alternating turns)"
            )
        side = seats[seat]
        ending = [not isinstance(action, continuing) for action in actions]
        decision = side.decide(last[seat], actions, ending, state)
        order.append((seat, decision, *before))
        decisions[public_key(state)] = (seat, decision)
        first = side.firsts[decision]
        for k, action in enumerate(actions):
            mine = (first + k, last[1]) if seat == 0 else (last[0], first + k)
            if not ending[k]:
                visit(state.apply(action), mine, (seat, first + k))
                continue
            key = call_key(state, action, whole)
            outcome = settled.get(key)
            if outcome is None:
                outcome = settled[key] = len(outcomes)
                outcomes.append((state, action))
            ends.append((*mine, outcome))
            if len(ends) * per_call > limit:
                raise SolveError(
                    f"{round_name(start)} is too big to solve: more than {limit:,} positions"
                )

    visit(start, (-1, -1), (-1, -1))
    return Round(
        start=start,
        seats=seats,
        decisions=decisions,
        ends=np.array(ends, dtype=np.int64).reshape(-1, 3),
        outcomes=outcomes,
        order=np.array(order, dtype=np.int64).reshape(-1, 4),
    )


def standing(state: GameState) -> tuple[tuple[int, int, int, bool], ...]:
    """Each seat's standing in the game: its dice, score, pressure left and whether it has
    had its special round."""
    return tuple((len(p.dice), p.score, p.pressure_left, p.had_special) for p in state.players)


def call_key(state: GameState, action: Action, whole: bool) -> Any:
    """What a call's outcome depends on besides the hands: the call, its caller, the
    standing bid, the wild face at the call, the round's rules and the seats' standing (with
    perudo's own kinds; a registered kind's may depend on every bid of the round)."""
    context = state.context
    key = (
        action, state.to_act, state.pressured, context.bids[-1], context.wild, state.rules,
        state.special_round, standing(state),
    )  # fmt: skip
    return (key, context.bids) if whole else key


def start_state(
    variant: Variant, counts: tuple[int, int], opener: int, *, starting: tuple[int, int] | None
) -> GameState:
    """The first position of a round of ``counts`` dice, ``opener`` bidding first."""
    hands = [(1,) * counts[0], (1,) * counts[1]]
    return new_game(variant, 2, seed=0, dice=hands, first_player=opener, starting_dice=starting)


def placeholder(state: GameState) -> GameState:
    """``state`` with every hand of ones (what is legal never depends on the hands)."""
    counts = [len(p.dice) for p in state.players]
    return dealt(state, ((1,) * counts[0], (1,) * counts[1]))
