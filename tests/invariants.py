"""Invariants every step of every game must keep, shared by the property and stateful tests."""

from __future__ import annotations

from perudo import Action, Bid, Calza, Declare, Dudo, GameState

#: Every declaration name a shipped edition offers (actions are open to any name now; these
#: are the ones that may be legal somewhere).
DECLARATIONS = ("palifico", "palafico", "calzone", "ordinary")


def check_step(before: GameState, action: Action, seat: int, after: GameState) -> None:
    variant = before.variant
    full = variant.dice.per_player
    old = [len(p.dice) for p in before.players]
    new = [len(p.dice) for p in after.players]
    assert all(0 <= n <= full for n in new)
    assert [p.name for p in after.players] == [p.name for p in before.players]
    resolved = after.round_number != before.round_number or after.is_over
    if not resolved:
        assert new == old
        assert after.last_result == before.last_result
    else:
        result = after.last_result
        assert result is not None
        assert result.caller == seat
        assert result.bid == before.bid
        changes = [b - a for a, b in zip(old, new, strict=True)]
        if variant.scoring.moves_dice:
            zeros = [0] * (len(old) - 1)
            assert sorted(changes) in ([-1, *zeros], [*zeros, 1], [0, *zeros])
            if -1 in changes:
                assert changes.index(-1) == result.loser
            elif 1 in changes:
                assert changes.index(1) == result.gainer
            else:
                assert result.call == "exact"
                assert result.gainer is None
                assert result.loser is None
            assert sum(p.score for p in after.players) == 0
        else:
            assert changes == [0] * len(old)
            assert sorted(result.points)[-1] in (1, 3)
            assert sum(result.points) == 0
            assert sum(p.score for p in after.players) == 0
    for a, b in zip(before.players, after.players, strict=True):
        assert a.is_in or not b.is_in  # seats out stay out
        assert 0 <= b.pressure_left <= a.pressure_left
    if after.is_over:
        assert after.legal_actions() == ()
        if variant.scoring.moves_dice:
            assert len(after.winners) == 1
            assert after.seats_in == after.winners
        else:
            assert after.winners
    else:
        assert after.to_act is not None
        assert after.players[after.to_act].is_in
        assert after.legal_actions()


def action_space(state: GameState) -> list[Action]:
    """Every well-formed action worth trying in ``state``: each quantity up to the dice in
    play (one more under a cap, which must be refused) and each face, plain and pressured;
    the calls; every declaration."""
    top = state.dice_in_play + (1 if state.rules.cap else 0)
    space: list[Action] = [
        Bid(quantity, face, pressure=pressure)
        for quantity in range(1, top + 1)
        for face in range(1, 7)
        for pressure in (False, True)
    ]
    space += [Dudo(), Dudo(pressure=True), Calza()]
    space += [Declare(name) for name in DECLARATIONS]
    return space
