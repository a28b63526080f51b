"""The exact-call axis: who may call it and what it settles, kind by kind."""

from __future__ import annotations

import random
from typing import ClassVar

import attrs
import pytest
from helpers import called, context

import perudo
from perudo import Calza
from perudo.rules import ExactCall, NoExactCall, RoundContext, Violation
from perudo.rules.registry import check_component

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


@pytest.mark.parametrize("key", ["french-jonti", "french-calza"])
def test_the_answers_kept_for_a_round_are_the_kinds_own(key: str) -> None:
    """The engine keeps a ``by_seat_and_bidder`` kind's answers for the round: at every
    position of random games, each seat's answer is what the kind says there."""
    for seed in range(6):
        rng = random.Random(seed)
        state = perudo.new_game(key, 4, seed=seed)
        while not state.is_over:
            if state.bids:
                for seat in state.seats_in:
                    kind = state.variant.exact_call.check(seat, state.context)
                    assert state.check(Calza(), by=seat) == kind
            state = state.apply(rng.choice(state.legal_actions()))


def test_a_claim_to_read_no_bid_value_is_checked() -> None:
    @attrs.frozen
    class OnHighBids(ExactCall):
        """The exact call, only on a bid of more than two dice."""

        kind: ClassVar[str] = "test-on-high-bids"
        by_seat_and_bidder: ClassVar[bool] = True  # a false claim: it reads the quantity

        def check(self, player: int, context: RoundContext) -> Violation | None:
            bid = context.bid
            if bid is not None and bid.quantity <= 2:
                return Violation("exact-call-not-allowed", "only on a bid of more than two")
            return super().check(player, context)

    words = perudo.load_variant("french-jonti").words
    with pytest.raises(perudo.InvalidVariantError, match=r"by_seat_and_bidder .* returned"):
        check_component(OnHighBids("player-to-act", 2, False), words, 5)
    del OnHighBids.by_seat_and_bidder  # without the claim it may read what it likes
    check_component(OnHighBids("player-to-act", 2, False), words, 5)
