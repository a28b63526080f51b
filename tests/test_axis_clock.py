"""The clock axis: how long a player has to act, and what is played for one out of time,
by ``perudo serve`` and ``perudo play`` (the engine itself never waits)."""

from __future__ import annotations

import io
from pathlib import Path

import attrs
import pytest
from helpers import check_random_games, context, game, play
from invariants import check_step

import perudo
from perudo import Bid, Dudo, OutOfTime
from perudo.match import timeout_move
from perudo.rules import DefaultMove, NoClock

TIMED = perudo.load_variant("italian").derive(
    "italian-timed",
    reason="A table that keeps time.",
    clock={"kind": "default-move", "seconds": 20},
)
HANDS = [[2, 3, 4, 5, 5], [1, 3, 3, 6, 6]]


@pytest.mark.parametrize(
    ("kind", "legal", "bids", "move"),
    [
        # fb88's Liar Dice: "if the first player does not make a timely bid, the system would
        # name three (1) on behalf of him": the lowest legal bid
        (DefaultMove(20), (Bid(1, 2), Bid(2, 2), Bid(1, 3), Bid(1, 6)), [], Bid(1, 2)),
        # "the system would "reveal dice" if a player does not make a timely decision"
        (DefaultMove(20), (Bid(4, 3), Bid(3, 4), Dudo()), [(1, "3x3")], Dudo()),
        (NoClock(), (Bid(1, 2), Dudo()), [(1, "3x3")], None),  # a bot plays the turn
        # ... "three (1)" named: made where it is legal, else the lowest legal bid
        (DefaultMove(20, 3, 1), (Bid(2, 2), Bid(3, 1), Bid(2, 6)), [], Bid(3, 1)),
        (DefaultMove(20, 3, 1), (Bid(2, 2), Bid(2, 6)), [], Bid(2, 2)),
    ],
)
def test_what_is_played_out_of_time(
    kind: DefaultMove | NoClock, legal: tuple[perudo.Action, ...], bids: list[tuple[int, str]],
    move: perudo.Action | None,
) -> None:  # fmt: skip
    assert kind.timeout_move(legal, context((5, 5), bids=bids)) == move


def test_the_seconds_are_the_editions_own() -> None:
    assert (TIMED.clock.seconds, NoClock.seconds) == (20, None)
    assert perudo.load_variant("italian").clock == NoClock()  # left out: none
    assert "20 seconds" in TIMED.clock.describe(TIMED.words, 5)
    assert "the bid 3x1 where it is legal" in DefaultMove(9, 3, 1).describe(TIMED.words, 5)
    state = play(game(TIMED, HANDS), "2x5")
    assert timeout_move(state) == Dudo()
    assert timeout_move(game(TIMED, HANDS)) == Bid(1, 2)
    assert timeout_move(game("italian", HANDS)) is None


def test_a_web_table_plays_the_editions_move_for_a_person_out_of_time(tmp_path: Path) -> None:
    from perudo.web import Table, TableSetup, TableStore

    now = [100.0]
    store = TableStore(tmp_path / "perudo.sqlite")
    setup = TableSetup(variant="italian-timed", bots=(None, "odds"), seed=3, timeout=300.0)
    table = Table.create(store, bytes(range(32)), "t1", setup, TIMED, clock=lambda: now[0])
    table.join("Ana")
    while table.bots_move():
        pass
    assert table.to_act == 0
    assert table.seconds_left() == 20.0  # the edition's time, not the table's 300 s
    now[0] += 19
    assert not table.bots_move()  # Ana still has a second
    now[0] += 1
    before = table.state
    assert table.bots_move()  # out of time: the edition's move is played for her
    assert table.state.log.moves[-1] == (0, timeout_move(before))
    made = len(table.state.log.moves)
    assert table.state.log.lates == (made,)  # and the record says so
    record = perudo.GameRecord.from_state(table.state)
    assert record.late == (made,)
    assert f"\nlate {made}\n" in record.to_text()


