"""A round as the solvers read it: both seats' decisions (the same for each of a seat's
hands, since what is legal never depends on a die), every call that ends the round, and the
payoff of each call for every deal, walked once with :class:`~perudo.GameState`'s own legal
moves."""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import attrs
import numpy as np

from perudo.actions import Act, Action, Bid, Calza, Declare, HandBid, Paso
from perudo.errors import SolveError, shown
from perudo.setup import new_game
from perudo.state import GameState
from perudo.variant import Variant
from perudo.view import PlayerView

Hand = tuple[int, ...]

#: Where a decision is in its round, as every player sees it: the declarations still
#: offered, the special round declared, the bids with who made them (and what each claims),
#: and the actions of the edition's ``actions`` axis taken (Bluff's re-rolls, the dice put
#: out in them).
Public = tuple[
    tuple[str, ...],
    bool,
    "str | None",
    tuple[tuple[int, str, str], ...],
    tuple[tuple[int, str, int], ...],
]

#: A decision of a round: where it is (:data:`Public`), the seat deciding, and the faces
#: each chance inside the round has drawn for that seat so far (its own secret, in order).
Place = tuple[Public, int, tuple[tuple[int, ...], ...]]

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
    acts = tuple((placed.player, str(placed.act), placed.after) for placed in facts.acts)
    return facts.offers, facts.must_declare, facts.special_round, bids, acts


def own_place(view: PlayerView) -> Place | None:
    """The decision ``view`` is at, for its own seat: after one re-roll of its own, the
    dice under its cup are what it drew; None after two (the first draw is no longer
    shown)."""
    seat = view.player
    rerolls = sum(placed.player == seat for placed in view.acts)
    if seat is None or rerolls > 1:
        return None
    return public_key(view), seat, ((tuple(sorted(view.dice)),) if rerolls else ())


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


@attrs.frozen
class Stay:
    """A seat's choice to let pass its chance to act out of turn (Bluff's re-roll after its
    own bid): the solver's move for taking none of the actions offered."""

    def __str__(self) -> str:
        return "no action"


#: The one :class:`Stay`.
STAY = Stay()

#: A move of a seat's decision: an action, or :data:`STAY`.
Move = Action | Stay


