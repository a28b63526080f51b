"""The first-player axis: who opens the game."""

from __future__ import annotations

from collections import Counter

from helpers import context

import perudo
from perudo.rules import DrawnSeat, FixedSeat, RollOff


def test_who_opens_the_game() -> None:
    start = context((5, 5, 5), to_act=None)
    assert FixedSeat(2).first(7, start) == 2
    assert not FixedSeat.drawn
    drawn = {RollOff().first(seed, start) for seed in range(40)}
    assert drawn == {0, 1, 2}  # every seat may win the roll-off
    assert RollOff.drawn
    assert RollOff().first(11, start) == RollOff().first(11, start)  # the seed decides


def test_a_seat_drawn_at_random_each_alike() -> None:
    """guyguroz-hue/Perudo, docs/GAME_RULES.md section 11: "Drawn at random from the
    players at the table, uniformly"."""
    start = context((5, 5, 5, 5), to_act=None)
    drawn = Counter(DrawnSeat().first(seed, start) for seed in range(2000))
    assert set(drawn) == {0, 1, 2, 3}
    assert all(400 <= n <= 600 for n in drawn.values())  # 500 each, within 4.5 sigma
    assert DrawnSeat.drawn
    assert DrawnSeat().first(11, start) == DrawnSeat().first(11, start)  # the seed decides
    edition = perudo.load_variant("italian").derive(
        "italian-drawn", reason="t", first_player={"kind": "random"}
    )
    assert perudo.new_game(edition, 4, seed=11).to_act == DrawnSeat().first(11, start)