def test_perudo_play_plays_the_editions_move_for_a_late_answer() -> None:
    from perudo.console import play_console

    ticks = iter(range(0, 10_000, 30))  # every look at the clock is 30 s later
    out = io.StringIO()
    left = play_console(
        TIMED, 2, seat=0, seed=5, stdin=io.StringIO("3x5\nq\n"), out=out,
        clock=lambda: float(next(ticks)),
    )  # fmt: skip
    assert left.log.lates  # the move played for the player is marked late
    assert all(left.log.moves[number - 1][0] == 0 for number in left.log.lates)
    text = out.getvalue()
    assert "You have 20 seconds for each move." in text
    assert "Out of time: Player 1" in text


def test_a_move_made_out_of_time_is_marked_in_every_record() -> None:
    state = game(TIMED, HANDS).apply(Bid(2, 5)).apply(Dudo(), late=True)  # move 2, late
    assert (state.log.lates, perudo.GameRecord.from_state(state).late) == ((2,), (2,))
    record = perudo.GameRecord.from_state(state)
    text = record.to_text()
    assert "2 1 dudo\nlate 2\n" in text
    key = bytes(range(32))
    for copy in (
        perudo.GameRecord.from_text(text),
        perudo.GameRecord.from_text(record.to_text(key=key), key=key),
        perudo.GameRecord.from_json(record.to_json()),
        perudo.GameRecord.from_json(record.to_json(key=key), key=key),
    ):
        assert copy == record
        assert copy.replay(TIMED).log.lates == (2,)
    assert record.to_dict()["moves"][1] == {"player": 1, "action": "dudo", "late": True}
    assert record.for_player(0, TIMED).rounds[0].late == (2,)  # the whole table saw it
    assert perudo.state_from_dict(perudo.state_to_dict(state), variant=TIMED).log.lates == (2,)
    assert state.apply(Bid(1, 2)).log.lates == (2,)  # the next move is not late
    stray = attrs.evolve(record, late=(2, 9))
    with pytest.raises(perudo.RecordError, match="late 9: the record has no such move"):
        stray.replay(TIMED)
    with pytest.raises(perudo.GameSetupError, match="late: 'yes' is not True or False"):
        state.apply(Bid(1, 2), late="yes")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("2 1 dudo\nlate 1\n", "'late 1' does not follow move 1"),
        ("2 1 dudo\nlate 2\nlate 2\n", "follows it twice"),
        ("late 0\n2 1 dudo\n", "'0' is not a number"),
    ],
)
def test_a_late_line_names_the_move_it_follows(text: str, problem: str) -> None:
    state = game(TIMED, HANDS).apply(Bid(2, 5)).apply(Dudo())
    good = perudo.GameRecord.from_state(state).to_text()
    bad = good.replace("2 1 dudo\n", text)
    with pytest.raises(perudo.RecordError, match=problem):
        perudo.GameRecord.from_text(bad)


@pytest.mark.parametrize("late", [False, 1, "true", None])
def test_a_json_move_is_late_only_with_true(late: object) -> None:
    state = game(TIMED, HANDS).apply(Bid(2, 5)).apply(Dudo(), late=True)
    data = perudo.GameRecord.from_state(state).to_dict()
    data["moves"][1]["late"] = late
    with pytest.raises(perudo.RecordError, match="is not true"):
        perudo.GameRecord.from_dict(data)


FORFEIT = perudo.load_variant("italian").derive(
    "italian-forfeit",
    reason="A table where running out of time costs a die.",
    clock={"kind": "forfeit", "seconds": 30},
)


