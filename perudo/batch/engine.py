"""The batch engine: many games of one edition advanced together, arrays in, arrays out.

:class:`BatchGames` holds ``batch`` games of an edition at a table of ``players`` as NumPy
arrays, one row per game. Actions are numbers of :func:`perudo.encoding.action_encoding`;
observations are vectors of :func:`perudo.encoding.observation_encoding`, entry for entry
what :meth:`ObservationEncoding.encode` gives for the same position. The rules are those of
:class:`~perudo.GameState`, read from the same declarations (:mod:`perudo.batch.rules`);
a differential test holds the two engines to the same masks, resolutions, turns and
winners, step by step.

The dice come from the batch's own NumPy generator, seeded at :meth:`BatchGames.new`:
the same seed gives the same games. (They are not the dice :func:`perudo.new_game` deals
for a seed: :meth:`BatchGames.hands` gives them, for :meth:`GameState.with_dice`.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np
from numpy.typing import NDArray

from perudo.actions import Bid, Declare, Dudo
from perudo.batch.rules import BatchRules, OnesOpening, RaiseOrder, batch_rules
from perudo.encoding import ActionEncoding, action_encoding, observation_encoding, whole_number
from perudo.errors import REASONS, EncodingError, GameSetupError, IllegalActionError, shown
from perudo.loader import load_variant
from perudo.players import PlacedBid
from perudo.rules import RoundContext, Violation
from perudo.rules.bidding import check_bid
from perudo.state import checked_starting_dice
from perudo.variant import Variant

__all__ = ["BatchGames", "StepResult", "play_random"]

_INF = 1 << 20  # a lowest quantity that no bid reaches: no bid on that face
_I16 = np.int16
_I8 = np.int8

#: The most games one BatchGames holds (its arrays are sized up front).
MAX_BATCH = 10_000_000
#: The most bytes a batch may take, its arrays and what any one call allocates while it
#: runs (an observation, the largest, is a vector of a few kB per game). A larger batch is
#: refused before any is allocated (4 GiB; 100,000 four-player games take about 52 MiB of
#: arrays, and 560 MiB while they are observed).
MAX_BATCH_BYTES = 4 * 2**30

# Every per-game array, with its dtype and shape after the batch axis ("n": a seat axis,
# "nf1": per seat, faces 1 to the edition's highest with index 0 unused, "nf": per seat and
# face, "b": bid numbers, "d": declarations); the default value.
_FIELDS: dict[str, tuple[Any, str, int]] = {
    "held": (_I8, "n", 0),
    "in_play": (_I16, "", 0),
    "left": (_I8, "n", 0),
    "right": (_I8, "n", 0),
    "faces": (_I8, "nf1", 0),
    "to_act": (_I16, "", -1),
    "round_number": (np.int32, "", 1),
    "bid_q": (_I16, "", 0),
    "bid_f": (_I8, "", 0),
    "bid_p": (np.bool_, "", False),
    "bidder": (_I16, "", -1),
    "open_f": (_I8, "", 0),
    "nbids": (_I16, "", 0),
    "bid_pos": (_I16, "b", 0),
    "bid_seat": (_I8, "b", 0),
    "special": (np.bool_, "", False),
    "special_player": (_I16, "", -1),
    "changers": (np.bool_, "n", False),
    "offers": (np.bool_, "d", False),
    "must_declare": (np.bool_, "", False),
    "had_special": (np.bool_, "n", False),
    "pressure_left": (_I8, "n", 0),
    "pressured": (np.bool_, "", False),
    "scores": (np.int32, "n", 0),
    "over": (np.bool_, "", False),
    "winners": (np.bool_, "n", False),
    "out_place": (_I8, "n", -1),
    "opener": (_I16, "", -1),
    "last": (np.bool_, "", False),
    "last_call": (_I8, "", 0),
    "last_q": (_I16, "", 0),
    "last_f": (_I8, "", 0),
    "last_p": (np.bool_, "", False),
    "last_caller": (_I16, "", -1),
    "last_bidder": (_I16, "", -1),
    "last_count": (_I16, "", 0),
    "last_revealed": (_I8, "n", 0),
    "last_hidden": (np.bool_, "n", False),
    "last_hands": (_I8, "nf", 0),
    "last_wild": (_I8, "", 0),
    "last_loser": (_I16, "", -1),
    "last_gainer": (_I16, "", -1),
    "last_points": (_I16, "", 0),
    "last_eliminated": (_I16, "", -1),
}


# Fields a new game need not clear: each is read only where another field says it holds
# something (the bid fields where bid_q > 0 or bid_pos > 0, the last call's where last),
# or is set whole by the new game itself.
_SET_BY_NEW_GAME = frozenset(
    {"bid_f", "bid_p", "bidder", "open_f", "bid_seat", "held", "in_play", "left", "right",
     "faces", "pressure_left", "to_act", "opener"}
    | {name for name in _FIELDS if name.startswith("last_")}
)  # fmt: skip


def _bytes_per_game(variant: Variant, players: int) -> int:
    """The bytes of one game's row in every array of a BatchGames."""
    encoding = action_encoding(variant, players)
    faces = variant.dice.faces
    sizes = {"": 1, "n": players, "nf1": players * (faces + 1), "nf": players * faces}
    sizes |= {"b": encoding.bid_count, "d": len(variant.declarations)}
    fields = sum(
        int(np.dtype(dtype).itemsize) * sizes[shape] for dtype, shape, _ in _FIELDS.values()
    )
    return fields + 8 * players  # and each seat's return so far


def _call_bytes_per_game(variant: Variant, players: int) -> int:
    """The most bytes one call allocates per game while it runs, measured with tracemalloc
    (``tests/test_batch.py`` holds every call to it): an observation's vector and its copy,
    the mask and its scratch, a step's temporaries."""
    observation = 4 * observation_encoding(variant, players).size
    return max(2 * observation, 5 * action_encoding(variant, players).size) + 64 * players + 256


