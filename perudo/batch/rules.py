"""What the batch engine reads from a declaration: each component's parameters as plain
numbers, for the built-in kinds it implements.

The batch engine plays the same declarations as :class:`~perudo.GameState`, component by
component; it only needs each one's parameters. It checks every axis of
:data:`perudo.AXES`, so an axis it does not know is refused too, never played wrongly in
silence. A kind it does not implement (a registered user kind, or a subclass of a built-in
that changes its behaviour) is refused here, naming the kind: play that edition with
:func:`perudo.new_game`. A subclass that changes only its prose (``describe``, ``label``,
its ``kind`` name and docstring) plays as its built-in kind.
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

import attrs
import numpy as np
from numpy.typing import NDArray

from perudo.errors import GameSetupError, shown
from perudo.rules import (
    AXES,
    AfterLoser,
    AllAroundChallenge,
    BidderAgainstAll,
    BidderHandChallenge,
    Burst,
    BurstElimination,
    Challenge,
    DefaultMove,
    Dice,
    DiceInPlayCap,
    Difference,
    DrawnSeat,
    Elimination,
    ExactCall,
    ExactClaim,
    FaceOrQuantity,
    FarewellRound,
    FixedRounds,
    FixedSeat,
    Forfeit,
    GiveUp,
    HalveDouble,
    InTurn,
    Lives,
    LivesFirstOut,
    LoserStarts,
    LostDiceStarts,
    MiaValues,
    Monotone,
    NoActions,
    NoCap,
    NoClock,
    NoConversion,
    NoExactCall,
    NoPairPass,
    NoPass,
    NoSpecialRound,
    NoWilds,
    OneDieRound,
    Opening,
    OpeningAtLeast,
    OpeningPlayersIn,
    OutBelow,
    PartyPoints,
    PlayerCount,
    PokerHands,
    PureHandsChallenge,
    QuantityOfFace,
    QuantityOrFace,
    RankedFaces,
    Reroll,
    RerollThenBid,
    RollBeforeBid,
    RollOff,
    RotatingStarter,
    WildFace,
    WildOnes,
    WildUntilBidOn,
    WinnerStarts,
)
from perudo.rules.registry import wraps_inherited
from perudo.variant import Variant

__all__ = [
    "BATCH_KINDS",
    "BATCH_PARAMS",
    "BatchRules",
    "FaceChange",
    "OnesOpening",
    "RaiseOrder",
    "Starter",
    "TwoPlayers",
    "batch_kind",
    "batch_rules",
    "face_ranks",
    "hand_ladder",
]

#: Every parameter the batch engine reads of each kind it implements, with the values it
#: plays: a tuple of them, or ``None`` for every whole number within the parameter's own
#: bounds (its ``minimum`` and ``maximum``). :func:`batch_rules` refuses any other value (a
#: component built in Python, past the declaration's checks), so nothing is played as a
#: default in silence; a test holds this statement to each class's fields and choices.
BATCH_PARAMS: dict[type, dict[str, tuple[Any, ...] | None]] = {
    PlayerCount: {"min": None, "max": None},
    Dice: {"per_player": None, "faces": None},
    QuantityOfFace: {},  # bids name a quantity of a face
    MiaValues: {},  # or Mia's values of two dice (with the bidder's hand alone shown)
    PokerHands: {"order": None},  # or poker hands of dice, in any order of the faces
    WildOnes: {},
    WildFace: {"face": None, "unless_opened_on": (False, True)},
    NoWilds: {},
    WildUntilBidOn: {"face": None},
    QuantityOrFace: {},
    Monotone: {},
    FaceOrQuantity: {},
    RankedFaces: {"order": None},  # any order the declaration takes
    HalveDouble: {"face": None},
    NoConversion: {},
    Opening: {"ones": ("forbidden", "allowed", "required")},
    OpeningAtLeast: {"ones": ("forbidden", "allowed", "required"), "quantity": None},
    OpeningPlayersIn: {"ones": ("forbidden", "allowed", "required")},
    NoCap: {},
    DiceInPlayCap: {},
    Challenge: {"reveal": ("all", "from-left")},
    PureHandsChallenge: {},
    BidderHandChallenge: {},
    AllAroundChallenge: {},
    NoExactCall: {},
    NoPass: {},
    NoPairPass: {"per_round": None},
    NoClock: {},
    DefaultMove: {
        "seconds": None,
        "quantity": None,
        "face": None,
    },  # time is a table's business: nothing to play here
    Forfeit: {"seconds": None},  # letting the time run out is a move: it costs one
    ExactCall: {
        "who": ("player-to-act", "not-bidder-or-before"),
        "min_players": None,
        "caller_below_full": (False, True),
    },
    ExactClaim: {"who": ("player-to-act", "any-player")},
    GiveUp: {},
    NoSpecialRound: {},
    OneDieRound: {
        "once_per_player": (False, True),
        "two_players": ("same", "off", "choice"),
        "optional": (False, True),
        "opening": ("forbidden", "allowed", "required"),
        "face_change": ("nobody", "one-die", "one-die-except-opener"),
    },
    FarewellRound: {
        "once_per_player": (False, True),
        "two_players": ("same", "off", "choice"),
        "optional": (False, True),
        "opening": ("forbidden", "allowed", "required"),
        "face_change": ("nobody", "one-die", "one-die-except-opener"),
    },
    InTurn: {},
    Burst: {"bid": (False, True), "challenge": (False, True)},
    NoActions: {},
    Reroll: {},
    RerollThenBid: {},
    RollBeforeBid: {},
    LoserStarts: {"if_out": ("left", "eliminator")},
    WinnerStarts: {},
    LostDiceStarts: {},
    RotatingStarter: {},
    AfterLoser: {},
    RollOff: {},
    FixedSeat: {"seat": None},
    DrawnSeat: {},
    Elimination: {},
    BurstElimination: {},
    Difference: {},
    OutBelow: {"dice": None},
    Lives: {"lives": None},
    LivesFirstOut: {"lives": None},
    PartyPoints: {
        "rounds_per_player": None,
        "points": None,
        "pressure_points": None,
        "pressure_uses": None,
    },
    FixedRounds: {"rounds": None, "points": None},
    BidderAgainstAll: {"rounds": None, "points": None},
}

#: The component classes the batch engine implements, by axis (a subclass is played as its
#: class only when it changes nothing but prose: see :func:`batch_kind`).
BATCH_KINDS: dict[str, tuple[type, ...]] = {
    axis: tuple(kind for kind in BATCH_PARAMS if kind.axis == axis)  # type: ignore[attr-defined]
    for axis in AXES
}


class RaiseOrder(enum.IntEnum):
    """The raise orders the batch engine plays (the ``raising`` kinds), by number."""

    QUANTITY_OR_FACE = 0  #: a higher face keeps the quantity, the same face needs one more
    MONOTONE = 1  #: as above, and the face never goes down
    FACE_OR_QUANTITY = 2  #: a higher face from 1, the same face one more; never down
    RANKED_FACES = 3  #: as QUANTITY_OR_FACE, the faces in a declared order (``face_rank``)

    @classmethod
    def of(cls, kind: str) -> RaiseOrder:
        """The raise order of the ``raising`` kind named ``kind``."""
        return cls[kind.upper().replace("-", "_")]


class OnesOpening(enum.IntEnum):
    """Whether a round may open on ones (the ``opening`` setting ``ones``), by number."""

    FORBIDDEN = 0
    ALLOWED = 1
    REQUIRED = 2

    @classmethod
    def of(cls, setting: str) -> OnesOpening:
        """The number of the setting ``setting``."""
        return cls[setting.upper()]


class TwoPlayers(enum.IntEnum):
    """The special round when two players are left (the ``two_players`` setting)."""

    SAME = 0  #: played as with more players
    OFF = 1  #: not played
    CHOICE = 2  #: the player who fell to one die declares whether it is played

    @classmethod
    def of(cls, setting: str) -> TwoPlayers:
        """The number of the setting ``setting``."""
        return cls[setting.upper()]


class FaceChange(enum.IntEnum):
    """Who may change the face in the special round (the ``face_change`` setting)."""

    NOBODY = 0
    ONE_DIE = 1  #: every player down to one die
    ONE_DIE_EXCEPT_OPENER = 2  #: every player down to one die but the round's opener

    @classmethod
    def of(cls, setting: str) -> FaceChange:
        """The number of the setting ``setting``."""
        return cls[setting.upper().replace("-", "_")]


class Starter(enum.IntEnum):
    """Who opens the next round (the ``starter`` kinds), by number."""

    LOSER = 0  #: the loser of a challenge; after the exact call or several losers, the caller
    LOSER_OR_ELIMINATOR = 1  #: as LOSER; where the loser is out, the other party of the call
    WINNER = 2  #: the winner of a challenge; after the exact call, the caller
    LOST_DICE = 3  #: the one seat that lost dice; after several, the bidder
    ROTATE = 4  #: the seat left of the round's opener
    AFTER_LOSER = 5  #: the seat left of the one loser (of the caller, after several or none)

    @classmethod
    def of(cls, starter: Any) -> Starter:
        """The number of the starter kind ``starter`` plays as."""
        kind = batch_kind(starter, BATCH_KINDS["starter"])
        if kind is LoserStarts:
            return cls.LOSER_OR_ELIMINATOR if starter.if_out == "eliminator" else cls.LOSER
        played = {WinnerStarts: cls.WINNER, LostDiceStarts: cls.LOST_DICE,
                  RotatingStarter: cls.ROTATE, AfterLoser: cls.AFTER_LOSER}  # fmt: skip
        return played[kind]  # type: ignore[index]


class BatchRules(NamedTuple):
    """An edition's components as numbers (see :func:`batch_rules`): what the compiled
    steps read, a tuple of numbers and flags."""

    per_player: int
    wild: int  # the wild face, 0 for none
    wild_unless_opened_on: bool
    wild_until_bid_on: bool  # wild until a bid of the round names it
    raising: RaiseOrder
    convert_face: int  # the face bids convert to and from, half and twice plus one (0: none)
    opening: OnesOpening
    opening_least: int  # the fewest dice an opening bid names: 1, a number, or -1 (players in)
    cap: bool
    burst_bid: bool  # any seat but the bidder may bid over the standing bid out of turn
    burst_challenge: bool  # or challenge it out of turn
    reveal_from_left: bool
    pure_hands: bool  # a hand of the bid's face alone counts two more, with wilds one more
    bidder_hand: bool  # a challenge shows and counts the bidder's hand alone
    all_around: bool  # a challenge ends the round once every other seat in has made it
    exact: bool
    exact_out_of_turn: bool
    exact_min_players: int
    exact_below_full: bool
    exact_claim: bool  # the exact call is a claim in the chain, to raise or challenge (Bull)
    special: bool
    special_once: bool
    special_two_players: TwoPlayers
    special_optional: bool
    special_opening: OnesOpening
    special_face_change: FaceChange
    starter: Starter
    first_seat: int  # -1: a roll-off
    moves_dice: bool
    fewest: int  # the fewest dice a seat holds and stays in (1; out-below: its dice)
    lives: int  # each seat's lives at the start, where a lost challenge costs one (0: none)
    lose_difference: bool  # a challenge's loser loses what the bid was wrong by
    against_all: bool  # the bid called wins or pays points to every other seat still in
    burst_gain: bool  # a right challenger who called out of turn wins a die
    first_out: bool  # the game ends as soon as a seat is out (lives-first-out)
    hands: int  # the hands a bid may name, ranked (Mia's 21 values); 0: quantities of a face
    top_stake: int  # what a challenge of the top hand that holds is played for (Mia's 2)
    give_up: bool  # the exact call gives up on the top hand: its caller loses one
    roll: bool  # the player to act rolls its dice afresh before each bid but a round's first
    points: int
    pressure_points: int
    pressure_uses: int
    special_declaration: int  # the number of the declaration of the special round (-1)
    farewell: bool  # a special round for each descent to one die, queued, opened by its seat
    reroll: bool  # a player may put dice out in the open and re-roll the rest (Bluff)
    reroll_in_turn: bool  # on its turn, before its bid, dice of one value (else after its bid)
    passes: int  # the times a seat may pass in a round, claiming no two dice alike (0: none)

    def numbers(self) -> BatchRules:
        """These rules with each kind as its plain number: what the compiled steps are
        given (numba reads a plain number at once, and compares it with the kinds alike)."""
        return BatchRules._make(int(v) if isinstance(v, enum.IntEnum) else v for v in self)


#: What a subclass may define and still be played as the kind it extends: its words.
_PROSE = frozenset({"describe", "label", "kind"})


def batch_kind(component: Any, kinds: tuple[type, ...]) -> type | None:
    """The class of ``kinds`` that ``component`` plays as: its own class, or the one it
    extends when every class in between defines only prose (``describe``, ``label``,
    ``kind``, docstrings) and no parameter of its own; ``None`` otherwise."""
    mro = type(component).__mro__
    base = next((cls for cls in mro if cls in kinds), None)
    if base is None:
        return None
    for cls in mro[: mro.index(base)]:
        own = {
            name
            for name, value in vars(cls).items()
            if not (name.startswith("__") and name.endswith("__")) and not wraps_inherited(value)
        }
        if own - _PROSE or attrs.fields(cls) != attrs.fields(base):
            return None
    return base


def batch_rules(variant: Variant) -> BatchRules:
    """The numbers of ``variant``'s components.

    Raises:
        GameSetupError: an axis the batch engine does not know, or a component of a kind
            it does not implement; the message names the axis and the kind.
    """
    played: dict[str, type] = {}  # the built-in kind each axis plays as
    for axis in AXES:
        component: Any = variant.component(axis)
        kinds = BATCH_KINDS.get(axis)
        if kinds is None:
            raise GameSetupError(
                f"the batch engine does not know the axis {axis!r} of {variant.key!r}: play "
                "it with perudo.new_game, the reference engine"
            )
        kind = batch_kind(component, kinds)
        if kind is None:
            raise GameSetupError(
                f"the batch engine does not implement {axis} kind {component.kind!r} "
                f"({type(component).__name__}) of {variant.key!r}: play it with "
                "perudo.new_game, the reference engine"
            )
        played[axis] = kind
    if variant.hand_bids:
        _refuse_with_hands(variant, played)
    gives_up = played["exact_call"] is GiveUp  # its caller loses one, whatever is counted
    if variant.has_exact_call and not variant.scoring.moves_dice and not gives_up:
        raise GameSetupError(
            f"the batch engine does not implement an exact call that moves points "
            f"(exact_call:{variant.exact_call.kind} with scoring:{variant.scoring.kind}) of "
            f"{variant.key!r}: play it with perudo.new_game, the reference engine"
        )
    for axis, kind in played.items():  # every kind is one it plays: now every value of theirs
        component = variant.component(axis)
        for name, value in _unplayed(component, kind):
            raise GameSetupError(
                f"the batch engine does not implement {axis} kind {component.kind!r} with "
                f"{name} = {shown(value)} of {variant.key!r}: play it with perudo.new_game, "
                "the reference engine"
            )
    wilds: Any = variant.wilds
    special: Any = variant.special_round
    exact: Any = variant.exact_call
    scoring: Any = variant.scoring
    one_die = isinstance(special, OneDieRound)
    roles = special.declarations  # the role ("special"/"ordinary") of each declaration
    return BatchRules(
        per_player=variant.dice.per_player,
        wild=1 if isinstance(wilds, WildOnes) else getattr(wilds, "face", 0),
        wild_unless_opened_on=bool(getattr(wilds, "unless_opened_on", False)),
        wild_until_bid_on=_as_played(variant, "wilds") is WildUntilBidOn,
        raising=RaiseOrder.of(_as_played(variant, "raising").kind),
        convert_face=getattr(variant.conversion, "face", 0),
        opening=OnesOpening.of(variant.opening.ones),  # type: ignore[attr-defined]
        opening_least=_opening_least(variant),
        cap=variant.cap.caps,
        burst_bid="bid" in variant.turns.out_of_turn,
        burst_challenge="challenge" in variant.turns.out_of_turn,
        reveal_from_left=getattr(variant.challenge, "reveal", "all") == "from-left",
        pure_hands=_as_played(variant, "challenge") is PureHandsChallenge,
        bidder_hand=_as_played(variant, "challenge") is BidderHandChallenge,
        all_around=_as_played(variant, "challenge") is AllAroundChallenge,
        exact=variant.has_exact_call,
        exact_out_of_turn=exact.out_of_turn,
        exact_min_players=getattr(exact, "min_players", 0),
        exact_below_full=bool(getattr(exact, "caller_below_full", False)),
        exact_claim=_as_played(variant, "exact_call") is ExactClaim,
        special=one_die,
        special_once=one_die and special.once_per_player,
        special_two_players=TwoPlayers.of(special.two_players) if one_die else TwoPlayers.SAME,
        special_optional=one_die and special.optional,
        special_opening=OnesOpening.of(special.opening) if one_die else OnesOpening.FORBIDDEN,
        special_face_change=FaceChange.of(special.face_change) if one_die else FaceChange.NOBODY,
        starter=Starter.of(variant.starter),
        first_seat=variant.first_player.seat if isinstance(variant.first_player, FixedSeat) else -1,
        moves_dice=scoring.moves_dice,
        fewest=scoring.dice if _as_played(variant, "scoring") is OutBelow else 1,
        lives=scoring.lives if _as_played(variant, "scoring") in (Lives, LivesFirstOut) else 0,
        lose_difference=_as_played(variant, "scoring") is Difference,
        against_all=_as_played(variant, "scoring") is BidderAgainstAll,
        burst_gain=_as_played(variant, "scoring") is BurstElimination,
        first_out=_as_played(variant, "scoring") is LivesFirstOut,
        hands=len(variant.hand_bids),
        top_stake=variant.most_stake,
        give_up=_as_played(variant, "exact_call") is GiveUp,
        roll=_as_played(variant, "actions") is RollBeforeBid,
        points=getattr(scoring, "points", 0),
        pressure_points=getattr(scoring, "pressure_points", getattr(scoring, "points", 0)),
        pressure_uses=scoring.pressure_uses,
        special_declaration=roles.index("special") if "special" in roles else -1,
        farewell=_as_played(variant, "special_round") is FarewellRound,
        reroll=_as_played(variant, "actions") in (Reroll, RerollThenBid),
        reroll_in_turn=_as_played(variant, "actions") is RerollThenBid,
        passes=variant.passes.most_per_round,
    )


#: What the batch engine plays beside bids that name hands (Mia's): the kind of each axis
#: it reads there, or the kinds it plays with them.
_WITH_HANDS: dict[str, tuple[type, ...]] = {
    "wilds": (NoWilds,),
    "challenge": (BidderHandChallenge, Challenge),
    "exact_call": (NoExactCall, GiveUp),
    "passes": (NoPass,),
    "special_round": (NoSpecialRound,),
    "turns": (InTurn,),
    "scoring": (Elimination, Lives, LivesFirstOut),
}


def _refuse_with_hands(variant: Variant, played: dict[str, type]) -> None:
    """Refuse bids that name hands beside a kind the batch engine plays only with bids of
    a quantity of a face (the challenge counts the bidder's hand alone, nothing is wild)."""
    for axis, kinds in _WITH_HANDS.items():
        if played[axis] not in kinds:
            raise GameSetupError(
                f"the batch engine does not implement claims kind {variant.claims.kind!r} "
                f"with {axis} kind {variant.component(axis).kind!r} of {variant.key!r}: play "
                "it with perudo.new_game, the reference engine"
            )
    if played["claims"] is MiaValues and played["challenge"] is not BidderHandChallenge:
        raise GameSetupError(  # Mia's value is of two dice exactly, never of more shown
            f"the batch engine does not implement claims kind 'mia' with challenge kind "
            f"{variant.challenge.kind!r} of {variant.key!r}: play it with perudo.new_game, "
            "the reference engine"
        )
    if set(variant.stakes) - {(variant.hand_bids[-1].faces, True)}:
        raise GameSetupError(
            f"the batch engine plays a stake on the top hand alone, not the stakes of "
            f"{variant.key!r}: play it with perudo.new_game, the reference engine"
        )


def _opening_least(variant: Variant) -> int:
    """The fewest dice the edition's opening bid names (:attr:`BatchRules.opening_least`)."""
    kind = _as_played(variant, "opening")
    if kind is OpeningAtLeast:
        return int(variant.opening.quantity)  # type: ignore[attr-defined]
    return -1 if kind is OpeningPlayersIn else 1


def face_ranks(variant: Variant) -> NDArray[np.int8]:
    """Each face's rank in the edition's raise order, index 0 unused: its place in a
    ``ranked-faces`` order (-1 for a face the order leaves out), else the face itself."""
    faces = variant.dice.faces
    raising: Any = variant.raising
    if _as_played(variant, "raising") is not RankedFaces:
        return np.arange(faces + 1, dtype=np.int8)
    ranks = np.full(faces + 1, -1, dtype=np.int8)
    for rank, face in enumerate(raising.order):
        ranks[face] = rank
    return ranks


def hand_ladder(variant: Variant) -> NDArray[np.int8]:
    """Each hand a bid may name, by rank (row 0: none), its dice counted by face (column
    0 unused): the dice shown hold the highest rank whose dice they hold, as the
    ``claims`` kind ranks them (Mia's two dice their own value, poker dice their best
    hand); one row of zeros where bids name a quantity of a face."""
    ladder = variant.hand_bids
    table = np.zeros((len(ladder) + 1, variant.dice.faces + 1), dtype=np.int8)
    for rank, hand in enumerate(ladder, start=1):
        for face in hand.faces:
            table[rank, face] += 1
    return table


def _unplayed(component: Any, kind: type) -> list[tuple[str, Any]]:
    """Each parameter of ``component`` (played as ``kind``) whose value
    :data:`BATCH_PARAMS` does not list, with that value."""
    found = []
    for field in attrs.fields(kind):
        value = getattr(component, field.name)
        played = BATCH_PARAMS[kind].get(field.name, ())
        if played is None and field.metadata.get("type") is tuple:  # as the declaration took it
            fits = isinstance(value, tuple)
        elif played is None:
            low, high = field.metadata.get("minimum"), field.metadata.get("maximum")
            fits = type(value) is int and (low is None or value >= low)
            fits = fits and (high is None or value <= high)
        else:
            fits = any(type(value) is type(known) and value == known for known in played)
        if not fits:
            found.append((field.name, value))
    return found


def _as_played(variant: Variant, axis: str) -> Any:
    """The built-in kind the component on ``axis`` plays as (its own, for a prose subclass)."""
    kind = batch_kind(variant.component(axis), BATCH_KINDS[axis])
    assert kind is not None  # batch_rules refused the edition otherwise
    return kind
