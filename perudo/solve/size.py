"""What a round will cost before it is built: its decisions, edges and calls counted
without walking every history, and the memory the solver will hold for them."""

from __future__ import annotations

import math
import os
from typing import Any

import attrs
import numpy as np

from perudo.actions import Act
from perudo.errors import SolveError
from perudo.solve.tree import (
    acts_in_turn,
    deals,
    going_on,
    holding,
    offered,
    rerolled,
    round_name,
    standing,
)
from perudo.state import GameState

#: The memory a solve holds per decision of the round walked (its position's key, its
#: actions, its place in the tree), per (edge, hand) of a seat (CFR+'s arrays and the exact
#: best response's), and besides (Python, NumPy, SciPy, the linear program): measured on
#: the three-dice rounds at six faces.
BYTES_PER_DECISION = 1_900
BYTES_PER_ENTRY = 80
BYTES_BESIDES = 400 * 2**20

#: The most histories a round whose kinds may read the whole round is counted to, one by
#: one, before the estimate gives up and says "more than".
COUNTED = 200_000


@attrs.frozen
class Estimate:
    """A round's size, counted before it is built.

    Attributes:
        decisions: Its decisions (histories of moves where a seat acts), both seats'.
        edges: Each seat's moves at its decisions, summed over its decisions.
        calls: The calls that end it.
        hands: Each seat's possible hands.
        at_least: Whether the count stopped early (a registered kind may read the whole
            round, so histories cannot be merged): the round is at least this big.
    """

    decisions: int
    edges: tuple[int, int]
    calls: int
    hands: tuple[int, int]
    at_least: bool = False

    @property
    def positions(self) -> int:
        """The calls times the deals of the dice."""
        return self.calls * self.hands[0] * self.hands[1]

    @property
    def memory(self) -> int:
        """The bytes a solve of the round holds, about."""
        entries = self.edges[0] * self.hands[0] + self.edges[1] * self.hands[1]
        return BYTES_BESIDES + BYTES_PER_DECISION * self.decisions + BYTES_PER_ENTRY * entries

    def __str__(self) -> str:
        more = "more than " if self.at_least else ""
        return (
            f"{more}{self.decisions:,} decisions and {self.calls:,} calls, "
            f"{self.hands[0]} x {self.hands[1]} deals: about {gib(self.memory)}"
        )


def gib(size: int) -> str:
    """``size`` bytes in GiB, for a message."""
    return f"{size / 2**30:.1f} GiB"


