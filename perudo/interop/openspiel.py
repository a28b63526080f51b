"""Every edition as an OpenSpiel game, registered as ``python_perudo``.

Needs the extra ``perudo[openspiel]`` (``pip install '.[openspiel]'`` in a checkout).
Importing this module registers the game::

    import pyspiel
    import perudo.interop.openspiel  # registers python_perudo
    game = pyspiel.load_game("python_perudo", {"variant": "french-jonti", "players": 3})

Parameters:

* ``variant``: the edition key (default ``"italian"``);
* ``starting_dice``: each seat's dice at the start, a handicap, as counts separated by
  spaces (``"3 5 5 5"``; default ``""``: the edition's, or ``dice``);
* ``declaration``: the path of a TOML declaration file, an edition of your own (default
  ``""``: none); it names the edition instead of ``variant``, and may use any kind
  registered before the game is loaded (from an importable module, so that states pickle).
  OpenSpiel writes parameters as ``name=value`` separated by commas, so the path holds
  neither;
* ``players``: how many players (default 2);
* ``dice``: dice each player starts with, at most the edition's (default 0: the edition's
  own). Fewer dice
  stand for dice already lost, as in :func:`perudo.new_game`: a small table for
  algorithms that must visit many positions, under the edition's rules unchanged.

The game is the whole multi-round game. Chance is explicit: the first chance node is the
roll-off (one outcome per seat, equally likely) where the edition has one, then every round
deals each die by a chance node of its own (outcomes 0 to faces - 1 for faces 1 to the
edition's highest: 0-5 on six-sided dice), seat by seat; the
dealt hands go to the engine with :meth:`perudo.GameState.with_dice`. Player actions are the
numbers of :class:`perudo.interop.turns.TurnActions`; in the French Jonti edition, seats
that may call Jonti out of turn are asked in turn, and in Bluff the bidder is asked whether
it re-rolls (see :mod:`perudo.interop.turns`). A re-roll is followed by a chance node for
each die re-rolled (outcomes as for the deal); the faces go to the engine with the move
(``rolled``), and only the player who re-rolled sees them.

Returns come at the end (terminal reward model) and sum to 0: by finishing place with
elimination (-1 for the first out up to +1 for the winner), points in WANGO party mode.

Observations: the observation string is the player's :class:`~perudo.PlayerView` of the
round in short; the information-state string adds every earlier round as the player saw it
(perfect recall). Both tensors are the :class:`~perudo.encoding.ObservationEncoding` of the
view: the round so far and the last call, with earlier rounds summed up by the dice held, so
the information-state tensor does not have perfect recall over rounds. While dice are being
dealt, the player's own hand is left empty.

``max_game_length`` counts player actions. Where no game can last forever it is a true
bound; where an exact call gives a die back (French editions), no bound exists and it is
2**31 - 1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

try:
    import numpy as np
    import pyspiel
except ImportError as error:  # pragma: no cover - depends on what is installed
    from perudo.errors import install_hint

    raise ImportError(
        f"perudo.interop.openspiel needs {error.name}: {install_hint('openspiel')}"
    ) from error

from perudo.actions import Action
from perudo.encoding import ROUND_LIMIT, ObservationEncoding, observation_encoding
from perudo.errors import EncodingError, GameSetupError, shown
from perudo.interop.turns import TurnActions, Turns, lowest_return
from perudo.loader import load_variant, variant_names
from perudo.setup import checked_starting_dice, first_seat, new_game
from perudo.variant import Variant

__all__ = ["GAME_TYPE", "PerudoGame", "PerudoObserver", "PerudoState"]

_MAX_PLAYERS = max(load_variant(key).players.max for key in variant_names())


def _game_type(utility: Any) -> pyspiel.GameType:
    """``python_perudo``'s type, with ``utility`` (zero-sum or general-sum, as the edition's
    scoring says)."""
    return pyspiel.GameType(
        short_name="python_perudo",
        long_name="Perudo (perudo library, every edition)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=_MAX_PLAYERS,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "variant": "italian",
            "players": 2,
            "dice": 0,
            "declaration": "",
            "starting_dice": "",
        },
    )


#: The registered game type of ``python_perudo`` (its default edition's: zero-sum).
GAME_TYPE = _game_type(pyspiel.GameType.Utility.ZERO_SUM)


#: ``python_perudo``'s type for an edition whose scoring is not zero-sum (a commission, a
#: call that costs every other seat): OpenSpiel's zero-sum algorithms then refuse it.
_GENERAL_SUM = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)


class PerudoGame(pyspiel.Game):  # type: ignore[misc]
    """``python_perudo``: an edition at a table (see the module documentation)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        key = params.get("variant", "italian")
        players = params.get("players", 2)
        declaration = params.get("declaration", "")
        if declaration:  # an edition of the user's own, from its file: it names itself
            variant = load_variant(Path(declaration))
            key = variant.key
        else:
            variant = load_variant(key)
        dice = params.get("dice", 0) or variant.dice.per_player  # 0: the edition's dice
        encoding = observation_encoding(variant, players)
        if type(dice) is not int or not 1 <= dice <= variant.dice.per_player:
            raise GameSetupError(
                f"dice={shown(dice)}: {variant.name} players start with 1 to "
                f"{variant.dice.per_player} dice"
            )
        handicap = params.get("starting_dice", "")
        starting = None
        if handicap:  # each seat's dice at the start, as "3 5 5 5"
            words = str(handicap).split()
            if not all(word.isascii() and word.isdecimal() and len(word) < 3 for word in words):
                raise GameSetupError(f"starting_dice={shown(handicap)} is not counts like '3 5 5'")
            starting = checked_starting_dice([int(word) for word in words], players, variant)
        numbers = TurnActions(encoding.actions)
        low = lowest_return(variant, players)
        zero_sum = variant.scoring.zero_sum  # the scoring kind says: never assumed
        info = pyspiel.GameInfo(
            num_distinct_actions=numbers.size,
            max_chance_outcomes=max(variant.dice.faces, players),
            num_players=players,
            min_utility=low,
            max_utility=-low,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=_max_game_length(
                variant, encoding, players, sum(starting or (dice,) * players)
            ),
        )
        given = {
            "variant": key, "players": players, "dice": dice, "declaration": declaration,
            "starting_dice": handicap,
        }  # fmt: skip
        super().__init__(GAME_TYPE if zero_sum else _GENERAL_SUM, info, given)
        self.table = _Table(
            variant=variant,
            encoding=encoding,
            numbers=numbers,
            start_dice=starting or (dice,) * players,
            starting_dice=starting,
        )

    def new_initial_state(self) -> PerudoState:
        """The state before the roll-off."""
        return PerudoState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> PerudoObserver:
        """The observer of states (strings and tensors)."""
        return PerudoObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


