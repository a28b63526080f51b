"""The claims axis: what a bid names. A quantity of a face (perudo's bids, the axis left
out), or a hand of the edition's own ladder (Mia's values), ranked and judged by its kind."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import ClassVar

import attrs
import pytest

import perudo
from perudo import HandBid, PlacedBid
from perudo.rules import MiaValues, PokerHands, QuantityOfFace, count_for_bid

WORDS = perudo.Words(dudo="Liar")


@pytest.mark.parametrize(
    ("kind", "dice", "rank"),
    [
        # Mia: "the higher value is multiplied by ten and summed up with the lower value (so,
        # when the result of the two dice is 1 and 6, the correct value is 61, while 16 is
        # invalid)"; "31 ... 65, 11 ... 66, 21" from lowest to highest
        (MiaValues(), (3, 1), 1),
        (MiaValues(), (1, 3), 1),
        (MiaValues(), (1, 6), 10),  # 61
        (MiaValues(), (6, 5), 14),
        (MiaValues(), (1, 1), 15),  # the lowest double beats 65
        (MiaValues(), (6, 6), 20),
        (MiaValues(), (1, 2), 21),  # Mia
        (MiaValues(), (1, 2, 3), 0),  # not a hand of two dice
        (QuantityOfFace(), (3, 1), 0),  # no hands at all
    ],
)
def test_the_rank_of_the_dice_shown(
    kind: MiaValues | QuantityOfFace, dice: tuple[int, ...], rank: int
) -> None:
    assert kind.rank(dice) == rank


def test_the_ladder_and_its_names() -> None:
    mia = MiaValues()
    ladder = mia.ladder(2, 6)
    assert ladder is not None
    assert [mia.hand_name(hand, WORDS) for hand in ladder[13:16]] == ["65", "11", "22"]
    assert mia.hand_name((2, 1), WORDS) == "Mia"
    assert all(mia.rank(hand) == rank for rank, hand in enumerate(ladder, 1))
    assert QuantityOfFace().ladder(5, 6) is None  # bids are quantities of a face
    with pytest.raises(perudo.InvalidVariantError, match="two dice of six faces"):
        mia.ladder(5, 6)
    assert (mia.stake((2, 1), True), mia.stake((2, 1), False), mia.stake((6, 6), True)) == (
        2, 1, 1,
    )  # fmt: skip


def test_a_challenge_counts_the_rank_the_dice_shown_make() -> None:
    """ "If the value expressed by the previous player was exactly or lower than the value
    shown by the dice, it is okay" (games-wiki's Mia): a count at least the bid's rank."""
    mia = perudo.load_variant("mia")
    round_one = mia.round_one((2, 2))
    standing = attrs.evolve(round_one, bids=(PlacedBid(0, HandBid((6, 5))),))
    assert count_for_bid([(5, 6)], standing) == 14  # exactly 65: it holds
    assert count_for_bid([(4, 5)], standing) == 9  # 54: it does not
    italian = perudo.load_variant("italian").round_one((5, 5))
    quantity = attrs.evolve(italian, bids=(PlacedBid(0, perudo.Bid(2, 5)),))
    assert count_for_bid([(5, 5, 1, 2, 3)], quantity) == 3  # a face, with the wild ones


def test_left_out_bids_name_a_quantity_of_a_face() -> None:
    italian = perudo.load_variant("italian")
    assert italian.claims == QuantityOfFace()
    assert italian.hand_bids == ()
    assert "claims" not in italian.to_dict()  # its fingerprint stays as it was
    assert italian.fingerprint == "sha256:9874e9057c37ea6c"


def test_a_kind_that_breaks_the_protocol_is_named() -> None:
    from helpers import registered

    @attrs.frozen
    class Repeated(MiaValues):
        """Names one hand twice."""

        kind = "repeated"  # type: ignore[misc]

        def ladder(self, dice: int, faces: int) -> tuple[tuple[int, ...], ...] | None:
            return ((2, 1), (2, 1))

    with registered(Repeated):
        perudo.rules.register_kind(Repeated)
        with pytest.raises(perudo.InvalidVariantError, match="claims:repeated"):
            perudo.load_variant("mia").derive(
                "mia-repeated", reason="t", claims={"kind": "repeated"}
            )


