"""The batch engine (issue 17): the same rules as GameState, step for step.

``PERUDO_BATCH_GAMES`` sets the games per edition and table size of the differential test
(default 60; the closing note of issue 17 reports a run with 2,000).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the batch engine needs the extra perudo[batch]")

from batch_reference import compare, sample_counts  # noqa: E402
from helpers import SIX  # noqa: E402

import perudo  # noqa: E402
from perudo import GameSetupError, IllegalActionError  # noqa: E402
from perudo.batch import BatchGames, play_random  # noqa: E402
from perudo.encoding import action_encoding  # noqa: E402
from perudo.errors import EncodingError  # noqa: E402

GAMES = int(os.environ.get("PERUDO_BATCH_GAMES", "60"))
EXAMPLES = Path(__file__).parent.parent / "examples"

TABLES = [
    (key, players)
    for key in SIX
    for players in (2, 3, 4, 6, 10)
    if players <= perudo.load_variant(key).players.max
] + [("openspiel-liars-dice", 2)]


@pytest.mark.parametrize(("key", "players"), TABLES)
def test_the_batch_engine_plays_the_reference_rules(key: str, players: int) -> None:
    """Masks, who acts, who may call out of turn, every call's loser, gainer, points,
    eliminated seat, count and showing, the dice, the scores, the winners and the returns
    agree with GameState at every step; the first games also compare every seat's
    observation, entry for entry."""
    games = max(10, GAMES * 4 // players)
    steps = compare(key, players, games, seed=players * 101, observe=4)
    assert steps > games * 3


def _derived() -> list[perudo.Variant]:
    italian = perudo.load_variant("italian")
    return [
        perudo.load_variant(EXAMPLES / "bagos.toml"),
        italian.derive(
            "italian-fixed",
            reason="Test: face-or-quantity raises, a fixed seat opens, three rounds for points.",
            raising={"kind": "face-or-quantity"},
            conversion={"kind": "none"},
            cap={"kind": "dice-in-play"},
            first_player={"kind": "seat", "seat": 1},
            scoring={"kind": "rounds", "rounds": 3, "points": 2},
        ),
        perudo.load_variant("french-jonti").derive(
            "jonti-monotone",
            reason="Test: a monotone raise order with Calzone and wild sixes.",
            raising={"kind": "monotone"},
            wilds={"kind": "face", "face": 6, "unless_opened_on": False},
        ),
    ]


@pytest.mark.parametrize("variant", _derived(), ids=lambda v: v.key)
@pytest.mark.parametrize("players", [2, 4])
def test_declared_and_derived_editions_play_the_reference_rules(
    variant: perudo.Variant, players: int
) -> None:
    assert compare(variant, players, 40, seed=players, observe=3) > 40


def test_random_actions_draw_every_legal_action_and_nothing_else() -> None:
    for key, players in [("italian", 4), ("wango-party", 3), ("french-jonti", 5), ("spanish", 2)]:
        sample_counts(key, players, 40, seed=3, draws=3000)


def test_a_kind_the_batch_engine_lacks_is_refused_by_name() -> None:
    import runpy

    runpy.run_path(str(EXAMPLES / "lose_the_difference.py"), run_name="example")
    variant = perudo.load_variant("italian").derive(
        "italian-difference", reason="Test.", scoring={"kind": "lose-the-difference"}
    )
    with pytest.raises(GameSetupError, match="scoring kind 'lose-the-difference'"):
        BatchGames.new(variant, 3, batch=4, seed=1)


def test_seeds_reproduce() -> None:
    def run(seed: int) -> tuple[int, list[int]]:
        table = BatchGames.new("french-jonti", 4, batch=16, seed=seed)
        return play_random("french-jonti", 4, games=30, seed=seed), table.faces.ravel().tolist()

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_autoreset_starts_a_new_game_and_keeps_the_result() -> None:
    table = BatchGames.new("wango", 2, batch=64, seed=2, autoreset=True)
    finished = 0
    totals = np.zeros((64, 2))
    for _ in range(2000):
        result = table.step(table.random_actions())
        totals += result.rewards
        if result.done.any():
            rows = np.flatnonzero(result.done)
            assert (result.winners[rows].sum(axis=1) == 1).all()
            assert (table.round_number[rows] == 1).all()
            assert not table.over[rows].any()
            assert (table.held[rows] == 5).all()
            # The returns of a finished game sum to zero: +1 for the winner, -1 the first out.
            assert np.allclose(totals[rows].sum(axis=1), 0)
            assert np.allclose(np.sort(totals[rows], axis=1), [[-1.0, 1.0]])
            totals[rows] = 0
            finished += len(rows)
    assert finished > 50
    assert not table.over.any()


def test_illegal_actions_are_refused_and_no_game_moves() -> None:
    table = BatchGames.new("italian", 3, batch=4, seed=1)
    numbers = action_encoding("italian", 3)
    before = table.faces.copy(), table.to_act.copy()
    actions = table.random_actions()
    actions[2] = numbers.encode(perudo.Bid(1, 1))  # ones may not open
    with pytest.raises(IllegalActionError, match="game 2") as raised:
        table.step(actions)
    assert raised.value.reason == "ones-on-opening"
    assert (table.faces == before[0]).all()
    assert (table.to_act == before[1]).all()
    actions[2] = numbers.encode(perudo.Dudo())
    with pytest.raises(IllegalActionError) as raised:
        table.step(actions)
    assert raised.value.reason == "nothing-to-challenge"
    with pytest.raises(EncodingError, match="not 0 to"):
        table.step(np.full(4, numbers.size))
    with pytest.raises(EncodingError, match="one per game"):
        table.step(np.zeros(3, dtype=np.int64))
    by = (table.to_act.astype(np.int64) + 1) % 3
    with pytest.raises(IllegalActionError) as raised:
        table.step(table.random_actions(), by=by)
    assert raised.value.reason == "not-your-turn"


def test_bad_setups_are_refused() -> None:
    with pytest.raises(GameSetupError, match="2 to 6 players"):
        BatchGames.new("wango", 7, batch=4)
    with pytest.raises(GameSetupError, match="batch"):
        BatchGames.new("wango", 2, batch=0)
    with pytest.raises(GameSetupError, match="seed"):
        BatchGames.new("wango", 2, batch=2, seed=-1)
    with pytest.raises(perudo.UnknownVariantError):
        BatchGames.new("klingon", 2, batch=2)


def test_play_random_counts_decisions() -> None:
    rounds = play_random("wango", 2, games=500, seed=1, one_round=True, batch=64)
    games = play_random("wango", 2, games=500, seed=1, batch=64)
    assert 500 * 2 < rounds < games
    assert play_random("wango", 2, games=0, seed=1) == 0
