"""A solve's request checked: the edition, the seats' dice, the opener and the limits;
and what a round pays seat 0."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from perudo.errors import SolveError, shown
from perudo.loader import load_variant
from perudo.solve.exact import Report
from perudo.state import GameState
from perudo.variant import Variant

#: The most positions a round solved may have, counted as its calls (each ending a history
#: of bids) times the deals of the dice: each is a product CFR+ computes at every iteration
#: (the memory a round needs is estimated apart, in ``perudo.solve.size``). A round past it
#: is refused with a :class:`~perudo.SolveError` naming it, before anything is built.
MAX_NODES = 400_000_000


def checked_limit(max_nodes: int) -> int:
    """The most positions a round may have, checked."""
    if type(max_nodes) is not int or not 1 <= max_nodes <= MAX_NODES:
        raise SolveError(f"max_nodes {shown(max_nodes)} is not 1 to {MAX_NODES:,} positions")
    return max_nodes


def checked(
    variant: Variant | str, dice: Sequence[int], opener: int
) -> tuple[Variant, tuple[int, int]]:
    """The edition, and the two seats' dice, checked."""
    if not isinstance(variant, Variant):
        variant = load_variant(variant)
    if opener not in (0, 1) or type(opener) is not int:
        raise SolveError(f"opener {shown(opener)} is not seat 0 or 1")
    if isinstance(dice, str | bytes) or not isinstance(dice, Sequence) or len(dice) != 2:
        raise SolveError(f"dice {shown(dice)} is not two counts: perudo solves two players")
    if variant.players.min > 2:
        raise SolveError(f"{variant.name} is not played by two players")
    for n in dice:
        if type(n) is not int or not 1 <= n <= variant.dice.per_player:
            raise SolveError(
                f"dice {shown(n)} is not 1 to {variant.dice.per_player} dice of {variant.name}"
            )
    return variant, (dice[0], dice[1])


def checked_memory(memory: int | None) -> int | None:
    """The most bytes a solve may hold (``None``: what the machine has free), checked."""
    if memory is not None and (type(memory) is not int or memory < 2**20):
        raise SolveError(f"memory {shown(memory)} is not a number of bytes of at least 1 MiB")
    return memory


def reporter(progress: Report | None) -> Report:
    """``progress``, or a report that says nothing."""
    return progress if progress is not None else quiet


def quiet(line: str) -> None:
    """Says nothing."""


def dice_payoff(after: GameState) -> tuple[Fraction, Fraction]:
    result = after.last_result
    assert result is not None
    if after.variant.scoring.moves_dice:
        payoff = Fraction(result.changes[0] - result.changes[1])
    else:
        payoff = Fraction(result.points[0])
    return payoff, payoff


def game_payoff(over: GameState) -> Fraction:
    """Seat 0's payoff in a game that is ``over``: +1 for a win, -1 for a loss, a shared
    win its share less seat 1's."""
    winners = over.winners
    share = [Fraction(int(seat in winners), len(winners)) for seat in (0, 1)]
    return share[0] - share[1]
