"""perudo builds every attrs value of more than three fields with keywords (or
``attrs.evolve``), never positionally: a field added later is then never dropped in
silence. A positional ``Player(...)`` once did drop one (its ``open`` dice), so this test
reads every module of ``perudo`` and names each call that passes such a value positionally.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import attrs

PACKAGE = Path(__file__).parent.parent / "perudo"


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _wide_classes() -> dict[str, list[type]]:
    """Each attrs class of perudo with more than three fields, by its name, from the
    modules that import (an extra that is missing hides its own)."""
    classes: dict[str, list[type]] = {}
    for name, path in _modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = [node.name for node in tree.body if isinstance(node, ast.ClassDef)]
        if not defined:
            continue
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        for class_name in defined:
            value = getattr(module, class_name, None)
            if isinstance(value, type) and attrs.has(value) and len(attrs.fields(value)) > 3:
                classes.setdefault(class_name, []).append(value)
    return classes


def _positional_calls(source: str, wide: dict[str, list[type]]) -> list[tuple[int, str]]:
    """The line and class of each call in ``source`` that builds one of ``wide``
    positionally."""
    return [
        (node.lineno, node.func.id)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Name)
        if node.func.id in wide
    ]


def test_no_attrs_value_of_more_than_three_fields_is_built_positionally() -> None:
    wide = _wide_classes()
    assert {"Player", "RoundContext", "Resolution", "StoredTable"} <= set(wide)  # it sees them
    positional = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {name}(...) positionally"
        for path in _modules().values()
        for line, name in _positional_calls(path.read_text(encoding="utf-8"), wide)
    ]
    assert positional == [], "\n".join(positional)


def test_the_check_names_a_positional_call_and_passes_keywords() -> None:
    wide = _wide_classes()
    source = (
        "a = Player('Ana', (1, 2), 0, 0, False)\n"
        "b = Player(name='Ana', dice=(1, 2))\n"
        "c = attrs.evolve(a, pressure_left=1)\n"
        "d = Bid(3, 5)\n"  # two fields: positional is fine
    )
    assert _positional_calls(source, wide) == [(1, "Player")]
