"""The exact-call axis: who may call it and what it settles, kind by kind."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs
import pytest
from helpers import called, context, game, play

import perudo
from perudo.rules import ExactCall, ExactClaim, GiveUp, NoExactCall, RoundContext, register_kind

CALZA = ExactCall("player-to-act", 2, False)
JONTI = ExactCall("not-bidder-or-before", 3, True)


@pytest.mark.parametrize(
    ("kind", "player", "dice", "reason"),
    [
        (CALZA, 0, (3, 5, 5, 5), None),  # the player to act
        (CALZA, 2, (3, 5, 5, 5), "not-your-turn"),
        (JONTI, 0, (3, 5, 5, 5), None),  # out of turn, any seat but the bidder and before
        (JONTI, 2, (3, 3, 3, 3), "exact-call-not-allowed"),  # seat 2 made the bid
        (JONTI, 1, (3, 3, 3, 3), "exact-call-not-allowed"),  # the seat just before it
        (JONTI, 3, (3, 3, 5, 5), "exact-call-not-allowed"),  # five dice: not fewer than 5
        (JONTI, 0, (3, 0, 5, 0), "exact-call-not-allowed"),  # two players still in
        (NoExactCall(), 0, (3, 5, 5, 5), "no-exact-call"),
    ],
)
def test_who_may_call(
    kind: ExactCall | NoExactCall, player: int, dice: tuple[int, ...], reason: str | None
) -> None:
    round_context = context(dice, bids=[(1, "2x3"), (2, "3x3")], to_act=0)
    violation = kind.check(player, round_context)
    assert (None if violation is None else violation.reason) == reason
    if violation is not None:
        assert violation.message  # a sentence for the player


def test_a_handicap_is_the_callers_own_full_hand() -> None:
    round_context = context((3, 3, 3, 3), bids=[(1, "3x3")], starting=(3, 5, 5, 5))
    violation = JONTI.check(3, round_context)
    assert violation is None
    full = JONTI.check(3, context((3, 3, 3, 3), bids=[(1, "3x3")], starting=(3, 5, 5, 3)))
    assert full is not None
    assert "fewer than 3 dice" in full.message


@pytest.mark.parametrize(
    ("count", "changes"),
    [
        (3, (1, 0, 0)),  # right: the caller gains a die (the engine keeps it at the start)
        (2, (-1, 0, 0)),  # wrong: the caller loses one
        (4, (-1, 0, 0)),
    ],
)
def test_what_it_settles(count: int, changes: tuple[int, ...]) -> None:
    call = called(context((4, 5, 5), bids=[(2, "3x3")]), "exact", 0, count)
    assert CALZA.settle(call) == changes
    assert NoExactCall().settle(call) == (0, 0, 0)


def test_flags() -> None:
    assert (CALZA.offered, CALZA.out_of_turn) == (True, False)
    assert (JONTI.offered, JONTI.out_of_turn) == (True, True)
    assert (NoExactCall.offered, NoExactCall.out_of_turn) == (False, False)


def test_what_it_shows_and_counts() -> None:
    """Every hand still in, from the caller's left, the caller last; ones wild (Italian)."""
    round_context = context((2, 0, 3, 2), bids=[(2, "3x4")], to_act=3)
    hands = ((1, 4), (), (4, 4, 6), (2, 3))
    assert CALZA.reveal_hands(hands, 3, round_context) == ((0, 2, 3), 4)
    assert JONTI.reveal_hands(hands, 0, round_context) == ((2, 3, 0), 4)
    assert NoExactCall().reveal_hands(hands, 3, round_context) == ((), 0)


@attrs.frozen
class _SpotOnFaceOnly(ExactCall):
    """A "Spot on" that counts the bid's face alone, wild dice not included."""

    kind: ClassVar[str] = "test-face-only"
    counts_wild: ClassVar[bool] = False

    def reveal_hands(
        self, hands: Sequence[Sequence[int]], caller: int, context: RoundContext
    ) -> tuple[tuple[int, ...], int]:
        order, bid = context.order_from(caller), context.bids[-1].bid
        return order, sum(hands[seat].count(bid.face) for seat in order)


