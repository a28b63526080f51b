"""Compare two editions: the axes on which they differ, with a witness for each."""

from __future__ import annotations

import sys

import perudo


def main(a: str = "italian", b: str = "spanish") -> None:
    comparison = perudo.compare(a, b)
    print(f"{a} and {b} differ on: {', '.join(comparison.differing)}")
    for axis in comparison.differing:
        witness = comparison.axis(axis).witnesses[0]
        print(f"- {axis}: {witness.describe()}")
    state = perudo.new_game(a, 3, seed=1, first_player=0).apply(perudo.Bid(3, 3))
    for verdict in perudo.verdicts(state, perudo.Bid(4, 2), perudo.variant_names()):
        print(f"  4x2 after 3x3 -> {verdict}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
