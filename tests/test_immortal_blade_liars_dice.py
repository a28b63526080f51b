"""Liar's dice as Immortal Blade's wiki gives it: wild ones ("Almighty Dice") and a showdown
where a pure or impure hand counts more than its dice; the shipped declaration played
through the page's own sentences."""

from __future__ import annotations

import pytest
from helpers import check_random_games, game, play

import perudo
from perudo import Bid

EDITION = perudo.load_variant("immortal-blade-liars-dice")


def test_a_call_raises_the_quantity_or_the_face() -> None:
    """ "If one side calls M amount of N (such as 5 numbers of 3) ... the other side's call
    must be at least M+1 of N, or M of N+1." """
    state = play(game(EDITION, [[2, 3, 3, 4, 6], [1, 3, 5, 5, 6]]), "5x3")
    assert state.is_legal(Bid(6, 3))
    assert state.is_legal(Bid(5, 4))
    assert not state.is_legal(Bid(4, 6))


@pytest.mark.parametrize(
    ("hands", "count"),
    [
        # "If all of one side's dices show the same number, the total amount of the number
        # will increase by 2": five 4s count seven
        ([[4, 4, 4, 4, 4], [2, 3, 5, 6, 6]], 7),
        # "If all of one side's dices show the same number or 1, the total amount of the
        # number will increase by 1": 4s and ones count their five, and one more
        ([[4, 1, 4, 1, 4], [2, 3, 5, 6, 6]], 6),
        ([[4, 4, 4, 4, 2], [1, 4, 5, 6, 6]], 6),  # neither: the dice alone (four 4s, a one)
    ],
)
def test_a_pure_or_impure_hand_counts_more_at_the_showdown(
    hands: list[list[int]], count: int
) -> None:
    ended = play(game(EDITION, hands), "6x4", "dudo")
    result = ended.last_result
    assert result is not None
    assert result.count == count
    assert ended.winners == ((0,) if count >= 6 else (1,))  # the bid holds at six
    assert ended.is_over  # one showdown is the game


def test_random_games_play_read_back_and_replay() -> None:
    check_random_games(EDITION, 2, 8)


def test_the_batch_engine_plays_the_showdown_as_gamestate_does() -> None:
    """Pure and impure hands counted alike on both engines, step by step (where the batch
    extra is installed): the edition's one showdown, and games of two dice a hand to the
    last player in, where most showdowns hold a pure or an impure hand."""
    pytest.importorskip("numba", reason="the batch extra is not installed")
    from batch_reference import compare

    assert compare(EDITION, 2, 40, seed=5, observe=4) >= 40
    two_dice = EDITION.derive(
        "immortal-blade-two-dice",
        reason="Test: two dice a hand, played to the last player in.",
        dice={"per_player": 2, "faces": 6},
        scoring={"kind": "elimination"},
    )
    assert compare(two_dice, 2, 40, seed=6, observe=4) > 80
