"""Bull and Burst, the house rules of a published online Perudo (``guyguroz-hue/Perudo``,
``docs/GAME_RULES.md``): its worked examples and rulings, section by section, played
through the shipped declaration."""

from __future__ import annotations

import pytest
from helpers import game, play

import perudo
from perudo import Bid, Calza, Dudo, IllegalActionError
from perudo.encoding import observation_encoding
from perudo.record import state_from_dict, state_to_dict

EDITION = perudo.load_variant("bull-and-burst")
A, B, C, D = 0, 1, 2, 3
# seven 5s counting the ones (five 5s, two ones); four 6s counting them (two 6s, two ones)
HANDS = [[1, 2, 3, 5, 5], [2, 3, 4, 5, 6], [2, 3, 4, 5, 5], [1, 2, 3, 4, 6]]


def test_the_declaration_is_the_sources() -> None:
    assert EDITION.exact_call.kind == "exact-claim"
    assert (EDITION.words.calza, EDITION.words.dudo) == ("Bull", "Dudo")
    assert EDITION.claims_in_chain
    assert EDITION.turns.out_of_turn == ("bid", "challenge")
    kinds = (EDITION.special_round.kind, EDITION.starter.kind, EDITION.first_player.kind)
    assert kinds == ("farewell-round", "winner", "random")
    assert EDITION.scoring.kind == "elimination-burst"
    readings = {axis for axis in perudo.rules.AXES if EDITION.provenance_of(axis).kind == "reading"}
    assert readings == {"turns", "exact_call", "special_round"}
    assert all(EDITION.provenance_of(axis).reason for axis in readings)


def test_a_later_bid_supersedes_the_bull() -> None:
    """8.2: "A: 7 fives -> B: Bull -> C: 8 fives -> D: 9 sixes -> A: Dudo. A is
    challenging 9 sixes, not 7 fives. The earlier Bull is irrelevant." """
    state = play(game(EDITION, HANDS), "7x5", "bull", "8x5", "9x6")
    assert [(p.player, str(p.bid), p.exact) for p in state.bids] == [
        (A, "7x5", False), (B, "7x5", True), (C, "8x5", False), (D, "9x6", False),
    ]  # fmt: skip
    assert state.claim == "bid"
    result = state.apply(Dudo()).last_result
    assert result is not None
    assert (result.bid, result.bidder, result.caller, result.claim) == (
        Bid(9, 6),
        D,
        A,
        "bid",
    )
    assert result.changes == (0, 0, 0, -1)  # four 6s: the bidder loses


def test_a_bull_is_a_declaration_in_the_chain_that_reveals_nothing() -> None:
    """8.1: "Bull is a declaration in the bidding chain - not an immediate challenge. It
    does not reveal dice." The turn passes to the Bull caller's left, as after a bid."""
    state = play(game(EDITION, HANDS), "7x5", "bull")
    assert (state.to_act, state.bidder, state.bid, state.claim) == (C, B, Bid(7, 5), "exact")
    assert state.last_result is None
    assert state.round_number == 1
    assert not state.is_legal(Bid(7, 5))  # the claim stands as 7x5: raise it or call Dudo
    assert state.is_legal(Bid(8, 5))
    assert state.is_legal(Dudo())
    assert "Player 2 Bull 7x5" in state.view(C).draw()


@pytest.mark.parametrize(
    ("hands", "changes", "opener"),
    [
        # 8.3: seven 5s, exactly the claim: every active participant except B loses a die
        (HANDS, (-1, 0, -1, -1), B),
        # 8.4: six 5s (lower) or eight (higher): "the Bull caller alone loses 1 die"
        ([[1, 2, 3, 5, 5], [2, 3, 4, 5, 6], [2, 3, 4, 4, 5], [1, 2, 3, 4, 6]], (0, -1, 0, 0), C),
        ([[1, 2, 3, 5, 5], [2, 3, 4, 5, 6], [2, 3, 5, 5, 5], [1, 2, 3, 4, 6]], (0, -1, 0, 0), C),
    ],
)
def test_a_challenged_bull_is_right_only_when_exact(
    hands: list[list[int]], changes: tuple[int, ...], opener: int
) -> None:
    """And R-002: "Bull exact: the Bull caller" opens; "Bull false: the challenger"."""
    after = play(game(EDITION, hands), "7x5", "bull", "dudo")
    result = after.last_result
    assert result is not None
    assert (result.claim, result.bidder, result.caller) == ("exact", B, C)
    assert result.changes == changes
    assert after.to_act == opener
    said = result.describe()
    assert said.startswith("Dudo by Player 3 on Bull 7x5 by Player 2: ")


def test_a_burst_dudo_against_a_false_bull_wins_a_die() -> None:
    """9.4 (R-006): "False: Bull caller -1; Burst-Dudo caller +1" (D holds four dice)."""
    hands = [[1, 2, 3, 5, 5], [2, 3, 4, 5, 6], [2, 3, 4, 4, 5], [1, 2, 3, 4]]
    state = play(game(EDITION, hands), "7x5", "bull")  # four 5s and two ones: six, not seven
    assert state.to_act == C
    after = state.apply(Dudo(), by=D)  # D bursts in
    result = after.last_result
    assert result is not None
    assert (result.caller, result.count, result.changes) == (D, 6, (0, -1, 0, 1))
    assert after.to_act == D  # proved right: D opens


