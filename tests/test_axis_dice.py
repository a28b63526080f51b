"""The dice axis: each hand's dice at the start, and their faces."""

from __future__ import annotations

import pytest
from helpers import WORDS

import perudo
from perudo.dice import deal
from perudo.rules import Dice


@pytest.mark.parametrize(
    ("kind", "label", "words"),
    [(Dice(5), "5", "5 six-sided dice"), (Dice(3, 8), "3d8", "3 8-sided dice")],
)
def test_dice(kind: Dice, label: str, words: str) -> None:
    assert kind.label(WORDS) == label
    assert words in kind.describe(WORDS, kind.per_player)


def test_the_deal_follows_the_dice() -> None:
    eight = perudo.load_variant("wango").derive(
        "wango-d8", reason="r", dice={"per_player": 3, "faces": 8}
    )
    state = perudo.new_game(eight, 3, seed=2)
    assert [len(player.dice) for player in state.players] == [3, 3, 3]
    assert all(1 <= die <= 8 for player in state.players for die in player.dice)
    assert deal(2, 1, [3, 3, 3], 8) == tuple(player.dice for player in state.players)
