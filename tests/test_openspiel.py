"""The OpenSpiel game python_perudo: OpenSpiel's random simulation test, chance, views."""

from __future__ import annotations

import importlib
import pickle
import random
from pathlib import Path

import pytest
from helpers import LOSE_THE_DIFFERENCE

import perudo

pytest.importorskip(
    "pyspiel", reason="the openspiel extra is not installed: pip install '.[openspiel]'"
)

import pyspiel

from perudo.interop.openspiel import PerudoState

EDITIONS = perudo.variant_names()


def load(key: str = "italian", players: int = 2, **more: int) -> pyspiel.Game:
    return pyspiel.load_game("python_perudo", {"variant": key, "players": players, **more})


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("key", EDITIONS)
def test_openspiel_random_simulation_test(key: str, players: int) -> None:
    players = min(players, perudo.load_variant(key).players.max)
    # Clones, serialization, legal action masks, tensor sizes, returns within bounds,
    # rewards summing to returns, game length within max_game_length.
    pyspiel.random_sim_test(load(key, players), num_sims=2, serialize=True, verbose=False)


def playout(game: pyspiel.Game, seed: int) -> pyspiel.State:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_chance_deals_the_engines_dice() -> None:
    game = load("italian", 3)
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, pytest.approx(1 / 3))] * 1 + [
        (1, pytest.approx(1 / 3)), (2, pytest.approx(1 / 3)),
    ]  # fmt: skip
    state.apply_action(2)  # the roll-off: seat 2 opens
    faces = [6, 1, 3, 3, 2, 5, 5, 5, 5, 5, 1, 2, 3, 4, 6]
    for face in faces:
        assert state.is_chance_node()
        assert [a for a, _ in state.chance_outcomes()] == [0, 1, 2, 3, 4, 5]
        state.apply_action(face - 1)
    assert state.current_player() == 2
    engine = state.turns.state
    assert [p.dice for p in engine.players] == [(1, 2, 3, 3, 6), (5, 5, 5, 5, 5), (1, 2, 3, 4, 6)]
    assert engine.log.first_player == 2


def test_rounds_after_the_first_are_dealt_by_chance() -> None:
    game = load("wango", 2, dice=1)
    state = game.new_initial_state()
    for action in (0, 3, 4):  # seat 0 opens; hands (4,) and (5,)
        state.apply_action(action)
    numbers = game.table.numbers
    state.apply_action(numbers.encode(perudo.Bid(2, 4)))
    state.apply_action(numbers.encode(perudo.Dudo()))  # one 4 only: seat 0 is out...
    assert state.is_terminal()
    assert state.returns() == [-1.0, 1.0]
    game = load("wango", 2, dice=2)
    state = game.new_initial_state()
    for action in (0, 3, 3, 4, 4):
        state.apply_action(action)
    state.apply_action(numbers.encode(perudo.Bid(3, 6)))
    state.apply_action(numbers.encode(perudo.Dudo()))
    assert state.is_chance_node()  # round 2 is dealt: seat 0 holds 1 die, seat 1 holds 2
    for _ in range(3):
        state.apply_action(0)
    assert [p.dice for p in state.turns.state.players] == [(1,), (1, 1)]
    assert state.current_player() == 0


def test_information_states_hide_other_hands_and_recall_rounds() -> None:
    game = load("italian", 2, dice=2)
    strings = []
    for hands in ((0, 1, 2, 3), (0, 1, 5, 5)):  # seat 1's dice differ
        state = game.new_initial_state()
        for action in (0, *hands):
            state.apply_action(action)
        strings.append(
            (state.information_state_string(0), state.observation_string(0),
             state.information_state_tensor(0), state.information_state_string(1))
        )  # fmt: skip
    assert strings[0][:3] == strings[1][:3]
    assert strings[0][3] != strings[1][3]
    assert "hand 12" in strings[0][0]
    state = playout(game, 3)
    recall = state.information_state_string(0)
    assert recall.count("/ r") == state.turns.state.round_number - 1
    assert "first:" in recall


def test_states_serialize_and_pickle() -> None:
    game = load("french-jonti", 4)
    state = playout(game, 1)
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state)
    assert again.returns() == state.returns()
    assert pickle.loads(pickle.dumps(state)).history() == state.history()


def test_clones_are_independent() -> None:
    game = load("italian", 2)
    state = game.new_initial_state()
    for action in (0, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3):
        state.apply_action(action)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.history() != clone.history()
    assert state.turns.state.bids == ()
    assert isinstance(clone, PerudoState)


def test_chance_outcomes_are_checked() -> None:
    state = load("italian", 3).new_initial_state()
    with pytest.raises(perudo.EncodingError, match="chance outcome 3 is not a seat"):
        state.apply_action(3)
    state.apply_action(0)
    with pytest.raises(perudo.EncodingError, match="chance outcome 6 is not a face"):
        state.apply_action(6)