def _max_game_length(
    variant: Variant, encoding: ObservationEncoding, players: int, dice: int
) -> int:
    """The most player actions a game can take, ``dice`` being every seat's dice together
    at the start (no bound where an exact call gives dice back)."""
    # every seat but the player to act and the bidder, asked about the exact call or a burst
    asked = players - 2 if variant.exact_call.out_of_turn or variant.turns.out_of_turn else 0
    asked += 1 if variant.actions.out_of_turn else 0  # the bidder, asked about a re-roll
    declaring = 1 if variant.declarations else 0  # a round's declaration, where it has one
    bids = encoding.field("bids").high  # the most bids a round holds
    per_round = declaring + bids * (1 + asked) + 1  # bids, then a call
    rounds = variant.most_rounds(players, dice)
    return ROUND_LIMIT if rounds is None else min(per_round * rounds, ROUND_LIMIT)


@attrs.frozen
class _Table:
    """What every state of a game shares (states keep it: a cloned state's game object
    does not carry Python attributes)."""

    variant: Variant
    encoding: ObservationEncoding
    numbers: TurnActions
    start_dice: tuple[int, ...]  # each seat's dice in the first deal
    starting_dice: tuple[int, ...] | None  # each seat's cap, when a handicap is given

    @property
    def players(self) -> int:
        return self.encoding.players

    def __deepcopy__(self, memo: dict[int, object]) -> _Table:
        return self  # immutable: a copy is the value itself


