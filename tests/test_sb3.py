"""The Stable-Baselines3 VecEnv over the batch engine (perudo.interop.sb3)."""

from __future__ import annotations

import pytest

pytest.importorskip(
    "stable_baselines3", reason="the sb3 extra is not installed: pip install '.[sb3]'"
)
pytest.importorskip("sb3_contrib", reason="the sb3 extra is not installed: pip install '.[sb3]'")

import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import VecMonitor

from perudo.encoding import observation_encoding
from perudo.interop.sb3 import PerudoVecEnv, win_rate


@pytest.mark.slow
@pytest.mark.parametrize(("key", "players"), [("italian", 2), ("french-jonti", 4)])
def test_steps_restart_ended_games_at_once_and_masks_match_the_views(
    key: str, players: int
) -> None:
    """SB3's contract: a game that ends starts again in the same step, its last observation
    in the infos; the masks are the legal actions, every legal step is taken."""
    envs = PerudoVecEnv(key, players, num_envs=8, opponents="odds", seed=3)
    size = observation_encoding(key, players).size
    observations = envs.reset()
    assert observations.shape == (8, size)
    assert is_masking_supported(envs)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400):
        masks = get_action_masks(envs)
        assert masks.shape == (8, envs.action_space.n)
        assert masks.any(axis=1).all()  # every game has a decision pending, none is over
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        observations, rewards, done, infos = envs.step(actions)
        assert observations.shape == (8, size)
        assert rewards.dtype == np.float32
        for game in np.flatnonzero(done):
            ended += 1
            info = infos[game]
            assert info["terminal_observation"].shape == (size,)
            assert not info["illegal"]
            assert info["won"] in (True, False)
            # The new game's first observation: round 1, no bid yet.
            assert not np.array_equal(info["terminal_observation"], observations[game])
        assert all(not infos[game] for game in np.flatnonzero(~done))
    assert ended > 20


def test_an_illegal_action_ends_its_episode_at_the_lowest_return() -> None:
    envs = PerudoVecEnv("italian", 2, num_envs=2, opponents="random", seed=1)
    envs.reset()
    masks = envs.action_masks()
    illegal = [int(np.flatnonzero(~masks[game])[0]) for game in range(2)]
    _, rewards, done, infos = envs.step(np.array(illegal))
    assert done.all()
    assert [info["illegal"] for info in infos] == [True, True]
    assert (rewards == -1).all()
    assert envs.action_masks().any(axis=1).all()  # both started again


@pytest.mark.slow
def test_maskable_ppo_trains_and_its_win_rates_are_counted() -> None:
    """A few hundred steps of MaskablePPO run through the adapter (VecMonitor counting the
    episodes); win_rate counts whole games: a model that always bids the lowest legal
    action never wins one against the odds bot."""
    envs = VecMonitor(PerudoVecEnv("italian", 2, num_envs=16, opponents="odds", seed=2))
    model = MaskablePPO("MlpPolicy", envs, n_steps=32, batch_size=256, seed=1, verbose=0)
    model.learn(total_timesteps=1024)
    assert model.num_timesteps >= 1024
    assert len(model.ep_info_buffer) > 0
    rate = win_rate(model, "italian", 2, "random", games=50, seed=4)
    assert 0.0 <= rate <= 1.0


class RandomLegal:
    """A model that plays uniformly among the legal actions."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng(7)

    def predict(
        self, observations: object, action_masks: np.ndarray, deterministic: bool
    ) -> tuple[np.ndarray, None]:
        return np.argmax(self.rng.random(action_masks.shape) * action_masks, axis=1), None


def test_win_rate_counts_whole_games() -> None:
    """Random play against the random bot at two players wins about half the games (400
    games: within 0.1 is four standard errors); against the odds bot, far fewer."""
    even = win_rate(RandomLegal(), "italian", 2, "random", games=400, seed=5)
    assert 0.4 <= even <= 0.6, even
    assert win_rate(RandomLegal(), "italian", 2, "odds", games=400, seed=6) < even - 0.1


def test_a_handicap_is_dealt_in_every_game() -> None:
    envs = PerudoVecEnv("italian", 2, num_envs=4, opponents="random", seed=2, starting_dice=(3, 5))
    envs.reset()
    assert (envs.games._table.start_dice == [3, 5]).all()
    assert (envs.games._table.held <= [3, 5]).all()
