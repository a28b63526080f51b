"""Numbers for learning programs: an integer for every action, a fixed-size vector for
every :class:`~perudo.PlayerView`.

Both encodings depend on the edition and the number of players only, and both round-trip:
``decode(encode(x)) == x`` (for a view, up to the round, counted up to :data:`ROUND_CAP`
in an edition with no bound on its rounds). The game adapters of :mod:`perudo.interop` (PettingZoo,
Gymnasium, OpenSpiel) use them; they need nothing beyond this package.

>>> import perudo
>>> from perudo.encoding import action_encoding
>>> actions = action_encoding("italian", 4)
>>> actions.size, actions.encode(perudo.Dudo()), actions.encode(perudo.Bid(2, 3))
(123, 0, 11)
>>> actions.decode(11)
Bid(2, 3)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any, SupportsIndex, TypeVar, cast

import attrs

from perudo.actions import (
    ACTION_TYPES,
    MAX_DICE_PER_PLAYER,
    MAX_TABLE_DICE,
    Act,
    Action,
    AnyBid,
    Bid,
    CallRole,
    Declare,
    Dudo,
    HandBid,
    bid_row,
)
from perudo.errors import EncodingError, IllegalActionError, InvalidVariantError, shown
from perudo.loader import load_variant
from perudo.players import CLAIMS, Glimpse, PlacedAct, PlacedBid
from perudo.resolution import Resolution, call_word
from perudo.rules import CALLS, Elimination, FixedRounds, PartyPoints, RoundContext
from perudo.rules.axes import optional
from perudo.state import legal_order
from perudo.variant import Variant, checked_players
from perudo.view import PlayerView, SeatView

__all__ = [
    "ROUND_CAP",
    "ROUND_LIMIT",
    "ActionEncoding",
    "Field",
    "ObservationEncoding",
    "action_encoding",
    "observation_encoding",
]

#: The largest number a 32-bit entry holds, the bound on every entry of an observation
#: (and what OpenSpiel's ``max_game_length`` reports for a game with no bound).
ROUND_LIMIT = 2**31 - 1

#: The most rounds an observation's ``round`` entry counts in an edition whose rules set no
#: bound (:meth:`perudo.Variant.most_rounds`: an exact call may win a die back). A longer game
#: reads 1,000 there; of 200,000 random games of each French edition at 2 to 6 players, the
#: longest lasted 37 rounds.
ROUND_CAP = 1_000

_ONES = [1] * (MAX_TABLE_DICE + 1)  # a run of legal bids, flagged by one slice assignment


def _has_special(variant: Variant) -> bool:
    """Whether the edition has a special round (its words name one)."""
    return variant.words.special_round is not None


_Encoding = TypeVar("_Encoding", "ActionEncoding", "ObservationEncoding")


@functools.lru_cache(maxsize=8192)
def hand_counts(hand: tuple[int, ...], faces: int = 6) -> tuple[int, ...]:
    """How many dice of ``hand`` show each face 1 to ``faces`` (the same hand, the same
    tuple)."""
    return tuple([hand.count(face) for face in range(1, faces + 1)])


def whole_number(value: Any, what: str) -> int:
    """``value`` as an ``int`` if it is a whole number (NumPy's included, ``bool`` not).

    Raises:
        EncodingError: naming ``what`` and the value.
    """
    if type(value) is int:
        return value
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise EncodingError(f"{what} {shown(value)} is not an integer")
    return int(value.__index__())


def _table(variant: Variant | str, players: Any) -> tuple[Variant, int]:
    """The edition and the checked number of players."""
    if not isinstance(variant, Variant):
        variant = load_variant(variant)
    return variant, checked_players(variant, players)


def _built(kind: type[_Encoding], variant: Variant, players: int) -> _Encoding:
    """One shared encoding per kind, edition and table size."""
    return cast(_Encoding, _build(kind.__name__, variant, players))


@functools.lru_cache(maxsize=256)  # bounded: a server seeing many house rules does not grow
def _build(kind: str, variant: Variant, players: int) -> ActionEncoding | ObservationEncoding:
    return (ActionEncoding if kind == "ActionEncoding" else ObservationEncoding)(variant, players)


# --- actions ------------------------------------------------------------------------------


@attrs.frozen(repr=False)
class ActionEncoding:
    """Every action of an edition at a table of ``players``, numbered from 0.

    The numbering, for an edition and a player count:

    * first the edition's calls (:attr:`perudo.Variant.calls`): ``0`` is the challenge
      (Dudo), then Dudo with pressure where the edition has pressure (WANGO party mode),
      then the exact call (Calza, Jonti) where it has one;
    * then the declarations the edition can offer (:attr:`declarations`), in that order;
    * then the edition's own actions (:attr:`acts`: Bluff's ``reroll``), as its actions kind
      lists every one a seat could take (:meth:`perudo.rules.ActionRule.every_move`);
    * then every bid, by quantity from 1 to :attr:`max_quantity` (every die at the table),
      each quantity by face from 1 to the edition's highest (6 on six-sided dice), each bid
      followed by its pressured form where the edition has pressure; where the edition's
      bids name hands (:class:`~perudo.HandBid`, Mia's), every hand its ``claims`` kind
      ranks, lowest first.

    So a bid's number depends on the edition only, never on the player count; more players
    only add bids at the end. Bids above the dice at the table have no number: they are
    certainly false, and the adapters never offer them.

    Build one with :func:`action_encoding` (cached).
    """

    variant: Variant
    players: int
    actions: tuple[Action, ...] = attrs.field(init=False, eq=False)
    #: The edition's own actions, in their numbering order (``()`` for most editions).
    acts: tuple[Act, ...] = attrs.field(init=False, eq=False)
    _numbers: dict[Action, int] = attrs.field(init=False, eq=False)

    def __attrs_post_init__(self) -> None:
        variant = self.variant
        checked_players(variant, self.players)
        acts: tuple[Act, ...] = ()
        if variant.has_actions:
            acts = variant.actions.every_move(variant.dice.per_player, variant.dice.faces)
        object.__setattr__(self, "acts", acts)
        pressure = variant.has_pressure
        head: list[Action] = [*variant.calls, *(Declare(name) for name in variant.declarations)]
        head += self.acts
        bids: list[Action] = list(variant.hand_bids)  # hands, by rank (or none)
        for quantity in range(1, 0 if bids else self.max_quantity + 1):
            for face in range(1, variant.dice.faces + 1):
                bids.append(Bid(quantity, face))
                if pressure:
                    bids.append(Bid(quantity, face, pressure=True))
        actions = tuple(head + bids)
        object.__setattr__(self, "actions", actions)
        object.__setattr__(self, "_numbers", {a: n for n, a in enumerate(actions)})

    def __repr__(self) -> str:
        return f"action_encoding({self.variant.key!r}, {self.players})"

    @property
    def size(self) -> int:
        """How many numbers there are."""
        return len(self.actions)

    @property
    def max_quantity(self) -> int:
        """The largest quantity that has a number (every die at the table)."""
        return self.players * self.variant.dice.per_player

    @property
    def declarations(self) -> tuple[str, ...]:
        """The declarations of the edition, in their numbering order."""
        return self.variant.declarations

    @property
    def acts_from(self) -> int:
        """The number of the first of the edition's own actions (:attr:`acts`)."""
        return len(self.variant.calls) + len(self.variant.declarations)

    @property
    def first_bid(self) -> int:
        """The number of ``Bid(1, 1)``; bids take every number from here on."""
        return self.size - self.bid_count

    @property
    def bid_count(self) -> int:
        """How many bids have a number."""
        if self.variant.hand_bids:
            return len(self.variant.hand_bids)
        faces = self.variant.dice.faces
        return self.max_quantity * faces * (2 if self.variant.has_pressure else 1)

    def encode(self, action: Action) -> int:
        """The number of ``action``.

        Raises:
            EncodingError: the edition has no such action, or the bid is above
                :attr:`max_quantity`.
        """
        number = self._numbers.get(action)
        if number is None:
            if not isinstance(action, ACTION_TYPES):
                raise EncodingError(f"{shown(action)} is not an action")
            raise EncodingError(
                f"{action} has no number in {self!r}: "
                + (
                    f"bids go up to {self.max_quantity} dice"
                    if isinstance(action, Bid) and action.quantity > self.max_quantity
                    else f"{self.variant.name} has no such action"
                )
            )
        return number

    def decode(self, number: SupportsIndex) -> Action:
        """The action numbered ``number``.

        Raises:
            EncodingError: ``number`` is not a whole number from 0 to ``size - 1``.
        """
        number = whole_number(number, "action number")
        if not 0 <= number < len(self.actions):
            last = len(self.actions) - 1
            raise EncodingError(f"action number {shown(number)} is not 0 to {last}")
        return self.actions[number]

    def encode_all(self, actions: Iterable[Action]) -> tuple[int, ...]:
        """The numbers of ``actions``, in increasing order."""
        return tuple(sorted(self.encode(action) for action in actions))

    def mask(self, actions: Iterable[Action]) -> tuple[int, ...]:
        """``size`` flags, 1 where the action of that number is among ``actions``."""
        flags = [0] * len(self.actions)
        for action in actions:
            flags[self.encode(action)] = 1
        return tuple(flags)


def action_encoding(variant: Variant | str, players: int) -> ActionEncoding:
    """The :class:`ActionEncoding` of an edition (a :class:`~perudo.Variant` or its key)
    at a table of ``players``."""
    return _built(ActionEncoding, *_table(variant, players))


# --- observations -------------------------------------------------------------------------


@attrs.frozen
class Field:
    """A named slice of an observation vector.

    Attributes:
        name: The field's name (see :class:`ObservationEncoding`).
        start: Its first index in the vector.
        length: How many entries it holds.
        low: The least value of each entry.
        high: The greatest value of each entry.
    """

    name: str
    start: int
    length: int
    low: int
    high: int

    @property
    def stop(self) -> int:
        """One past its last index."""
        return self.start + self.length


@attrs.define
class _Fast:
    """What an observation encoding derives from its layout once, for the hot path, and its
    one cache: the one place of an encoding's speed, never part of its equality."""

    starts: dict[str, int]  # each field's first index
    zeros: list[int]  # a vector of zeros, copied for each view
    per_bid: int  # numbers per bid: 2 where bids may carry pressure
    faces: int  # the faces of each die
    rounds: int  # the most rounds the ``round`` entry counts
    bids_from: int  # the index of Bid(1, 1)'s legal flag
    placing: int  # the entries between one placing of a bid by a seat and its next
    times: int  # how many times one bid may be placed in a round
    dudo: tuple[int, int]  # the numbers of Dudo, and Dudo with pressure (-1: none)
    # The last call's entries for the last few (call, seat) pairs: the same in every view
    # of a round from one seat. The call is kept with them, so an id never matches another.
    last: dict[tuple[int, int], tuple[Resolution, list[int]]] = attrs.field(factory=dict)


@attrs.frozen(repr=False)
class ObservationEncoding:
    """A :class:`~perudo.PlayerView` as a fixed number of integers, for an edition and a
    number of players.

    Seat fields are *relative*: entry 0 is the viewing player, entry 1 the seat on their
    left, and so on clockwise. The fields, in order (``fields`` holds each one's slice and
    bounds as a :class:`Field`):

    ========================= ============================================================
    ``seat``                  the viewer's own seat, one-hot (absolute, not relative)
    ``round``                 the round number, up to the most rounds a game can last
                              (:meth:`~perudo.Variant.most_rounds`), else up to
                              :data:`ROUND_CAP` (a longer game reads the cap)
    ``hand``                  the viewer's dice showing each face, 1 to the edition's highest
                              (0 while hidden)
    ``hand_hidden``           1 while the viewer may not look at their dice (Italian choice)
    ``dice``                  dice held, per seat
    ``score``                 points, per seat (party mode only: empty elsewhere)
    ``pressure_left``         pressure uses left, per seat (editions with pressure only)
    ``to_act``                the seat to act, one-hot (all 0 once the game is over)
    ``may_call``              seats that may make the exact call now
    ``face_changers``         seats that may change a locked face this round
    ``special_round``         1 while the edition's special round is in force (editions
                              with a special round only)
    ``special_player``        the seat whose special round it is, one-hot
    ``owed``                  the seats owed a special round in later rounds, per seat its
                              place in the queue from 1, 0 for none (editions whose special
                              round queues only)
    ``offers``                declarations open now, one flag per declaration of the
                              edition (:attr:`perudo.Variant.declarations`)
    ``must_declare``          1 when the player to act must declare before bidding
    ``wild``                  the wild face at this moment (0 for none): it may change with
                              the round's bids
    ``bids``                  the round's bids: per bid number (:class:`ActionEncoding`,
                              from ``Bid(1, 1)``) and seat, the bid's position in the round
                              (1 for the opening bid), 0 where that seat did not make it;
                              where the raise order lets a bid come back
                              (:attr:`~perudo.rules.RaisingRule.times_per_bid` above 1),
                              that many such blocks, one per placing of a bid by a seat
    ``claims``                the round's exact claims (a Bull), laid out as ``bids`` (by the
                              bid claimed), with their positions among the bids (editions
                              whose exact call stands in the bid chain only)
    ``passes``                the round's passes, laid out as ``bids`` (by the bid left
                              standing), with their positions among the bids (editions with
                              a pass only)
    ``doubts``                the round's challenges of a bid that still stands (it waits to
                              be challenged all around), laid out as ``bids`` (editions whose
                              challenge is all around only)
    ``legal``                 the viewer's legal actions, one flag per action number
    ``last_*``                the last call: ``last`` (1 if any), ``last_call`` (Dudo,
                              exact call, and out of time where it costs), ``last_claim``
                              (what the link called claimed: 0
                              a bid, 1 an exact claim, 2 a pass; editions with exact claims
                              or passes only), ``last_quantity``,
                              ``last_face`` (one-hot),
                              ``last_pressure``, ``last_caller``, ``last_bidder``,
                              ``last_count``, ``last_revealed`` (order shown, from 1),
                              ``last_hidden`` (hands not shown), ``last_hands`` (per seat,
                              dice showing each face), ``last_wild`` (the wild face, 0 for
                              none), ``last_loser``, ``last_gainer``, ``last_points``
                              (party mode only), ``last_eliminated``, ``last_changes``
                              (each seat's change of dice, or of points where calls move
                              points: editions whose calls may move more than one die, or a
                              point nobody gains, only)
    ``winners``               the winning seats once the game is over
    ``open``                  dice out in the open, per seat, showing each face (editions
                              with actions of their own only, such as Bluff's re-roll)
    ``acts``                  the round's own actions (editions with them only): entry
                              ``k`` is the action taken after the round's ``k``-th bid (0:
                              before any bid), as ``1 + number * players + seat`` with
                              ``number`` its place in :attr:`ActionEncoding.acts` and ``seat``
                              relative; 0 where none was taken
    ``seen``                  dice the viewer saw under each seat's cup this round, showing
                              each face (editions with actions of their own only)
    ``seen_by``               the viewer's dice each seat saw, showing each face (the same)
    ========================= ============================================================

    The vector holds the whole round (every bid and who made it) and the last call's
    outcome; earlier rounds are summed up by the dice and scores. Player names are not
    encoded: :meth:`decode` takes them. Build one with :func:`observation_encoding`.
    """

    variant: Variant
    players: int
    actions: ActionEncoding = attrs.field(init=False, eq=False)
    fields: tuple[Field, ...] = attrs.field(init=False, eq=False)
    _by_name: dict[str, Field] = attrs.field(init=False, eq=False)
    _fast: _Fast = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        variant, n = self.variant, self.players
        actions = action_encoding(variant, n)
        per_player, faces = variant.dice.per_player, variant.dice.faces
        top = actions.max_quantity
        scoring = variant.scoring
        # how often one bid may come in a round (a hand: once, each raise names a higher one)
        times = 1 if variant.hand_bids else variant.raising.times_per_bid
        if times is None:
            raise EncodingError(
                f"{variant.key!r} has no observation of a fixed size: its raise order "
                f"(raising:{variant.raising.kind}) lets a bid come back without limit "
                "(times_per_bid is None), so a round has no most bids"
            )
        bids = actions.bid_count * times  # the most bids a round holds
        claims = variant.claims_in_chain  # exact claims (a Bull) stand in the chain too
        passing = variant.passes.offered  # and passes (Paso)
        doubting = variant.challenged_all_around  # and doubts: challenges of a bid that stands
        most = variant.most_links(n, bids)  # the most links a round holds
        stake = variant.most_stake  # a challenge of a hand may be played for more (Mia's)
        points = scoring.most_points * stake
        hands = len(variant.hand_bids)  # a hand's rank stands in a call's quantity and count
        rounds = scoring.round_limit(n) or ROUND_CAP  # where points move: the most calls
        start = optional(scoring, "starting_score")  # lives, where a kind plays for them
        uses = scoring.pressure_uses
        scored = n if not scoring.moves_dice else 0  # no points move: no field
        acts = len(actions.acts)
        own = 1 if acts else 0  # editions with their own actions: the fields below
        layout = [
            ("seat", n, 0, 1),
            ("round", 1, 0, variant.most_rounds(n) or ROUND_CAP),
            ("hand", faces, 0, per_player),
            ("hand_hidden", 1, 0, 1),
            ("dice", n, 0, per_player),
            ("starting_dice", n, 0, per_player),
            ("score", scored, start - points * rounds, start + points * rounds),
            ("pressure_left", n if uses else 0, 0, uses),
            ("to_act", n, 0, 1),
            ("may_call", n, 0, 1),
            ("face_changers", n, 0, 1),
            ("special_round", 1 if _has_special(variant) else 0, 0, 1),
            ("special_player", n, 0, 1),
            ("owed", n if optional(variant.special_round, "queues") else 0, 0, n),
            ("offers", len(variant.declarations), 0, 1),
            ("must_declare", 1, 0, 1),
            ("wild", 1, 0, faces),
            ("bids", bids * n, 0, most),
            ("claims", bids * n if claims else 0, 0, most),
            ("passes", actions.bid_count * n * variant.passes.most_per_round, 0, most),
            ("doubts", bids * n if doubting else 0, 0, most),
            ("legal", actions.size, 0, 1),
            ("last", 1, 0, 1),
            ("last_call", len(CALLS) if variant.forfeits_on_time else 2, 0, 1),
            ("last_claim", 1 if claims or passing else 0, 0, 2),
            ("last_quantity", 1, 0, max(top, hands)),
            ("last_face", faces, 0, 1),
            ("last_pressure", 1, 0, 1),
            ("last_caller", n, 0, 1),
            ("last_bidder", n, 0, 1),
            ("last_count", 1, 0, max(top + n * _bonus_per_hand(variant), hands)),
            ("last_revealed", n, 0, n),
            ("last_hidden", n, 0, 1),
            ("last_hands", faces * n, 0, per_player),
            ("last_wild", 1, 0, faces),
            ("last_loser", n, 0, 1),
            ("last_gainer", n, 0, 1),
            ("last_points", 1 if scored else 0, 0, points),
            ("last_eliminated", n, 0, 1),
            (
                "last_changes",
                n if _moves_many(variant) else 0,
                -max(per_player * stake, points),
                max(per_player * stake, points),
            ),
            ("winners", n, 0, 1),
            ("open", faces * n * own, 0, per_player),
            ("acts", (most + 1) * own, 0, acts * n),
            ("seen", faces * n * own, 0, per_player),
            ("seen_by", faces * n * own, 0, per_player),
        ]
        fields, start = [], 0
        for name, length, low, high in layout:
            if length and not -ROUND_LIMIT <= low <= high <= ROUND_LIMIT:
                # an edition built around the loader's maxima (Variant(...) by hand)
                raise EncodingError(
                    f"{variant.key!r}: the observation entry {name} reaches "
                    f"{shown(max(-low, high))}, past the {ROUND_LIMIT} a 32-bit entry holds"
                )
            fields.append(Field(name=name, start=start, length=length, low=low, high=high))
            start += length
        object.__setattr__(self, "actions", actions)
        object.__setattr__(self, "fields", tuple(fields))
        object.__setattr__(self, "_by_name", {f.name: f for f in fields})
        starts = {f.name: f.start for f in fields}
        dudo = [actions.encode(a) for a in variant.calls if type(a) is Dudo]
        fast = _Fast(
            starts=starts,
            zeros=[0] * start,
            per_bid=2 if variant.has_pressure else 1,
            faces=variant.dice.faces,
            rounds=self._by_name["round"].high,
            bids_from=starts["legal"] + actions.first_bid,
            placing=actions.bid_count * n,
            times=times,
            dudo=(*dudo, -1)[:2],  # type: ignore[arg-type]
        )
        object.__setattr__(self, "_fast", fast)

    def __repr__(self) -> str:
        return f"observation_encoding({self.variant.key!r}, {self.players})"

    @property
    def size(self) -> int:
        """How many integers an observation holds."""
        return self.fields[-1].stop

    @property
    def low(self) -> tuple[int, ...]:
        """The least value of every entry."""
        return tuple(f.low for f in self.fields for _ in range(f.length))

    @property
    def high(self) -> tuple[int, ...]:
        """The greatest value of every entry."""
        return tuple(f.high for f in self.fields for _ in range(f.length))

    def field(self, name: str) -> Field:
        """The field called ``name``."""
        try:
            return self._by_name[name]
        except KeyError:
            raise EncodingError(
                f"{shown(name)} is not a field: the fields are {', '.join(self._by_name)}"
            ) from None

    # --- encoding -------------------------------------------------------------------------

    def encode(self, view: PlayerView) -> list[int]:
        """The vector of ``view``: a new list of :attr:`size` integers.

        Raises:
            EncodingError: the view belongs to another edition or table size, or holds a
                bid above :attr:`ActionEncoding.max_quantity`.
        """
        if not isinstance(view, PlayerView):
            raise EncodingError(f"{shown(view)} is not a PlayerView")
        if (view.variant is not self.variant and view.variant != self.variant) or len(
            view.seats
        ) != self.players:
            raise EncodingError(
                f"a view of {view.variant.key} with {len(view.seats)} seats does not fit {self!r}"
            )
        n, me = self.players, view.player
        if me is None:
            raise EncodingError("a spectator's view (public_view) has no seat to encode from")
        fast = self._fast
        out = fast.zeros.copy()
        f = fast.starts
        out[f["seat"] + me] = 1
        out[f["round"]] = min(view.round_number, self._fast.rounds)
        if view.dice:
            start, faces = f["hand"], fast.faces
            out[start : start + faces] = hand_counts(view.dice, faces)
        out[f["hand_hidden"]] = int(view.dice_hidden)
        top = 0
        dice, starting = f["dice"], f["starting_dice"]
        for seat, info in enumerate(view.seats):
            rel = (seat - me) % n
            out[dice + rel] = info.dice_count
            out[starting + rel] = view.starting_dice[seat]
            top += info.dice_count
            if info.score:
                self._put(out, "score", rel, info.score)
            if info.pressure_left:
                self._put(out, "pressure_left", rel, info.pressure_left)
        if view.to_act is not None:
            out[f["to_act"] + (view.to_act - me) % n] = 1
        for seat in view.may_call:
            out[f["may_call"] + (seat - me) % n] = 1
        for seat in view.rules.face_changers:
            out[f["face_changers"] + (seat - me) % n] = 1
        if view.special_round is not None:
            self._put(out, "special_round", 0, 1)
        if view.special_player is not None:
            out[f["special_player"] + (view.special_player - me) % n] = 1
        for place, seat in enumerate(view.owed, start=1):
            self._put(out, "owed", (seat - me) % n, place)
        for name in view.offers:
            self._put(out, "offers", self.variant.declarations.index(name), 1)
        out[f["must_declare"]] = int(view.must_declare)
        out[f["wild"]] = view.wild_face or 0
        bids, per_bid, most = f["bids"], fast.per_bid, self.actions.max_quantity
        for position, placed in enumerate(view.bids, start=1):
            bid = placed.bid
            if type(bid) is not Bid:  # a hand: its rank
                slot = self.actions.encode(bid) - self.actions.first_bid
            else:
                if bid.quantity > most:
                    self.actions.encode(bid)  # refuses a bid without a number
                slot = ((bid.quantity - 1) * fast.faces + bid.face - 1) * per_bid + bid.pressure
            claim = placed.claim  # an exact claim (a Bull), a pass, a doubt: each a block apart
            block = bids if claim == "bid" else f[_BLOCKS[claim]]
            index = block + slot * n + (placed.player - me) % n
            if out[index]:  # placed before by this seat: its next placing's entry
                index = self._placed_again(out, index, placed)
            out[index] = position
        self._legal(out, view.legal_actions, top)
        if view.last_result is not None:
            self._last(out, view.last_result, me)
        for seat in view.winners:
            out[f["winners"] + (seat - me) % n] = 1
        if self.actions.acts:
            self._acts(out, view, me)
        return out

    def _placed_again(self, out: list[int], index: int, placed: PlacedBid) -> int:
        """The entry of a bid its seat places again this round: the first free one of its
        placings (an order that lets a bid come back has ``times_per_bid`` of them; a seat
        passes over one standing bid at most as often as it passes in a round)."""
        fast = self._fast
        times = fast.times
        if placed.claim == "pass":
            times = self.variant.passes.most_per_round
        for again in range(index + fast.placing, index + times * fast.placing, fast.placing):
            if not out[again]:
                return again
        raising = self.variant.raising
        raise EncodingError(
            f"{placed.bid} placed {fast.times + 1} times by one seat in one round does not fit "
            f"{self!r}: its raise order (raising:{raising.kind}) says a bid is placed at most "
            f"{fast.times} time(s) a round (times_per_bid)"
        )

    def _acts(self, out: list[int], view: PlayerView, me: int) -> None:
        """The dice in the open and the round's own actions."""
        n, f, faces = self.players, self._fast.starts, self._fast.faces
        for seat, info in enumerate(view.seats):
            if info.open:
                start = f["open"] + faces * ((seat - me) % n)
                out[start : start + faces] = hand_counts(info.open, faces)
        for placed in view.acts:
            index = f["acts"] + placed.after
            if out[index]:
                raise EncodingError(f"{placed.act}: two actions after one bid do not fit {self!r}")
            number = self.actions.encode(placed.act) - self.actions.acts_from
            out[index] = 1 + number * n + (placed.player - me) % n
        for glimpse in view.seen:
            mine = glimpse.owner == me
            other = glimpse.seer if mine else glimpse.owner
            start = f["seen_by" if mine else "seen"] + faces * ((other - me) % n)
            out[start + glimpse.face - 1] += 1

    def _put(self, out: list[int], name: str, offset: int, value: int) -> None:
        """Set entry ``offset`` of field ``name``, refusing one the field lacks."""
        fld = self._by_name[name]
        if offset >= fld.length:
            raise EncodingError(f"{value} does not fit field {name!r} of {self!r}")
        out[fld.start + offset] = value

    def _legal(self, out: list[int], legal: Sequence[Action], top: int) -> None:
        """Flag ``legal`` in ``out``. Legal actions come in the order of
        :meth:`GameState.legal_actions` (every view perudo makes has it: :func:`legal_order`),
        so a bid whose face runs up to the dice in play is a run, set by one slice
        assignment once its last bid is where the run ends."""
        fast = self._fast
        start = fast.starts["legal"]
        bids, per_bid, most = fast.bids_from, fast.per_bid, self.actions.max_quantity
        faces = fast.faces
        i, count = 0, len(legal)
        while i < count:
            action = legal[i]
            if type(action) is not Bid:
                if type(action) is Dudo and fast.dudo[action.pressure] >= 0:
                    out[start + fast.dudo[action.pressure]] = 1
                else:
                    out[start + self.actions.encode(action)] = 1
                i += 1
                continue
            quantity, face, pressure = action.quantity, action.face, action.pressure
            if quantity > most:
                self.actions.encode(action)  # refuses a bid without a number
            low = bids + ((quantity - 1) * faces + face - 1) * per_bid + pressure
            run = top - quantity + 1
            last = legal[i + run - 1] if run > 1 and i + run <= count else None
            end = bid_row(face, pressure)[top] if last is not None else None
            if last is not None and (last is end or last == end):
                out[low : low + run * faces * per_bid : faces * per_bid] = _ONES[:run]
                i += run
            else:
                out[low] = 1
                i += 1

    def _last(self, out: list[int], result: Resolution, me: int) -> None:
        """The fields of the last call: the same for every view of a round from one seat,
        so kept for the last few (call, seat) pairs and copied."""
        fast = self._fast
        first, stop = fast.starts["last"], fast.starts["winners"]
        key = (id(result), me)
        kept = fast.last.get(key)
        if kept is not None and kept[0] is result:
            out[first:stop] = kept[1]
            return
        self._encode_last(out, result, me)
        if len(fast.last) >= 64:
            fast.last.pop(next(iter(fast.last)))
        fast.last[key] = (result, out[first:stop])

    def _encode_last(self, out: list[int], result: Resolution, me: int) -> None:
        n, f = self.players, self._fast.starts
        bid = result.bid
        out[f["last"]] = 1
        out[f["last_call"] + CALLS.index(result.call)] = 1
        if result.claim != "bid":
            out[f["last_claim"]] = CLAIMS.index(result.claim)
        if isinstance(bid, HandBid):  # its rank, and no face
            out[f["last_quantity"]] = self.actions.encode(bid) - self.actions.first_bid + 1
        else:
            if bid.quantity > self.actions.max_quantity:
                self.actions.encode(bid)  # refuses a bid without a number
            out[f["last_quantity"]] = bid.quantity
            out[f["last_face"] + bid.face - 1] = 1
            out[f["last_pressure"]] = int(bid.pressure)
        out[f["last_caller"] + (result.caller - me) % n] = 1
        out[f["last_bidder"] + (result.bidder - me) % n] = 1
        out[f["last_count"]] = result.count
        for order, seat in enumerate(result.revealed, start=1):
            out[f["last_revealed"] + (seat - me) % n] = order
        hands, faces = f["last_hands"], self._fast.faces
        for seat, hand in enumerate(result.hands):
            rel = (seat - me) % n
            if hand is None:
                out[f["last_hidden"] + rel] = 1
            elif hand:
                out[hands + faces * rel : hands + faces * (rel + 1)] = hand_counts(hand, faces)
        out[f["last_wild"]] = result.wild or 0
        for name, seats in (
            ("last_loser", result.losers),
            ("last_gainer", result.gainers),
            ("last_eliminated", result.out),
        ):
            for who in seats:
                out[f[name] + (who - me) % n] = 1
        moved = max(result.points)
        if moved:
            self._put(out, "last_points", 0, moved)
        if _moves_many(self.variant):
            moves_dice = self.variant.scoring.moves_dice
            for seat, change in enumerate(result.changes if moves_dice else result.points):
                if change:
                    self._put(out, "last_changes", (seat - me) % n, change)

    # --- decoding -------------------------------------------------------------------------

    def decode(self, vector: Sequence[Any], names: Sequence[str] | None = None) -> PlayerView:
        """The :class:`~perudo.PlayerView` that :meth:`encode` turned into ``vector``.

        ``names`` gives the players' names (default: ``"Player 1"``, ``"Player 2"`` ...,
        as :func:`perudo.new_game` names them).

        Raises:
            EncodingError: ``vector`` has the wrong length, or a value outside its field.
        """
        values = self._checked(vector)
        n, variant = self.players, self.variant
        names = tuple(names) if names is not None else tuple(f"Player {s + 1}" for s in range(n))
        if len(names) != n:
            raise EncodingError(f"{len(names)} names for {n} players")
        f = self._by_name

        def get(name: str) -> list[int]:
            return values[f[name].start : f[name].stop]

        seat_ones = [s for s, v in enumerate(get("seat")) if v]
        if len(seat_ones) != 1:
            raise EncodingError(f"field 'seat' must hold exactly one 1, not {get('seat')}")
        me = seat_ones[0]

        def absolute(rel: int) -> int:
            return (rel + me) % n

        def seats_of(name: str) -> tuple[int, ...]:
            return tuple(sorted(absolute(r) for r, v in enumerate(get(name)) if v))

        def one_seat(name: str) -> int | None:
            seats = seats_of(name)
            if len(seats) > 1:
                raise EncodingError(f"field {name!r} holds more than one seat")
            return seats[0] if seats else None

        def per_seat(name: str) -> list[int]:
            rel = get(name) or [0] * n  # a field this edition leaves out
            return [rel[(s - me) % n] for s in range(n)]

        hand = tuple(face for face, k in enumerate(get("hand"), start=1) for _ in range(k))
        dice, score, pressure = per_seat("dice"), per_seat("score"), per_seat("pressure_left")
        faces = variant.dice.faces
        opened = get("open") or [0] * (faces * n)
        out_in_open = [
            tuple(
                face
                for face, k in enumerate(opened[faces * rel : faces * (rel + 1)], start=1)
                for _ in range(k)
            )
            for rel in ((s - me) % n for s in range(n))
        ]
        seats = tuple(
            SeatView(
                name=names[s], dice_count=dice[s], score=score[s], pressure_left=pressure[s],
                open=out_in_open[s],
            )
            for s in range(n)
        )  # fmt: skip
        acts = []
        for after, value in enumerate(get("acts")):
            if value:
                number, rel = divmod(value - 1, n)
                acts.append(PlacedAct(absolute(rel), self.actions.acts[number], after))
        glimpses = []
        for name in ("seen", "seen_by"):
            for index, k in enumerate(get(name)):
                rel, face = divmod(index, faces)
                seer, owner = (me, absolute(rel)) if name == "seen" else (absolute(rel), me)
                glimpses += [Glimpse(seer, owner, face + 1)] * k
        first = self.actions.first_bid
        placed = []
        placing = self._fast.placing
        for index, position in enumerate(get("bids")):
            if position:
                slot, rel = divmod(index % placing, n)
                bid = self.actions.actions[first + slot]
                placed.append((position, PlacedBid(absolute(rel), bid)))  # type: ignore[arg-type]
        for claim, block in _BLOCKS.items():
            for index, position in enumerate(get(block)):
                if position:
                    slot, rel = divmod(index % placing, n)
                    bid = self.actions.actions[first + slot]
                    placed.append((position, PlacedBid(absolute(rel), bid, claim)))  # type: ignore[arg-type]
        placed.sort(key=lambda item: item[0])
        special_round = variant.words.declaration("special") if any(get("special_round")) else None
        special_player = one_seat("special_player")
        rules = variant.round_rules()
        if special_round is not None and special_player is not None:
            opening = RoundContext(
                words=variant.words,
                faces=variant.dice.faces,
                dice_per_player=variant.dice.per_player,
                dice=tuple(dice),
                round_number=values[f["round"].start],
                to_act=special_player,
                bids=(),
                rules=rules,
                scores=tuple(score),
                starting=tuple(per_seat("starting_dice")),
            )
            rules = variant.special_round.transform(rules, special_player, opening)
        rules = attrs.evolve(rules, face_changers=frozenset(seats_of("face_changers")))
        legal = sorted(
            (self.actions.actions[k] for k, v in enumerate(get("legal")) if v),
            key=legal_order(variant),
        )
        return PlayerView(
            player=me,
            variant=variant,
            round_number=values[f["round"].start],
            starting_dice=tuple(per_seat("starting_dice")),
            dice=hand,
            dice_hidden=bool(values[f["hand_hidden"].start]),
            seats=seats,
            bids=tuple(p for _, p in placed),
            to_act=one_seat("to_act"),
            may_call=seats_of("may_call"),
            special_round=special_round,
            special_player=special_player,
            offers=tuple(
                name for name, v in zip(variant.declarations, get("offers"), strict=True) if v
            ),
            must_declare=bool(values[f["must_declare"].start]),
            rules=rules,
            legal_actions=tuple(legal),
            last_result=self._decode_result(get, one_seat, absolute, per_seat)
            if get("last")[0]
            else None,
            winners=seats_of("winners"),
            acts=tuple(acts),
            seen=tuple(sorted(glimpses)),
            owed=tuple(
                absolute(rel)
                for _, rel in sorted((v, rel) for rel, v in enumerate(get("owed")) if v)
            ),
        )

    def _decode_result(self, get: Any, one_seat: Any, absolute: Any, per_seat: Any) -> Resolution:
        variant, n = self.variant, self.players
        called = [role for role, v in zip(CALLS, get("last_call"), strict=False) if v]
        if len(called) != 1:
            raise EncodingError("the last call is not one call")
        call: CallRole = called[0]
        faces = [face for face, v in enumerate(get("last_face"), start=1) if v]
        quantity = get("last_quantity")[0]
        ladder = variant.hand_bids
        bid: AnyBid
        try:
            if ladder:  # a hand, by its rank
                if not 1 <= quantity <= len(ladder):
                    raise EncodingError(f"the last call's hand has no rank {quantity}")
                bid = ladder[quantity - 1]
            else:
                bid = Bid(quantity, faces[0] if faces else 0, bool(get("last_pressure")[0]))
        except IllegalActionError as error:
            raise EncodingError(f"the last call's bid is not a bid: {error}") from None
        order = sorted((v, absolute(r)) for r, v in enumerate(get("last_revealed")) if v)
        hidden, counts = get("last_hidden"), get("last_hands")
        hands: list[tuple[int, ...] | None] = [None] * n
        for rel in range(n):
            if not hidden[rel]:
                sides = self._fast.faces
                row = counts[sides * rel : sides * (rel + 1)]
                hands[absolute(rel)] = tuple(
                    f for f, k in enumerate(row, start=1) for _ in range(k)
                )
        caller, bidder = one_seat("last_caller"), one_seat("last_bidder")
        if caller is None or bidder is None:
            raise EncodingError("the last call has no caller or no bidder")
        losers, gainers = per_seat("last_loser"), per_seat("last_gainer")
        moved = (get("last_points") or [0])[0]
        moves_dice = variant.scoring.moves_dice
        if _moves_many(variant):
            changes = per_seat("last_changes")
        else:  # perudo's own kinds move one die, or the points, per seat
            step = 1 if moves_dice else moved
            changes = [step * (gainers[s] - losers[s]) for s in range(n)]
        zeros = [0] * n
        dice_changes, points = (changes, zeros) if moves_dice else (zeros, changes)
        return Resolution(
            call=call,
            word=call_word(variant.words, call),
            bid=bid,
            caller=caller,
            bidder=bidder,
            count=get("last_count")[0],
            revealed=tuple(seat for _, seat in order),
            hands=tuple(hands),
            wild=get("last_wild")[0] or None,
            changes=tuple(dice_changes),
            points=tuple(points),
            out=tuple(sorted(absolute(r) for r, v in enumerate(get("last_eliminated")) if v)),
            claim=CLAIMS[(get("last_claim") or [0])[0]],  # type: ignore[arg-type]
            words=variant.words,
            unit=variant.score_unit,
            hand_names=variant.hand_names,
            judged_apart=variant.round_rules().judged_apart,
        )

    def _checked(self, vector: Sequence[Any]) -> list[int]:
        if isinstance(vector, str | bytes):
            raise EncodingError(f"{shown(vector)} is not a vector of integers")
        try:
            values = [int(v) for v in vector]
        except (TypeError, ValueError):
            raise EncodingError("the vector does not hold integers only") from None
        if len(values) != self.size:
            raise EncodingError(
                f"a vector of {len(values)} entries does not fit {self!r} ({self.size})"
            )
        for fld in self.fields:
            for index in range(fld.start, fld.stop):
                if not fld.low <= values[index] <= fld.high or values[index] != vector[index]:
                    raise EncodingError(
                        f"entry {index} ({shown(fld.name)}) is {shown(vector[index])}, "
                        f"not an integer from {fld.low} to {fld.high}"
                    )
        return values


#: The observation field of each claim other than a bid.
_BLOCKS = {"exact": "claims", "pass": "passes", "doubt": "doubts"}


def _bonus_per_hand(variant: Variant) -> int:
    """The most the challenge kind adds to a call's count for each hand shown (its optional
    ``bonus_per_hand``), checked."""
    bonus = optional(variant.challenge, "bonus_per_hand")
    if type(bonus) is not int or not 0 <= bonus <= MAX_DICE_PER_PLAYER:
        raise InvalidVariantError(
            f"rule kind challenge:{variant.challenge.kind} of {variant.key!r} broke its "
            f"protocol: bonus_per_hand is {shown(bonus)}, not a whole number from 0 to "
            f"{MAX_DICE_PER_PLAYER}"
        )
    return bonus


def _moves_many(variant: Variant) -> bool:
    """Whether a call of ``variant`` may move more than one die or the points of a seat
    otherwise than perudo's own one-die kinds do (registered kinds, Bluff's difference):
    observations then carry each seat's change."""
    one_die = (Elimination, PartyPoints, FixedRounds)
    points_by_exact_call = variant.has_exact_call and not variant.scoring.moves_dice
    return (
        bool(variant.user_kinds)
        or type(variant.scoring) not in one_die
        or points_by_exact_call  # an exact call may cost a point with nobody gaining it
        or variant.most_stake > 1  # a challenge of a hand played for more
    )


def observation_encoding(variant: Variant | str, players: int) -> ObservationEncoding:
    """The :class:`ObservationEncoding` of an edition (a :class:`~perudo.Variant` or its key)
    at a table of ``players``."""
    return _built(ObservationEncoding, *_table(variant, players))
