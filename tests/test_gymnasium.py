"""The Gymnasium environment: one seat against the library's bots."""

from __future__ import annotations

import warnings

import pytest

import perudo

pytest.importorskip(
    "gymnasium", reason="the gymnasium extra is not installed: pip install '.[gymnasium]'"
)

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

from perudo.interop.gymnasium import PerudoSoloEnv

EDITIONS = perudo.variant_names()


@pytest.mark.parametrize(
    ("key", "players"),
    [(k, n) for k in EDITIONS for n in (2, 4) if n <= perudo.load_variant(k).players.max],
)
def test_gymnasium_check_env(key: str, players: int) -> None:
    for mode in (None, "ansi"):
        with warnings.catch_warnings():
            warnings.filterwarnings("error")
            warnings.filterwarnings("ignore", ".*Not able to test alternative render modes")
            check_env(PerudoSoloEnv(key, players, render_mode=mode), skip_render_check=False)


def episode(env: PerudoSoloEnv, seed: int) -> tuple[float, int]:
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        legal = np.flatnonzero(observation["action_mask"])
        observation, reward, done, truncated, info = env.step(int(rng.choice(legal)))
        assert not truncated
        assert "illegal" not in info
        total, steps = total + reward, steps + 1
    return total, steps


@pytest.mark.parametrize("key", EDITIONS)
def test_episodes_end_with_the_agents_return(key: str) -> None:
    env = PerudoSoloEnv(key, min(3, perudo.load_variant(key).players.max), opponents="random")
    for seed in range(5):
        total, _ = episode(env, seed)
        turns = env.turns
        assert turns is not None
        assert total == pytest.approx(turns.returns()[0])
        state = turns.state
        assert state.is_over or not state.players[0].dice
        if not state.variant.scoring.moves_dice:
            assert total == state.players[0].score


def test_equal_seeds_play_equal_games() -> None:
    first, second = PerudoSoloEnv("french-jonti", 4), PerudoSoloEnv("french-jonti", 4)
    assert episode(first, 11) == episode(second, 11)
    assert first.turns is not None
    assert second.turns is not None
    assert first.turns.state == second.turns.state


def test_an_illegal_action_loses_the_episode_by_default() -> None:
    env = PerudoSoloEnv("wango-party", 2)
    observation, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    observation, reward, terminated, truncated, info = env.step(illegal)
    assert terminated
    assert not truncated
    assert info["illegal"] in perudo.REASONS
    assert info["message"]
    assert reward == env.encoding.field("score").low  # the lowest party score
    assert not observation["action_mask"].any()
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(0)


def test_illegal_actions_can_raise_instead() -> None:
    env = PerudoSoloEnv("italian", 2, illegal="raise")
    observation, _ = env.reset(seed=3)
    before = env.turns
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(perudo.IllegalActionError):
        env.step(illegal)
    assert env.turns is before
    with pytest.raises(perudo.EncodingError):
        env.step(env.action_space.n)
    with pytest.raises(perudo.EncodingError, match=r"2\.0 is not an integer"):
        env.step(2.0)  # type: ignore[arg-type]


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="seat 3 is not a seat"):
        PerudoSoloEnv("italian", 2, seat=3)
    with pytest.raises(ValueError, match="unknown bot 'genius'"):
        PerudoSoloEnv("italian", 2, opponents="genius")
    with pytest.raises(ValueError, match="illegal='ignore'"):
        PerudoSoloEnv("italian", 2, illegal="ignore")
    with pytest.raises(RuntimeError, match="reset"):
        PerudoSoloEnv("italian", 2).step(0)


def test_every_shipped_edition_is_registered_with_gymnasium() -> None:
    # issue 18: gymnasium.make("perudo/...") works
    ids = sorted(k for k in gymnasium.registry if k.startswith("perudo/"))
    assert ids == sorted(f"perudo/{key}-v0" for key in perudo.variant_names())
    env = gymnasium.make("perudo/french-jonti-v0", players=4, seat=2)
    assert (env.unwrapped.variant.key, env.unwrapped.players, env.unwrapped.seat) == (
        "french-jonti", 4, 2
    )  # fmt: skip
    observation, _ = env.reset(seed=3)
    assert observation["action_mask"].any()
    assert gymnasium.make("perudo/italian-v0").unwrapped.players == 2  # the smallest table