@attrs.define(eq=False)
class Seat:
    """One seat's decisions in a round, the same for each of its hands. The seat's sequence
    of (edge ``e``, hand ``h``) is number ``1 + e * len(hands) + h``; 0 is the empty one."""

    hands: list[Hand]
    chances: list[Fraction]
    parents: list[int] = attrs.field(factory=list)  # each decision's edge before it, or -1
    firsts: list[int] = attrs.field(factory=list)  # each decision's first edge
    actions: list[tuple[Move, ...]] = attrs.field(factory=list)
    ending: list[bool] = attrs.field(factory=list)  # whether each edge ends the round
    states: list[GameState] | None = None  # a position of each decision, where kept
    edges: int = 0
    masks: dict[int, np.ndarray] = attrs.field(factory=dict)  # an edge's hands, where not all
    _allowed: np.ndarray | None = attrs.field(default=None, init=False, repr=False)

    @classmethod
    def dealt(cls, dice: int, faces: int) -> Seat:
        """A seat holding ``dice`` dice, with every hand it may be dealt."""
        hands = deals(dice, faces)
        return cls([hand for hand, _ in hands], [chance for _, chance in hands])

    def decide(
        self,
        parent: int,
        actions: tuple[Move, ...],
        ending: list[bool],
        state: GameState,
        masks: Sequence[np.ndarray | None] = (),
    ) -> int:
        """Add a decision (``masks``: the hands each move is legal with, None for every
        hand, where some move is not legal with every hand); its number."""
        for k, mask in enumerate(masks):
            if mask is not None:
                self.masks[self.edges + k] = mask
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
        where it has none, the first call that ends the round (uniform play over the moves
        legal with the hand where nothing ends it)."""
        found = strategy.get((decision, hand))
        if found is not None:
            return found
        first = self.firsts[decision]
        n = len(self.actions[decision])
        ends = self.ending[first : first + n]
        if True in ends:
            k = ends.index(True)
            return tuple(Fraction(int(i == k)) for i in range(n))
        legal = [self.legal(first + k, hand) for k in range(n)]
        return tuple(Fraction(int(ok), sum(legal)) for ok in legal)

    def mixed(
        self, decision: int, probability: Callable[[int, int], Sequence[Fraction | float]]
    ) -> list[Fraction | float]:
        """The probabilities at ``decision`` of a seat whose dealt hand is no longer known
        (it re-rolled): each hand's (``probability(decision, hand)``) weighted by the
        hand's chance times the seat's own probability of its moves on the way there;
        uniform over every move where no hand gets there."""
        chain = []  # the seat's own moves before the decision: (decision, move)
        edge = self.parents[decision]
        while edge >= 0:
            owner = bisect.bisect_right(self.firsts, edge) - 1
            chain.append((owner, edge - self.firsts[owner]))
            edge = self.parents[owner]
        n = len(self.actions[decision])
        total: list[Fraction | float] = [0] * n
        for hand, chance in enumerate(self.chances):
            weight: Fraction | float = chance
            for owner, k in chain:
                weight *= probability(owner, hand)[k]
            if weight:
                for k, p in enumerate(probability(decision, hand)):
                    total[k] += weight * p
        whole = sum(total)
        return [p / whole for p in total] if whole else [Fraction(1, n)] * n

    def legal(self, edge: int, hand: int) -> bool:
        """Whether the move of ``edge`` is legal with ``hand``."""
        mask = self.masks.get(edge)
        return True if mask is None else bool(mask[hand])

    def allowed(self) -> np.ndarray | None:
        """Which (edge, hand) moves are legal, one row per edge; None where every one is
        (what is legal depends on a die only where an action puts dice out). Built once the
        seat is walked, and shared: not to be written to."""
        if not self.masks:
            return None
        if self._allowed is None or len(self._allowed) != self.edges:  # built once walked
            self._allowed = np.ones((self.edges, len(self.hands)), dtype=np.bool_)
            for edge, mask in self.masks.items():
                self._allowed[edge] = mask
        return self._allowed

    def chosen(
        self,
        decision: int,
        hand: int | None,
        probability: Callable[[int, int], Sequence[Fraction | float]],
    ) -> dict[Action, Fraction | float]:
        """The probability of each move at ``decision`` with ``hand`` (``probability(decision,
        hand)``; None: a hand no longer known, after the seat's own re-roll, for which the
        mixture over the hands it may have been dealt: :meth:`mixed`), by action, as a
        caller sees them: without the solver's own :data:`STAY`, and without the moves
        illegal with the hand."""
        if hand is None:
            column = self.mixed(decision, probability)
        else:
            column = list(probability(decision, hand))
        first = self.firsts[decision]
        return {
            action: p
            for k, (action, p) in enumerate(zip(self.actions[decision], column, strict=True))
            if not isinstance(action, Stay) and (hand is None or self.legal(first + k, hand))
        }

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The decisions' parent edges and first edges (one more: the edge count) as int64
        arrays."""
        parents = np.array(self.parents, dtype=np.int64)
        firsts = np.array([*self.firsts, self.edges], dtype=np.int64)
        return parents, firsts


@attrs.frozen(eq=False)
class Outcome:
    """A call that ends the round, as the solvers settle it: a position before the call
    (the hands of seats still holding the dice they were dealt are placeholders), the call,
    the chance of the dice drawn inside the round on the way there, and which seats' cups
    were drawn (those the position holds as they are)."""

    state: GameState
    action: Action
    weight: Fraction = Fraction(1)
    drawn: tuple[bool, bool] = (False, False)


