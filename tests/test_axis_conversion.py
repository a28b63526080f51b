"""The conversion axis: bids onto and off the converted face (ones, or Bluff's stars)."""

from __future__ import annotations

import pytest
from helpers import act, context

from perudo.rules import ConversionRule, HalveDouble, NoConversion

ROWS = [
    # kind, standing bid, face, lowest quantity (None: left to the raise order)
    (HalveDouble(), "5x4", 1, 3),  # half of 5, rounded up
    (HalveDouble(), "6x4", 1, 3),
    (HalveDouble(), "3x1", 4, 7),  # twice 3, plus one
    (HalveDouble(), "3x1", 1, None),
    (HalveDouble(), "3x4", 5, None),
    (HalveDouble(6), "5x3", 6, 3),  # Bluff: onto stars
    (HalveDouble(6), "3x6", 2, 7),  # and off them
    (HalveDouble(6), "3x4", 1, None),  # ones are an ordinary face there
    (NoConversion(), "3x1", 4, None),
    (NoConversion(), "5x4", 1, None),
]


@pytest.mark.parametrize(("kind", "standing", "face", "lowest"), ROWS)
def test_the_lowest_conversion(
    kind: ConversionRule, standing: str, face: int, lowest: int | None
) -> None:
    assert kind.lowest(face, context(bids=[(1, standing)])) == lowest


def test_why_a_conversion_is_too_low() -> None:
    onto = HalveDouble().explain(act("2x1"), context(bids=[(1, "5x4")]))  # type: ignore[arg-type]
    assert onto.reason == "bid-too-low"
    assert "needs at least 3 ones" in onto.message
    off = HalveDouble(6).explain(act("6x2"), context(bids=[(1, "3x6")]))  # type: ignore[arg-type]
    assert "leaving 6s needs at least 7 dice" in off.message
    assert HalveDouble().label(context().words) == "q/2,2a+1"
    assert HalveDouble(6).label(context().words) == "q/2@6"
