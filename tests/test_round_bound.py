"""The most bids a round holds: a raise order that lets a bid come back says how often
(``times_per_bid``); the engine stops a round past that bound, and an observation holds
every bid placed again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import attrs
import pytest
from helpers import registered

import perudo
from perudo import Bid, EncodingError, InvalidVariantError
from perudo.encoding import observation_encoding
from perudo.rules import QuantityOrFace, RoundContext
from perudo.rules.registry import check_component
from perudo.simulate import simulate
from perudo.study import run_study


@attrs.frozen
class MatchThrice(QuantityOrFace):
    """Match the standing bid, until it has been placed three times; or raise it."""

    kind: ClassVar[str] = "test-match-thrice"
    times_per_bid: ClassVar[int | None] = 3

    def lowest(self, face: int, context: RoundContext) -> int | None:
        standing = context.bid
        assert standing is not None
        placed = sum(1 for p in context.bids if p.bid == standing)
        if face == standing.face and placed < 3:
            return standing.quantity
        return super().lowest(face, context)


@attrs.frozen
class MatchForever(QuantityOrFace):
    """Match the standing bid, as often as you like; or raise it."""

    kind: ClassVar[str] = "test-match-forever"
    times_per_bid: ClassVar[int | None] = None
    standing_bid_only: ClassVar[bool] = True

    def lowest(self, face: int, context: RoundContext) -> int | None:
        standing = context.bid
        assert standing is not None
        return standing.quantity if face == standing.face else super().lowest(face, context)


@attrs.frozen
class MatchUntold(MatchForever):
    """Match the standing bid as often as you like, while saying a bid never comes back."""

    kind: ClassVar[str] = "test-match-untold"
    times_per_bid: ClassVar[int | None] = 1


@pytest.fixture
def kinds() -> Iterator[None]:
    with registered(MatchThrice, MatchForever, MatchUntold):
        yield


def edition(kind: str, *, cap: bool = True) -> perudo.Variant:
    changes = {"raising": {"kind": kind}, "cap": {"kind": "dice-in-play" if cap else "none"}}
    return perudo.load_variant("italian").derive(f"it-{kind}", reason="Test.", **changes)


def bid_again(state: perudo.GameState, bid: Bid, times: int) -> perudo.GameState:
    """``state`` after ``bid`` is placed ``times`` times in a row."""
    for _ in range(times):
        state = state.apply(bid)
    return state


def test_a_bid_placed_again_by_one_seat_is_two_entries(kinds: None) -> None:
    state = perudo.new_game(edition("test-match-thrice"), 2, seed=3, first_player=0)
    encoding = observation_encoding(state.variant, 2)
    assert encoding.field("bids").length == 3 * encoding.actions.bid_count * 2
    for _ in range(3):
        state = state.apply(Bid(2, 3))
        for seat in (0, 1):
            view = state.view(seat)
            assert encoding.decode(encoding.encode(view)) == view
    assert [(p.player, p.bid) for p in state.bids] == [
        (0, Bid(2, 3)),
        (1, Bid(2, 3)),
        (0, Bid(2, 3)),
    ]
    assert not state.is_legal(Bid(2, 3))  # placed three times: the order's own bound


def test_an_order_without_a_limit_has_no_observation(kinds: None) -> None:
    with pytest.raises(EncodingError, match=r"'it-test-match-forever' has no observation .*"
                       r"raising:test-match-forever.*times_per_bid is None"):  # fmt: skip
        observation_encoding(edition("test-match-forever"), 3)


def test_the_engine_stops_a_round_that_never_ends(kinds: None) -> None:
    state = perudo.new_game(edition("test-match-forever"), 2, seed=1, first_player=0)
    assert state.dice_in_play == 10  # 6 faces x 10 quantities: 60 different bids
    state = bid_again(state, Bid(2, 3), 60)
    with pytest.raises(InvalidVariantError) as caught:
        state.apply(Bid(2, 3))
    assert str(caught.value) == (
        "round 1 of 'it-test-match-forever' never ends: 61 bids, more than the 60 different "
        "bids of at most 10 dice, and its raise order (raising:test-match-forever) lets a bid "
        "come back without limit (times_per_bid is None)"
    )


def test_an_uncapped_round_counts_up_to_its_highest_bid(kinds: None) -> None:
    state = perudo.new_game(edition("test-match-forever", cap=False), 2, seed=1, first_player=0)
    state = bid_again(state, Bid(30, 3), 6 * 30)  # above the 10 dice in play: no cap
    with pytest.raises(InvalidVariantError, match="more than the 180 different bids of at most 30"):
        state.apply(Bid(30, 3))


def test_an_order_that_says_no_bid_comes_back_and_does_is_caught(kinds: None) -> None:
    variant = edition("test-match-untold")
    state = perudo.new_game(variant, 2, seed=1, first_player=0)
    encoding = observation_encoding(variant, 2)
    state = state.apply(Bid(2, 3)).apply(Bid(2, 3)).apply(Bid(2, 3))
    with pytest.raises(EncodingError, match=r"2x3 placed 2 times by one seat .*test-match-untold"):
        encoding.encode(state.view(0))
    state = bid_again(state, Bid(2, 3), 57)  # 60 bids: the 60 different bids at the table
    with pytest.raises(InvalidVariantError, match=r"raising:test-match-untold .* broke its"):
        state.apply(Bid(2, 3))


RUNS = {
    "simulate": lambda variant: simulate(variant, 3, 20, bots=["odds"], seed=1),
    "study": lambda variant: run_study([variant], [3], 20, seed=1),
}


@pytest.mark.parametrize("run", RUNS)
def test_simulations_stop_with_the_edition_and_the_round(kinds: None, run: str) -> None:
    variant = edition("test-match-forever")
    with pytest.raises(InvalidVariantError, match=r"round \d+ of 'it-test-match-forever' never"):
        RUNS[run](variant)


def test_adapters_refuse_an_edition_without_a_bound(kinds: None) -> None:
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
    from perudo.interop.pettingzoo import env as pettingzoo_env

    with pytest.raises(EncodingError, match="has no observation"):
        pettingzoo_env(edition("test-match-forever"), players=3)


@pytest.mark.parametrize(
    ("times", "ok"), [(1, True), (5, True), (None, True), (0, False), (True, False), ("2", False)]
)
def test_the_registry_checks_times_per_bid(times: object, ok: bool) -> None:
    @attrs.frozen
    class Told(QuantityOrFace):
        """Raise the quantity or the face."""

        kind: ClassVar[str] = "test-told"

    Told.times_per_bid = times  # type: ignore[assignment,misc]
    words = perudo.load_variant("italian").words
    if ok:
        check_component(Told(), words, 5)
    else:
        with pytest.raises(InvalidVariantError, match="times_per_bid returned"):
            check_component(Told(), words, 5)


def test_the_registry_checks_a_claim_to_read_the_standing_bid_alone() -> None:
    @attrs.frozen
    class ReadsTheSeats(QuantityOrFace):
        """Raise by the number of seats."""

        kind: ClassVar[str] = "test-reads-seats"
        standing_bid_only: ClassVar[bool] = True

        def lowest(self, face: int, context: RoundContext) -> int | None:
            return len(context.dice) + face

    words = perudo.load_variant("italian").words
    with pytest.raises(InvalidVariantError, match=r"standing_bid_only .* returned False"):
        check_component(ReadsTheSeats(), words, 5)
    del ReadsTheSeats.standing_bid_only  # without the claim, it may read what it likes
    check_component(ReadsTheSeats(), words, 5)


def test_a_table_stops_a_game_whose_round_never_ends_and_says_why(
    kinds: None, tmp_path: Path
) -> None:
    from perudo.web import Table, TableSetup, TableStore

    variant = edition("test-match-forever")
    store = TableStore(tmp_path / "perudo.sqlite")
    setup = TableSetup(variant=variant.key, bots=(None, None), timeout=3600.0, seed=1)
    table = Table.create(store, bytes(32), "t1", setup, variant)
    table.join("Ana")
    table.join("Ben")
    seat = table.to_act
    assert seat is not None
    refusal = None
    for _ in range(100):
        refusal = table.play(seat, "2x3")
        if refusal is not None:
            break
        seat = 1 - seat
    assert refusal is not None
    assert "this game was stopped: round 1 of" in str(refusal)
    message = table.message(0)
    assert message["stopped"].startswith("round 1 of 'it-test-match-forever' never ends")
    assert table.closed is not None
    assert [row.id for row in store.tables()] == []  # out of play, kept closed
    assert table.play(seat, "dudo") is not None  # nothing more is played
