"""Dice of any number of faces: the deal, bids, legality, wild faces, odds and drawings."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

import perudo
from perudo import Bid, Dudo, GameSetupError, IllegalActionError
from perudo.dice import deal
from perudo.odds import bid_odds, chance_table, view_odds


def eight_sided() -> perudo.Variant:
    """WANGO classic on eight-sided dice, the eights wild."""
    return perudo.load_variant("wango").derive(
        "wango-d8",
        reason="Eight-sided dice, the highest face wild.",
        dice={"per_player": 5, "faces": 8},
        wilds={"kind": "face", "face": 8, "unless_opened_on": False},
        conversion={"kind": "halve-double", "face": 8},
    )


@pytest.mark.parametrize("faces", [2, 3, 6, 8, 12, 20])
def test_the_deal_draws_every_face_and_no_other(faces: int) -> None:
    seen = {die for seed in range(40) for hand in deal(seed, 1, [5, 5], faces) for die in hand}
    assert seen == set(range(1, faces + 1))


def test_six_faces_deal_as_before() -> None:
    assert deal(7, 1, [2, 0, 3]) == deal(7, 1, [2, 0, 3], 6) == ((4, 6), (), (1, 1, 1))


def test_bids_and_legality_follow_the_faces() -> None:
    edition = eight_sided()
    assert edition.dice.faces == 8
    assert "8-sided dice" in edition.describe("dice")
    state = perudo.new_game(edition, 2, seed=1, first_player=0)
    assert all(1 <= die <= 8 for player in state.players for die in player.dice)
    faces = {action.face for action in state.legal_actions() if isinstance(action, Bid)}
    assert faces == set(range(2, 9))  # WANGO opens on any face but ones
    with pytest.raises(IllegalActionError) as caught:
        state.apply(Bid(2, 9))
    assert caught.value.reason == "no-such-face"
    assert perudo.parse_action("3x12") == Bid(3, 12)
    with pytest.raises(IllegalActionError):
        Bid(3, 21)


def test_hands_set_by_hand_are_checked_against_the_faces() -> None:
    edition = eight_sided()
    hands = [[8, 8, 7, 1, 2], [3, 3, 3, 8, 5]]
    state = perudo.new_game(edition, 2, seed=1, dice=hands, first_player=0)
    result = state.apply(Bid(4, 3)).apply(Dudo()).last_result
    assert result is not None
    assert (result.count, result.wild) == (6, 8)  # three 3s and three wild eights
    with pytest.raises(GameSetupError, match="not a face 1 to 8"):
        perudo.new_game(edition, 2, seed=1, dice=[[9, 1, 1, 1, 1], [1, 1, 1, 1, 1]])
    with pytest.raises(GameSetupError, match="not a face 1 to 6"):
        perudo.new_game("wango", 2, seed=1, dice=[[7, 1, 1, 1, 1], [1, 1, 1, 1, 1]])


def test_odds_use_the_faces() -> None:
    assert bid_odds(Bid(1, 3), own_dice=(), unseen=1, faces=8) == Fraction(1, 8)
    assert bid_odds(Bid(1, 3), own_dice=(), unseen=1, wild=8, faces=8) == Fraction(1, 4)
    table = chance_table((), 1, wild=8, faces=8)
    assert len(table) == 9
    assert table[3][1] == pytest.approx(0.25)
    assert table[8][1] == pytest.approx(0.125)
    state = perudo.new_game(eight_sided(), 2, seed=3, first_player=0)
    view = state.view(0)
    own = sum(1 for die in view.dice if die in (2, 8))
    expected = bid_odds(Bid(own + 1, 2), own_dice=view.dice, unseen=5, wild=8, faces=8)
    assert view_odds(view, Bid(own + 1, 2)) == expected


def test_drawings_show_faces_past_six() -> None:
    hands = [[8, 8, 7, 1, 2], [3, 3, 3, 8, 5]]
    state = perudo.new_game(eight_sided(), 2, seed=1, dice=hands, first_player=0)
    text = state.draw()
    assert "1 2 7 8 8" in text  # digits: die faces past six have no character
    svg = state._repr_svg_()
    assert ">8</text>" in svg
    assert ">7</text>" in svg


def test_bots_play_dice_of_any_size() -> None:
    from perudo.bots import OddsBot, RandomBot
    from perudo.match import choose_move

    for bots in ([OddsBot(seed=1), OddsBot(seed=2)], [RandomBot(seed=1), RandomBot(seed=2)]):
        state = perudo.new_game(eight_sided(), 2, seed=4)
        while not state.is_over:
            seat, action = choose_move(state, bots)
            state = state.apply(action, by=seat)
        assert len(state.winners) == 1


def test_the_batch_engine_plays_the_faces_and_any_face_bids_convert_to() -> None:
    pytest.importorskip("numba", reason="the batch extra is not installed")
    from batch_reference import compare

    from perudo.batch import BatchGames

    plain = eight_sided().derive(
        "wango-d8-ones", reason="r", conversion={"kind": "halve-double", "face": 1}
    )
    for edition in (eight_sided(), plain):  # converting to eights, and to ones: played
        table = BatchGames.new(edition, 2, 4, seed=1)
        dice = {die for game in range(4) for hand in table.hands(game) for die in hand}
        assert dice <= set(range(1, 9))
        assert compare(edition, 3, 20, seed=5, observe=2) > 20  # as GameState plays it


def random_views(edition: perudo.Variant, players: int, seed: int) -> list[perudo.PlayerView]:
    from perudo.bots import RandomBot
    from perudo.match import choose_move

    state = perudo.new_game(edition, players, seed=seed)
    bots = [RandomBot(seed=seed + s) for s in range(players)]
    views = []
    while True:
        views += [state.view(s) for s in range(players)]
        if state.is_over:
            return views
        seat, action = choose_move(state, bots)
        state = state.apply(action, by=seat)


@pytest.mark.parametrize("faces", [2, 8, 20])
def test_the_encodings_follow_the_faces(faces: int) -> None:
    from perudo.encoding import action_encoding, observation_encoding

    edition = perudo.load_variant("openspiel-liars-dice").derive(
        f"liars-d{faces}",
        reason="Other dice.",
        dice={"per_player": 2, "faces": faces},
        wilds={"kind": "face", "face": faces, "unless_opened_on": False},
        scoring={"kind": "elimination"},
    )
    actions = action_encoding(edition, 2)
    assert actions.bid_count == 4 * faces
    assert actions.decode(actions.first_bid + faces - 1) == Bid(1, faces)
    encoding = observation_encoding(edition, 2)
    assert encoding.field("hand").length == faces
    assert encoding.field("last_hands").length == 2 * faces
    for seed in range(5):
        for view in random_views(edition, 2, seed):
            vector = encoding.encode(view)
            assert all(
                lo <= v <= hi for lo, v, hi in zip(encoding.low, vector, encoding.high, strict=True)
            )
            assert encoding.decode(vector, [seat.name for seat in view.seats]) == view


def test_the_adapters_play_dice_of_any_size() -> None:
    import warnings

    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
    pytest.importorskip("gymnasium", reason="the gymnasium extra is not installed")
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    from perudo.interop.gymnasium import PerudoSoloEnv
    from perudo.interop.pettingzoo import env as perudo_env

    edition = eight_sided()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably")
        api_test(perudo_env(edition, 3), num_cycles=200)
        check_env(PerudoSoloEnv(edition, 2))


def test_openspiel_deals_dice_of_any_size(tmp_path: Path) -> None:
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    import pyspiel

    import perudo.interop.openspiel  # noqa: F401  (registers python_perudo)

    path = tmp_path / "d8.toml"
    path.write_text(D8_DECLARATION)
    game = pyspiel.load_game("python_perudo", {"declaration": str(path), "players": 2})
    state = game.new_initial_state()
    while state.is_chance_node() and len(state.chance_outcomes()) != 8:
        state.apply_action(state.chance_outcomes()[0][0])  # the roll-off
    assert [face for face, _ in state.chance_outcomes()] == list(range(8))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


D8_DECLARATION = (  # eight_sided(), as a declaration file extending WANGO classic
    'extends = "wango"\nkey = "wango-d8"\n'
    '[dice]\nkind = "standard"\nper_player = 5\nfaces = 8\nprovenance = "reading"\n'
    'reason = "Eight-sided dice."\n'
    '[wilds]\nkind = "face"\nface = 8\nunless_opened_on = false\nprovenance = "reading"\n'
    'reason = "The highest face wild."\n'
    '[conversion]\nkind = "halve-double"\nface = 8\nprovenance = "reading"\n'
    'reason = "Bids convert to and from the wild eights."\n'
)
