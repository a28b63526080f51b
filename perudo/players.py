"""The seats of a game, the bids they make, and the log of how a game got where it is."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Final, Literal, TypeAlias, TypeVar, overload

import attrs

from perudo.actions import Act, Action, AnyBid, Bid
from perudo.errors import GameSetupError, shown

#: The hands of a round, one per seat.
Hands: TypeAlias = tuple[tuple[int, ...], ...]

__all__ = [
    "MAX_NAME",
    "TO_ACT",
    "BidChain",
    "GameLog",
    "Glimpse",
    "Hands",
    "PlacedAct",
    "PlacedBid",
    "Player",
    "RoundFacts",
    "Seat",
    "checked_hands",
    "evolved",
    "holds",
    "name_problem",
    "without",
]

#: The longest player name, in characters.
MAX_NAME = 40


class _ToAct(enum.Enum):
    TO_ACT = "the player to act"

    def __repr__(self) -> str:
        return "perudo.TO_ACT"


#: Pass as ``by=`` (or to :meth:`~perudo.GameState.view`) to mean "the player to act",
#: the default of ``apply``, ``check``, ``is_legal`` and ``legal_actions``. ``None`` is never
#: read as a seat: a server whose seat lookup returns ``None`` gets a refusal, not a hand.
TO_ACT: Final = _ToAct.TO_ACT

#: A seat number, or :data:`TO_ACT`.
Seat: TypeAlias = int | Literal[_ToAct.TO_ACT]


_V = TypeVar("_V")


def evolved(value: _V, **changes: Any) -> _V:
    """``attrs.evolve(value, **changes)`` for the hot path, for the dict-based frozen
    values made once a move (a state, a seat, a log link): every field is copied, so one
    added later is carried, never dropped; ``__init__`` is not run again. ``changes`` are
    by attribute name (``_chain``, not ``chain``)."""
    made: _V = object.__new__(type(value))
    fields = made.__dict__
    fields.update(value.__dict__)
    fields.update(changes)
    return made


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot be a player's name, or ``None`` when it can: a name is a
    printable string of 1 to :data:`MAX_NAME` characters with no space at either end, so
    it reads back from every record.

    >>> name_problem("Ana"), name_problem(" Ana"), name_problem("A\u2028B")
    (None, 'has a space at an end', 'holds a character that is not printable')
    """
    if not isinstance(name, str):
        return f"is a {type(name).__name__}, not a string"
    if not name or len(name) > MAX_NAME:
        return f"has {len(name)} characters, not 1 to {MAX_NAME}"
    if name != name.strip():
        return "has a space at an end"
    if not name.isprintable():
        return "holds a character that is not printable"
    return None


@attrs.frozen(slots=False)  # dealt each round: a dict-based class is made faster
class Player:
    """One seat at the table.

    Attributes:
        name: The player's name.
        dice: The hand this round, sorted; empty once the player is out.
        score: Points (WANGO party mode); 0 elsewhere.
        pressure_left: Pressure uses left (WANGO party mode); 0 elsewhere.
        had_special: Whether the player has had their once-per-game special round.
        open: The dice of ``dice`` out in the open this round (Bluff's re-roll), sorted;
            seen by every player.
    """

    name: str
    dice: tuple[int, ...]
    score: int = 0
    pressure_left: int = 0
    had_special: bool = False
    open: tuple[int, ...] = ()

    @property
    def is_in(self) -> bool:
        """Whether the player still holds dice."""
        return bool(self.dice)

    def dealt(self, dice: tuple[int, ...], score: int) -> Player:
        """This player at a new round: ``dice`` dealt, every die under the cup, ``score``."""
        if not dice and not self.dice and score == self.score and not self.open:
            return self  # out of the game: nothing changes
        return evolved(self, dice=dice, score=score, open=())

    @property
    def cup(self) -> tuple[int, ...]:
        """The dice still under the player's cup, hidden from the others (``dice`` without
        those in the open)."""
        return without(self.dice, self.open) if self.open else self.dice


def without(hand: Sequence[int], taken: Sequence[int]) -> tuple[int, ...]:
    """``hand`` (sorted) with one die of each face in ``taken`` removed; ``taken`` must be
    part of ``hand``.

    >>> without((2, 3, 3, 5), (3, 5))
    (2, 3)
    """
    rest = list(hand)
    for face in taken:
        rest.remove(face)
    return tuple(rest)