def test_a_call_that_counts_its_own_way_is_judged_and_reported_on_its_count() -> None:
    register_kind(_SpotOnFaceOnly)
    edition = perudo.load_variant("french-calza").derive(
        "calza-face-only", reason="t",
        exact_call={"kind": "test-face-only", "who": "player-to-act", "min_players": 2,
                    "caller_below_full": False},
    )  # fmt: skip
    # four 3s counting the ones; two without them
    state = game(edition, [[1, 3, 5], [1, 3, 6], [2, 2, 4]], first=0)
    after = play(state, "2x3").apply(perudo.Calza())
    result = after.last_result
    assert result is not None
    assert (result.count, result.is_exact, result.changes) == (2, True, (0, 1, 0))
    assert result.wild is None
    assert result.describe() == "Calza by Player 2 on 2x3 by Player 1: 2 3s; Player 2 gains a die"
    wrong = play(game(perudo.load_variant("french-calza"), [[1, 3, 5], [1, 3, 6], [2, 2, 4]]),
                 "2x3").apply(perudo.Calza())  # fmt: skip
    assert wrong.last_result is not None
    assert wrong.last_result.count == 4  # the ones counted


@attrs.frozen
class _CountsNothing(ExactCall):
    """Counts nothing, and shows the caller twice (a broken kind)."""

    kind: ClassVar[str] = "test-counts-nothing"

    def reveal_hands(
        self, hands: Sequence[Sequence[int]], caller: int, context: RoundContext
    ) -> tuple[tuple[int, ...], int]:
        return ((caller, caller), -1)  # type: ignore[return-value]


def test_a_count_that_breaks_the_protocol_names_the_kind() -> None:
    register_kind(_CountsNothing)
    with pytest.raises(perudo.InvalidVariantError, match="test-counts-nothing"):
        perudo.load_variant("french-calza").derive(
            "calza-nothing", reason="t",
            exact_call={"kind": "test-counts-nothing", "who": "player-to-act",
                        "min_players": 2, "caller_below_full": False},
        )  # fmt: skip


BULL = ExactClaim(who="any-player")


@pytest.mark.parametrize(
    ("kind", "player", "reason"),
    [
        (BULL, 3, None),  # "Any active player may call it" (guyguroz-hue/Perudo, R-005)
        (BULL, 2, None),  # the bidder too, read literally
        (ExactClaim(who="player-to-act"), 3, "not-your-turn"),
        (ExactClaim(who="player-to-act"), 0, None),
    ],
)
def test_who_may_claim_exact(kind: ExactClaim, player: int, reason: str | None) -> None:
    violation = kind.check(player, context((5, 5, 5, 5), bids=[(2, "7x5")], to_act=0))
    assert (None if violation is None else violation.reason) == reason
    assert (kind.offered, kind.in_chain) == (True, True)


def test_a_right_exact_claim_costs_every_other_seat_in_a_die() -> None:
    """ "If correct: every currently active participant EXCEPT the Bull caller loses 1 die"
    (seat 1 already out, seat 2 the claimer, seat 3 the challenger)."""
    claim = context((3, 0, 4, 2), bids=[(0, "7x5")])
    claim = attrs.evolve(claim, bids=(*claim.bids, perudo.PlacedBid(2, perudo.Bid(7, 5), "exact")))
    call = called(claim, "challenge", 3, 7)
    assert call.bid_stands
    assert call.challenge_loser == 3
    assert BULL.settle(call) == (-1, 0, 0, -1)
    assert not called(claim, "challenge", 3, 8).bid_stands  # eight: an exact claim is wrong
    assert BULL.reveal_hands(((5, 1, 2), (), (5, 5, 6, 6), (1, 3)), 3, claim) == ((0, 2, 3), 5)


MIA = perudo.load_variant("mia")


def test_a_mia_may_be_given_up_and_nothing_else() -> None:
    """Mia: "If Mia is announced, the next player has two choices: They may give up without
    looking at the dice and lose one life. They may look at the dice." """
    standing = attrs.evolve(MIA.round_one((2, 2, 2)), to_act=1)
    mia = attrs.evolve(standing, bids=(perudo.PlacedBid(0, perudo.HandBid((2, 1))),))
    lower = attrs.evolve(standing, bids=(perudo.PlacedBid(0, perudo.HandBid((6, 6))),))
    assert GiveUp().check(1, mia) is None
    assert GiveUp().check(2, mia).reason == "not-your-turn"  # type: ignore[union-attr]
    assert GiveUp().check(1, lower).reason == "exact-call-not-allowed"  # type: ignore[union-attr]
    assert GiveUp().reveal_hands(((1, 2), (3, 4), (5, 6)), 1, mia) == ((), 0)  # nothing shown
    call = called(context((2, 2, 2), bids=[(0, "2-1")]), "exact", 1, 0)
    assert GiveUp().settle(call) == (0, -1, 0)
    assert (GiveUp.offered, GiveUp.out_of_turn) == (True, False)
