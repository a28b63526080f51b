"""Chance inside a round (Bluff's re-roll) solved as chance nodes, checked against an
independent model: the game written out history by history from the engine, every deal
and every re-roll drawn die by die, its sequence form solved by SciPy's own linear
program solver."""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict
from fractions import Fraction
from typing import Any

import pytest

import perudo

pytest.importorskip("scipy", reason="the solve extra is not installed: pip install '.[solve]'")

import numpy as np
from scipy import sparse
from scipy.optimize import linprog

from perudo.actions import Act
from perudo.solve import Solution, SolveError, exploitability, solve_game, solve_round
from perudo.state import GameState


@functools.cache
def bluff(faces: int, kind: str = "reroll") -> perudo.Variant:
    """Bluff with ``faces`` faces, the highest wild (a star), as its own dice have; its
    re-roll of the ``actions`` kind ``kind`` (``reroll-then-bid``: in turn, before a bid;
    ``none``: no re-roll)."""
    return perudo.load_variant("bluff").derive(
        f"bluff-d{faces}-{kind}", reason="Fewer faces, to solve in a test.",
        dice={"per_player": 5, "faces": faces}, wilds={"face": faces},
        conversion={"face": faces}, actions={"kind": kind},
    )  # fmt: skip


@functools.cache
def solved(faces: int, counts: tuple[int, int], kind: str = "reroll") -> Solution:
    """The round solved (once for the module's tests)."""
    return solve_round(bluff(faces, kind), counts)


class SequenceForm:
    """A two-seat zero-sum game's sequence form, built history by history: each seat's
    sequences (an information state and a move), its constraints, and the payoff to seat 0
    of each pair of sequences, chance included."""

    def __init__(self) -> None:
        self.sequences: list[dict[Any, int]] = [{}, {}]  # (infoset, move) -> number (0: none)
        self.infosets: list[dict[Any, tuple[int, list[int]]]] = [{}, {}]
        self.payoff: dict[tuple[int, int], float] = defaultdict(float)

    def move(self, seat: int, infoset: Any, move: str, parent: int) -> int:
        known = self.infosets[seat].setdefault(infoset, (parent, []))
        assert known[0] == parent, "perfect recall"
        number = self.sequences[seat].setdefault((infoset, move), len(self.sequences[seat]) + 1)
        if number not in known[1]:
            known[1].append(number)
        return number

    def constraints(self, seat: int) -> sparse.csr_matrix:
        count = len(self.sequences[seat]) + 1
        rows, cols, values = [0], [0], [1.0]
        for row, (parent, children) in enumerate(self.infosets[seat].values(), start=1):
            rows += [row] * (1 + len(children))
            cols += [parent, *children]
            values += [-1.0] + [1.0] * len(children)
        shape = (len(self.infosets[seat]) + 1, count)
        return sparse.csr_matrix((values, (rows, cols)), shape=shape)

    def value(self) -> float:
        """max over seat 0's plans x of min over seat 1's: max f'q s.t. F'q <= A'x, Ex = e."""
        e, f = self.constraints(0), self.constraints(1)
        n0, m1 = e.shape[1], f.shape[0]
        keys = list(self.payoff)
        a = sparse.csr_matrix(
            ([self.payoff[k] for k in keys], ([k[0] for k in keys], [k[1] for k in keys])),
            shape=(n0, f.shape[1]),
        )
        cost = np.zeros(n0 + m1)
        cost[n0] = -1.0
        upper = sparse.hstack([-a.T, f.T])
        equal = sparse.hstack([e, sparse.csr_matrix((e.shape[0], m1))])
        rhs = np.zeros(e.shape[0])
        rhs[0] = 1.0
        result = linprog(
            cost, A_ub=upper, b_ub=np.zeros(upper.shape[0]), A_eq=equal, b_eq=rhs,
            bounds=[(0, None)] * n0 + [(None, None)] * m1, method="highs",
        )  # fmt: skip
        assert result.status == 0, result.message
        return float(-result.fun)