def test_out_of_time_once_a_bid_stands_a_player_loses_a_die() -> None:
    """The kind's example: two players of two dice; seat 0 bids 1x5; seat 1's time runs
    out, and seat 1 loses a die, no hand shown."""
    state = play(game(FORFEIT, [[2, 5], [3, 3]]), "1x5")
    assert timeout_move(state) == OutOfTime()  # what a table plays once the time is out
    assert state.legal_actions()[-2:] == (Dudo(), OutOfTime())  # anyone may wait for it
    after = state.apply(OutOfTime(), late=True)
    result = after.last_result
    assert result is not None
    assert (result.call, result.word, result.caller, result.bidder) == ("time", "out of time", 1, 0)
    assert (result.changes, result.revealed, result.hands) == ((0, -1), (), (None, None))
    assert result.describe() == "Player 2 ran out of time on 1x5 by Player 1; Player 2 loses a die"
    assert [len(p.dice) for p in after.players] == [2, 1]
    assert after.to_act == 1  # the loser opens (Italian's starter), as after any call
    assert after.log.lates == (2,)
    assert after.view(0).last_result == result  # no hand was shown: none to hide
    last = play(game(FORFEIT, [[2], [3]]), "1x5").apply(OutOfTime())
    assert (last.is_over, last.winners) == (True, (0,))  # the last die: out, like any call


def test_out_of_time_before_any_bid_the_lowest_bid_is_made() -> None:
    """A round ends on a bid called, never before one: an opener out of time has the
    lowest legal bid made for them."""
    state = game(FORFEIT, [[2, 5], [3, 3]])
    assert OutOfTime() not in state.legal_actions()
    assert timeout_move(state) == Bid(1, 2)
    with pytest.raises(perudo.IllegalActionError) as early:
        state.apply(OutOfTime())
    assert early.value.reason == "nothing-to-challenge"
    assert "the lowest bid is made for you" in str(early.value)
    bid = play(state, "1x5")
    with pytest.raises(perudo.IllegalActionError) as turn:
        bid.apply(OutOfTime(), by=0)
    assert turn.value.reason == "not-your-turn"
    with pytest.raises(perudo.IllegalActionError) as costless:
        play(game(TIMED, HANDS), "1x5").apply(OutOfTime())
    assert costless.value.reason == "no-forfeit"
    assert OutOfTime() not in play(game(TIMED, HANDS), "1x5").legal_actions()


def test_out_of_time_costs_a_life_where_the_edition_plays_for_lives() -> None:
    mia = perudo.load_variant("mia").derive(
        "mia-forfeit", reason="Mia against the clock.", clock={"kind": "forfeit", "seconds": 30}
    )
    state = play(game(mia, [[5, 4], [6, 6], [3, 1]]), "5-4")
    after = state.apply(OutOfTime())
    result = after.last_result
    assert result is not None
    assert (result.points, result.changes) == ((0, -1, 0), (0, 0, 0))  # a life, dice kept
    assert after.players[1].score == state.players[1].score - 1
    assert "Player 2 loses 1 life" in result.describe()


def test_a_forfeit_is_recorded_encoded_and_played_by_every_part() -> None:
    state = play(game(FORFEIT, [[2, 5, 6], [3, 3, 4]]), "1x5").apply(OutOfTime(), late=True)
    record = perudo.GameRecord.from_state(state)
    assert "2 1 time\nlate 2\n" in record.to_text()
    assert perudo.GameRecord.from_text(record.to_text()).replay(FORFEIT) == state
    assert perudo.GameRecord.from_json(record.to_json()).replay(FORFEIT) == state
    assert perudo.parse_action("time", variant=FORFEIT) == OutOfTime()
    from perudo.encoding import action_encoding

    actions = action_encoding(FORFEIT, 2)
    assert actions.decode(actions.encode(OutOfTime())) == OutOfTime()
    assert perudo.rules.Forfeit(30).label(FORFEIT.words) == "30s, lose one"
    assert "lose one, no hand shown" in FORFEIT.clock.describe(FORFEIT.words, 5)
    check_random_games(FORFEIT, 3, seeds=4)  # views read back, records replay


