"""The raise-order axis: the lowest quantity of each face over a standing bid, and why a
bid is refused."""

from __future__ import annotations

import pytest
from helpers import act, context

from perudo import Bid
from perudo.rules import FaceOrQuantity, Monotone, QuantityOrFace, RaisingRule

ROWS = [
    # kind, standing bid, face, lowest quantity (None: no bid on that face raises)
    (QuantityOrFace(), "3x4", 4, 4),
    (QuantityOrFace(), "3x4", 5, 3),
    (QuantityOrFace(), "3x4", 2, 4),
    (Monotone(), "3x4", 4, 4),
    (Monotone(), "3x4", 6, 3),
    (Monotone(), "3x4", 2, None),
    (FaceOrQuantity(), "3x4", 4, 4),
    (FaceOrQuantity(), "3x4", 5, 1),
    (FaceOrQuantity(), "3x4", 3, None),
]


@pytest.mark.parametrize(("kind", "standing", "face", "lowest"), ROWS)
def test_the_lowest_raise(kind: RaisingRule, standing: str, face: int, lowest: int | None) -> None:
    assert kind.lowest(face, context(bids=[(1, standing)])) == lowest


@pytest.mark.parametrize(
    ("kind", "bid", "reason", "words"),
    [
        (QuantityOrFace(), "3x3", "bid-too-low", "the same quantity needs a higher face"),
        (QuantityOrFace(), "2x3", "bid-too-low", "a lower face needs more dice"),
        (QuantityOrFace(), "2x5", "bid-too-low", "a higher face needs at least the same"),
        (Monotone(), "5x2", "face-lowered", "the face never goes down"),
        (Monotone(), "2x5", "bid-too-low", "the quantity never goes down"),
        (FaceOrQuantity(), "9x3", "face-lowered", "the face never goes down"),
        (FaceOrQuantity(), "3x4", "bid-too-low", "the same face needs more dice"),
    ],
)
def test_why_a_bid_does_not_raise(kind: RaisingRule, bid: str, reason: str, words: str) -> None:
    violation = kind.explain(act(bid), context(bids=[(1, "3x4")]))  # type: ignore[arg-type]
    assert violation.reason == reason
    assert words in violation.message
    assert "does not raise 3x4" in violation.message


def test_faces_past_six_rank_the_same_way() -> None:
    assert QuantityOrFace().lowest(12, context(bids=[(1, "3x8")], faces=12)) == 3
    assert Monotone().lowest(7, context(bids=[(1, "3x8")], faces=12)) is None
    assert isinstance(act("3x8"), Bid)
