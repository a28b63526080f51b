"""Bluff (the shipped edition ``bluff``): a worked example for each rule of its description,
the re-roll in every place a game goes (views, records, replay, odds, bots), and random
games in which every re-roll and every challenge is checked against the rule."""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import game, play

import perudo
from perudo import Act, Bid, Dudo, GameRecord, GameSetupError, IllegalActionError
from perudo.bots import OddsBot, RandomBot
from perudo.dice import reroll
from perudo.match import choose_move
from perudo.odds import view_odds

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
HANDS = [[6, 6, 2, 3, 3], [3, 3, 4, 5, 1], [6, 2, 2, 5, 5]]  # seven 3s counting the stars


@pytest.fixture(scope="module")
def example() -> Iterator[dict[str, Any]]:
    """``examples/bluff.py``'s namespace: the rule's check of every call."""
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(EXAMPLES))
        yield vars(importlib.import_module("bluff"))


def bluff() -> perudo.GameState:
    return game("bluff", HANDS)


# --- the table, the wilds, the raise order ------------------------------------------------


def test_two_to_six_players_with_five_dice_each() -> None:
    edition = perudo.load_variant("bluff")
    assert (edition.players.min, edition.players.max, edition.dice.per_player) == (2, 6, 5)
    for players in (1, 7):
        with pytest.raises(GameSetupError, match="2 to 6 players"):
            perudo.new_game(edition, players)


def test_stars_are_wild_and_named() -> None:
    edition = perudo.load_variant("bluff")
    assert edition.words.face_name(6) == "stars"
    after = play(bluff(), "7x3", "dudo")
    assert after.last_result is not None
    assert (after.last_result.count, after.last_result.wild) == (7, 6)
    assert "7 3s (stars wild)" in after.last_result.describe()


def test_any_face_opens_and_there_is_no_cap() -> None:
    state = bluff()
    assert state.is_legal(Bid(1, 6))
    assert state.is_legal(Bid(1, 1))
    assert state.is_legal(Bid(16, 2))  # more than the 15 dice in play


def test_bids_convert_to_and_from_stars() -> None:
    state = play(bluff(), "5x3")
    assert state.is_legal(Bid(3, 6))
    assert not state.is_legal(Bid(2, 6))
    with pytest.raises(IllegalActionError, match="a bid on stars needs at least 3 stars"):
        state.apply(Bid(2, 6))
    stars = state.apply(Bid(3, 6))
    assert stars.is_legal(Bid(7, 2))
    assert not stars.is_legal(Bid(6, 2))
    with pytest.raises(IllegalActionError, match="leaving stars needs at least 7 dice"):
        stars.apply(Bid(6, 5))


# --- the challenge: every hand shown, the loser loses the difference -------------------


@pytest.mark.parametrize(
    ("bid", "changes", "opener"),
    [
        ("9x3", (-2, 0, 0), 0),  # short by two: the bidder (seat 0) loses two, and opens
        ("5x3", (0, -2, 0), 1),  # over by two: the challenger (seat 1) loses two, and opens
        ("7x3", (0, -1, -1), 0),  # exactly: every player but the bidder loses one; the bidder
    ],
)
def test_the_loser_loses_the_difference(bid: str, changes: tuple[int, ...], opener: int) -> None:
    after = play(bluff(), bid, "dudo")
    result = after.last_result
    assert result is not None
    assert result.revealed == (2, 0, 1)  # every hand, from the challenger's left
    assert (result.count, result.changes) == (7, changes)
    assert after.to_act == opener


def test_the_last_player_with_dice_wins() -> None:
    state = game("bluff", [[2], [3, 3]], first=0)
    after = play(state, "2x5", "dudo")  # none: the bidder, with one die, is out
    assert after.is_over
    assert after.winners == (1,)


# --- the re-roll ----------------------------------------------------------------------


def test_the_bidder_puts_dice_out_and_rerolls_the_rest() -> None:
    state = play(bluff(), "3x3")
    assert state.to_act == 1
    assert state.bidder == 0
    after = state.apply(Act("reroll", (3, 3)), by=0)
    me = after.players[0]
    assert me.open == (3, 3)
    assert len(me.cup) == 3
    assert me.cup == reroll(state.seed, 1, 0, 3)  # from the game's seed stream
    assert after.to_act == 1
    assert after.bids == state.bids
    for seat in range(3):  # the dice out are seen by everyone; the rest stay hidden
        view = after.view(seat)
        assert view.seats[0].open == (3, 3)
        assert view.seats[0].dice_count == 5
        assert view.dice == after.players[seat].cup
    assert after.public_view().seats[0].open == (3, 3)
    assert "open 3 3" in after.view(1).draw(ascii=True)
    assert "? ? ? | open 3 3" in after.view(1).draw(ascii=True)


