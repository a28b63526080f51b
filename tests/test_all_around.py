"""A challenge that does not end the round: a bid stands until every other player has
challenged it ("challenged all around", Liar's poker as a published encyclopedia entry
gives it), each player still free to raise it; and how every part of perudo plays it."""

from __future__ import annotations

import pytest
from helpers import check_random_games, game, play

import perudo
from perudo import Bid, Calza, Dudo, IllegalActionError
from perudo.encoding import observation_encoding

EDITION = perudo.load_variant("italian").derive(
    "italian-all-around", reason="Liar's poker's challenge and payments.",
    words={"dudo": "Liar", "special_round": None}, special_round={"kind": "none"},
    challenge={"kind": "all-around"},
    scoring={"kind": "bidder-against-all", "rounds": 1, "points": 1},
)  # fmt: skip
HANDS = [[5, 5, 2, 3, 4], [2, 2, 3, 4, 6], [1, 3, 4, 5, 6], [1, 1, 2, 3, 4]]  # six 5s with ones


def test_a_challenge_leaves_the_bid_standing_until_every_other_player_makes_it() -> None:
    state = play(game(EDITION, HANDS), "3x5", "dudo")
    assert (state.claim, state.to_act, state.bid, state.bidder) == ("doubt", 2, Bid(3, 5), 0)
    assert state.last_result is None
    assert "Player 2 Liar (3x5 stands)" in state.view(2).draw()
    raised = state.apply(Bid(4, 5))  # "The next player can bid a higher number"
    assert (raised.claim, raised.bidder, raised.to_act) == ("bid", 2, 3)
    ended = play(state, "dudo", "dudo")  # players 3 and 4 challenge too: all around
    result = ended.last_result
    assert result is not None
    assert (result.caller, result.bidder, result.count, result.bid) == (3, 0, 6, Bid(3, 5))
    # "If the bid is successful, he wins a dollar from each of the other players"
    assert result.points == (3, -1, -1, -1)
    assert ended.is_over
    assert ended.winners == (0,)


def test_a_raise_starts_the_challenges_again() -> None:
    state = play(game(EDITION, HANDS), "3x5", "dudo", "dudo", "9x5")  # seat 3 raises
    assert state.claim == "bid"
    ended = play(state, "dudo", "dudo", "dudo")  # seats 0, 1, 2 challenge 9x5
    result = ended.last_result
    assert result is not None
    # "if the bid is unsuccessful, he loses a dollar to each of the other players"
    assert (result.bidder, result.points) == (3, (1, 1, 1, -3))


def test_what_a_doubt_leaves_open() -> None:
    calza = perudo.load_variant("french-calza").derive(
        "calza-all-around", reason="t", challenge={"kind": "all-around"}
    )
    state = play(game(calza, HANDS), "3x5", "dudo")
    with pytest.raises(IllegalActionError, match="a doubt stands"):
        state.apply(Calza())
    called = play(game(calza, HANDS), "3x5", "calza")  # a Calza on the bid still ends the round
    assert called.last_result is not None
    assert called.last_result.call == "exact"
    assert (called.claim, called.round_number) == (None, 2)
    bursting = EDITION.derive(
        "all-around-burst", reason="t", turns={"kind": "burst", "bid": True, "challenge": True}
    )
    doubted = play(game(bursting, HANDS), "3x5", "dudo")
    with pytest.raises(IllegalActionError) as again:
        doubted.apply(Dudo(), by=1)  # seat 1 challenged already
    assert again.value.reason == "already-challenged"
    with pytest.raises(perudo.InvalidVariantError, match="no pressure"):
        perudo.load_variant("wango-party").derive(
            "party-all-around", reason="t", challenge={"kind": "all-around"}
        )


def test_two_players_challenge_once() -> None:
    ended = play(game(EDITION, HANDS[:2]), "3x5", "dudo")
    assert ended.last_result is not None
    assert ended.last_result.points == (-1, 1)  # two 5s, no one: 3x5 fails


def test_doubts_are_kept_by_records_and_observations() -> None:
    encoding = observation_encoding(EDITION, 4)
    assert encoding.field("doubts").length == encoding.field("bids").length
    check_random_games(EDITION, 4, seeds=20)
    mid = play(game(EDITION, HANDS), "3x5", "dudo")
    saved = perudo.record.state_to_dict(mid)
    assert saved["position"]["bids"][1] == {"player": 1, "bid": "3x5", "claim": "doubt"}
    assert perudo.record.state_from_dict(saved, variant=EDITION) == mid
