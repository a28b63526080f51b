"""The passes axis (Paso): who may pass, what a pass claims, and how every part of perudo
plays it: the engine, views, records, observations, bots, the solver, the adapters."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from helpers import check_random_games, context, game, play

import perudo
from perudo import Bid, Calza, Dudo, IllegalActionError, Paso
from perudo.rules import NoPairPass, NoPass

ONCE = NoPairPass(per_round=1)
ROUND = context((5, 5, 5), bids=[(0, "3x4"), (1, "3x4")], to_act=2)


def pass_edition(key: str = "italian", **axes: object) -> perudo.Variant:
    """``key`` with the pass of the "common hand" Liar's dice (no two dice alike, once a
    round), every hand shown at a challenge."""
    return perudo.load_variant(key).derive(
        f"{key}-paso", reason="A table that passes.", words={"paso": "Paso"},
        passes={"kind": "no-pair", "per_round": 1}, **axes,  # type: ignore[arg-type]
    )  # fmt: skip


PASSING = pass_edition(challenge={"kind": "dudo", "reveal": "all"})
NO_PAIR, PAIRS = [1, 2, 3, 4, 5], [2, 2, 3, 4, 6]


@pytest.mark.parametrize(
    ("kind", "player", "reason"),
    [
        (ONCE, 2, None),  # "he may choose to pass once in a game round"
        (ONCE, 0, None),
        (NoPairPass(per_round=2), 1, None),
        (ONCE, 1, "pass-not-allowed"),  # seat 1 passed already this round (its 3x4 below)
        (NoPass(), 2, "no-pass"),
    ],
)
def test_who_may_pass(kind: NoPairPass | NoPass, player: int, reason: str | None) -> None:
    round_context = ROUND
    if player == 1:  # seat 1's second link is its pass
        placed = (*ROUND.bids[:1], perudo.PlacedBid(1, Bid(3, 4), "pass"))
        round_context = attrs.evolve(ROUND, bids=placed)  # seat 2 still to act
    violation = kind.check(player, round_context)
    assert (None if violation is None else violation.reason) == reason


def test_what_a_pass_claims() -> None:
    """ "the claim of the passing player having no two dice with the same face" """
    assert ONCE.holds((1, 2, 3, 4, 5), ROUND)
    assert not ONCE.holds((1, 2, 2, 4, 5), ROUND)
    assert ONCE.holds((6,), ROUND)
    assert (ONCE.offered, ONCE.most_per_round, NoPass.offered, NoPass.most_per_round) == (
        True, 1, False, 0,
    )  # fmt: skip


def test_a_pass_leaves_the_standing_bid_to_raise() -> None:
    """ "If he does so, the bid will not be raised. The next player can raise the bid using
    standard rules, or call the bluff." """
    state = play(game(PASSING, [PAIRS, NO_PAIR, PAIRS]), "3x4")
    assert Paso() in state.legal_actions()
    passed = state.apply(Paso())
    assert (passed.bid, passed.bidder, passed.claim, passed.to_act) == (Bid(3, 4), 1, "pass", 2)
    assert not passed.is_legal(Bid(3, 4))
    assert passed.is_legal(Bid(4, 4))
    assert passed.is_legal(Paso())  # seat 2 may pass too
    assert not passed.is_legal(Paso(), by=1)  # not its turn
    assert "Player 2 Paso (3x4 stands)" in passed.view(0).draw()
    with pytest.raises(IllegalActionError) as twice:
        play(passed, "paso", "paso").apply(Paso())  # seat 1 again, in the same round
    assert twice.value.reason == "pass-not-allowed"


@pytest.mark.parametrize(("hand", "loser"), [(NO_PAIR, 2), (PAIRS, 1)])
def test_a_challenged_pass_is_judged_on_the_passers_hand_alone(hand: list[int], loser: int) -> None:
    """ "By doing so, he challenges the claim of the passing player having no two dice with
    the same face": the passer's hand is the only one shown."""
    state = play(game(PASSING, [PAIRS, hand, PAIRS]), "3x4", "paso")
    ended = state.apply(Dudo())
    result = ended.last_result
    assert result is not None
    assert (result.claim, result.bidder, result.caller, result.revealed) == ("pass", 1, 2, (1,))
    assert result.hands == (None, tuple(hand), None)  # the other hands stay hidden
    assert result.count == (1 if hand == NO_PAIR else 0)
    assert result.losers == (loser,)
    assert "the hand shown is" in result.describe()
    assert all(seat_view.last_result == result for seat_view in map(ended.view, range(3)))


def test_a_pass_is_neither_claimed_exact_nor_opened_on() -> None:
    calza = pass_edition("french-calza")
    state = play(game(calza, [PAIRS, NO_PAIR, PAIRS]), "3x4", "paso")
    with pytest.raises(IllegalActionError, match="a pass stands"):
        state.apply(Calza())
    with pytest.raises(IllegalActionError) as first:
        game(PASSING, [PAIRS, NO_PAIR, PAIRS]).apply(Paso())
    assert first.value.reason == "pass-not-allowed"
    with pytest.raises(IllegalActionError) as none:
        play(game("italian", [PAIRS, NO_PAIR]), "3x4").apply(Paso())
    assert none.value.reason == "no-pass"