def _check_numbers(variant: Variant, rules: BatchRules, players: int) -> None:
    """Refuse an edition whose numbers would not fit the arrays that hold them (a house
    rule's points or pressure uses), before anything is played: numbers never wrap."""
    rounds = rules.rounds_per_player * players if rules.rounds_per_player else rules.rounds
    most_points = max(rules.points, rules.pressure_points)
    largest = {
        "pressure_left": ("pressure uses", rules.pressure_uses),
        "last_points": ("points one call moves", most_points),
        "scores": ("score a game can reach", rounds * most_points),
        "round_number": ("rounds", rounds),
        "in_play": ("dice in play", rules.per_player * players),
        "held": ("dice a player holds", rules.per_player),
    }
    for field, (what, value) in largest.items():
        top = int(np.iinfo(_FIELDS[field][0]).max)
        if value > top:
            raise GameSetupError(
                f"the batch engine cannot play {variant.key!r} at {players} players: its "
                f"{what} ({value}) pass the {top} its arrays hold; play it with "
                "perudo.new_game, the reference engine"
            )


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

    # One array per game field (see _FIELDS), the game first.
    held: NDArray[np.int8]
    in_play: NDArray[np.int16]
    left: NDArray[np.int8]
    right: NDArray[np.int8]
    faces: NDArray[np.int8]
    to_act: NDArray[np.int16]
    round_number: NDArray[np.int32]
    bid_q: NDArray[np.int16]
    bid_f: NDArray[np.int8]
    bid_p: NDArray[np.bool_]
    bidder: NDArray[np.int16]
    open_f: NDArray[np.int8]
    nbids: NDArray[np.int16]
    bid_pos: NDArray[np.int16]
    bid_seat: NDArray[np.int8]
    special: NDArray[np.bool_]
    special_player: NDArray[np.int16]
    changers: NDArray[np.bool_]
    offers: NDArray[np.bool_]
    must_declare: NDArray[np.bool_]
    had_special: NDArray[np.bool_]
    pressure_left: NDArray[np.int8]
    pressured: NDArray[np.bool_]
    scores: NDArray[np.int32]
    over: NDArray[np.bool_]
    winners: NDArray[np.bool_]
    out_place: NDArray[np.int8]
    opener: NDArray[np.int16]
    last: NDArray[np.bool_]
    last_call: NDArray[np.int8]
    last_q: NDArray[np.int16]
    last_f: NDArray[np.int8]
    last_p: NDArray[np.bool_]
    last_caller: NDArray[np.int16]
    last_bidder: NDArray[np.int16]
    last_count: NDArray[np.int16]
    last_revealed: NDArray[np.int8]
    last_hidden: NDArray[np.bool_]
    last_hands: NDArray[np.int8]
    last_wild: NDArray[np.int8]
    last_loser: NDArray[np.int16]
    last_gainer: NDArray[np.int16]
    last_points: NDArray[np.int16]
    last_eliminated: NDArray[np.int16]

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
        self.rules: BatchRules = batch_rules(variant)
        self.actions: ActionEncoding = action_encoding(variant, players)
        self.rng = rng
        self._round_only = False
        r = self.rules
        n = players
        calls = variant.calls
        self._dudo_pressed = 1 if variant.has_pressure else -1
        self._calza = len(calls) - 1 if variant.has_exact_call else -1
        self._first_decl = len(calls)
        self._first_bid = self.actions.first_bid
        self._press = 2 if variant.has_pressure else 1
        self.max_quantity = self.actions.max_quantity
        self._bid_numbers = self.actions.bid_count
        self._ndecl = len(variant.declarations)
        self._special_decl = r.special_role.index("special") if "special" in r.special_role else -1
        self._rounds_limit = r.rounds_per_player * n if r.rounds_per_player else r.rounds
        # Last player with dice wins (else a fixed number of rounds, for points).
        self._elimination = r.moves_dice and not self._rounds_limit
        self.nfaces = nf = variant.dice.faces
        self._face_numbers = np.arange(1, nf + 1, dtype=np.int32)
        shapes = {"": (), "n": (n,), "nf1": (n, nf + 1), "nf": (n, nf)}
        shapes["b"] = (self._bid_numbers,)
        shapes["d"] = (self._ndecl,)
        self._seats = np.arange(n)
        self._rows = np.arange(batch)
        # The fields a new game clears: those this edition reads (no scores where calls
        # move dice, no places where they move points).
        unread = set(_SET_BY_NEW_GAME)
        unread |= {"scores"} if self._elimination else {"out_place"}
        unread |= set() if r.special_once else {"had_special"}
        self._cleared = tuple(name for name in _FIELDS if name not in unread)
        for name, (dtype, shape, default) in _FIELDS.items():
            setattr(self, name, np.full((batch, *shapes[shape]), default, dtype=dtype))
        self._returned = np.zeros((batch, n))
        self._reset(np.arange(batch))

    # --- making -------------------------------------------------------------------------

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
        low, high = variant.players.min, variant.players.max
        if type(players) is not int or not low <= players <= high:
            raise GameSetupError(
                f"{variant.name} is played by {low} to {high} players, not {shown(players)}"
            )
        if type(batch) is not int or not 1 <= batch <= MAX_BATCH:
            raise GameSetupError(f"batch {shown(batch)} is not 1 to {MAX_BATCH} games")
        _check_numbers(variant, batch_rules(variant), players)  # before sizes are counted
        per_game = _bytes_per_game(variant, players) + _call_bytes_per_game(variant, players)
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
        return int(sum(getattr(self, name).nbytes for name in _FIELDS)) + self._returned.nbytes

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
                for _ in range(int(self.faces[game, seat, face]))
            )
            for seat in range(self.players)
        )

    def wild_faces(self, games: Any = None) -> NDArray[np.intp]:
        """The wild face of each game's round so far (0 for none): none in a special round,
        none in a round that opened on it where the edition says so."""
        rows = self._rows if games is None else games
        r = self.rules
        wild = np.where(self.special[rows], 0, r.wild).astype(np.intp)
        if r.wild_unless_opened_on:
            wild[self.open_f[rows] == r.wild] = 0
        return wild

    def legal_mask(self) -> NDArray[np.bool_]:
        """``(batch, actions)``: the legal actions of each game's player to act, in
        :func:`~perudo.encoding.action_encoding`'s numbering (bids up to the dice in play,
        as :meth:`perudo.GameState.legal_actions` lists them). A game that is over has none."""
        games = np.arange(self.batch)
        mask = np.zeros((self.batch, self.actions.size), dtype=np.bool_)
        self._fill_mask(mask, games)
        return mask

    def may_call(self) -> NDArray[np.bool_]:
        """``(batch, players)``: the seats that may make the exact call now (Calza, and
        Jonti in or out of turn)."""
        return self._may_call(np.arange(self.batch))

    # --- moving -------------------------------------------------------------------------

    def step(self, actions: Any, by: Any = None, *, where: Any = None) -> StepResult:
        """Play one action per game: ``actions[i]`` (a number) in game ``i``, by the
        player to act, or by seat ``by[i]`` when given (a seat other than the player to act
        may only make the exact call out of turn, where the edition allows it). With
        ``where`` (one flag per game), only the games flagged move.

        Raises:
            IllegalActionError: an action is not legal in its game (the first such game is
                named; no game moved).
            EncodingError: an action is not a number of the edition's actions.
        """
        acts = self._numbers(actions)
        idle = self.over.copy()
        if where is not None:
            idle |= ~self._flags(where)
        seats = self.to_act.astype(np.int64) if by is None else self._by(by, idle)
        self._check(acts, seats, idle)
        return self._advance(acts, seats, idle)

    def _advance(
        self,
        acts: NDArray[np.int64],
        seats: NDArray[np.int64],
        idle: NDArray[np.bool_] | None = None,
    ) -> StepResult:
        """:meth:`step` for actions known to be legal (the engine's own choices); games
        that are over, or ``idle``, do not move."""
        before = self.over.copy()
        if idle is None:
            idle = before
        ended = np.zeros(self.batch, dtype=np.bool_)
        live = np.flatnonzero(~idle)
        bidding = (acts >= self._first_bid) & ~idle
        a, s = acts[live], seats[live]
        calls = a < self._first_decl
        declare = ~calls & (a < self._first_bid)
        if bidding.any():
            self._bid(bidding, acts, seats)
        if declare.any():
            self._declare(live[declare], a[declare] - self._first_decl, s[declare])
        if calls.any():
            games = live[calls]
            pressed = a[calls] == self._dudo_pressed
            if pressed.any():
                self.pressure_left[games[pressed], s[calls][pressed]] -= 1
                self.pressured[games[pressed]] = True
            self._resolve(games, a[calls], s[calls])
            ended[games] = True
        done = self.over & ~before
        returns = self.returns()
        rewards = returns - self._returned
        self._returned = returns
        winners = self.winners & done[:, None]
        if self.autoreset and done.any():
            self._reset(np.flatnonzero(done))
        return StepResult(rewards=rewards, done=done, ended=ended, winners=winners)

    def random_actions(self) -> NDArray[np.int64]:
        """``(batch,)``: an action of each game's player to act, drawn uniformly among its
        legal actions (those of :meth:`legal_mask`) from the batch's generator; 0 in a game
        that is over. Counted from each face's lowest legal quantity, never from the mask."""
        batch = self.batch
        games = self._rows
        seats = np.maximum(self.to_act, 0).astype(np.intp)
        playing = ~self.over
        bidding = playing & ~self.must_declare
        lows = self._lows(games, seats)
        counts = self.in_play.astype(np.int32) + 1 - lows  # bids of each face, face by face
        np.maximum(counts, 0, out=counts)
        counts *= bidding
        press = self._can_press(games, seats) & playing
        per_bid = 1 + press.astype(np.int32)  # a bid and its pressured form
        if self._press == 2:
            counts *= per_bid
        cum = counts  # running totals, face by face
        nf = self.nfaces
        for row in range(1, nf):
            cum[row] += cum[row - 1]
        bids = cum[nf - 1]
        dudo, pressed, open_calza = self._open_calls(games, seats)
        calls = dudo.astype(np.int32) + pressed  # Dudo, then Dudo with pressure
        calza = open_calza.astype(np.int32)
        offers = self.offers & playing[:, None]
        total = bids + calls + calza + offers.sum(axis=1, dtype=np.int32)
        pick = (self.rng.random(batch) * total).astype(np.int32)
        # A bid: the face whose run of quantities holds the pick, then the quantity.
        face = (cum[: nf - 1] <= pick).sum(axis=0, dtype=np.int32)
        below = np.take(cum, (np.maximum(face, 1) - 1) * batch + games)  # bids of lower faces
        offset = pick - np.where(face > 0, below, 0)
        quantity = np.take(lows, face * batch + games) + offset // per_bid
        number = self._first_bid + ((quantity - 1) * nf + face) * self._press + offset % per_bid
        # Else a call (Dudo, Dudo with pressure, the exact call) or a declaration.
        rest = pick - bids
        acts = np.where(rest < 0, number, np.where(rest == 0, 0, 1)).astype(np.int64)
        rest -= calls
        if self._calza >= 0:
            acts[(rest == 0) & (calza > 0)] = self._calza
            rest -= calza
        if self._ndecl:
            declaring = rest >= 0
            nth = (np.cumsum(offers, axis=1) <= rest[:, None]).sum(axis=1)
            acts[declaring] = self._first_decl + nth[declaring]
        acts[~playing] = 0
        return acts

    def reset(self, *, where: Any = None) -> None:
        """Start new games where ``where`` flags them (one flag per game, as :meth:`step`
        takes; every game by default): an agent resets the games that ended.

        Raises:
            EncodingError: ``where`` is not one flag per game.
        """
        rows = np.arange(self.batch) if where is None else np.flatnonzero(self._flags(where))
        self._reset(rows)

    def _flags(self, where: Any) -> NDArray[np.bool_]:
        """``where`` checked: one flag per game of the batch."""
        flags = np.asarray(where)
        if flags.shape != (self.batch,) or flags.dtype != np.bool_:
            raise EncodingError(f"where must be {self.batch} flags, one per game")
        return flags

    # --- observations -------------------------------------------------------------------

    def observe(self, seats: Any) -> NDArray[np.int32]:
        """``(batch, size)``: each game's observation from seat ``seats`` (one seat for all
        games, or one per game), in :func:`~perudo.encoding.observation_encoding`'s layout.

        Raises:
            EncodingError: ``seats`` is not a seat, or a row of ``batch`` seats.
        """
        enc = observation_encoding(self.variant, self.players)
        n, batch = self.players, self.batch
        one = np.ndim(seats) == 0
        me = np.broadcast_to(_whole("seats", seats, () if one else (batch,), n), (batch,))
        rows = np.arange(batch)
        rel = (me[:, None] + self._seats[None, :]) % n  # rel[i, k]: absolute seat of entry k
        out = np.zeros((batch, enc.size), dtype=np.int32)
        f = {fld.name: fld for fld in enc.fields}

        def put(name: str, values: Any) -> None:
            fld = f[name]
            if fld.length:
                out[:, fld.start : fld.stop] = values

        def per_seat(array: NDArray[Any]) -> NDArray[Any]:
            return np.take_along_axis(array, rel, axis=1)

        def seat_flag(name: str, seat: NDArray[Any]) -> None:
            fld = f[name]
            has = seat >= 0
            out[rows[has], fld.start + (seat[has] - me[has]) % n] = 1

        out[rows, f["seat"].start + me] = 1
        put("round", self.round_number[:, None])
        hidden = self.must_declare & (self.to_act == me)
        put("hand", np.where(hidden[:, None], 0, self.faces[rows, me, 1:]))
        put("hand_hidden", hidden[:, None])
        put("dice", per_seat(self.held))
        put("starting_dice", self.starting_dice[rel])
        if not self.rules.moves_dice:
            put("score", per_seat(self.scores))
        if self.rules.pressure_uses:
            put("pressure_left", per_seat(self.pressure_left))
        seat_flag("to_act", self.to_act.astype(np.int64))
        may = self.may_call()
        put("may_call", per_seat(may))
        put("face_changers", per_seat(self.changers))
        put("special_round", self.special[:, None])
        seat_flag("special_player", self.special_player.astype(np.int64))
        put("offers", self.offers)
        put("must_declare", self.must_declare[:, None])
        put("wild", self.wild_faces()[:, None])
        game, slot = np.nonzero(self.bid_pos)
        spot = slot * n + (self.bid_seat[game, slot].astype(np.int64) - me[game]) % n
        out[game, f["bids"].start + spot] = self.bid_pos[game, slot]
        legal = f["legal"]
        acting = np.flatnonzero(self.to_act == me)
        self._fill_mask(out[:, legal.start : legal.stop], acting)
        if self._calza >= 0:
            waiting = (self.to_act != me) & may[rows, me]
            out[waiting, legal.start + self._calza] = 1
        self._observe_last(out, f, me, rel)
        put("winners", per_seat(self.winners))
        return out

    def _observe_last(
        self, out: NDArray[np.int32], f: dict[str, Any], me: NDArray[Any], rel: NDArray[Any]
    ) -> None:
        n = self.players
        rows = np.flatnonzero(self.last)
        if not len(rows):
            return
        view = out[rows]
        mine, where = me[rows], rel[rows]

        def put(name: str, values: Any) -> None:
            if f[name].length:
                view[:, f[name].start : f[name].stop] = values

        def seat_flag(name: str, seat: NDArray[Any]) -> None:
            has = seat >= 0
            k = np.flatnonzero(has)
            view[k, f[name].start + (seat[has] - mine[has]) % n] = 1

        put("last", 1)
        view[np.arange(len(rows)), f["last_call"].start + self.last_call[rows].astype(np.int64)] = 1
        put("last_quantity", self.last_q[rows, None])
        view[
            np.arange(len(rows)), f["last_face"].start + self.last_f[rows].astype(np.int64) - 1
        ] = 1
        put("last_pressure", self.last_p[rows, None])
        seat_flag("last_caller", self.last_caller[rows].astype(np.int64))
        seat_flag("last_bidder", self.last_bidder[rows].astype(np.int64))
        put("last_count", self.last_count[rows, None])
        put("last_revealed", np.take_along_axis(self.last_revealed[rows], where, axis=1))
        put("last_hidden", np.take_along_axis(self.last_hidden[rows], where, axis=1))
        hands = self.last_hands[rows][np.arange(len(rows))[:, None], where]
        put("last_hands", hands.reshape(len(rows), self.nfaces * n))
        put("last_wild", self.last_wild[rows, None])
        seat_flag("last_loser", self.last_loser[rows].astype(np.int64))
        seat_flag("last_gainer", self.last_gainer[rows].astype(np.int64))
        put("last_points", self.last_points[rows, None])
        seat_flag("last_eliminated", self.last_eliminated[rows].astype(np.int64))
        if f["last_changes"].length:  # an edition with a kind of its own that only renames
            put("last_changes", np.take_along_axis(self._last_changes(rows), where, axis=1))
        out[rows] = view

    def _last_changes(self, rows: NDArray[Any]) -> NDArray[np.int32]:
        """``(len(rows), players)``: each seat's change in the last call, as the built-in
        kinds settle it: of dice (the loser loses one, the gainer gains one), or of score
        where points moved (the loser gives them to the winner)."""
        changes = np.zeros((len(rows), self.players), dtype=np.int32)
        points = self.last_points[rows]
        amount = np.where(points == 0, 1, points)  # a die each, or the points moved
        for seats, sign in ((self.last_loser[rows], -1), (self.last_gainer[rows], 1)):
            has = seats >= 0
            changes[np.flatnonzero(has), seats[has].astype(np.int64)] += sign * amount[has]
        return changes

    # --- legality -----------------------------------------------------------------------

    def _lows(self, games: NDArray[Any], seats: NDArray[Any]) -> NDArray[np.int32]:
        """``(faces, len(games))``: the lowest quantity of each face (row ``face - 1``) that
        ``seats`` may bid in ``games``; :data:`_INF` where no bid on that face is legal. The
        batch form of :func:`perudo.rules.bidding.lowest_quantities`, face by face."""
        r = self.rules
        q = self.bid_q[games].astype(np.int32)
        f = self.bid_f[games].astype(np.int32)
        lows = np.empty((self.nfaces, len(games)), dtype=np.int32)
        special = self.special[games]
        if r.halve_double:  # onto ones: half, rounded up; off ones: twice, plus one
            plain = ~special
            onto, half = plain & (f != 1), (q + 1) // 2
            off, twice = plain & (f == 1), 2 * q + 1
        for face in range(1, self.nfaces + 1):
            row = lows[face - 1]
            if r.raising == RaiseOrder.FACE_OR_QUANTITY:  # a higher face from 1, same face +1
                row[:] = np.where(face > f, 1, q + 1)
            else:  # a higher face keeps the quantity, the same face needs one more
                np.add(q, face <= f, out=row)
            if r.raising != RaiseOrder.QUANTITY_OR_FACE:  # the face never goes down
                row[face < f] = _INF
            if r.halve_double:
                np.copyto(row, half if face == 1 else twice, where=onto if face == 1 else off)
        if special.any():
            rows = np.flatnonzero(special)
            changer = self.changers[games[rows], seats[rows]]
            locked = (self._face_numbers[:, None] != f[rows][None, :]) & ~changer[None, :]
            part = lows[:, rows]
            part[locked] = _INF
            lows[:, rows] = part
        opening = np.flatnonzero(q == 0)
        if len(opening):
            mode = np.where(special[opening], r.special_opening, r.opening)
            lows[0, opening] = np.where(mode == OnesOpening.FORBIDDEN, _INF, 1)
            lows[1:, opening] = np.where(mode == OnesOpening.REQUIRED, _INF, 1)
        return lows

    def _can_press(self, games: NDArray[Any], seats: NDArray[Any]) -> NDArray[np.bool_]:
        if not self.rules.pressure_uses:
            return np.zeros(len(games), dtype=np.bool_)
        can: NDArray[np.bool_] = self.pressure_left[games, seats] > 0
        return can

    def _fill_mask(self, mask: Any, games: NDArray[Any]) -> None:
        """Set the rows ``games`` of ``mask`` (rows are the batch's games) to the legal
        actions of their player to act."""
        games = games[~self.over[games]]
        if not len(games):
            return
        seats = self.to_act[games].astype(np.int64)
        declaring = self.must_declare[games]
        bidding = games[~declaring]
        bseats = seats[~declaring]
        if self._ndecl:
            mask[games, self._first_decl : self._first_bid] = self.offers[games]
        if not len(bidding):
            return
        lows = self._lows(bidding, bseats).T
        top = self.dice_in_play[bidding]
        quantity = np.arange(1, self.max_quantity + 1)[None, :, None]
        ok = (quantity >= lows[:, None, :]) & (quantity <= top[:, None, None])
        view = mask[bidding, self._first_bid :].reshape(
            len(bidding), self.max_quantity, self.nfaces, -1
        )
        view[..., 0] = ok
        dudo, pressed, calza = self._open_calls(bidding, bseats)
        mask[bidding, 0] = dudo
        if self._press == 2:
            view[..., 1] = ok & self._can_press(bidding, bseats)[:, None, None]
            mask[bidding, self._dudo_pressed] = pressed
        mask[bidding, self._first_bid :] = view.reshape(len(bidding), -1)
        if self._calza >= 0:
            mask[bidding, self._calza] = calza

    def _open_calls(
        self, games: NDArray[Any], seats: NDArray[Any]
    ) -> tuple[NDArray[np.bool_], NDArray[np.bool_], NDArray[np.bool_]]:
        """The calls the player to act (``seats``) may make in ``games``: Dudo, Dudo with
        pressure, and the exact call. The one statement of them for the mask, the checks
        and the random draw."""
        dudo = (self.bid_q[games] > 0) & ~self.must_declare[games] & ~self.over[games]
        pressed = dudo & self._can_press(games, seats)
        if self._calza < 0:
            return dudo, pressed, np.zeros(len(games), dtype=np.bool_)
        return dudo, pressed, self._may_call(games)[np.arange(len(games)), seats]

    def _may_call(self, games: NDArray[Any]) -> NDArray[np.bool_]:
        """``(len(games), players)``: seats that may make the exact call in ``games``."""
        r = self.rules
        n = self.players
        may = np.zeros((len(games), n), dtype=np.bool_)
        if not r.exact:
            return may
        held = self.held[games]
        players_in = (held > 0).sum(axis=1)
        ok = (~self.over[games]) & (self.bid_q[games] > 0) & (players_in >= r.exact_min_players)
        may[:] = ok[:, None] & (held > 0)
        seats = self._seats[None, :]
        if not r.exact_out_of_turn:
            may &= seats == self.to_act[games].astype(np.int64)[:, None]
        else:
            bidder = self.bidder[games].astype(np.int64)
            before = self.right[games, bidder]
            may &= (seats != bidder[:, None]) & (seats != before[:, None])
        if r.exact_below_full:
            may &= held < self.starting_dice[None, :]
        return may

    def _link(self, games: NDArray[Any]) -> None:
        """Set ``left`` and ``right`` in ``games``: for each seat, the next seat still in
        clockwise (to its left) and the one it follows, from the hands held now."""
        n = self.players
        has = self.held[games] > 0
        for way, links in ((1, self.left), (-1, self.right)):
            order = (self._seats[:, None] + way * np.arange(1, n + 1)[None, :]) % n  # [seat, k]
            held = has[:, order]  # [game, seat, k]
            first = np.argmax(held, axis=2)
            found = order[self._seats[None, :], first]
            links[games] = np.where(held.any(axis=2), found, self._seats[None, :])

    # --- checking -----------------------------------------------------------------------

    def _numbers(self, actions: Any) -> NDArray[np.int64]:
        acts = np.asarray(actions)
        if acts.shape != (self.batch,) or acts.dtype.kind not in "iu":
            raise EncodingError(
                f"actions must be {self.batch} whole numbers, one per game, not an array of "
                f"shape {acts.shape} and type {acts.dtype}"
            )
        acts = acts.astype(np.int64)
        bad = np.flatnonzero((acts < 0) | (acts >= self.actions.size))
        if len(bad):
            raise EncodingError(
                f"game {bad[0]}: action number {acts[bad[0]]} is not 0 to {self.actions.size - 1}"
            )
        return acts

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

    def _check(
        self, acts: NDArray[np.int64], seats: NDArray[np.int64], idle: NDArray[np.bool_]
    ) -> None:
        """Refuse the first illegal action, before any game moves."""
        ok = idle.copy()  # a game that does not move takes no action: its entry is not read
        games = np.flatnonzero(~idle)
        acting = seats[games] == self.to_act[games]
        others = games[~acting]  # only the exact call, out of turn
        if len(others):
            may = self._may_call(others)[np.arange(len(others)), seats[others]]
            ok[others] = (acts[others] == self._calza) & may
        mine = games[acting]
        if len(mine):
            ok[mine] = self._legal_for_actor(mine, acts[mine])
        bad = np.flatnonzero(~ok)
        if len(bad):
            game = int(bad[0])
            action = self.actions.decode(int(acts[game]))
            why = self._violation(game, int(acts[game]), int(seats[game]))
            raise IllegalActionError(
                why.reason,
                f"game {game}, seat {seats[game]}: {why.message}",
                action=action,
                player=int(seats[game]),
            )

    def _legal_for_actor(self, games: NDArray[Any], acts: NDArray[Any]) -> NDArray[np.bool_]:
        seats = self.to_act[games].astype(np.int64)
        declaring = self.must_declare[games]
        dudo, pressed, calza = self._open_calls(games, seats)
        ok: NDArray[np.bool_] = ((acts == 0) & dudo) | ((acts == self._dudo_pressed) & pressed)
        ok |= (acts == self._calza) & calza
        decl = (acts >= self._first_decl) & (acts < self._first_bid)
        if decl.any():
            k = np.flatnonzero(decl)
            ok[k] = self.offers[games[k], acts[k] - self._first_decl]
        bid = (acts >= self._first_bid) & ~declaring
        if bid.any():
            k = np.flatnonzero(bid)
            number = acts[k] - self._first_bid
            with_pressure = (number % self._press) == 1
            quantity, face = np.divmod(number // self._press, self.nfaces)
            quantity, face = quantity + 1, face + 1
            lows = self._lows(games[k], seats[k])
            fine = quantity >= lows[face - 1, np.arange(len(k))]
            if self.rules.cap:
                fine &= quantity <= self.dice_in_play[games[k]]
            fine &= ~with_pressure | self._can_press(games[k], seats[k])
            ok[k] = fine
        return ok

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
        if act == self._calza:
            standing = self.bid_q[game] > 0
            return violation("exact-call-not-allowed" if standing else "nothing-to-challenge")
        if seat != self.to_act[game]:
            return violation("not-your-turn")
        if isinstance(action, Declare):
            return violation("declaration-not-offered")
        if self.must_declare[game]:
            return violation("declaration-required")
        if (
            isinstance(action, Bid | Dudo)
            and action.pressure
            and not self._can_press(np.array([game]), np.array([seat])).all()
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
            variant.words, dice.faces, dice.per_player, tuple(self.held[game].tolist()),
            1, seat, standing, rules, (0,) * len(self.held[game]),
            tuple(self.starting_dice.tolist()),
        )  # fmt: skip
        if self.special[game]:
            rules = variant.special_round.transform(rules, int(self.special_player[game]), context)
            context = attrs.evolve(context, rules=rules)
        why = check_bid(rules, context.bid, lambda: context, action, seat, int(self.in_play[game]))
        assert why is not None  # the batch refused it: so does the rule
        return why

    # --- the moves ----------------------------------------------------------------------

    def _bid(self, bidding: NDArray[np.bool_], acts: NDArray[Any], seats: NDArray[Any]) -> None:
        """The bids ``acts`` by ``seats`` in the games where ``bidding`` (full-batch arrays:
        most games bid at most steps, so the batch is written whole, under the flags)."""
        numbers = acts - self._first_bid
        pressed = ((numbers % self._press) == 1) & bidding
        plain = numbers // self._press
        quantity, face = plain // self.nfaces + 1, plain % self.nfaces + 1
        np.copyto(self.open_f, face, where=bidding & (self.nbids == 0), casting="unsafe")
        self.nbids += bidding
        rows = np.flatnonzero(bidding)
        slot = numbers[rows]
        self.bid_pos[rows, slot] = self.nbids[rows]
        self.bid_seat[rows, slot] = seats[rows]
        np.copyto(self.bid_q, quantity, where=bidding, casting="unsafe")
        np.copyto(self.bid_f, face, where=bidding, casting="unsafe")
        np.copyto(self.bid_p, pressed, where=bidding)
        np.copyto(self.bidder, seats, where=bidding, casting="unsafe")
        if pressed.any():
            g = np.flatnonzero(pressed)
            self.pressure_left[g, seats[g]] -= 1
            self.pressured[g] = True
        if self._ndecl:
            self.offers[bidding] = False
        self.must_declare &= ~bidding
        left = self.left.ravel()[self._rows * self.players + np.maximum(seats, 0)]
        np.copyto(self.to_act, left, where=bidding, casting="unsafe")

    def _declare(self, games: NDArray[Any], index: NDArray[Any], seats: NDArray[Any]) -> None:
        r = self.rules
        if r.special_once:
            self.had_special[games, seats] = True
        self.offers[games] = False
        self.must_declare[games] = False
        special = index == self._special_decl
        if special.any():
            self._make_special(games[special], seats[special])

    def _make_special(self, games: NDArray[Any], opener: NDArray[Any]) -> None:
        """The special round's rules in ``games``, opened by ``opener`` (its transform)."""
        r = self.rules
        self.special[games] = True
        self.special_player[games] = opener
        changers = self.held[games] == 1
        if r.special_face_change == "nobody":
            changers[:] = False
        elif r.special_face_change == "one-die-except-opener":
            changers[np.arange(len(games)), opener] = False
        self.changers[games] = changers

    def _resolve(self, games: NDArray[Any], acts: NDArray[Any], callers: NDArray[Any]) -> None:
        r = self.rules
        n = self.players
        k = len(games)
        rows = np.arange(k)
        q = self.bid_q[games].astype(np.int32)
        face = self.bid_f[games].astype(np.intp)
        bidder = self.bidder[games].astype(np.intp)
        held = self.held[games]
        faces = self.faces[games]
        wild = self.wild_faces(games)
        counts = faces[rows, :, face].astype(np.int32)
        wilds = np.flatnonzero((wild > 0) & (wild != face))
        counts[wilds] += faces[wilds, :, wild[wilds]]
        exact = acts == self._calza
        inside = held > 0
        rank = (self._seats[None, :] - callers[:, None] - 1) % n  # 0: the caller's left
        if r.reveal_from_left:
            order = (callers[:, None] + np.arange(1, n + 1)[None, :]) % n  # caller's left first
            ordered = np.take_along_axis(counts, order, axis=1)
            cum = np.cumsum(ordered, axis=1)
            reached = (cum >= q[:, None]) & np.take_along_axis(inside, order, axis=1)
            stop = np.where(reached.any(axis=1) & ~exact, np.argmax(reached, axis=1), n - 1)
            total = cum[rows, stop]
            shown = inside & (rank <= stop[:, None])
        else:
            total = counts.sum(axis=1, dtype=np.int32)
            shown = inside
        # Each shown seat's place in the showing, from 1 (the caller's left first).
        revealed = np.zeros((k, n), dtype=np.int64)
        for seat in range(n):
            revealed += shown[:, seat, None] & (rank[:, seat, None] <= rank)
        revealed *= shown
        changes = np.zeros((k, n), dtype=np.int8)
        loser = np.full(k, -1)
        gainer = np.full(k, -1)
        points = np.zeros(k, dtype=np.int64)
        # Dudo: a count at least the quantity makes the caller lose.
        dudo = ~exact
        true = total >= q
        lose = np.where(true, callers, bidder)
        win = np.where(true, bidder, callers)
        loser = np.where(dudo, lose, loser)
        if r.moves_dice:
            changes[rows[dudo], lose[dudo]] = -1
        else:
            pts = np.where(self.pressured[games], r.pressure_points, r.points)
            points = np.where(dudo, pts, 0)
            gainer = np.where(dudo, win, gainer)
        # The exact call: right, the caller gains a die (never above full); wrong, loses one.
        if exact.any():
            right = total == q
            e = rows[exact]
            c = callers[exact]
            room = held[e, c] < self.starting_dice[c]
            changes[e, c] = np.where(right[exact], np.where(room, 1, 0), -1)
            loser[e] = np.where(right[exact], -1, c)
            gainer[e] = np.where(right[exact] & room, c, -1)
        after = held + changes
        eliminated = np.full(k, -1)
        went = (after == 0) & (held > 0)
        some = went.any(axis=1)
        eliminated[some] = np.argmax(went[some], axis=1)
        # The last call, as views show it.
        self.last[games] = True
        self.last_call[games] = np.where(exact, 1, 0)
        self.last_q[games] = q
        self.last_f[games] = face
        self.last_p[games] = self.bid_p[games]
        self.last_caller[games] = callers
        self.last_bidder[games] = bidder
        self.last_count[games] = total
        self.last_revealed[games] = revealed
        self.last_hidden[games] = inside & ~shown
        self.last_hands[games] = faces[:, :, 1:] * shown[:, :, None]
        self.last_wild[games] = wild
        self.last_loser[games] = loser
        self.last_gainer[games] = gainer
        self.last_points[games] = points
        self.last_eliminated[games] = eliminated
        # Points and places.
        scored = np.flatnonzero(points)
        if len(scored):
            g = games[scored]
            np.subtract.at(self.scores, (g, loser[scored]), points[scored])
            np.add.at(self.scores, (g, gainer[scored]), points[scored])
        if went.any():  # at most one seat a call goes out (built-in kinds): its place
            gi, si = np.nonzero(went)
            left_out = games[gi]
            self.out_place[left_out, si] = (self.out_place[left_out] >= 0).sum(axis=1)
        self._next_round(games, held, after, exact, callers, bidder, loser)

    def _next_round(
        self,
        games: NDArray[Any],
        before: NDArray[Any],
        after: NDArray[Any],
        exact: NDArray[np.bool_],
        callers: NDArray[Any],
        bidder: NDArray[Any],
        loser: NDArray[Any],
    ) -> None:
        r = self.rules
        if self._round_only:  # play_random(one_round=True): each game is its first round
            self.over[games] = True
            self.to_act[games] = -1
            return
        players_in = (after > 0).sum(axis=1)
        if self._elimination:
            over = players_in <= 1
        else:
            over = self.round_number[games] >= self._rounds_limit
        # Games that end keep their last hands, less the dice just lost.
        ended = games[over]
        if len(ended):
            final = after[over]
            for place in range(self.players):
                lost = before[over, place] - final[:, place]
                for _ in range(int(lost.max(initial=0))):
                    self._drop_highest(ended[lost > 0], place)
                    lost = lost - 1
            self.held[ended] = final
            self.in_play[ended] = final.sum(axis=1)
            self.to_act[ended] = -1
            self.over[ended] = True
            self.offers[ended] = False
            self.must_declare[ended] = False
            self.pressured[ended] = False
            self._clear_bids(ended)
            if self._elimination:
                self.winners[ended] = final > 0
            else:
                scores = self.scores[ended]
                self.winners[ended] = scores == scores.max(axis=1, keepdims=True)
        go = ~over
        if not go.any():
            return
        games, before, after = games[go], before[go], after[go]
        exact, callers, bidder, loser = exact[go], callers[go], bidder[go], loser[go]
        rows = np.arange(len(games))
        self.held[games] = after
        self.in_play[games] = after.sum(axis=1)
        self._link(games)
        self.round_number[games] += 1
        self._deal(games)
        self._clear_bids(games)
        self.pressured[games] = False
        self.offers[games] = False
        self.must_declare[games] = False
        self.special[games] = False
        self.special_player[games] = -1
        self.changers[games] = False
        # Who opens.
        if r.starter_winner:
            seat = np.where(
                exact | (loser < 0), callers, np.where(loser == callers, bidder, callers)
            )
        else:
            seat = np.where(exact | (loser < 0), callers, loser)
        is_in = after[rows, seat] > 0
        if r.starter_eliminator:
            other = np.where(seat == bidder, callers, bidder)
            fallback = np.where(exact, self.left[games, seat], other)
        else:
            fallback = self.left[games, seat]
        self.to_act[games] = np.where(is_in, seat, fallback)
        if not r.special:
            return
        # A player who just fell to one die: the special round, or its offer.
        dropped_to_one = (after == 1) & (before > 1)
        loser_dropped = (loser >= 0) & dropped_to_one[rows, np.maximum(loser, 0)]
        dropped = np.where(
            loser_dropped,
            loser,
            np.where(dropped_to_one.any(axis=1), np.argmax(dropped_to_one, axis=1), -1),
        )
        has = dropped >= 0
        used = has & self.had_special[games, np.maximum(dropped, 0)]
        start = has & ~(r.special_once & used)
        two = (after > 0).sum(axis=1) == 2
        if r.special_two_players == "off":
            start &= ~two
        choice = start & two if r.special_two_players == "choice" else np.zeros_like(start)
        if choice.any():
            g = games[choice]
            self.offers[g] = True
            self.must_declare[g] = True
        rest = start & ~choice
        if r.special_optional:
            self.offers[games[rest], self._special_decl] = True
        elif rest.any():
            g, d = games[rest], dropped[rest]
            self._make_special(g, d)
            if r.special_once:
                self.had_special[g, d] = True

    def _drop_highest(self, games: NDArray[Any], seat: int) -> None:
        if not len(games):
            return
        counts = self.faces[games, seat, :]
        top = self.nfaces - np.argmax(counts[:, :0:-1] > 0, axis=1)
        self.faces[games, seat, top] -= 1

    def _clear_bids(self, games: NDArray[Any]) -> None:
        self.bid_q[games] = 0
        self.bid_f[games] = 0
        self.bid_p[games] = False
        self.bidder[games] = -1
        self.open_f[games] = 0
        self.nbids[games] = 0
        self.bid_pos[games] = 0
        self.bid_seat[games] = 0

    def _deal(self, games: NDArray[Any], *, full: bool = False) -> None:
        """New hands in ``games``, as many dice as each seat holds (``full``: every seat
        holds the edition's dice per player)."""
        n, d, nf = self.players, self.rules.per_player, self.nfaces
        rolls = self.rng.integers(1, nf + 1, size=(len(games), n, d), dtype=np.uint8)
        if not full:  # a die a seat no longer holds rolls face 0, which no count reads
            rolls *= np.arange(d, dtype=np.int8)[None, None, :] < self.held[games][:, :, None]
        faces = np.zeros((len(games), n, nf + 1), dtype=_I8)
        for face in range(1, nf + 1):
            faces[:, :, face] = (rolls == face).sum(axis=2, dtype=np.int8)
        self.faces[games] = faces

    def _reset(self, games: NDArray[Any]) -> None:
        if not len(games):
            return
        r = self.rules
        for name in self._cleared:
            getattr(self, name)[games] = _FIELDS[name][2]
        self.held[games] = self.starting_dice
        self.in_play[games] = int(self.starting_dice.sum())
        self.left[games] = (self._seats + 1) % self.players
        self.right[games] = (self._seats - 1) % self.players
        self.pressure_left[games] = r.pressure_uses
        self._deal(games, full=bool((self.starting_dice == r.per_player).all()))
        if r.first_seat >= 0:
            first = np.full(len(games), r.first_seat)
        else:
            first = self.rng.integers(0, self.players, size=len(games))
        self.to_act[games] = first
        self.opener[games] = first
        self._returned[games] = 0.0

    # --- returns ------------------------------------------------------------------------

    def returns(self) -> NDArray[np.float64]:
        """``(batch, players)``: each seat's return so far, as
        :meth:`perudo.interop.turns.Turns.returns` gives it (placing with elimination,
        points in party mode); final once the game is over."""
        if not self._elimination:
            return self.scores.astype(np.float64)
        n = self.players
        placed = self.out_place >= 0
        returns = np.where(placed, (2 * self.out_place - (n - 1)) / (n - 1), 0.0)
        return np.where(self.winners, 1.0, returns)


def play_random(
    variant: Variant | str,
    players: int,
    *,
    games: int,
    seed: int | None = None,
    one_round: bool = False,
    batch: int = 4096,
) -> int:
    """Play ``games`` games (with ``one_round``, only each game's first round), choosing
    uniformly among the player to act's legal actions at every decision; the number of
    decisions taken. ``batch`` games are played at once."""
    if type(games) is not int or games < 0:
        raise GameSetupError(f"games {shown(games)} is not a count of games")
    if games == 0:
        return 0
    size = min(batch, games)
    table = BatchGames.new(variant, players, size, seed, autoreset=False)
    table._round_only = one_round
    started = size
    finished = 0
    decisions = 0
    while finished < games:
        choice = table.random_actions()
        decisions += int(table.batch - table.over.sum())
        result = table._advance(choice, table.to_act.astype(np.int64))
        done = result.done
        count = int(done.sum())
        if count:
            finished += count
            fresh = np.flatnonzero(done)[: max(0, games - started)]
            started += len(fresh)
            table._reset(fresh)
            stop = np.flatnonzero(done)[len(fresh) :]
            table.over[stop] = True
    return decisions
