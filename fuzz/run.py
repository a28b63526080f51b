"""Coverage-guided fuzzing of perudo's readers with atheris (``pip install atheris``).

    python fuzz/run.py TARGET [SECONDS]      # TARGET: see tests/fuzz_targets.py

Runs the target for SECONDS (default 600) from a seed corpus of valid inputs, then prints
libFuzzer's count of executions. A crashing input is saved by libFuzzer as
``crash-<hash>``: copy it to ``tests/fuzz_regressions/<target>-<name>`` so the test suite
keeps checking it.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import atheris  # type: ignore[import-not-found]

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))

with atheris.instrument_imports(include=["perudo"]):
    import perudo  # noqa: F401

from fuzz_targets import TARGETS, seed_corpus


def main() -> None:
    name = sys.argv[1]
    seconds = int(sys.argv[2]) if len(sys.argv) > 2 else 600
    target = TARGETS[name]
    corpus = Path(tempfile.mkdtemp(prefix=f"perudo-fuzz-{name}-"))
    for number, data in enumerate(seed_corpus()[name]):
        (corpus / f"seed-{number}").write_bytes(data)
    # A reader that takes over 2 s or 1 GiB on one input is a finding too.
    args = [sys.argv[0], str(corpus), f"-max_total_time={seconds}", "-rss_limit_mb=1024"]
    args += ["-timeout=2", "-max_len=4096"]
    args += [f"-artifact_prefix={Path.cwd()}/{name}-", "-print_final_stats=1"]
    atheris.Setup(args, target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