def test_dice_out_count_at_the_call_and_stay_out_for_the_round() -> None:
    state = play(bluff(), "3x3").apply(Act("reroll", (3, 3)), by=0, rolled=[1, 1, 1])
    later = play(state, "4x3", "reroll 4@1", "5x3")
    assert later.players[0].open == (3, 3)
    assert later.players[1].open == (4,)
    counted = later.apply(Dudo())  # seat 0 challenges seat 2's 5x3
    result = counted.last_result
    assert result is not None
    hands = result.hands
    assert hands[0] == (1, 1, 1, 3, 3)  # the two 3s out count for seat 0
    assert result.count == sum(die in (3, 6) for hand in hands for die in hand or ())
    assert all(not player.open for player in counted.players)  # a new round: all under cups


@pytest.mark.parametrize(
    ("moves", "act", "seat", "reason"),
    [
        (("3x3",), Act("reroll", (3,)), 1, "not-the-bidder"),
        (("3x3", "4x3"), Act("reroll", (3,)), 0, "too-late"),
        (("3x3", "reroll 3@0"), Act("reroll", (6,)), 0, "already-rerolled"),
        (("3x3",), Act("reroll"), 0, "nothing-put-out"),
        (("3x3",), Act("reroll", (4,)), 0, "die-not-held"),
        (("3x3",), Act("reroll", (3, 3, 3)), 0, "die-not-held"),
        (("3x3",), Act("reroll", (2, 3, 3, 6, 6)), 0, "nothing-to-reroll"),
        ((), Act("reroll", (3,)), 0, "not-the-bidder"),
        (("3x3",), Act("peek"), 0, "no-such-action"),
    ],
)
def test_every_refused_reroll_says_why(
    moves: tuple[str, ...], act: Act, seat: int, reason: str
) -> None:
    state = play(bluff(), *moves)
    assert act not in state.legal_actions(by=seat)
    with pytest.raises(IllegalActionError) as caught:
        state.apply(act, by=seat)
    assert caught.value.reason == reason
    assert str(caught.value)


def test_a_die_put_out_cannot_be_put_out_again() -> None:
    state = play(bluff(), "3x3").apply(Act("reroll", (6, 6)), by=0, rolled=[2, 2, 2])
    again = play(state, "4x3", "5x3", "6x3")  # seat 0 bid again: may re-roll again
    assert again.check(Act("reroll", (6,)), by=0).reason == "die-not-held"  # type: ignore[union-attr]
    assert again.is_legal(Act("reroll", (2,)), by=0)
    assert again.is_legal(Act("reroll", (2, 2)), by=0)
    assert again.check(Act("reroll", (2, 2, 2)), by=0).reason == "nothing-to-reroll"  # type: ignore[union-attr]


def test_the_legal_rerolls_are_every_choice_of_dice_out() -> None:
    state = play(bluff(), "3x3")
    listed = state.legal_actions(by=0)
    assert all(isinstance(action, Act) for action in listed)
    assert len(listed) == 16  # sub-multisets of 2 3 3 6 6, neither empty nor whole
    assert listed[0] == Act("reroll", (2,))
    assert Act("reroll", (3, 3, 6, 6)) in listed
    assert state.legal_actions(by=2) == ()
    assert not any(isinstance(action, Act) for action in state.legal_actions())


def test_rolled_faces_are_checked() -> None:
    state = play(bluff(), "3x3")
    for rolled, match in [
        ([1, 2], "2 faces for 3"),
        ([1, 2, 7], "not a face 1 to 6"),
        ("123", "rolled '123' is not a list of faces"),  # regression: it matched ""
    ]:
        with pytest.raises(GameSetupError, match=match):
            state.apply(Act("reroll", (3, 3)), by=0, rolled=rolled)  # type: ignore[arg-type]
    with pytest.raises(GameSetupError, match="re-rolls no dice"):
        state.apply(Dudo(), rolled=[1])


def test_rerolls_follow_the_seed_and_only_their_round() -> None:
    # Round 2's re-roll is the same whether or not anyone re-rolled in round 1.
    def round_two(reroll_first: bool) -> perudo.GameState:
        state = play(game("bluff", [[2, 2], [3, 3]], seed=9), "1x2")
        if reroll_first:  # seat 0 shows a 2 and rolls the other 2 again
            state = state.apply(Act("reroll", (2,)), by=0, rolled=[2])
        state = play(state, "dudo")  # two 2s: over by one, seat 1 loses one and opens
        assert state.round_number == 2
        assert state.to_act == 1
        state = play(state, "1x4", "2x4")
        return state.apply(Act("reroll", state.players[0].dice[:1]), by=0)

    plain, rerolled = round_two(False), round_two(True)
    assert plain.players == rerolled.players  # the same deal, the same re-roll
    assert plain.players[0].cup == reroll(9, 2, 0, 1)