def independent_value(variant: perudo.Variant, counts: tuple[int, int]) -> float:
    """The round's value for seat 0 (seat 0 opening), from every ordered deal and every
    ordered re-roll: a seat's information is its own dice, each re-roll's new dice, and
    every move made (a re-roll's dice put out, or the bidder letting its chance pass)."""
    faces = variant.dice.faces
    form = SequenceForm()

    def walk(
        state: GameState,
        private: tuple[tuple[Any, ...], tuple[Any, ...]],
        public: tuple[Any, ...],
        last: tuple[int, int],
        chance: float,
        stayed: bool,
    ) -> None:
        seat = state.to_act
        assert seat is not None
        bidder = 1 - seat
        acts = [] if stayed else [a for a in state.legal_actions(by=bidder) if isinstance(a, Act)]
        if acts:  # the bidder's re-roll, or none, before the next player moves
            infoset = (private[bidder], public)
            for act in (None, *acts):
                number = form.move(bidder, infoset, str(act), last[bidder])
                mine = (number, last[1]) if bidder == 0 else (last[0], number)
                if act is None:
                    walk(state, private, (*public, (bidder, "stay")), mine, chance, True)
                    continue
                n = len(state.players[bidder].cup) - len(act.numbers)
                for rolled in itertools.product(range(1, faces + 1), repeat=n):
                    after = state.apply(act, by=bidder, rolled=rolled)
                    seen = list(private)
                    seen[bidder] = (*seen[bidder], tuple(sorted(rolled)))
                    walk(
                        after, (seen[0], seen[1]), (*public, (bidder, str(act))), mine,
                        chance / faces**n, False,
                    )  # fmt: skip
            return
        infoset = (private[seat], public)
        for action in state.legal_actions():
            number = form.move(seat, infoset, str(action), last[seat])
            mine = (number, last[1]) if seat == 0 else (last[0], number)
            if isinstance(action, Act):  # a re-roll in turn (then a bid)
                n = len(state.chance_nodes(action))
                for rolled in itertools.product(range(1, faces + 1), repeat=n):
                    seen = list(private)
                    seen[seat] = (*seen[seat], tuple(sorted(rolled)))
                    walk(
                        state.apply(action, rolled=rolled), (seen[0], seen[1]),
                        (*public, (seat, str(action))), mine, chance / faces**n, False,
                    )  # fmt: skip
                continue
            after = state.apply(action)
            if after.round_number == state.round_number and not after.is_over:
                walk(after, private, (*public, (seat, str(action))), mine, chance, False)
                continue
            result = after.last_result
            assert result is not None
            form.payoff[mine] += chance * (result.changes[0] - result.changes[1])

    for hand0 in itertools.product(range(1, faces + 1), repeat=counts[0]):
        for hand1 in itertools.product(range(1, faces + 1), repeat=counts[1]):
            state = perudo.new_game(
                variant, 2, seed=0, dice=[list(hand0), list(hand1)], first_player=0
            )
            private = ((tuple(sorted(hand0)),), (tuple(sorted(hand1)),))
            walk(state, private, (), (0, 0), 1 / faces ** sum(counts), False)
    return form.value()


@pytest.mark.parametrize(
    ("kind", "counts"),
    [
        ("reroll", (2, 1)),
        ("reroll-then-bid", (1, 2)),
        pytest.param("reroll", (2, 2), marks=pytest.mark.slow),  # both seats re-roll
    ],
)
def test_a_re_roll_is_chance_inside_the_round_with_the_independent_models_value(
    kind: str, counts: tuple[int, int]
) -> None:
    # Bluff's re-roll after the bidder's own bid (out of turn), and a re-roll in turn
    # before a bid (the kind reroll-then-bid), at two faces (a 1 and a star)
    solution = solved(2, counts, kind)
    assert solution.exact
    assert float(solution.value) == pytest.approx(
        independent_value(bluff(2, kind), counts), abs=1e-9
    )
    # and the re-roll is seen: without it the value moves
    assert abs(solved(2, counts, "none").value - solution.value) > Fraction(1, 100)


def test_the_estimate_counts_every_outcome_of_a_re_roll() -> None:
    # the calls are counted as the walk builds them, once for each outcome of the dice
    from perudo.solve.size import estimate
    from perudo.solve.tree import start_state, walk

    start = start_state(bluff(3), (2, 1), 0, starting=None)
    walked = walk(start, 10**9)
    assert estimate(start, (6, 3)).calls == len(walked.ends) == 12_031
    assert walked.seats[0].masks  # a re-roll is legal only with the dice it puts out


def test_the_solution_covers_a_seat_after_its_own_re_roll() -> None:
    variant = bluff(3)
    solution = solved(3, (2, 1))
    state = perudo.new_game(variant, 2, seed=0, dice=[[1, 2], [3]], first_player=0)
    opening = solution.strategy(state.view(0))
    assert set(opening) <= set(state.legal_actions())
    assert sum(opening.values()) == 1
    bid = next(action for action in state.legal_actions() if str(action) == "1x1")
    state = state.apply(bid).apply(Act("reroll", (2,)), by=0, rolled=[3])
    answer = solution.strategy(state.view(1))
    assert set(answer) <= set(state.legal_actions())
    assert sum(answer.values()) == 1
    later = state.apply(next(a for a in state.legal_actions() if str(a) == "2x1"))
    # seat 0 re-rolled: its strategy over the hands it may have been dealt (holding a 2),
    # each weighed by its chance and by seat 0's own moves on the way
    mixed = solution.strategy(later.view(0))
    assert set(mixed) <= set(later.legal_actions())
    assert sum(mixed.values()) == 1