def estimate(start: GameState, hands: tuple[int, int]) -> Estimate:
    """The size of the round from ``start``, each seat having ``hands`` possible hands.
    Positions that differ only in bids made before the standing one are counted once (with
    perudo's own kinds, what is legal after a bid depends on the standing bid, the round's
    rules and the seats' standing); a round whose kinds may read the whole round is
    counted history by history, up to :data:`COUNTED`. An action that re-rolls dice counts
    the rest of the round once for each outcome of the dice drawn, as the walk builds it."""
    variant = start.variant
    continuing = going_on(variant)
    whole = bool(variant.user_kinds) or start.rules.raising.times_per_bid != 1
    after_bid = variant.actions.out_of_turn  # a bidder's action after its own bid
    in_turn = acts_in_turn(variant)
    faces = variant.dice.faces
    memo: dict[Any, tuple[int, int, int, int]] = {}
    budget = [COUNTED]

    def acted(
        state: GameState, who: int, act: Act, mask: np.ndarray | None, sizes: list[int]
    ) -> tuple[int, int]:
        """The rest of the round after ``act`` (legal with the hands of ``mask``), once for
        each outcome of its dice: the decisions and calls it adds (its edges added to
        ``sizes``, in place)."""
        cups = possible(state, who)
        before = holding(state, who, cups[0 if mask is None else int(np.flatnonzero(mask)[0])])
        n = rerolled(before, who, act, start)
        ways = math.comb(n + faces - 1, n)  # the sorted outcomes of n dice
        d, e0, e1, c = count(before.apply(act, by=who, rolled=(1,) * n), False)
        sizes[0] += ways * e0
        sizes[1] += ways * e1
        return ways * d, ways * c

    def possible(state: GameState, who: int) -> list[tuple[int, ...]]:
        return [hand for hand, _ in deals(len(state.players[who].cup), faces)]

    def count(state: GameState, stayed: bool) -> tuple[int, int, int, int]:
        key = (future(state, whole), stayed)
        found = memo.get(key)
        if found is not None:
            return found
        budget[0] -= 1
        if whole and budget[0] < 0:
            raise _Stop
        seat = state.to_act
        assert seat is not None
        sizes = [0, 0]
        decisions, calls = 1, 0
        bidder = 1 - seat
        acts = offered(state, bidder, possible(state, bidder)) if after_bid and not stayed else []
        if acts:  # the bidder's decision before the next player's
            sizes[bidder] = 1 + len(acts)
            d, e0, e1, c = count(state, True)
            decisions, calls = decisions + d, c
            sizes[0] += e0
            sizes[1] += e1
            for act, mask in acts:
                d, c = acted(state, bidder, act, mask, sizes)
                decisions, calls = decisions + d, calls + c
            memo[key] = found = decisions, sizes[0], sizes[1], calls
            return found
        actions = [move for move in state.legal_actions() if not isinstance(move, Act)]
        acts = offered(state, seat, possible(state, seat)) if in_turn else []
        sizes[seat] = len(actions) + len(acts)
        for act, mask in acts:
            d, c = acted(state, seat, act, mask, sizes)
            decisions, calls = decisions + d, calls + c
        for action in actions:
            if isinstance(action, continuing):
                d, e0, e1, c = count(state.apply(action), False)
                decisions, calls = decisions + d, calls + c
                sizes[0] += e0
                sizes[1] += e1
            else:
                calls += 1
        memo[key] = found = decisions, sizes[0], sizes[1], calls
        return found

    try:
        decisions, e0, e1, calls = count(start, False)
    except _Stop:
        return Estimate(
            decisions=COUNTED, edges=(COUNTED, COUNTED), calls=COUNTED, hands=hands,
            at_least=True,
        )  # fmt: skip
    except RecursionError:  # pragma: no cover - a chain of bids thousands long
        raise SolveError(f"{round_name(start)} is too big to solve: its bids never end") from None
    return Estimate(decisions=decisions, edges=(e0, e1), calls=calls, hands=hands)


class _Stop(Exception):
    """The count went past :data:`COUNTED` histories."""


def future(state: GameState, whole: bool) -> Any:
    """What the rest of the round from ``state`` depends on (the key the count merges):
    with ``whole``, every bid of the round."""
    bids = state.bids
    if whole:
        history: Any = tuple((placed.player, placed.bid, placed.claim) for placed in bids)
    else:
        last = bids[-1] if bids else None
        claims = tuple((placed.player, placed.claim) for placed in bids if placed.claim != "bid")
        history = (last, claims)
    acts = tuple(placed.player for placed in state.acts if placed.after == len(bids))
    opened = tuple(player.open for player in state.players)
    return (
        history, state.to_act, state.pressured, state.offers, state.must_declare,
        state.special_round, state.rules, standing(state), _first(state), acts, opened,
        state.must_bid,
    )  # fmt: skip


def _first(state: GameState) -> Any:
    """The round's first bid (a locked face, a Palifico's face, follows it)."""
    bids = state.bids
    return bids[0].bid if bids else None


def available() -> int:
    """The memory the machine has free now, in bytes (Linux's MemAvailable; elsewhere the
    free physical pages)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:  # pragma: no cover - not Linux
        pass
    try:  # pragma: no cover - not Linux
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # pragma: no cover
        return 2**62


def check(start: GameState, hands: tuple[int, int], limit: int, memory: int | None) -> Estimate:
    """The round's estimate, refused at once if it is past ``limit`` positions or needs
    more than ``memory`` bytes (by default what the machine has free)."""
    found = estimate(start, hands)
    if found.positions > limit:
        raise SolveError(
            f"{round_name(start)} is too big to solve: {found}, past the {limit:,} positions "
            "a solution may hold"
        )
    fits(start, found.memory, memory, "solve", str(found))
    return found


def fits(start: GameState, needs: int, memory: int | None, verb: str, size: str) -> None:
    """Refuse the round from ``start`` (to ``verb``: its ``size`` in words) if it ``needs``
    more than ``memory`` bytes (by default what the machine has free)."""
    budget = available() if memory is None else memory
    if needs > budget:
        free = " (what the machine has free)" if memory is None else ""
        raise SolveError(
            f"{round_name(start)} is too big to {verb} here: {size}, more than the "
            f"{gib(budget)} it may use{free}"
        )