def test_the_record_keeps_every_reroll_and_replays_without_the_seed() -> None:
    state = play(bluff(), "3x3").apply(Act("reroll", (3, 3)), by=0)
    state = play(state, "4x3", "reroll 4@1")
    record = GameRecord.from_state(state)
    assert record.rolls == ((2, state.players[0].cup), (4, state.players[1].cup))
    text = record.to_text(key=b"k" * 32)
    assert f"2 0 reroll 3 3 -> {' '.join(map(str, state.players[0].cup))}" in text
    assert GameRecord.from_text(text, key=b"k" * 32).replay() == state
    data = record.to_dict()
    assert data["moves"][1] == {
        "player": 0,
        "action": "reroll 3 3",
        "rolled": list(state.players[0].cup),
    }
    assert GameRecord.from_dict(data).replay() == state
    other_seed = attrs_evolve(record, seed=record.seed + 1).replay()  # round 1 dice were set
    assert [p.dice for p in other_seed.players] == [p.dice for p in state.players]
    tampered = text.replace(" -> ", " -> 9 ", 1)
    with pytest.raises(perudo.RecordError, match="move 2"):
        GameRecord.from_text(tampered).replay()
    with pytest.raises(perudo.RecordError, match="signature"):
        GameRecord.from_text(tampered, key=b"k" * 32)


def attrs_evolve(record: GameRecord, **changes: Any) -> GameRecord:
    import attrs

    return attrs.evolve(record, **changes)


def test_a_players_record_shows_only_its_own_rerolled_faces() -> None:
    state = play(bluff(), "3x3").apply(Act("reroll", (3, 3)), by=0)
    state = play(state, "4x3", "reroll 4@1", "dudo")
    record = GameRecord.from_state(state)
    mine, theirs = record.for_player(0).rounds[0], record.for_player(2).rounds[0]
    assert [number for number, _ in mine.rolled] == [2]
    assert theirs.rolled == ()
    assert "reroll 3 3" in record.for_player(2).to_json()


def test_odds_count_the_dice_in_the_open_as_known() -> None:
    state = play(bluff(), "3x3").apply(Act("reroll", (3, 3)), by=0, rolled=[1, 1, 1])
    view = state.view(1)  # holds 1 3 3 4 5; sees seat 0's two 3s out
    assert view.known == (1, 3, 3, 3, 3, 4, 5)
    assert view.unseen == 8  # seat 0's three under the cup, seat 2's five
    assert view_odds(view, Bid(4, 3)) == 1  # four 3s seen
    assert view_odds(view, Bid(5, 3)) < 1


def test_the_odds_bot_keeps_the_dice_of_its_bid_and_rerolls_the_rest() -> None:
    state = play(bluff(), "3x3")
    action = OddsBot(seed=1).interrupt(state.view(0))  # holds 2 3 3 6 6: 3s and stars count
    assert action == Act("reroll", (3, 3, 6, 6))
    held = game("bluff", [[3, 3, 3, 6, 6], HANDS[1], HANDS[2]])
    assert OddsBot(seed=1).interrupt(play(held, "3x3").view(0)) is None  # nothing to re-roll


# --- random games ------------------------------------------------------------------------


def test_random_games_check_every_reroll_and_every_challenge(example: dict[str, Any]) -> None:
    expected, check_reroll = example["expected_changes"], example["check_reroll"]
    rerolls = challenges = 0
    for players in range(2, 7):
        for seed in range(6):
            state = perudo.new_game("bluff", players, seed=seed)
            bots = [
                (OddsBot if (seat + seed) % 2 else RandomBot)(seed=seed * 10 + seat)
                for seat in range(players)
            ]
            while not state.is_over:
                seat, action = choose_move(state, bots)
                before, state = state, state.apply(action, by=seat)
                if isinstance(action, Act):
                    check_reroll(before, action, seat, state)
                    assert Counter(state.players[seat].open) >= Counter(action.numbers)
                    rerolls += 1
                result = state.last_result
                if result is not None and result is not before.last_result:
                    assert list(result.changes) == expected(before, result)
                    losers = result.losers
                    if not state.is_over:
                        opener = losers[0] if len(losers) == 1 else result.bidder
                        if not state.players[opener].dice:
                            opener = state.left_of(opener)
                        assert state.to_act == opener
                    challenges += 1
            assert GameRecord.from_text(GameRecord.from_state(state).to_text()).replay() == state
    assert rerolls > 200
    assert challenges > 200


def test_the_example_runs(example: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    example["main"]()
    assert "re-rolls and" in capsys.readouterr().out


def test_turn_based_frameworks_ask_the_bidder_with_rerolls_in_the_mask() -> None:
    from perudo.interop.turns import TurnActions, Turns

    numbers = TurnActions.of("bluff", 3)
    turns = Turns.start(bluff()).apply(Bid(3, 3))
    assert turns.seat == 0  # the bidder is asked before the next player moves
    assert turns.state.to_act == 1
    legal = numbers.legal(turns)
    assert numbers.pass_number in legal
    assert numbers.encode(Act("reroll", (3, 3))) in legal
    mask = numbers.mask(turns)
    assert sum(mask) == len(legal) == 17  # 16 choices of dice out, and the pass
    after = turns.apply(Act("reroll", (3, 3)), rolled=[1, 2, 3])
    assert after.seat == 1  # once re-rolled, the next player's turn
    assert after.state.players[0].cup == (1, 2, 3)
