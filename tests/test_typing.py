"""What mypy says of code that uses perudo: a house rule made with ``Variant.derive`` is
checked axis by axis, so a kind given to the wrong axis is caught before it runs."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

import perudo

api = pytest.importorskip("mypy.api", reason="mypy is not installed (the dev extra has it)")

USER_CODE = """
import perudo
from perudo.rules import (
    Challenge, Dice, DiceInPlayCap, Elimination, ExactCall, HalveDouble, LoserStarts,
    Monotone, OneDieRound, Opening, PartyPoints, PlayerCount, RollOff, WildFace,
)

italian = perudo.load_variant("italian")
italian.derive(
    "every-axis", reason="r", name="N", summary="S.", source="ours", language="English",
    players=PlayerCount(2, 6), dice=Dice(5), wilds=WildFace(6, False), raising=Monotone(),
    conversion=HalveDouble(), opening=Opening("allowed"), cap=DiceInPlayCap(),
    challenge=Challenge("all"), exact_call=ExactCall("player-to-act", 3, False),
    special_round=OneDieRound(True, "same", False, "allowed", "nobody"),
    starter=LoserStarts("left"), first_player=RollOff(), scoring=PartyPoints(2, 1, 3, 2),
)
italian.derive("sections", reason="r", cap={"kind": "dice-in-play"})
italian.derive("wrong-axis", reason="r", cap=Elimination())  # line 18: the one error
"""


def test_derive_is_typed_axis_by_axis(tmp_path: Path) -> None:
    source = tmp_path / "house.py"
    source.write_text(USER_CODE, encoding="utf-8")
    out, _, status = api.run(["--strict", "--no-incremental", str(source)])
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 1, out
    assert len(errors) == 1, out
    assert "house.py:18:" in errors[0]
    assert '"cap"' in errors[0]
    assert "CapRule" in errors[0]


def test_derive_names_every_axis() -> None:
    parameters = inspect.signature(perudo.Variant.derive).parameters
    assert set(perudo.AXES) <= set(parameters)
    for axis in perudo.AXES:
        assert parameters[axis].kind is inspect.Parameter.KEYWORD_ONLY
