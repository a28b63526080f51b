"""Every built-in rule kind has rows in its axis's test module (``tests/test_axis_AXIS.py``,
each named there by its class), so a kind added without its worked examples is caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from perudo.rules import AXES, rule_kinds
from perudo.rules.registry import is_built_in

HERE = Path(__file__).parent


@pytest.mark.parametrize("axis", AXES)
def test_every_built_in_kind_has_rows_in_its_axis_module(axis: str) -> None:
    module = HERE / f"test_axis_{axis}.py"
    assert module.exists(), f"no {module.name}"
    text = module.read_text(encoding="utf-8")
    built_in = [cls for cls in rule_kinds(axis).values() if is_built_in(cls)]
    assert built_in, axis
    missing = [cls.__name__ for cls in built_in if f"{cls.__name__}(" not in text]
    assert missing == [], f"{module.name} has no row for {', '.join(missing)}"


def test_the_registry_probes_every_axis() -> None:
    """Each axis has the protocol checks a registered kind of it must pass (none is skipped
    in silence)."""
    from perudo.rules.registry import _CHECKS

    assert set(_CHECKS) == set(AXES)
    assert all(_CHECKS[axis] for axis in AXES)
