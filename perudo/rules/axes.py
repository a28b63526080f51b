"""The axes of the rules, and the protocol a component of each axis follows.

An edition picks one component per axis. A component is a small frozen value (an attrs
class, whose fields are the parameters a declaration sets) with two class attributes,
``axis`` and ``kind``; two methods that tell it to people,
:meth:`~perudo.rules.Component.describe` and :meth:`~perudo.rules.Component.label`; and
the methods of its axis below, which the engine calls. A kind written outside perudo
follows the same protocol (mypy checks it) and is made known with
:func:`perudo.rules.register_kind`.

What a method sees of the game is one read-only value, :class:`RoundContext`. A kind's
method gets its own subject as a parameter (the seat that would call, the face asked about,
the bid judged) and everything else it may need on the context: the seats and their dice,
the player to act, the round's bids with their bidders, the rules in force, the edition's
words. Once a call is made, the context is a :class:`CallContext`, which adds the call, its
caller, the hands shown and the count; once the call is settled, a :class:`SettledCall`,
which adds every seat's change. A kind that needs none of it ignores it. A kind never sees
a :class:`~perudo.GameState`, nor any hidden die.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

import attrs

from perudo.actions import Act, Action, Bid, CallRole, HandBid
from perudo.errors import InvalidVariantError, shown
from perudo.players import BidFacts, PlacedAct, PlacedBid, called_link, doubters_of
from perudo.rules.base import ActEffect, RoundStart, Violation, Words, component_table

__all__ = [
    "AXES",
    "AXIS_TITLES",
    "CALLS",
    "MAX_STAKE",
    "OPTIONAL_MEMBERS",
    "PROTOCOLS",
    "ActionRule",
    "CallContext",
    "CapRule",
    "ChallengeRule",
    "ClaimRule",
    "ClockRule",
    "Component",
    "ConversionRule",
    "DiceRule",
    "ExactCallRule",
    "FirstPlayerRule",
    "OpeningRule",
    "PassRule",
    "PlayerCountRule",
    "RaisingRule",
    "RoundContext",
    "RoundRules",
    "ScoringRule",
    "SeatChanges",
    "SettledCall",
    "SpecialRoundRule",
    "StarterRule",
    "TurnRule",
    "WildsRule",
    "optional",
]

#: The axes of every edition, in the order they are shown.
AXES = (
    "players",
    "dice",
    "claims",
    "wilds",
    "raising",
    "conversion",
    "opening",
    "cap",
    "turns",
    "challenge",
    "exact_call",
    "passes",
    "special_round",
    "actions",
    "starter",
    "first_player",
    "scoring",
    "clock",
)

#: Each axis's title, as the prose, the docs and the command line show it.
AXIS_TITLES: Mapping[str, str] = MappingProxyType(
    {
        "players": "Players",
        "dice": "Dice",
        "claims": "A bid names",
        "wilds": "Wild dice",
        "raising": "Raise order",
        "conversion": "To/from ones",
        "opening": "Opening ones",
        "cap": "Quantity cap",
        "turns": "Out of turn",
        "challenge": "Challenge",
        "exact_call": "Exact call",
        "passes": "Pass",
        "special_round": "One-die round",
        "actions": "Other actions",
        "starter": "Next round",
        "first_player": "First player",
        "scoring": "End, scoring",
        "clock": "Time",
    }
)


# --- what a rule method sees: the round's context ------------------------------------


#: The roles of the calls: the challenge (Dudo, Dubito, Liar), the exact call (Calza,
#: Jonti, Spot on), and the time a player let run out where the clock makes it cost
#: (:class:`~perudo.OutOfTime`). The edition's words name them; the engine speaks of roles.
CALLS: tuple[CallRole, ...] = ("challenge", "exact", "time")


@attrs.frozen(slots=False)  # short-lived: a dict-based class is made twice as fast
class RoundContext(BidFacts):
    """The round as the rules see it, at the moment a method is asked.

    Attributes:
        words: The edition's words (for refusals: ``words.calza`` is the exact call's).
        faces: The faces of each die (6).
        dice_per_player: The dice each player starts the game with.
        dice: Each seat's dice count, clockwise from seat 0.
        round_number: The round, from 1.
        to_act: The seat whose turn it is; ``None`` once the round has ended.
        bids: The round's bids in order, each with its bidder (a read-only sequence: its
            length and its last item cost nothing).
        rules: The rules in force this round (after any special round's transform).
        scores: Each seat's score (points editions; zeros elsewhere).
        starting: Each seat's dice at the start of the game: the edition's dice per player,
            or fewer for a seat given a handicap. A seat never holds more.
        open: Each seat's dice out in the open this round, seen by every player (Bluff's
            re-roll puts them there); ``()`` when no seat has any. They are part of the
            seat's ``dice`` and count at a call.
        acts: The round's actions of the ``actions`` axis so far (:class:`~perudo.Act`),
            each with its player and the number of bids the round had when it was taken.
    """

    words: Words
    faces: int
    dice_per_player: int
    dice: tuple[int, ...]
    round_number: int
    to_act: int | None
    bids: Sequence[PlacedBid]
    rules: RoundRules
    scores: tuple[int, ...]
    starting: tuple[int, ...]
    open: tuple[tuple[int, ...], ...] = attrs.field(default=(), kw_only=True)
    acts: tuple[PlacedAct, ...] = attrs.field(default=(), kw_only=True)

    @property
    def wild(self) -> int | None:
        """The wild face at this moment of the round (it may depend on the bids so far), or
        ``None``. The wilds axis decides it, so a wilds kind never reads it."""
        return self.rules.wild_face(self)

    @property
    def players(self) -> int:
        """The seats at the table."""
        return len(self.dice)

    @property
    def players_in(self) -> int:
        """How many seats hold dice."""
        return len(self.dice) - self.dice.count(0)

    @property
    def dice_in_play(self) -> int:
        """How many dice all hands hold together."""
        return sum(self.dice)

    def is_in(self, seat: int) -> bool:
        """Whether ``seat`` holds dice."""
        return self.dice[seat] > 0

    def left_of(self, seat: int) -> int:
        """The next seat clockwise (to the left) of ``seat`` that holds dice (``seat``
        itself when no other does)."""
        return _next_in(self.dice, seat, 1)

    def right_of(self, seat: int) -> int:
        """The seat before ``seat`` (the one it follows) that holds dice."""
        return _next_in(self.dice, seat, -1)

    def open_dice(self, seat: int) -> tuple[int, ...]:
        """The dice ``seat`` has out in the open this round (``()`` for none)."""
        return self.open[seat] if self.open else ()

    def order_from(self, seat: int) -> tuple[int, ...]:
        """The seats holding dice clockwise from ``seat``'s left, ``seat`` last (the order
        hands are shown at a call by ``seat``)."""
        dice, n = self.dice, len(self.dice)
        return tuple([other for k in range(1, n + 1) if dice[other := (seat + k) % n]])


@attrs.frozen(slots=False)  # short-lived: a dict-based class is made twice as fast
class CallContext(RoundContext):
    """The round at a call, its hands shown and counted: what a settlement decides from.
    ``dice`` is every seat's dice when the call was made, ``to_act`` is ``None``, and the
    standing bid is the one called.

    Attributes:
        call: ``"challenge"``, ``"exact"`` or ``"time"`` (:data:`~perudo.rules.CALLS`).
        caller: The seat that made the call.
        pressured: Whether anyone used pressure this round (WANGO party mode).
        shown: Each seat's hand as shown: ``None`` for a hand that stayed hidden, ``()`` for
            a seat already out.
        count: The dice among the hands shown that count for the called bid's face (the
            wild face included).
        in_turn: Whether the caller was the player to act (``False`` for a call made out of
            turn: Jonti, a burst).
    """

    call: CallRole
    caller: int
    pressured: bool
    shown: tuple[tuple[int, ...] | None, ...]
    count: int
    in_turn: bool = attrs.field(default=True, kw_only=True)

    @property
    def called(self) -> PlacedBid:
        """The bid the call was made on, and its bidder (before the doubts of a bid
        challenged all around)."""
        return called_link(self.bids)

    @property
    def doubters(self) -> tuple[int, ...]:
        """The seats that challenged the called bid before the caller, where a bid stands
        until every other player has challenged it (``()`` elsewhere)."""
        return doubters_of(self.bids)

    @property
    def bid_stands(self) -> bool:
        """Whether the called bid holds, so that a challenge of it is lost by the
        challenger. The count is then at least its quantity, or exactly it for an exact
        claim (a Bull); a pass holds when the passer's hand is as it claims (its count is
        then 1)."""
        return _stands(called_link(self.bids), self.count, self.rules)

    @property
    def is_exact(self) -> bool:
        """Whether the count is exactly the called bid's quantity (an exact call is right;
        never for a bid that names a hand)."""
        bid = self.called.bid
        return type(bid) is Bid and self.count == bid.quantity

    @property
    def challenge_loser(self) -> int:
        """The seat that loses a plain challenge of the called bid (the challenger if the
        bid stands, else the bidder)."""
        called = called_link(self.bids)
        return self.caller if _stands(called, self.count, self.rules) else called.player


def _stands(called: PlacedBid, count: int, rules: RoundRules) -> bool:
    """Whether the link ``called`` holds with ``count`` (:attr:`CallContext.bid_stands`):
    a bid that names a hand holds when the hands shown make a claim ranked as high."""
    bid, claim = called.bid, called.claim
    if isinstance(bid, HandBid):
        return rules.hand_stands(bid, count)  # an edition that names hands has no other claim
    quantity = bid.quantity
    if claim == "bid":
        return count >= quantity
    return count == quantity if claim == "exact" else count > 0  # a pass: 1 if so


def in_the_open(per_seat: Iterable[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    """A context's ``open``: each seat's dice in the open, or ``()`` when no seat has any."""
    opened = tuple(per_seat)
    return opened if any(opened) else ()


class SeatChanges:
    """What a value holding each seat's change of dice and of score derives from them (a
    settled call, a resolution): who lost and who gained."""

    __slots__ = ()
    changes: tuple[int, ...]
    points: tuple[int, ...]

    @property
    def losers(self) -> tuple[int, ...]:
        """The seats that lost dice or points, in seat order."""
        return changed_seats(self.changes, self.points, -1)

    @property
    def gainers(self) -> tuple[int, ...]:
        """The seats that gained dice or points, in seat order."""
        return changed_seats(self.changes, self.points, 1)


@attrs.frozen(slots=False)  # short-lived: a dict-based class is made twice as fast
class SettledCall(SeatChanges, CallContext):
    """A call and what it did: what the starter, the special round and the end of the game
    decide from. ``dice`` and ``scores`` are still those when the call was made; ``after``
    and ``scores_after`` are the table the next round is played at.

    Attributes:
        changes: Each seat's change of dice.
        points: Each seat's change of score.
        after: Each seat's dice after the call.
    """

    changes: tuple[int, ...]
    points: tuple[int, ...]
    after: tuple[int, ...]

    @property
    def losers(self) -> tuple[int, ...]:
        """The seats that lost dice or points, in seat order (asked by several kinds of
        one settlement: worked out once, kept beside the fields)."""
        known = self.__dict__
        losers = known.get("_losers")
        if losers is None:
            losers = known["_losers"] = super().losers
        return losers

    @property
    def scores_after(self) -> tuple[int, ...]:
        """Each seat's score after the call."""
        return tuple([n + change for n, change in zip(self.scores, self.points, strict=True)])

    @property
    def players_left(self) -> int:
        """How many seats hold dice after the call."""
        after = self.after
        return len(after) - after.count(0)

    def still_in(self, seat: int) -> bool:
        """Whether ``seat`` holds dice after the call."""
        return self.after[seat] > 0

    def next_in(self, seat: int) -> int:
        """``seat`` if it holds dice after the call, else the next seat clockwise that does."""
        after = self.after
        return seat if after[seat] else _next_in(after, seat, 1)