def holds(hand: Sequence[int], taken: Sequence[int]) -> bool:
    """Whether ``hand`` holds every die of ``taken`` (a face twice in ``taken`` needs two).

    >>> holds((2, 3, 3, 5), (3, 3)), holds((2, 3, 5), (3, 3))
    (True, False)
    """
    return all(hand.count(face) >= list(taken).count(face) for face in set(taken))


def checked_hands(
    dice: Sequence[Sequence[int]],
    players: int,
    starting: Sequence[int],
    faces: int,
    *,
    fewest: int = 1,
) -> Hands:
    """``dice``, one hand per seat of ``players``, checked: each a sequence of faces 1 to
    ``faces``, holding ``fewest`` to its seat's ``starting`` dice; each sorted.

    Raises:
        GameSetupError: naming the bad hand or face.
    """
    if isinstance(dice, str | bytes) or not isinstance(dice, Sequence):
        raise GameSetupError(f"dice {shown(dice)} is not a sequence of hands, one per player")
    if len(dice) != players:
        raise GameSetupError(f"dice gives {len(dice)} hands for {players} players")
    hands = []
    for seat, hand in enumerate(dice):
        if isinstance(hand, str | bytes) or not isinstance(hand, Sequence):
            raise GameSetupError(f"hand {shown(hand)} of seat {seat} is not a sequence of faces")
        if not fewest <= len(hand) <= starting[seat]:
            raise GameSetupError(
                f"hand {shown(tuple(hand))} of seat {seat} holds {len(hand)} dice: "
                f"{fewest} to {starting[seat]}"
            )
        for face in hand:
            if type(face) is not int or not 1 <= face <= faces:
                raise GameSetupError(
                    f"{shown(face)} in the hand of seat {seat} is not a face 1 to {faces}"
                )
        hands.append(tuple(sorted(hand)))
    return tuple(hands)


#: What a link of the bid chain claims (:attr:`~perudo.PlacedBid.claim`).
CLAIMS = ("bid", "exact", "pass", "doubt")
Claim: TypeAlias = Literal["bid", "exact", "pass", "doubt"]


@attrs.frozen(slots=False)  # one a bid: made faster dict-based
class PlacedBid:
    """A link of the round's bid chain: a bid, or a claim about the standing bid, and the
    seat that made it.

    Attributes:
        player: The seat that made it.
        bid: The bid (a :class:`~perudo.Bid`, or a :class:`~perudo.HandBid` in an edition
            whose bids name hands); for an exact claim or a pass, the bid that stood when
            it was made (a pass leaves it standing: the next raise is over it).
        claim: ``"bid"`` (at least ``bid.quantity`` dice), ``"exact"`` (an exact claim, a
            Bull: exactly that many, made with the exact call of an edition whose exact
            call stands in the bid chain: its kind's ``in_chain``),
            ``"pass"`` (a :class:`~perudo.Paso`: a claim about the passer's own hand, as
            the edition's ``passes`` kind says) or ``"doubt"`` (a challenge that does not
            end the round: the bid stands until every other player has challenged it, a
            challenge kind with ``all_around``), of :data:`~perudo.players.CLAIMS`.
    """

    player: int
    bid: AnyBid
    claim: Claim = "bid"

    @property
    def exact(self) -> bool:
        """Whether it is an exact claim (a Bull)."""
        return self.claim == "exact"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: ``player``, ``bid`` and, for a claim other than a bid, ``claim``
        (left out for a bid, so that earlier saved positions read the same)."""
        data: dict[str, Any] = {"player": self.player, "bid": str(self.bid)}
        if self.claim != "bid":
            data["claim"] = self.claim
        return data


@attrs.frozen(order=True)
class Glimpse:
    """A die seen under another player's cup this round (an action's ``look_at``): who saw
    it, whose it is, and its face. Only those two seats know it."""

    seer: int
    owner: int
    face: int


@attrs.frozen
class PlacedAct:
    """An action of the round's ``actions`` axis (:class:`~perudo.Act`), the seat that took
    it, and how many bids the round had then (Bluff: a re-roll after the bidder's bid)."""

    player: int
    act: Act
    after: int


class BidChain(Sequence[PlacedBid]):
    """The bids of a round as a chain, each link pointing to the one before: placing a bid
    costs the same however many came before (a tuple copy per bid made a long record's
    replay quadratic). It is a read-only sequence of the bids, first to last: its length
    and its last bid cost nothing, any other item the first time :meth:`as_tuple`."""

    __slots__ = ("_bids", "first", "highest", "last", "length", "previous")

    def __init__(self, previous: BidChain | None, last: PlacedBid) -> None:
        self.previous = previous
        self.last = last
        #: The round's first bid (it may decide the round's wild face).
        self.first: AnyBid = last.bid if previous is None else previous.first
        self.length: int = 1 if previous is None else previous.length + 1
        #: The highest quantity bid so far this round (0 where bids name hands).
        bid = last.bid
        quantity = bid.quantity if type(bid) is Bid else 0
        self.highest: int = (
            quantity if previous is None or previous.highest < quantity else previous.highest
        )
        self._bids: tuple[PlacedBid, ...] | None = None

    def __len__(self) -> int:
        return self.length

    @overload
    def __getitem__(self, index: int) -> PlacedBid: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[PlacedBid, ...]: ...
    def __getitem__(self, index: int | slice) -> PlacedBid | tuple[PlacedBid, ...]:
        if index == -1 or index == self.length - 1:
            return self.last
        return self.as_tuple()[index]

    def __iter__(self) -> Iterator[PlacedBid]:
        return iter(self.as_tuple())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, BidChain | tuple):
            return self.as_tuple() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.as_tuple())

    @classmethod
    def of(cls, bids: Iterable[PlacedBid]) -> BidChain | None:
        """The chain of ``bids`` in order (``None`` for none)."""
        chain = None
        for placed in bids:
            chain = cls(chain, placed)
        return chain

    def as_tuple(self) -> tuple[PlacedBid, ...]:
        """The bids, first to last (made once a link)."""
        if self._bids is None:
            bids = []
            link: BidChain | None = self
            while link is not None:
                bids.append(link.last)
                link = link.previous
            self._bids = tuple(reversed(bids))
        return self._bids

    def __reduce__(self) -> tuple[Any, ...]:  # flat, so any length pickles and deep-copies
        return (BidChain.of, (self.as_tuple(),))


