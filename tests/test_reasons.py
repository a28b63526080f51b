"""Every documented reason code is produced by a real refusal, and no refusal uses another."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from helpers import game, play

import perudo
from perudo import Act, Bid, Calza, Declare, Dudo, HandBid, IllegalActionError, OutOfTime, Paso

FIVE = [2, 3, 4, 5, 5]


def bluff() -> perudo.GameState:
    """Bluff, seat 0 to bid first, seat 1 holding 2 3 4 5 5."""
    return game("bluff", [FIVE, FIVE, FIVE])


def rerolling() -> perudo.Variant:
    """Italian with the re-roll said together with a bid (Wikipedia's common hand)."""
    return perudo.load_variant("italian").derive(
        "italian-reroll", reason="t", actions={"kind": "reroll-then-bid"}
    )


def all_around() -> perudo.Variant:
    """Italian whose bid stands until challenged all around, with bursts."""
    return perudo.load_variant("italian").derive(
        "italian-all-around", reason="t", challenge={"kind": "all-around"},
        turns={"kind": "burst", "bid": True, "challenge": True},
    )  # fmt: skip


def passing() -> perudo.Variant:
    """Italian with a pass (no two dice alike, once a round)."""
    return perudo.load_variant("italian").derive(
        "italian-paso",
        reason="t",
        words={"paso": "Paso"},
        passes={"kind": "no-pair", "per_round": 1},
    )


MIA = [[5, 4], [6, 6]]


def drawing() -> perudo.Variant:
    """Poker hands on five dice each, one draw before each bid (howtodothings' game)."""
    return perudo.load_variant("mia").derive(
        "poker-one-draw", reason="t", dice={"kind": "standard", "per_player": 5},
        claims={"kind": "poker-hands", "order": [1, 2, 3, 4, 5, 6]},
        actions={"kind": "roll-and-draw", "draws": 1},
        exact_call={"kind": "none"}, words={"calza": None},
    )  # fmt: skip


def italian_two_player_choice() -> perudo.GameState:
    return play(game("italian", [FIVE, [2, 3]], first=1), "9x6", "dudo")


SCENARIOS: dict[str, Callable[[], object]] = {
    "malformed-action": lambda: Bid(0, 3),
    "unknown-seat": lambda: game("italian", [FIVE, FIVE]).apply(Bid(1, 2), by=9),
    "game-over": lambda: play(game("italian", [[2], [3]]), "5x6", "dudo").apply(Bid(1, 2)),
    "not-your-turn": lambda: game("italian", [FIVE, FIVE]).apply(Bid(1, 2), by=1),
    "player-out": lambda: play(
        game("french-jonti", [FIVE, [2], FIVE, FIVE], first=1), "9x6", "dudo", "2x3"
    ).apply(Calza(), by=1),
    "no-such-face": lambda: game("italian", [FIVE, FIVE]).apply(Bid(2, 7)),
    "bid-too-low": lambda: play(game("italian", [FIVE, FIVE]), "8x3").apply(Bid(8, 2)),
    "face-lowered": lambda: play(game("spanish", [FIVE, FIVE]), "3x3").apply(Bid(4, 2)),
    "face-locked": lambda: play(
        game("french-calza", [FIVE, [2, 3], FIVE], first=1), "9x6", "dudo", "2x4"
    ).apply(Bid(2, 5)),
    "ones-on-opening": lambda: game("italian", [FIVE, FIVE]).apply(Bid(1, 1)),
    "must-open-on-ones": lambda: play(
        game("spanish", [FIVE, [2, 3], FIVE], first=1), "9x6", "dudo"
    ).apply(Bid(2, 3)),
    "opening-too-low": lambda: game(
        perudo.load_variant("italian").derive(
            "italian-players-in", reason="t", opening={"kind": "players-in", "ones": "forbidden"}
        ),
        [FIVE, FIVE, FIVE],
    ).apply(Bid(2, 3)),
    "above-cap": lambda: game("wango", [FIVE, FIVE]).apply(Bid(11, 2)),
    "nothing-to-challenge": lambda: game("italian", [FIVE, FIVE]).apply(Dudo()),
    "declaration-required": lambda: italian_two_player_choice().apply(Bid(1, 2)),
    "declaration-not-offered": lambda: game("italian", [FIVE, FIVE]).apply(Declare("palifico")),
    "no-exact-call": lambda: play(game("italian", [FIVE, FIVE]), "2x3").apply(Calza()),
    "no-pass": lambda: play(game("italian", [FIVE, FIVE]), "2x3").apply(Paso()),
    "no-forfeit": lambda: play(game("italian", [FIVE, FIVE]), "2x3").apply(OutOfTime()),
    "already-challenged": lambda: play(game(all_around(), [FIVE, FIVE, FIVE]), "2x3", "dudo").apply(
        Dudo(), by=1
    ),
    "bid-required": lambda: (
        game(rerolling(), [FIVE, FIVE]).apply(Act("reroll", (2,))).apply(Dudo())
    ),
    "no-bid-left": lambda: play(game(rerolling(), [FIVE, FIVE]), "2x3", "10x1").apply(
        Act("reroll", (2,))
    ),
    "values-differ": lambda: game(rerolling(), [FIVE, FIVE]).apply(Act("reroll", (2, 3))),
    "act-first": lambda: play(game("mia", MIA), "5-4").apply(HandBid((6, 6))),
    "nothing-to-raise": lambda: game("mia", MIA).apply(Act("roll")),
    "already-rolled": lambda: play(game("mia", MIA), "5-4").apply(Act("roll")).apply(Act("roll")),
    "draws-used-up": lambda: (
        game(drawing(), [FIVE, FIVE]).apply(Act("draw", (2,))).apply(Act("draw", (3,)))
    ),
    "bid-names-a-hand": lambda: game("mia", MIA).apply(Bid(2, 5)),
    "no-hand-bids": lambda: game("italian", [FIVE, FIVE]).apply(HandBid((6, 5))),
    "not-a-hand-bid": lambda: game("mia", MIA).apply(HandBid((4, 4, 4))),
    "pass-not-allowed": lambda: game(passing(), [FIVE, FIVE]).apply(Paso()),
    "exact-call-not-allowed": lambda: play(game("french-jonti", [[2, 3], FIVE, FIVE]), "2x3").apply(
        Calza(), by=0
    ),
    "no-pressure": lambda: game("italian", [FIVE, FIVE]).apply(Bid(1, 2, pressure=True)),
    "no-such-action": lambda: play(bluff(), "2x3").apply(Act("peek"), by=0),
    "not-the-bidder": lambda: play(bluff(), "2x3").apply(Act("reroll", (5,)), by=2),
    "too-late": lambda: play(bluff(), "2x3", "3x3").apply(Act("reroll", (5,)), by=0),
    "already-rerolled": lambda: play(bluff(), "2x3", "reroll 5@0").apply(Act("reroll", (2,)), by=0),
    "nothing-put-out": lambda: play(bluff(), "2x3").apply(Act("reroll"), by=0),
    "die-not-held": lambda: play(bluff(), "2x3").apply(Act("reroll", (6,)), by=0),
    "nothing-to-reroll": lambda: play(bluff(), "2x3").apply(Act("reroll", tuple(FIVE)), by=0),
    "pressure-used-up": lambda: play(
        game("wango-party", [FIVE, FIVE]), "1x2!", "1x3", "1x4!", "1x5"
    ).apply(Bid(1, 6, pressure=True)),
}


def test_every_reason_has_a_scenario() -> None:
    assert set(SCENARIOS) == set(perudo.REASONS)


@pytest.mark.parametrize("reason", sorted(SCENARIOS))
def test_reason(reason: str) -> None:
    with pytest.raises(IllegalActionError) as caught:
        SCENARIOS[reason]()
    assert caught.value.reason == reason
    assert str(caught.value)