def changed_seats(changes: Sequence[int], points: Sequence[int], sign: int) -> tuple[int, ...]:
    """The seats whose dice or points a call moved in the direction of ``sign`` (-1: lost,
    1: gained), in seat order."""
    return tuple(
        [
            seat
            for seat, change in enumerate(changes)
            if change * sign > 0 or points[seat] * sign > 0
        ]
    )


_C = TypeVar("_C", bound=RoundContext)


def extended(cls: type[_C], base: RoundContext, **more: Any) -> _C:
    """A context of ``cls`` (:class:`CallContext`, :class:`SettledCall`) holding ``base``'s
    fields and ``more``: the engine's way to make the next context of a call without
    copying the round's fields one by one (the classes are plain frozen attrs classes, with
    no converter or validator to run)."""
    made = object.__new__(cls)
    fields = made.__dict__
    fields.update(base.__dict__)
    fields.update(more)
    return made


def _next_in(dice: Sequence[int], seat: int, step: int) -> int:
    n = len(dice)
    for k in range(1, n):
        other = (seat + step * k) % n
        if dice[other]:
            return other
    return seat


# --- the protocol of each axis --------------------------------------------------------

#: The optional members of the axes' protocols, and what a kind that leaves one out means:
#: ``counts_wild`` (a call's count includes the wild face), ``queues`` (a special round may
#: leave seats owed one), ``gives_dice`` (a settlement may give a die back),
#: ``starting_score`` (each seat's score at the start), ``stays_in`` (who stays in:
#: ``None``, a seat holding dice), ``in_chain`` (the exact call ends the round),
#: ``binds`` (no action binds the next move to a bid), ``all_around`` (one challenge
#: ends the round), ``unit`` (what a score counts, singular and plural: points),
#: ``bonus_per_hand`` (a call's count is at most the dice counted), ``stake`` (a challenge of
#: any hand is played for one settlement), ``before_bid`` (a bid never waits for an
#: action), ``holds`` (a hand is judged by the rank of the hand the dice shown make) and
#: ``forfeit`` (running out of time costs nothing).
OPTIONAL_MEMBERS: Mapping[str, Any] = MappingProxyType(
    {"counts_wild": True, "queues": False, "gives_dice": False, "starting_score": 0,
     "stays_in": None, "in_chain": False, "binds": False, "all_around": False,
     "unit": ("point", "points"), "bonus_per_hand": 0, "stake": None, "before_bid": None,
     "holds": None, "forfeit": None}
)  # fmt: skip


