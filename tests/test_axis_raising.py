"""The raise-order axis: the lowest quantity of each face over a standing bid, and why a
bid is refused."""

from __future__ import annotations

import pytest
from helpers import act, context

import perudo
from perudo import Bid
from perudo.rules import FaceOrQuantity, Monotone, QuantityOrFace, RaisingRule, RankedFaces

#: Liar's poker's digits (Wikipedia): "2,3,4,5,6,7,8,9,0 (10) and 1 (Ace)".
POKER = RankedFaces(order=(2, 3, 4, 5, 6, 7, 8, 9, 10, 1))

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
    # "If the first player bids three 6s ... The next player can bid a higher number at that
    # level (three 7s), any number at a higher level (four 5s)"
    (POKER, "3x6", 7, 3),
    (POKER, "3x6", 5, 4),
    (POKER, "3x6", 10, 3),  # a zero (the face 10) ranks above the 9
    (POKER, "3x6", 1, 3),  # the ace ranks highest
    (POKER, "3x1", 10, 4),
    (POKER, "3x10", 1, 3),
    (RankedFaces(order=(3, 2)), "3x2", 4, None),  # a face left out is never a raise
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
        (POKER, "3x3", "bid-too-low", "the same quantity needs a face ranked above 4s"),
        (POKER, "2x1", "bid-too-low", "a higher-ranked face needs at least the same"),
        (POKER, "3x4", "bid-too-low", "the same face needs more dice"),
        (RankedFaces(order=(4, 2)), "9x3", "bid-too-low", "3s rank nowhere in this order"),
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


def test_a_declared_order_is_read_from_its_list_and_checked() -> None:
    italian = perudo.load_variant("italian")
    ranked = italian.derive(
        "italian-ranked", reason="t", raising={"kind": "ranked-faces", "order": [2, 3, 4, 5, 6, 1]}
    )
    assert ranked.raising == RankedFaces(order=(2, 3, 4, 5, 6, 1))
    assert perudo.Variant.from_dict(ranked.to_dict()) == ranked
    for order, problem in [
        ([2, 3, 3], "names a number twice"),
        ([2, 0], "not a whole number from 1 to"),
        ("2,3", "is not a list of 1 to"),
        ([2, True], "not a whole number from 1 to"),
        (list(range(1, 30)), "is not a list of 1 to"),
    ]:
        with pytest.raises(perudo.InvalidVariantError, match=problem):
            italian.derive("bad", reason="t", raising={"kind": "ranked-faces", "order": order})
    words = perudo.Words(dudo="Dudo")
    assert (POKER.label(words), RankedFaces(order=(3, 2, 1)).label(words)) == (
        "qty|1 hi",
        "qty|rank",
    )
    short = italian.derive("short", reason="t", raising={"kind": "ranked-faces", "order": [2, 7]})
    assert perudo.variant.inapplicable(short) == (
        "raising: the order ranks 7, not on dice of 6 faces",
        "raising: the order leaves out ones, 3s, 4s, 5s, 6s: no raise names them",
    )


def test_a_conversion_under_a_raise_order_whose_quantity_falls_is_refused() -> None:
    """Found by the drawn editions of the batch test: under face-or-quantity a raised face
    may name one die, and halving onto ones then gives a bid placed before (1x1, 3x2, 1x3,
    1x1), so a round need never end and an observation cannot hold it."""
    italian = perudo.load_variant("italian")
    with pytest.raises(perudo.InvalidVariantError, match="lets a bid come back"):
        italian.derive("cycle", reason="t", raising={"kind": "face-or-quantity"})
    plain = italian.derive(
        "no-cycle", reason="t", raising={"kind": "face-or-quantity"}, conversion={"kind": "none"}
    )
    assert isinstance(plain.raising, FaceOrQuantity)
