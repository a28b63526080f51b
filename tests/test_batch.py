"""The batch engine (issue 17): the same rules as GameState, step for step.

``PERUDO_BATCH_GAMES`` sets the games per edition and table size of the differential test
(default 60; the closing note of issue 17 reports a run with 2,000).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import attrs
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

pytest.importorskip("numba", reason="the batch engine needs the extra perudo[batch]")
import numpy as np
from batch_reference import compare, follow, reference_states, sample_counts
from helpers import SIX, registered
from strategies import BatchTable, batch_tables

import perudo
from perudo import GameSetupError, IllegalActionError, rules
from perudo.batch import BatchGames, batch_rules, play_random
from perudo.encoding import action_encoding, observation_encoding
from perudo.errors import EncodingError
from perudo.rules import Elimination
from perudo.simulate import simulate

GAMES = int(os.environ.get("PERUDO_BATCH_GAMES", "60"))
EXAMPLES = Path(__file__).parent.parent / "examples"


def _played(key: str) -> bool:
    """Whether the batch engine plays the shipped edition ``key``."""
    try:
        batch_rules(perudo.load_variant(key))
    except GameSetupError:
        return False
    return True


#: Every shipped edition the batch engine plays (Bluff has a test of its own), at every
#: table size it seats among 2, 3, 4, 6 and 10.
PLAYED = [key for key in perudo.variant_names() if _played(key) and key != "bluff"]
TABLES = [
    (key, players)
    for key in PLAYED
    for players in (2, 3, 4, 6, 10)
    if perudo.load_variant(key).players.min <= players <= perudo.load_variant(key).players.max
]


@pytest.mark.slow
@pytest.mark.parametrize(("key", "players"), TABLES)
def test_the_batch_engine_plays_the_reference_rules(key: str, players: int) -> None:
    """Masks, who acts, who may call out of turn, every call's loser, gainer, points,
    eliminated seat, count and showing, the dice, the scores, the winners and the returns
    agree with GameState at every step; the first games also compare every seat's
    observation, entry for entry."""
    games = max(10, GAMES * 4 // players)
    steps = compare(key, players, games, seed=players * 101, observe=4)
    assert steps > games * 3


UNEVEN = [
    ("italian", (2, 5, 3)),  # Palifico for the seat that starts with two, once it falls
    ("french-jonti", (3, 5, 4, 5)),  # an exact call wins a die back up to each seat's start
    ("bluff", (2, 4, 3)),
    ("wango-party", (1, 5, 3)),  # points: the dice never change
    ("bull-and-burst", (2, 5, 5, 3)),  # a burst wins a die back up to the seat's start
]


@pytest.mark.slow
@pytest.mark.parametrize(("key", "starting"), UNEVEN, ids=lambda v: str(v))
def test_the_batch_engine_plays_uneven_starting_dice_as_gamestate_does(
    key: str, starting: tuple[int, ...]
) -> None:
    """Each seat's own dice at the start (a handicap), the same differential test."""
    assert compare(key, len(starting), 30, seed=13, observe=3, starting_dice=starting) > 60


def _other_dice(key: str, faces: int, wild: dict[str, object]) -> perudo.Variant:
    return perudo.load_variant(key).derive(
        f"{key}-d{faces}",
        reason="Other dice.",
        dice={"per_player": perudo.load_variant(key).dice.per_player, "faces": faces},
        wilds=wild,
    )


TWENTIES_WILD = {"kind": "face", "face": 20, "unless_opened_on": False}
OTHER_DICE = [
    (_other_dice("wango", 8, {"kind": "ones"}), 4),
    (_other_dice("italian", 4, {"kind": "ones"}), 3),  # Palifico on four faces
    (_other_dice("french-jonti", 12, {"kind": "ones"}), 4),
    (_other_dice("wango-party", 3, {"kind": "ones"}), 3),
    (_other_dice("openspiel-liars-dice", 20, TWENTIES_WILD), 2),
]


@pytest.mark.slow
@pytest.mark.parametrize(("edition", "players"), OTHER_DICE, ids=lambda v: getattr(v, "key", v))
def test_the_batch_engine_plays_dice_of_any_size(edition: perudo.Variant, players: int) -> None:
    """The same differential test, on dice of 3 to 20 faces."""
    games = max(10, GAMES * 4 // players)
    steps = compare(edition, players, games, seed=players * 103, observe=4)
    assert steps > games * 3


@st.composite
def _tables(draw: st.DrawFn) -> tuple[str, int, int]:
    key = draw(st.sampled_from([*SIX, "openspiel-liars-dice"]))
    variant = perudo.load_variant(key)
    players = draw(st.integers(variant.players.min, variant.players.max))
    return key, players, draw(st.integers(0, 2**32))


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_tables())
def test_any_table_and_seed_plays_the_reference_rules(table: tuple[str, int, int]) -> None:
    """Hypothesis draws the edition, the table size (every size the edition allows) and the
    seed; a few games of it agree with GameState step by step."""
    key, players, seed = table
    assert compare(key, players, 3, seed=seed, observe=1) > 0


