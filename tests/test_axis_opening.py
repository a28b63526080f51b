"""The opening axis: which bids may open a round (the faces, and each face's lowest
quantity), as the legality check and the list of legal bids read it."""

from __future__ import annotations

from typing import ClassVar

import attrs
import pytest
from helpers import ITALIAN_RULES, act, context

import perudo
from perudo.rules import (
    Opening,
    OpeningAtLeast,
    OpeningPlayersIn,
    RoundContext,
    Violation,
    Words,
    register_kind,
)
from perudo.rules.bidding import check_bid, lowest_quantities


def _lows(opening: object, dice: tuple[int, ...] = (5, 5, 5)) -> tuple[int | None, ...]:
    rules = attrs.evolve(ITALIAN_RULES, opening=opening)
    return lowest_quantities(rules, None, lambda: context(dice, rules=rules), False)


def _why(opening: object, bid: str, dice: tuple[int, ...] = (5, 5, 5)) -> str | None:
    rules = attrs.evolve(ITALIAN_RULES, opening=opening)
    top = sum(dice)
    violation = check_bid(rules, None, lambda: context(dice, rules=rules), act(bid), 0, top)  # type: ignore[arg-type]
    return None if violation is None else violation.reason


@pytest.mark.parametrize(
    ("opening", "dice", "lows"),
    [
        (Opening("forbidden"), (5, 5, 5), (None, None, 1, 1, 1, 1, 1)),
        (Opening("allowed"), (5, 5, 5), (None, 1, 1, 1, 1, 1, 1)),
        (Opening("required"), (5, 5, 5), (None, 1, None, None, None, None, None)),
        # "at least two": no "one 3" to open with
        (OpeningAtLeast("forbidden", 2), (5, 5, 5), (None, None, 2, 2, 2, 2, 2)),
        (OpeningAtLeast("allowed", 4), (5, 5, 5), (None, 4, 4, 4, 4, 4, 4)),
        # never above the dice in play: two seats of one die open at two
        (OpeningAtLeast("forbidden", 4), (1, 1), (None, None, 2, 2, 2, 2, 2)),
        # one die for each player still in (a seat out counts for nothing)
        (OpeningPlayersIn("forbidden"), (5, 5, 5), (None, None, 3, 3, 3, 3, 3)),
        (OpeningPlayersIn("required"), (2, 0, 3, 1), (None, 3, None, None, None, None, None)),
    ],
)
def test_the_bids_that_may_open(
    opening: object, dice: tuple[int, ...], lows: tuple[int | None, ...]
) -> None:
    assert _lows(opening, dice) == lows


@pytest.mark.parametrize(
    ("opening", "bid", "reason"),
    [
        (Opening("forbidden"), "1x1", "ones-on-opening"),
        (Opening("allowed"), "1x1", None),
        (Opening("required"), "1x3", "must-open-on-ones"),
        (Opening("required"), "1x1", None),
        (OpeningAtLeast("forbidden", 2), "1x3", "opening-too-low"),
        (OpeningAtLeast("forbidden", 2), "2x1", "ones-on-opening"),
        (OpeningAtLeast("forbidden", 2), "2x3", None),
        (OpeningPlayersIn("allowed"), "2x1", "opening-too-low"),
        (OpeningPlayersIn("allowed"), "3x1", None),
    ],
)
def test_a_bid_that_does_not_open_says_why(opening: object, bid: str, reason: str | None) -> None:
    assert _why(opening, bid) == reason


def test_the_sentence_says_how_many_dice_open() -> None:
    rules = attrs.evolve(ITALIAN_RULES, opening=OpeningPlayersIn("forbidden"))
    why = check_bid(rules, None, lambda: context((5, 5, 5, 5), rules=rules), act("3x4"), 0, 20)  # type: ignore[arg-type]
    assert why is not None
    assert why.message == (
        "3x4: the opening bid names at least 4 dice (one for each of the 4 players still in)"
    )


def test_a_face_the_dice_lack_is_refused_first() -> None:
    why = check_bid(ITALIAN_RULES, None, context, act("2x7"), 0, 15)  # type: ignore[arg-type]
    assert why is not None
    assert why.reason == "no-such-face"


