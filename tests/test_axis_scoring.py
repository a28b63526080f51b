"""The scoring axis: what a challenge settles, when the game ends, who wins."""

from __future__ import annotations

import random
from pathlib import Path
from typing import ClassVar

import attrs
import pytest
from helpers import WORDS, called, context, settled

import perudo
from perudo.rules import (
    BidderAgainstAll,
    BurstElimination,
    CallContext,
    Difference,
    Elimination,
    FixedRounds,
    Lives,
    LivesFirstOut,
    OutBelow,
    PartyPoints,
    ScoringRule,
)

PARTY = PartyPoints(rounds_per_player=2, points=1, pressure_points=3, pressure_uses=3)


@pytest.mark.parametrize(
    ("kind", "count", "pressured", "result"),
    [
        (Elimination(), 3, False, (0, 0, -1)),  # the bid stood: the challenger loses a die
        (Elimination(), 2, False, (0, -1, 0)),  # it did not: the bidder
        (PARTY, 3, False, (0, 1, -1)),  # points, from the loser to the winner
        (PARTY, 2, True, (0, -3, 3)),  # pressure moves three
        (FixedRounds(1, 1), 2, False, (0, -1, 1)),
        (Difference(), 1, False, (0, -2, 0)),  # two short of 3x3: the bidder loses two
        (Difference(), 5, False, (0, 0, -2)),  # two over: the challenger loses two
        (Difference(), 3, False, (-1, 0, -1)),  # exactly: all but the bidder lose one
        (Lives(3), 3, False, (0, 0, -1)),  # a life, from the challenger
        (Lives(3), 2, False, (0, -1, 0)),  # from the bidder
        # Mia: "the passer loses a life", or "the current player loses a life"
        (LivesFirstOut(6), 3, False, (0, 0, -1)),
        (LivesFirstOut(6), 2, False, (0, -1, 0)),
        (BurstElimination(), 3, False, (0, 0, -1)),  # in turn: as elimination
        (BurstElimination(), 2, False, (0, -1, 0)),
        # Aetolia: "If you lose a challenge, you sacrifice one of your die."
        (OutBelow(3), 3, False, (0, 0, -1)),
        (OutBelow(3), 2, False, (0, -1, 0)),
        # Liar's poker: "he wins a dollar from each of the other players", or "loses a
        # dollar to each of the other players"
        (BidderAgainstAll(1, 1), 3, False, (-1, 2, -1)),
        (BidderAgainstAll(1, 2), 2, False, (2, -4, 2)),
    ],
)
def test_what_a_challenge_settles(
    kind: ScoringRule, count: int, pressured: bool, result: tuple[int, ...]
) -> None:
    call = called(context((5, 5, 5), bids=[(1, "3x3")]), "challenge", 2, count, pressured=pressured)
    assert kind.settle(call) == result


@pytest.mark.parametrize(
    ("kind", "dice", "changes", "round_number", "over"),
    [
        (Elimination(), (1, 3, 0), (-1, 0, 0), 9, True),  # one player left with dice
        (Elimination(), (2, 3, 0), (-1, 0, 0), 9, False),
        (PARTY, (5, 5, 5), (0, 0, 0), 5, False),  # 2 x 3 players = 6 rounds
        (PARTY, (5, 5, 5), (0, 0, 0), 6, True),
        (FixedRounds(1, 1), (5, 5, 5), (0, 0, 0), 1, True),
        (BidderAgainstAll(1, 1), (5, 5, 5), (0, 0, 0), 1, True),  # one round: the game
    ],
)
def test_when_the_game_ends(
    kind: ScoringRule,
    dice: tuple[int, ...],
    changes: tuple[int, ...],
    round_number: int,
    over: bool,
) -> None:
    round_context = context(dice, bids=[(1, "3x3")], round_number=round_number)
    assert kind.is_over(settled(called(round_context, "challenge", 2, 0), changes)) == over


def test_who_wins_and_the_bounds() -> None:
    assert Elimination().winners(context((0, 3, 0))) == (1,)
    assert PARTY.winners(context((5, 5, 5), scores=(2, 4, 4))) == (1, 2)  # ties share
    assert (Elimination.most_points, PARTY.most_points, FixedRounds(1, 7).most_points) == (0, 3, 7)
    assert (PARTY.round_limit(4), Elimination().round_limit(4)) == (8, None)


@attrs.frozen
class Commission(FixedRounds):
    """Each challenge moves ``points`` from its loser, and its winner keeps all but one:
    the house takes a point. Not zero-sum."""

    kind: ClassVar[str] = "test-commission"
    zero_sum: ClassVar[bool] = False

    def settle(self, context: CallContext) -> tuple[int, ...]:
        changes = super().settle(context)
        return tuple(change - 1 if change > 0 else change for change in changes)


@attrs.frozen
class ClaimsZeroSum(Commission):
    """The same settlement, claimed zero-sum."""

    kind: ClassVar[str] = "test-claims-zero-sum"
    zero_sum: ClassVar[bool] = True