class _Log:
    """What a state has dealt and seen: the dice still to deal (``need``, per seat) and
    dealt so far (``dealt``), every round's hands (``rounds``), what everyone saw (``public``)
    and what one seat alone saw (``alone``: (seat, what)), per round. OpenSpiel's clone
    deep-copies a state at every child: this copies in the rounds' count, sharing the rounds
    before this one, which never change."""

    def __init__(self, need: list[int]) -> None:
        self.need = need
        self.dealt: list[int] = []
        self.rounds: list[tuple[tuple[int, ...], ...]] = []
        self.public: list[list[str]] = [[]]
        self.alone: list[list[tuple[int, str]]] = [[]]

    def __deepcopy__(self, memo: dict[int, object]) -> _Log:
        other = _Log(list(self.need))
        other.dealt, other.rounds = list(self.dealt), list(self.rounds)
        other.public = [*self.public[:-1], list(self.public[-1])]
        other.alone = [*self.alone[:-1], list(self.alone[-1])]
        return other


@attrs.frozen(eq=False)
class _RoundStart:
    """A state just before the first die of a round is dealt, and the number of actions of
    its history (``moves``): where :meth:`PerudoState.resample_from_infostate` replays from.
    Never changed after it is taken, so clones of a state share it."""

    state: PerudoState
    moves: int

    def __deepcopy__(self, memo: dict[int, object]) -> _RoundStart:
        return self

    def clone(self) -> PerudoState:
        """A copy of the state kept, which knows it is at its round's start."""
        state: PerudoState = self.state.clone()
        state._round_start = self
        return state


