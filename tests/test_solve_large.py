"""Rounds past one linear program (issue 41): the double oracle (CFR+'s moves, a
sub-round's linear program, exact best responses that prove it or add what gains), the
size estimated before anything is built, the memory a solve may use, CFR+ on its own, and
the published values of the other exact solver (thomasahle/snyd) as regression tests.

The six-face values take minutes each: they run with ``PERUDO_SOLVE_LARGE=1``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from typing import ClassVar

import attrs
import numpy as np
import pytest
from helpers import four_faces, registered

import perudo

pytest.importorskip("scipy", reason="the solve extra is not installed: pip install '.[solve]'")
pytest.importorskip("numba", reason="the solve extra is not installed: pip install '.[solve]'")

import perudo.solve.exact
from perudo.rules import QuantityOrFace, RoundContext
from perudo.solve import (
    SolveError,
    approximate_round,
    exploitability,
    solve_round,
)
from perudo.solve.size import estimate
from perudo.solve.tree import deals, start_state, walk

LARGE = pytest.mark.skipif(
    os.environ.get("PERUDO_SOLVE_LARGE") != "1",
    reason="minutes each: run with PERUDO_SOLVE_LARGE=1",
)

LIARS_DICE = perudo.load_variant("openspiel-liars-dice")


@attrs.frozen
class NeverOnes(QuantityOrFace):
    """Raise the quantity or the face; a bid never names ones (they are only wild)."""

    kind: ClassVar[str] = "test-never-ones-large"

    def lowest(self, face: int, context: RoundContext) -> int | None:
        return None if face == 1 else super().lowest(face, context)


def snyd(faces: int, mode: str) -> perudo.Variant:
    """snyd's one-round game at ``faces`` faces: "normal" (no wild face, every face bid) or
    "joker" (ones wild, never bid); two dice a seat at most."""
    dice = {"per_player": 2, "faces": faces}
    if mode == "normal":
        return LIARS_DICE.derive(
            f"snyd-normal-{faces}", reason="Test.", dice=dice, wilds={"kind": "none"}
        )
    return LIARS_DICE.derive(
        f"snyd-joker-{faces}", reason="Test.", dice=dice, wilds={"kind": "ones"},
        raising=NeverOnes(), opening={"kind": "standard", "ones": "forbidden"},
    )  # fmt: skip


@pytest.fixture
def double_oracle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every round solved by the double oracle, however small."""
    monkeypatch.setattr(perudo.solve.exact, "WHOLE", 0)


@pytest.mark.usefixtures("double_oracle")
def test_the_double_oracle_proves_the_value_of_one_linear_program() -> None:
    lines: list[str] = []
    solved = solve_round(LIARS_DICE, progress=lines.append)
    assert (solved.value, solved.exact) == (Fraction(-7, 258), True)
    assert any(line.startswith("CFR+:") for line in lines)
    assert any("moves that gain added" in line for line in lines)  # the sub-round grew
    assert lines[-1] == "proven: -7/258"
    # the strategies proven call where the sub-round left a decision out: still unbeatable
    assert exploitability(solved.bot(), LIARS_DICE) == 0


@pytest.mark.slow
@pytest.mark.usefixtures("double_oracle")
def test_the_double_oracle_solves_three_dice_as_the_linear_program_does() -> None:
    italian = four_faces("italian")
    assert solve_round(italian, (1, 2)).value == Fraction(-43, 224)
    assert solve_round(italian, (2, 1)).value == Fraction(1, 8)


@pytest.mark.parametrize(
    ("key", "dice"),
    [
        ("italian", (1, 2)),
        ("french-calza", (2, 1)),
        ("spanish", (1, 2)),
        ("wango-party", (1, 1)),
        ("openspiel-liars-dice", (1, 1)),
        ("french-jonti", (2, 2)),
    ],
)
def test_the_estimate_counts_what_the_walk_builds(key: str, dice: tuple[int, int]) -> None:
    variant = perudo.load_variant(key)
    if key != "openspiel-liars-dice":
        variant = variant.derive(f"{key}-d3", reason="Test.", dice={"per_player": 5, "faces": 3})
    start = start_state(variant, dice, 0, starting=None)
    faces = variant.dice.faces
    hands = (len(deals(dice[0], faces)), len(deals(dice[1], faces)))
    found = estimate(start, hands)
    round_ = walk(start, 10**12)
    seats = round_.seats
    assert found.decisions == len(seats[0].firsts) + len(seats[1].firsts)
    assert found.edges == (seats[0].edges, seats[1].edges)
    assert found.calls == len(round_.ends)
    assert not found.at_least


def test_a_round_past_the_memory_allowed_is_refused_at_once_with_its_estimate() -> None:
    with pytest.raises(SolveError) as refused:
        solve_round("italian", (1, 2), memory=500 * 2**20)
    message = str(refused.value)
    assert "262,013 decisions and 262,012 calls, 6 x 21 deals" in message
    assert "more than the 0.5 GiB it may use" in message
    with pytest.raises(SolveError, match="not a number of bytes"):
        solve_round("italian", memory=100)


