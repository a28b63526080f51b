"""The first-player axis: who opens the game."""

from __future__ import annotations

from helpers import context

from perudo.rules import FixedSeat, RollOff


def test_who_opens_the_game() -> None:
    start = context((5, 5, 5), to_act=None)
    assert FixedSeat(2).first(7, start) == 2
    assert not FixedSeat.drawn
    drawn = {RollOff().first(seed, start) for seed in range(40)}
    assert drawn == {0, 1, 2}  # every seat may win the roll-off
    assert RollOff.drawn
    assert RollOff().first(11, start) == RollOff().first(11, start)  # the seed decides
