"""Stable-Baselines3: :class:`PerudoVecEnv`, a ``VecEnv`` of many games on the batch engine.

Needs the extra ``perudo[sb3]`` (Stable-Baselines3 and sb3-contrib; PyTorch comes with
them). It is :class:`~perudo.interop.gymnasium.PerudoVectorEnv` in the form SB3's
algorithms step: one learning seat per game against batch bots, its observation vector
(:func:`perudo.encoding.observation_encoding`) as the observation, the action numbers of
:class:`~perudo.interop.turns.TurnActions`, a game that ends started again in the same step
(its last observation in ``infos[i]["terminal_observation"]``, and whether the agent won it
in ``infos[i]["won"]``), and
:meth:`PerudoVecEnv.action_masks` for sb3-contrib's ``MaskablePPO``. An illegal action
ends its episode at the edition's lowest return (``infos[i]["illegal"]``).

>>> from perudo.interop.sb3 import PerudoVecEnv
>>> envs = PerudoVecEnv("italian", players=2, num_envs=4, seed=1)
>>> observations = envs.reset()
>>> observations.shape[0], envs.action_masks().shape[0]
(4, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

try:
    import numpy as np
    from stable_baselines3.common.vec_env import VecEnv
except ImportError as error:  # pragma: no cover - depends on what is installed
    from perudo.errors import install_hint

    raise ImportError(f"perudo.interop.sb3 needs {error.name}: {install_hint('sb3')}") from error

from perudo.interop.gymnasium import PerudoVectorEnv
from perudo.variant import Variant

__all__ = ["PerudoVecEnv", "win_rate"]


class PerudoVecEnv(VecEnv):
    """``num_envs`` games of ``variant`` at a table of ``players``, the agent at ``seat``
    of each, the other seats played by the batch form of ``opponents`` (``"random"``,
    ``"odds"`` or ``"reader"``). ``seed`` seeds the first :meth:`reset` (SB3's
    ``seed()`` seeds the next one); ``starting_dice`` gives each seat's dice at the start
    of every game, a handicap (``None``: the edition's)."""

    def __init__(
        self,
        variant: Variant | str = "italian",
        players: int = 2,
        num_envs: int = 16,
        *,
        seat: int = 0,
        opponents: str = "odds",
        seed: int | None = None,
        starting_dice: Sequence[int] | None = None,
    ) -> None:
        self.games = PerudoVectorEnv(
            variant, players, num_envs, seat=seat, opponents=opponents,
            starting_dice=starting_dice,
        )  # fmt: skip
        space: Any = self.games.single_observation_space
        space = space["observation"]
        super().__init__(num_envs, space, self.games.single_action_space)
        self._first_seed = seed
        self._actions: Any = None

    def reset(self) -> Any:
        """Start every game again; the observations."""
        seed = next((s for s in self._seeds if s is not None), self._first_seed)
        self._first_seed = None
        observations, _ = self.games.reset(seed=seed)
        self._reset_seeds()
        return observations["observation"]

    def step_async(self, actions: Any) -> None:
        """Keep each game's action (a number of
        :class:`~perudo.interop.turns.TurnActions`) for :meth:`step_wait`."""
        self._actions = np.asarray(actions).astype(np.int64)

    def step_wait(self) -> tuple[Any, Any, Any, list[dict[str, Any]]]:
        """Play the actions given to :meth:`step_async`; the observations, rewards, ends of
        episodes and infos, a game that ended started again."""
        observations, rewards, terminated, truncated, extra = self.games.step(self._actions)
        done = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if done.any():
            final = observations["observation"]
            table = self.games._table
            won = table.over & table.winners[:, self.games.seat]
            for game in np.flatnonzero(done):
                infos[game] = {
                    "terminal_observation": final[game],
                    "TimeLimit.truncated": bool(truncated[game]),
                    "illegal": bool(extra["illegal"][game]),
                    "won": bool(won[game]),
                }
            self.games._start(done)
            observations = self.games._observe()
        return observations["observation"], rewards.astype(np.float32), done, infos

    def action_masks(self) -> Any:
        """``(num_envs, actions)`` booleans: each game's legal actions now."""
        return self.games.action_masks()

    def close(self) -> None:
        """Nothing to release: the games live in this process."""

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """The attribute ``attr_name`` of the games (one value for all of them)."""
        value = getattr(self.games, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Set the attribute ``attr_name`` of the games (of all of them)."""
        setattr(self.games, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        """Each game's ``action_masks()`` (what ``MaskablePPO`` asks for), or the result of
        the games' own method, once per game asked."""
        games = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[game] for game in games]
        result = getattr(self.games, method_name)(*method_args, **method_kwargs)
        return [result for _ in games]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        """No game is wrapped: they are rows of one batch."""
        return [False for _ in self._get_indices(indices)]


def win_rate(
    model: Any,
    variant: Variant | str,
    players: int,
    opponents: str,
    *,
    games: int = 200,
    num_envs: int = 64,
    seed: int = 0,
    deterministic: bool = True,
) -> float:
    """The share of ``games`` whole games that ``model`` (an SB3 model with ``predict``;
    with ``action_masks`` for a maskable one) wins at seat 0 against ``opponents``."""
    envs = PerudoVecEnv(variant, players, min(num_envs, games), opponents=opponents, seed=seed)
    observations = envs.reset()
    wins = played = 0
    while played < games:
        actions, _ = _predict(model, observations, envs.action_masks(), deterministic)
        observations, _, done, infos = envs.step(actions)
        finished = np.flatnonzero(done)[: games - played]
        played += len(finished)
        wins += sum(infos[game]["won"] for game in finished)
    return wins / games


def _predict(model: Any, observations: Any, masks: Any, deterministic: bool) -> Sequence[Any]:
    try:
        return model.predict(  # type: ignore[no-any-return]
            observations, action_masks=masks, deterministic=deterministic
        )
    except TypeError:  # a model without masks
        return model.predict(observations, deterministic=deterministic)  # type: ignore[no-any-return]