@attrs.define(eq=False)
class Round:
    """A round as both seats' decisions, every call that ends it (each seat's last edge and
    the call's outcome), and its outcomes (the calls that settle alike for every deal share
    one). ``order`` lists every decision as it was reached (parents first): its seat, its
    number, and the move before it (the seat and edge, -1 at the start); a decision reached
    after moves of several of the other seat's information states (the other seat's own
    chance drew differently) is listed after each."""

    start: GameState
    seats: tuple[Seat, Seat]
    decisions: dict[Place, tuple[int, int]]
    ends: np.ndarray  # one row per call: seat 0's last edge, seat 1's, the outcome
    outcomes: list[Outcome]
    order: np.ndarray  # one row per decision and move before it: seat, decision, seat, edge

    @property
    def infosets(self) -> int:
        return sum(len(seat.firsts) * len(seat.hands) for seat in self.seats)

    def find(self, view: PlayerView) -> tuple[int, int, int | None] | None:
        """The seat, the decision (its number) and the hand (its index) of ``view``, where
        the round has them; the hand None after a re-roll of the seat's own (the hand it
        was dealt is no longer shown: :meth:`Seat.mixed`)."""
        place = own_place(view)
        where = None if place is None else self.decisions.get(place)
        if where is None or place is None:
            return None
        seat, decision = where
        if place[2]:
            return seat, decision, None
        try:
            return seat, decision, self.seats[seat].hands.index(tuple(sorted(view.dice)))
        except ValueError:
            return None

    def settle(self, value: Callable[[GameState], tuple[Fraction, Fraction]]) -> Payoffs:
        """Each outcome's payoff to seat 0 for every deal (chance included), as proven
        bounds: ``value`` gives them for the position after the call."""
        seats = self.seats
        return settle(
            self.outcomes, (seats[0].hands, seats[1].hands),
            (seats[0].chances, seats[1].chances), value,
        )  # fmt: skip

    def followed(self) -> Iterator[tuple[tuple[int, int, int], GameState]]:
        """Each outcome's position after the call for every deal: (the outcome, seat 0's
        hand, seat 1's) and the position."""
        return followed(self.outcomes, (self.seats[0].hands, self.seats[1].hands))

    def weights(self) -> np.ndarray:
        """Each outcome's chance for every deal (the deal's times the dice drawn inside the
        round), in fractions: outcomes x seat 0's hands x seat 1's."""
        seats = self.seats
        return weights(self.outcomes, (seats[0].chances, seats[1].chances))


def settle(
    outcomes: Sequence[Outcome],
    hands: tuple[Sequence[Hand], Sequence[Hand]],
    chances: tuple[Sequence[Fraction], Sequence[Fraction]],
    value: Callable[[GameState], tuple[Fraction, Fraction]],
) -> Payoffs:
    """Each of ``outcomes``' payoff to seat 0 for every deal of ``hands`` (each with its
    chance, included), as proven bounds: ``value`` gives them for the position after the
    call."""
    low = np.empty((len(outcomes), len(hands[0]), len(hands[1])), dtype=object)
    high = np.empty_like(low)
    for where, after in followed(outcomes, hands):
        low[where], high[where] = value(after)
    chance = weights(outcomes, chances)
    return Payoffs(low * chance, high * chance)


def followed(
    outcomes: Sequence[Outcome], hands: tuple[Sequence[Hand], Sequence[Hand]]
) -> Iterator[tuple[tuple[int, int, int], GameState]]:
    """Each of ``outcomes``' position after the call for every deal of ``hands``: (the
    outcome, seat 0's hand, seat 1's) and the position."""
    hands0, hands1 = hands
    for index, outcome in enumerate(outcomes):
        state, action = outcome.state, outcome.action
        for i, j in itertools.product(range(len(hands0)), range(len(hands1))):
            yield (index, i, j), dealt(state, (hands0[i], hands1[j]), outcome.drawn).apply(action)