def test_a_pass_on_a_pressured_bid_spends_no_pressure() -> None:
    """Regression: the pass restated the standing bid, pressure and all, and spent the
    passer's pressure as if it had bid under pressure itself."""
    party = pass_edition("wango-party")
    state = perudo.new_game(party, 3, seed=1, first_player=0).apply(Bid(1, 2, pressure=True))
    before = [seat.pressure_left for seat in state.players]
    passed = state.apply(Paso())
    assert [seat.pressure_left for seat in passed.players] == before
    assert passed.pressured  # the round's standing bid is still the pressured one


def test_passes_are_kept_by_records_positions_and_observations() -> None:
    check_random_games(PASSING, 3, seeds=25)
    mid = play(game(PASSING, [PAIRS, NO_PAIR, PAIRS]), "3x4", "paso")
    saved = perudo.record.state_to_dict(mid)
    assert saved["position"]["bids"][1] == {"player": 1, "bid": "3x4", "claim": "pass"}
    assert perudo.record.state_from_dict(saved, variant=PASSING) == mid
    assert perudo.parse_action("Paso", variant=PASSING) == Paso()


def test_the_odds_bot_passes_a_true_hand_and_doubts_an_unlikely_pass() -> None:
    """It passes where its hand holds no pair, the standing bid looks true and every raise
    doubtful; it challenges a pass of five dice all different (about 9% of hands)."""
    bot = perudo.bots.OddsBot(seed=1)
    plays = [bot.act(state.view(2)) for state in _positions([2, 3, 4, 5, 6])]
    assert Paso() in plays
    assert Paso() not in [bot.act(state.view(2)) for state in _positions([2, 3, 3, 5, 6])]
    five = play(game(PASSING, [PAIRS, NO_PAIR, PAIRS]), "3x4", "paso")
    assert bot.act(five.view(2)) == Dudo()


def _positions(hand: list[int]) -> list[perudo.GameState]:
    """Seat 2, holding ``hand``, to act on a standing bid of five 2s to five 6s."""
    return [play(game(PASSING, [PAIRS, PAIRS, hand]), "2x2", f"5x{face}") for face in range(2, 7)]


def test_the_solver_follows_a_pass() -> None:
    pytest.importorskip("scipy", reason="the solve extra is not installed")
    from perudo.solve import exploitability, solve_round

    small = pass_edition(dice={"per_player": 2, "faces": 3})
    solved = solve_round(small, (2, 1))
    assert solved.exact
    assert exploitability(solved.bot(), small, (2, 1)) == 0
    passed = perudo.new_game(small, 2, seed=1, dice=[[1, 2], [3]], first_player=0)
    passed = passed.apply(Bid(1, 2)).apply(Paso())
    assert sum(solved.bot().policy(passed.view(0)).values()) == 1


@pytest.mark.parametrize(
    "edition",
    [PASSING, pass_edition("wango-party"), pass_edition("french-calza"), pass_edition("bluff")],
    ids=lambda v: v.key,
)
def test_the_batch_engine_plays_a_pass_as_gamestate_does(edition: perudo.Variant) -> None:
    """Passes, passes of passes and challenged passes on both engines alike, step by step
    (where the batch extra is installed): under pressure (party), beside the exact call
    (Calza, never on a pass) and a re-roll after a pass (Bluff)."""
    pytest.importorskip("numba", reason="the batch extra is not installed")
    from batch_reference import compare

    assert compare(edition, 3, 30, seed=7, observe=3) > 60


def test_the_batch_engine_refuses_a_pass_as_gamestate_does() -> None:
    """No bid to pass on: refused for the same reason as GameState gives; the pass is
    open once a bid stands, and kept as a link of the round's chain."""
    pytest.importorskip("numba", reason="the batch extra is not installed")
    import numpy as np
    from batch_reference import reference_states

    from perudo.batch import BatchGames
    from perudo.encoding import action_encoding

    table = BatchGames.new(PASSING, 3, batch=1, seed=2)
    state = reference_states(table)[0]
    number = action_encoding(PASSING, 3).encode(Paso())
    with pytest.raises(IllegalActionError) as raised:
        table.step(np.array([number]))
    assert raised.value.reason == "pass-not-allowed" == state.check(Paso()).reason  # type: ignore[union-attr]
    assert not table.may_pass()[0]
    table.step(np.array([action_encoding(PASSING, 3).encode(Bid(1, 2))]))
    assert table.may_pass()[0]
    table.step(np.array([number]))
    assert table.bid_claim[0, :2].tolist() == [0, 2]  # a bid, then its pass


def test_openspiel_plays_a_pass_declaration(tmp_path: Path) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    import perudo.interop.openspiel  # noqa: F401  (registers python_perudo)

    path = tmp_path / "paso.toml"
    path.write_text(
        'schema = 1\nextends = "italian"\nkey = "italian-paso"\nname = "Italian, paso"\n'
        '[words]\ndudo = "Dubito"\nspecial_round = "Palifico"\npaso = "Paso"\n'
        '[passes]\nkind = "no-pair"\nper_round = 1\nprovenance = "reading"\n'
        'reason = "a table that passes"\n',
        encoding="utf-8",
    )
    game_ = pyspiel.load_game("python_perudo", {"declaration": str(path), "players": 3})
    pyspiel.random_sim_test(game_, num_sims=3, serialize=True, verbose=False)


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
def test_pettingzoo_plays_a_pass() -> None:
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
    from pettingzoo.test import api_test

    from perudo.interop.pettingzoo import perudo_env

    api_test(perudo_env(PASSING, 3), num_cycles=300)
