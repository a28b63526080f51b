"""The clock axis: how long a player has to act, and what is played for one out of time,
by ``perudo serve`` and ``perudo play`` (the engine itself never waits)."""

from __future__ import annotations

import io
from pathlib import Path

import attrs
import pytest
from helpers import context, game, play

import perudo
from perudo import Bid, Dudo
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
