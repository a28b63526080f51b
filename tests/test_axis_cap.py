"""The cap axis: whether a bid's quantity is capped at the dice in play."""

from __future__ import annotations

import attrs
import pytest
from helpers import ITALIAN_RULES, act, context

from perudo.rules import DiceInPlayCap, NoCap
from perudo.rules.bidding import check_bid


@pytest.mark.parametrize(("kind", "refused"), [(NoCap(), False), (DiceInPlayCap(), True)])
def test_a_quantity_above_the_dice_in_play(kind: NoCap | DiceInPlayCap, refused: bool) -> None:
    rules = attrs.evolve(ITALIAN_RULES, cap=kind.caps)
    above = check_bid(rules, None, lambda: context(rules=rules), act("16x3"), 0, 15)  # type: ignore[arg-type]
    assert (above is not None) == refused
    if refused:
        assert above is not None
        assert above.reason == "above-cap"
    assert check_bid(rules, None, lambda: context(rules=rules), act("15x3"), 0, 15) is None  # type: ignore[arg-type]
    assert kind.label(context().words) == ("in play" if refused else "none")