def weights(
    outcomes: Sequence[Outcome], chances: tuple[Sequence[Fraction], Sequence[Fraction]]
) -> np.ndarray:
    """Each of ``outcomes``' chance for every deal (each hand's ``chances``), times the
    chance of the dice drawn inside the round on the way there."""
    chance = np.array([[c0 * c1 for c1 in chances[1]] for c0 in chances[0]], dtype=object)
    whole: np.ndarray = np.array([chance * outcome.weight for outcome in outcomes], dtype=object)
    return whole.reshape(len(outcomes), len(chances[0]), len(chances[1]))


@attrs.frozen(eq=False)
class Payoffs:
    """Each outcome's payoff to seat 0 by deal (seat 0's hand, seat 1's), times its chance:
    the lowest and the highest it may be (the same in a round)."""

    low: np.ndarray
    high: np.ndarray


def dealt(
    state: GameState, hands: tuple[Hand, Hand], drawn: tuple[bool, bool] = (False, False)
) -> GameState:
    """``state`` with the two seats holding ``hands`` (a seat whose cup was ``drawn`` inside
    the round keeps the dice it holds)."""
    players = tuple(
        player if keep else attrs.evolve(player, dice=hand)
        for player, hand, keep in zip(state.players, hands, drawn, strict=True)
    )
    return attrs.evolve(state, players=players)


def holding(state: GameState, seat: int, hand: Hand) -> GameState:
    """``state`` with ``hand`` under the cup of ``seat`` (its dice in the open kept)."""
    player = state.players[seat]
    player = attrs.evolve(player, dice=tuple(sorted(player.open + hand)))
    return attrs.evolve(state, players=(*state.players[:seat], player, *state.players[seat + 1 :]))


def round_name(state: GameState) -> str:
    counts = [len(p.dice) for p in state.players]
    special = f", a {state.special_round} round" if state.special_round else ""
    offered = f", {' or '.join(state.offers)} to declare" if state.offers else ""
    opener = "nobody" if state.to_act is None else state.players[state.to_act].name
    return (
        f"the {counts[0]}v{counts[1]} round of {state.variant.name} ({opener} "
        f"opening{special}{offered})"
    )


def going_on(variant: Variant) -> tuple[type, ...]:
    """The moves that go on with the round: bids (of a quantity or a hand), declarations, a
    pass, an exact claim (a Bull)."""
    kinds: tuple[type, ...] = (Bid, HandBid, Declare, Paso)
    return (*kinds, Calza) if variant.claims_in_chain else kinds