def test_a_kind_that_claims_zero_sum_and_settles_otherwise_is_refused() -> None:
    perudo.register_kind(Commission)
    perudo.register_kind(ClaimsZeroSum)
    openspiel = perudo.load_variant("openspiel-liars-dice")
    fair = openspiel.derive("commission", reason="a test", scoring=Commission(1, 2))
    assert fair.scoring.zero_sum is False
    with pytest.raises(perudo.InvalidVariantError, match="zero_sum"):
        openspiel.derive("liar", reason="a test", scoring=ClaimsZeroSum(1, 2))


@attrs.frozen
class ShortLimit(FixedRounds):
    """Plays ``rounds`` rounds but says the game lasts one round at most: a kind that
    breaks its protocol."""

    kind: ClassVar[str] = "test-short-limit"

    def round_limit(self, players: int) -> int | None:
        return 1


def test_a_game_past_its_declared_round_limit_is_refused_naming_the_kind() -> None:
    """Regression: round_limit was trusted, so past it an observation's round entry
    saturated and OpenSpiel's max_game_length was wrong, in silence."""
    perudo.register_kind(ShortLimit)
    edition = perudo.load_variant("openspiel-liars-dice").derive(
        "short-limit", reason="Broken on purpose.", scoring=ShortLimit(3, 1)
    )
    state = perudo.new_game(edition, 2, seed=1, first_player=0)
    state = state.apply(perudo.Bid(1, 2))
    with pytest.raises(perudo.InvalidVariantError, match="scoring:test-short-limit"):
        state.apply(perudo.Dudo())  # round 1 ends and the game goes on: past the limit


@pytest.mark.parametrize(
    ("count", "changes"),
    [
        (2, (0, -1, 1)),  # "Challenged bid FALSE: Bidder -1 die; Burst-Dudo caller +1 die"
        (3, (0, 0, -1)),  # "Challenged bid TRUE: Burst-Dudo caller -1 die"
    ],
)
def test_a_burst_challenge_that_is_right_wins_a_die(count: int, changes: tuple[int, ...]) -> None:
    """guyguroz-hue/Perudo, docs/GAME_RULES.md section 9.2: seat 2 challenges seat 1's 3x3
    out of turn (seat 0 was to act)."""
    call = attrs.evolve(
        called(context((5, 5, 5), bids=[(1, "3x3")]), "challenge", 2, count), in_turn=False
    )
    assert BurstElimination().settle(call) == changes
    assert Elimination().settle(call) == tuple(min(c, 0) for c in changes)  # no gain


def test_lives_start_full_and_a_player_without_one_is_out() -> None:
    lives = Lives(3)
    assert lives.starting_score == 3
    assert (lives.stays_in(1, 5), lives.stays_in(0, 5), lives.stays_in(0, 1)) == (
        True,
        False,
        False,
    )
    assert not lives.moves_dice
    assert not Lives.zero_sum  # the returns are the lives left


def lives_edition(lives: int = 2) -> perudo.Variant:
    return perudo.load_variant("italian").derive(
        "italian-lives", reason="played for lives",
        scoring={"kind": "lives", "lives": lives},
        special_round={"kind": "none"}, words={"special_round": None},
    )  # fmt: skip


def test_a_game_for_lives_keeps_every_hand_and_puts_out_a_player_with_none_left() -> None:
    """One life: "Dead Man's Dice" (htfbw.com, "Liar's Dice", Alternate Rules): "a player
    loses immediately if his challenge fails or if another player correctly challenges
    him"; the others play on with every die."""
    edition = lives_edition(1)
    hands = [[2, 3, 4, 5, 5], [1, 3, 3, 6, 6], [2, 2, 4, 4, 6]]
    state = perudo.new_game(edition, 3, seed=4, dice=hands, first_player=0)
    assert [p.score for p in state.players] == [1, 1, 1]
    after = state.apply(perudo.Bid(9, 4)).apply(perudo.Dudo())  # three 4s and a one: false
    result = after.last_result
    assert result is not None
    assert (result.points, result.changes, result.out) == ((-1, 0, 0), (0, 0, 0), (0,))
    assert result.describe().endswith("Player 1 loses 1 life, and is out")  # the kind's unit
    assert [len(p.dice) for p in after.players] == [0, 5, 5]  # the others keep five dice
    assert after.seats_in == (1, 2)
    assert "out" in after.view(1).draw()


def test_games_for_lives_play_to_one_player_left_and_replay() -> None:
    edition = lives_edition(2)
    encoding = perudo.encoding.observation_encoding(edition, 3)
    rng = random.Random(3)
    for seed in range(8):
        state = perudo.new_game(edition, 3, seed=seed)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            for seat in state.seats_in:
                assert len(state.players[seat].dice) == 5  # every hand in keeps its dice
                assert state.players[seat].score > 0
            view = state.view(0)
            assert encoding.decode(encoding.encode(view)) == view
        assert len(state.winners) == 1
        record = perudo.GameRecord.from_state(state)
        assert perudo.GameRecord.from_json(record.to_json()).replay(edition) == state


@attrs.frozen
class _Undecided(Elimination):
    """Cannot say who stays in."""

    kind: ClassVar[str] = "test-undecided"

    def stays_in(self, score: int, dice: int) -> bool:
        return "maybe"  # type: ignore[return-value]


