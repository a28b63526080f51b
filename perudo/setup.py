"""Setting a game up: :func:`new_game` and its checks (the names, the starting dice, the
hands of round 1, the seat that opens)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from perudo.dice import SEED_LIMIT, deal
from perudo.errors import GameSetupError, shown
from perudo.loader import load_variant
from perudo.players import GameLog, Player, checked_hands, name_problem
from perudo.rules.axes import optional
from perudo.state import GameState
from perudo.variant import Variant, checked_players

__all__ = ["checked_starting_dice", "first_seat", "new_game"]


def _names(players: int | Sequence[str], variant: Variant) -> tuple[str, ...]:
    if (
        isinstance(players, bool)
        or not isinstance(players, int | Sequence)
        or isinstance(players, str | bytes)
    ):
        raise GameSetupError(f"players {shown(players)} is not a count or a list of names")
    checked_players(variant, players if isinstance(players, int) else len(players))
    if isinstance(players, int):
        return tuple(f"Player {seat + 1}" for seat in range(players))
    names = tuple(players)
    for name in names:
        problem = name_problem(name)
        if problem is not None:
            raise GameSetupError(f"player name {shown(name)} {problem}")
    if len(set(names)) != len(names):
        raise GameSetupError(f"player names {shown(names)} are not all different")
    return names


def first_seat(variant: Variant, seed: int, counts: Sequence[int]) -> int:
    """The seat that opens round 1 of a game of ``variant`` with ``seed`` whose seats start
    with ``counts`` dice, as its first-player axis decides it."""
    players = len(counts)
    seat = variant.first_player.first(seed, variant.round_one(counts))
    if type(seat) is not int or not 0 <= seat < players:
        raise GameSetupError(
            f"{variant.name} opens with seat {shown(seat)}, which a table of {players} lacks"
        )
    return seat


def checked_starting_dice(
    given: Sequence[int] | None, players: int, variant: Variant
) -> tuple[int, ...]:
    """Each seat's dice at the start of a game of ``variant`` for ``players``: ``given``
    checked (1 to the edition's dice per player each), or the edition's for every seat.

    Raises:
        GameSetupError: naming the bad count.
    """
    per_player = variant.dice.per_player
    if given is None:
        return (per_player,) * players
    if isinstance(given, str | bytes) or not isinstance(given, Sequence):
        raise GameSetupError(f"starting_dice {shown(given)} is not a list of dice counts")
    if len(given) != players:
        raise GameSetupError(f"starting_dice gives {len(given)} counts for {players} players")
    for seat, n in enumerate(given):
        if type(n) is not int or not 1 <= n <= per_player:
            raise GameSetupError(
                f"starting_dice {shown(n)} of seat {seat} is not 1 to {per_player} dice"
            )
    return tuple(given)


def new_game(
    variant: Variant | str,
    players: int | Sequence[str],
    *,
    seed: int | None = None,
    dice: Sequence[Sequence[int]] | None = None,
    first_player: int | None = None,
    starting_dice: Sequence[int] | None = None,
) -> GameState:
    """Start a game.

    Args:
        variant: A :class:`~perudo.Variant` or an edition key such as ``"italian"``.
        players: How many players, or their names in seat order (clockwise).
        seed: The seed of every round's dice and of the roll-off, a whole number of at most
            64 bits. ``None`` (the default) draws one from :mod:`secrets`: use it for a game
            with real stakes, since every die of the game follows from the seed. It is kept
            in ``state.seed`` and the referee's record, so the game can be replayed.
        dice: The hands of round 1, one per player. A hand shorter than the edition's dice
            per player stands for dice already lost.
        first_player: The seat that opens round 1; ``None`` leaves it to the edition (a
            roll-off, or a given seat).
        starting_dice: Each seat's dice at the start, a handicap: 1 to the edition's dice
            per player each (``None``: every seat gets the edition's). A seat never holds
            more than it started with, so an exact call gives back at most that many.

    >>> state = new_game("italian", ["Ana", "Ben", "Cleo"], seed=7)
    >>> state.round_number, len(state.players), state.bid
    (1, 3, None)
    """
    if not isinstance(variant, Variant):
        variant = load_variant(variant)
    names = _names(players, variant)
    if seed is None:
        seed = secrets.randbits(63)
    elif type(seed) is not int or not -SEED_LIMIT < seed < SEED_LIMIT:
        raise GameSetupError(f"seed {shown(seed)} is not an integer of at most 64 bits")
    starting = checked_starting_dice(starting_dice, len(names), variant)
    if dice is None:
        hands = deal(seed, 1, starting, variant.dice.faces)
    else:
        hands = checked_hands(dice, len(names), starting, variant.dice.faces)
    log = GameLog(
        first_player=first_player,
        dice=() if dice is None else ((1, hands),),
        starting_dice=None if starting_dice is None else starting,
    )
    if first_player is None:
        first_player = first_seat(variant, seed, [len(hand) for hand in hands])
    elif type(first_player) is not int or not 0 <= first_player < len(names):
        raise GameSetupError(
            f"first_player {shown(first_player)} is not a seat (0 to {len(names) - 1})"
        )
    pressure = variant.scoring.pressure_uses
    score = optional(variant.scoring, "starting_score")  # lives, where a kind plays for them
    return GameState(
        variant=variant,
        seed=seed,
        players=tuple(
            Player(name=name, dice=hand, score=score, pressure_left=pressure)
            for name, hand in zip(names, hands, strict=True)
        ),
        starting_dice=starting,
        round_number=1,
        to_act=first_player,
        chain=None,
        rules=variant.round_rules(),
        log=log,
    )