def walk(start: GameState, limit: int, *, positions: bool = False, chance: bool = True) -> Round:
    """Every decision and call of the round from ``start``, with the engine's legal moves
    (and a position of each decision, with ``positions``).

    An action of the edition's ``actions`` axis that re-rolls a seat's cup (Bluff's
    re-roll) is a move of that seat, legal with the hands that hold the dice it puts out,
    followed by chance: each outcome of the dice re-rolled, with its probability, known to
    that seat alone. A bidder who may take such an action after its bid decides it before
    the next player moves, or lets the chance pass (:data:`STAY`). Without ``chance``, such
    a round is refused."""
    variant = start.variant
    faces = variant.dice.faces
    counts = [len(player.dice) for player in start.players]
    seats = (Seat.dealt(counts[0], faces), Seat.dealt(counts[1], faces))
    if positions:
        for seat in seats:
            seat.states = []
    per_call = len(seats[0].hands) * len(seats[1].hands)
    decisions: dict[Place, tuple[int, int]] = {}
    ends: list[tuple[int, int, int]] = []
    order: list[tuple[int, int, int, int]] = []
    linked: set[tuple[int, int, int, int]] = set()
    outcomes: list[Outcome] = []
    settled: dict[Any, int] = {}
    whole = bool(variant.user_kinds)  # a registered kind may read the whole round
    out_of_turn = variant.has_out_of_turn
    continuing = going_on(variant)
    in_turn = acts_in_turn(variant)
    Draws = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]

    def refuse_chance(who: int, act: Act) -> None:
        if not chance:
            raise SolveError(
                f"in {round_name(start)} seat {who} may {act.word}, chance inside the round "
                "that this measure does not follow"
            )

    def acts(
        state: GameState, who: int, draws: Draws, legal: Sequence[Action] | None = None
    ) -> list[tuple[Act, np.ndarray | None]]:
        # once drawn, the position holds the seat's own cup
        return offered(state, who, None if draws[who] else seats[who].hands, legal)

    def draws_of(
        state: GameState, who: int, act: Act, mask: np.ndarray | None, draws: Draws
    ) -> list[tuple[GameState, Hand, Fraction]]:
        """Each outcome of ``act``'s chance: the position after it, the dice drawn and
        their probability."""
        refuse_chance(who, act)
        side = seats[who]
        hand = side.hands[0 if mask is None else int(np.flatnonzero(mask)[0])]
        before = state if draws[who] else holding(state, who, hand)
        n = rerolled(before, who, act, start)
        return [(before.apply(act, by=who, rolled=drawn), drawn, p) for drawn, p in deals(n, faces)]

    def visit(
        state: GameState,
        last: tuple[int, int],
        before: tuple[int, int],
        draws: Draws,
        weight: Fraction,
        stayed: bool,
    ) -> None:
        seat = state.to_act
        assert seat is not None
        if out_of_turn and not stayed:
            others = alternating(state, start)
            # with every hand: the placeholder's may offer none where another hand would
            bidders = acts(state, 1 - seat, draws, others) if variant.actions.out_of_turn else []
            if bidders:  # the bidder's chance to act, before the next player moves
                decide(state, 1 - seat, [(STAY, None), *bidders], last, before, draws, weight)
                return
        legal = state.legal_actions()
        moves: list[tuple[Move, np.ndarray | None]] = [
            (move, None) for move in legal if not isinstance(move, Act)
        ]
        if in_turn:  # the actions of the axis a seat takes in its turn, by hand
            moves += acts(state, seat, draws)
        decide(state, seat, moves, last, before, draws, weight)

    def decide(
        state: GameState,
        seat: int,
        moves: list[tuple[Move, np.ndarray | None]],
        last: tuple[int, int],
        before: tuple[int, int],
        draws: Draws,
        weight: Fraction,
    ) -> None:
        side = seats[seat]
        place = (public_key(state), seat, draws[seat])
        found = decisions.get(place)
        actions = tuple(move for move, _ in moves)
        ending = [not isinstance(move, (*continuing, Act, Stay)) for move in actions]
        if found is None:
            masks = [mask for _, mask in moves]
            decision = side.decide(last[seat], actions, ending, state, masks)
            decisions[place] = (seat, decision)
        else:  # reached again after another draw of the other seat's own chance
            decision = found[1]
            assert side.parents[decision] == last[seat]
        row = (seat, decision, *before)
        if row not in linked:
            linked.add(row)
            order.append(row)
        first = side.firsts[decision]
        for k, (move, mask) in enumerate(moves):
            edge = first + k
            mine = (edge, last[1]) if seat == 0 else (last[0], edge)
            if isinstance(move, Stay):
                visit(state, mine, (seat, edge), draws, weight, True)
            elif isinstance(move, Act):
                for after, drawn, p in draws_of(state, seat, move, mask, draws):
                    more = (*draws[seat], drawn)
                    now = (more, draws[1]) if seat == 0 else (draws[0], more)
                    visit(after, mine, (seat, edge), now, weight * p, False)
            elif not ending[k]:
                visit(state.apply(move), mine, (seat, edge), draws, weight, False)
            else:
                call(state, move, mine, draws, weight)

    def call(
        state: GameState, action: Action, mine: tuple[int, int], draws: Draws, weight: Fraction
    ) -> None:
        drawn = (bool(draws[0]), bool(draws[1]))
        players = zip(state.players, drawn, strict=True)
        cups = tuple((player.open, player.cup if d else None) for player, d in players)
        key = (call_key(state, action, whole), weight, cups)
        outcome = settled.get(key)
        if outcome is None:
            outcome = settled[key] = len(outcomes)
            outcomes.append(Outcome(state=state, action=action, weight=weight, drawn=drawn))
        ends.append((*mine, outcome))
        if len(ends) * per_call > limit:
            raise SolveError(
                f"{round_name(start)} is too big to solve: more than {limit:,} positions"
            )

    visit(start, (-1, -1), (-1, -1), ((), ()), Fraction(1), False)
    return Round(
        start=start,
        seats=seats,
        decisions=decisions,
        ends=np.array(ends, dtype=np.int64).reshape(-1, 3),
        outcomes=outcomes,
        order=np.array(order, dtype=np.int64).reshape(-1, 4),
    )


