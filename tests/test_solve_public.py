"""CFR+ over a round's public graph (issue 41, item 5): the positions whose future is the
same merged, the tree of histories unfolded only as the walk meets it. Checked against
the walked round: the same tree (its decisions, edges and calls), the same iterations
where the calls are valued hand by hand, the same strategy at a view; the calls valued
by class of hands against the full payoff; the exact values within the exploitability."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import perudo

pytest.importorskip("scipy", reason="the solve extra is not installed: pip install '.[solve]'")
pytest.importorskip("numba", reason="the solve extra is not installed: pip install '.[solve]'")

from perudo.solve import SolveError, approximate_round, solve_round
from perudo.solve.cfr import Regrets
from perudo.solve.checks import dice_payoff
from perudo.solve.public import PublicRegrets, Settled, _settled, graph, merges
from perudo.solve.size import estimate
from perudo.solve.tree import deals, own_place, settle, start_state, walk


def faces(key: str, count: int) -> perudo.Variant:
    """The edition at ``count`` faces (its wild and converting face the lowest, as in the
    six editions)."""
    variant = perudo.load_variant(key)
    return variant.derive(f"{key}-d{count}", reason="Test.", dice={"per_player": 5, "faces": count})


ROUNDS = [
    (perudo.load_variant("italian"), (1, 1)),
    (perudo.load_variant("wango"), (1, 1)),
    (perudo.load_variant("openspiel-liars-dice"), (1, 1)),
    (faces("french-calza", 4), (1, 2)),  # the exact call: a second kind of call
    (faces("spanish", 4), (2, 1)),  # Spanish raises: histories merge differently
    (faces("french-jonti", 3), (2, 2)),
    (faces("italian", 4), (2, 1)),
]
ROUND_IDS = [f"{variant.key}-{dice[0]}v{dice[1]}" for variant, dice in ROUNDS]


def _start(variant: perudo.Variant, dice: tuple[int, int]) -> perudo.GameState:
    return start_state(variant, dice, 0, starting=None)


@pytest.mark.parametrize(("variant", "dice"), ROUNDS, ids=ROUND_IDS)
def test_the_graph_unfolds_into_the_walked_tree(
    variant: perudo.Variant, dice: tuple[int, int]
) -> None:
    start = _start(variant, dice)
    assert merges(start)
    found = graph(start)
    walked = walk(start, 10**9)
    assert found.edges == (walked.seats[0].edges, walked.seats[1].edges)
    assert tuple(found.decisions[0]) == tuple(len(seat.firsts) for seat in walked.seats)
    assert found.infosets == walked.infosets
    size = estimate(start, (len(found.hands[0]), len(found.hands[1])))
    assert size.decisions == int(found.decisions[0].sum())
    assert size.edges == found.edges
    assert len(found.actions) < size.decisions  # merged: far fewer nodes than histories


@pytest.mark.parametrize(("variant", "dice"), ROUNDS, ids=ROUND_IDS)
def test_a_call_valued_by_class_of_hands_is_its_full_payoff(
    variant: perudo.Variant, dice: tuple[int, int]
) -> None:
    found = graph(_start(variant, dice))
    low = settle(found.outcomes, found.hands, found.chances, dice_payoff).low
    by_class = Settled.of(low, found.chances)
    assert by_class.table.shape[1] <= max(dice) + 1  # as many classes as counts of a face
    full = low.astype(np.float64)
    rng = np.random.default_rng(7)
    n0, n1 = len(found.hands[0]), len(found.hands[1])
    out = np.zeros(max(n0, n1))
    scratch = np.zeros(max(by_class.table.shape[1:]))
    for o in range(len(found.outcomes)):
        reach0, reach1 = rng.random(n0), rng.random(n1)
        args = (*by_class.classes, by_class.table, *by_class.chances, reach0, reach1)
        _settled(o, 0, *args, out, scratch)
        np.testing.assert_allclose(out[:n0], full[o] @ reach1, rtol=1e-12, atol=1e-15)
        _settled(o, 1, *args, out, scratch)
        np.testing.assert_allclose(out[:n1], -(reach0 @ full[o]), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize(("variant", "dice"), ROUNDS[3:6], ids=ROUND_IDS[3:6])
def test_valued_hand_by_hand_its_iterations_are_the_walked_rounds(
    variant: perudo.Variant, dice: tuple[int, int]
) -> None:
    start = _start(variant, dice)
    walked = walk(start, 10**9)
    reference = Regrets.of(walked, walked.settle(dice_payoff).low.astype(np.float64))
    found = graph(start)
    public = PublicRegrets.of(found, dice_payoff, None)
    low = settle(found.outcomes, found.hands, found.chances, dice_payoff).low
    public.payoff = Settled.of(low, found.chances, by_class=False)
    for count in (1, 4, 15):
        reference.run(count)
        public.run(count)
        np.testing.assert_allclose(public.gains(), reference.gains(), atol=1e-5)
    # the same numbering of edges: the sums themselves agree, seat by seat (float32 against
    # float64: a regret within rounding of 0 may tip a few moves' weights apart)
    for seat in (0, 1):
        scale = float(reference.sums[seat].max())
        np.testing.assert_allclose(
            public.sums[seat], reference.sums[seat], rtol=5e-3, atol=1e-5 * scale
        )
    # a view's strategy: found by replaying its round's moves to its decision
    averages = (reference.average(0), reference.average(1))
    hands = [deals(len(player.dice), variant.dice.faces) for player in start.players]
    rng = np.random.default_rng(3)
    for _ in range(40):
        dealt = [list(hands[s][int(rng.integers(len(hands[s])))][0]) for s in (0, 1)]
        state = perudo.new_game(variant, 2, seed=0, dice=dealt, first_player=0)
        for _ in range(int(rng.integers(0, 6))):
            going = [m for m in state.legal_actions() if isinstance(m, perudo.Bid)]
            if not going:
                break
            state = state.apply(going[int(rng.integers(len(going)))])
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        place = found.place(view)
        assert place is not None
        node, first, hand = place
        _, decision = walked.decisions[own_place(view)]  # type: ignore[index]
        assert walked.seats[seat].firsts[decision] == first  # the same numbering
        got = public.strategy(view)
        assert got is not None
        assert list(got) == list(found.actions[node])
        expected = averages[seat][first : first + len(found.actions[node]), hand]
        np.testing.assert_allclose(list(got.values()), expected, atol=1e-5)
        assert found.place(state.view(1 - seat)) is None  # not its turn


def test_the_threads_share_the_first_decisions_moves_and_change_nothing() -> None:
    import numba

    found = graph(_start(faces("french-calza", 4), (1, 2)))
    groups = found.shared(2)
    moves = sorted(int(j) for j in groups.ravel() if j >= 0)
    assert moves == list(range(int(found.firsts[1])))  # each move once
    runs = []
    for threads in (1, 2):
        numba.set_num_threads(threads)
        try:
            cfr = PublicRegrets.of(found, dice_payoff, None)
            cfr.run(7)
            runs.append((cfr.gains(), cfr.regrets, cfr.sums))
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert runs[0][0] == runs[1][0]
    for seat in (0, 1):
        assert np.array_equal(runs[0][1][seat], runs[1][1][seat])
        assert np.array_equal(runs[0][2][seat], runs[1][2][seat])


def test_approximated_on_the_graph_the_value_is_the_exact_one_within_its_exploitability() -> None:
    variant = faces("italian", 4)
    exact = solve_round(variant, (1, 2)).value
    lines: list[str] = []
    cfr = approximate_round(variant, (1, 2), exploitability=2e-3, progress=lines.append)
    assert "merged into" in lines[0]
    assert "for CFR+" in lines[0]
    assert not any(line.startswith("walked") for line in lines)  # never built
    assert cfr.exploitability <= 2e-3
    runs = [point[0] for point in cfr.checkpoints]  # measured each time they have doubled
    assert runs[0] == 10
    assert all(later >= 2 * earlier for earlier, later in itertools.pairwise(runs))
    assert [line.split(" iterations")[0] for line in lines[1:]] == [f"CFR+: {n:,}" for n in runs]
    assert abs(cfr.value - float(exact)) <= 2 * cfr.exploitability
    state = perudo.new_game(variant, 2, seed=1, dice=[[2], [3, 4]], first_player=0)
    state = state.apply(state.legal_actions()[0])
    strategy = cfr.strategy(state.view(1))
    assert set(strategy) == set(state.legal_actions())
    assert abs(sum(strategy.values()) - 1) < 1e-6
    with pytest.raises(SolveError, match="does not cover"):
        cfr.strategy(state.view(0))  # not seat 0's turn
    bot = cfr.bot(seed=1)
    while state.to_act is not None and state.last_result is None:
        state = state.apply(bot.act(state.view(state.to_act)))
    assert state.last_result is not None


def test_a_round_past_the_memory_cfr_may_use_is_refused_with_its_size() -> None:
    with pytest.raises(SolveError) as refused:
        approximate_round("italian", (2, 2), memory=2**30)
    message = str(refused.value)
    assert "16,769,017 decisions" in message
    assert "21 x 21 hands" in message
    assert "5.2 GiB for CFR+, more than the 1.0 GiB it may use" in message


def test_chance_inside_a_round_does_not_merge() -> None:
    bluff = perudo.load_variant("bluff")
    assert not merges(_start(bluff, (2, 1)))
    assert merges(_start(perudo.load_variant("italian"), (2, 1)))
    # tests/test_solve_chance.py approximates Bluff on its walked round


def test_perudo_solve_cfr_approximates_a_round_from_the_command_line() -> None:
    import io
    import json

    from perudo.cli import main

    out = io.StringIO()
    assert main(["solve", "openspiel-liars-dice", "--cfr", "1e-2", "--quiet"], out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "OpenSpiel liars_dice, one round 1v1, seat 1 bids first"
    assert lines[1].startswith("value for seat 1: -0.0")
    assert "(CFR+, exploitability " in lines[1]
    out = io.StringIO()
    command = ["solve", "openspiel-liars-dice", "--cfr", "1e-2", "--json", "--quiet"]
    assert main(command, out=out) == 0
    found = json.loads(out.getvalue())
    assert found["exploitability"] <= 1e-2
    assert abs(found["value"] - (-7 / 258)) <= 2 * found["exploitability"]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--cfr", "1e-3", "--game"], "--cfr approximates one round; it takes no --game"),
        (["--seconds", "5"], "--seconds bounds --cfr: give --cfr EXPLOITABILITY"),
        (["--dice", "2,2"], "(--cfr 1e-3 approximates it)"),
    ],
)
def test_perudo_solve_cfr_refusals_say_the_fix(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from perudo.cli import main

    assert main(["solve", "italian", "--quiet", *args]) == 2
    assert said in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["0", "-1", "nan", "inf", "x", "1" * 50])
def test_perudo_solve_cfr_takes_a_positive_number(
    bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from perudo.cli import main

    with pytest.raises(SystemExit) as done:
        main(["solve", "italian", "--cfr", bad])
    assert done.value.code == 2
    assert "is not a positive number" in capsys.readouterr().err


def test_perudo_solve_counts_the_opener_from_1_like_play_seat(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 43: ``--opener 2`` is the second seat, as ``play --seat 2`` is; ``0`` says so."""
    import io
    import json

    from perudo.cli import main

    out = io.StringIO()
    command = ["solve", "openspiel-liars-dice", "--cfr", "1e-2", "--quiet", "--opener", "2"]
    assert main(command, out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "OpenSpiel liars_dice, one round 1v1, seat 2 bids first"
    assert lines[1].startswith("value for seat 1: 0.0")  # the second seat opens: +7/258
    out = io.StringIO()
    assert main([*command, "--json"], out=out) == 0
    assert json.loads(out.getvalue())["opener"] == 1  # the library counts from 0
    for bad, said in [("0", "the first seat is --opener 1"), ("3", "3 is not from 1 to 2")]:
        with pytest.raises(SystemExit) as done:
            main(["solve", "italian", "--opener", bad])
        assert done.value.code == 2
        assert said in capsys.readouterr().err