class PerudoState(pyspiel.State):  # type: ignore[misc]
    """A position of ``python_perudo``: a :class:`~perudo.interop.turns.Turns` once the
    roll-off and the first deal are done, and the dice being dealt."""

    def __init__(self, game: PerudoGame) -> None:
        super().__init__(game)
        self._table = table = game.table
        self.turns: Turns | None = None
        first_player = table.variant.first_player  # a roll-off is a chance node, else given
        counts = list(table.start_dice)
        self._first = None if first_player.drawn else first_seat(table.variant, 0, counts)
        self._log = _Log(list(table.start_dice))
        self._rolling: tuple[Action, int] | None = None  # an action waiting for chance
        self._nodes: tuple[tuple[int, ...], ...] = ()  # its chance nodes (faces, each die)
        self._round_start: _RoundStart | None = None  # before this round's first deal

    # --- OpenSpiel API --------------------------------------------------------------------

    def current_player(self) -> int:
        """The player to decide, or the chance or terminal marker."""
        if self.turns is not None and self.turns.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._dealing:
            return int(pyspiel.PlayerId.CHANCE)
        assert self.turns is not None
        seat = self.turns.seat
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        if self._dealing or self.turns is None or player != self.turns.seat:
            return []
        return list(self._table.numbers.legal(self.turns))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The roll-off's seats, or a die's faces, each equally likely; for an action's
        chance, that node's faces (the die looked at: each die under the cup alike)."""
        if self._rolling is not None:
            node = self._nodes[len(self._log.dealt)]
            return [(face - 1, node.count(face) / len(node)) for face in sorted(set(node))]
        if self._first is None:
            n = self._table.players
            return [(seat, 1.0 / n) for seat in range(n)]
        faces = self._table.variant.dice.faces
        return [(face, 1.0 / faces) for face in range(faces)]

    def _apply_action(self, action: int) -> None:
        if self._rolling is not None:
            self._roll(action)
            return
        if self._dealing:
            faces = self._table.variant.dice.faces
            outcomes = self._table.players if self._first is None else faces
            if not 0 <= action < outcomes:
                what = (
                    "a seat of the roll-off"
                    if self._first is None
                    else f"a face (0-{faces - 1}: 1-{faces})"
                )
                raise EncodingError(f"chance outcome {action} is not {what}")
        if self._first is None:
            self._first = action
            self._log.public[0].append(f"first:{action}")
        elif self._dealing:
            if not self._log.dealt:  # a round's first die
                self._keep_round_start()
            self._log.dealt.append(action + 1)
            if len(self._log.dealt) == sum(self._log.need):
                self._start_round()
        else:
            assert self.turns is not None
            seat = self.turns.seat
            before = self.turns.state.round_number
            decision = self._table.numbers.decode(action)
            nodes: tuple[tuple[int, ...], ...] = ()
            if decision is not None and seat is not None:
                nodes = self.turns.state.chance_nodes(decision, by=seat)
            public = self._log.public[-1]
            public.append(f"{seat}:{self._name(action)}")
            if nodes and decision is not None and seat is not None:  # chance nodes of their own
                self._rolling, self._nodes = (decision, seat), nodes
                return
            self.turns = self.turns.apply(decision)
            state = self.turns.state
            if state.round_number != before or state.is_over:
                result = state.last_result
                assert result is not None
                hands = ",".join("?" if hand is None else _faces(hand) for hand in result.hands)
                public.append(f"={result.call}:{result.count}[{hands}]")
                if not state.is_over:
                    self._log.need = [len(player.dice) for player in state.players]
                    self._log.public.append([])
                    self._log.alone.append([])

    def _roll(self, outcome: int) -> None:
        """One outcome of an action's chance (a die re-rolled, the die looked at); with the
        last, the action goes to the engine with them."""
        faces = self._nodes[len(self._log.dealt)]
        if outcome + 1 not in faces:
            raise EncodingError(f"chance outcome {outcome} is not one of {sorted(set(faces))}")
        self._log.dealt.append(outcome + 1)
        if len(self._log.dealt) < len(self._nodes):
            return
        assert self._rolling is not None
        assert self.turns is not None
        decision, seat = self._rolling
        rolled, self._log.dealt, self._nodes, self._rolling = self._log.dealt, [], (), None
        before = set(self.turns.state.seen)
        self.turns = self.turns.apply(decision, rolled=rolled)
        looked = sorted(set(self.turns.state.seen) - before)  # the die looked at, if any
        rerolled = tuple(sorted(rolled[: len(rolled) - len(looked)]))
        alone = self._log.alone[-1]
        if rerolled:
            alone.append((seat, f"rolled:{_faces(rerolled)}"))
        for glimpse in looked:  # the seer and the die's owner know it, nobody else
            alone.append((seat, f"saw:{glimpse.owner}:{glimpse.face}"))
            alone.append((glimpse.owner, f"seen:{seat}:{glimpse.face}"))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"first:{action}" if self._first is None else f"roll:{action + 1}"
        return self._name(action)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.turns is not None and self.turns.is_over

    def returns(self) -> list[float]:
        """Each player's return: 0 until the end (see the module documentation)."""
        if not self.is_terminal():
            return [0.0] * self._table.players
        assert self.turns is not None
        return self.turns.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PerudoState:
        """A state that ``player_id`` cannot tell from this one (the same information state
        string), drawn at random: what OpenSpiel's IS-MCTS asks for at every simulation.

        Every move stays, and so does every die the player has seen. The dice of this round
        that the player has not seen are drawn again, each face equally likely: the other
        seats' hands and re-rolls, a die one of them looked at under another's cup, and the
        player's own hand while it is hidden before a required declaration. Dice the table
        or the player has seen are kept under the cups they came from: dice later put out
        in the open, a die the player looked at. Earlier rounds are kept whole (their dice
        are out of play). ``probability_sampler()`` gives numbers from 0 to 1 (OpenSpiel's
        ``UniformProbabilitySampler``). The state is rebuilt by replaying this round from
        its first deal (a state kept then), so a resample costs about as much as the round
        so far.

        Raises:
            ValueError: ``player_id`` is not a seat of the game.
        """
        players = self._table.players
        if type(player_id) is not int or not 0 <= player_id < players:
            raise ValueError(f"player {shown(player_id)} is not a seat from 0 to {players - 1}")
        start = self._round_start
        begin = self.get_game().new_initial_state if start is None else start.clone
        history = self.history()[0 if start is None else start.moves :]
        steps = _Walk(begin(), history).steps
        now = self._round_number
        hidden = set(range(players)) - {player_id}
        if self.turns is not None and self.turns.state.view(player_id).dice_hidden:
            hidden.add(player_id)  # the player has not looked at the hand either
        draws = _Draws(steps, now, hidden, player_id, self._table.variant.dice.faces,
                       probability_sampler)  # fmt: skip
        state: PerudoState = begin()
        for action, step in zip(history, steps, strict=True):
            state.apply_action(draws.outcome(action, step, state))
        return state

    def __str__(self) -> str:
        if self.turns is None:
            return f"first:{self._first} dealt:{self._log.dealt}"
        state = self.turns.state
        hands = " ".join("".join(map(str, p.dice)) or "-" for p in state.players)
        bids = " ".join(f"{b.player}:{b.bid}" for b in state.bids)
        dealing = f" dealing:{self._log.dealt}" if self._dealing else ""
        seat = self.turns.seat
        return f"round {state.round_number} hands {hands} bids [{bids}] seat {seat}{dealing}"

    # --- inside ---------------------------------------------------------------------------

    @property
    def _round_number(self) -> int:
        """The round being played or dealt (1 before the first deal is done)."""
        return 1 if self.turns is None else self.turns.state.round_number

    @property
    def _dealing(self) -> bool:
        if self._rolling is not None:
            return True
        return self._first is None or len(self._log.dealt) < sum(self._log.need)

    def _keep_round_start(self) -> None:
        """Keep this state, before a round's first die is dealt, for a resample to replay
        the round from (once: a state replayed from it is already there)."""
        moves = len(self.history())
        if self._round_start is None or self._round_start.moves != moves:
            start = _RoundStart(self.clone(), moves)
            start.state._round_start = None  # no chain of every round's start
            self._round_start = start

    def _seen(self, player: int, number: int) -> str:
        """What ``player`` alone saw in round ``number`` (from 1): its re-rolled faces."""
        return "".join(f" {what}" for seat, what in self._log.alone[number - 1] if seat == player)

    def _name(self, action: int) -> str:
        decision = self._table.numbers.decode(action)
        return "pass" if decision is None else str(decision)

    def _start_round(self) -> None:
        faces, hands = iter(self._log.dealt), []
        for count in self._log.need:
            hands.append(tuple(next(faces) for _ in range(count)))
        self._log.dealt, self._log.need = [], [0] * len(self._log.need)
        if self.turns is None:
            table = self._table
            state = new_game(
                table.variant, table.players, seed=0, dice=hands, first_player=self._first,
                starting_dice=table.starting_dice,
            )  # fmt: skip
            self.turns = Turns.start(state)
        else:
            turns = self.turns
            self.turns = Turns(turns.state.with_dice(hands), turns.asking, turns.out)
        self._log.rounds.append(tuple(player.dice for player in self.turns.state.players))


