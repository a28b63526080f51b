"""The ``perudo`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from perudo.demo import run_demo
from perudo.errors import PerudoError
from perudo.loader import load_variant, variant_names

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="perudo", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser("demo", help="watch bots play a game, told in the edition's words")
    demo.add_argument("--variant", default="italian", help="edition key (default: italian)")
    demo.add_argument("--players", type=int, default=4, help="how many bots (default: 4)")
    demo.add_argument("--seed", type=int, default=None, help="seed of the dice and the bots")
    commands.add_parser("variants", help="list the editions")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "demo":
            run_demo(args.variant, args.players, seed=args.seed)
        else:
            for key in variant_names():
                variant = load_variant(key)
                print(f"{key:14} {variant.name}: {variant.summary}")
    except PerudoError as error:
        print(f"perudo: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
