"""OpenSpiel's liars_dice, move for move: the shipped `openspiel-liars-dice` edition (and the
editions derived from it for other dice counts and the other bidding rule) against pyspiel's
own implementation, with the same dice and the same moves (issue 14).

At every decision both must offer the same legal moves (pyspiel's action strings, ``q-f``
and ``Liar``, against the engine's legal actions), and at the end both must name the same
loser. A random legal move is played in both each time.
"""

from __future__ import annotations

import random

import pytest

import perudo
from perudo import Action, Bid, Dudo

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed: pip install '.[openspiel]'"
)

GAMES = 1000  # per dice count and bidding rule on six faces: 10,000 games in all
SIDES_GAMES = 1000  # per setting on other dice: 180 settings, 180,000 games


def edition(numdice: int, rule: str, sides: int = 6) -> perudo.Variant:
    """OpenSpiel's liars_dice at those parameters, declared: the highest face is wild at
    every size (shared/EXTERNAL-RULES.md, section 7)."""
    base = perudo.load_variant("openspiel-liars-dice")
    if (numdice, rule, sides) == (1, "reset-face", 6):
        return base
    changes: dict[str, object] = {"dice": {"per_player": numdice, "faces": sides}}
    if sides != 6:
        changes["wilds"] = {"kind": "face", "face": sides, "unless_opened_on": False}
    if rule == "reset-quantity":
        changes["raising"] = {"kind": "face-or-quantity"}
    return base.derive(
        f"openspiel-{numdice}-{rule}-{sides}",
        reason=f"OpenSpiel's liars_dice, numdice={numdice}, bidding_rule={rule}, "
        f"dice_sides={sides}.",
        **changes,  # type: ignore[arg-type]
    )


def spiel_name(action: Action) -> str:
    if isinstance(action, Dudo):
        return "Liar"
    assert isinstance(action, Bid)
    return f"{action.quantity}-{action.face}"


def engine_action(name: str) -> Action:
    if name == "Liar":
        return Dudo()
    quantity, face = name.split("-")
    return Bid(int(quantity), int(face))


def play_against_pyspiel(numdice: int, rule: str, sides: int, games: int) -> int:
    """``games`` games of pyspiel's liars_dice and of the declared edition, side by side:
    the same dice, at every decision the same legal moves, the same returns. Returns the
    decisions played."""
    params = {"numdice": numdice, "bidding_rule": rule, "dice_sides": sides}
    game = pyspiel.load_game("liars_dice", params)
    variant = edition(numdice, rule, sides)
    rng = random.Random(numdice * 1000 + sides * 10 + len(rule))
    decisions = 0
    for number in range(games):
        spiel = game.new_initial_state()
        faces = [rng.randrange(sides) for _ in range(2 * numdice)]
        for outcome in faces:  # player 0's dice, then player 1's
            spiel.apply_action(outcome)
        hands = [[f + 1 for f in faces[:numdice]], [f + 1 for f in faces[numdice:]]]
        state = perudo.new_game(variant, 2, seed=number, dice=hands)
        while not spiel.is_terminal():
            player = spiel.current_player()
            assert state.to_act == player
            theirs = {spiel.action_to_string(player, a): a for a in spiel.legal_actions()}
            ours = {spiel_name(action) for action in state.legal_actions()}
            assert ours == set(theirs), (hands, [str(b.bid) for b in state.bids])
            name = rng.choice(sorted(theirs))
            spiel.apply_action(theirs[name])
            state = state.apply(engine_action(name))
            decisions += 1
        assert state.is_over
        returns = spiel.returns()
        assert state.last_result is not None
        assert returns[state.last_result.loser] == -1.0  # type: ignore[index]
        (winner,) = state.winners
        assert returns[winner] == 1.0
        assert [p.score for p in state.players] == [int(r) for r in returns]
    return decisions


@pytest.mark.parametrize("rule", ["reset-face", "reset-quantity"])
@pytest.mark.parametrize("numdice", [1, 2, 3, 4, 5])
def test_the_same_legal_moves_and_the_same_loser(numdice: int, rule: str) -> None:
    assert play_against_pyspiel(numdice, rule, 6, GAMES) >= GAMES


@pytest.mark.slow
@pytest.mark.parametrize("rule", ["reset-face", "reset-quantity"])
@pytest.mark.parametrize("numdice", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("sides", [sides for sides in range(2, 21) if sides != 6])
def test_dice_of_any_size_play_as_pyspiel_plays_them(numdice: int, rule: str, sides: int) -> None:
    """Section 7: every other dice_sides perudo's dice take (2 to 20; pyspiel accepts any),
    the highest face wild at every size."""
    games = SIDES_GAMES
    assert play_against_pyspiel(numdice, rule, sides, games) >= games


def test_the_worked_examples_of_the_rules_page() -> None:
    # shared/EXTERNAL-RULES.md, section 1, numdice 2, reset-face.
    variant = edition(2, "reset-face")
    start = perudo.new_game(variant, 2, seed=1, dice=[[6, 2], [3, 3]])
    assert start.to_act == 0
    two_twos = start.apply(Bid(2, 2)).apply(Dudo())
    assert two_twos.last_result is not None
    assert (two_twos.last_result.count, two_twos.last_result.loser) == (2, 1)
    three_threes = start.apply(Bid(3, 3)).apply(Dudo())
    assert three_threes.last_result.loser == 1  # type: ignore[union-attr]
    two_sixes = start.apply(Bid(2, 6)).apply(Dudo())
    assert two_sixes.last_result.loser == 0  # type: ignore[union-attr]
    full = perudo.new_game(variant, 2, seed=1, dice=[[6, 6], [6, 6]]).apply(Bid(4, 6))
    assert full.legal_actions() == (Dudo(),)
