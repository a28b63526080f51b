"""The game told move by move (:mod:`perudo.narration`) and a turn laid out for a picker
(:func:`perudo.web.turn.choices`): against the engine's own legal moves and results, on
whole games of every shipped edition that seats three."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import perudo
from perudo.actions import Bid
from perudo.bots import make_bot
from perudo.match import choose_move
from perudo.narration import narrate, opening, places, told
from perudo.notation import spoken_words
from perudo.record import GameRecord
from perudo.state import GameState
from perudo.web.turn import choices

EDITIONS = [
    key for key in perudo.variant_names()
    if perudo.load_variant(key).players.min <= 3 <= perudo.load_variant(key).players.max
]  # fmt: skip


def _game(key: str, seed: int, moves: int = 400) -> list[GameState]:
    """The states of a game between bots (up to ``moves`` moves)."""
    state = perudo.new_game(perudo.load_variant(key), ["Ana", "Bo", "Cy"], seed=seed)
    bots = [make_bot("odds", seed * 7 + seat) for seat in range(3)]
    states = [state]
    while not state.is_over and len(states) <= moves:
        seat, action = choose_move(state, bots)
        state = state.apply(action, by=seat)
        states.append(state)
    return states


def test_a_worked_round_of_italian() -> None:
    state = perudo.new_game(perudo.load_variant("italian"), ["Ana", "Bo"], seed=3,
                            first_player=0, dice=[[1, 2, 2, 6, 6], [1, 3, 4, 5, 6]])  # fmt: skip
    assert opening(state).text == "Round 1: 10 dice in play (Ana 5, Bo 5); Ana opens"
    after = state.apply(Bid(4, 6))
    assert [line.text for line in told(state, after)] == ["Ana bids 4x6"]
    called = after.apply(perudo.Dudo())
    lines = told(after, called)
    assert [line.kind for line in lines] == ["move", "showdown", "round"]
    assert lines[0].text == "Bo: Dubito!"
    assert lines[1].text == (
        "Dubito by Bo on 4x6 by Ana: 5 6s (ones wild); Bo loses a die. "
        "Hands shown: Ana 1 2 2 6 6; Bo 1 3 4 5 6"
    )
    assert lines[1].hands == ((1, 2, 2, 6, 6), (1, 3, 4, 5, 6))
    assert lines[2].text == "Round 2: 9 dice in play (Ana 5, Bo 4); Bo opens"


@settings(max_examples=25, deadline=None)
@given(key=st.sampled_from(EDITIONS), seed=st.integers(0, 10**6))
def test_the_story_of_a_game_is_its_moves_calls_and_rounds(key: str, seed: int) -> None:
    states = _game(key, seed)
    record = GameRecord.from_state(states[-1])
    lines = narrate(record.states(states[-1].variant))
    # the same told move by move as it is played, and from the record after
    assert lines == [
        opening(states[0]),
        *(x for a, b in itertools.pairwise(states) for x in told(a, b)),
    ]
    assert [line for line in lines if line.kind == "move"] == [
        line for line in lines if line.seat is not None
    ]
    assert len([line for line in lines if line.kind == "move"]) == len(states) - 1
    calls = [
        b.last_result for a, b in itertools.pairwise(states) if b.last_result is not a.last_result
    ]
    showdowns = [line for line in lines if line.kind == "showdown"]
    assert [line.hands for line in showdowns] == [result.hands for result in calls if result]
    rounds = [line for line in lines if line.kind == "round"]
    assert [line.round for line in rounds] == list(range(1, states[-1].round_number + 1))
    if states[-1].is_over:
        assert lines[-1].kind == "end"
        order = places(states[-1], lines)
        assert sorted(order) == [0, 1, 2]
        assert tuple(order[: len(states[-1].winners)]) == states[-1].winners
        assert all(line.to_dict()["text"] == line.text for line in lines)


@settings(max_examples=20, deadline=None)
@given(key=st.sampled_from(EDITIONS), seed=st.integers(0, 10**6), moves=st.integers(0, 30))
def test_a_turn_laid_out_holds_every_legal_move_once(key: str, seed: int, moves: int) -> None:
    state = _game(key, seed, moves)[-1]
    if state.is_over:
        return
    seat = state.to_act
    assert seat is not None
    turn = choices(state, seat)
    legal = set(state.legal_actions())
    laid_out = {
        Bid(quantity, face["face"], pressure=pressure)
        for pressure, faces in ((False, turn["faces"]), (True, turn["pressured"]))
        for face in faces
        for quantity in face["quantities"]
    }
    sent = [perudo.parse_action(move["move"], variant=state.variant) for move in turn["moves"]]
    assert len(sent) == len(set(sent))
    assert laid_out | set(sent) == legal
    assert not laid_out & set(sent)
    words = spoken_words(state.variant)
    for move in turn["moves"]:
        assert move["legend"].startswith(move["move"][:1].upper() + move["move"][1:])
        assert move["kind"] in ("call", "declaration", "action", "bid")
    for face in turn["faces"]:
        assert face["name"] == state.variant.words.face_name(face["face"])
        assert (face["refused"] is None) == bool(face["quantities"])
        if face["quantities"] and face["quantities"][0] > 1:  # why the one below is refused
            below = Bid(face["quantities"][0] - 1, face["face"])
            violation = state.check(below)
            assert violation is not None
            assert face["below"] == violation.message
    assert all(words.get(action, str(action)) for action in legal)


def test_a_face_that_may_not_be_bid_says_why() -> None:
    # Italian's opening bid may not be on Pacos
    state = perudo.new_game(perudo.load_variant("italian"), ["Ana", "Bo"], seed=1, first_player=0)
    ones = choices(state, 0)["faces"][0]
    assert ones["quantities"] == []
    violation = state.check(Bid(state.dice_in_play, 1))
    assert violation is not None
    assert ones["refused"] == violation.message


@pytest.mark.parametrize("key", ["italian", "bluff", "mia"])
def test_a_game_told_shows_a_hand_only_where_a_call_shows_it(key: str) -> None:
    states = _game(key, 5)
    names = [player.name for player in states[0].players]
    lines = narrate(states)
    showdowns = [line for line in lines if line.kind == "showdown"]
    assert showdowns
    for line in lines:
        assert (line.hands != ()) == (line.kind == "showdown")
        assert ("Hands shown:" in line.text) <= (line.kind == "showdown")
    for line in showdowns:
        told_hands = (
            line.text.split("Hands shown: ")[1].split("; ") if "Hands shown" in line.text else []
        )
        expected = [f"{names[seat]} {' '.join(map(str, hand))}"
                    for seat, hand in enumerate(line.hands) if hand]  # fmt: skip
        assert told_hands == expected
