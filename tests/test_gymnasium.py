"""The Gymnasium environment: one seat against the library's bots."""

from __future__ import annotations

import subprocess
import sys
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


def _needs_the_batch_engine() -> None:
    """The vector env plays on the batch engine (the gymnasium extra brings numba; the
    pettingzoo extra brings gymnasium without it)."""
    pytest.importorskip("numba", reason="the batch extra is not installed: pip install '.[batch]'")


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
        assert info == {"illegal": False}
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
    assert info["illegal"] is True
    assert info["reason"] in perudo.REASONS
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


# --- the vector form (issue 17) ---------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("key", "players", "opponents"),
    [
        ("italian", 3, "random"),
        ("french-jonti", 4, "odds"),
        ("wango-party", 3, "random"),
        ("bluff", 3, "odds"),
    ],
)
def test_vector_env_steps_within_its_spaces_and_its_masks_match_the_views(
    key: str, players: int, opponents: str
) -> None:
    _needs_the_batch_engine()
    from perudo.interop.gymnasium import PerudoVectorEnv

    envs = PerudoVectorEnv(key, players, num_envs=32, seat=1, opponents=opponents)
    encoding = envs.encoding
    observations, _ = envs.reset(seed=3)
    episodes, returns = 0, np.zeros(32)
    asked = 0
    for _ in range(200):
        assert envs.observation_space.contains(observations)
        for row in range(32):
            mask = observations["action_mask"][row]
            if not mask.any():
                continue
            view = encoding.decode(observations["observation"][row])
            legal = set(envs.numbers.encoding.encode_all(view.legal_actions))
            flagged = set(np.flatnonzero(mask).tolist())
            if envs.numbers.pass_number in flagged:  # asked out of turn: Jonti, a re-roll
                asked += 1
                assert flagged == legal | {envs.numbers.pass_number}
                assert view.to_act != 1
            else:
                assert flagged == legal
                assert view.to_act == 1
        masks = envs.action_masks()  # MaskablePPO's way: the observation's mask, as flags
        assert masks.dtype == np.bool_
        assert (masks == observations["action_mask"].astype(bool)).all()
        observations, rewards, terminated, truncated, infos = envs.step(envs.sample_legal())
        assert not truncated.any()
        assert not infos["illegal"].any()
        returns += rewards
        episodes += int(terminated.sum())
        returns[terminated] = 0
    assert episodes > 32
    assert asked > 0 or key not in ("french-jonti", "bluff")


def test_vector_env_resets_on_the_next_step_and_an_illegal_action_loses() -> None:
    _needs_the_batch_engine()
    from perudo.interop.gymnasium import PerudoVectorEnv

    envs = PerudoVectorEnv("wango", 2, num_envs=8, opponents="random")
    observations, _ = envs.reset(seed=1)
    illegal = np.where(observations["action_mask"][:, 0] == 1, 1, 0)  # Dudo where legal: not
    illegal[:] = envs.numbers.encoding.encode(perudo.Bid(1, 1))  # ones may not open
    bad = observations["action_mask"][np.arange(8), illegal] == 0
    observations, rewards, terminated, _, infos = envs.step(illegal)
    assert (infos["illegal"] == bad).all()
    assert (terminated[bad]).all()
    assert (rewards[bad] == -1.0).all()
    assert not observations["action_mask"][bad].any()
    observations, rewards, terminated, _, _ = envs.step(np.zeros(8, dtype=np.int64))
    assert (rewards[bad] == 0).all()
    assert not terminated[bad].any()
    assert observations["action_mask"][bad].any(axis=1).all()


