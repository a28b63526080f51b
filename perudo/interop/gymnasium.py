"""A Gymnasium environment: one seat against the library's bots, :class:`PerudoSoloEnv`.

Needs the extra ``perudo[gymnasium]`` (``pip install '.[gymnasium]'`` in a checkout).

The agent plays seat ``seat``; the other seats are played by bots (any
:data:`perudo.bots.BotSpec`: a name of :data:`perudo.bots.BOTS`, ``"package.module:Name"``,
a class or a function; ``"odds"`` by default), which see only their own
:class:`~perudo.PlayerView`. Actions, observations, out-of-turn Jonti and rewards are those
of the PettingZoo environment (:mod:`perudo.interop.pettingzoo`) seen from the agent's
seat: an action is a number of :class:`~perudo.interop.turns.TurnActions`, the observation
a dict of ``"observation"`` and ``"action_mask"``, and the reward the agent's share of the
edition's scoring. The episode ends (``terminated``) when the game is over or the agent is
out; it is never truncated.

An illegal action (one the mask rules out) ends the episode by default: the agent's return
becomes the edition's lowest (-1, or the least score in party mode) and ``info`` carries
the refusal as ``"illegal"`` (the reason code) and ``"message"``, as Gymnasium's checker and
learning loops expect of a masked environment. With ``illegal="raise"`` the environment
raises the :class:`~perudo.IllegalActionError` instead and stays where it was. A number
outside the action space always raises :class:`~perudo.EncodingError`.

Importing the module registers ``perudo/KEY-v0`` for every shipped edition, so
``gymnasium.make("perudo/italian-v0", players=3)`` works once it is imported, and
``gymnasium.make("perudo.interop.gymnasium:perudo/italian-v0")`` imports it itself.

>>> from perudo.interop.gymnasium import PerudoSoloEnv
>>> env = PerudoSoloEnv("italian", players=3)
>>> observation, info = env.reset(seed=4)
>>> int(observation["action_mask"].sum()) > 0
True
"""

from __future__ import annotations

import random
from typing import Any

try:
    import gymnasium
    import numpy as np
except ImportError as error:  # pragma: no cover - depends on what is installed
    from perudo.errors import install_hint

    raise ImportError(
        f"perudo.interop.gymnasium needs {error.name}: {install_hint('gymnasium')}"
    ) from error

from perudo.bots import Bot, BotSpec, make_bot
from perudo.encoding import observation_encoding
from perudo.errors import IllegalActionError, shown
from perudo.interop._spaces import RENDER_MODES, check_render_mode, observation_space, observe
from perudo.interop.turns import TurnActions, Turns, lowest_return
from perudo.loader import load_variant, variant_names
from perudo.state import new_game
from perudo.variant import Variant

__all__ = ["PerudoSoloEnv"]


class PerudoSoloEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of an edition against bots.

    Args:
        variant: A :class:`~perudo.Variant` or an edition key.
        players: How many players, the agent included.
        seat: The agent's seat (0 opens nothing in particular: the roll-off decides).
        opponents: The bots: any :data:`perudo.bots.BotSpec` (a name of
            :data:`perudo.bots.BOTS`, ``"package.module:Name"``, a bot class or a function).
        illegal: ``"lose"`` (an illegal action ends the episode at the lowest return) or
            ``"raise"``.
        render_mode: ``None``, ``"ansi"`` or ``"human"``.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        variant: Variant | str = "italian",
        players: int = 2,
        *,
        seat: int = 0,
        opponents: BotSpec = "odds",
        illegal: str = "lose",
        render_mode: str | None = None,
    ) -> None:
        self.variant = variant if isinstance(variant, Variant) else load_variant(variant)
        self.encoding = observation_encoding(self.variant, players)
        self.numbers = TurnActions(self.encoding.actions)
        if type(seat) is not int or not 0 <= seat < players:
            raise ValueError(f"seat {shown(seat)} is not a seat (0 to {players - 1})")
        make_bot(opponents, 0)  # refuses a bot that does not resolve (GameSetupError)
        check_render_mode(render_mode)
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal={shown(illegal)} is not 'lose' or 'raise'")
        self.players, self.seat, self.opponents = players, seat, opponents
        self.illegal = illegal
        self.lowest_return = lowest_return(self.variant, players)
        self.render_mode = render_mode
        self.observation_space = observation_space(self.encoding, self.numbers)
        self.action_space = gymnasium.spaces.Discrete(self.numbers.size)
        self.turns: Turns | None = None
        self._bots: list[Bot] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a new game; the game and the bots draw from ``seed`` when given
        (``options`` is accepted, as Gymnasium requires, and not used)."""
        super().reset(seed=seed)
        draw = random.Random(int(self.np_random.integers(2**63)))
        self._bots = [make_bot(self.opponents, draw.getrandbits(63)) for _ in range(self.players)]
        state = new_game(self.variant, self.players, seed=draw.getrandbits(63))
        self._forfeit = False
        self.turns = self._play_bots(Turns.start(state))
        self._returned = 0.0
        return self._observation(), {}

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play the agent's ``action`` (a number), then the bots until the agent decides
        again or the episode ends.

        Raises:
            perudo.IllegalActionError: the action is not legal for the agent now.
            perudo.EncodingError: ``action`` is not a number of the action space.
        """
        turns = self._turns()
        if self._done(turns):
            raise RuntimeError("the episode is over: call reset()")
        decision = self.numbers.decode(action)
        try:
            turns = turns.apply(decision)
        except IllegalActionError as error:
            if self.illegal == "raise":
                raise
            reward, self._returned = self.lowest_return - self._returned, self.lowest_return
            self._forfeit = True
            info = {"illegal": error.reason, "message": error.message}
            return self._observation(), reward, True, False, info
        turns = self._play_bots(turns)
        self.turns = turns
        total = turns.returns()[self.seat]
        reward, self._returned = total - self._returned, total
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self._done(turns), False, {}

    def render(self) -> str | None:
        """The position as text: printed in ``"human"`` mode, returned in ``"ansi"`` mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode does nothing")
            return None
        state = self._turns().state
        text = f"{state!r} bids {' '.join(str(b.bid) for b in state.bids) or '-'}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _turns(self) -> Turns:
        if self.turns is None:
            raise RuntimeError("call reset() before step()")
        return self.turns

    def _done(self, turns: Turns) -> bool:
        return turns.is_over or not turns.state.players[self.seat].dice or self._forfeit

    _forfeit = False

    def _play_bots(self, turns: Turns) -> Turns:
        while not self._done(turns) and turns.seat != self.seat:
            seat = turns.seat
            assert seat is not None
            view = turns.state.view(seat)
            bot = self._bots[seat]
            if turns.asking:
                interrupt = getattr(bot, "interrupt", None)
                turns = turns.apply(None if interrupt is None else interrupt(view))
            else:
                turns = turns.apply(bot.act(view))
        return turns

    def _observation(self) -> dict[str, Any]:
        return observe(
            self.encoding, self.numbers, self._turns(), self.seat, may_act=not self._forfeit
        )


def _register_editions() -> None:
    """Register ``perudo/KEY-v0`` for every shipped edition (on import, as Gymnasium's
    third-party environments do); the version follows the observation layout."""
    for key in variant_names():
        env_id = f"perudo/{key}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="perudo.interop.gymnasium:PerudoSoloEnv",
                kwargs={"variant": key, "players": load_variant(key).players.min},
            )


_register_editions()