def test_the_command_line_refuses_past_its_memory_and_shows_progress() -> None:
    refused = subprocess.run(
        [sys.executable, "-m", "perudo", "solve", "italian", "--dice", "1,2", "--memory", "1G"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert refused.returncode == 2
    assert "too big to solve here" in refused.stderr
    assert "about 1.4 GiB, more than the 1.0 GiB it may use" in refused.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "perudo", "solve", "italian", "--memory", "lots"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert bad.returncode == 2
    assert "'lots' is not a memory size" in bad.stderr
    done = subprocess.run(
        [sys.executable, "-m", "perudo", "solve", "openspiel-liars-dice", "--json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["value"] == "-7/258"  # stdout holds the answer alone
    progress = done.stderr.splitlines()
    assert progress[0].startswith("perudo solve: the 1v1 round of OpenSpiel liars_dice")
    assert progress[-1] == "perudo solve: proven: -7/258"


def test_cfr_reaches_its_target_and_measures_its_exploitability_exactly() -> None:
    lines: list[str] = []
    cfr = approximate_round(LIARS_DICE, exploitability=1e-3, progress=lines.append)
    assert cfr.exploitability <= 1e-3
    assert cfr.checkpoints[-1][:2] == (cfr.iterations, cfr.exploitability)
    assert [point[0] for point in cfr.checkpoints] == sorted({p[0] for p in cfr.checkpoints})
    assert abs(cfr.value - (-7 / 258)) <= 2 * cfr.exploitability
    assert lines[-1].startswith(f"CFR+: {cfr.iterations:,} iterations")
    # the exact best response against the average strategies (the bot's policy) agrees
    exact = exploitability(cfr.bot(), LIARS_DICE)
    assert abs(float(exact) - cfr.exploitability) < 1e-12
    state = perudo.new_game(LIARS_DICE, 2, seed=3, dice=[[2], [5]], first_player=0)
    strategy = cfr.strategy(state.view(0))
    assert set(strategy) == set(state.legal_actions())
    assert abs(sum(strategy.values()) - 1) < 1e-9
    assert cfr.to_dict()["iterations"] == cfr.iterations


def test_cfr_stops_at_its_iterations_and_refuses_bad_targets() -> None:
    cfr = approximate_round(LIARS_DICE, exploitability=1e-9, iterations=25)
    assert cfr.iterations == 25
    assert cfr.exploitability > 1e-9
    for bad in ({"exploitability": 0}, {"iterations": 0}, {"seconds": -1.0}):
        with pytest.raises(SolveError, match="is not a positive"):
            approximate_round(LIARS_DICE, **bad)  # type: ignore[arg-type]
    with pytest.raises(SolveError, match="does not cover"):
        cfr.strategy(perudo.new_game(LIARS_DICE, 2, seed=3).public_view())


def test_the_linear_programs_basis_is_made_exact() -> None:
    """The vertex HiGHS gives, in fractions: within the floats' error, a valid plan, and
    the equilibrium (both exact best responses meet)."""
    from perudo.solve import lp
    from perudo.solve.checks import dice_payoff
    from perudo.solve.proof import best_response

    round_ = walk(start_state(LIARS_DICE, (1, 1), 0, starting=None), 10**6)
    payoffs = round_.settle(dice_payoff)
    seats = round_.seats
    every = [np.ones((s.edges, len(s.hands)), dtype=bool) for s in seats]
    reached = lp.alive(round_, (every[0], every[1]))
    parts = (
        lp.Restricted.of(seats[0], every[0], reached[0]),
        lp.Restricted.of(seats[1], every[1], reached[1]),
    )
    vertex = lp.plans(round_, parts, payoffs.low.astype(np.float64))
    plans = lp.exact(round_, parts, payoffs.low, vertex)
    assert plans is not None
    for exact, floats in zip(plans, vertex.plans, strict=True):
        assert exact.dtype == object
        assert max(abs(float(p) - f) for p, f in zip(exact, floats, strict=True)) < 1e-9
        assert min(exact) >= 0
    strategies = [lp.behaviour(seat, plan) for seat, plan in zip(seats, plans, strict=True)]
    low, _ = best_response(round_, payoffs.low, strategies[0], responder=1)
    high, _ = best_response(round_, payoffs.low, strategies[1], responder=0)
    assert low == high == Fraction(-7, 258)


@pytest.mark.parametrize(
    ("variant", "dice", "value"),
    [(LIARS_DICE, (1, 1), Fraction(-7, 258)), ("italian-4", (1, 2), Fraction(-43, 224))],
)
def test_a_linear_program_started_from_a_smaller_parts_basis_finds_the_same_equilibrium(
    variant: perudo.Variant | str, dice: tuple[int, int], value: Fraction
) -> None:
    """The double oracle's next linear program starts from the basis of the one before
    (HiGHS's warm start: a 2v2 round at four faces in half the time), with the same seat's
    plan as its primal variables even where the part now has fewer sequences of the other
    (turned round, it would start from nothing); the vertex it ends at is a basis of its
    own program, exact, and the same equilibrium as a cold start's."""
    from perudo.solve import exact, lp
    from perudo.solve.checks import dice_payoff
    from perudo.solve.proof import best_response

    if variant == "italian-4":
        variant = four_faces("italian")
    round_ = walk(start_state(variant, dice, 0, starting=None), 10**6)
    payoffs = round_.settle(dice_payoff)
    floats = payoffs.low.astype(np.float64)
    seats = round_.seats

    def vertex_of(
        held: tuple[np.ndarray, np.ndarray], start: lp.Vertex | None
    ) -> tuple[tuple[lp.Restricted, lp.Restricted], lp.Vertex]:
        reached = lp.alive(round_, held)
        parts = (
            lp.Restricted.of(seats[0], held[0], reached[0]),
            lp.Restricted.of(seats[1], held[1], reached[1]),
        )
        return parts, lp.plans(round_, parts, floats, start)

    calls = [
        np.array(s.ending, dtype=bool)[:, None] & np.ones((1, len(s.hands)), bool) for s in seats
    ]
    small = calls[0].copy(), calls[1].copy()
    exact._fill(round_, small, None)  # the calls, and one move wherever none is held
    with pytest.MonkeyPatch.context() as patch:  # as if seat 1 had had fewer sequences
        patch.setattr(lp, "_primal", lambda parts: 1)
        _, before = vertex_of(small, None)
    every = tuple(np.ones((s.edges, len(s.hands)), dtype=bool) for s in seats)
    cold_parts, cold = vertex_of((every[0], every[1]), None)
    parts, warm = vertex_of((every[0], every[1]), before)
    assert warm.started  # HiGHS took the basis handed on
    assert not cold.started
    assert warm.primal == before.primal  # kept, whichever seat has fewer sequences now
    assert warm.primal == 1  # seat 1's plan stays the primal one:
    assert cold.primal == lp._primal(parts) == 0  # a cold start would have turned it round
    values = []
    for vertex, where in ((cold, cold_parts), (warm, parts)):
        plans = lp.exact(round_, where, payoffs.low, vertex)
        assert plans is not None  # the basis HiGHS ends at is one of this program
        strategies = [lp.behaviour(seat, plan) for seat, plan in zip(seats, plans, strict=True)]
        low, _ = best_response(round_, payoffs.low, strategies[0], responder=1)
        high, _ = best_response(round_, payoffs.low, strategies[1], responder=0)
        values.append((low, high))
    assert values == [(value, value)] * 2


@LARGE
@pytest.mark.parametrize(
    ("key", "faces", "dice", "value"),
    [
        ("italian", 4, (2, 2), Fraction(-10338439, 407457728)),
        ("italian", 6, (2, 1), Fraction(489120659, 1878723936)),
    ],
)
def test_rounds_whose_equilibria_have_large_denominators_are_exact(
    key: str, faces: int, dice: tuple[int, int], value: Fraction
) -> None:
    # within 1e-12 and 2e-15 before the basis was made exact
    variant = four_faces(key) if faces == 4 else perudo.load_variant(key)
    solved = solve_round(variant, dice)
    assert (solved.value, solved.exact) == (value, True)


@pytest.mark.slow
def test_snyds_published_values_at_five_faces() -> None:
    # thomasahle/snyd's README: the one-round game, 1v2 and 2v1, five faces
    assert solve_round(snyd(5, "normal"), (1, 2)).value == Fraction(-27, 125)
    with registered(NeverOnes):
        assert solve_round(snyd(5, "joker"), (1, 2)).value == Fraction(-3, 125)


@LARGE
@pytest.mark.parametrize(
    ("mode", "dice", "value"),
    [
        ("normal", (1, 2), Fraction(-22, 81)),
        ("normal", (2, 1), Fraction(212027, 771552)),
        ("joker", (1, 2), Fraction(-5, 54)),
        ("joker", (2, 1), Fraction(7, 27)),
        ("normal", (2, 1), Fraction(2128, 8375)),
        ("joker", (2, 1), Fraction(34, 125)),
    ],
)
def test_snyds_published_values_at_six_faces(
    mode: str, dice: tuple[int, int], value: Fraction
) -> None:
    # thomasahle/snyd's outputs/12_6.*, 21_6.* (and the README's 2v1 at five faces)
    faces = 5 if value.denominator % 125 == 0 else 6
    with registered(NeverOnes):
        solved = solve_round(snyd(faces, mode), dice)
    assert (solved.value, solved.exact) == (value, True)