class PerudoObserver:
    """Strings and tensors of ``python_perudo`` states, for one kind of observation
    (OpenSpiel's ``IIGObservationType``): the information state when ``perfect_recall`` is
    set, else the observation. Public-only observers (``private_info`` none) leave every
    hand out; observing every player's private information is not offered."""

    def __init__(self, game: PerudoGame, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"python_perudo observers take no parameters, not {shown(params)}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_perudo observes one player's dice, not every player's")
        self._table = table = game.table
        self._recall = bool(iig_obs_type.perfect_recall)
        self._private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor = np.zeros(table.encoding.size, np.float32)
        self.dict = {
            f.name: self.tensor[f.start : f.stop] for f in table.encoding.fields if f.length
        }

    def set_from(self, state: PerudoState, player: int) -> None:
        """Fill ``tensor`` (and its named views in ``dict``) with ``state`` as ``player``
        sees it."""
        self.tensor.fill(0)
        if state.turns is None:
            return
        self.tensor[:] = self._table.encoding.encode(state.turns.state.view(player))
        if state._dealing or not self._private:
            self.dict["hand"].fill(0)

    def string_from(self, state: PerudoState, player: int) -> str:
        """``state`` as ``player`` sees it, as text."""
        if state.turns is None:
            return f"p{player} " + " ".join(state._log.public[0])
        game_state = state.turns.state
        view = game_state.view(player)
        unseen = state._dealing or view.dice_hidden or not self._private
        hand = "?" if unseen else _faces(view.dice)
        counts = " ".join(str(seat.dice_count) for seat in view.seats)
        scores = ""
        if not game_state.variant.scoring.moves_dice:
            scores = " scores " + " ".join(str(seat.score) for seat in view.seats)
        opened = ""
        if any(seat.open for seat in view.seats):
            opened = " open " + " ".join(_faces(seat.open) for seat in view.seats)
        seen = state._seen(player, len(state._log.public)) if self._private else ""
        said = " ".join(state._log.public[-1])
        now = f"hand {hand} dice {counts}{scores}{opened} | {said}{seen}"
        if not self._recall:
            return f"p{player} round {view.round_number} {now}"
        earlier = []
        for number, (hands, public) in enumerate(
            zip(state._log.rounds, state._log.public, strict=False), start=1
        ):
            if number == len(state._log.public):
                break
            shown = _faces(hands[player]) if self._private else "?"
            seen = state._seen(player, number) if self._private else ""
            earlier.append(f"r{number} hand {shown} | " + " ".join(public) + seen)
        return f"p{player} " + " / ".join([*earlier, f"r{len(state._log.public)} {now}"])


