"""Setting up a game, turns, rounds, the end, determinism, and refusing bad input."""

from __future__ import annotations

import pytest
from helpers import game, play

import perudo
from perudo import Bid, Calza, Declare, Dudo, GameSetupError, IllegalActionError
from perudo.dice import deal, roll_off

FIVE = [2, 3, 4, 5, 6]


def test_new_game_defaults() -> None:
    state = perudo.new_game("italian", ["Ana", "Ben", "Cleo"], seed=11)
    assert [p.name for p in state.players] == ["Ana", "Ben", "Cleo"]
    assert all(len(p.dice) == 5 for p in state.players)
    assert all(p.dice == tuple(sorted(p.dice)) for p in state.players)
    assert state.round_number == 1
    assert state.bid is None
    assert state.special_round is None
    assert state.to_act == roll_off(11, range(3))[0]
    assert [p.dice for p in state.players] == list(deal(11, 1, [5, 5, 5]))
    named = perudo.new_game("italian", 3, seed=11)
    assert [p.name for p in named.players] == ["Player 1", "Player 2", "Player 3"]


def test_roll_off_rolls_again_on_a_tie_at_the_top() -> None:
    for seed in range(200):
        winner, throws = roll_off(seed, range(4))
        for throw in throws[:-1]:
            assert throw.count(max(throw)) > 1
        last = throws[-1]
        assert last.count(max(last)) == 1
        assert last[winner] == max(last)
    assert any(len(roll_off(seed, range(4))[1]) > 1 for seed in range(200))


def test_round_one_dice_do_not_depend_on_the_roll_off() -> None:
    a = perudo.new_game("spanish", 4, seed=5)
    b = perudo.new_game("spanish", 4, seed=5, first_player=2)
    assert [p.dice for p in a.players] == [p.dice for p in b.players]
    assert b.to_act == 2


def test_same_seed_and_actions_give_equal_states() -> None:
    def run() -> perudo.GameState:
        return play(perudo.new_game("wango", 3, seed=99), "2x3", "3x3", "dudo", "1x5")

    one, two = run(), run()
    assert one == two
    assert hash(one) == hash(two)
    assert one != play(perudo.new_game("wango", 3, seed=98), "2x3", "3x3", "dudo", "1x5")


def test_turns_pass_to_the_left_skipping_players_out() -> None:
    hands = [FIVE, [2], FIVE]
    state = play(game("italian", hands, first=1), "9x6", "dudo")
    assert not state.players[1].is_in
    assert state.seats_in == (0, 2)
    assert state.to_act == 2  # the player to the left of the eliminated seat
    state = play(state, "1x3")
    assert state.to_act == 0
    state = play(state, "2x3")
    assert state.to_act == 2


def test_the_game_ends_with_one_player_holding_dice() -> None:
    state = play(game("italian", [[2], [3, 3]], first=0), "5x6", "dudo")
    assert state.is_over
    assert state.to_act is None
    assert state.winners == (1,)
    assert state.legal_actions() == ()
    assert state.legal_actions(by=1) == ()
    with pytest.raises(IllegalActionError) as caught:
        state.apply(Bid(1, 2))
    assert caught.value.reason == "game-over"
    assert state.check(Dudo()) is not None
    with pytest.raises(GameSetupError):
        state.with_dice([[], [3, 3]])


def test_winners_is_empty_while_playing() -> None:
    assert game("italian", [FIVE, FIVE]).winners == ()