def chain_key(chain: BidChain | None) -> tuple[PlacedBid, ...]:
    """What a state's equality and hash see of its bid chain: the bids."""
    return () if chain is None else chain.as_tuple()


class BidFacts:
    """What a value holding the round's bids derives from them (a state, a view, the rules'
    context): the standing bid and its bidder."""

    __slots__ = ()
    bids: Sequence[PlacedBid]

    @property
    def bid(self) -> AnyBid | None:
        """The standing bid, or ``None`` before the round's first bid."""
        return self.bids[-1].bid if self.bids else None

    @property
    def bidder(self) -> int | None:
        """The seat that made the standing bid (or claim, or pass), the one a challenge is
        against: doubts of a bid challenged all around leave it its bidder's."""
        bids = self.bids
        if not bids:
            return None
        last = bids[-1]  # the called link, but after a doubt (asked at every position)
        return last.player if last.claim != "doubt" else called_link(bids).player

    @property
    def claim(self) -> Claim | None:
        """What the last link of the bid chain claims (``"bid"``, ``"exact"``: a Bull,
        ``"pass"``), ``None`` before the round's first bid."""
        return self.bids[-1].claim if self.bids else None


def called_link(bids: Sequence[PlacedBid]) -> PlacedBid:
    """The link a call is made on: the last of ``bids`` that is not a doubt (a challenge
    that left the bid standing until every other player challenges it)."""
    last = bids[-1]
    if last.claim != "doubt":
        return last
    for placed in reversed(bids):
        if placed.claim != "doubt":
            return placed
    raise ValueError("a doubt with no bid before it")  # pragma: no cover - never placed


def doubters_of(bids: Sequence[PlacedBid]) -> tuple[int, ...]:
    """The seats that doubted the standing bid (the doubts after its last bid), in order."""
    if not bids or bids[-1].claim != "doubt":
        return ()
    seats = []
    for placed in reversed(bids):
        if placed.claim != "doubt":
            break
        seats.append(placed.player)
    return tuple(reversed(seats))


class RoundFacts(BidFacts):
    """What :class:`~perudo.GameState` and :class:`~perudo.PlayerView` both derive from the
    round's bids and whose turn it is."""

    __slots__ = ()
    to_act: int | None

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.to_act is None