def test_parameters_are_checked() -> None:
    with pytest.raises(perudo.GameSetupError, match="dice=6"):
        load("italian", 2, dice=6)
    with pytest.raises(perudo.UnknownVariantError, match="klingon"):
        load("klingon", 2)
    with pytest.raises(perudo.GameSetupError, match="played by 2 to 6 players, not 7"):
        load("wango", 7)
    with pytest.raises(perudo.GameSetupError, match="not 0"):
        load("wango", 0)


def test_public_observers_leave_hands_out() -> None:
    from open_spiel.python.observation import make_observation

    game = load("italian", 2)
    state = playout(game, 2)
    public = make_observation(
        game, pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True,
            private_info=pyspiel.PrivateInfoType.NONE,
        ),
    )  # fmt: skip
    public.set_from(state, 0)
    assert not public.dict["hand"].any()
    assert "hand ?" in public.string_from(state, 0)


def test_game_lengths() -> None:
    # Italian, 2 players of 5 dice: at most 9 rounds of a declaration, 60 bids and a call.
    assert load("italian", 2).max_game_length() == 9 * 62
    # WANGO party: 2N rounds, pressure doubles the bids; no declaration.
    assert load("wango-party", 2).max_game_length() == 4 * (120 + 1)
    # OpenSpiel's own game, declared: its C++ liars_dice's length (12 bids and Liar).
    ours = load("openspiel-liars-dice", 2).max_game_length()
    assert ours == pyspiel.load_game("liars_dice").max_game_length() == 13
    # A Calza gives a die back: no game has a longest length.
    assert load("french-calza", 2).max_game_length() == 2**31 - 1
    assert load("italian", 2).num_distinct_actions() == 63
    assert load("french-jonti", 4).num_distinct_actions() == 124  # with the pass


def test_the_italian_one_die_choice_is_made_without_seeing_the_die() -> None:
    game = load("italian", 2, dice=2)
    numbers = game.table.numbers
    state = game.new_initial_state()
    for action in (0, 1, 1, 2, 2):  # seat 0 opens; hands (2, 2) and (3, 3)
        state.apply_action(action)
    state.apply_action(numbers.encode(perudo.Bid(4, 6)))
    state.apply_action(numbers.encode(perudo.Dudo()))  # no 6s: seat 0 drops to one die
    for action in (4, 0, 0):  # round 2: seat 0 holds a 5, seat 1 two 1s
        state.apply_action(action)
    assert state.current_player() == 0
    assert [numbers.decode(a) for a in state.legal_actions()] == [
        perudo.Declare("palifico"), perudo.Declare("ordinary"),
    ]  # fmt: skip
    assert "r2 hand ?" in state.information_state_string(0)
    observer_hand = game.table.encoding.field("hand")
    tensor = state.information_state_tensor(0)
    assert not any(tensor[observer_hand.start : observer_hand.stop])
    state.apply_action(numbers.encode(perudo.Declare("palifico")))
    assert "r2 hand 5" in state.information_state_string(0)