@attrs.frozen
class ThreeFaced:
    """Two dice of three faces, judged as Mia judges two dice: the mixed values, then the
    doubles (a kind of one's own, small enough to solve)."""

    axis: ClassVar[str] = "claims"
    kind: ClassVar[str] = "three-faced"

    def ladder(self, dice: int, faces: int) -> tuple[tuple[int, ...], ...] | None:
        return ((2, 1), (3, 1), (3, 2), (1, 1), (2, 2), (3, 3))

    def hand_name(self, hand: tuple[int, ...], words: perudo.Words) -> str:
        return "".join(map(str, hand))

    def rank(self, dice: Sequence[int]) -> int:
        hand = tuple(sorted(dice, reverse=True))
        ladder = self.ladder(2, 3) or ()
        return ladder.index(hand) + 1 if hand in ladder else 0

    def describe(self, words: perudo.Words, dice: int) -> str:
        return "Two dice of three faces."

    def label(self, words: perudo.Words) -> str:
        return "3-faced"


def test_a_round_of_hand_bids_solves_as_any_other() -> None:
    """A hand bid is one more node of the round: the solver walks it and proves the value
    (a regression value: the solution's own best responses certify it)."""
    pytest.importorskip("scipy", reason="the solve extra is not installed")
    from helpers import registered

    from perudo.solve import solve_round

    with registered(ThreeFaced):
        perudo.rules.register_kind(ThreeFaced)
        tiny = perudo.load_variant("mia").derive(
            "mia-three-faced", reason="t", dice={"kind": "standard", "per_player": 2, "faces": 3},
            claims={"kind": "three-faced"}, actions={"kind": "none"},
            exact_call={"kind": "none"}, words={"calza": None},
        )  # fmt: skip
        solution = solve_round(tiny, (2, 2))
    assert solution.value == Fraction(-11, 27)
    assert solution.exact


POKER = PokerHands((1, 2, 3, 4, 5, 6))


@pytest.mark.parametrize(
    ("lower", "higher"),
    [
        # "'Hands' are ranked as follows from lowest to highest: One Pair, Two Pair, Three of
        # a kind, Straight - low (1,2,3,4,5), Straight - high (2,3,4,5,6), Full house (Three
        # of a kind and One pair), Four of a kind, Five of a kind" (howtodothings.com)
        ((6, 6), (2, 2, 1, 1)),
        ((6, 6, 5, 5), (1, 1, 1)),
        ((6, 6, 6), (5, 4, 3, 2, 1)),
        ((5, 4, 3, 2, 1), (6, 5, 4, 3, 2)),
        ((6, 5, 4, 3, 2), (2, 2, 1, 1, 1)),
        ((6, 6, 6, 5, 5), (1, 1, 1, 1)),  # a full house below four of a kind
        ((6, 6, 6, 6), (1, 1, 1, 1, 1)),
        # "If the first player, for example, called four 5's, then the next player must have
        # four 6's or five of a kind."
        ((5, 5, 5, 5), (6, 6, 6, 6)),
        ((5, 5, 5, 5), (2, 2, 2, 2, 2)),
    ],
)
def test_poker_hands_rank_as_the_source_lists_them(
    lower: tuple[int, ...], higher: tuple[int, ...]
) -> None:
    ladder = POKER.ladder(5, 6)
    assert ladder is not None
    assert ladder.index(tuple(sorted(lower, reverse=True))) < ladder.index(higher)


def test_a_poker_hand_shown_holds_any_lower_claim() -> None:
    """ "the hand in the box has to be at least as good as the claim, but not an exact match
    (e.g. a full house is a valid hand to claim as "a pair")" (CUTwC, "Liar Dice")."""
    ladder = POKER.ladder(5, 6)
    assert ladder is not None
    shown = POKER.rank((5, 2, 5, 2, 5))  # a full house, 5s on 2s
    assert ladder[shown - 1] == (5, 5, 5, 2, 2)
    assert shown >= ladder.index((5, 5)) + 1
    assert shown >= ladder.index((2, 2)) + 1
    assert POKER.rank((1, 3, 6, 4, 2)) == 0  # nothing: no claim holds
    assert POKER.hand_name((6, 6, 6, 6), perudo.Words(dudo="Liar", ones="aces")) == "four 6s"
    assert POKER.hand_name((3, 3, 1, 1), perudo.Words(dudo="Liar", ones="aces")) == (
        "two pair, 3s and aces"
    )
    with pytest.raises(perudo.InvalidVariantError, match="poker-hands"):
        POKER.ladder(5, 4)  # the order names faces the dice lack


