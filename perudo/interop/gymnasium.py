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
becomes the edition's lowest (-1, or the least score in party mode), ``info["illegal"]`` is
``True`` (``False`` at every other step, in the single environment, in a vector of them and
in :class:`PerudoVectorEnv` alike: one type), and ``info`` carries the refusal's
``"reason"`` code and ``"message"``, as Gymnasium's checker and learning loops expect of a
masked environment. With ``illegal="raise"`` the environment
raises the :class:`~perudo.IllegalActionError` instead and stays where it was. A number
outside the action space always raises :class:`~perudo.EncodingError`.

Importing the module registers ``perudo/KEY-v0`` for every shipped edition, so
``gymnasium.make("perudo/italian-v0", players=3)`` works once it is imported, and
``gymnasium.make("perudo.interop.gymnasium:perudo/italian-v0")`` imports it itself;
``gymnasium.make_vec("perudo/italian-v0", num_envs=256,
vectorization_mode="vector_entry_point")`` makes the batch-engine :class:`PerudoVectorEnv`.

>>> from perudo.interop.gymnasium import PerudoSoloEnv
>>> env = PerudoSoloEnv("italian", players=3)
>>> observation, info = env.reset(seed=4)
>>> int(observation["action_mask"].sum()) > 0
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
except ImportError as error:  # pragma: no cover - depends on what is installed
    from perudo.errors import install_hint

    raise ImportError(
        f"perudo.interop.gymnasium needs {error.name}: {install_hint('gymnasium')}"
    ) from error

from perudo.bots import Bot, BotSpec, make_bot
from perudo.encoding import ObservationEncoding, observation_encoding
from perudo.errors import EncodingError, IllegalActionError, shown
from perudo.interop._spaces import RENDER_MODES, check_render_mode, observation_space, observe
from perudo.interop.turns import TurnActions, Turns, lowest_return
from perudo.loader import load_variant, variant_names
from perudo.setup import checked_starting_dice, new_game
from perudo.variant import Variant

__all__ = ["PerudoSoloEnv", "PerudoVectorEnv"]


def _agent_table(
    variant: Variant | str, players: int, seat: int
) -> tuple[Variant, ObservationEncoding, TurnActions]:
    """The edition, its encodings at a table of ``players``, and the agent's seat checked."""
    edition = variant if isinstance(variant, Variant) else load_variant(variant)
    encoding = observation_encoding(edition, players)
    if type(seat) is not int or not 0 <= seat < players:
        raise ValueError(f"seat {shown(seat)} is not a seat (0 to {players - 1})")
    return edition, encoding, TurnActions(encoding.actions)


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
        allow_import: Let a ``"package.module:Name"`` opponent import its module (see
            :func:`perudo.bots.make_bot`).
        starting_dice: Each seat's dice at the start of every episode, a handicap (as
            :func:`perudo.new_game` takes it).
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
        allow_import: bool = False,
        starting_dice: Sequence[int] | None = None,
    ) -> None:
        self.variant, self.encoding, self.numbers = _agent_table(variant, players, seat)
        self.starting_dice = checked_starting_dice(starting_dice, players, self.variant)
        self._allow_import = allow_import
        make_bot(opponents, 0, allow_import=allow_import)  # refuses a bot that does not resolve
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
        self._bots = [
            make_bot(self.opponents, draw.getrandbits(63), allow_import=self._allow_import)
            for _ in range(self.players)
        ]
        state = new_game(
            self.variant,
            self.players,
            seed=draw.getrandbits(63),
            starting_dice=self.starting_dice,
        )
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
            info = {"illegal": True, "reason": error.reason, "message": error.message}
            return self._observation(), reward, True, False, info
        turns = self._play_bots(turns)
        self.turns = turns
        total = turns.returns()[self.seat]
        reward, self._returned = total - self._returned, total
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self._done(turns), False, {"illegal": False}

    def render(self) -> str | None:
        """The table as the agent sees it (its own hand, the others' cups: ``str`` of its
        view): printed in ``"human"`` mode, returned in ``"ansi"`` mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode does nothing")
            return None
        text = str(self._turns().state.view(self.seat))  # the table as the agent sees it
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

    def action_masks(self) -> Any:
        """The legal actions now, as booleans: the observation's ``action_mask`` (what
        sb3-contrib's ``MaskablePPO`` asks an environment for)."""
        return np.asarray(self._observation()["action_mask"], dtype=bool)

    def _observation(self) -> dict[str, Any]:
        return observe(
            self.encoding, self.numbers, self._turns(), self.seat, may_act=not self._forfeit
        )


