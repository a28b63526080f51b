"""Small rounds solved exactly (perudo.solve): the published values of OpenSpiel's
liars_dice and two of its relatives, proven in fractions; strategies, their bot, and
refusals."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest
from helpers import four_faces, registered

import perudo

pytest.importorskip("scipy", reason="the solve extra is not installed: pip install '.[solve]'")

from perudo.bots import make_bot
from perudo.rules import ExactCall, QuantityOrFace, RoundContext, Violation
from perudo.shipped import variants_dir
from perudo.solve import (
    MAX_NODES,
    Solution,
    SolveError,
    deals,
    exploitability,
    solve_game,
    solve_round,
)
from perudo.state import GameState


@attrs.frozen
class Repeat(QuantityOrFace):
    """A bid of the standing face may repeat the standing quantity: the round never ends."""

    kind: ClassVar[str] = "test-repeat"
    times_per_bid: ClassVar[int | None] = None

    def lowest(self, face: int, context: RoundContext) -> int | None:
        bid = context.bid
        return bid.quantity if face == bid.face else super().lowest(face, context)


@attrs.frozen
class AnyoneCalls(ExactCall):
    """Any seat may make the exact call on a standing bid, in or out of turn."""

    kind: ClassVar[str] = "test-anyone-calls"

    def check(self, player: int, context: RoundContext) -> Violation | None:
        return None


@attrs.frozen
class NeverOnes(QuantityOrFace):
    """Raise the quantity or the face; a bid never names ones (they are only wild)."""

    kind: ClassVar[str] = "test-never-ones"

    def lowest(self, face: int, context: RoundContext) -> int | None:
        return None if face == 1 else super().lowest(face, context)


LIARS_DICE = perudo.load_variant("openspiel-liars-dice")
#: liars_dice on three faces, the highest wild: a game solved in a moment.
THREE_FACES = LIARS_DICE.derive(
    "ld-d3", reason="Test.", dice={"per_player": 1, "faces": 3}, wilds={"kind": "face", "face": 3}
)


@pytest.fixture
def vertices(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Each linear program's answer (:class:`perudo.solve.lp.Vertex`), in the order the
    solver gets them."""
    from perudo.solve import lp

    found: list[lp.Vertex] = []
    plans = lp.plans

    def watched(*args: Any) -> lp.Vertex:
        found.append(plans(*args))
        return found[-1]

    monkeypatch.setattr(lp, "plans", watched)
    return found


@attrs.frozen
class Run:
    """One run of HiGHS on a program: its method, its feasibility tolerance, and the
    iterations it took."""

    solver: str
    tolerance: float
    iterations: int


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[list[Run]]:
    """Each linear program's runs of HiGHS, in order."""
    from perudo.solve import lp

    found: list[list[Run]] = []
    programs: list[object] = []  # each program's HiGHS, held so none is taken for another
    interruptible = lp.interruptible

    def watched(run: Callable[[], object]) -> object:
        highs: Any = run.__self__  # type: ignore[attr-defined]
        if not programs or programs[-1] is not highs:
            programs.append(highs)
            found.append([])
        solver = highs.getOptionValue("solver")[1]
        primal, dual = (highs.getOptionValue(f"{kind}_feasibility_tolerance")[1]
                        for kind in ("primal", "dual"))  # fmt: skip
        assert primal == dual
        result = interruptible(run)
        found[-1].append(Run(solver, primal, lp._iterations(highs)))
        return result

    monkeypatch.setattr(lp, "interruptible", watched)
    return found


@pytest.fixture(scope="module")
def liars_dice() -> Solution:
    return solve_round(LIARS_DICE, dice=(1, 1))


@pytest.mark.slow
def test_openspiel_liars_dice_has_the_published_value(liars_dice: Solution) -> None:
    # OpenSpiel's sequence_form_lp_test: -7/258 for the player who bids first
    assert liars_dice.value == Fraction(-7, 258)
    assert liars_dice.exact
    assert liars_dice.bounds == (Fraction(-7, 258), Fraction(-7, 258))
    # each of the 2^12 histories of bids is a decision of one seat, for each of its 6 hands
    assert liars_dice.infosets == 6 * 2**12
    assert liars_dice.seconds > 0