@pytest.mark.slow
def test_the_solutions_bots_play_whole_games_with_re_rolls_in_turn() -> None:
    # a re-roll in turn, then a bid: the bot re-rolls as its strategy says, and its next
    # decisions (its dealt hand no longer shown) are covered
    variant = bluff(3, "reroll-then-bid")
    game = solve_game(variant, (2, 1))
    bots = [game.bot(seed=1), game.bot(seed=2)]
    rerolled = 0
    for seed in range(20):
        state = perudo.new_game(variant, 2, seed=seed, first_player=0, starting_dice=[2, 1])
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            action = bots[seat].act(state.view(seat))
            rerolled += isinstance(action, Act)
            state = state.apply(action)
    assert rerolled


def test_chance_that_keeps_part_of_a_cup_is_refused_by_name() -> None:
    draws = perudo.load_variant("mia").derive(
        "mia-draws", reason="A draw keeps the rest of the cup.",
        actions={"kind": "roll-and-draw", "draws": 1},
    )  # fmt: skip
    with pytest.raises(SolveError, match=r"may draw .* keeps part of a hidden cup"):
        solve_round(draws, (2, 2))


def test_a_bots_exploitability_is_not_measured_where_chance_is_inside_the_round() -> None:
    from perudo.bots import RandomBot

    with pytest.raises(SolveError, match="may reroll, chance inside the round"):
        exploitability(RandomBot(), bluff(3), (2, 1))


def test_cfr_plus_follows_the_re_roll_to_the_exact_value() -> None:
    from perudo.solve import approximate_round

    variant = bluff(3)
    approximation = approximate_round(variant, (2, 1), exploitability=1e-4)
    assert approximation.exploitability <= 1e-4
    exact = solved(3, (2, 1)).value
    assert abs(approximation.value - float(exact)) <= 2 * approximation.exploitability


@pytest.mark.slow
def test_the_perfect_play_page_gives_bluffs_values_at_three_faces() -> None:
    # rounds, and whole games (each round's re-rolls solved, every round of the game)
    from pathlib import Path

    page = Path(__file__).parent.parent / "docs" / "perfect-play.md"
    section = page.read_text().split("## Chance inside a round")[1].split("\n## ")[0]
    row = next(line for line in section.splitlines() if line.startswith("| 3 |"))
    cells = [cell.split("**")[1] for cell in row.split("|")[2:-1]]
    rounds = [solved(3, dice).value for dice in ((1, 2), (2, 1))]
    found = [*rounds, *(solve_game(bluff(3), dice).value for dice in ((1, 2), (2, 1)))]
    assert [str(value) for value in found] == cells


def test_a_strategy_holds_only_the_re_rolls_legal_with_the_hand() -> None:
    # re-rolled in turn, before a bid: the opener with two 1s may put out a 1, not a 2
    from perudo.solve import approximate_round

    variant = bluff(3, "reroll-then-bid")
    state = perudo.new_game(variant, 2, seed=0, dice=[[1, 1], [3]], first_player=0)
    legal = set(state.legal_actions())
    assert Act("reroll", (1,)) in legal
    assert Act("reroll", (2,)) not in legal
    exact = solved(3, (2, 1), "reroll-then-bid").strategy(state.view(0))
    approximate = approximate_round(variant, (2, 1), iterations=50).strategy(state.view(0))
    for strategy in (exact, approximate):
        assert set(strategy) <= legal
        assert Act("reroll", (1,)) in strategy
        assert sum(strategy.values()) == pytest.approx(1)


def test_a_mixed_strategy_weighs_each_dealt_hand_by_its_chance_and_the_seats_own_moves() -> None:
    from perudo.solve.tree import Seat

    seat = Seat(hands=[(1,), (2,)], chances=[Fraction(1, 4), Fraction(3, 4)])
    start = perudo.new_game("bluff", 2, seed=0)
    seat.decide(-1, (Act("a"), Act("b")), [False, False], start)  # decision 0: edges 0, 1
    seat.decide(1, (Act("c"), Act("d")), [False, False], start)  # after edge 1 (move "b")
    plays = {
        (0, 0): (Fraction(1, 2), Fraction(1, 2)), (1, 0): (Fraction(1), Fraction(0)),
        (0, 1): (Fraction(0), Fraction(1)), (1, 1): (Fraction(0), Fraction(1)),
    }  # fmt: skip
    # hand 0 gets there with 1/4 x 1/2, hand 1 with 3/4 x 1
    assert seat.mixed(1, lambda d, h: plays[d, h]) == [Fraction(1, 7), Fraction(6, 7)]