class PerudoVectorEnv(gymnasium.vector.VectorEnv[dict[str, Any], Any, Any]):
    """``num_envs`` games of an edition at once, each with one learning seat against batch
    bots, on the batch engine (:mod:`perudo.batch`): the vector form of
    :class:`PerudoSoloEnv`, with its observations, action numbers and rewards.

    Each sub-environment's agent plays seat ``seat``; the others are played by the batch
    form of ``opponents`` (``"random"``, ``"odds"`` or ``"reader"``:
    :func:`perudo.batch.bots.batch_bot`).
    Where the edition has actions out of turn (Jonti's exact call, Bluff's re-roll after
    one's bid), the bots' out-of-turn actions on a new bid come first (in seat order), then
    the agent is asked (its actions out of turn, or a pass), then the player to act moves.
    An illegal action ends that episode at the edition's lowest return
    (``infos["illegal"]`` flags it), as ``illegal="lose"`` does in the single form.
    Episodes end when the game is over or the agent is out; they are never truncated, and
    they are reset on the next step (Gymnasium's ``NEXT_STEP`` autoreset: that step's
    action is not read and its reward is 0).

    Args:
        variant: A :class:`~perudo.Variant` or an edition key.
        players: How many players, the agent included.
        num_envs: How many games at once.
        seat: The agent's seat in every game.
        opponents: ``"random"``, ``"odds"`` or ``"reader"``.
        starting_dice: Each seat's dice at the start of every game, a handicap (as in
            :func:`perudo.new_game`; ``None``: the edition's).

    >>> from perudo.interop.gymnasium import PerudoVectorEnv
    >>> envs = PerudoVectorEnv("italian", players=3, num_envs=4)
    >>> observations, infos = envs.reset(seed=1)
    >>> size = envs.single_observation_space["observation"].shape[0]
    >>> observations["observation"].shape == (4, size)
    True
    >>> observations, rewards, terminated, truncated, infos = envs.step(envs.sample_legal())
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        variant: Variant | str = "italian",
        players: int = 2,
        num_envs: int = 16,
        *,
        seat: int = 0,
        opponents: str = "odds",
        starting_dice: Sequence[int] | None = None,
    ) -> None:
        from perudo.batch.bots import batch_bot
        from perudo.batch.engine import MAX_BATCH

        self.variant, self.encoding, self.numbers = _agent_table(variant, players, seat)
        self.starting_dice = checked_starting_dice(starting_dice, players, self.variant)
        if type(num_envs) is not int or not 1 <= num_envs <= MAX_BATCH:
            raise ValueError(f"num_envs {shown(num_envs)} is not 1 to {MAX_BATCH}")
        if batch_bot(opponents) is None:
            raise ValueError(
                f"opponents {shown(opponents)} has no batch form: 'random', 'odds' or 'reader'"
            )
        self.players, self.seat, self.opponents = players, seat, opponents
        self.num_envs = num_envs
        self.lowest_return = lowest_return(self.variant, players)
        self.single_observation_space = observation_space(self.encoding, self.numbers)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.single_action_space = gymnasium.spaces.Discrete(self.numbers.size)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._table: Any = None
        self._masked: Any = None  # the action masks of the games as they stand

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start ``num_envs`` new games; the games and the bots draw from ``seed`` when
        given (one seed for all: a list is refused). ``options`` is not used."""
        from perudo.batch.bots import batch_bot
        from perudo.batch.engine import BatchGames

        if isinstance(seed, list):
            raise ValueError("PerudoVectorEnv takes one seed for all its games, not a list")
        super().reset(seed=seed)
        draw = self.np_random
        n = self.num_envs
        self._table = BatchGames.new(
            self.variant, self.players, n, seed=int(draw.integers(2**63)),
            starting_dice=self.starting_dice,
        )  # fmt: skip
        bot = batch_bot(self.opponents, int(draw.integers(2**63)))
        assert bot is not None  # checked at __init__
        self._bot = bot
        self._asked = np.full(n, -1, dtype=np.int64)  # the bid the agent was last asked about
        self._bots_asked = np.full(n, -1, dtype=np.int64)  # and the bots
        self._returned = np.zeros(n)
        self._ended = np.zeros(n, dtype=np.bool_)
        self._forfeit = np.zeros(n, dtype=np.bool_)
        self._play_bots(np.ones(n, dtype=np.bool_))
        self._masked = None  # the games moved: their masks are made again
        return self._observe(), {}

    def step(self, actions: Any) -> tuple[dict[str, Any], Any, Any, Any, dict[str, Any]]:
        """Play each agent's action (a number of :class:`~perudo.interop.turns.TurnActions`),
        then the bots until every agent decides again or its episode ends.

        Raises:
            perudo.EncodingError: ``actions`` is not one whole number per game.
        """
        table = self._table
        if table is None:
            raise RuntimeError("call reset() before step()")
        n, seat = self.num_envs, self.seat
        acts = np.asarray(actions)
        if acts.shape != (n,) or acts.dtype.kind not in "iu":
            raise EncodingError(f"actions must be {n} whole numbers, one per game")
        acts = acts.astype(np.int64)
        resetting = self._ended.copy()
        mask = self._mask()  # the masks the agents saw (a game that ended has none)
        if resetting.any():
            self._start(resetting)
        acting = ~resetting
        inside = (acts >= 0) & (acts < self.numbers.size)
        legal = inside & (mask[np.arange(n), np.clip(acts, 0, self.numbers.size - 1)] == 1)
        illegal = acting & ~legal
        passing = acting & legal & (acts == (self.numbers.pass_number or -1))
        self._asked[passing] = self._bid_key()[passing]
        moving = acting & legal & ~passing
        if moving.any():
            table.step(np.where(moving, acts, 0), by=np.full(n, seat), where=moving)
        self._play_bots(acting & ~illegal)
        self._masked = None  # the games moved: their masks are made again
        total = table.returns()[:, seat]
        total = np.where(illegal, self.lowest_return, total)
        rewards = np.where(resetting, 0.0, total - self._returned)
        self._returned = total
        self._forfeit |= illegal
        terminated = acting & (table.over | (table.held[:, seat] == 0) | illegal)
        self._ended = terminated
        return (
            self._observe(),
            rewards,
            terminated,
            np.zeros(n, dtype=np.bool_),
            {"illegal": illegal},
        )

    def _start(self, where: Any) -> None:
        """New games where ``where`` flags them, played by the bots up to each agent's first
        decision."""
        rows = np.flatnonzero(where)
        self._table.reset(where=where)
        self._asked[rows] = self._bots_asked[rows] = -1
        self._returned[rows] = 0.0
        self._forfeit[rows] = False
        self._ended[rows] = False
        self._play_bots(where)
        self._masked = None

    def sample_legal(self) -> Any:
        """A legal action of each agent, drawn uniformly (a random policy; 0 where the
        episode just ended)."""
        from perudo.batch.policies import uniform_picks

        mask = self._mask()
        picks = np.empty(self.num_envs, dtype=np.int64)
        uniform_picks(mask, self.np_random.random(self.num_envs), picks)
        return picks

    def _bid_key(self) -> Any:
        table = self._table
        return table.round_number.astype(np.int64) * 100_000 + table.nbids

    def _asking(self) -> Any:
        """The games where the agent is asked about its out-of-turn actions (or a pass)."""
        table = self._table
        if not table.variant.has_out_of_turn:
            return np.zeros(self.num_envs, dtype=np.bool_)
        may = table.out_of_turn_counts()[:, self.seat] > 0
        return may & (self._asked != self._bid_key())

    def _play_bots(self, active: Any) -> None:
        """Play the bots of the ``active`` games until their agents decide or their
        episodes end."""
        table, seat, bot = self._table, self.seat, self._bot
        out_of_turn = table.variant.has_out_of_turn
        others = np.arange(self.players) != seat
        n = self.num_envs
        while True:
            pending = active & ~table.over & (table.held[:, seat] > 0)
            calling = np.zeros(n, dtype=np.bool_)  # a bot acts out of turn (one step)
            if out_of_turn:
                key = self._bid_key()
                fresh = pending & (table.nbids > 0) & (self._bots_asked != key)
                if fresh.any():
                    taken = np.where(others[None, :] & fresh[:, None], bot.interrupt(table), -1)
                    self._bots_asked[fresh] = key[fresh]
                    calling = np.asarray((taken >= 0).any(axis=1))
                    caller = np.argmax(taken >= 0, axis=1)
            waiting = self._asking() | (table.to_act == seat)
            moving = pending & ~waiting & ~calling  # the bots to act, in the other games
            if not (moving.any() or calling.any()):
                return
            acts = bot.act(table) if moving.any() else np.zeros(n, dtype=np.int64)
            by = table.to_act.astype(np.int64)
            if calling.any():
                acts = np.where(calling, taken[np.arange(n), caller], acts)
                by = np.where(calling, caller, by)
            table.step(acts, by=by, where=moving | calling)

    def action_masks(self) -> Any:
        """``(num_envs, actions)`` booleans: each game's legal actions now, its observation's
        ``action_mask`` (what sb3-contrib's ``MaskablePPO`` asks for)."""
        return self._mask().astype(bool)

    def _mask(self) -> Any:
        """Each game's action mask now (kept until the games move: an observation, the
        random sample and the next step's check read the same)."""
        if self._masked is None:
            self._masked = self._make_mask()
        return self._masked

    def _make_mask(self) -> Any:
        table, n = self._table, self.num_envs
        mask = np.zeros((n, self.numbers.size), dtype=np.int8)
        playing = ~table.over & (table.held[:, self.seat] > 0) & ~self._forfeit & ~self._ended
        turn = playing & (table.to_act == self.seat)
        asked = playing & self._asking() & ~turn
        legal = table.legal_mask()
        mask[:, : legal.shape[1]] = legal & turn[:, None]
        if asked.any():  # the exact call out of turn, a re-roll after its bid, or a pass
            theirs = table.legal_mask(by=self.seat, where=asked)
            mask[asked, : legal.shape[1]] = theirs[asked]
            mask[asked, self.numbers.pass_number] = 1
        return mask

    def _observe(self) -> dict[str, Any]:
        return {
            "observation": self._table.observe(self.seat, dtype=np.int64),
            "action_mask": self._mask(),
        }


def _register_editions() -> None:
    """Register ``perudo/KEY-v0`` for every shipped edition (on import, as Gymnasium's
    third-party environments do); the version follows the observation layout."""
    for key in variant_names():
        env_id = f"perudo/{key}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="perudo.interop.gymnasium:PerudoSoloEnv",
                vector_entry_point="perudo.interop.gymnasium:PerudoVectorEnv",
                kwargs={"variant": key, "players": load_variant(key).players.min},
            )


_register_editions()