@pytest.mark.slow
def test_no_wild_face_and_ones_wild_never_bid_have_their_published_values() -> None:
    # the exact LP outputs of the public thomasahle/snyd project
    no_wild = LIARS_DICE.derive("ld-no-wild", reason="Test.", wilds={"kind": "none"})
    assert solve_round(no_wild).value == Fraction(-1, 9)
    with registered(NeverOnes):  # for this test only: other tests list the kinds
        ones = LIARS_DICE.derive(
            "ld-ones-never-bid", reason="Test.", wilds={"kind": "ones"}, raising=NeverOnes(),
            opening={"kind": "standard", "ones": "forbidden"},
        )  # fmt: skip
        solved = solve_round(ones)
    assert (solved.value, solved.exact) == (Fraction(-7, 327), True)


def test_the_value_is_seat_zeros_whoever_opens() -> None:
    small = THREE_FACES
    first, second = solve_round(small, opener=0), solve_round(small, opener=1)
    assert first.exact
    assert second.exact
    assert second.value == -first.value  # the same game, the seats swapped


@pytest.mark.slow
def test_a_round_of_three_dice_at_four_faces_solves_exactly() -> None:
    italian = four_faces("italian")
    solved = solve_round(italian, dice=(1, 2))
    assert (solved.value, solved.exact) == (Fraction(-43, 224), True)
    two_one = solve_round(italian, dice=(2, 1))
    assert (two_one.value, two_one.exact) == (Fraction(1, 8), True)
    # seat 1 opening the 2v1 round is seat 0 opening the 1v2 round, the seats swapped
    assert solve_round(italian, dice=(2, 1), opener=1).value == -solved.value


def test_the_strategies_are_distributions_over_legal_actions_and_the_bot_plays_them(
    liars_dice: Solution,
) -> None:
    state = perudo.new_game(LIARS_DICE, 2, seed=3, dice=[[2], [5]], first_player=0)
    strategy = liars_dice.strategy(state.view(0))
    assert set(strategy) == set(state.legal_actions())
    assert sum(strategy.values()) == 1
    assert all(isinstance(p, Fraction) and p >= 0 for p in strategy.values())
    bot = liars_dice.bot(seed=1)
    assert bot.policy(state.view(0)) == strategy
    while state.round_number == 1 and not state.is_over:
        state = state.apply(bot.act(state.view(state.to_act)))  # type: ignore[arg-type]
    with pytest.raises(SolveError, match="does not cover"):
        liars_dice.strategy(perudo.new_game(LIARS_DICE, 2, seed=3).public_view())


def test_deals_are_every_sorted_hand_with_its_chance() -> None:
    hands = deals(3, 6)
    assert len(hands) == 56
    assert sum(chance for _, chance in hands) == 1
    assert dict(hands)[(1, 1, 2)] == Fraction(3, 216)


@pytest.mark.parametrize(
    ("key", "dice", "message"),
    [
        ("italian", (1, 1, 1), "two counts"),
        ("italian", (0, 1), "not 1 to 5 dice"),
        ("italian", (6, 1), "not 1 to 5 dice"),
        ("italian", "11", "two counts"),
        ("bluff", (1, 2), r"the 1v2 round of Bluff .* too big to solve: 40,501,247 decisions"),
        ("italian", (5, 5), "too big to solve"),
        ("wango-party", (2, 2), "too big to solve"),
    ],
)
def test_what_it_does_not_solve_is_refused_with_the_reason(
    key: str, dice: tuple[int, ...], message: str
) -> None:
    # a round too big is refused from its size, before any position is built
    with pytest.raises(SolveError, match=message):
        solve_round(key, dice)  # type: ignore[arg-type]


def test_bluff_with_one_die_each_solves_its_re_roll_never_being_open() -> None:
    # a re-roll needs a die left under the cup: with one die each nobody may re-roll
    solved = solve_round("bluff", (1, 1))
    assert (solved.value, solved.exact) == (Fraction(-1, 18), True)


def test_a_round_past_the_limit_is_named() -> None:
    with pytest.raises(SolveError, match=f"past the {MAX_NODES:,} positions"):
        solve_round("italian", (2, 2))


@pytest.mark.slow
def test_the_random_bots_exploitability_is_openspiels() -> None:
    # OpenSpiel's exploitability of uniform random play of liars_dice: 0.780744
    from perudo.bots import RandomBot

    gained = exploitability(RandomBot(), LIARS_DICE)
    assert isinstance(gained, Fraction)
    assert round(float(gained), 6) == 0.780744


def test_an_equilibrium_is_not_exploitable() -> None:
    small = THREE_FACES
    solved = solve_round(small)
    assert exploitability(solved.bot(), small) == 0
    with pytest.raises(SolveError, match="no policy"):
        exploitability(object(), small)