def test_a_kind_that_cannot_say_who_stays_in_is_named() -> None:
    perudo.rules.register_kind(_Undecided)
    edition = perudo.load_variant("italian").derive(
        "italian-undecided", reason="t", scoring={"kind": "test-undecided"}
    )
    state = perudo.new_game(edition, 3, seed=1).apply(perudo.Bid(2, 3))
    with pytest.raises(perudo.InvalidVariantError, match="scoring:test-undecided"):
        state.apply(perudo.Dudo())


def test_openspiel_plays_a_game_for_lives(tmp_path: Path) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    import perudo.interop.openspiel  # noqa: F401  (registers python_perudo)

    path = tmp_path / "lives.toml"
    path.write_text(
        'schema = 1\nextends = "wango"\nkey = "wango-lives"\nname = "WANGO, for lives"\n'
        '[scoring]\nkind = "lives"\nlives = 2\nprovenance = "reading"\nreason = "lives"\n',
        encoding="utf-8",
    )
    game = pyspiel.load_game("python_perudo", {"declaration": str(path), "players": 3})
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_an_exact_call_moves_points_where_calls_move_points() -> None:
    """Played for lives, a right Calza wins the caller a life and a wrong one costs one."""
    edition = perudo.load_variant("french-calza").derive(
        "calza-lives", reason="played for lives", scoring={"kind": "lives", "lives": 2},
        special_round={"kind": "none"}, words={"special_round": None},
    )  # fmt: skip
    hands = [[2, 3, 4, 5, 5], [1, 3, 3, 6, 6], [2, 2, 4, 4, 6]]
    state = perudo.new_game(edition, 3, seed=4, dice=hands, first_player=0)
    right = state.apply(perudo.Bid(4, 3)).apply(perudo.Calza())  # 3, 3, 3 and a one: four
    assert right.last_result is not None
    assert (right.last_result.points, right.last_result.changes) == ((0, 1, 0), (0, 0, 0))
    assert [p.score for p in right.players] == [2, 3, 2]
    assert [len(p.dice) for p in right.players] == [5, 5, 5]
    wrong = state.apply(perudo.Bid(5, 3)).apply(perudo.Calza())
    assert wrong.last_result is not None
    assert wrong.last_result.points == (0, -1, 0)
    encoding = perudo.encoding.observation_encoding(edition, 3)
    for after in (right, wrong):
        view = after.view(2)
        assert encoding.decode(encoding.encode(view)) == view
    pytest.importorskip("numba", reason="the batch extra is not installed")
    from perudo.batch import BatchGames

    with pytest.raises(perudo.GameSetupError, match="exact call that moves points"):
        BatchGames.new(perudo.load_variant("wango-party").derive(
            "party-calza", reason="t",
            exact_call={"kind": "exact", "who": "player-to-act", "min_players": 2,
                        "caller_below_full": False},
            words={"calza": "Calza"},
        ), 3, 4, seed=1)  # fmt: skip


@attrs.frozen
class Chips(FixedRounds):
    """Each challenge moves ``points`` chips from its loser to its winner."""

    kind: ClassVar[str] = "test-chips"
    unit: ClassVar[tuple[str, str]] = ("chip", "chips")


@attrs.frozen
class NoUnit(FixedRounds):
    """Each challenge moves ``points`` of something it does not name."""

    kind: ClassVar[str] = "test-no-unit"
    unit: ClassVar[object] = "chips"


def test_a_score_is_told_in_the_kinds_unit() -> None:
    perudo.register_kind(Chips)
    perudo.register_kind(NoUnit)
    hands = [[2, 3, 4, 5, 5], [1, 3, 3, 6, 6]]
    edition = lives_edition().derive("italian-chips", reason="t", scoring=Chips(1, 2))
    assert edition.score_unit == ("chip", "chips")
    state = perudo.new_game(edition, 2, seed=4, dice=hands, first_player=0).apply(perudo.Bid(9, 4))
    result = state.apply(perudo.Dudo()).last_result
    assert result is not None
    assert "gives 2 chips to" in result.describe()
    with pytest.raises(perudo.InvalidVariantError, match="unit is 'chips', not a singular"):
        lives_edition().derive("italian-no-unit", reason="t", scoring=NoUnit(1, 2))


def test_mia_ends_with_the_first_player_out_of_lives() -> None:
    """ "The first player to lose all of their lives loses the game": over once a seat has
    none left, every other seat winning; plain lives play on to the last one in."""
    before = called(context((2, 2, 2), bids=[(1, "3x3")], scores=(1, 3, 2)), "challenge", 2, 1)
    out = settled(before, (-2, 0, 0), points=(-1, 0, 0))  # seat 0's last life: no dice dealt
    assert LivesFirstOut(6).is_over(out)
    assert not Lives(6).is_over(out)
    assert LivesFirstOut(6).winners(context((0, 2, 2))) == (1, 2)
    on = settled(before, (0, 0, 0), points=(0, -1, 0))
    assert not LivesFirstOut(6).is_over(on)
    assert "ends as soon as a player has none left" in LivesFirstOut(6).describe(WORDS, 2)