def test_an_edition_of_poker_hands_plays_through() -> None:
    """Each player's own five dice, rolled afresh before each bid, a bid a poker hand of
    them (the how-to page's game without its draws): every part reads it back."""
    poker = perudo.load_variant("mia").derive(
        "poker-hands", reason="t", dice={"kind": "standard", "per_player": 5},
        claims={"kind": "poker-hands", "order": [1, 2, 3, 4, 5, 6]},
        exact_call={"kind": "none"}, words={"calza": None},
    )  # fmt: skip
    assert len(poker.hand_bids) == 71
    assert perudo.parse_action("Full house, 5s on 2s", variant=poker) == HandBid((5, 5, 5, 2, 2))
    state = perudo.new_game(
        poker, 2, seed=1, dice=[[5, 5, 5, 2, 2], [1, 2, 3, 4, 6]], first_player=0
    )
    state = state.apply(HandBid((5, 5, 5, 5)))  # a lie: four 5s on a full house
    caught = state.apply(perudo.Dudo()).last_result
    assert caught is not None
    assert caught.loser == 0
    assert "the dice shown make full house, 5s on 2s" in str(caught)
    from helpers import check_random_games

    check_random_games(poker, 3, 3)


@attrs.frozen
class EvenQuantities:
    """Quantities of a face, even ones alone: two, four or six of a face, by quantity then
    face (a claim order where some quantities of a face are not claims at all), judged
    apart: the dice shown hold "four 5s" when four or more show a 5."""

    axis: ClassVar[str] = "claims"
    kind: ClassVar[str] = "even-quantities"

    def ladder(self, dice: int, faces: int) -> tuple[tuple[int, ...], ...] | None:
        return tuple((face,) * quantity for quantity in (2, 4, 6) for face in range(1, faces + 1))

    def hand_name(self, hand: tuple[int, ...], words: perudo.Words) -> str:
        return words.counted(len(hand), hand[0])

    def rank(self, dice: Sequence[int]) -> int:
        return 0  # never asked: each claim is judged apart

    def holds(self, hand: tuple[int, ...], dice: Sequence[int]) -> bool:
        return list(dice).count(hand[0]) >= len(hand)

    def describe(self, words: perudo.Words, dice: int) -> str:
        return "Two, four or six of a face."

    def label(self, words: perudo.Words) -> str:
        return "even qty"


def test_an_order_with_quantities_left_out_is_declarable() -> None:
    """A claim order where some quantities of a face are not claims at all, and a claim of
    it need not hold when a higher one does ("two 6s" holds, "four 1s" above it does not,
    "two 1s" below it does), judged claim by claim; played through every encoding and
    record."""
    from helpers import check_random_games, registered

    with registered(EvenQuantities):
        perudo.rules.register_kind(EvenQuantities)
        even = perudo.load_variant("mia").derive(
            "even-quantities", reason="t", dice={"kind": "standard", "per_player": 3},
            claims={"kind": "even-quantities"}, challenge={"kind": "dudo", "reveal": "all"},
            actions={"kind": "none"}, exact_call={"kind": "none"}, words={"calza": None},
        )  # fmt: skip
        assert even.round_rules().judged_apart
        assert perudo.parse_action("4 5s", variant=even) == HandBid((5, 5, 5, 5))
        state = perudo.new_game(even, 2, seed=2, dice=[[6, 6, 1], [1, 2, 3]], first_player=0)
        assert HandBid((6, 6, 6)) not in state.legal_actions()  # three of a face: no claim
        for claim, held in (((6, 6), True), ((1, 1, 1, 1), False), ((1, 1), True)):
            result = state.apply(HandBid(claim)).apply(perudo.Dudo()).last_result
            assert result is not None
            assert (result.count, result.loser) == (int(held), 1 if held else 0)
            assert ("do not hold it" in str(result)) is not held
        check_random_games(even, 2, 3)