@pytest.mark.slow
def test_the_command_line_prints_the_value_as_a_fraction() -> None:
    import json
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "perudo", "solve", "openspiel-liars-dice", "--json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["value"], data["exact"], data["bounds"]) == ("-7/258", True, ["-7/258"] * 2)
    assert data["infosets"] == 6 * 2**12
    refused = subprocess.run(
        [sys.executable, "-m", "perudo", "solve", "italian", "--dice", "5,5"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert refused.returncode == 2
    assert "too big to solve" in refused.stderr


def test_a_game_of_one_die_each_is_its_round() -> None:
    # one die each: the round's loser is out, so winning the game is winning the round
    italian = four_faces("italian")
    game, round_ = solve_game(italian, (1, 1)), solve_round(italian, (1, 1))
    assert game.game
    assert not round_.game
    assert (game.value, game.exact, game.rounds) == (round_.value, True, 1)


@pytest.mark.slow
def test_a_game_reaches_palifico_and_its_bot_plays_every_round() -> None:
    italian = four_faces("italian")
    game = solve_game(italian, (1, 2))
    # the 1v2 round, and the round seat 1 opens once down to one die, Palifico or ordinary
    # as it declares before it looks at its die
    assert (game.value, game.exact, game.rounds) == (Fraction(-267, 448), True, 2)
    assert -1 < game.value < 0
    bots = [game.bot(seed=1), game.bot(seed=2)]
    declared = 0
    for seed in range(30):
        state = perudo.new_game(italian, 2, seed=seed, dice=None, first_player=0,
                                starting_dice=[1, 2])  # fmt: skip
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            declared += state.must_declare
            state = state.apply(bots[seat].act(state.view(seat)))
    assert declared  # the strategies cover the declaration, made blind, and what follows


def test_a_game_that_comes_back_to_a_round_is_its_fixed_point_in_a_certified_interval() -> None:
    # a right Calza gives a die back: 1v1 -> 1v2 -> 1v1 again
    calza = four_faces("french-calza")
    lines: list[str] = []
    game = solve_game(calza, (1, 1), tolerance=Fraction(1, 10**5), progress=lines.append)
    low, high = game.bounds
    assert not game.exact
    assert 0 < high - low <= Fraction(1, 10**5)
    assert low <= game.value <= high
    assert max(low.denominator, high.denominator) <= 2**40  # rounded outward, short
    passes = [line for line in lines if line.startswith("fixed point, pass")]
    widths = [float(line.split("a width of ")[1].split(",")[0]) for line in passes]
    assert widths == sorted(widths, reverse=True)  # every pass narrows it
    # a looser tolerance stops sooner, inside the same interval
    rough = solve_game(calza, (1, 1), tolerance=0.01)
    assert rough.bounds[0] <= low
    assert high <= rough.bounds[1]
    with pytest.raises(SolveError, match="tolerance 2 is not a number between 0 and 1"):
        solve_game(calza, (1, 1), tolerance=2)


@pytest.mark.parametrize("whole", [True, False], ids=["one LP", "double oracle, on the grid"])
def test_a_round_known_within_bounds_is_solved_on_each_bound_apart(
    whole: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a pass towards a fixed point knows a round's payoffs only within bounds: its value
    # is proven between the value on the lowest payoffs and the value on the highest,
    # which solving once on the middle could not prove (its double oracle kept adding
    # moves against a gap the bounds leave: the 2v2 game at four faces never ended a pass)
    from perudo.solve import exact
    from perudo.solve.tree import start_state

    if not whole:
        monkeypatch.setattr(exact, "WHOLE", 0)  # the double oracle: exact, on the grid
    calza = four_faces("french-calza")
    start = start_state(calza, (1, 1), 0, starting=(1, 2))

    def within(width: Fraction) -> Callable[[GameState], tuple[Fraction, Fraction]]:
        def value(state: GameState) -> tuple[Fraction, Fraction]:
            if state.is_over:
                won = Fraction(1 if state.winners == (0,) else -1)
                return won, won
            guess = Fraction(len(state.players[0].dice) - len(state.players[1].dice), 4)
            return guess - width, guess + width

        return value

    quiet: list[str] = []
    apart = exact.solve_from(start, within(Fraction(1, 8)), MAX_NODES, None, quiet.append)
    lowest = exact.solve_from(start, lambda s: (within(Fraction(1, 8))(s)[0],) * 2, MAX_NODES,
                              None, quiet.append)  # fmt: skip
    highest = exact.solve_from(start, lambda s: (within(Fraction(1, 8))(s)[1],) * 2, MAX_NODES,
                               None, quiet.append)  # fmt: skip
    assert lowest.bounds[0] == lowest.bounds[1]  # exact, each
    assert highest.bounds[0] == highest.bounds[1]
    assert lowest.bounds[0] - Fraction(1, 10**9) <= apart.bounds[0] <= lowest.bounds[0]
    assert highest.bounds[1] <= apart.bounds[1] <= highest.bounds[1] + Fraction(1, 10**9)
    if not whole:  # the payoffs are on the grid already (eighths and chances of 1/16)
        assert apart.bounds == (lowest.bounds[0], highest.bounds[1])
    assert "the lowest payoffs:" in quiet
    round_ = apart.round
    middle = exact.solve(round_, round_.settle(within(Fraction(1, 8))), quiet.append)
    assert middle.bounds[0] < apart.bounds[0]  # here strictly narrower on both sides
    assert apart.bounds[1] < middle.bounds[1]


def test_a_fixed_points_passes_walk_each_round_once_and_start_from_its_last_sub_round(
    vertices: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # every round by the double oracle (none solved as one linear program): CFR+ picks the
    # first sub-round of each round once, in the first pass; each later pass starts from
    # the sub-round the pass before ended with, and walks nothing again
    from perudo.solve import exact
    from perudo.solve.cfr import Regrets

    monkeypatch.setattr(exact, "WHOLE", 0)
    started: list[object] = []
    original = Regrets.of

    def counted(round_: object, payoff: object) -> Regrets:
        started.append(round_)
        return original(round_, payoff)  # type: ignore[arg-type]

    monkeypatch.setattr(Regrets, "of", counted)
    lines: list[str] = []
    game = solve_game(four_faces("french-calza"), (1, 1), progress=lines.append)
    cold = [vertex for vertex in vertices if not vertex.started]  # solved from nothing
    passes = [line for line in lines if line.startswith("fixed point, pass")]
    walks = [line for line in lines if line.startswith("walked:")]
    again = [
        line for line in lines if line.endswith("walked before: solved with the last pass's bounds")
    ]
    assert len(passes) > 1
    assert len(walks) == len(started) == game.rounds
    assert len(again) >= game.rounds  # each later pass names each round it solves again
    assert len(cold) == game.rounds  # each round's first program: every later one is warm
    plain = solve_game(four_faces("french-calza"), (1, 1))
    assert plain.bounds[0] <= game.value <= plain.bounds[1]


@pytest.mark.parametrize(
    "limits",
    [{"WARM_ITERATIONS": 0.0}, {"WARM_SECONDS": 0.0, "WARM_TIMES": 0.0}],
    ids=["iterations", "seconds"],
)
def test_a_warm_start_past_its_limits_is_given_up_for_the_interior_point_method(
    limits: dict[str, float],
    vertices: list[Any],
    runs: list[list[Run]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a safety net for a basis handed on that is far from the answer: with no iteration
    # (or no time) allowed, a warm start that is not already the answer is given up, and
    # the answer is the same
    from perudo.solve import exact, lp

    monkeypatch.setattr(exact, "WHOLE", 0)  # every round by the double oracle
    variant = four_faces("french-calza")
    warm = solve_round(variant, (1, 2))
    vertices.clear()  # the programs of the run with limits alone
    runs.clear()
    for name, value in limits.items():
        monkeypatch.setattr(lp, name, value)
    lines: list[str] = []
    cold = solve_round(variant, (1, 2), progress=lines.append)
    assert len(vertices) > 1  # the first program is cold, each later one was to start warm
    first, later = vertices[0], vertices[1:]
    assert (first.started, first.abandoned) == (False, None)
    assert all(v.started or v.abandoned is not None for v in later)
    if "WARM_ITERATIONS" in limits:
        assert all(v.iterations == 0 for v in later if v.started)
    given_up = [v for v in later if v.abandoned is not None]
    assert given_up
    for program, vertex in zip(runs, vertices, strict=True):
        # given up: the warm start, then the interior point method, then the tight run
        methods = ["simplex", "ipm", "simplex"] if vertex.abandoned else ["simplex"] * 2
        assert [run.solver for run in program] == methods
        assert program[-2].iterations + program[-1].iterations == vertex.iterations
    lines = [line for line in lines if line.startswith("the warm start given up after")]
    assert len(lines) == len(given_up)
    assert (cold.value, cold.exact) == (warm.value, True)


def test_each_program_runs_at_highs_tolerances_then_tight_ones_from_where_it_ended(
    vertices: list[Any], runs: list[list[Run]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the stall of French Calza's 2v2 game at four faces (a 32,744-row program sat for
    # minutes in the dual simplex's clean-up at 1e-10 from nothing; 49 s at HiGHS's 1e-7,
    # then 5 iterations at 1e-10): every program's first run is at HiGHS's tolerances, its
    # last at the tight ones, which take a few pivots from the basis the first ended at
    from perudo.solve import exact

    monkeypatch.setattr(exact, "WHOLE", 0)  # every round by the double oracle
    solved = solve_round(four_faces("french-calza"), (1, 2))
    assert (solved.value, solved.exact) == (Fraction(-1, 16), True)  # perfect-play's
    assert len(runs) == len(vertices) > 1
    for program, vertex in zip(runs, vertices, strict=True):
        *before, last = program  # a warm start given up runs twice before
        assert all(run.tolerance == 1e-7 for run in before)  # HiGHS's own
        assert (before[0].solver, last.solver, last.tolerance) == ("simplex", "simplex", 1e-10)
        assert before[-1].iterations + last.iterations == vertex.iterations
    assert (
        sum(program[-1].iterations for program in runs) <= sum(v.iterations for v in vertices) // 10
    )


def test_a_game_whose_round_is_too_big_names_the_round() -> None:
    with pytest.raises(SolveError, match="the 2v2 round of Italian Palifico"):
        solve_game("italian", (2, 2))


def test_a_call_out_of_turn_is_refused() -> None:
    # with two players the only seat not to act is the bidder: Jonti never lets it call,
    # but a registered kind may
    with registered(AnyoneCalls):
        anyone = perudo.load_variant("french-jonti").derive(
            "jonti-anyone", reason="Test.", dice={"per_player": 1, "faces": 3},
            exact_call=AnyoneCalls(who="not-bidder-or-before", min_players=2,
                                   caller_below_full=False),
        )  # fmt: skip
        with pytest.raises(SolveError, match="seat 0 may act out of turn"):
            solve_round(anyone)


def test_a_round_that_never_ends_is_refused_quickly() -> None:
    with registered(Repeat):
        endless = LIARS_DICE.derive("ld-repeat", reason="Test.", raising=Repeat())
        with pytest.raises(perudo.InvalidVariantError, match="round 1 of 'ld-repeat' never ends"):
            solve_round(endless)


@pytest.mark.parametrize("make", ["odds", "reader"])
def test_the_odds_bots_policy_is_what_it_plays(make: str) -> None:
    # every action the bot takes has a chance in its policy; the chances sum to 1
    for key in ("wango-party", "italian", "french-calza"):
        for seed in range(12):
            state = perudo.new_game(key, 3, seed=seed)
            bot = make_bot(make, seed=seed)
            for _ in range(30):
                if state.is_over:
                    break
                seat = state.to_act
                assert seat is not None
                view = state.view(seat)
                policy = bot.policy(view)  # type: ignore[attr-defined]
                assert sum(policy.values()) == 1
                assert set(policy) <= set(view.legal_actions)
                action = bot.act(view)
                assert policy.get(action, 0) > 0
                state = state.apply(action)


@pytest.mark.slow
def test_the_built_in_bots_exploitability() -> None:
    from perudo.bots import OddsBot, RandomBot, reader_bot

    gained = [exploitability(bot, LIARS_DICE) for bot in (RandomBot(), OddsBot(), reader_bot())]
    assert [round(float(g), 4) for g in gained] == [0.7807, 0.7222, 0.4167]
    assert all(isinstance(g, Fraction) for g in gained)


@pytest.mark.slow
def test_the_command_line_solves_a_game() -> None:
    import json
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "perudo", "solve", "italian", "--game", "--json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["game"], data["rounds"], data["exact"]) == (True, 1, True)
    assert data["value"] == str(solve_round("italian").value)


@pytest.mark.slow
def test_openspiels_cfr_through_the_adapter_converges_to_the_solved_value(tmp_path: Path) -> None:
    # the same three-faced liars dice, as a declaration the OpenSpiel adapter reads
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    import pyspiel
    from open_spiel.python.algorithms import cfr, expected_game_score

    import perudo.interop.openspiel  # registers python_perudo

    text = (variants_dir() / "openspiel-liars-dice.toml").read_text()
    text = text.replace('key = "openspiel-liars-dice"', 'key = "liars-dice-3"')
    text = text.replace("per_player = 1\n", "per_player = 1\nfaces = 3\n")
    text = text.replace('kind = "face"\nface = 6\n', 'kind = "face"\nface = 3\n')
    path = tmp_path / "liars-dice-3.toml"
    path.write_text(text)
    exact = solve_round(perudo.load_variant(path)).value
    assert exact == Fraction(1, 9)
    game = pyspiel.load_game("python_perudo", {"declaration": str(path), "players": 2, "dice": 1})
    solver = cfr.CFRPlusSolver(game)
    errors = []
    for iteration in range(1, 41):
        solver.evaluate_and_update_policy()
        if iteration in (10, 40):
            policy = solver.average_policy()
            both = [policy, policy]
            value = expected_game_score.policy_value(game.new_initial_state(), both)[0]
            errors.append(abs(value - float(exact)))
    assert errors[1] < errors[0]
    assert errors[1] < 0.005


@pytest.mark.slow
def test_compare_prints_both_values_of_perfect_play() -> None:
    import json
    import subprocess
    import sys

    command = [sys.executable, "-m", "perudo", "compare", "italian", "openspiel-liars-dice"]
    done = subprocess.run([*command, "--json"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["perfect_play"]
    assert [(row["variant"], row["fraction"]) for row in rows] == [
        ("italian", "-1/18"),
        ("openspiel-liars-dice", "-7/258"),
    ]
    # in words: one edition solved, one too big to solve here
    text = subprocess.run(
        [*command[:4], "openspiel-liars-dice", "wango-party"],
        capture_output=True, text=True, timeout=300,
    ).stdout  # fmt: skip
    assert "openspiel-liars-dice: -7/258 (-0.0271)" in text
    assert "wango-party: not solved here: the 1v1 round of WANGO party" in text


@pytest.mark.slow
def test_the_perfect_play_page_says_what_the_solver_finds() -> None:
    # the one-die table of docs/perfect-play.md, edition by edition (WANGO party's round
    # takes minutes: bench/solve.py --table prints it)
    page = Path(__file__).parent.parent / "docs" / "perfect-play.md"
    section = page.read_text().split("## One die each")[1].split("\n## ")[0]
    rows = [line.split("|")[1:-1] for line in section.splitlines() if line.startswith("| ")]
    table = {cells[0].strip(): [c.strip() for c in cells[1:]] for cells in rows}
    checked = 0
    for key in perudo.variant_names():
        cells = table.get(key)
        if cells is None or key == "wango-party":
            continue
        assert solve_round(key).value == Fraction(cells[0]), key
        checked += 1
    assert checked == 7
    from perudo.bots import OddsBot, RandomBot, reader_bot

    italian = [exploitability(bot, "italian") for bot in (RandomBot(), OddsBot(), reader_bot())]
    assert [f"{float(g):.4f}" for g in italian] == table["italian"][2:5]


def test_an_exact_claim_in_the_bid_chain_is_a_node_of_the_round() -> None:
    """A Bull goes on with the round: the solver follows the raise or the challenge after it,
    and its strategies are no more exploitable than any equilibrium's."""
    bull = perudo.load_variant("bull-and-burst").derive(
        "bull-in-turn", reason="Test.", dice={"per_player": 1, "faces": 4},
        turns={"kind": "in-turn"}, exact_call={"kind": "exact-claim", "who": "player-to-act"},
        scoring={"kind": "elimination"},
    )  # fmt: skip
    solved = solve_round(bull)
    assert solved.exact
    assert exploitability(solved.bot(), bull) == 0
    claimed = perudo.new_game(bull, 2, seed=1, dice=[[2], [3]], first_player=0)
    claimed = claimed.apply(perudo.Bid(1, 2)).apply(perudo.Calza())  # seat 1 claims it exact
    policy = solved.bot().policy(claimed.view(0))
    assert set(policy) == set(claimed.legal_actions())  # a decision after the claim
    assert sum(policy.values()) == 1
    # the shipped rules let the bidder claim its own bid out of turn: refused by name
    shipped = perudo.load_variant("bull-and-burst").derive(
        "bull-one-die", reason="Test.", dice={"per_player": 1, "faces": 4}
    )
    with pytest.raises(SolveError, match="may act out of turn"):
        solve_round(shipped)