def test_a_burst_dudo_against_an_exact_bull_shields_nobody() -> None:
    """9.4: "Exact: Everyone except the Bull caller -1, the Burst-Dudo caller among them."""
    after = play(game(EDITION, HANDS), "7x5", "bull").apply(Dudo(), by=D)
    assert after.last_result is not None
    assert after.last_result.changes == (-1, 0, -1, -1)
    assert after.to_act == B


def test_a_burst_dudo_never_gives_a_sixth_die() -> None:
    """9.3 (R-007): "A Burst Dudo won by a player already holding five wins them nothing
    [...] The loser still loses theirs." """
    after = play(game(EDITION, HANDS), "9x5").apply(Dudo(), by=D)  # C to act; D holds five
    assert after.last_result is not None
    assert after.last_result.changes == (-1, 0, 0, 0)


def test_a_bull_may_be_declared_out_of_turn_by_any_active_player() -> None:
    """8.5 (R-005): "it may be declared out of turn, as a Burst. Any active player may call
    it." Normal play resumes to the left of the last to speak."""
    state = play(game(EDITION, HANDS), "7x5")
    assert all(Calza() in state.legal_actions(by=seat) for seat in (A, B, C, D))
    after = state.apply(Calza(), by=D)
    assert (after.bidder, after.to_act, after.claim) == (D, A, "exact")


def test_a_bull_on_a_bull_is_refused() -> None:
    state = play(game(EDITION, HANDS), "7x5", "bull")
    with pytest.raises(IllegalActionError) as refused:
        state.apply(Calza(), by=D)
    assert refused.value.reason == "exact-call-not-allowed"
    assert "already claimed exactly right" in str(refused.value)
    assert Calza() not in state.legal_actions()
    assert Calza() in play(state, "8x5").legal_actions()  # a new bid may be claimed again


def test_a_right_bull_queues_a_farewell_round_for_each_seat_it_drops_to_one() -> None:
    """10 (R-003): "A correct Bull can drive several players down to one die
    simultaneously. Each is owed their own Farewell Round: they are queued [...] the engine
    uses seat order." And "That player starts the next round"."""
    hands = [[5, 5, 5], [1, 2], [3, 4], [2, 3, 5]]  # five 5s counting the one
    after = play(game(EDITION, hands), "5x5", "bull@3", "dudo")
    assert after.last_result is not None
    assert after.last_result.changes == (-1, -1, -1, 0)
    assert (after.special_player, after.owed, after.to_act) == (B, (C,), B)
    # "The opening face may be ANY face - including Perudo"; "LOCKED"; "NOT a wildcard"
    farewell = after.with_dice([[2, 3], [1], [4], [1, 1, 6]])
    assert farewell.is_legal(Bid(1, 1))
    locked = farewell.apply(Bid(1, 1))
    assert not locked.is_legal(Bid(2, 6))
    assert locked.is_legal(Bid(2, 1))
    ended = play(locked, "3x1", "dudo")  # three ones: 3x1 stands
    assert ended.last_result is not None
    assert ended.last_result.wild is None
    assert (ended.special_player, ended.owed) == (C, ())  # C's round comes next


def test_the_quantity_anchors_every_raise() -> None:
    """4 (R-009): "4 fives -> 5 fours is a legitimate raise, while 5 fours -> 4 anything
    is not"; 5 and 6: to Perudo "ceil(previous_quantity / 2)", back "previous * 2 + 1"."""
    state = play(game(EDITION, HANDS), "4x5")
    assert state.is_legal(Bid(5, 4))
    lower = play(state, "5x4")
    assert not any(lower.is_legal(Bid(4, face)) for face in range(2, 7))
    for quantity, perudos in ((4, 2), (5, 3), (6, 3), (7, 4), (8, 4), (9, 5)):
        at = play(game(EDITION, HANDS), f"{quantity}x5")
        assert at.is_legal(Bid(perudos, 1))
        assert not at.is_legal(Bid(perudos - 1, 1))
    for perudos, normal in ((4, 9), (5, 11), (6, 13)):
        at = play(game(EDITION, HANDS), f"{perudos * 2}x5", f"{perudos}x1")
        assert at.is_legal(Bid(normal, 2))
        assert not at.is_legal(Bid(normal - 1, 6))
    assert not game(EDITION, HANDS).is_legal(Bid(1, 1))  # "cannot open directly with Perudo"


def test_bulls_are_kept_by_records_positions_and_observations() -> None:
    state = play(game(EDITION, HANDS, seed=5), "7x5", "bull@3", "8x5", "bull")
    saved = state_from_dict(state_to_dict(state))
    assert saved == state
    assert saved.bids[-1].exact
    assert state_to_dict(state)["position"]["bids"][1] == {
        "player": D,
        "bid": "7x5",
        "claim": "exact",
    }
    record = perudo.GameRecord.from_state(state)
    assert perudo.GameRecord.from_text(record.to_text()).replay() == state
    ended = state.apply(Dudo())
    encoding = observation_encoding(EDITION, 4)
    for seat in range(4):
        for position in (state, ended):
            view = position.view(seat)
            back = encoding.decode(encoding.encode(view))
            assert back.bids == view.bids
            assert back.last_result == view.last_result
    assert ended.last_result is not None
    assert ended.last_result.claim == "exact"
    assert ended.last_result.to_dict()["claim"] == "exact"


def test_the_batch_engine_plays_it_as_gamestate_does() -> None:
    """Bulls in the chain, bursts, a right burst's die, and a farewell round for each
    descent to one die, queued, on both engines alike, step by step (where the batch extra
    is installed)."""
    pytest.importorskip("numba", reason="the batch extra is not installed")
    from batch_reference import compare

    assert compare(EDITION, 4, 40, seed=8, observe=3) > 80
