"""The PettingZoo AEC environment: PettingZoo's own checks, rewards, out-of-turn Jonti."""

from __future__ import annotations

import re
import warnings

import pytest

import perudo

pytest.importorskip(
    "pettingzoo", reason="the pettingzoo extra is not installed: pip install '.[pettingzoo]'"
)

import numpy as np
from pettingzoo.test import api_test, seed_test

from perudo.interop.pettingzoo import PerudoEnv, perudo_env

EDITIONS = perudo.variant_names()


@pytest.mark.parametrize(
    ("key", "players"),
    [(k, n) for k in EDITIONS for n in (2, 4, 6) if n <= perudo.load_variant(k).players.max],
)
def test_pettingzoo_api_and_seed_tests(key: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("error")  # any other warning fails the test
        # PettingZoo warns that dict observations (observation + action_mask) are not
        # arrays; its own classic games do the same.
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably")
        api_test(perudo_env(key, players), num_cycles=300)
        seed_test(lambda: perudo_env(key, players), num_cycles=300)


def play_out(env, rng: np.random.Generator) -> tuple[dict[str, float], int]:  # type: ignore[no-untyped-def]
    totals = dict.fromkeys(env.possible_agents, 0.0)
    passes = 0
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        action = None
        if not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            passes += action == env.unwrapped.numbers.pass_number
        env.step(action)
    return totals, passes


@pytest.mark.parametrize("key", EDITIONS)
def test_rewards_follow_the_scoring_and_sum_to_zero(key: str) -> None:
    players = min(4, perudo.load_variant(key).players.max)
    env = perudo_env(key, players)
    for seed in range(4):
        env.reset(seed=seed)
        totals, _ = play_out(env, np.random.default_rng(seed))
        state = env.unwrapped.turns.state
        assert state.is_over
        if state.variant.scoring.zero_sum:  # lives: the rewards are the lives left
            assert sum(totals.values()) == pytest.approx(0.0)
        if state.variant.scoring.moves_dice:
            places = [-1.0 + 2 * k / (players - 1) for k in range(players)]
            assert sorted(totals.values()) == pytest.approx(places)
            (winner,) = state.winners
            assert totals[f"player_{winner}"] == 1.0
        else:
            assert [totals[a] for a in env.possible_agents] == [p.score for p in state.players]
        assert env.agents == []


def test_jonti_is_offered_out_of_turn() -> None:
    env = perudo_env("french-jonti", 6)
    asked = 0
    for seed in range(6):
        env.reset(seed=seed)
        asked += play_out(env, np.random.default_rng(seed))[1]
    assert asked > 0
    raw: PerudoEnv = env.unwrapped
    assert raw.action_space("player_0").n == raw.numbers.encoding.size + 1


def test_an_asked_seat_sees_call_and_pass_only() -> None:
    env = perudo_env("french-jonti", 4)
    env.reset(seed=0)
    raw: PerudoEnv = env.unwrapped
    for _ in range(2000):
        turns = raw.turns
        assert turns is not None
        if turns.asking:
            observation = env.observe(env.agent_selection)
            legal = np.flatnonzero(observation["action_mask"]).tolist()
            assert legal == [1, raw.numbers.pass_number]  # Jonti and pass
            assert env.agent_selection == f"player_{turns.asking[0]}"
            assert turns.state.to_act != turns.asking[0]
            return
        if turns.is_over:
            env.reset(seed=len(raw.turns.state.log.moves) + 1)
            continue
        observation = env.observe(env.agent_selection)
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[len(legal) // 2]))  # mid-table bids keep rounds going
    pytest.fail("no seat was asked about Jonti")


def test_observations_are_the_encoded_views() -> None:
    env = perudo_env("italian", 3)
    env.reset(seed=5)
    raw: PerudoEnv = env.unwrapped
    assert raw.turns is not None
    for seat, agent in enumerate(env.possible_agents):
        observation = env.observe(agent)
        view = raw.encoding.decode(observation["observation"].tolist(), names=env.possible_agents)
        assert view == raw.turns.state.view(seat)
        assert observation["action_mask"].any() == (seat == raw.turns.seat)


def test_illegal_actions_are_refused() -> None:
    env = perudo_env("italian", 3)
    env.reset(seed=5)
    dudo = 0  # no bid yet
    with pytest.raises(perudo.IllegalActionError) as error:
        env.step(dudo)
    assert error.value.reason == "nothing-to-challenge"
    with pytest.raises(perudo.EncodingError, match="not 0 to"):
        env.step(10**6)
    # Regression: a float was truncated to a number (3.7 played action 3).
    with pytest.raises(perudo.EncodingError, match=r"action number 3\.7 is not an integer"):
        env.step(3.7)  # type: ignore[arg-type]
    env.step(np.int64(env.unwrapped.numbers.encode(perudo.Bid(1, 2))))  # NumPy integers work
    assert env.unwrapped.turns.state.bid == perudo.Bid(1, 2)
    with pytest.raises(
        perudo.EncodingError, match="None is the step of an agent whose game has ended"
    ):
        env.step(None)


def test_render_and_bad_arguments() -> None:
    env = PerudoEnv("italian", 2, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text is not None
    assert text.startswith("Italian Palifico - round 1\n  player_0  ? ? ? ? ?  5 dice")
    assert text.endswith(f"deciding: {env.agent_selection}")
    assert "Player" not in text  # the agents' names only
    assert set(re.findall(r"player_\d  (.*?)  5 dice", text)) == {"? ? ? ? ?"}  # no hand shown
    env.step(next(i for i, ok in enumerate(env.observe(env.agent_selection)["action_mask"]) if ok))
    bidder = env.possible_agents[1 - env.possible_agents.index(env.agent_selection)]
    assert f"Bids: {bidder} 1x" in (env.render() or "")
    with pytest.raises(ValueError, match="render_mode 'video'"):
        PerudoEnv("italian", 2, render_mode="video")
    with pytest.raises(perudo.GameSetupError, match="not 11"):
        PerudoEnv("italian", 11)
    with pytest.raises(RuntimeError, match="reset"):
        PerudoEnv("italian", 2).observe("player_0")


def test_a_rule_kind_from_outside_perudo_plays_in_pettingzoo(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "spot on" (examples/spot_on.py) moves several seats' dice in one call: the observation
    # carries each seat's change (last_changes) and the API test still passes (issue 14).
    import importlib
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).parent.parent / "examples"))
    variant = importlib.import_module("spot_on").variant()  # one module: its kinds, once
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably")
        api_test(perudo_env(variant, 3), num_cycles=300)
    encoding = perudo.encoding.observation_encoding(variant, 3)
    assert encoding.field("last_changes").length == 3


@pytest.mark.parametrize(("key", "players"), [("french-jonti", 4), ("wango-party", 3)])
def test_the_mask_read_from_the_observation_is_the_turns_mask(key: str, players: int) -> None:
    """The mask comes from the observation's legal field (and the pass): the numbers of the
    deciding seat's legal decisions, exactly."""
    import random

    from perudo.encoding import observation_encoding
    from perudo.interop._spaces import observe
    from perudo.interop.turns import TurnActions, Turns

    encoding = observation_encoding(key, players)
    numbers = TurnActions(encoding.actions)
    rng = random.Random(5)
    asked = 0
    for seed in range(20):
        turns = Turns.start(perudo.new_game(key, players, seed=seed))
        while not turns.is_over:
            seat = turns.seat
            assert seat is not None
            mask = observe(encoding, numbers, turns, seat, may_act=True)["action_mask"]
            assert mask.tolist() == numbers.mask(turns)
            asked += bool(turns.asking)
            turns = turns.apply(rng.choice(turns.legal_actions()))
    assert asked or key != "french-jonti"


def test_env_and_raw_env_are_named_as_pettingzoos_own_games() -> None:
    from pettingzoo.utils import wrappers

    from perudo.interop import pettingzoo

    assert isinstance(pettingzoo.env("wango", 3), wrappers.OrderEnforcingWrapper)
    raw = pettingzoo.raw_env("wango", 3)
    assert isinstance(raw, PerudoEnv)
    assert raw.possible_agents == ["player_0", "player_1", "player_2"]


def test_letting_the_time_run_out_is_an_action_where_it_costs() -> None:
    variant = perudo.load_variant("italian").derive(
        "italian-forfeit", reason="Time costs a die.", clock={"kind": "forfeit", "seconds": 30}
    )
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably")
        api_test(perudo_env(variant, 3), num_cycles=300)
    numbers = perudo.encoding.action_encoding(variant, 3)
    assert numbers.encode(perudo.OutOfTime()) == 1  # after the challenge
    assert perudo.encoding.observation_encoding(variant, 3).field("last_call").length == 3