@attrs.frozen
class _Step:
    """What one action of a history was (:class:`_Walk`): ``kind`` ``"move"`` (a player's,
    by ``seat``), ``"first"`` (the roll-off), ``"deal"`` (a die dealt to ``seat``),
    ``"roll"`` (a die re-rolled by ``seat``) or ``"look"`` (the die ``looker`` saw under
    ``seat``'s cup, ``face``); the ``round`` it belongs to; for a move, the dice it
    ``put_out`` in the open."""

    kind: str
    seat: int
    round: int
    looker: int = -1
    face: int = 0
    put_out: tuple[int, ...] = ()


class _Walk:
    """The :class:`_Step` of every action of ``history``, replayed from ``state``."""

    def __init__(self, state: PerudoState, history: list[int]) -> None:
        self.steps: list[_Step] = []
        move: tuple[int, Any] | None = None  # the move being made: its step, the state before
        for action in history:
            number = state._round_number
            if state._rolling is not None:
                self.steps.append(_Step(kind="roll", seat=state._rolling[1], round=number))
            elif state._first is None:
                self.steps.append(_Step(kind="first", seat=-1, round=number))
            elif state._dealing:
                self.steps.append(_Step(kind="deal", seat=_dealt_to(state), round=number))
            else:
                assert state.turns is not None
                move = (len(self.steps), state.turns.state)
                self.steps.append(_Step(kind="move", seat=state.current_player(), round=number))
            state.apply_action(action)
            if move is not None and state._rolling is None:  # the move and its chance done
                self._settle(*move, state)
                move = None

    def _settle(self, index: int, before: Any, state: PerudoState) -> None:
        """The move at ``index`` done: the dice it put out, and whether its last chance
        node was the die looked at."""
        assert state.turns is not None
        after, step = state.turns.state, self.steps[index]
        if after.is_over or after.round_number != before.round_number:  # a call
            return
        self.steps[index] = attrs.evolve(
            step, put_out=_less(after.players[step.seat].open, before.players[step.seat].open)
        )
        looked = _less(after.seen, before.seen)
        if looked and len(self.steps) > index + 1:
            (glimpse,) = looked
            self.steps[-1] = _Step(
                kind="look",
                seat=glimpse.owner,
                round=step.round,
                looker=glimpse.seer,
                face=glimpse.face,
            )