#: The most times a challenge of one hand may be played for (a claims kind's ``stake``).
MAX_STAKE = 10


def optional(component: Any, name: str) -> Any:
    """``component``'s optional protocol member ``name`` (one of :data:`OPTIONAL_MEMBERS`),
    or what leaving it out means."""
    return getattr(component, name, OPTIONAL_MEMBERS[name])


@runtime_checkable
class Component(Protocol):
    """What every component has, whatever its axis."""

    axis: ClassVar[str]
    kind: ClassVar[str]

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences for people, in the edition's ``words``; ``dice`` is
        the edition's dice per player."""
        ...

    def label(self, words: Words) -> str:
        """The setting in at most eight characters, for the editions-by-axes matrix."""
        ...


class PlayerCountRule(Component, Protocol):
    """``players``: how many may sit at the table."""

    @property
    def min(self) -> int: ...
    @property
    def max(self) -> int: ...


class DiceRule(Component, Protocol):
    """``dice``: ``per_player`` dice in each hand at the start, each of ``faces`` faces."""

    @property
    def per_player(self) -> int: ...
    @property
    def faces(self) -> int: ...


class ClaimRule(Component, Protocol):
    """``claims``: what a bid names. Left out, a bid names a quantity of a face
    (:class:`~perudo.Bid`: at least that many dice show it), the raise order, the conversion,
    the opening and the cap decide which bids are legal, and the challenge kind counts the
    face. A kind whose bids name hands instead (:class:`~perudo.HandBid`: Mia's "65", a
    poker hand) gives their ladder: a bid then raises by naming a hand ranked higher (any
    hand opens), and a call is judged on the rank the hands shown make.

    A kind may say that a challenge of some hands is played for more (Mia's: a player who
    doubts a true Mia loses two lives) with the optional member ``stake(hand, stands) ->
    int`` (1 where it is left out): the engine multiplies the settlement of a challenge of
    ``hand`` (whose hands shown held it, ``stands``, or not) by it.

    A kind whose order is not one of the values of what the dice make (a claim of one
    order need not hold when a higher one does: quantities of a face with some quantities
    left out) judges each hand apart with the optional member ``holds(hand, dice) ->
    bool``: a call's count is then 1 where the dice shown hold the hand, else 0, and
    ``rank`` is never asked.
    """

    def ladder(self, dice: int, faces: int) -> tuple[tuple[int, ...], ...] | None:
        """Every hand a bid may name with ``dice`` dice a player of ``faces`` faces, lowest
        first, each its faces highest first (as :class:`~perudo.HandBid` keeps them), at
        least one; ``None`` where bids name a quantity of a face. A kind that cannot be
        played with those dice raises :class:`~perudo.InvalidVariantError` saying why."""
        ...

    def hand_name(self, hand: tuple[int, ...], words: Words) -> str:
        """What players call ``hand``, one of the ladder's (``"Mia"``, ``"65"``), in the
        edition's words: :func:`perudo.parse_action` reads it, the views and the records'
        descriptions write it."""
        ...

    def rank(self, dice: Sequence[int]) -> int:
        """The rank of the highest hand of the ladder that ``dice``, the dice shown at a
        call, make (1 for the lowest hand), or 0 for none: a bid stands when the hands shown
        make a hand ranked at least as high as the bid's."""
        ...