def test_with_dice_replaces_the_round_before_its_first_bid() -> None:
    state = game("italian", [FIVE, FIVE, [2, 3]])
    new = state.with_dice([[6, 5, 4, 3, 2], [1] * 5, [6, 6]])
    assert new.players[0].dice == (2, 3, 4, 5, 6)
    assert new.players[1].dice == (1, 1, 1, 1, 1)
    assert state.players[1].dice == (2, 3, 4, 5, 6)  # the old state is untouched
    with pytest.raises(GameSetupError, match="seat 2 holds 2 dice, not 3"):
        state.with_dice([FIVE, FIVE, [2, 3, 4]])
    with pytest.raises(GameSetupError, match="3 players"):
        state.with_dice([FIVE, FIVE])
    with pytest.raises(GameSetupError, match="not a face"):
        state.with_dice([FIVE, FIVE, [2, 7]])
    with pytest.raises(GameSetupError, match="already has a bid"):
        play(state, "1x3").with_dice([FIVE, FIVE, [2, 3]])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 1}, "2 to 10 players, not 1"),
        ({"players": 11}, "2 to 10 players, not 11"),
        ({"players": True}, "not a count"),
        ({"players": "AB"}, "not a count"),
        ({"players": ["Ana", "Ana"]}, "not all different"),
        ({"players": ["Ana", ""]}, "0 characters"),
        ({"players": ["Ana", 3]}, "not a string"),
        # Names that would not read back from a record (issue 13).
        ({"players": ["Ana", "Ben\u2028Cleo"]}, "not printable"),
        ({"players": ["Ana", "Be\x85n"]}, "not printable"),
        ({"players": ["Ana", "Ben\tX"]}, "not printable"),
        ({"players": ["Ana", " Ben"]}, "space at an end"),
        ({"players": ["Ana", "B" * 41]}, "41 characters"),
        # The count is checked before any name is built (issue 13).
        ({"players": 10**8}, "not 100000000"),
        ({"players": -3}, "not -3"),
        ({"players": 3, "seed": 2**64}, "at most 64 bits"),
        ({"players": 3, "seed": 10**5000}, "an integer of 16610 bits"),
        ({"players": 3, "seed": "7"}, "seed '7'"),
        ({"players": 3, "seed": 1.5}, "seed 1.5"),
        ({"players": 2, "dice": [FIVE]}, "2 players"),
        ({"players": 2, "dice": [FIVE, [2, 3, 4, 5, 6, 6]]}, "holds 6 dice"),
        ({"players": 2, "dice": [FIVE, []]}, "holds 0 dice"),
        ({"players": 2, "dice": [FIVE, [0]]}, "0 in the hand"),
        ({"players": 2, "dice": [FIVE, "23"]}, "not a sequence"),
        ({"players": 2, "dice": "2345"}, "not a sequence of hands"),
        ({"players": 2, "first_player": 2}, "first_player 2"),
        ({"players": 2, "first_player": -1}, "first_player -1"),
    ],
)
def test_new_game_refuses_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    kwargs = dict(kwargs)  # the parameter is shared between runs: do not change it
    players = kwargs.pop("players")
    with pytest.raises(GameSetupError, match=message):
        perudo.new_game("italian", players, **kwargs)  # type: ignore[arg-type]


def test_player_ranges_per_edition() -> None:
    for edition in ("french-calza", "wango", "wango-party"):
        with pytest.raises(GameSetupError, match="2 to 6 players, not 7"):
            perudo.new_game(edition, 7)
    perudo.new_game("french-jonti", 10)


def test_unknown_edition() -> None:
    with pytest.raises(perudo.UnknownVariantError) as caught:
        perudo.new_game("klingon", 3)
    assert "klingon" in str(caught.value)
    assert "italian" in str(caught.value)
    assert isinstance(caught.value, LookupError)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Bid(0, 3), "quantity 0"),
        (lambda: Bid(-2, 3), "quantity -2"),
        (lambda: Bid(10_000, 3), "quantity 10000"),
        (lambda: Bid(3, 21), "face 21"),
        (lambda: Bid(3, 0), "face 0"),
        (lambda: Bid("3", 4), "quantity '3'"),
        (lambda: Bid(3, 4.0), "face 4.0"),
        (lambda: Bid(True, 4), "quantity True"),
        (lambda: Bid(3, 4, pressure=1), "pressure=1"),
        (lambda: Dudo(pressure="yes"), "pressure='yes'"),
        # A declaration carries any name the edition may offer; only its shape is checked.
        (lambda: Declare(""), "'' is not a declaration"),
        (lambda: Declare("two  spaces"), "'two  spaces' is not a declaration"),
        (lambda: Declare("x" * 41), "is not a declaration"),
        (lambda: Declare(3), "3 is not a declaration"),
    ],
)
def test_malformed_actions_are_refused_when_made(make: object, message: str) -> None:
    with pytest.raises(IllegalActionError, match=message) as caught:
        make()  # type: ignore[operator]
    assert caught.value.reason == "malformed-action"
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("value", ["3x4", (3, 4), None, 5, Bid])
def test_values_that_are_not_actions_are_refused(value: object) -> None:
    state = game("italian", [FIVE, FIVE])
    for call in (state.apply, state.is_legal, state.check):
        with pytest.raises(IllegalActionError) as caught:
            call(value)  # type: ignore[operator]
        assert caught.value.reason == "malformed-action"