def test_a_declaration_of_ones_own_is_a_game(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    examples = Path(__file__).resolve().parent.parent / "examples"
    monkeypatch.syspath_prepend(str(examples))  # kinds pickle by their module: importable
    importlib.import_module("lose_the_difference")  # registers its scoring kind
    path = tmp_path / "lose.toml"
    path.write_text(LOSE_THE_DIFFERENCE, encoding="utf-8")
    game = pyspiel.load_game("python_perudo", {"declaration": str(path), "players": 3})
    assert game.get_parameters()["variant"] == "wango-lose-the-difference"
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    with pytest.raises(perudo.UnknownVariantError, match=r"no-such\.toml"):
        pyspiel.load_game("python_perudo", {"declaration": str(examples / "no-such.toml")})


def test_a_bluff_reroll_is_a_chance_node_per_die_seen_by_the_roller_alone() -> None:
    game = load("bluff", 3)
    numbers = game.table.numbers
    state = game.new_initial_state()
    while state.is_chance_node():  # the roll-off, then the deal
        state.apply_action(state.chance_outcomes()[0][0])
    bidder = state.current_player()
    bid = next(n for n in state.legal_actions() if isinstance(numbers.decode(n), perudo.Bid))
    state.apply_action(bid)
    assert state.current_player() == bidder  # asked whether it re-rolls
    cup = state.turns.state.players[bidder].cup
    reroll = numbers.encode(perudo.Act("reroll", cup[:2]))
    assert reroll in state.legal_actions()
    assert numbers.pass_number in state.legal_actions()
    state.apply_action(reroll)
    for face in (3, 1, 4):  # five dice, two put out: three re-rolled
        assert state.is_chance_node()
        assert [o for o, _ in state.chance_outcomes()] == list(range(6))
        state.apply_action(face - 1)
    assert not state.is_chance_node()
    player = state.turns.state.players[bidder]
    assert player.open == cup[:2]
    assert player.cup == (1, 3, 4)
    mine = state.information_state_string(bidder)
    assert "rolled:134" in mine
    assert "open" in mine
    for other in range(3):
        if other != bidder:
            assert "rolled" not in state.information_state_string(other)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_a_child_shares_nothing_it_could_change_with_its_parent() -> None:
    """States copy their log cheaply for OpenSpiel's clone (the earlier rounds shared):
    a child's moves never show in its parent's strings."""
    import copy
    import random

    game = load("italian", 3)
    state, rng = game.new_initial_state(), random.Random(5)
    for _ in range(200):  # into the second round, and a few moves into it
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        if (
            not state.is_chance_node()
            and state.turns.state.round_number == 2
            and rng.random() < 0.3
        ):
            break
    before = [state.information_state_string(p) for p in range(3)], str(state)
    child = state.child(state.legal_actions()[0])
    twin = copy.deepcopy(state)
    assert [twin.information_state_string(p) for p in range(3)] == before[0]
    for _ in range(30):
        if child.is_terminal():
            break
        if child.is_chance_node():
            child.apply_action(child.chance_outcomes()[0][0])
        else:
            child.apply_action(child.legal_actions()[-1])
    assert ([state.information_state_string(p) for p in range(3)], str(state)) == before


def decision_points(game: pyspiel.Game, seed: int, share: float) -> list[pyspiel.State]:
    """About ``share`` of the decisions of a random game, each a state to act in."""
    rng, states = random.Random(seed), []
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        if rng.random() < share:
            states.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return states


@pytest.mark.parametrize("key", EDITIONS)
def test_a_resample_keeps_all_the_player_knows_and_draws_the_hidden_dice(key: str) -> None:
    """resample_from_infostate (OpenSpiel's IS-MCTS): the player's information state and
    legal moves stay; the player's own hand and every die in the open stay; the other
    hands of the round are drawn again."""
    players = min(3, perudo.load_variant(key).players.max)
    game, draw = load(key, players), random.Random(7).random
    checked = changed = 0
    for seed in range(100):
        if checked >= 30:
            break
        for state in decision_points(game, seed, 0.3):
            player = state.current_player()
            mine = state.information_state_string(player)
            for _ in range(3):
                other = state.resample_from_infostate(player, draw)
                assert other.information_state_string(player) == mine
                assert other.legal_actions() == state.legal_actions()
                was, now = state.turns.state.players, other.turns.state.players
                assert [p.open for p in now] == [p.open for p in was]
                if not state.turns.state.view(player).dice_hidden:
                    assert now[player].dice == was[player].dice
                changed += [p.dice for p in now] != [p.dice for p in was]
                checked += 1
    assert checked >= 30
    assert changed > checked // 2


def test_a_resample_draws_each_face_of_a_hidden_die_alike() -> None:
    """One die each: the other seat's die, resampled 1,200 times, shows each face about
    200 times (a fair die would leave 90 to 310 with probability 1 - 10**-12)."""
    game = load("openspiel-liars-dice", 2)
    state = game.new_initial_state()
    for face in (4, 0):  # seat 0 holds a 5, seat 1 a 1
        state.apply_action(face)
    draw = random.Random(11).random
    counts = [0] * 6
    for _ in range(1200):
        other = state.resample_from_infostate(0, draw)
        assert other.turns.state.players[0].dice == (5,)
        (face,) = other.turns.state.players[1].dice
        counts[face - 1] += 1
    assert all(90 <= count <= 310 for count in counts), counts
    with pytest.raises(ValueError, match="not a seat"):
        state.resample_from_infostate(2, draw)


def test_a_resample_keeps_the_dice_a_bluff_player_put_out_under_their_cup() -> None:
    """Bluff: after the other seat puts dice out and re-rolls, a resample keeps those dice
    in the open (they were in its hand) and draws its hand and its re-roll again."""
    game = load("bluff", 2)
    numbers = game.table.numbers
    state = game.new_initial_state()
    state.apply_action(1)  # the roll-off: seat 1 opens
    for outcome in (1, 1, 2, 2, 3, 5, 5, 5, 0, 0):  # seat 0: 2 2 3 3 4; seat 1: 6 6 6 1 1
        state.apply_action(outcome)
    state.apply_action(numbers.encode(perudo.Bid(3, 6)))
    state.apply_action(numbers.encode(perudo.Act("reroll", (6, 6, 6))))
    for outcome in (2, 3):  # seat 1 re-rolls its two 1s: a 3 and a 4
        state.apply_action(outcome)
    assert state.current_player() == 0
    seen, draw = set(), random.Random(3).random
    for _ in range(40):
        other = state.resample_from_infostate(0, draw)
        assert other.information_state_string(0) == state.information_state_string(0)
        bidder = other.turns.state.players[1]
        assert bidder.open == (6, 6, 6)
        seen.add(bidder.cup)
    assert len(seen) > 10


def test_a_resample_replays_only_the_round_being_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """A resample replays this round from a state kept before its first deal, not the
    whole game (it cost as much as the game so far: IS-MCTS asks for one at every
    simulation); a resampled state keeps the same round start, and earlier rounds whole."""
    state = next(s for s in decision_points(load("italian", 3), 5, 1.0) if s._round_number >= 4)
    start = state._round_start
    history = state.history()
    assert start.state.history() == history[: start.moves]
    assert start.state.is_chance_node()
    applied = []
    apply = PerudoState._apply_action

    def counted(self: PerudoState, action: int) -> None:
        applied.append(action)
        apply(self, action)

    monkeypatch.setattr(PerudoState, "_apply_action", counted)
    player = state.current_player()
    other = state.resample_from_infostate(player, random.Random(1).random)
    this_round = len(history) - start.moves
    assert 0 < this_round < start.moves
    assert len(applied) == 2 * this_round  # the round walked once, then replayed
    assert other._round_start is start
    assert other.history()[: start.moves] == history[: start.moves]
    assert other.information_state_string(player) == state.information_state_string(player)
    applied.clear()
    other.resample_from_infostate(player, random.Random(2).random)
    assert len(applied) == 2 * this_round


def test_is_mcts_plays_full_games_of_python_perudo() -> None:
    """OpenSpiel's IS-MCTS, which asks for a resample at every simulation, plays whole
    games of several editions (its own sampler, as it comes)."""
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import ismcts, mcts

    for key in ("italian", "bluff", "french-jonti", "wango-party"):
        game = load(key, 2, dice=2)
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
        bot = ismcts.ISMCTSBot(
            game, evaluator, 2.0, 20, random_state=np.random.RandomState(1)
        )  # fmt: skip
        state, rng = game.new_initial_state(), random.Random(1)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            elif state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert sum(state.returns()) == pytest.approx(0.0), key


@pytest.mark.slow
def test_is_mcts_beats_a_random_player() -> None:
    """IS-MCTS with 30 simulations a move, resampling from its information state, wins
    most two-dice Italian games against uniformly random moves (measured: 37 of 40;
    a player no better than random would win 28 or more with probability 0.008)."""
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import ismcts, mcts

    game, wins = load("italian", 2, dice=2), 0
    for number in range(40):
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(number))
        bot = ismcts.ISMCTSBot(
            game, evaluator, 2.0, 30, random_state=np.random.RandomState(number)
        )  # fmt: skip
        draw = random.Random(number).random
        bot.set_resampler(
            lambda state, player, draw=draw: state.resample_from_infostate(player, draw)
        )
        seat, rng = number % 2, random.Random(number)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            elif state.current_player() == seat:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        wins += state.returns()[seat] > 0
    assert wins >= 28, wins


