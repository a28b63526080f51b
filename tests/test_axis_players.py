"""The players axis: how many may sit at the table."""

from __future__ import annotations

import pytest
from helpers import WORDS

import perudo
from perudo.rules import PlayerCount


def test_players_bound_the_table() -> None:
    two_to_six = PlayerCount(2, 6)
    assert (two_to_six.label(WORDS), two_to_six.describe(WORDS, 5)) == ("2-6", "2 to 6 players.")
    assert PlayerCount(2, 2).describe(WORDS, 1) == "2 players."
    six = perudo.load_variant("spanish").derive("six", reason="r", players={"min": 2, "max": 6})
    with pytest.raises(perudo.GameSetupError, match="2 to 6 players, not 7"):
        perudo.new_game(six, 7, seed=1)
