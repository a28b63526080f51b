"""The table axes: players, dice, and who opens the game."""

from __future__ import annotations

import pytest
from helpers import WORDS, context

import perudo
from perudo.rules import Dice, FixedSeat, PlayerCount, RollOff


def test_players_bound_the_table() -> None:
    two_to_six = PlayerCount(2, 6)
    assert (two_to_six.label(WORDS), two_to_six.describe(WORDS, 5)) == ("2-6", "2 to 6 players.")
    assert PlayerCount(2, 2).describe(WORDS, 1) == "2 players."
    six = perudo.load_variant("spanish").derive("six", reason="r", players={"min": 2, "max": 6})
    with pytest.raises(perudo.GameSetupError, match="2 to 6 players, not 7"):
        perudo.new_game(six, 7, seed=1)


@pytest.mark.parametrize(
    ("kind", "label", "words"),
    [(Dice(5), "5", "5 six-sided dice"), (Dice(3, 8), "3d8", "3 8-sided dice")],
)
def test_dice(kind: Dice, label: str, words: str) -> None:
    assert kind.label(WORDS) == label
    assert words in kind.describe(WORDS, kind.per_player)


def test_who_opens_the_game() -> None:
    start = context((5, 5, 5), to_act=None)
    assert FixedSeat(2).first(7, start) == 2
    assert not FixedSeat.drawn
    drawn = {RollOff().first(seed, start) for seed in range(40)}
    assert drawn == {0, 1, 2}  # every seat may win the roll-off
    assert RollOff.drawn
    assert RollOff().first(11, start) == RollOff().first(11, start)  # the seed decides
