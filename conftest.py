"""Collection for the doctests of ``perudo`` itself: an adapter whose extra is missing is not
collected (its tests in ``tests/`` skip, naming the extra to install)."""

from __future__ import annotations

from importlib import import_module


def _missing_extra(module: str) -> bool:
    try:
        import_module(module)
    except ImportError:  # the adapter's own message names the extra
        return True
    return False


collect_ignore = [
    f"perudo/interop/{name}.py"
    for name in ("_spaces", "gymnasium", "pettingzoo", "openspiel", "sb3")
    if _missing_extra(f"perudo.interop.{name}")
]
if _missing_extra("perudo.batch"):  # the vector env's doctest plays on it; and the tests' helper
    collect_ignore += ["perudo/batch", "perudo/interop/gymnasium.py", "tests/batch_reference.py"]
if _missing_extra("perudo.solve"):
    collect_ignore.append("perudo/solve")
for name in ("app", "guard", "postgres"):  # the web extra's uvicorn and Starlette, psycopg
    if _missing_extra(f"perudo.web.{name}"):
        collect_ignore.append(f"perudo/web/{name}.py")
