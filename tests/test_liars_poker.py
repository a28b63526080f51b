"""Liar's poker, the bar game of Wikipedia's article, played on eight ten-faced dice a
player (a dollar bill's serial number; the face 10 is the digit 0): the shipped
declaration played through the article's own sentences."""

from __future__ import annotations

import pytest
from helpers import check_random_games, game, play

import perudo
from perudo import Bid, IllegalActionError

EDITION = perudo.load_variant("liars-poker")
HANDS = [
    [6, 6, 2, 3, 4, 7, 9, 10],
    [6, 1, 1, 5, 5, 8, 10, 2],
    [8, 7, 7, 3, 3, 4, 9, 1],
]  # three 6s, three 7s, two 5s, three aces (1), two zeros (10)


def test_the_next_player_bids_higher_at_that_level_or_any_number_higher() -> None:
    """ "If the first player bids three 6s ... The next player can bid a higher number at
    that level (three 7s), any number at a higher level (four 5s) or challenge." """
    state = play(game(EDITION, HANDS), "3x6")
    for bid in ("3x7", "4x5", "3x9", "3x10", "3x1", "4x2"):
        assert state.is_legal(perudo.parse_action(bid)), bid
    for bid, why in [
        ("3x5", "the same quantity needs a face ranked above 6s"),
        ("2x5", "a lower-ranked face needs more dice"),
        ("2x1", "a higher-ranked face needs at least the same quantity"),
    ]:
        with pytest.raises(IllegalActionError, match=why) as refused:
            state.apply(perudo.parse_action(bid))
        assert refused.value.reason == "bid-too-low"


def test_the_digits_rank_2_to_9_then_0_then_the_ace() -> None:
    """ "The numbers are usually ranked in the following order: 2,3,4,5,6,7,8,9,0 (10) and
    1 (Ace)." """
    assert EDITION.raising.order == (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
    assert (EDITION.dice.per_player, EDITION.dice.faces) == (8, 10)  # eight digits, 0 to 9
    zeros = play(game(EDITION, HANDS), "3x9", "3x10")  # three 0s raise three 9s
    assert zeros.bid == Bid(3, 10)
    aces = play(zeros, "3x1")  # and three aces raise three 0s
    assert not aces.is_legal(Bid(3, 10))
    assert "zeros, aces" in EDITION.describe("raising")


def test_a_bid_challenged_all_around_wins_a_dollar_from_each_player() -> None:
    """ "The end of the game is reached when a player makes a bid that is challenged all
    around. If the bid is successful, he wins a dollar from each of the other players" """
    state = play(game(EDITION, HANDS), "3x6", "dudo")  # seat 1 challenges: the bid stands
    assert (state.claim, state.to_act, state.last_result) == ("doubt", 2, None)
    ended = play(state, "dudo")  # seat 2 challenges too: all around
    result = ended.last_result
    assert result is not None
    assert (result.bidder, result.count, result.points) == (0, 3, (2, -1, -1))
    assert ended.is_over
    assert ended.winners == (0,)
    assert "3 6s" in result.describe()


def test_an_unsuccessful_bid_loses_a_dollar_to_each_player() -> None:
    """ "but if the bid is unsuccessful, he loses a dollar to each of the other players" """
    ended = play(game(EDITION, HANDS), "3x6", "dudo", "4x10", "dudo", "dudo")  # 2 zeros
    result = ended.last_result
    assert result is not None
    assert (result.bidder, result.count, result.points) == (2, 2, (1, 1, -2))
    assert "2 zeros" in result.describe()


def test_random_games_play_read_back_and_replay() -> None:
    check_random_games(EDITION, 3, 4)
    check_random_games(EDITION, 2, 4)


def test_the_batch_engine_plays_it_as_gamestate_does() -> None:
    """Challenges that wait for every other player's, raises between them, and the bidder
    paid by or paying every other player, on both engines alike, step by step (where the
    batch extra is installed)."""
    pytest.importorskip("numba", reason="the batch extra is not installed")
    from batch_reference import compare

    assert compare(EDITION, 4, 40, seed=4, observe=3) > 80
