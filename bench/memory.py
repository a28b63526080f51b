"""Memory over a long simulation: ``python bench/memory.py [--games N]``.

Plays ``N`` (default 100,000) four-player games of the Italian edition through
:func:`perudo.simulate.simulate` in one process, in ten chunks, and prints the resident
memory and the number of live objects after each chunk. Flat memory means the last chunks
hold what the first did: no cache or log grows with the number of games.
"""

from __future__ import annotations

import argparse
import gc
import os
import time

from perudo.simulate import simulate


def resident_kib() -> int:
    with open(f"/proc/{os.getpid()}/statm", encoding="ascii") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--bots", default="odds")
    args = parser.parse_args()
    chunk = max(1, args.games // 10)
    start = time.perf_counter()
    print(f"{'games':>8} {'RSS KiB':>9} {'objects':>9} {'seconds':>8}")
    rows = []
    for done in range(chunk, args.games + 1, chunk):
        simulate("italian", 4, chunk, bots=[args.bots], seed=done)
        gc.collect()
        rows.append((resident_kib(), len(gc.get_objects())))
        print(f"{done:8} {rows[-1][0]:9} {rows[-1][1]:9} {time.perf_counter() - start:8.0f}")
    growth = rows[-1][0] - rows[1][0] if len(rows) > 1 else 0
    print(f"RSS growth after the second chunk: {growth} KiB")


if __name__ == "__main__":
    main()
