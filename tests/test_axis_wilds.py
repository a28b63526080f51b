"""The wilds axis: each kind's wild face at each moment of a round."""

from __future__ import annotations

import attrs
import pytest
from helpers import context

from perudo.rules import NoWilds, WildFace, WildOnes, WildsRule, WildUntilBidOn

ROWS = [
    # kind, the round's bids so far, the wild face now
    (WildOnes(), [], 1),
    (WildOnes(), [(0, "2x1")], 1),
    (NoWilds(), [], None),
    (NoWilds(), [(0, "2x3")], None),
    (WildFace(6, False), [], 6),
    (WildFace(6, False), [(0, "1x6")], 6),
    (WildFace(1, True), [], 1),  # Bagos: wild unless the round opens on ones
    (WildFace(1, True), [(0, "2x3")], 1),
    (WildFace(1, True), [(0, "2x1")], None),
    (WildFace(1, True), [(0, "2x3"), (1, "2x1")], 1),  # only the opening bid decides
    (WildUntilBidOn(1), [], 1),
    (WildUntilBidOn(1), [(0, "2x3")], 1),
    (WildUntilBidOn(1), [(0, "2x3"), (1, "2x1")], None),  # from the bid on ones on
    (WildUntilBidOn(1), [(0, "2x1"), (1, "5x3")], None),
    (WildUntilBidOn(6), [(0, "2x1")], 6),
]


@pytest.mark.parametrize(("kind", "bids", "wild"), ROWS)
def test_the_wild_face_now(kind: WildsRule, bids: list[tuple[int, str]], wild: int | None) -> None:
    assert kind.wild_face(context(bids=bids)) == wild


def test_the_rules_in_force_may_play_without_wilds() -> None:
    round_context = context(bids=[(0, "2x3")])
    assert round_context.wild == 1
    palifico = attrs.evolve(round_context.rules, wilds=None)  # a special round's rules
    assert palifico.wild_face(round_context) is None
    assert attrs.evolve(round_context, rules=palifico).wild is None
