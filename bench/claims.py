"""The times the docs state, measured: run on demand (``python bench/claims.py``), never
as a test.

Each claim is a sentence of a docs page that says how long a command takes ("about two
seconds"), and the command it is about. The number is read from the page itself, so a
claim edited on its page is measured as edited, and a sentence no longer there stops
this script (exit 1) instead of going unchecked. Each command runs in a process of its
own; the line printed is the page, the time stated, the time measured (wall) and their
ratio. Nothing here fails on a time: a ratio far from 1 is the page to mend.
``--quick`` runs the claims of a few seconds (CI's smoke run); ``tests/test_docs.py``
checks that every claim's sentence is on its page.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import attrs

ROOT = Path(__file__).resolve().parent.parent
PERUDO = (sys.executable, "-m", "perudo")
WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "six": 6, "eight": 8}
UNITS = {"s": 1, "second": 1, "seconds": 1, "minute": 60, "minutes": 60}
#: numba compiles into a cache of its own, so the run finds nothing compiled before it.
COLD = "cold-numba-cache"


@attrs.frozen
class Claim:
    """A time a page states: ``said`` finds it (its groups: the number, the unit)."""

    page: str
    said: str
    command: tuple[str, ...]
    quick: bool = False
    environment: str | None = None

    def stated(self) -> float:
        """The seconds the page says now."""
        text = " ".join((ROOT / self.page).read_text(encoding="utf-8").split())
        found = re.search(self.said, text)
        if found is None:
            raise LookupError(f"{self.page} no longer says {self.said!r}: mend bench/claims.py")
        number, unit = found.groups()
        value = WORDS[number] if number in WORDS else float(number.replace(",", ""))
        return value * UNITS[unit]


_BATCH_STEPS = "from perudo.batch import play_random; play_random('italian', 4, games=256, seed=1)"

_COMPARE = (*PERUDO, "simulate", "--compare", "italian", "spanish", "--games", "10000")
_COMPARE += ("--workers", "2", "--engine")

CLAIMS = (
    Claim(
        page="docs/howto/solve.md",
        said=r"`perudo solve openspiel-liars-dice` prints it, in about (\w+) (seconds)",
        command=(*PERUDO, "solve", "openspiel-liars-dice", "--quiet"),
        quick=True,
    ),
    Claim(
        page="docs/howto/openspiel.md",
        said=r"default 8,000 iterations \(about (\w+) (seconds)",
        command=(sys.executable, "examples/openspiel_mccfr.py"),
        quick=True,
    ),
    Claim(
        page="docs/howto/compare.md",
        said=r"with the `batch` extra, in about ([\d.]+) (s)",
        command=(*_COMPARE, "batch"),
        quick=True,
    ),
    Claim(
        page="docs/howto/compare.md",
        said=r"without it, on `GameState`, in about (\w+) (s|seconds|minutes?)",
        command=(*_COMPARE, "reference"),
    ),
    Claim(
        page="docs/howto/batch.md",
        said=r"loads them in about (\w+) (second)",
        command=(sys.executable, "-c", _BATCH_STEPS),
        quick=True,
    ),
    Claim(
        page="docs/howto/batch.md",
        said=r"compiles them \(about (\d+) (s) on 2 cores\)",
        command=(sys.executable, "-c", _BATCH_STEPS),
        environment=COLD,
    ),
    Claim(
        page="docs/howto/solve.md",
        said=r"-481/2052, proven in about (\w+) (minutes) on two cores",
        command=(*PERUDO, "solve", "italian", "--dice", "1,2", "--quiet"),
    ),
    Claim(
        page="docs/perfect-play.md",
        said=r"WANGO party's one-die round takes about (\w+) (minutes?) on 2 cores",
        command=(*PERUDO, "solve", "wango-party", "--quiet"),
    ),
    Claim(
        page="docs/performance.md",
        said=r"`python bench/run.py` \(about (\w+) (seconds|minutes) on 2 cores",
        command=(sys.executable, "bench/run.py"),
    ),
)


def measure(claim: Claim) -> float:
    """The command's wall time, in seconds, from the checkout."""
    environment = dict(os.environ)
    with tempfile.TemporaryDirectory() as cache:
        if claim.environment == COLD:
            environment["NUMBA_CACHE_DIR"] = cache
        began = time.perf_counter()
        subprocess.run(
            claim.command, cwd=ROOT, env=environment, check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        return time.perf_counter() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the claims of a few seconds")
    args = parser.parse_args()
    stated = [(claim, claim.stated()) for claim in CLAIMS]  # every sentence, before any run
    for claim, seconds in stated:
        if args.quick and not claim.quick:
            continue
        measured = measure(claim)
        command = " ".join(claim.command[2:] if claim.command[:3] == PERUDO else claim.command[1:])
        print(
            f"{claim.page:<24} {command[:60]:<60} stated {seconds:7.1f} s  measured "
            f"{measured:7.1f} s  ratio {measured / seconds:5.2f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