def test_a_game_opens_where_its_opening_says() -> None:
    italian = perudo.load_variant("italian")
    edition = italian.derive(
        "italian-players-in", reason="a table that opens at one die a player",
        opening={"kind": "players-in", "ones": "forbidden"},
    )  # fmt: skip
    state = perudo.new_game(edition, 4, seed=3, first_player=0)
    assert min(bid.quantity for bid in state.legal_actions()) == 4
    with pytest.raises(perudo.IllegalActionError) as refused:
        state.apply(perudo.Bid(3, 5))
    assert refused.value.reason == "opening-too-low"
    after = state.apply(perudo.Bid(4, 5))
    assert perudo.Bid(4, 6) in after.legal_actions()  # later bids raise as before


def test_the_special_round_keeps_the_opening_and_sets_its_ones() -> None:
    """Palifico (Italian) forbids ones at its opening; an edition that opens at two dice
    still opens at two in its Palifico round, ones as Palifico says."""
    edition = perudo.load_variant("spanish").derive(
        "spanish-at-least-two", reason="opens at two dice",
        opening={"kind": "at-least", "ones": "forbidden", "quantity": 2},
    )  # fmt: skip
    rules = edition.special_round.transform(edition.round_rules(), 0, context((1, 5)))
    assert rules.opening == OpeningAtLeast("required", 2)
    assert lowest_quantities(rules, None, lambda: context((1, 5), rules=rules), False) == (
        None, 2, None, None, None, None, None,
    )  # fmt: skip


@attrs.frozen
class _OpensOnSixes:
    """Only sixes open (a kind with no ones setting)."""

    axis: ClassVar[str] = "opening"
    kind: ClassVar[str] = "test-sixes"
    standing_bid_only: ClassVar[bool] = True

    def lowest(self, face: int, context: RoundContext) -> int | None:
        return 1 if face == 6 else None

    def explain(self, bid: perudo.Bid, context: RoundContext) -> Violation:
        return Violation("opening-too-low", f"{bid}: only sixes open")

    def describe(self, words: Words, dice: int) -> str:
        return "Only sixes open."

    def label(self, words: Words) -> str:
        return "6s"


def test_an_opening_kind_of_ones_own_plays_and_is_kept_by_face() -> None:
    register_kind(_OpensOnSixes)
    edition = perudo.load_variant("bluff").derive(
        "bluff-sixes", reason="t", opening={"kind": "test-sixes"}
    )
    state = perudo.new_game(edition, 3, seed=1)
    assert {bid.face for bid in state.legal_actions() if isinstance(bid, perudo.Bid)} == {6}
    assert edition.round_rules().opening_by_face


def test_a_special_round_that_sets_ones_needs_an_opening_with_ones() -> None:
    register_kind(_OpensOnSixes)
    refused = "opening:test-sixes has no parameter 'ones'"
    with pytest.raises(perudo.InvalidVariantError, match=refused):
        perudo.load_variant("italian").derive(
            "italian-sixes", reason="t", opening={"kind": "test-sixes"}
        )


@attrs.frozen
class _OpensHigh:
    """Opens at seven dice of any face: more than some tables hold."""

    axis: ClassVar[str] = "opening"
    kind: ClassVar[str] = "test-high"

    def lowest(self, face: int, context: RoundContext) -> int | None:
        return 7 if context.dice_in_play >= 7 else 9

    def explain(self, bid: perudo.Bid, context: RoundContext) -> Violation:
        return Violation("opening-too-low", f"{bid}: seven dice or more")

    def describe(self, words: Words, dice: int) -> str:
        return "Opens at seven dice."

    def label(self, words: Words) -> str:
        return ">=7"


def test_an_opening_above_the_dice_in_play_is_refused_naming_the_kind() -> None:
    register_kind(_OpensHigh)
    edition = perudo.load_variant("bluff").derive(
        "bluff-high", reason="t", opening={"kind": "test-high"}
    )
    assert min(b.quantity for b in perudo.new_game(edition, 2, seed=1).legal_actions()) == 7
    small = perudo.new_game(edition, 2, seed=1, starting_dice=(2, 2))
    with pytest.raises(perudo.InvalidVariantError, match=r"opening:test-high broke its protocol"):
        small.legal_actions()