def alternating(state: GameState, start: GameState) -> tuple[Action, ...]:
    """The moves the seat not to act may make out of turn in ``state`` (of the round from
    ``start``), refused unless each is an action of the ``actions`` axis: the solver
    solves games of alternating turns."""
    assert state.to_act is not None
    other = 1 - state.to_act
    moves = state.legal_actions(by=other)
    if any(not isinstance(move, Act) for move in moves):
        raise SolveError(
            f"in {round_name(start)} seat {other} may act out of turn, which the solver "
            "does not follow (it solves games of alternating turns)"
        )
    return moves


def acts_in_turn(variant: Variant) -> bool:
    """Whether a seat takes actions of the edition's ``actions`` axis in its own turn
    (a re-roll before a bid), not only out of it (Bluff's, after its own bid)."""
    return variant.actions.kind != "none" and not variant.actions.out_of_turn


def offered(
    state: GameState,
    who: int,
    hands: Sequence[Hand] | None,
    legal: Sequence[Action] | None = None,
) -> list[tuple[Act, np.ndarray | None]]:
    """The actions of the edition's ``actions`` axis seat ``who`` may take, each with which
    of ``hands`` (its possible cups) it is legal with (None: every one); ``hands`` None:
    the position holds the seat's own cup (``legal``: its legal moves, where already
    asked)."""
    if hands is None:
        if legal is None:
            legal = state.legal_actions(by=who)
        return [(move, None) for move in legal if isinstance(move, Act)]
    found: dict[Act, np.ndarray] = {}
    for h, hand in enumerate(hands):
        for move in holding(state, who, hand).legal_actions(by=who):
            if isinstance(move, Act):
                found.setdefault(move, np.zeros(len(hands), dtype=np.bool_))[h] = True
    return [(act, None if mask.all() else mask) for act, mask in found.items()]


def rerolled(state: GameState, who: int, act: Act, start: GameState) -> int:
    """How many dice ``act`` (legal for seat ``who`` in ``state``) re-rolls: every die it
    leaves under the cup. Refused when it keeps part of a hidden cup (a draw) or looks under
    one: the new cup would depend on the old, or the chance on another seat's hand."""
    player = state.players[who]
    effect = state.variant.actions.effect(act, who, player.cup, state.context)
    if not effect.reroll or effect.redraw or effect.look_at is not None:
        raise SolveError(
            f"in {round_name(start)} seat {who} may {act.word} ({shown(str(act))}), chance "
            "that keeps part of a hidden cup or looks under one, which the solver does not "
            "follow (it follows actions that re-roll every die left under the cup)"
        )
    return len(player.cup) - len(effect.put_out)


def round_start(state: GameState) -> Any:
    """What the rest of a game from the start of a round depends on, besides the dice
    dealt."""
    return (
        standing(state), state.to_act, state.rules, state.special_round, state.special_player,
        state.owed, state.offers, state.must_declare, state.starting_dice,
    )  # fmt: skip


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