#: Poker hands of dice, every hand shown at a challenge (the howtodothings.com game).
POKER = perudo.load_variant("wango").derive(
    "wango-poker-hands",
    reason="Test: bids name poker hands; a challenge shows every hand.",
    claims={"kind": "poker-hands", "order": [1, 2, 3, 4, 5, 6]},
    wilds={"kind": "none"},
    conversion={"kind": "none"},
    cap={"kind": "none"},
)
#: Italian with the "common hand" re-roll: dice of one value out, the rest re-rolled, then
#: a bid, on one's own turn.
REROLL_FIRST = perudo.load_variant("italian").derive(
    "italian-reroll-then-bid", reason="Test.", actions={"kind": "reroll-then-bid"}
)
FAREWELL_ONCE_CHOICE = {
    "kind": "farewell-round",
    "once_per_player": True,
    "two_players": "choice",
    "optional": False,
    "opening": "allowed",
    "face_change": "one-die",
}


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
        perudo.load_variant("bluff").derive(
            "bluff-without-reroll",
            reason="Test: stars wild and converted to, the difference lost, the loser opens.",
            actions={"kind": "none"},
        ),
        italian.derive(
            "italian-at-least-three",
            reason="Test: an opening of three dice or more, Palifico's opening too.",
            opening={"kind": "at-least", "ones": "forbidden", "quantity": 3},
        ),
        perudo.load_variant("wango").derive(
            "wango-players-in",
            reason="Test: an opening of a die for each player in.",
            opening={"kind": "players-in", "ones": "allowed"},
        ),
        italian.derive(
            "italian-ranked",
            reason="Test: faces ranked 3, 2, 5, 6 (ones and fours never a raise).",
            raising={"kind": "ranked-faces", "order": [3, 2, 5, 6]},
            conversion={"kind": "none"},
        ),
        italian.derive(
            "italian-until-bid-on",
            reason="Test: ones wild until a bid names them.",
            wilds={"kind": "until-bid-on", "face": 1},
        ),
        perudo.load_variant("wango").derive(
            "wango-sixes-until-bid-on",
            reason="Test: sixes wild until a bid names them.",
            wilds={"kind": "until-bid-on", "face": 6},
        ),
        perudo.load_variant("french-calza").derive(
            "calza-pure-hands",
            reason="Test: pure hands count more at a challenge, never at Calza (drawn once).",
            dice={"per_player": 2, "faces": 4},
            challenge={"kind": "pure-hands"},
        ),
        perudo.load_variant("wango-party").derive(
            "party-burst",
            reason="Test: bids and challenges out of turn, under pressure too.",
            turns={"kind": "burst", "bid": True, "challenge": True},
        ),
        italian.derive(
            "italian-rotate-bidder-hand",
            reason="Test: the opening passes round; a challenge shows the bidder's hand.",
            starter={"kind": "rotate"},
            challenge={"kind": "bidder-hand"},
        ),
        italian.derive(
            "italian-after-loser",
            reason="Test: the seat left of the loser opens.",
            starter={"kind": "after-loser"},
        ),
        italian.derive(
            "italian-all-around-burst",
            reason="Test: a challenge all around, challenges and bids out of turn.",
            challenge={"kind": "all-around"},
            turns={"kind": "burst", "bid": True, "challenge": True},
        ),
        perudo.load_variant("bluff").derive(
            "bluff-all-around",
            reason="Test: a re-roll after a doubt, the bidder paying all or paid by all.",
            challenge={"kind": "all-around"},
            scoring={"kind": "bidder-against-all", "rounds": 4, "points": 2},
        ),
        perudo.load_variant("bull-and-burst").derive(
            "farewell-once-choice",
            reason="Test: a farewell round once a player, chosen with two players left.",
            words={"ordinary": "Ordinary"},
            special_round=FAREWELL_ONCE_CHOICE,
        ),
        italian.derive(
            "italian-bull-in-turn",
            reason="Test: an exact claim on one's own turn, Palifico beside it.",
            words={"calza": "Bull"},
            exact_call={"kind": "exact-claim", "who": "player-to-act"},
        ),
        REROLL_FIRST,
        POKER,
        POKER.derive(
            "poker-bidder-hand",
            reason="Test: poker hands, the bidder's hand alone shown, ranked 2 to 6 then ones.",
            claims={"kind": "poker-hands", "order": [2, 3, 4, 5, 6, 1]},
            challenge={"kind": "bidder-hand"},
        ),
        italian.derive(
            "italian-passes-twice",
            reason="Test: a pass of no two dice alike, twice a round.",
            words={"paso": "Paso"},
            passes={"kind": "no-pair", "per_round": 2},
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
    for key, players in [("italian", 4), ("wango-party", 3), ("french-jonti", 5), ("spanish", 2),
                         ("common-hand-pass", 3)]:  # fmt: skip
        sample_counts(key, players, 40, seed=3, draws=3000)


@attrs.frozen
class HalfElimination(Elimination):
    """Elimination whose loser loses half their dice (a registered user kind)."""

    kind: ClassVar[str] = "test-batch-half"

    def penalty(self, *, bid: perudo.Bid, count: int, held: int) -> int:
        return max(1, held // 2)


def test_a_kind_the_batch_engine_lacks_is_refused_by_name() -> None:
    perudo.register_kind(HalfElimination)
    variant = perudo.load_variant("italian").derive(
        "italian-half", reason="Test.", scoring=HalfElimination()
    )
    with pytest.raises(GameSetupError, match="scoring kind 'test-batch-half'"):
        BatchGames.new(variant, 3, batch=4, seed=1)
    # simulate falls back to the reference engine, or says why it cannot use the batch one
    result = simulate(variant, 3, 4, bots=["random"], seed=1)
    assert result.games == 4
    with pytest.raises(GameSetupError, match="test-batch-half"):
        simulate(variant, 3, 4, bots=["random"], engine="batch")


def test_the_pinned_parameters_are_each_kinds_fields_and_choices() -> None:
    """BATCH_PARAMS says, for each kind the batch engine plays, every parameter it reads and
    the values it plays: the kind's fields exactly, each choice among the kind's own."""
    from perudo.batch.rules import BATCH_KINDS, BATCH_PARAMS

    assert {kind for kinds in BATCH_KINDS.values() for kind in kinds} == set(BATCH_PARAMS)
    unplayed = {}
    for kind, params in BATCH_PARAMS.items():
        fields = {field.name: field for field in attrs.fields(kind)}
        assert set(params) == set(fields), kind.__name__
        for name, played in params.items():
            meta = fields[name].metadata
            if played is None:  # every whole number within its bounds, or any order it takes
                assert meta["type"] in (int, tuple), (kind.__name__, name)
                continue
            choices = meta["choices"] or ((False, True) if meta["type"] is bool else None)
            if choices is None:  # a number of which some values are played
                assert all(type(value) is int for value in played), (kind.__name__, name)
                unplayed[kind.__name__, name] = "some numbers"
                continue
            assert set(played) <= set(choices), (kind.__name__, name)
            if set(played) != set(choices):
                unplayed[kind.__name__, name] = set(choices) - set(played)
    assert unplayed == {}  # every value of every parameter


@pytest.mark.parametrize(
    ("axis", "component", "problem"),
    [
        ("challenge", rules.Challenge(reveal="from-right"), "reveal = 'from-right'"),
        ("starter", rules.LoserStarts(if_out="random"), "if_out = 'random'"),
        ("first_player", rules.FixedSeat(seat=25), "seat = 25"),
        ("conversion", rules.HalveDouble(face=25), "face = 25"),
        ("exact_call", rules.ExactCall(who="player-to-act", min_players=2,
                                       caller_below_full=1), "caller_below_full = 1"),
    ],
)  # fmt: skip
def test_a_value_the_batch_engine_does_not_play_is_refused_not_defaulted(
    axis: str, component: object, problem: str
) -> None:
    """Regression: batch_rules read each parameter with ==, getattr and isinstance, so a
    value it did not know (a component built in Python, past the declaration's checks) was
    played as the default in silence."""
    variant = attrs.evolve(perudo.load_variant("italian"), **{axis: component})
    with pytest.raises(GameSetupError, match=f"{problem} of 'italian': play it with"):
        BatchGames.new(variant, 3, batch=4, seed=1)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_bluff_and_its_reroll_play_the_reference_rules(players: int) -> None:
    """Bluff on both engines: every seat's mask (the bidder's re-rolls out of turn among
    them), the dice put out in the open and re-rolled (GameState takes the batch's faces),
    every call and every observation agree step by step; a good share of the steps are
    re-rolls."""
    original, taken = perudo.GameState.apply, []

    def counted(state: perudo.GameState, action: perudo.Action, *args: object, **kw: object):  # type: ignore[no-untyped-def]
        taken.append(isinstance(action, perudo.Act))
        return original(state, action, *args, **kw)

    perudo.GameState.apply = counted  # type: ignore[method-assign]
    try:
        steps = compare("bluff", players, max(10, GAMES // players), seed=players, observe=4)
    finally:
        perudo.GameState.apply = original  # type: ignore[method-assign]
    assert steps > 20
    assert sum(taken) > len(taken) // 20  # the re-rolls are played, not only offered


def test_simulate_plays_bluff_on_the_batch_engine_with_its_rerolls() -> None:
    result = simulate("bluff", 3, 40, bots=["odds"], seed=1)
    assert result.engine == "batch"
    assert dict(result.acts)["reroll"] > 0  # the odds bots re-roll after their bids
    assert "exact-out-of-turn" not in dict(result.calls)


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
    with pytest.raises(GameSetupError, match="GiB with its observations; at most"):
        BatchGames.new("french-jonti", 10, batch=9_000_000)
    table = BatchGames.new("italian", 4, batch=1000)
    from perudo.batch.arrays import bytes_per_game

    assert table.nbytes == 1000 * bytes_per_game(table.layout)


@pytest.mark.parametrize(
    ("key", "players"), [("italian", 2), ("wango-party", 4), ("french-jonti", 10)]
)
def test_no_call_allocates_more_than_the_bound_counts(key: str, players: int) -> None:
    """MAX_BATCH_BYTES bounds what a call allocates, not only the arrays (issue 22, item 7:
    an observation of the largest batch the limit admitted was 43.5 GiB)."""
    import tracemalloc

    from perudo.batch.arrays import call_bytes_per_game

    batch = 3000
    table = BatchGames.new(key, players, batch=batch, seed=2, autoreset=True)
    bound = batch * call_bytes_per_game(table.variant, players)
    calls = {
        "observe": lambda: table.observe(0),
        "observe per game": lambda: table.observe(np.arange(batch) % players),
        "legal_mask": table.legal_mask,
        "random_actions": table.random_actions,
        "step": lambda: table.step(table.random_actions()),
        "may_call": table.may_call,
        "returns": table.returns,
        "reset": table.reset,
    }
    for call in calls.values():  # compiled steps load from numba's cache on their first call
        call()
    for _ in range(12):  # positions with bids, calls and shown hands
        for name, call in calls.items():
            tracemalloc.start()
            try:
                call()
                peak = tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
            assert peak <= bound, (name, peak, bound)
        table.step(table.random_actions())


def test_a_batch_too_large_to_observe_is_refused_before_allocating() -> None:
    from perudo.batch.arrays import bytes_per_game, layout
    from perudo.batch.engine import MAX_BATCH_BYTES

    variant = perudo.load_variant("french-jonti")
    table = layout(variant, batch_rules(variant), 10)
    admitted_before = MAX_BATCH_BYTES // bytes_per_game(table)  # arrays alone
    with pytest.raises(GameSetupError, match="with its observations"):
        BatchGames.new(variant, 10, batch=admitted_before)


def test_numbers_past_the_schema_maximum_are_refused_by_the_declaration() -> None:
    """House-rule numbers the batch engine could not hold (issue 22, item 6: ``points =
    2**40`` wrapped to a tie in every game) never make an edition."""
    party = perudo.load_variant("wango-party")
    for name, value in [("points", 2**40), ("pressure_points", 1001), ("pressure_uses", 101),
                        ("rounds_per_player", 10**6)]:  # fmt: skip
        with pytest.raises(perudo.InvalidVariantError, match="above the maximum"):
            party.derive("house", reason="Big.", scoring={name: value})
    with pytest.raises(perudo.InvalidVariantError, match="above the maximum"):
        perudo.load_variant("openspiel-liars-dice").derive(
            "house", reason="Big.", scoring={"points": 2**62}
        )


def test_the_largest_numbers_the_schema_allows_play_the_reference_rules() -> None:
    from perudo.rules.scoring import MAX_POINTS, MAX_PRESSURE_USES, MAX_ROUNDS_PER_PLAYER

    top = dict(rounds_per_player=MAX_ROUNDS_PER_PLAYER, points=MAX_POINTS,
               pressure_points=MAX_POINTS, pressure_uses=MAX_PRESSURE_USES)  # fmt: skip
    variant = perudo.load_variant("wango-party").derive("top", reason="Top.", scoring=top)
    assert compare(variant, 2, 2, seed=5) > 2 * 2 * MAX_ROUNDS_PER_PLAYER


def test_an_edition_made_around_the_loader_is_checked_against_the_arrays() -> None:
    """A Variant built directly (no schema check) with numbers past an array's range is
    refused by the batch engine before it plays, never wrapped."""
    party = perudo.load_variant("wango-party")
    for scoring, what in [
        # past each parameter's own maximum: the values the engine plays (BATCH_PARAMS)
        (
            perudo.rules.PartyPoints(
                rounds_per_player=2, points=2**40, pressure_points=3, pressure_uses=2
            ),
            "points = 1099511627776",
        ),
        (
            perudo.rules.PartyPoints(
                rounds_per_player=2, points=1, pressure_points=3, pressure_uses=300
            ),
            "pressure_uses = 300",
        ),
        (
            perudo.rules.PartyPoints(
                rounds_per_player=10**6, points=1000, pressure_points=1000, pressure_uses=2
            ),
            "rounds_per_player = 1000000",
        ),
    ]:
        variant = attrs.evolve(party, key="made-by-hand", scoring=scoring)
        with pytest.raises(GameSetupError, match=what):
            BatchGames.new(variant, 4, batch=8)


def test_a_kind_with_an_unbounded_number_is_refused_when_registered() -> None:
    @attrs.frozen
    class Unbounded:
        """Bids are capped at a number."""

        axis: ClassVar[str] = "cap"
        kind: ClassVar[str] = "test-unbounded"
        caps: ClassVar[bool] = True
        most: int = perudo.rules.param(int, minimum=1)

        def describe(self, words: perudo.Words, dice: int) -> str:
            return "Capped."

        def label(self, words: perudo.Words) -> str:
            return "capped"

    with pytest.raises(perudo.InvalidVariantError, match="most needs a minimum and a maximum"):
        perudo.rules.register_kind(Unbounded)
    for axis in perudo.AXES:
        for cls in perudo.rules.rule_kinds(axis).values():
            for field in attrs.fields(cls):
                meta = field.metadata
                if meta["type"] is int and meta["choices"] is None:
                    assert meta["minimum"] is not None, field
                    assert meta["maximum"] is not None, field


def test_play_random_counts_decisions() -> None:
    rounds = play_random("wango", 2, games=500, seed=1, one_round=True, batch=64)
    games = play_random("wango", 2, games=500, seed=1, batch=64)
    assert 500 * 2 < rounds < games
    assert play_random("wango", 2, games=0, seed=1) == 0


def _z(mean_a: float, var_a: float, n_a: int, mean_b: float, var_b: float, n_b: int) -> float:
    return (mean_a - mean_b) / max(1e-12, (var_a / n_a + var_b / n_b) ** 0.5)


def _per_game(total: int, squares: int, games: int) -> tuple[float, float]:
    mean = total / games
    return mean, (squares / games - mean * mean) * games / (games - 1)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("key", "players", "bots"),
    [
        ("italian", 4, ["odds"]),
        ("french-jonti", 4, ["odds", "random"]),
        ("wango-party", 3, ["random", "odds"]),
        ("spanish", 2, ["random"]),
        ("italian", 4, ["reader", "odds"]),
        ("bluff", 3, ["odds", "random"]),
        ("bluff", 4, ["reader"]),
        ("dead-mans-dice", 3, ["odds", "random"]),
        ("aetolia-liars-dice", 4, ["reader"]),
        ("common-hand-pass", 4, ["odds", "random"]),
        ("common-hand-pass", 3, ["reader"]),
        ("immortal-blade-liars-dice", 2, ["odds", "random"]),
        ("outlands-liars-dice", 4, ["odds", "random"]),
        ("outlands-liars-dice", 3, ["reader"]),
        ("liars-poker", 4, ["odds", "random"]),
        ("bull-and-burst", 4, ["odds", "random"]),
        ("bull-and-burst", 3, ["reader"]),
        ("mia", 4, ["odds", "random"]),
        ("mia", 3, ["reader"]),
        (REROLL_FIRST, 4, ["odds", "random"]),
        (POKER, 3, ["random"]),  # the batch odds bots judge hands on a bidder's dice alone
        (REROLL_FIRST, 3, ["reader"]),
    ],
    ids=str,
)
def test_simulate_on_the_batch_engine_agrees_with_the_reference_in_distribution(
    key: str | perudo.Variant, players: int, bots: list[str]
) -> None:
    """The same run on both engines (their dice differ): the mean rounds and actions per
    game, each seat's, place's and bot's share of wins, decisiveness, and the calls per
    game agree within four standard errors (Welch's z; a wrong rule or bot moves them far
    further)."""
    games = 1200
    ref = simulate(key, players, games, bots=bots, seed=1, engine="reference")
    bat = simulate(key, players, games, bots=bots, seed=3, engine="batch")
    for total, squares in (("rounds", "rounds_squared"), ("actions", "actions_squared")):
        a = _per_game(getattr(ref, total), getattr(ref, squares), games)
        b = _per_game(getattr(bat, total), getattr(bat, squares), games)
        assert abs(_z(a[0], a[1], games, b[0], b[1], games)) < 4, (total, a, b)
    shares = [(float(r) / games, float(b) / games) for r, b in zip(ref.wins, bat.wins, strict=True)]
    shares += [
        (float(r) / games, float(b) / games)
        for r, b in zip(ref.place_wins, bat.place_wins, strict=True)
    ]
    shares.append((float(ref.leader_wins) / games, float(bat.leader_wins) / games))
    shares += [
        (float(r) / ref._seats_held(name), float(b) / bat._seats_held(name))
        for (name, r), (_, b) in zip(ref.bot_wins, bat.bot_wins, strict=True)
    ]
    for p, q in shares:
        pooled = (p + q) / 2
        var = pooled * (1 - pooled)
        assert abs(_z(p, var, games, q, var, games)) < 4, shares
    ref_calls, bat_calls = dict(ref.calls), dict(bat.calls)
    assert ref_calls.keys() == bat_calls.keys()
    for call, count in ref_calls.items():  # counts of rare events: Poisson, sd = sqrt(count)
        assert abs(count - bat_calls[call]) < 4 * (count + bat_calls[call]) ** 0.5 + 3, call
    for name, count in ref.declarations:
        assert abs(count - dict(bat.declarations)[name]) < 4 * (2 * count) ** 0.5 + 3, name
    assert dict(ref.acts).keys() == dict(bat.acts).keys()
    for word, count in ref.acts:  # Bluff's re-rolls, Mia's rolls: their share of actions
        p, q = count / ref.actions, dict(bat.acts)[word] / bat.actions
        pooled = (count + dict(bat.acts)[word]) / (ref.actions + bat.actions)
        sd = (pooled * (1 - pooled) * (1 / ref.actions + 1 / bat.actions)) ** 0.5
        assert abs(p - q) < 4 * sd + 1e-3, (word, p, q)


@pytest.mark.slow
@pytest.mark.parametrize(("key", "players"), [("italian", 2), ("wango-party", 3), ("spanish", 3)])
def test_a_game_started_in_a_used_row_is_a_new_game(key: str, players: int) -> None:
    """After autoreset, a row's observations are those of a fresh GameState: nothing of the
    game before it (a special round, scores, places, bids, the last call) shows."""
    variant = perudo.load_variant(key)
    encoding = observation_encoding(variant, players)
    table = BatchGames.new(variant, players, batch=32, seed=4, autoreset=True)
    checked = 0
    for _ in range(3000):
        result = table.step(table.random_actions())
        rows = np.flatnonzero(result.done)
        for seat in range(players) if len(rows) else ():
            seen = table.observe(seat)
            for row in rows:
                state = perudo.new_game(
                    variant, players, seed=1, dice=table.hands(row),
                    first_player=int(table.to_act[row]),
                )  # fmt: skip
                assert seen[row].tolist() == encoding.encode(state.view(seat))
                checked += 1
    assert checked > 50


@pytest.mark.slow
def test_a_batch_run_does_not_depend_on_the_workers_and_says_where_it_ran() -> None:
    one = simulate("italian", 3, 5000, bots=["odds", "random"], seed=4)
    two = simulate("italian", 3, 5000, bots=["odds", "random"], seed=4, workers=2)
    assert one == two
    assert one.engine == "batch"
    by_path = simulate("italian", 3, 5, bots=["perudo.bots:OddsBot"], seed=4, allow_import=True)
    assert by_path.engine == "reference"
    assert simulate("italian", 3, 5, seed=4, engine="reference").engine == "reference"


def _snapshot(table: BatchGames) -> dict[str, list[int]]:
    from perudo.batch.arrays import FIELDS

    return {name: getattr(table, name).tolist() for name in FIELDS}


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(["italian", "french-jonti", "wango-party"]),
    st.integers(0, 3),
    st.integers(-2, 130) | st.integers(-(2**40), 2**40),
    st.lists(st.integers(-3, 6), min_size=4, max_size=4) | st.none(),
    st.integers(0, 30),
)
@example("italian", 0, 117, None, 4)  # 20x1 with 19 dice in play: legal, though unlisted
def test_whatever_a_caller_steps_is_taken_exactly_when_gamestate_takes_it(
    key: str, game: int, value: int, by: list[int] | None, warmup: int
) -> None:
    """Legal actions but one game's replaced by any number, by any seats: the batch takes
    the step exactly when GameState takes every game's action (bids above the dice in play
    included, where there is no cap); a refused step raises a PerudoError and leaves every
    array as it was."""
    table = BatchGames.new(key, 4, batch=4, seed=warmup)
    states = reference_states(table)
    for _ in range(warmup):
        actions = table.random_actions()
        states = follow(table, states, actions, table.to_act.astype(np.int64))
    actions = table.random_actions()
    actions[game] = value
    seats = table.to_act.astype(np.int64) if by is None else np.array(by)
    numbers = action_encoding(key, 4)
    takes = True
    for row, state in enumerate(states):
        if state.is_over:
            continue
        try:
            state.apply(numbers.decode(int(actions[row])), by=int(seats[row]))
        except perudo.PerudoError:
            takes = False
    before = _snapshot(table)
    try:
        table.step(actions, by=None if by is None else seats)
    except perudo.PerudoError:
        assert not takes
        assert _snapshot(table) == before
        return
    assert takes


@pytest.mark.slow
@pytest.mark.parametrize("bot", ["odds", "reader"])
@pytest.mark.parametrize(("key", "players"), [("italian", 4), ("french-jonti", 5), ("bluff", 4)])
def test_batch_bots_read_the_single_bots_very_chances(bot: str, key: str, players: int) -> None:
    """Each batch bot's chance that a bid is true is the float its single form computes from
    the same view (the odds bot's chance table, the reader's bid-reading table; in Bluff,
    the dice out in the open seen by all): so the two forms decide alike, ties included."""
    from perudo.batch.bots import batch_bot
    from perudo.bots import _independent_table, bid_reading_table
    from perudo.odds import chance_of

    belief = bid_reading_table if bot == "reader" else _independent_table
    batch_form = batch_bot(bot, 1)
    assert batch_form is not None
    table = BatchGames.new(key, players, batch=16, seed=3)
    encoding = observation_encoding(key, players)
    checked = 0
    for _ in range(20):
        seats = np.maximum(table.to_act, 0).astype(np.int64)
        seen = {seat: table.observe(seat) for seat in range(players)}
        for face in range(1, 7):
            for quantity in (1, 2, 4, 7, 12):
                got = batch_form._at_least(  # type: ignore[attr-defined]
                    table, seats, np.full(16, quantity), np.full(16, face)
                )
                for game in range(16):
                    if table.over[game] or table.must_declare[game]:
                        continue
                    view = encoding.decode(seen[int(seats[game])][game])
                    want = chance_of(belief(view), perudo.Bid(quantity, face))
                    assert got[game] == want, (game, quantity, face)
                    checked += 1
        table.step(table.random_actions())
        bidder = np.maximum(table.bidder, 0).astype(np.int64)
        rerolls = table.legal_mask(by=bidder)  # Bluff: the bidder's re-rolls, out of turn
        rerolling = rerolls.any(axis=1)
        if rerolling.any():
            picks = np.argmax(rerolls * np.random.default_rng(3).random(rerolls.shape), axis=1)
            table.step(picks, by=bidder, where=rerolling)
    assert checked > 500
    if key == "bluff":
        assert table.open_faces.any()  # dice were out in the open as the chances were read


def test_a_refusal_gives_the_reason_gamestate_gives() -> None:
    """Regression: a pressured Dudo before any bid, with pressure left, was refused as
    'pressure-used-up'; GameState (and now the batch) says 'nothing-to-challenge'."""
    table = BatchGames.new("wango-party", 3, batch=2, seed=1)
    states = reference_states(table)
    numbers = action_encoding("wango-party", 3)
    for action in (perudo.Dudo(pressure=True), perudo.Bid(1, 1), perudo.Bid(1, 1, True)):
        with pytest.raises(IllegalActionError) as raised:
            table.step(np.full(2, numbers.encode(action)))
        want = states[0].check(action)
        assert want is not None
        assert raised.value.reason == want.reason


@attrs.frozen
class OurMonotone(perudo.rules.Monotone):
    """The face never goes down: our club's words for the Spanish raise order."""

    kind: ClassVar[str] = "test-our-monotone"

    def describe(self, words: perudo.Words, dice: int) -> str:
        return "At our table the face never goes down."

    def label(self, words: perudo.Words) -> str:
        return "ours"


@attrs.frozen
class OurJonti(perudo.rules.ExactCall):
    """Our club's words for Jonti."""

    kind: ClassVar[str] = "test-our-jonti"

    def describe(self, words: perudo.Words, dice: int) -> str:
        return f"'{words.calza}', our way."


@pytest.fixture
def prose_kinds() -> Iterator[None]:
    """OurMonotone and OurJonti registered for one test, then gone."""
    with registered(OurMonotone, OurJonti):
        yield


@pytest.mark.slow
@pytest.mark.usefixtures("prose_kinds")
def test_a_subclass_that_changes_only_prose_plays_on_the_batch_engine() -> None:
    spanish = perudo.load_variant("spanish")
    ours = spanish.derive("our-spanish", reason="Our words.", raising=OurMonotone())
    assert ours.user_kinds == ("raising:test-our-monotone",)
    assert ours.describe("raising") == "At our table the face never goes down."
    assert compare(ours, 3, 40, seed=8, observe=2) > 40  # the same games as GameState
    assert simulate(ours, 3, 8, bots=["random"], seed=1).engine == "batch"
    jonti = perudo.load_variant("french-jonti")
    exact = jonti.exact_call
    our_jonti = jonti.derive(
        "our-jonti", reason="Our words.",
        exact_call=OurJonti(exact.who, exact.min_players, exact.caller_below_full),  # type: ignore[attr-defined]
    )  # fmt: skip
    assert compare(our_jonti, 4, 40, seed=9, observe=3) > 40  # calls that gain a die too


def test_every_axis_is_checked_not_the_engines_own_list(monkeypatch: pytest.MonkeyPatch) -> None:
    from perudo.batch import rules

    monkeypatch.delitem(rules.BATCH_KINDS, "cap")  # as if "cap" were an axis it never learnt
    with pytest.raises(GameSetupError, match="does not know the axis 'cap'"):
        BatchGames.new("italian", 3, batch=4, seed=1)


def test_a_cached_step_is_checked_against_every_module_of_the_engine() -> None:
    """numba checks a cached function against its own file only: a step that calls into
    another module would keep running that module's old code after it changed. Every
    cached step of perudo.batch is stamped with all of its modules instead."""
    import hashlib

    from perudo.batch import compiled, legality, moves, observations, policies

    digest = hashlib.sha256()
    for path in sorted(Path(compiled.__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    assert compiled.sources_stamp() == digest.digest()
    for step in (legality.masks, moves.step_games, observations.observe_games,
                 policies.play_games):  # fmt: skip
        locator = step._cache._impl.locator
        assert isinstance(locator, compiled._Stamped), type(locator)
        assert locator.get_source_stamp() == digest.digest()


def _sort_receiving(signum: int, done: list[str]) -> list[int]:
    """Four numbers sorted by libc's qsort, whose ctypes callback receives the signal
    ``signum`` on its first call, inside :func:`~perudo.batch.compiled.interrupts_held`
    (``done`` gets ``"sorted"`` once the sort has returned)."""
    import ctypes
    import ctypes.util
    import signal

    from perudo.batch.compiled import interrupts_held

    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    compare_type = ctypes.CFUNCTYPE(
        ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)
    )
    calls = []

    @compare_type
    def compare(a: ctypes._Pointer[ctypes.c_int], b: ctypes._Pointer[ctypes.c_int]) -> int:
        if not calls:
            signal.raise_signal(signum)
        calls.append(1)
        return a[0] - b[0]

    numbers = (ctypes.c_int * 4)(3, 1, 4, 2)
    with interrupts_held():
        libc.qsort(numbers, 4, ctypes.sizeof(ctypes.c_int), compare)
        done.append("sorted")
    return list(numbers)


def test_a_ctrl_c_inside_a_ctypes_callback_is_held_not_dropped() -> None:
    """Regression: a Ctrl-C in the first second of ``perudo simulate`` was lost, and the run
    went on for ever. numba compiles (and loads from its cache) through llvmlite's ctypes
    callbacks, and ctypes prints a KeyboardInterrupt raised inside a callback and drops it.
    Here a callback of libc's qsort receives the Ctrl-C."""
    import signal

    done: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        _sort_receiving(signal.SIGINT, done)
    assert done == ["sorted"]  # the sort ended whole, then the Ctrl-C was raised
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_sigterm_inside_a_ctypes_callback_is_held_not_dropped() -> None:
    """Regression: SIGTERM, which the command line turns into an exception as it does a
    Ctrl-C, was dropped the same way inside numba's compile."""
    import signal

    class Terminated(Exception):
        pass

    def terminated(number: int, frame: object) -> None:
        raise Terminated

    done: list[str] = []
    before = signal.signal(signal.SIGTERM, terminated)
    try:
        with pytest.raises(Terminated):
            _sort_receiving(signal.SIGTERM, done)
        assert done == ["sorted"]
        assert signal.getsignal(signal.SIGTERM) is terminated
    finally:
        signal.signal(signal.SIGTERM, before)


def test_a_step_compiles_whole_before_a_ctrl_c_is_raised() -> None:
    import signal

    import numba

    from perudo.batch.compiled import _holding

    def step(x: int) -> int:
        return x + 1

    dispatcher = numba.njit(step)
    compile_ = dispatcher.compile

    def compile_interrupted(signature: object) -> object:
        signal.raise_signal(signal.SIGINT)  # Ctrl-C as numba starts to compile the step
        return compile_(signature)

    dispatcher.compile = compile_interrupted
    _holding(dispatcher)
    with pytest.raises(KeyboardInterrupt):
        dispatcher(1)
    assert len(dispatcher.signatures) == 1  # compiled, then interrupted
    assert dispatcher(1) == 2
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_every_array_is_an_attribute_of_its_declared_type() -> None:
    """GameArrays declares each field once (dtype and shape); BatchGames shows each as a
    typed attribute, a view of the same memory."""
    from typing import get_type_hints

    from perudo.batch.arrays import FIELDS, GameArrays

    table = BatchGames.new("wango-party", 3, batch=5, seed=1)
    hints = get_type_hints(BatchGames)
    for name, (dtype, _) in FIELDS.items():
        array = getattr(table, name)
        assert array is getattr(table.arrays, name)
        assert array.dtype == dtype, name
        assert array.shape[0] == 5, name
        assert hints[name] == get_type_hints(GameArrays)[name], name


def test_the_steps_borrow_the_arrays_and_a_batch_is_freed_after_them() -> None:
    """The compiled steps count no reference to the batch's struct or its arrays
    (perudo.batch.handle): a call holds the struct while it runs and lets it go after, so
    a batch that stepped, observed and drew is freed with its last Python reference, and
    an array still referred to stays whole."""
    import gc
    import weakref

    table = BatchGames.new("wango-party", 3, batch=16, seed=1, autoreset=True)
    for _ in range(200):
        table.legal_mask()
        table.observe(1)
        table.step(table.random_actions())
    kept = table.held  # referred to from here: it outlives the batch
    snapshot = kept.copy()
    arrays = [weakref.ref(array) for array in (table.over, table.faces, table.bits)]
    del table
    gc.collect()
    assert all(array() is None for array in arrays)
    assert (kept == snapshot).all()


def test_a_field_given_to_a_name_with_other_arrays_is_counted_there() -> None:
    """A field and an ordinary array given to one name in a step: numba makes the name an
    ordinary array and counts a reference to the field there, which it lets go after,
    leaving the batch's count of the array as it was. A field returned to Python is the
    batch's own array."""
    import numba
    from numba.core import cgutils, types
    from numba.extending import intrinsic

    @intrinsic
    def count(typingctx: object, array: types.Array) -> object:  # type: ignore[no-any-unimported]
        """The references numba counts to ``array``'s memory (the first word of its
        memory info)."""

        def codegen(context: object, builder: object, signature: object, args: object) -> object:
            meminfo = cgutils.create_struct_proxy(array)(context, builder, value=args[0]).meminfo  # type: ignore[index]
            word = builder.bitcast(meminfo, cgutils.intp_t.as_pointer())  # type: ignore[attr-defined]
            return builder.load(word)  # type: ignore[attr-defined]

        return types.intp(array), codegen

    @numba.njit
    def counted(s: object) -> int:
        held = s.held if len(s.held) > 0 else s.left  # type: ignore[attr-defined]
        return count(held)  # type: ignore[no-any-return]

    @numba.njit
    def total(s: object, other: object, field: bool) -> int:
        chosen = s.held if field else other  # type: ignore[attr-defined]
        return int(chosen.sum())

    table = BatchGames.new("italian", 3, batch=4, seed=1)
    other = np.zeros((4, 3), dtype=np.int8)
    before = counted(table._games)
    for _ in range(100):
        assert total(table._games, other, True) == 60
        assert total(table._games, other, False) == 0
    assert counted(table._games) == before
    table.step(table.random_actions())
    assert int(table.held.sum()) == 60

    @numba.njit
    def leave(s: object) -> object:
        return s.held  # type: ignore[attr-defined]

    for _ in range(100):
        assert leave(table._games) is table.held
    assert counted(table._games) == before


@settings(
    max_examples=int(os.environ.get("PERUDO_BATCH_EDITIONS", "25")),  # more on demand
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(batch_tables())
def test_drawn_editions_play_the_same_in_both_engines(table: BatchTable) -> None:
    """Editions no one picked by hand, drawn over every kind and parameter value the batch
    engine plays, held to GameState step by step (``PERUDO_BATCH_EDITIONS=200`` for more)."""
    assert compare(table.variant, table.players, 6, table.seed % 2**31, observe=1) > 0


def test_auto_falls_back_to_the_reference_engine_when_a_step_fails_to_compile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """simulate(engine="auto") plays on the reference engine, saying so, when numba fails
    to compile a step (the compiler's failure, not the rules'); engine="batch" does not."""
    from perudo.batch import match

    def broken(*args: object, **options: object) -> None:
        raise RuntimeError("LLVM ERROR: out of memory")  # as numba's compiler may end

    monkeypatch.setattr(match, "play_bots", broken)
    with pytest.warns(RuntimeWarning, match="failed to compile its steps for italian"):
        result = simulate("italian", 3, 4, bots=["odds"], seed=1)
    assert result.engine == "reference"
    assert result.games == 4
    with pytest.raises(RuntimeError, match="LLVM ERROR"):
        simulate("italian", 3, 4, bots=["odds"], seed=1, engine="batch")


def test_simulate_plays_on_the_reference_engine_what_the_batch_bots_cannot_judge() -> None:
    """Poker hands with every hand shown: the batch engine plays them, but its odds bot
    judges hands on a bidder's dice alone, so simulate says why and plays on GameState."""
    from perudo.batch.bots import unjudged

    assert unjudged(POKER) is not None
    assert unjudged(perudo.load_variant("mia")) is None
    assert simulate(POKER, 2, 2, bots=["odds"], seed=1).engine == "reference"
    assert simulate(POKER, 2, 2, bots=["random"], seed=1).engine == "batch"
    with pytest.raises(GameSetupError, match="bidder's dice alone"):
        simulate(POKER, 2, 2, bots=["odds"], seed=1, engine="batch")
