"""The opening axis: which faces may open a round (a setting the legality check reads)."""

from __future__ import annotations

import attrs
import pytest
from helpers import ITALIAN_RULES, act, context

from perudo.rules import Opening
from perudo.rules.bidding import check_bid, lowest_quantities


@pytest.mark.parametrize(
    ("ones", "lows"),
    [
        ("forbidden", (None, None, 1, 1, 1, 1, 1)),
        ("allowed", (None, 1, 1, 1, 1, 1, 1)),
        ("required", (None, 1, None, None, None, None, None)),
    ],
)
def test_the_faces_that_may_open(ones: str, lows: tuple[int | None, ...]) -> None:
    rules = attrs.evolve(ITALIAN_RULES, opening=Opening(ones).ones)
    assert lowest_quantities(rules, None, lambda: context(rules=rules), False) == lows
    opened = check_bid(rules, None, lambda: context(rules=rules), act("1x1"), 0, 15)  # type: ignore[arg-type]
    assert (opened is None) == (ones != "forbidden")
    if ones == "required":
        why = check_bid(rules, None, lambda: context(rules=rules), act("1x3"), 0, 15)  # type: ignore[arg-type]
        assert why is not None
        assert why.reason == "must-open-on-ones"


def test_a_face_the_dice_lack_is_refused_first() -> None:
    why = check_bid(ITALIAN_RULES, None, context, act("2x7"), 0, 15)  # type: ignore[arg-type]
    assert why is not None
    assert why.reason == "no-such-face"
