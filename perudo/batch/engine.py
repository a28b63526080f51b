"""The batch engine: many games of one edition advanced together, arrays in, arrays out.

:class:`BatchGames` holds ``batch`` games of an edition at a table of ``players`` as NumPy
arrays, one row per game (:class:`~perudo.batch.arrays.GameArrays`). Actions are numbers of
:func:`perudo.encoding.action_encoding`; observations are vectors of
:func:`perudo.encoding.observation_encoding`, entry for entry what
:meth:`ObservationEncoding.encode` gives for the same position. The rules are those of
:class:`~perudo.GameState`, read from the same declarations (:mod:`perudo.batch.rules`);
a differential test holds the two engines to the same masks, resolutions, turns and
winners, step by step.

Each call checks what it is given here, in Python, then runs one compiled loop over the
games (:mod:`perudo.batch.moves`, :mod:`perudo.batch.legality`,
:mod:`perudo.batch.observations`, :mod:`perudo.batch.policies`).

The dice come from the batch's own generator, seeded at :meth:`BatchGames.new`: the same
seed gives the same games. (They are not the dice :func:`perudo.new_game` deals for a
seed: :meth:`BatchGames.hands` gives them, for :meth:`GameState.with_dice`.)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, NamedTuple, cast

import attrs
import numpy as np
from numpy.typing import NDArray

from perudo.actions import Act, Bid, Declare, Dudo, HandBid, Paso
from perudo.batch import legality, moves, observations, policies
from perudo.batch.arrays import (
    GameArrays,
    Layout,
    Spots,
    act_faces,
    act_index,
    bytes_per_game,
    call_bytes_per_game,
    check_numbers,
    layout,
    new_arrays,
    spots,
)
from perudo.batch.compiled import seed_bits
from perudo.batch.handle import Games, games
from perudo.batch.rules import BatchRules, batch_rules, face_ranks, hand_ladder
from perudo.encoding import ActionEncoding, action_encoding, observation_encoding, whole_number
from perudo.errors import REASONS, EncodingError, GameSetupError, IllegalActionError, shown
from perudo.loader import load_variant
from perudo.players import PlacedBid
from perudo.rules import RoundContext, Violation
from perudo.rules.bidding import check_bid
from perudo.setup import checked_starting_dice
from perudo.variant import Variant, checked_players

__all__ = ["BatchGames", "StepResult", "play_random"]

#: The most games one BatchGames holds (its arrays are sized up front).
MAX_BATCH = 10_000_000
#: The most bytes a batch may take, its arrays and what any one call allocates while it
#: runs (an observation, the largest, is a vector of a few kB per game). A larger batch is
#: refused before any is allocated (4 GiB; 100,000 four-player games take about 53 MiB of
#: arrays, and at most 650 MiB while they are observed).
MAX_BATCH_BYTES = 4 * 2**30


def _whole(what: str, values: Any, shape: tuple[int, ...], high: int) -> NDArray[np.int64]:
    """``values`` as whole numbers of ``shape`` (``-1``: any length), each from 0 to
    ``high - 1``, or an EncodingError naming ``what``."""
    array = np.asarray(values)
    fits = array.ndim == len(shape) and all(
        want in (-1, got) for want, got in zip(shape, array.shape, strict=True)
    )
    if not fits or (array.size and array.dtype.kind not in "iu"):
        raise EncodingError(
            f"{what} {shown(values)} is not {'a list' if shape == (-1,) else 'one or a row'}"
            f" of whole numbers from 0 to {high - 1}"
        )
    array = array.astype(np.int64)
    if array.size and (array.min() < 0 or array.max() >= high):
        raise EncodingError(f"{what} {shown(values)} are not all from 0 to {high - 1}")
    return array


@attrs.frozen
class StepResult:
    """What :meth:`BatchGames.step` returns, one row per game.

    Attributes:
        rewards: ``(batch, players)`` floats: each seat's change of return this step (the
            returns of :mod:`perudo.interop.turns`: placing with elimination, points in
            party mode).
        done: ``(batch,)`` flags: the game ended with this step.
        ended: ``(batch,)`` flags: a call ended a round with this step.
        winners: ``(batch, players)`` flags: the winners of each game that ended with this
            step (kept here when the game was reset at once).
    """

    rewards: NDArray[np.float64]
    done: NDArray[np.bool_]
    ended: NDArray[np.bool_]
    winners: NDArray[np.bool_]


class _Tables(NamedTuple):
    """What a batch reads of its edition at a table, computed once per edition and table
    size (:func:`_tables`): its rules as numbers, its layout, its tables and the bytes one
    game takes with its observations."""

    rules: BatchRules
    layout: Layout
    face_rank: NDArray[np.int8]
    ladder: NDArray[np.int8]
    act_faces: NDArray[np.int8]
    act_index: NDArray[np.int32]
    spots: Spots
    per_game: int


def _tables(variant: Variant, players: int) -> _Tables:
    """The :class:`_Tables` of ``variant`` at ``players``, the edition checked each time
    (:func:`batch_rules` refuses what the engine does not play), the rest kept. Each batch
    copies the arrays it is given, so none is shared."""
    return _kept_tables(variant, players, batch_rules(variant))


@functools.lru_cache(maxsize=64)
def _kept_tables(variant: Variant, players: int, rules: BatchRules) -> _Tables:
    check_numbers(variant, rules, players)  # before sizes are counted (a refusal: not kept)
    table = layout(variant, rules, players)
    actions = action_encoding(variant, players)
    return _Tables(
        rules=rules,
        layout=table,
        face_rank=face_ranks(variant),
        ladder=hand_ladder(variant),
        act_faces=act_faces(actions),
        act_index=act_index(actions),
        spots=spots(observation_encoding(variant, players)),
        per_game=bytes_per_game(table) + call_bytes_per_game(variant, players),
    )


class BatchGames:
    """``batch`` games of one edition at a table of ``players``, as arrays.

    Make one with :meth:`new`. Every array has the game as its first axis; seat axes are
    absolute (seat 0 first). :meth:`legal_mask` gives the player to act's legal actions,
    :meth:`step` plays one action per game, :meth:`observe` encodes a seat's view. With
    ``autoreset``, a game that ends is replaced at once by a new one (its result is in the
    :class:`StepResult`).

    >>> from perudo.batch import BatchGames
    >>> games = BatchGames.new("italian", 4, batch=3, seed=1)
    >>> games.legal_mask().shape
    (3, 123)
    """

    # One array per game field (see GameArrays), the game first: views of ``arrays``.
    start_dice: NDArray[np.int8]
    held: NDArray[np.int8]
    in_play: NDArray[np.int16]
    players_in: NDArray[np.int8]
    left: NDArray[np.int8]
    right: NDArray[np.int8]
    faces: NDArray[np.int8]
    open_faces: NDArray[np.int8]
    dealt: NDArray[np.int8]
    to_act: NDArray[np.int16]
    round_number: NDArray[np.int32]
    bid_q: NDArray[np.int16]
    bid_f: NDArray[np.int8]
    bid_p: NDArray[np.bool_]
    bidder: NDArray[np.int16]
    open_f: NDArray[np.int8]
    nbids: NDArray[np.int16]
    bid_made: NDArray[np.int16]
    bid_by: NDArray[np.int8]
    bid_claim: NDArray[np.int8]
    acts_after: NDArray[np.int32]
    special: NDArray[np.bool_]
    special_player: NDArray[np.int16]
    changers: NDArray[np.bool_]
    offers: NDArray[np.bool_]
    must_declare: NDArray[np.bool_]
    had_special: NDArray[np.bool_]
    owed: NDArray[np.int8]
    must_bid: NDArray[np.bool_]
    pressure_left: NDArray[np.int8]
    pressured: NDArray[np.bool_]
    scores: NDArray[np.int32]
    over: NDArray[np.bool_]
    winners: NDArray[np.bool_]
    out_place: NDArray[np.int8]
    opener: NDArray[np.int16]
    returned: NDArray[np.float64]
    last: NDArray[np.bool_]
    last_call: NDArray[np.int8]
    last_claim: NDArray[np.int8]
    last_q: NDArray[np.int16]
    last_f: NDArray[np.int8]
    last_p: NDArray[np.bool_]
    last_caller: NDArray[np.int16]
    last_bidder: NDArray[np.int16]
    last_count: NDArray[np.int16]
    last_revealed: NDArray[np.int8]
    last_hidden: NDArray[np.bool_]
    last_wild: NDArray[np.int8]
    last_loser: NDArray[np.int16]
    last_gainer: NDArray[np.int16]
    last_points: NDArray[np.int16]
    last_eliminated: NDArray[np.int16]
    last_changes: NDArray[np.int16]

    def __init__(
        self,
        variant: Variant,
        players: int,
        batch: int,
        rng: np.random.Generator,
        *,
        autoreset: bool = False,
        starting_dice: tuple[int, ...] | None = None,
    ) -> None:
        self.variant = variant
        self.players = players
        per_player = variant.dice.per_player
        start = starting_dice if starting_dice is not None else (per_player,) * players
        self.starting_dice = np.array(start, dtype=np.int64)  # each seat's, in every game
        self.batch = batch
        self.autoreset = autoreset
        tables = _tables(variant, players)
        self.rules: BatchRules = tables.rules
        self.layout: Layout = tables.layout
        self.actions: ActionEncoding = action_encoding(variant, players)
        self.max_quantity = self.actions.max_quantity
        self.nfaces = variant.dice.faces
        self.rng = rng
        #: The batch's generator (:mod:`perudo.batch.compiled`), drawn from ``rng``.
        self.bits = seed_bits(rng)
        #: Each of the edition's own actions as the dice it names, by face (Bluff's
        #: ``reroll 2 5``): :func:`~perudo.batch.arrays.act_faces`.
        self.act_faces = tables.act_faces.copy()
        self.arrays: GameArrays = new_arrays(self.layout, batch)
        for name, array in zip(GameArrays._fields, self.arrays, strict=True):
            setattr(self, name, array)
        # The compiled steps' handle on the arrays, the generator and the edition's numbers.
        self._games: Games = games(
            self.arrays, self.bits, tables.face_rank.copy(), tables.ladder.copy(),
            self.act_faces, tables.act_index.copy(), self.rules.numbers(), self.layout,
            tables.spots,
        )  # fmt: skip
        self.start_dice[:] = self.starting_dice
        self._reset(np.arange(batch))

    @classmethod
    def new(
        cls,
        variant: Variant | str,
        players: int,
        batch: int,
        seed: int | None = None,
        *,
        autoreset: bool = False,
        starting_dice: Sequence[int] | None = None,
    ) -> BatchGames:
        """``batch`` new games of ``variant`` (an edition or its key) for ``players``.

        ``seed`` seeds every die and roll-off of the batch (``None``: fresh entropy).
        ``starting_dice`` gives each seat's dice at the start of every game, a handicap as
        in :func:`perudo.new_game` (``None``: the edition's).

        Raises:
            GameSetupError: the player count, the batch size or the seed is not one the
                engine takes (at most :data:`~perudo.batch.engine.MAX_BATCH` games, in at
                most :data:`~perudo.batch.engine.MAX_BATCH_BYTES`), or the edition has a
                rule kind the batch engine does not implement (named in the message; play
                it with :func:`perudo.new_game`).
        """
        if not isinstance(variant, Variant):
            variant = load_variant(variant)
        checked_players(variant, players)
        if type(batch) is not int or not 1 <= batch <= MAX_BATCH:
            raise GameSetupError(f"batch {shown(batch)} is not 1 to {MAX_BATCH} games")
        per_game = _tables(variant, players).per_game
        if batch * per_game > MAX_BATCH_BYTES:
            raise GameSetupError(
                f"a batch of {batch} games of {variant.key} at {players} players would take "
                f"{batch * per_game / 2**30:.1f} GiB with its observations; at most "
                f"{MAX_BATCH_BYTES // per_game} games fit in {MAX_BATCH_BYTES // 2**30} GiB"
            )
        if seed is not None and (type(seed) is not int or seed < 0 or seed >= 2**128):
            raise GameSetupError(f"seed {shown(seed)} is not a whole number from 0 to 2**128")
        start = None
        if starting_dice is not None:
            start = checked_starting_dice(starting_dice, players, variant)
        return cls(
            variant, players, batch, np.random.default_rng(seed), autoreset=autoreset,
            starting_dice=start,
        )  # fmt: skip

    # --- reading ------------------------------------------------------------------------

    @property
    def nbytes(self) -> int:
        """The bytes the batch's arrays hold."""
        return int(sum(array.nbytes for array in self.arrays))

    @property
    def dice_in_play(self) -> NDArray[np.int64]:
        """``(batch,)``: the dice all hands hold together."""
        return self.in_play.astype(np.int64)

    def hands(self, game: int) -> tuple[tuple[int, ...], ...]:
        """The hands of game ``game`` as :func:`perudo.new_game` takes them (each sorted).

        Raises:
            EncodingError: ``game`` is not a game of the batch (0 to ``batch - 1``).
        """
        game = whole_number(game, "game")
        if not 0 <= game < self.batch:
            raise EncodingError(f"game {shown(game)} is not a game of the batch (0 to "
                                f"{self.batch - 1})")  # fmt: skip
        return tuple(
            tuple(
                face
                for face in range(1, self.nfaces + 1)
                for _ in range(int(self.faces[game, self.dealt[game], seat, face]))
            )
            for seat in range(self.players)
        )

    def cup(self, game: int, seat: int) -> tuple[int, ...]:
        """The dice ``seat`` holds under its cup in game ``game``, sorted: its hand
        (:meth:`hands`) less the dice it put out in the open (Bluff); after a re-roll, the
        faces it rolled.

        Raises:
            EncodingError: ``game`` is not a game of the batch, or ``seat`` not a seat.
        """
        hands = self.hands(game)
        seat = whole_number(seat, "seat")
        if not 0 <= seat < self.players:
            raise EncodingError(f"seat {shown(seat)} is not a seat (0 to {self.players - 1})")
        cup = list(hands[seat])
        for face in range(1, self.nfaces + 1):  # the dice out in the open are not under it
            for _ in range(int(self.open_faces[game, seat, face])):
                cup.remove(face)
        return tuple(cup)

    def wild_faces(self) -> NDArray[np.intp]:
        """``(batch,)``: the wild face of each game's round so far (0 for none): none in a
        special round, none in a round that opened on it where the edition says so."""
        wild = np.empty(self.batch, dtype=np.intp)
        legality.wild_faces(self._games, wild)
        return wild

    def legal_mask(self, by: Any = None, *, where: Any = None) -> NDArray[np.bool_]:
        """``(batch, actions)``: the legal actions of each game's player to act, in
        :func:`~perudo.encoding.action_encoding`'s numbering (bids up to the dice in play,
        as :meth:`perudo.GameState.legal_actions` lists them); with ``by`` (one seat, or
        one per game), those of that seat, which out of turn are the exact call (Jonti), a
        re-roll right after its bid (Bluff), and bids and challenges where the edition has
        a burst (UO Outlands). A game that is over has none; with
        ``where`` (one flag per game), so has every game not flagged.

        Raises:
            EncodingError: ``by`` is not a seat, or a row of ``batch`` seats; ``where`` is
                not one flag per game.
        """
        mask = np.zeros((self.batch, self.actions.size), dtype=np.bool_)
        if by is None and where is None:
            legality.masks(self._games, mask)
            return mask
        n, batch = self.players, self.batch
        seats = np.empty(batch, dtype=np.int64)
        if by is None:
            seats[:] = self.to_act
        else:
            seats[:] = _whole("by", by, () if np.ndim(by) == 0 else (batch,), n)
        if where is not None:
            seats[~self._flags(where)] = -1  # no mask
        legality.seat_masks(self._games, seats, mask)
        return mask

    def out_of_turn_counts(self) -> NDArray[np.int64]:
        """``(batch, players)``: how many actions each seat other than the player to act may
        take out of turn now (the exact call out of turn, a re-roll after its bid): the
        count of :meth:`legal_mask` with ``by``, without building it."""
        counts = np.zeros((self.batch, self.players), dtype=np.int64)
        legality.out_of_turn_counts(self._games, counts)
        return counts

    def out_of_turn_actions(self, games: Any, seats: Any, ks: Any) -> NDArray[np.int64]:
        """For each ``j``: the ``ks[j]``-th action (from 0, in number order) seat
        ``seats[j]`` may take out of turn in game ``games[j]``, -1 past the last.

        Raises:
            EncodingError: ``games``, ``seats`` and ``ks`` are not lists of games of the
                batch, seats and counts (whole numbers from 0), of one length.
        """
        games_ = _whole("games", games, (-1,), self.batch)
        seats_ = _whole("seats", seats, (len(games_),), self.players)
        ks_ = _whole("ks", ks, (len(games_),), 2**62)
        out = np.empty(len(games_), dtype=np.int64)
        legality.out_of_turn_actions(self._games, games_, seats_, ks_, out)
        return out

    def may_call(self) -> NDArray[np.bool_]:
        """``(batch, players)``: the seats that may make the exact call now (Calza, and
        Jonti in or out of turn)."""
        may = np.zeros((self.batch, self.players), dtype=np.bool_)
        legality.exact_callers(self._games, may)
        return may

    def lowest_quantities(self) -> NDArray[np.int64]:
        """``(faces, batch)``: row ``face - 1`` holds the lowest quantity of ``face`` each
        game's player to act may bid (a number past every quantity where it may not bid
        that face): the batch form of ``perudo.rules.bidding.lowest_quantities``."""
        lows = np.empty((self.nfaces, self.batch), dtype=np.int64)
        legality.lowest_quantities(self._games, self._actors(), lows)
        return lows

    def may_press(self) -> NDArray[np.bool_]:
        """``(batch,)``: each game's player to act has pressure left to use."""
        may = np.empty(self.batch, dtype=np.bool_)
        legality.pressure_open(self._games, self._actors(), may)
        return may

    def may_pass(self) -> NDArray[np.bool_]:
        """``(batch,)``: each game's player to act may pass now (where the edition has a
        pass: a bid stands, and the seat has not passed as often as a round allows)."""
        may = np.empty(self.batch, dtype=np.bool_)
        legality.passers(self._games, self._actors(), may)
        return may

    def last_bid_faces(self) -> NDArray[np.int64]:
        """``(batch, players)``: the face of each seat's last bid of the round so far (0:
        none yet), what the reader bot reads."""
        faces = np.zeros((self.batch, self.players), dtype=np.int64)
        observations.last_bid_faces(self._games, faces)
        return faces

    def _actors(self) -> NDArray[np.int64]:
        """Each game's player to act (seat 0 in a game that is over)."""
        return np.maximum(self.to_act, 0).astype(np.int64)

    # --- moving -------------------------------------------------------------------------

    def step(self, actions: Any, by: Any = None, *, where: Any = None) -> StepResult:
        """Play one action per game: ``actions[i]`` (a number) in game ``i``, by the
        player to act, or by seat ``by[i]`` when given (a seat other than the player to act
        may only make the exact call out of turn, where the edition allows it, or re-roll
        right after its bid, in Bluff: :meth:`legal_mask` with ``by`` lists them). With
        ``where`` (one flag per game), only the games flagged move.

        Raises:
            IllegalActionError: an action is not legal in its game (the first such game is
                named; no game moved).
            EncodingError: an action is not a number of the edition's actions (the first
                such game is named, unless an illegal action comes before it; no game
                moved).
        """
        acts = self._numbers(actions)
        idle = self.over.copy()
        if where is not None:
            idle |= ~self._flags(where)
        seats = self.to_act.astype(np.int64) if by is None else self._by(by, idle)
        bad = legality.first_illegal(self._games, acts, seats, idle)
        if bad >= 0:
            self._refuse(bad, int(acts[bad]), int(seats[bad]))
        batch, n = self.batch, self.players
        result = StepResult(
            rewards=np.zeros((batch, n)),
            done=np.zeros(batch, dtype=np.bool_),
            ended=np.zeros(batch, dtype=np.bool_),
            winners=np.zeros((batch, n), dtype=np.bool_),
        )
        moves.step_games(
            self._games, acts, seats, idle, self.autoreset,
            result.rewards, result.done, result.ended, result.winners,
        )  # fmt: skip
        return result

    def random_actions(self) -> NDArray[np.int64]:
        """``(batch,)``: an action of each game's player to act, drawn uniformly among its
        legal actions (those of :meth:`legal_mask`) from the batch's generator; 0 in a game
        that is over. Counted from each face's lowest legal quantity, never from the mask."""
        acts = np.empty(self.batch, dtype=np.int64)
        policies.random_actions(self._games, acts)
        return acts

    def reset(self, *, where: Any = None) -> None:
        """Start new games where ``where`` flags them (one flag per game, as :meth:`step`
        takes; every game by default): an agent resets the games that ended.

        Raises:
            EncodingError: ``where`` is not one flag per game.
        """
        rows = np.arange(self.batch) if where is None else np.flatnonzero(self._flags(where))
        self._reset(rows)

    def _reset(self, rows: NDArray[Any]) -> None:
        """New games in ``rows``."""
        rows = np.asarray(rows, dtype=np.int64)
        moves.new_games(self._games, rows)

    def _flags(self, where: Any) -> NDArray[np.bool_]:
        """``where`` checked: one flag per game of the batch."""
        flags = np.asarray(where)
        if flags.shape != (self.batch,) or flags.dtype != np.bool_:
            raise EncodingError(f"where must be {self.batch} flags, one per game")
        return flags

    # --- observations -------------------------------------------------------------------

    def observe(self, seats: Any, *, dtype: type[np.integer[Any]] = np.int32) -> NDArray[Any]:
        """``(batch, size)``: each game's observation from seat ``seats`` (one seat for all
        games, or one per game), in :func:`~perudo.encoding.observation_encoding`'s layout,
        as ``dtype`` (``np.int32``, or ``np.int64`` as the adapters' spaces hold it).

        Raises:
            EncodingError: ``seats`` is not a seat, or a row of ``batch`` seats; ``dtype``
                is not ``np.int32`` or ``np.int64``.
        """
        if dtype not in (np.int32, np.int64):
            raise EncodingError(f"dtype {shown(dtype)} is not np.int32 or np.int64")
        n, batch = self.players, self.batch
        one = np.ndim(seats) == 0
        me = np.empty(batch, dtype=np.int64)
        me[:] = _whole("seats", seats, () if one else (batch,), n)
        size = observation_encoding(self.variant, n).size
        out = cast(observations.Observed, np.zeros((batch, size), dtype=dtype))
        observations.observe_games(self._games, me, out)
        return out

    # --- checking -----------------------------------------------------------------------

    def _numbers(self, actions: Any) -> NDArray[np.int64]:
        acts = np.asarray(actions)
        if acts.shape != (self.batch,) or acts.dtype.kind not in "iu":
            raise EncodingError(
                f"actions must be {self.batch} whole numbers, one per game, not an array of "
                f"shape {acts.shape} and type {acts.dtype}"
            )
        # Each number's range is checked with its legality (legality.first_illegal).
        return acts.astype(np.int64, copy=False)

    def _by(self, by: Any, idle: NDArray[np.bool_]) -> NDArray[np.int64]:
        seats = np.asarray(by)
        if seats.shape != (self.batch,) or seats.dtype.kind not in "iu":
            raise EncodingError(f"by must be {self.batch} seats, one per game")
        seats = np.where(idle, 0, seats.astype(np.int64))  # not read where idle
        bad = np.flatnonzero((seats < 0) | (seats >= self.players))
        if len(bad):
            raise IllegalActionError(
                "unknown-seat", f"game {bad[0]}: seat {seats[bad[0]]} is not a seat of the game"
            )
        return seats

    def _refuse(self, game: int, act: int, seat: int) -> None:
        """Raise the EncodingError of ``act`` in ``game`` where it is no action number, else
        the IllegalActionError of ``act`` by ``seat``."""
        if not 0 <= act < self.actions.size:
            raise EncodingError(
                f"game {game}: action number {act} is not 0 to {self.actions.size - 1}"
            )
        why = self._violation(game, act, seat)
        raise IllegalActionError(
            why.reason,
            f"game {game}, seat {seat}: {why.message}",
            action=self.actions.decode(act),
            player=seat,
        )

    def _violation(self, game: int, act: int, seat: int) -> Violation:
        """Why an action is refused (one game: the error path only). The bids are judged by
        :func:`perudo.rules.bidding.check_bid` under the round's rules, as GameState does."""
        action = self.actions.decode(act)
        variant = self.variant

        def violation(reason: str) -> Violation:
            return Violation(reason, f"{action}: {REASONS[reason]}")

        if self.over[game]:
            return violation("game-over")
        if self.held[game, seat] == 0:
            return violation("player-out")
        if act == self.layout.exact_call:
            standing = self.bid_q[game] > 0
            return violation("exact-call-not-allowed" if standing else "nothing-to-challenge")
        if isinstance(action, Act):  # a re-roll (Bluff): as the reroll kind refuses it
            return violation(self._act_refused(game, action, seat))
        if seat != self.to_act[game]:
            return violation("not-your-turn")
        if isinstance(action, Declare):
            return violation("declaration-not-offered")
        if self.must_declare[game]:
            return violation("declaration-required")
        if isinstance(action, Paso):  # none standing, or passed as often as a round allows
            return violation("pass-not-allowed")
        if (
            isinstance(action, Bid | Dudo)
            and action.pressure
            and not self.may_press()[game]  # the seat is the player to act
        ):
            return violation("pressure-used-up")
        if not isinstance(action, Bid):
            return violation("nothing-to-challenge")
        rules = variant.round_rules()
        standing = ()
        if self.bid_q[game]:
            bid = Bid(int(self.bid_q[game]), int(self.bid_f[game]), bool(self.bid_p[game]))
            standing = (PlacedBid(int(self.bidder[game]), bid),)
        dice = variant.dice
        context = RoundContext(
            words=variant.words,
            faces=dice.faces,
            dice_per_player=dice.per_player,
            dice=tuple(self.held[game].tolist()),
            round_number=1,
            to_act=seat,
            bids=standing,
            rules=rules,
            scores=(0,) * len(self.held[game]),
            starting=tuple(self.start_dice[game].tolist()),
        )
        if self.special[game]:
            rules = variant.special_round.transform(rules, int(self.special_player[game]), context)
            context = attrs.evolve(context, rules=rules)
        standing = context.bid
        assert not isinstance(standing, HandBid)  # the batch plays quantity bids alone
        why = check_bid(rules, standing, lambda: context, action, seat, int(self.in_play[game]))
        assert why is not None  # the batch refused it: so does the rule
        return why

    def _act_refused(self, game: int, action: Act, seat: int) -> str:
        """The reason a re-roll ``action`` by ``seat`` is refused in ``game``, as
        :class:`perudo.rules.Reroll` gives it."""
        bids = int(self.nbids[game])
        if not bids or self.bidder[game] != seat:
            made = seat in self.bid_by[game, :bids].tolist()
            return "too-late" if made else "not-the-bidder"
        if self.acts_after[game, bids]:
            return "already-rerolled"
        cup = list(self.cup(game, seat))
        for face in action.numbers:
            if face not in cup:
                return "die-not-held"
            cup.remove(face)
        return "nothing-to-reroll"

    # --- returns ------------------------------------------------------------------------

    def returns(self) -> NDArray[np.float64]:
        """``(batch, players)``: each seat's return so far, as
        :meth:`perudo.interop.turns.Turns.returns` gives it (placing with elimination,
        points in party mode); final once the game is over."""
        return self.returned.copy()


def play_random(
    variant: Variant | str,
    players: int,
    *,
    games: int,
    seed: int | None = None,
    one_round: bool = False,
    batch: int = 256,
    starting_dice: Sequence[int] | None = None,
) -> int:
    """Play ``games`` games (with ``one_round``, only each game's first round), choosing
    uniformly among the player to act's legal actions at every decision; the number of
    decisions taken. The games are played in compiled code, one after another, in the rows
    of a batch of ``batch`` games (a few hundred rows stay in the CPU's cache: at 4,096,
    Liar's poker played 10% fewer actions a second); ``starting_dice`` gives each seat's
    dice at the start, as in :meth:`BatchGames.new`."""
    if type(games) is not int or games < 0:
        raise GameSetupError(f"games {shown(games)} is not a count of games")
    if games == 0:
        return 0
    table = BatchGames.new(variant, players, min(batch, games), seed, starting_dice=starting_dice)
    return int(policies.play_games(table._games, games, one_round))