def _dealt_to(state: PerudoState) -> int:
    """The seat the next die dealt goes to."""
    dealt = len(state._log.dealt)
    for seat, need in enumerate(state._log.need):
        if dealt < need:
            return seat
        dealt -= need
    raise AssertionError("no die is left to deal")  # pragma: no cover


def _less(items: tuple[Any, ...], taken: tuple[Any, ...]) -> tuple[Any, ...]:
    """``items`` with one of each of ``taken`` removed (each is there)."""
    rest = list(items)
    for item in taken:
        rest.remove(item)
    return tuple(rest)


@attrs.define
class _Cup:
    """What a resample must keep under one cup of a hidden seat (the dice dealt, or
    re-rolled): its ``size``, the dice later ``put_out`` of it, and the faces the player
    saw there that no die put out later explains (``seen``: one die for each face)."""

    size: int = 0
    put_out: list[int] = attrs.Factory(list)
    seen: list[int] = attrs.Factory(list)


class _Draws:
    """The outcomes of a resample (:meth:`PerudoState.resample_from_infostate`): the
    dice of round ``now`` under the ``hidden`` seats' cups drawn again, keeping those that
    ``player`` or the table saw; every other action as it was."""

    def __init__(
        self, steps: list[_Step], now: int, hidden: set[int], player: int, faces: int,
        sampler: Any,
    ) -> None:  # fmt: skip
        self.now, self.hidden, self.player, self.sampler = now, hidden, player, sampler
        #: each hidden seat's dice this round, in the order they are dealt and re-rolled,
        #: last first
        self.dice: dict[int, list[int]] = {}
        for seat, cups in self._cups([step for step in steps if step.round == now]).items():
            dice = []
            for cup in cups:
                kept = cup.put_out + cup.seen
                assert len(kept) <= cup.size, (cup, seat)
                dice += kept + [1 + self._below(faces) for _ in range(cup.size - len(kept))]
            self.dice[seat] = dice[::-1]

    def _cups(self, steps: list[_Step]) -> dict[int, list[_Cup]]:
        """Each hidden seat's cups this round, in order: the hand dealt, then the dice of
        each re-roll."""
        cups: dict[int, list[_Cup]] = {seat: [] for seat in self.hidden}
        moved = dict.fromkeys(self.hidden, False)  # a move since the seat's last cup began
        for step in steps:
            seat = step.seat
            if seat not in self.hidden:
                continue
            if step.kind in ("deal", "roll"):
                if not cups[seat] or (step.kind == "roll" and moved[seat]):
                    cups[seat].append(_Cup())
                    moved[seat] = False
                cups[seat][-1].size += 1
            elif step.kind == "move":
                cup = cups[seat][-1]
                cup.put_out.extend(step.put_out)
                for face in step.put_out:  # the die the player saw may be this one
                    if face in cup.seen:
                        cup.seen.remove(face)
                moved[seat] = True
            elif step.kind == "look" and step.looker == self.player:
                cup = cups[seat][-1]
                if step.face not in cup.seen:  # the same die, maybe: one is enough
                    cup.seen.append(step.face)
        return cups

    def outcome(self, action: int, step: _Step, state: PerudoState) -> int:
        """The action to apply at ``step`` of the new history, ``state`` being the new state
        so far."""
        if step.round != self.now:
            return action
        if step.kind in ("deal", "roll") and step.seat in self.hidden:
            return self.dice[step.seat].pop() - 1
        if step.kind == "look" and self.player not in (step.seat, step.looker):
            node = state._nodes[len(state._log.dealt)]  # the dice under that cup now
            return node[self._below(len(node))] - 1
        return action

    def _below(self, n: int) -> int:
        """A number from 0 to ``n - 1``, each equally likely."""
        return min(int(self.sampler() * n), n - 1)


def _faces(hand: tuple[int, ...]) -> str:
    """A hand in short: its digits, or its faces between dots where one passes 9."""
    return ("" if all(die < 10 for die in hand) else ".").join(map(str, hand)) or "-"


pyspiel.register_game(GAME_TYPE, PerudoGame)