class WildsRule(Component, Protocol):
    """``wilds``: which face, if any, counts for every other face."""

    def wild_face(self, context: RoundContext) -> int | None:
        """The wild face at this moment of the round (``context.bids`` are the bids so
        far, none before the opening), or ``None`` when no face is wild. The wild face
        at a call is the one its count uses."""
        ...


class RaisingRule(Component, Protocol):
    """``raising``: the raise order. Asked only once a bid stands (``context.bid``).

    A kind whose answers depend on the standing bid alone (never on the seats, the dice or
    the earlier bids) says so with the class attribute ``standing_bid_only = True``, set on
    its own class (a subclass that reads more does not inherit it): the engine then keeps
    its answers by rules and standing bid instead of asking at every position. The
    registry checks the claim on contexts that differ in everything but the standing bid.
    """

    @property
    def times_per_bid(self) -> int | None:
        """The times one bid may be placed in a round. It is 1 where every raise names a
        bid higher than the one before in one fixed ranking (perudo's own orders), more
        for an order that lets a bid come back that many times, and ``None`` where a bid
        may come back without limit.

        It bounds a round: the engine stops a round that holds more bids than this many
        times the different bids it allows (or than the different bids, for ``None``)
        with an :class:`~perudo.InvalidVariantError` naming the edition and the round,
        and an observation (:mod:`perudo.encoding`) holds each bid this many times, or
        is refused for ``None``."""
        ...

    def lowest(self, face: int, context: RoundContext) -> int | None:
        """The lowest quantity of ``face`` that raises the standing bid; ``None`` if none
        does."""
        ...

    def explain(self, bid: Bid, context: RoundContext) -> Violation:
        """Why ``bid``, known not to raise the standing bid, is refused."""
        ...


class ConversionRule(Component, Protocol):
    """``conversion``: how a bid moves onto and off a face ranked apart (ones), where that
    differs from the raise order. It wins over the raise order wherever it decides."""

    def lowest(self, face: int, context: RoundContext) -> int | None:
        """The lowest quantity of ``face`` after the standing bid when this rule decides
        it; ``None`` to leave it to the raise order."""
        ...

    def explain(self, bid: Bid, context: RoundContext) -> Violation:
        """Why ``bid``, known to be too low by this rule, is refused."""
        ...


