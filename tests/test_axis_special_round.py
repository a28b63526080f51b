"""The special-round axis: when a one-die round starts and the rules it plays under."""

from __future__ import annotations

import pytest
from helpers import called, context, settled

from perudo.rules import (
    FarewellRound,
    NoSpecialRound,
    OneDieRound,
    Opening,
    RoundStart,
    SettledCall,
)

PALIFICO = OneDieRound(
    once_per_player=True,
    two_players="choice",
    optional=False,
    opening="forbidden",
    face_change="one-die-except-opener",
)
PALAFICO = OneDieRound(
    once_per_player=True,
    two_players="off",
    optional=False,
    opening="required",
    face_change="nobody",
)
CALZONE = OneDieRound(
    once_per_player=False,
    two_players="same",
    optional=True,
    opening="allowed",
    face_change="one-die",
)
FAREWELL = FarewellRound(
    once_per_player=False,
    two_players="same",
    optional=False,
    opening="allowed",
    face_change="nobody",
)


def dropped(dice: tuple[int, ...], changes: tuple[int, ...]) -> SettledCall:
    """A challenge on seat 1's bid, settled with ``changes``."""
    return settled(called(context(dice, bids=[(1, "3x3")]), "challenge", 2, 1), changes)


@pytest.mark.parametrize(
    ("kind", "dice", "used", "start"),
    [
        (PALIFICO, (5, 2, 5, 5), False, RoundStart(special=True, uses_special=True, player=1)),
        (PALIFICO, (5, 2, 5, 5), True, RoundStart()),  # once per player
        (
            PALIFICO,
            (0, 2, 5, 0),
            False,
            RoundStart(offers=("special", "ordinary"), must_declare=True, player=1),
        ),
        (PALAFICO, (0, 2, 5, 0), False, RoundStart()),  # off with two players left
        (CALZONE, (5, 2, 5, 5), False, RoundStart(offers=("special",), player=1)),
        (NoSpecialRound(), (5, 2, 5, 5), False, RoundStart()),
        # a farewell round: every descent, opened by the seat that fell (guyguroz-hue/Perudo)
        (FAREWELL, (5, 2, 5, 5), True, RoundStart(special=True, player=1, opens=True)),
    ],
)
def test_how_the_next_round_starts(
    kind: OneDieRound | NoSpecialRound, dice: tuple[int, ...], used: bool, start: RoundStart
) -> None:
    changes = tuple(-1 if seat == 1 else 0 for seat in range(len(dice)))
    had = tuple(used if seat == 1 else False for seat in range(len(dice)))
    assert kind.start(dropped(dice, changes), had=had, owed=()) == start
    nobody = tuple(-1 if seat == 0 else 0 for seat in range(len(dice)))  # 5 -> 4: no descent
    assert kind.start(dropped(dice, nobody), had=had, owed=()) == RoundStart()


@pytest.mark.parametrize(
    ("dice", "changes", "owed", "start"),
    [
        # "Several players at once [...] queued [...] the engine uses seat order"
        (
            (2, 5, 2, 2),
            (-1, 0, -1, -1),
            (),
            RoundStart(special=True, player=0, opens=True, owed=(2, 3)),
        ),
        # the queue goes on after the next call, before anyone who falls then
        (
            (1, 5, 1, 2),
            (0, -1, 0, -1),
            (2, 3),
            RoundStart(special=True, player=2, opens=True, owed=(3,)),
        ),
        # a seat put out meanwhile is owed nothing
        ((1, 5, 1, 2), (0, 0, -1, 0), (2,), RoundStart()),
        # "A player parked on a single die does not earn a new Farewell Round"
        ((1, 5, 5, 5), (0, -1, 0, 0), (), RoundStart()),
    ],
)
def test_farewell_rounds_are_owed_per_descent_and_queued(
    dice: tuple[int, ...], changes: tuple[int, ...], owed: tuple[int, ...], start: RoundStart
) -> None:
    assert FAREWELL.start(dropped(dice, changes), had=(False,) * 4, owed=owed) == start


@pytest.mark.parametrize(
    ("kind", "opening", "changers"),
    [
        (PALIFICO, "forbidden", frozenset({3})),  # one-die seats but the opener
        (PALAFICO, "required", frozenset()),
        (CALZONE, "allowed", frozenset({1, 3})),
    ],
)
def test_the_rules_of_the_special_round(
    kind: OneDieRound, opening: str, changers: frozenset[int]
) -> None:
    round_context = context((5, 1, 5, 1), to_act=1)
    rules = kind.transform(round_context.rules, 1, round_context)
    assert (rules.wilds, rules.conversion.kind, rules.opening) == (None, "none", Opening(opening))
    assert (rules.face_lock, rules.face_changers, rules.special) == (True, changers, "Palifico")
    assert NoSpecialRound().transform(round_context.rules, 1, round_context) is round_context.rules


def test_flags() -> None:
    assert (PALIFICO.offered, PALIFICO.declarations) == (True, ("special", "ordinary"))
    assert (CALZONE.offered, CALZONE.declarations) == (True, ("special",))
    assert (NoSpecialRound.offered, NoSpecialRound.declarations) == (False, ())
