"""Small rounds solved exactly (perudo.solve): the published values of OpenSpiel's
liars_dice and two of its relatives, proven in fractions; strategies, their bot, and
refusals."""

from __future__ import annotations

from fractions import Fraction
from typing import ClassVar

import attrs
import pytest
from helpers import registered

import perudo

pytest.importorskip("scipy", reason="the solve extra is not installed: pip install '.[solve]'")

from perudo.rules import QuantityOrFace, RoundContext
from perudo.solve import MAX_NODES, Solution, SolveError, deals, solve_round


@attrs.frozen
class NeverOnes(QuantityOrFace):
    """Raise the quantity or the face; a bid never names ones (they are only wild)."""

    kind: ClassVar[str] = "test-never-ones"

    def lowest(self, face: int, context: RoundContext) -> int | None:
        return None if face == 1 else super().lowest(face, context)


LIARS_DICE = perudo.load_variant("openspiel-liars-dice")


@pytest.fixture(scope="module")
def liars_dice() -> Solution:
    return solve_round(LIARS_DICE, dice=(1, 1))


def test_openspiel_liars_dice_has_the_published_value(liars_dice: Solution) -> None:
    # OpenSpiel's sequence_form_lp_test: -7/258 for the player who bids first
    assert liars_dice.value == Fraction(-7, 258)
    assert liars_dice.exact
    assert liars_dice.bounds == (Fraction(-7, 258), Fraction(-7, 258))
    # each of the 2^12 histories of bids is a decision of one seat, for each of its 6 hands
    assert liars_dice.infosets == 6 * 2**12
    assert liars_dice.seconds > 0


def test_no_wild_face_and_ones_wild_never_bid_have_their_published_values() -> None:
    # the exact LP outputs of the public thomasahle/snyd project
    no_wild = LIARS_DICE.derive("ld-no-wild", reason="Test.", wilds={"kind": "none"})
    assert solve_round(no_wild).value == Fraction(-1, 9)
    with registered(NeverOnes):  # for this test only: other tests list the kinds
        ones = LIARS_DICE.derive(
            "ld-ones-never-bid", reason="Test.", wilds={"kind": "ones"}, raising=NeverOnes(),
            opening={"kind": "standard", "ones": "forbidden"},
        )  # fmt: skip
        solved = solve_round(ones)
    assert (solved.value, solved.exact) == (Fraction(-7, 327), True)


def test_the_value_is_seat_zeros_whoever_opens() -> None:
    small = LIARS_DICE.derive(
        "ld-d3",
        reason="Test.",
        dice={"per_player": 1, "faces": 3},
        wilds={"kind": "face", "face": 3},
    )
    first, second = solve_round(small, opener=0), solve_round(small, opener=1)
    assert first.exact
    assert second.exact
    assert second.value == -first.value  # the same game, the seats swapped


def test_a_round_of_three_dice_at_four_faces_solves_exactly() -> None:
    italian = perudo.load_variant("italian").derive(
        "italian-d4", reason="Test.", dice={"per_player": 5, "faces": 4}
    )
    solved = solve_round(italian, dice=(1, 2))
    assert (solved.value, solved.exact) == (Fraction(-43, 224), True)


def test_the_strategies_are_distributions_over_legal_actions_and_the_bot_plays_them(
    liars_dice: Solution,
) -> None:
    state = perudo.new_game(LIARS_DICE, 2, seed=3, dice=[[2], [5]], first_player=0)
    strategy = liars_dice.strategy(state.view(0))
    assert set(strategy) == set(state.legal_actions())
    assert sum(strategy.values()) == 1
    assert all(isinstance(p, Fraction) and p >= 0 for p in strategy.values())
    bot = liars_dice.bot(seed=1)
    assert bot.policy(state.view(0)) == strategy
    while state.round_number == 1 and not state.is_over:
        state = state.apply(bot.act(state.view(state.to_act)))  # type: ignore[arg-type]
    with pytest.raises(SolveError, match="does not cover"):
        liars_dice.strategy(perudo.new_game(LIARS_DICE, 2, seed=3).public_view())


def test_deals_are_every_sorted_hand_with_its_chance() -> None:
    hands = deals(3, 6)
    assert len(hands) == 56
    assert sum(chance for _, chance in hands) == 1
    assert dict(hands)[(1, 1, 2)] == Fraction(3, 216)


@pytest.mark.parametrize(
    ("key", "dice", "message"),
    [
        ("italian", (1, 1, 1), "two counts"),
        ("italian", (0, 1), "not 1 to 5 dice"),
        ("italian", (6, 1), "not 1 to 5 dice"),
        ("italian", "11", "two counts"),
        ("bluff", (1, 1), "actions of its own"),
        ("italian", (5, 5), "too big to solve"),
        ("wango-party", (2, 2), "too big to solve"),
    ],
)
def test_what_it_does_not_solve_is_refused_with_the_reason(
    key: str, dice: tuple[int, ...], message: str
) -> None:
    # a round too big is refused from its size, before any position is built
    with pytest.raises(SolveError, match=message):
        solve_round(key, dice)  # type: ignore[arg-type]


def test_a_round_past_the_limit_is_named() -> None:
    with pytest.raises(SolveError, match=f"past the {MAX_NODES:,} positions"):
        solve_round("italian", (2, 2))


def test_the_random_bots_exploitability_is_openspiels() -> None:
    # OpenSpiel's exploitability of uniform random play of liars_dice: 0.780744
    from perudo.bots import RandomBot
    from perudo.solve import exploitability

    gained = exploitability(RandomBot(), LIARS_DICE)
    assert isinstance(gained, Fraction)
    assert round(float(gained), 6) == 0.780744


def test_an_equilibrium_is_not_exploitable() -> None:
    from perudo.solve import exploitability

    small = LIARS_DICE.derive(
        "ld-d3-e", reason="Test.", dice={"per_player": 1, "faces": 3},
        wilds={"kind": "face", "face": 3},
    )  # fmt: skip
    solved = solve_round(small)
    assert exploitability(solved.bot(), small) == 0
    with pytest.raises(SolveError, match="no policy"):
        exploitability(object(), small)


def test_the_command_line_prints_the_value_as_a_fraction() -> None:
    import json
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "perudo", "solve", "openspiel-liars-dice", "--json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["value"], data["exact"], data["bounds"]) == ("-7/258", True, ["-7/258"] * 2)
    assert data["infosets"] == 6 * 2**12
    refused = subprocess.run(
        [sys.executable, "-m", "perudo", "solve", "italian", "--dice", "5,5"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert refused.returncode == 2
    assert "too big to solve" in refused.stderr
