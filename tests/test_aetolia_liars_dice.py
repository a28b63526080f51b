"""Liar's Dice of Aetolia's game help page, where a player left with fewer than three dice
is out: the shipped declaration played through the page's own sentences."""

from __future__ import annotations

import pytest
from helpers import check_random_games, game, play

import perudo
from perudo import Bid

EDITION = perudo.load_variant("aetolia-liars-dice")
HANDS = [[2, 2, 3, 5, 6], [1, 2, 4, 4, 6], [2, 3, 3, 5, 5]]  # four 2s; ones are not wild


def short(hands: list[list[int]]) -> perudo.GameState:
    """A game whose seats start with these hands (a seat of three dice has lost two)."""
    counts = tuple(len(hand) for hand in hands)
    return perudo.new_game(EDITION, 3, seed=0, dice=hands, first_player=0, starting_dice=counts)


def test_a_claim_never_lowers_the_quantity_or_the_face() -> None:
    """ "You can increase either the quantity or the face, or both. You cannot decrease
    either of the numbers below the previous claim's." """
    state = play(game(EDITION, HANDS), "3x4")
    assert state.is_legal(Bid(4, 4))
    assert state.is_legal(Bid(3, 5))
    assert state.is_legal(Bid(5, 6))
    assert not state.is_legal(Bid(5, 3))  # the face goes down
    assert not state.is_legal(Bid(2, 6))  # the quantity goes down


def test_a_player_who_falls_below_three_dice_is_out() -> None:
    """ "If you lose a challenge, you sacrifice one of your die. Should you fall below three
    die, you are out of the game." """
    state = short([[2, 2, 3], [1, 2, 4, 4, 6], [2, 3, 3, 5, 5]])  # seat 0 holds three
    ended = play(state, "5x2", "dudo")  # four 2s: seat 0's claim fails
    result = ended.last_result
    assert result is not None
    assert (result.loser, result.changes, result.out) == (0, (-1, 0, 0), (0,))
    assert not ended.players[0].is_in
    assert [len(p.dice) for p in ended.players] == [0, 5, 5]  # out with two dice in the cup
    assert ended.seats_in == (1, 2)
    kept = play(game(EDITION, HANDS), "5x2", "dudo")  # from five dice: one lost, still in
    assert kept.last_result is not None
    assert kept.last_result.out == ()
    assert [len(p.dice) for p in kept.players] == [4, 5, 5]


def test_the_last_player_in_wins() -> None:
    state = short([[2, 2, 3], [1, 2, 4], [2, 3, 3, 5, 5]])
    state = play(state, "5x2", "dudo")  # seat 0 out; seat 1 holds three
    assert state.to_act == 1  # the loser is out: the next player to the left opens
    ended = play(state, "9x6", "dudo")  # seat 1's claim fails: out, and seat 2 is left
    assert ended.is_over
    assert ended.winners == (2,)


def test_random_games_play_read_back_and_replay() -> None:
    check_random_games(EDITION, 3, 4)
    check_random_games(EDITION, 2, 4)


def test_the_batch_engine_plays_it_as_gamestate_does() -> None:
    """Out below three dice, the dice in the cup leaving with the player, on both engines
    alike, step by step (where the batch extra is installed)."""
    pytest.importorskip("numba", reason="the batch extra is not installed")
    from batch_reference import compare

    assert compare(EDITION, 3, 20, seed=3, observe=2) > 20
