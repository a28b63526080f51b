"""Liar's Dice as UO Outlands' wiki gives it: a "Liar!" any player calls at any time, judged
on the bidder's dice alone, and a first player who shifts each round; the shipped
declaration played through the page's own sentences."""

from __future__ import annotations

import pytest
from helpers import check_random_games, game, play

import perudo
from perudo import Bid, Dudo

EDITION = perudo.load_variant("outlands-liars-dice")
HANDS = [[5, 5, 2, 3, 4], [1, 5, 6, 6, 2], [5, 3, 3, 4, 1]]  # seat 0 holds two 5s; four in all


def test_a_bid_raises_the_quantity_or_the_face() -> None:
    """ "a higher total number of dice, or the same number of dice but a different number
    values (i.e. "Two 6s" or "Three 1s")" """
    state = play(game(EDITION, HANDS), "2x5")
    assert state.is_legal(Bid(2, 6))
    assert state.is_legal(Bid(3, 1))
    assert not state.is_legal(Bid(2, 4))


def test_any_player_may_call_liar_at_any_time() -> None:
    """ "At any time, any player (not just who's turn it is) may choose to call the player
    who made the last bid a "Liar!"" """
    state = play(game(EDITION, HANDS), "2x5")  # seat 1 is to act
    assert state.legal_actions(by=2) == (Dudo(),)
    assert state.legal_actions(by=0) == ()  # not on one's own bid
    assert perudo.parse_action("Liar", variant=EDITION) == Dudo()


def test_only_the_bidders_dice_are_shown_and_counted() -> None:
    """ "the last bidding player's Dice are now revealed to everyone. If the accused player
    is found to have less dice at the value claimed in their bid, they are "caught" and
    permanently lose one of their dice [...] If the accused player does actually have the
    number of dice at the value they claimed in their bid, the player making the "Liar!"
    accusation instead loses one of their dice" """
    held = play(game(EDITION, HANDS), "2x5", "dudo@2").last_result  # seat 0 holds two 5s
    assert held is not None
    assert (held.revealed, held.count, held.loser) == ((0,), 2, 2)
    assert held.hands == ((2, 3, 4, 5, 5), None, None)  # every other hand stays hidden
    caught = play(game(EDITION, HANDS), "3x5", "dudo@2").last_result  # four 5s at the table
    assert caught is not None
    assert (caught.count, caught.loser) == (2, 0)  # two in the bidder's hand: caught


def test_the_first_player_shifts() -> None:
    """ "The round is now completed, the first player shifts" (seat 0 opened, seat 1 opens
    next, whoever won)."""
    after = play(game(EDITION, HANDS), "2x5", "dudo")
    assert (after.round_number, after.to_act) == (2, 1)
    again = play(game(EDITION, HANDS), "3x5", "dudo")  # seat 0 lost this time
    assert again.to_act == 1


def test_random_games_play_read_back_and_replay() -> None:
    check_random_games(EDITION, 3, 4)
    check_random_games(EDITION, 2, 4)


def test_the_batch_engine_plays_it_as_gamestate_does() -> None:
    """Challenges out of turn (the burst), the bidder's hand alone shown and counted, and
    the opening passed round the table, on both engines alike, step by step; with bids out
    of turn too (where the batch extra is installed)."""
    pytest.importorskip("numba", reason="the batch extra is not installed")
    from batch_reference import compare

    assert compare(EDITION, 3, 30, seed=2, observe=3) > 60
    bids_too = EDITION.derive(
        "outlands-burst-bids", reason="t", turns={"kind": "burst", "bid": True, "challenge": True}
    )
    assert compare(bids_too, 4, 30, seed=3, observe=3) > 60