@attrs.frozen(eq=False, repr=False, slots=False)  # one a move: made faster dict-based
class GameLog:
    """What a state remembers of how it was reached: the first player when given, the dice
    set by hand, the starting dice when given (a handicap), and the moves, each with the
    faces it re-rolled (Bluff's re-roll) and whether the table made it for its player, out
    of time. :meth:`perudo.GameRecord.from_state` adds the header.

    The moves are a chain (each log points to the one before its last move), so adding a
    move costs the same however long the game.
    """

    first_player: int | None = None
    dice: tuple[tuple[int, Hands], ...] = ()
    previous: GameLog | None = None
    last: tuple[int, Action] | None = None
    starting_dice: tuple[int, ...] | None = None
    rolled: tuple[int, ...] | None = None  # the faces the last move re-rolled, if any
    late: bool = False  # whether the last move was made for its player, out of time

    def _links(self) -> list[GameLog]:
        links = []
        log: GameLog | None = self
        while log is not None and log.last is not None:
            links.append(log)
            log = log.previous
        links.reverse()
        return links

    @property
    def moves(self) -> tuple[tuple[int, Action], ...]:
        """``(seat, action)`` for every move, in order."""
        return tuple(link.last for link in self._links())  # type: ignore[misc]

    @property
    def rolls(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """``(move number, faces)`` for every move that re-rolled dice, in order (moves
        numbered from 1, as records number them): the faces the re-rolled dice showed."""
        return tuple(
            (number, link.rolled)
            for number, link in enumerate(self._links(), start=1)
            if link.rolled is not None
        )

    @property
    def lates(self) -> tuple[int, ...]:
        """The numbers (from 1, as records number them) of the moves the table made for
        their player when their time ran out."""
        return tuple(number for number, link in enumerate(self._links(), start=1) if link.late)

    def with_move(
        self, player: int, action: Action, rolled: tuple[int, ...] | None = None
    ) -> GameLog:
        """This log with one more move (and the faces it re-rolled)."""
        if self.late:  # the mark is the last move's alone
            return evolved(self, previous=self, last=(player, action), rolled=rolled, late=False)
        return evolved(self, previous=self, last=(player, action), rolled=rolled)

    def marked_late(self) -> GameLog:
        """This log with its last move marked as made for its player, out of time."""
        return evolved(self, late=True)

    @classmethod
    def of(
        cls,
        first_player: int | None,
        dice: tuple[tuple[int, Hands], ...],
        moves: tuple[tuple[int, Action], ...],
        starting_dice: tuple[int, ...] | None = None,
        rolls: tuple[tuple[int, tuple[int, ...]], ...] = (),
        lates: tuple[int, ...] = (),
    ) -> GameLog:
        """The log of ``moves`` (built link by link, never recursively), with the faces of
        the re-rolls ``rolls`` (``(move number from 1, faces)``) and the moves made out of
        time ``lates`` (move numbers from 1)."""
        rolled, late = dict(rolls), set(lates)
        log = cls(first_player=first_player, dice=dice, starting_dice=starting_dice)
        for number, move in enumerate(moves, start=1):
            log = cls(
                first_player=first_player,
                dice=dice,
                previous=log,
                last=move,
                starting_dice=starting_dice,
                rolled=rolled.get(number),
                late=number in late,
            )
        return log

    def __repr__(self) -> str:  # flat, so a game of any length has one
        moves = self.moves
        shown_moves = ", ".join(f"({seat}, {action!r})" for seat, action in moves[-3:])
        earlier = f"{len(moves) - 3} earlier, " if len(moves) > 3 else ""
        return (
            f"<GameLog of {len(moves)} moves (first_player={self.first_player}, "
            f"{len(self.dice)} rounds of dice set): {earlier}{shown_moves}>"
        )

    def __reduce__(self) -> tuple[Any, ...]:  # flat, so a game of any length pickles
        return (
            GameLog.of,
            (self.first_player, self.dice, self.moves, self.starting_dice, self.rolls, self.lates),
        )

    def with_dice(self, round_number: int, hands: Hands) -> GameLog:
        """This log with the dice of ``round_number`` set by hand (replacing any set
        before in the same round: a record holds one dice line a round)."""
        dice = self.dice
        if dice and dice[-1][0] == round_number:
            dice = dice[:-1]
        return attrs.evolve(self, dice=(*dice, (round_number, hands)))