@attrs.frozen(cache_hash=True)
class RoundRules:
    """The bidding rules in force for one round, after any special round's transform.

    Attributes:
        wilds: The edition's wild dice, or ``None`` when no face is wild this round.
        raising: The raise order.
        conversion: How bids move onto and off ones.
        opening: The bids that may open the round (the edition's ``opening`` component, or
            the special round's).
        cap: Whether quantities are capped at the dice in play.
        face_lock: Whether the face of the standing bid is locked.
        face_changers: Seats that may change a locked face.
        special: The special round's name (``"Palifico"`` ...), for messages only: rules
            that differ in nothing else are equal (words never steer mechanics).
        faces: The faces of each die.
        claims: The edition's ``claims`` kind where its bids name hands (Mia's values, poker
            hands), else ``None``: bids are quantities of a face.
        ladder: The hands a bid may name, lowest first (``()`` without ``claims``).
    """

    wilds: WildsRule | None
    raising: RaisingRule
    conversion: ConversionRule
    opening: OpeningRule
    cap: bool
    face_lock: bool = False
    face_changers: frozenset[int] = frozenset()
    special: str | None = attrs.field(default=None, eq=False)  # prose: never in equality
    faces: int = 6
    claims: ClaimRule | None = None
    ladder: tuple[tuple[int, ...], ...] = ()
    # Each hand of the ladder and its rank (1 for the lowest): judged at every call.
    _ranks: Mapping[tuple[int, ...], int] = attrs.field(init=False, eq=False, repr=False)
    #: Whether the claims kind judges each hand apart (its optional ``holds``), rather than
    #: by the rank of the hand the dice shown make.
    judged_apart: bool = attrs.field(init=False, eq=False, repr=False)

    @judged_apart.default
    def _judges_apart(self) -> bool:
        return self.claims is not None and optional(self.claims, "holds") is not None

    @_ranks.default
    def _rank_hands(self) -> Mapping[tuple[int, ...], int]:
        return {hand: rank for rank, hand in enumerate(self.ladder, 1)}  # read, never written

    def hand_rank(self, bid: HandBid) -> int:
        """The rank of the hand ``bid`` names on the ladder (1 for the lowest), or 0 for a
        hand the ladder lacks."""
        return self._ranks.get(bid.faces, 0)

    def hand_count(self, bid: HandBid, dice: Sequence[int]) -> int:
        """The count a call on the hand ``bid`` is judged on, of the ``dice`` shown: the
        rank of the highest hand they make (0 for none); for a kind that judges each hand
        apart, 1 where they hold ``bid``, else 0."""
        claims = self.claims
        assert claims is not None  # asked only where bids name hands
        if self.judged_apart:
            held = claims.holds(bid.faces, tuple(dice))  # type: ignore[attr-defined]
            if type(held) is not bool:
                raise InvalidVariantError(
                    f"rule kind claims:{claims.kind} broke its protocol: holds returned "
                    f"{shown(held)}, not True or False"
                )
            return int(held)
        return claims.rank(tuple(dice))

    def hand_stands(self, bid: HandBid, count: int) -> bool:
        """Whether a call on the hand ``bid`` counted ``count`` (:meth:`hand_count`) finds
        it held."""
        return count > 0 if self.judged_apart else count >= self.hand_rank(bid)

    # Whether the raise order and the conversion answer from the standing bid alone, so
    # their answers are kept by rules and standing bid: a kind says so with its own class
    # attribute ``standing_bid_only`` (never inherited: a subclass may read more).
    by_standing_bid: bool = attrs.field(init=False, eq=False, repr=False)

    @by_standing_bid.default
    def _answers_by_standing_bid(self) -> bool:
        if self.claims is not None:  # bids name hands: the raise order is never asked
            return False
        kinds = (self.raising, self.conversion)
        return all(vars(type(kind)).get("standing_bid_only", False) for kind in kinds)

    # Whether the opening answers from the face alone, so its answers are kept by face
    # (the same class attribute, on the opening kind's own class).
    opening_by_face: bool = attrs.field(init=False, eq=False, repr=False)

    @opening_by_face.default
    def _opens_by_face(self) -> bool:
        if self.claims is not None:  # bids name hands: the opening is never asked
            return False
        return bool(vars(type(self.opening)).get("standing_bid_only", False))

    def wild_face(self, context: RoundContext) -> int | None:
        """The wild face at the moment of ``context``, or ``None`` when no face is wild
        (the edition has no wilds, or this round is played without them)."""
        return None if self.wilds is None else self.wilds.wild_face(context)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: components by kind."""
        return {
            "wilds": None if self.wilds is None else self.wilds.kind,
            "raising": self.raising.kind,
            "conversion": self.conversion.kind,
            "opening": component_table(self.opening),
            "cap": self.cap,
            "face_lock": self.face_lock,
            "face_changers": sorted(self.face_changers),
            "faces": self.faces,
        } | ({"claims": self.claims.kind} if self.claims is not None else {})


class OpeningRule(Component, Protocol):
    """``opening``: the bids that may open a round (before any bid stands): which faces,
    and each face's lowest quantity. Asked only while no bid stands (``context.bids`` is
    empty).

    A kind whose answers depend on the face alone (never on the seats, the dice or the
    round) says so with the class attribute ``standing_bid_only = True`` on its own class,
    as a raise order does: the engine then keeps its answers by face.
    """

    def lowest(self, face: int, context: RoundContext) -> int | None:
        """The lowest quantity of ``face`` that may open the round of ``context``; ``None``
        when no bid on ``face`` may open it. A quantity is at least 1 and at most the dice
        in play (``context.dice_in_play``), and at least one face may open: the engine
        refuses any other answer, naming the kind."""
        ...

    def explain(self, bid: Bid, context: RoundContext) -> Violation:
        """Why ``bid``, known not to open the round (its face may not open it, or its
        quantity is below the face's lowest), is refused."""
        ...


class CapRule(Component, Protocol):
    """``cap``: whether a bid's quantity is capped at the dice in play."""

    @property
    def caps(self) -> bool: ...


class TurnRule(Component, Protocol):
    """``turns``: what a seat other than the player to act may do besides the exact call
    and the actions of the ``actions`` axis (each of which says its own): bid over the
    standing bid, or challenge it, out of turn. A bid always passes the turn to the next
    seat still in clockwise of its bidder."""

    @property
    def out_of_turn(self) -> tuple[str, ...]:
        """Each role ever open out of turn (``"bid"``, ``"challenge"``, of
        :data:`~perudo.rules.TURN_ROLES`), ``()`` for none. Turn-based adapters then ask
        such a seat, as they ask about the exact call out of turn."""
        ...

    def check(self, role: str, player: int, context: RoundContext) -> Violation | None:
        """``None`` if ``player``, not the player to act, may take ``role`` (one of
        :attr:`out_of_turn`) now; else why not (reason ``"not-your-turn"``)."""
        ...


class ChallengeRule(Component, Protocol):
    """``challenge`` (Dudo): which hands are shown and what they count.

    A challenge ends the round, unless the kind says ``all_around = True`` (a class
    attribute): then a bid stands until every other player still in has challenged it
    ("challenged all around"). Each challenge but the last is a doubt in the bid chain
    (:attr:`~perudo.PlacedBid.claim` ``"doubt"``) that passes the turn like a bid, the next
    player still free to raise; the last ends the round, its context's ``doubters`` the
    seats that challenged before it.

    A kind whose count may add to the dice shown (a hand all of the bid's face counting
    more than its dice) says the most it adds for each hand shown with the class attribute
    ``bonus_per_hand`` (0 where it is left out): the observations make room for it."""

    def reveal_hands(
        self, hands: Sequence[Sequence[int]], caller: int, context: RoundContext
    ) -> tuple[tuple[int, ...], int]:
        """The seats that show their hands when ``caller`` challenges the standing bid, in
        the order shown (:meth:`~perudo.rules.RoundContext.order_from` gives the usual one: from the
        challenger's left, the challenger last), and the count of the bid's face among
        them (the wild face at the call is ``context.wild``). ``hands`` is every seat's
        hand: the one place a rule sees dice, and only to show them. A kind that counts
        the face alone says ``counts_wild = False``, as an exact call kind does."""
        ...


class ExactCallRule(Component, Protocol):
    """``exact_call`` (Calza, Jonti, Bull): who may claim the standing bid is exactly right,
    and what it costs or earns.

    The exact call ends the round, unless the kind says ``in_chain = True`` (a class
    attribute): the call is then an exact claim in the bid chain (a Bull). It restates the
    standing bid as exactly right, made by the caller (:attr:`~perudo.PlacedBid.exact`),
    and passes the turn like a bid: the next player raises it (a raise supersedes the
    claim) or challenges it. A challenge of the claim is counted by this kind's
    ``reveal_hands``; a wrong claim is settled as any false bid (by the scoring kind:
    its claimer is the bidder who lost), a right one by this kind's ``settle``. An
    exact claim is never made on an exact claim.
    """

    @property
    def offered(self) -> bool:
        """Whether the edition has an exact call at all (its words then name it)."""
        ...

    @property
    def out_of_turn(self) -> bool:
        """Whether a seat other than the player to act may make it."""
        ...

    def check(self, player: int, context: RoundContext) -> Violation | None:
        """``None`` if ``player`` may make the call against the standing bid now (the
        context has a standing bid; its words name the call, ``context.words.calza``)."""
        ...

    def reveal_hands(
        self, hands: Sequence[Sequence[int]], caller: int, context: RoundContext
    ) -> tuple[tuple[int, ...], int]:
        """The seats that show their hands when ``caller`` makes the call, in the order
        shown, and the count of the bid's face among them, as this call counts it (the
        wild face at the call is ``context.wild``): the count the call is judged on, which
        the :class:`~perudo.Resolution` reports. ``hands`` is every seat's hand, only to
        show them.

        A kind that counts without the wild face says so with the class attribute
        ``counts_wild = False`` (a challenge kind too): the resolution then reports no wild
        face, so its description does not say one counted."""
        ...

    def settle(self, context: CallContext) -> tuple[int, ...]:
        """The change of every seat's dice (or score, where calls move points) after the
        call (``context.is_exact`` says whether it was right). For a kind ``in_chain``, the
        change after a right exact claim is challenged: ``context.called`` is the claim and
        its claimer, ``context.caller`` the challenger. The engine keeps each hand between
        none and its starting dice, and a seat already out out."""
        ...


class PassRule(Component, Protocol):
    """``passes`` (Paso): whether the player to act may pass instead of raising, and what a
    pass claims of the passer's own hand. A pass needs a standing bid and leaves it
    standing (a :class:`~perudo.PlacedBid` with ``claim="pass"``); it passes the turn like
    a bid. The next player raises the standing bid or challenges the pass, which is judged
    on the passer's hand alone (the only hand shown) and settled by the scoring kind as any
    challenge, the passer in the bidder's place. Neither an exact call nor a pass follows a
    pass."""

    @property
    def offered(self) -> bool:
        """Whether the edition has a pass at all (its words then name it)."""
        ...

    @property
    def most_per_round(self) -> int:
        """How often one seat may pass in a round at most, 0 where no pass is offered. It
        bounds a round and sizes an observation."""
        ...

    def check(self, player: int, context: RoundContext) -> Violation | None:
        """``None`` if ``player``, the player to act, may pass now (a bid stands;
        ``context.bids`` holds the round's passes too)."""
        ...

    def holds(self, hand: tuple[int, ...], context: RoundContext) -> bool:
        """Whether the passer's ``hand`` is as a pass claims ("no two dice alike"): asked
        when the pass is challenged, the one moment the hand is shown."""
        ...


class SpecialRoundRule(Component, Protocol):
    """``special_round``: a round played under other rules (Palifico and its kin)."""

    @property
    def declarations(self) -> tuple[str, ...]:
        """The roles a :class:`~perudo.Declare` can take in this edition, in the order
        offered (``"special"``, ``"ordinary"``)."""
        ...

    @property
    def offered(self) -> bool:
        """Whether the edition has a special round at all (its words then name it)."""
        ...

    @property
    def once_per_player(self) -> bool: ...

    def start(
        self, context: SettledCall, *, had: tuple[bool, ...], owed: tuple[int, ...]
    ) -> RoundStart:
        """How the next round starts after the settled call of ``context`` (any event of
        it may start a special round: a seat falling to one die, losing its last life...),
        and whose special round it is (:attr:`~perudo.rules.RoundStart.player`). ``had``
        says, by seat, who already had a once-per-game special round; ``owed`` are the
        seats still owed one from earlier calls (the last start's ``owed``). A kind that
        may leave seats owed says so with the class attribute ``queues = True`` (the
        observation then holds the queue). The engine refuses a start it cannot honour (a
        special round for nobody or for a seat out, seats owed by a kind that does not
        queue), naming the kind."""
        ...

    def transform(self, rules: RoundRules, opener: int, context: RoundContext) -> RoundRules:
        """The rules of the special round opened by ``opener``: ``context`` is that round
        as it starts (every seat's dice, no bid), its name ``context.words.special_round``."""
        ...


class ActionRule(Component, Protocol):
    """``actions``: what players may do besides bid, call and declare, each action an
    :class:`~perudo.Act` with its own word (Bluff's ``reroll``). The kind decides from the
    round's context who may take which action when, and what it does; the engine carries it
    out (dice put in the open, dice re-rolled from the game's seed stream) and records it.

    A kind whose action may bind the next move to a bid (an action said together with a
    bid: :attr:`~perudo.rules.ActEffect.then_bid`) says so with the class attribute
    ``binds = True``. The actor is then to act, and its legal actions are bids alone.

    A kind whose action must come before a bid (Mia's roll: each player rolls before naming
    a hand) says which with the optional member ``before_bid(player, cup, context) ->
    Act | None``: while it names an action, the player to act may not bid yet
    (``act-first``), and its legal actions hold no bid.

    An action that binds the next move leaves the actor the bids, and any further action
    this kind still offers it (a second draw before the bid)."""

    @property
    def words(self) -> tuple[str, ...]:
        """The words of the actions this kind offers (``("reroll",)``); ``()`` for none."""
        ...

    @property
    def out_of_turn(self) -> bool:
        """Whether a seat other than the player to act may ever take one (Bluff's bidder
        re-rolls while the next player is to act): turn-based adapters then ask that seat."""
        ...

    def moves(self, player: int, cup: tuple[int, ...], context: RoundContext) -> tuple[Act, ...]:
        """Every action of this kind ``player`` may take now, holding ``cup`` under its cup
        (its dice not in the open), in a fixed order; ``()`` when none."""
        ...

    def check(
        self, action: Act, player: int, cup: tuple[int, ...], context: RoundContext
    ) -> Violation | None:
        """``None`` if ``player``, holding ``cup``, may take ``action`` now (its word is one
        of :attr:`words`), else why not."""
        ...

    def effect(
        self, action: Act, player: int, cup: tuple[int, ...], context: RoundContext
    ) -> ActEffect:
        """What ``action``, known to be legal, does to the round."""
        ...

    def every_move(self, dice: int, faces: int) -> tuple[Act, ...]:
        """Every action of this kind any position could offer a seat holding at most
        ``dice`` dice of ``faces`` faces, in a fixed order: what action encodings number."""
        ...


class StarterRule(Component, Protocol):
    """``starter``: who opens the next round."""

    def next_opener(self, context: SettledCall) -> int:
        """The seat that opens the next round, a seat still in after the call: the context
        is the round just settled (its ``call``, ``caller``, ``count``, ``called`` bid and
        every seat's ``changes``; :meth:`~perudo.rules.SettledCall.next_in` finds the seat
        to take over from one that is out)."""
        ...


class FirstPlayerRule(Component, Protocol):
    """``first_player``: who opens the game."""

    @property
    def drawn(self) -> bool:
        """Whether chance decides, as in a roll-off. Adapters then show a chance event."""
        ...

    def first(self, seed: int, context: RoundContext) -> int:
        """The seat that opens round 1 of the game with ``seed``: ``context`` is that round
        before anyone acts (``to_act`` is ``None``)."""
        ...


class ScoringRule(Component, Protocol):
    """``scoring``: what a lost call costs, when the game ends and who wins.

    What a score counts is the optional member ``unit``, singular and plural (``("life",
    "lives")``; points where it is left out): the descriptions of calls say it.

    Where a seat is in for another reason than holding dice (lives, or a least number of
    dice), the kind says so with two optional members: ``starting_score`` (each seat's
    score at the start of the game: its lives) and ``stays_in(score, dice) -> bool``
    (whether a seat with that score and dice after a call stays in; the engine deals a seat
    put out no dice from then on, and every hand in keeps the dice the call left it).
    Without them, a seat stays in while it holds dice, and scores start at 0.
    """

    @property
    def moves_dice(self) -> bool:
        """Whether calls move dice (else they move points)."""
        ...

    @property
    def pressure_uses(self) -> int:
        """Pressure uses each player has for the game (WANGO party mode)."""
        ...

    @property
    def most_points(self) -> int:
        """The most points one call moves to or from a seat (0 where calls move dice)."""
        ...

    @property
    def zero_sum(self) -> bool:
        """Whether the seats' returns always sum to zero.

        Where calls move points, every settlement's changes sum to zero (points go from a
        loser to a winner); where they move dice, the returns are by finishing place, which
        sum to zero. A kind that takes a commission, or costs every other seat, says
        ``False``, and OpenSpiel's adapter then declares a general-sum game."""
        ...

    def settle(self, context: CallContext) -> tuple[int, ...]:
        """The change of every seat's dice (where calls move dice) or score after a
        challenge (``context.challenge_loser`` is the usual loser). The engine keeps each
        hand between none and its starting dice."""
        ...

    def is_over(self, context: SettledCall) -> bool:
        """Whether the game ends with the call just settled (``context.after`` and
        ``context.scores_after`` are the table it leaves; ``context.round_number`` the
        rounds played)."""
        ...

    def round_limit(self, players: int) -> int | None:
        """The most rounds a game of ``players`` can last, when the scoring fixes it."""
        ...

    def winners(self, context: RoundContext) -> tuple[int, ...]:
        """The winning seats of a game that has ended (``context`` holds its final dice and
        scores)."""
        ...


class ClockRule(Component, Protocol):
    """``clock``: how long a player has to act, and what is played for one who does not
    act in time. The engine never waits: a table that keeps time (``perudo serve``,
    ``perudo play``) asks, through :func:`perudo.match.timeout_move`.

    A kind whose time costs the player out of time (a lost die) has the optional member
    ``forfeit(context: CallContext) -> tuple[int, ...]``: each seat's change (of dice, or
    of points where calls move points) when the player to act lets the time run out once a
    bid stands (``context.caller``, ``context.call`` ``"time"``, no hand shown, ``count``
    0). The round then ends like a call's. The edition then offers
    :class:`~perudo.OutOfTime` to the player to act once a bid stands (anyone may wait for
    the time to run out), and its ``timeout_move`` plays it.
    """

    @property
    def seconds(self) -> int | None:
        """The seconds a player has to act; ``None`` where the rules set no time (a table
        then sets its own)."""
        ...

    def timeout_move(self, legal: tuple[Action, ...], context: RoundContext) -> Action | None:
        """The move made for the player to act once out of time, one of ``legal`` (their
        legal actions, never empty); ``None``: a bot plays the turn (the table's stand-in)."""
        ...


#: The protocol of each axis.
PROTOCOLS: Mapping[str, type] = MappingProxyType(
    {
        "players": PlayerCountRule,
        "dice": DiceRule,
        "claims": ClaimRule,
        "wilds": WildsRule,
        "raising": RaisingRule,
        "conversion": ConversionRule,
        "opening": OpeningRule,
        "cap": CapRule,
        "turns": TurnRule,
        "challenge": ChallengeRule,
        "exact_call": ExactCallRule,
        "passes": PassRule,
        "special_round": SpecialRoundRule,
        "actions": ActionRule,
        "starter": StarterRule,
        "first_player": FirstPlayerRule,
        "scoring": ScoringRule,
        "clock": ClockRule,
    }
)