@pytest.mark.parametrize("seat", [-1, 2, 7, True, "1", 1.0])
def test_unknown_seats_are_refused(seat: object) -> None:
    state = game("italian", [FIVE, FIVE])
    for call in (state.apply, state.is_legal):
        with pytest.raises(IllegalActionError) as caught:
            call(Bid(1, 3), by=seat)  # type: ignore[operator]
        assert caught.value.reason == "unknown-seat"
    with pytest.raises(IllegalActionError):
        state.legal_actions(by=seat)  # type: ignore[arg-type]
    seat_one = play(state, "1x3")  # seat 1 to act: True == 1 must still be refused
    with pytest.raises(IllegalActionError):
        seat_one.legal_actions(by=True)


def test_acting_out_of_turn_is_refused() -> None:
    state = game("italian", [FIVE, FIVE, FIVE])
    for action in (Bid(1, 3), Declare("palifico")):
        with pytest.raises(IllegalActionError) as caught:
            state.apply(action, by=1)
        assert caught.value.reason == "not-your-turn"
        assert caught.value.player == 1
    state = play(state, "1x3")
    with pytest.raises(IllegalActionError) as caught:
        state.apply(Dudo(), by=2)
    assert caught.value.reason == "not-your-turn"
    assert state.legal_actions(by=2) == ()


def test_dudo_needs_a_bid() -> None:
    state = game("italian", [FIVE, FIVE])
    with pytest.raises(IllegalActionError) as caught:
        state.apply(Dudo())
    assert caught.value.reason == "nothing-to-challenge"
    assert "Dubito" in str(caught.value)
    assert Dudo() not in state.legal_actions()


def test_a_player_who_is_out_cannot_act() -> None:
    state = play(game("french-jonti", [FIVE, [2], FIVE, FIVE], first=1), "9x6", "dudo", "2x3")
    with pytest.raises(IllegalActionError) as caught:
        state.apply(Calza(), by=1)
    assert caught.value.reason == "player-out"
    assert state.legal_actions(by=1) == ()


def test_a_refused_action_leaves_the_state_equal_to_before() -> None:
    state = play(game("italian", [FIVE, FIVE, FIVE]), "4x3")
    copy = play(game("italian", [FIVE, FIVE, FIVE]), "4x3")
    for action, by in [(Bid(4, 2), None), (Bid(1, 1), None), (Dudo(), 0), (Calza(), None)]:
        with pytest.raises(IllegalActionError):
            state.apply(action, by=by)
    assert state == copy


def test_error_messages_show_no_hidden_dice() -> None:
    hands = [[6, 6, 6, 6, 6], [5, 5, 5, 5, 5], [4, 4, 4, 4, 4]]
    state = play(game("italian", hands), "2x3")
    with pytest.raises(IllegalActionError) as caught:
        state.apply(Bid(2, 2))
    assert "6, 6" not in str(caught.value)
    assert "66666" not in repr(state).replace(" ", "")
    assert "(5, 5, 5, 5, 5)" not in repr(state)


def test_every_reason_is_documented() -> None:
    for reason, text in perudo.REASONS.items():
        assert reason == reason.lower()
        assert text.endswith(".")
    # a registered kind may refuse with a code of its own, of the same shape, never another
    assert IllegalActionError("already-peeked", "x").reason == "already-peeked"
    for malformed in ("No such reason", "", "x" * 41, "trailing-", None):
        with pytest.raises(AssertionError):
            IllegalActionError(malformed, "x")  # type: ignore[arg-type]


def test_with_dice_after_an_elimination_takes_an_empty_hand_for_the_seat_out() -> None:
    # Regression: with_dice refused every empty hand, so a game with a player out could
    # not have its dice set (found by the record round-trip property).
    state = play(game("italian", [FIVE, [2], FIVE], first=1), "9x6", "dudo")
    assert not state.players[1].is_in
    state = state.with_dice([[1, 1, 1, 1, 1], [], [6, 6, 6, 6, 6]])
    assert state.players[1].dice == ()
    with pytest.raises(GameSetupError, match="seat 1 holds 0 dice, not 1"):
        state.with_dice([FIVE, [3], FIVE])
    with pytest.raises(GameSetupError, match="holds 0 dice: 1 to 5"):
        perudo.new_game("italian", 2, dice=[FIVE, []])
