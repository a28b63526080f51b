"""perudo.interop.turns: out-of-turn calls made into turns, finishing places."""

from __future__ import annotations

import random

import pytest
from hypothesis import given

import perudo
from perudo import Bid, Calza, Dudo, EncodingError, IllegalActionError
from perudo.interop.turns import TurnActions, Turns, lowest_return, placing_returns
from tests.strategies import Table, tables

HANDS = [(1, 2), (3, 4, 5), (1,), (2, 2)]


def jonti(hands: list[tuple[int, ...]] = HANDS) -> Turns:
    return Turns.start(perudo.new_game("french-jonti", 4, seed=3, dice=hands, first_player=0))


def test_seats_that_may_call_jonti_are_asked_first() -> None:
    # Seat 0 bids; seat 1 is to act. Seat 3 (just before the bidder) and the bidder may
    # not call; seat 1 calls on its own turn; so only seat 2 is asked.
    turns = jonti().apply(Bid(3, 4))
    assert (turns.seat, turns.asking, turns.state.to_act) == (2, (2,), 1)
    assert turns.legal_actions() == (Calza(), None)
    passed = turns.apply(None)
    assert (passed.seat, passed.asking) == (1, ())
    assert passed.state == turns.state  # a pass changes nothing in the game
    assert Calza() in passed.legal_actions()


def test_an_asked_seat_calls_out_of_turn() -> None:
    called = jonti().apply(Bid(3, 4)).apply(Calza())
    result = called.state.last_result
    assert result is not None
    assert (result.call, result.caller, result.gainer) == ("exact", 2, 2)
    assert called.asking == ()


def test_asking_follows_clockwise_order_from_the_player_to_act() -> None:
    hands = [(1,), (2,), (3,), (4,), (5,)]
    state = perudo.new_game("french-jonti", 5, seed=3, dice=hands, first_player=0)
    turns = Turns.start(state).apply(Bid(1, 6))
    # Seat 0 bid, seat 1 is to act: asked are 2 then 3, from the left of seat 1; seat 4
    # (just before the bidder) and the bidder are not.
    assert (turns.state.to_act, turns.asking) == (1, (2, 3))
    assert turns.apply(None).seat == 3
    assert turns.apply(None).apply(None).seat == 1


def test_asked_seats_may_only_call_or_pass() -> None:
    turns = jonti().apply(Bid(3, 4))
    with pytest.raises(IllegalActionError, match="only asked") as error:
        turns.apply(Dudo())
    assert error.value.reason == "not-your-turn"
    with pytest.raises(IllegalActionError, match="only open to a seat asked") as error:
        turns.apply(None).apply(None)
    assert error.value.reason == "malformed-action"


def test_editions_without_out_of_turn_calls_never_ask() -> None:
    for key in ("italian", "french-calza", "wango-party"):
        turns = Turns.start(perudo.new_game(key, 4, seed=1, first_player=0)).apply(Bid(2, 3))
        assert turns.asking == ()
        assert turns.seat == 1
        assert TurnActions.of(key, 4).pass_number is None


def test_pass_numbers() -> None:
    numbers = TurnActions.of("french-jonti", 4)
    assert numbers.pass_number == numbers.size - 1 == numbers.encoding.size
    assert numbers.decode(numbers.size - 1) is None
    assert numbers.encode(None) == numbers.size - 1
    turns = jonti().apply(Bid(3, 4))
    assert numbers.legal(turns) == (1, numbers.size - 1)
    assert sum(numbers.mask(turns)) == 2
    with pytest.raises(EncodingError, match="Italian Palifico has no pass"):
        TurnActions.of("italian", 4).encode(None)
    with pytest.raises(EncodingError, match="True"):
        numbers.decode(True)
    # Regression: a float equal to the pass number decoded as a pass.
    with pytest.raises(EncodingError, match=r"123\.0 is not an integer"):
        numbers.decode(123.0)  # type: ignore[arg-type]


def test_placing_returns() -> None:
    assert placing_returns(2, (1,), (0,)) == [1.0, -1.0]
    assert placing_returns(3, (2, 0), (1,)) == [0.0, 1.0, -1.0]
    assert placing_returns(5, (4, 3, 2, 1), (0,)) == [1.0, 0.5, 0.0, -0.5, -1.0]
    assert placing_returns(4, (), ()) == [0.0] * 4


def test_lowest_returns() -> None:
    assert lowest_return(perudo.load_variant("italian"), 4) == -1.0
    # WANGO party, 2 players: 4 rounds, each losing 3 points under pressure.
    assert lowest_return(perudo.load_variant("wango-party"), 2) == -12.0


def test_elimination_order_is_kept() -> None:
    state = perudo.new_game("italian", 3, seed=1, dice=[(2,), (3,), (4, 4)], first_player=0)
    turns = Turns.start(state).apply(Bid(3, 6)).apply(Dudo())  # seat 0 is out
    assert turns.out == (0,)
    turns = turns.state.players  # the game goes on between seats 1 and 2
    assert [len(p.dice) for p in turns] == [0, 1, 2]


def test_party_returns_are_points() -> None:
    state = perudo.new_game("wango-party", 2, seed=1, dice=[(2,) * 5, (3,) * 5], first_player=0)
    turns = Turns.start(state).apply(Bid(8, 6)).apply(Dudo())  # no 6s: the bidder loses
    assert turns.returns() == [-1.0, 1.0]
    turns = Turns(turns.state.with_dice([(2,) * 5, (3,) * 5]), turns.asking, turns.out)
    turns = turns.apply(Bid(2, 2, pressure=True)).apply(Dudo())  # 5 twos: the caller loses
    assert turns.returns() == [2.0, -2.0]  # pressure moves 3 points
    assert turns.out == ()


@given(tables())
def test_random_games_decision_by_decision(table: Table) -> None:
    """Every legal number applies; the deciding seat holds dice; asked seats may act out of
    turn (call, re-roll); at the end everyone but the winners is placed, and the returns sum
    to 0 where the scoring is zero-sum."""
    rng = random.Random(table.seed)
    numbers = TurnActions.of(table.edition, table.players)
    turns = Turns.start(perudo.new_game(table.edition, table.players, seed=table.seed))
    while not turns.is_over:
        seat = turns.seat
        assert seat is not None
        assert turns.state.players[seat].dice
        for asked in turns.asking:
            assert asked != turns.state.to_act
            assert turns.state.legal_actions(by=asked)
        legal = numbers.legal(turns)
        assert legal
        turns = turns.apply(numbers.decode(rng.choice(legal)))
    if turns.state.variant.scoring.zero_sum:  # lives: the returns are the lives left
        assert sum(turns.returns()) == pytest.approx(0.0)
    if turns.state.variant.scoring.moves_dice:
        assert sorted([*turns.out, *turns.state.winners]) == list(range(table.players))
        assert max(turns.returns()) == 1.0