def test_the_batch_engine_plays_a_forfeit_as_gamestate_does() -> None:
    """Running out of time costs a die, a life or a point alike on both engines, step by
    step (where the batch extra is installed), and simulate counts it as a call of time."""
    pytest.importorskip("numba", reason="the batch extra is not installed")
    from batch_reference import compare

    from perudo.simulate import simulate

    assert compare(FORFEIT, 3, 30, seed=11, observe=3) > 60
    for key in ("wango-party", "dead-mans-dice", "mia"):  # points, lives, lives first out
        edition = perudo.load_variant(key).derive(
            f"{key}-forfeit", reason="Test.", clock={"kind": "forfeit", "seconds": 30}
        )
        assert compare(edition, 3, 20, seed=12, observe=2) > 40
    ran = simulate(FORFEIT, 3, 200, bots=["random"], seed=1, engine="batch")
    assert dict(ran.calls).get("time", 0) > 0


def test_random_games_with_a_forfeit_keep_every_invariant() -> None:
    import random

    for seed in range(30):
        state, rng = perudo.new_game(FORFEIT, 3, seed=seed), random.Random(seed)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            action = rng.choice(state.legal_actions())
            after = state.apply(action)
            check_step(state, action, seat, after)
            state = after


def test_a_web_table_makes_a_person_out_of_time_lose_a_die(tmp_path: Path) -> None:
    from perudo.web import Table, TableSetup, TableStore

    now = [100.0]
    store = TableStore(tmp_path / "perudo.sqlite")
    setup = TableSetup(variant="italian-forfeit", bots=("odds", None), seed=1, timeout=300.0)
    table = Table.create(store, bytes(range(32)), "t1", setup, FORFEIT, clock=lambda: now[0])
    table.join("Ana")
    while table.bots_move():
        pass
    assert table.to_act == 1
    assert table.state.bid is not None  # the bot opened
    assert table.seconds_left() == 30.0
    now[0] += 30
    held = len(table.state.players[1].dice)
    assert table.bots_move()
    result = table.state.last_result
    assert result is not None
    assert (result.call, result.caller) == ("time", 1)
    assert len(table.state.players[1].dice) == held - 1
    assert table.state.log.lates == (len(table.state.log.moves),)


def test_compare_finds_the_forfeit_and_the_solver_sees_it_never_pays() -> None:
    comparison = perudo.compare("italian", FORFEIT)
    witness = next(w for axis in comparison.axes if axis.axis == "clock" for w in axis.witnesses)
    assert witness.action == OutOfTime()
    refused, played = witness.verdicts
    assert (refused.legal, refused.reason, played.legal) == (False, "no-forfeit", True)
    assert "ran out of time" in (played.outcome or "")
    pytest.importorskip("scipy", reason="the solve extra is not installed")
    from perudo.solve import solve_round

    def small(variant: perudo.Variant) -> perudo.Variant:
        return variant.derive(f"{variant.key}-d3", reason="Small.", dice={"faces": 3})

    # letting the time run out costs what a lost challenge costs, and no more is won: a
    # player never gains by it, so the round's value is the one without the clock's cost
    plain, timed = (
        solve_round(small(v), (1, 2)) for v in (perudo.load_variant("italian"), FORFEIT)
    )
    assert timed.value == plain.value


def test_perudo_play_makes_a_late_player_lose_a_die_once_a_bid_stands() -> None:
    from perudo.console import play_console

    ticks = iter(range(0, 10_000, 40))  # every look at the clock is 40 s later
    out = io.StringIO()
    play_console(
        FORFEIT, 2, seat=0, seed=5, stdin=io.StringIO("3x5\n3x6\nq\n"), out=out,
        clock=lambda: float(next(ticks)),
    )  # fmt: skip
    text = out.getvalue()
    assert "Out of time: Player 1 bids 1x2" in text  # the opener: the lowest bid
    assert "Player 1 ran out of time on 1x1 by Player 2; Player 1 loses a die" in text
