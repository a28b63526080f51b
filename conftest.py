"""Collection for the doctests of ``perudo`` itself: a module that needs a missing extra is
not collected (its tests in ``tests/`` skip, naming the extra to install)."""

from __future__ import annotations

from importlib.util import find_spec

_NEEDS = {
    "perudo/interop/_spaces.py": ("gymnasium", "numpy"),
    "perudo/interop/gymnasium.py": ("gymnasium", "numpy"),
    "perudo/interop/pettingzoo.py": ("pettingzoo", "gymnasium", "numpy"),
    "perudo/interop/openspiel.py": ("pyspiel", "numpy"),
}

collect_ignore = [
    path for path, modules in _NEEDS.items() if any(find_spec(module) is None for module in modules)
]
