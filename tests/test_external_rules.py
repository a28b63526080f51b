"""Rule sets from outside the sources, declared without editing perudo: worked examples with
chosen hands, then random games whose every call is checked against the rule."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import perudo
from perudo import Bid, Dudo
from perudo.bots import OddsBot, RandomBot
from perudo.encoding import observation_encoding
from perudo.match import choose_move

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def calls(
    edition: perudo.Variant, players: int, games: int, bot: Callable[[int], Any]
) -> Iterator[tuple[perudo.GameState, perudo.Resolution, perudo.GameState]]:
    """Every call of ``games`` seeded games between ``bot(seed)`` players: the state it was
    made in (its hands and bids), its resolution, and the state after it."""
    for seed in range(games):
        state = perudo.new_game(edition, players, seed=seed)
        bots = [bot(seed * 10 + s) for s in range(players)]
        while not state.is_over:
            seat, action = choose_move(state, bots)
            before, state = state, state.apply(action, by=seat)
            result = state.last_result
            if result is not None and result is not before.last_result:
                yield before, result, state


# --- wilds that depend on the bids so far (ones wild until anyone bids on ones) ----------


def ones_until_bid() -> perudo.Variant:
    return perudo.load_variant("wango").derive(
        "wango-ones-until-bid",
        reason="A house rule: ones are wild until anyone bids on ones.",
        wilds={"kind": "until-bid-on", "face": 1},
    )


def test_ones_stop_being_wild_once_bid_on() -> None:
    hands = [[1, 1, 3, 3, 5], [1, 4, 4, 4, 6]]
    state = perudo.new_game(ones_until_bid(), 2, seed=1, dice=hands, first_player=0)
    state = state.apply(Bid(3, 4))
    assert state.context.wild == 1
    assert state.view(1).wild_face == 1
    wild = observation_encoding(state.variant, 2).field("wild")
    assert observation_encoding(state.variant, 2).encode(state.view(1))[wild.start] == 1
    true_with_wilds = state.apply(Dudo()).last_result  # 3 fours + 3 ones
    assert true_with_wilds is not None
    assert (true_with_wilds.count, true_with_wilds.wild) == (6, 1)
    on_ones = state.apply(Bid(2, 1))  # from here, ones count only as ones
    assert on_ones.context.wild is None
    assert on_ones.view(0).wild_face is None
    assert observation_encoding(state.variant, 2).encode(on_ones.view(0))[wild.start] == 0
    assert "Wild now: none" in on_ones.draw()
    later = on_ones.apply(Bid(5, 4)).apply(Dudo())  # three 4s, the ones no longer wild
    result = later.last_result
    assert result is not None
    assert (result.count, result.wild, result.changes) == (3, None, (-1, 0))
    assert "(ones wild)" not in result.describe()


def test_ones_until_bid_random_games_count_as_the_rule_says() -> None:
    checked = 0
    for before, result, _ in calls(ones_until_bid(), 3, 20, lambda seed: OddsBot(seed=seed)):
        ones_bid = any(placed.bid.face == 1 for placed in before.bids)
        face = result.bid.face
        wild = None if ones_bid or face == 1 else 1
        hands = [p.dice for p in before.players]
        count = sum(1 for hand in hands for die in hand if die in (face, wild))
        assert (result.wild, result.count) == ((None if ones_bid else 1), count)
        checked += 1
    assert checked > 50


# --- Bagos (section 2): ones wild unless the round opens on ones; the winner opens -------


def test_bagos_random_games_count_and_open_as_the_rule_says() -> None:
    bagos = perudo.load_variant(EXAMPLES / "bagos.toml")
    checked = 0
    for before, result, state in calls(bagos, 3, 20, lambda seed: RandomBot(seed=seed)):
        wild = None if before.bids[0].bid.face == 1 else 1  # the opening bid decides
        face = result.bid.face
        counted = {face} if wild is None or face == wild else {face, wild}
        count = sum(1 for player in before.players for die in player.dice if die in counted)
        assert (result.count, result.wild) == (count, wild)
        loser = result.caller if count >= result.bid.quantity else result.bidder
        assert result.changes[loser] == -1
        if not state.is_over:
            winner = result.bidder if loser == result.caller else result.caller
            opener = winner if state.players[winner].dice else state.left_of(winner)
            assert state.to_act == opener
        checked += 1
    assert checked > 50
