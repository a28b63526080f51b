"""Liar Dice as a published online game gives its rules (fb88): the ones ranked highest,
an opening of two dice or more, one round a game, and the system's move for a player out of
time; the shipped declaration played through the page's own sentences."""

from __future__ import annotations

import pytest
from helpers import check_random_games, game, play

import perudo
from perudo import Bid, Dudo
from perudo.match import timeout_move

EDITION = perudo.load_variant("fb88-liar-dice")
HANDS = [[1, 6, 6, 5, 2], [1, 6, 4, 3, 3]]  # three 6s, two 1s (ones are not wild)


def test_the_ones_rank_above_the_sixes() -> None:
    """ "their values in descending order are (1) > (6) > (5) > (4) > (3) > (2)"; "three
    (5) is larger than two (6); four (1) is larger than four (6)" """
    assert EDITION.raising.order == (2, 3, 4, 5, 6, 1)
    assert play(game(EDITION, HANDS), "2x6").is_legal(Bid(3, 5))
    four_sixes = play(game(EDITION, HANDS), "4x6")
    assert four_sixes.is_legal(Bid(4, 1))
    assert not play(four_sixes, "4x1").is_legal(Bid(4, 6))


def test_the_first_bid_names_at_least_two_dice() -> None:
    """ "The quantity of the first bid must not be less than two." """
    start = game(EDITION, HANDS)
    assert not start.is_legal(Bid(1, 4))
    assert start.is_legal(Bid(2, 4))
    assert start.is_legal(Bid(3, 2))  # "e.g. two (4), three (2)"


@pytest.mark.parametrize(("bid", "winner"), [("3x6", 0), ("4x6", 1)])
def test_one_reveal_decides_the_game(bid: str, winner: int) -> None:
    """ "If the bid is matched or exceeded, the player who made the bid wins. Yet if the bid
    is not matched, the challenger wins." One round is the game."""
    assert perudo.parse_action("Reveal dice", variant=EDITION) == Dudo()  # the page's words
    ended = play(game(EDITION, HANDS), bid, "dudo")
    assert ended.is_over
    assert ended.winners == (winner,)
    assert [p.score for p in ended.players] == ([1, -1] if winner == 0 else [-1, 1])


def test_the_system_moves_for_a_player_out_of_time() -> None:
    """ "if the first player does not make a timely bid, the system would name three (1) on
    behalf of him", then "the system would "reveal dice" if a player does not make a timely
    decision" """
    start = game(EDITION, HANDS)
    assert timeout_move(start) == Bid(3, 1)
    assert timeout_move(play(start, "2x6")) == Dudo()
    assert EDITION.clock.seconds == 20


def test_random_games_play_read_back_and_replay() -> None:
    check_random_games(EDITION, 2, 6)


def test_the_batch_engine_plays_it_as_gamestate_does() -> None:
    """Aces ranked highest and an opening of two dice or more, on both engines alike, step
    by step (where the batch extra is installed)."""
    pytest.importorskip("numba", reason="the batch extra is not installed")
    from batch_reference import compare

    assert compare(EDITION, 2, 30, seed=2, observe=2) > 30