def test_vector_env_is_reproducible_and_refuses_what_it_cannot_play() -> None:
    _needs_the_batch_engine()
    from perudo.interop.gymnasium import PerudoVectorEnv

    def run() -> list[float]:
        envs = PerudoVectorEnv("italian", 3, num_envs=8, opponents="odds")
        envs.reset(seed=9)
        envs.action_space.seed(9)
        total = []
        for _ in range(50):
            _, rewards, _, _, _ = envs.step(envs.sample_legal())
            total.append(float(rewards.sum()))
        return total

    assert run() == run()
    with pytest.raises(ValueError, match="no batch form"):
        PerudoVectorEnv("italian", 3, opponents="perudo.bots:OddsBot")
    with pytest.raises(ValueError, match="seat"):
        PerudoVectorEnv("italian", 3, seat=3)


def test_make_vec_builds_the_batch_engine_environment() -> None:
    _needs_the_batch_engine()
    from perudo.interop.gymnasium import PerudoVectorEnv

    envs = gymnasium.make_vec(
        "perudo/italian-v0", num_envs=4, vectorization_mode="vector_entry_point", players=3
    )
    assert isinstance(envs.unwrapped, PerudoVectorEnv)
    observations, _ = envs.reset(seed=1)
    assert observations["observation"].shape[0] == 4


def test_the_single_env_gives_its_masks_as_maskable_ppo_asks() -> None:
    env = PerudoSoloEnv("french-jonti", 3, opponents="random")
    observation, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(300):
        masks = env.action_masks()
        assert masks.dtype == np.bool_
        assert (masks == observation["action_mask"].astype(bool)).all()
        assert masks.any()
        observation, _, done, _, _ = env.step(rng.choice(np.flatnonzero(masks)))
        if done:
            observation, _ = env.reset()


def test_make_with_the_module_and_id_works_in_a_fresh_interpreter() -> None:
    code = (
        "import gymnasium\n"
        "env = gymnasium.make('perudo.interop.gymnasium:perudo/italian-v0', players=3)\n"
        "print(env.unwrapped.variant.key, env.unwrapped.players)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["italian", "3"]


def test_the_ansi_render_draws_the_agents_table() -> None:
    env = PerudoSoloEnv("italian", 3, seat=1, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text == str(env.turns.state.view(1))  # type: ignore[union-attr]
    assert text.startswith("Italian Palifico - round 1")
    assert "<GameState" not in text


def test_the_illegal_flag_has_one_type_in_every_vectorisation_mode() -> None:
    _needs_the_batch_engine()
    flags = {}
    for mode in ("sync", "vector_entry_point"):
        envs = gymnasium.make_vec(
            "perudo.interop.gymnasium:perudo/italian-v0", num_envs=3, vectorization_mode=mode,
            players=3,
        )  # fmt: skip
        observations, _ = envs.reset(seed=1)
        legal = [int(np.flatnonzero(mask)[0]) for mask in observations["action_mask"]]
        _, _, _, _, infos = envs.step(np.array(legal))
        flags[mode] = infos["illegal"]
        envs.close()
    for mode, flag in flags.items():
        assert flag.dtype == np.bool_, mode
        assert not flag.any(), mode


def test_vector_env_deals_each_seat_its_starting_dice_in_every_game() -> None:
    _needs_the_batch_engine()
    from perudo.interop.gymnasium import PerudoVectorEnv

    envs = PerudoVectorEnv("italian", 3, num_envs=16, opponents="random", starting_dice=(2, 5, 4))
    observations, _ = envs.reset(seed=4)
    start = envs.encoding.field("starting_dice")
    seen = observations["observation"][:, start.start : start.stop]
    assert (seen == [2, 5, 4]).all()  # the agent's seat first: seat 0
    for _ in range(400):  # games end and start again: each with the handicap
        observations, *_ = envs.step(envs.sample_legal())
        assert (observations["observation"][:, start.start : start.stop] == [2, 5, 4]).all()
        assert (envs._table.held <= [2, 5, 4]).all()
    with pytest.raises(perudo.GameSetupError, match="starting_dice"):
        PerudoVectorEnv("italian", 3, starting_dice=(2, 5))
