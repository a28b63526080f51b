"""A PettingZoo AEC environment for every edition: :func:`env` (and :func:`raw_env`).

Needs the extra ``perudo[pettingzoo]`` (``pip install '.[pettingzoo]'`` in a checkout).

* Agents are ``"player_0"`` to ``"player_{n-1}"``, one per seat.
* An action is a number of :class:`perudo.interop.turns.TurnActions`: the edition's
  :class:`~perudo.encoding.ActionEncoding`, plus a last number, *pass*, in editions with an
  out-of-turn exact call.
* An observation is a dict: ``"observation"``, the
  :class:`~perudo.encoding.ObservationEncoding` of the agent's
  :class:`~perudo.PlayerView` (``int64``), and ``"action_mask"``, 1 for each number the
  agent may play now (all 0 when it is not the agent's decision) (``int8``).
* Out-of-turn Jonti (French Jonti edition): after each bid, every seat that may call Jonti
  out of turn is selected in turn, clockwise from the left of the player to act, and
  answers Jonti or pass (see :mod:`perudo.interop.turns`); then the player to act moves.
* Rewards follow the edition's scoring. Elimination: a player who goes out gets its
  placing at once (-1 for the first out, evenly spaced up to +1 for the winner, see
  :func:`~perudo.interop.turns.placing_returns`) and is terminated; the winner gets +1 at
  the end. WANGO party mode: each call's points go to the players it moves them between,
  as it happens. The rewards of a game sum to 0.
* ``reset(seed=...)`` makes the game's dice and roll-off from the seed: equal seeds play
  equal games.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, ClassVar

try:
    import gymnasium
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:  # pragma: no cover - depends on what is installed
    from perudo.errors import install_hint

    raise ImportError(
        f"perudo.interop.pettingzoo needs {error.name}: {install_hint('pettingzoo')}"
    ) from error

from perudo.encoding import observation_encoding
from perudo.errors import EncodingError
from perudo.interop._spaces import RENDER_MODES, check_render_mode, observation_space, observe
from perudo.interop.turns import TurnActions, Turns
from perudo.loader import load_variant
from perudo.setup import checked_starting_dice, new_game
from perudo.variant import Variant

__all__ = ["PerudoEnv", "env", "raw_env"]


def env(
    variant: Variant | str = "italian",
    players: int = 4,
    render_mode: str | None = None,
    *,
    starting_dice: Sequence[int] | None = None,
) -> AECEnv[str, dict[str, Any], int]:
    """The AEC environment of an edition at a table of ``players``, wrapped in PettingZoo's
    order-enforcing wrapper: ``env()`` and :func:`raw_env`, as PettingZoo's own games name
    them.

    >>> from perudo.interop import pettingzoo
    >>> env = pettingzoo.env("french-jonti", players=3)
    >>> env.reset(seed=1)
    >>> env.agent_selection, int(env.action_space("player_0").n)
    ('player_0', 94)
    """
    return wrappers.OrderEnforcingWrapper(
        raw_env(variant, players, render_mode, starting_dice=starting_dice)
    )


def raw_env(
    variant: Variant | str = "italian",
    players: int = 4,
    render_mode: str | None = None,
    *,
    starting_dice: Sequence[int] | None = None,
) -> PerudoEnv:
    """The environment without PettingZoo's wrappers (:class:`PerudoEnv`)."""
    return PerudoEnv(variant, players, render_mode, starting_dice=starting_dice)


#: The name :func:`env` had before it took PettingZoo's: the same function.
perudo_env = env


class PerudoEnv(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """The unwrapped environment (see the module documentation); prefer :func:`env`.

    Args:
        variant: A :class:`~perudo.Variant` or an edition key.
        players: How many players.
        render_mode: ``None``, ``"ansi"`` (:meth:`render` returns the text) or ``"human"``
            (it prints it).
        starting_dice: Each seat's dice at the start of every game, a handicap (as
            :func:`perudo.new_game` takes it).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "perudo_v0",
        "render_modes": list(RENDER_MODES),
        "render_fps": 1,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: Variant | str = "italian",
        players: int = 4,
        render_mode: str | None = None,
        *,
        starting_dice: Sequence[int] | None = None,
    ) -> None:
        super().__init__()
        self.variant = variant if isinstance(variant, Variant) else load_variant(variant)
        self.starting_dice = checked_starting_dice(starting_dice, players, self.variant)
        self.encoding = observation_encoding(self.variant, players)
        self.numbers = TurnActions(self.encoding.actions)
        check_render_mode(render_mode)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.observation_spaces = {
            agent: observation_space(self.encoding, self.numbers) for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: gymnasium.spaces.Discrete(self.numbers.size) for agent in self.possible_agents
        }
        self.turns: Turns | None = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The action space of ``agent``."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game, from ``seed`` when given (``options`` is accepted, as PettingZoo
        requires, and not used)."""
        if seed is None:
            seed = secrets.randbits(63)
        players = len(self.possible_agents)
        self.turns = Turns.start(
            new_game(
                self.variant, self.possible_agents, seed=seed, starting_dice=self.starting_dice
            )
        )
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._returns = [0.0] * players
        self._select()

    def observe(self, agent: str) -> dict[str, Any]:
        """The observation of ``agent`` now."""
        seat = self.possible_agents.index(agent)
        return observe(self.encoding, self.numbers, self._turns(), seat, may_act=True)

    def step(self, action: int | None) -> None:
        """Play ``action`` (a number) for the selected agent; ``None`` for an agent that is
        done, as PettingZoo requires.

        Raises:
            perudo.IllegalActionError: the action is not legal for the agent now.
            perudo.EncodingError: ``action`` is not a number of the action space.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise EncodingError(
                f"{agent} is still playing: None is the step of an agent whose game has ended, "
                "not an action"
            )
        turns = self._turns().apply(self.numbers.decode(action))
        self.turns = turns
        self._cumulative_rewards[agent] = 0.0
        returns = turns.returns()
        for seat, name in enumerate(self.possible_agents):
            if name in self.rewards:
                self.rewards[name] = returns[seat] - self._returns[seat]
        self._returns = returns
        over = turns.is_over
        for seat, name in enumerate(self.possible_agents):
            if name in self.terminations:
                self.terminations[name] = over or not turns.state.players[seat].dice
        self._accumulate_rewards()
        self._select()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The position as text: printed in ``"human"`` mode, returned in ``"ansi"`` mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode does nothing")
            return None
        text = _describe(self._turns())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def _turns(self) -> Turns:
        if self.turns is None:
            raise RuntimeError("call reset() before using the environment")
        return self.turns

    def _select(self) -> None:
        seat = self._turns().seat
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        self._deads_step_first()


def _describe(turns: Turns) -> str:
    """The table as everyone sees it (no hidden die: :meth:`perudo.PlayerView.draw` of the
    public view), every player by the agent's name, and who decides now."""
    state = turns.state
    names = [player.name for player in state.players]
    table = state.public_view().draw()
    if state.is_over:
        return f"{table}\nover, winners {', '.join(names[seat] for seat in state.winners)}"
    deciding = "nobody" if turns.seat is None else names[turns.seat]
    return f"{table}\ndeciding: {deciding}"
