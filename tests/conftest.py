from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from perudo.rules.bidding import clear_caches
from perudo.rules.special import _transform as special_transform

sys.path.insert(0, str(Path(__file__).parent))

settings.register_profile(
    "default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(  # mutation testing: small, and the same examples every run
    "mutmut", max_examples=15, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow],
)  # fmt: skip
if os.environ.get("MUTANT_UNDER_TEST"):
    settings.load_profile("mutmut")
else:
    settings.load_profile("ci" if os.environ.get("CI") else "default")


@pytest.fixture(autouse=True)
def _fresh_rule_caches() -> None:
    """Start every test with empty rule caches, so that a mutated rule component (mutation
    testing forks after a first run) is called rather than answered from a cache."""
    clear_caches()
    special_transform.cache_clear()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Any]:
    """``perudo serve`` on 127.0.0.1 with a fresh store in ``tmp_path``, stopped after
    (its error output checked): :class:`web_server.Server`."""
    from web_server import serving

    with serving(tmp_path) as running:
        yield running
