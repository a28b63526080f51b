"""Dead Man's Dice, the Liar's Dice of a published games page played for one life: the
shipped declaration played through the page's own sentences."""

from __future__ import annotations

import pytest
from helpers import game, play

import perudo
from perudo import Bid

EDITION = perudo.load_variant("dead-mans-dice")
HANDS = [[2, 2, 3, 5, 6], [1, 2, 4, 4, 6], [2, 3, 3, 5, 5]]  # four 2s, one 1 (not wild)


def test_subsequent_players_bid_consecutively_higher() -> None:
    """ ""three ones," for example. Subsequent players can bid "four ones" or "three twos." """
    state = play(game(EDITION, HANDS), "3x1")
    assert state.is_legal(Bid(4, 1))
    assert state.is_legal(Bid(3, 2))
    assert not state.is_legal(Bid(2, 6))
    assert (EDITION.players.min, EDITION.players.max) == (2, 3)  # "Two or three players"


@pytest.mark.parametrize(("bid", "out"), [("4x2", 1), ("5x2", 0)])
def test_a_player_loses_immediately(bid: str, out: int) -> None:
    """ "If there are at least four twos on the table, a bid of "four twos" is correct";
    "a player loses immediately if his challenge fails or if another player correctly
    challenges him" (seat 0 bids, seat 1 challenges; ones are not wild)."""
    ended = play(game(EDITION, HANDS), bid, "dudo")
    result = ended.last_result
    assert result is not None
    assert result.count == 4
    assert result.out == (out,)
    assert not ended.players[out].is_in
    assert [len(p.dice) for p in ended.players if p.is_in] == [5, 5]  # hands keep their dice
    assert ended.to_act == out + 1  # the loser would bid first: the next player does


def test_the_last_player_in_wins() -> None:
    state = play(game(EDITION, HANDS), "4x2", "dudo")  # seat 1 out
    state = state.with_dice([[2, 2, 3, 5, 6], [], [2, 3, 3, 5, 5]])
    ended = play(state, "9x6", "dudo")  # seat 2 opens; seat 0 challenges 9x6: seat 2 out
    assert ended.is_over
    assert ended.winners == (0,)
    assert [p.score for p in ended.players] == [1, 0, 0]