def test_a_scoring_that_is_not_zero_sum_is_declared_general_sum(tmp_path: Path) -> None:
    """Regression: every edition was declared ZERO_SUM, and a points scoring whose points
    do not sum to zero (a commission) made OpenSpiel's zero-sum algorithms silently wrong."""
    from test_axis_scoring import Commission

    perudo.register_kind(Commission)
    declaration = tmp_path / "commission.toml"
    declaration.write_text(
        'extends = "openspiel-liars-dice"\nkey = "commission"\n[scoring]\n'
        'kind = "test-commission"\nrounds = 1\npoints = 2\nprovenance = "reading"\n'
        'reason = "The house takes a point."\n'
    )
    game = pyspiel.load_game("python_perudo", {"declaration": str(declaration)})
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert sum(state.returns()) == -1.0  # the house's point: not zero
    plain = pyspiel.load_game("python_perudo", {"variant": "openspiel-liars-dice"})
    assert plain.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert plain.utility_sum() == 0.0


def test_an_edition_whose_clock_costs_a_die_is_a_game(tmp_path: Path) -> None:
    path = tmp_path / "forfeit.toml"
    path.write_text(
        'extends = "italian"\nkey = "italian-forfeit"\nname = "Italian, time costs a die"\n\n'
        '[clock]\nkind = "forfeit"\nseconds = 30\nprovenance = "reading"\n'
        'reason = "A table where time costs a die."\n',
        encoding="utf-8",
    )
    game = pyspiel.load_game("python_perudo", {"declaration": str(path), "players": 3})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.legal_actions()[-1])  # a bid
    assert "time" in [state.action_to_string(a) for a in state.legal_actions()]
