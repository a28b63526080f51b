"""The batch engine's state: one array per game field, the game first, declared once here.

:class:`GameArrays` names every field, its dtype and its shape after the game axis, and
:class:`~perudo.batch.BatchGames` shows each as an attribute. The compiled steps
(:mod:`perudo.batch.moves`, :mod:`perudo.batch.legality`, :mod:`perudo.batch.observations`)
read and write the same arrays by the same names through
:class:`~perudo.batch.handle.Games`, one reference to all of them. :class:`Layout` holds
the numbers of an edition's table the steps need (seats, faces, where each kind of action
is numbered); :class:`~perudo.batch.rules.BatchRules`
holds its rules.
"""

from __future__ import annotations

from typing import Annotated, Any, NamedTuple, get_type_hints

import attrs
import numpy as np
from numpy.typing import NDArray

from perudo.actions import EXACT_CALL, OUT_OF_TIME, PASS
from perudo.batch.rules import BatchRules
from perudo.encoding import (
    ActionEncoding,
    ObservationEncoding,
    action_encoding,
    observation_encoding,
)
from perudo.errors import GameSetupError
from perudo.variant import Variant

__all__ = [
    "FIELDS",
    "MAX_ACT_INDEX",
    "GameArrays",
    "Layout",
    "Spots",
    "act_faces",
    "act_index",
    "bytes_per_game",
    "call_bytes_per_game",
    "check_numbers",
    "layout",
    "new_arrays",
    "spots",
]


@attrs.frozen
class Shape:
    """The shape of a field after the game axis, by name: ``""`` one value, ``"n"`` one per
    seat, ``"nf1"`` one per seat and face (index 0 unused), ``"2nf1"`` two of those, ``"b"``
    one per link a round's bid chain may hold (its bids and passes), ``"a"`` one more than
    those, ``"d"`` one per declaration."""

    code: str


class GameArrays(NamedTuple):
    """Every per-game array of a batch (see :class:`Shape` for the shapes)."""

    start_dice: Annotated[NDArray[np.int8], Shape("n")]  #: each seat's dice at the start
    held: Annotated[NDArray[np.int8], Shape("n")]  #: each seat's dice now
    in_play: Annotated[NDArray[np.int16], Shape("")]  #: the dice all hands hold
    players_in: Annotated[NDArray[np.int8], Shape("")]  #: the seats holding dice
    left: Annotated[NDArray[np.int8], Shape("n")]  #: the next seat still in, clockwise
    right: Annotated[NDArray[np.int8], Shape("n")]  #: the seat still in it follows
    #: two sets of hands, each hand as counts of each face: this round's (``faces[dealt]``)
    #: and, in the other, the hands the last call showed (the seats ``last_revealed``)
    faces: Annotated[NDArray[np.int8], Shape("2nf1")]
    #: the dice of this round's hands put out in the open, counted by face (Bluff's re-roll)
    open_faces: Annotated[NDArray[np.int8], Shape("nf1")]
    dealt: Annotated[NDArray[np.int8], Shape("")]  #: which of ``faces`` holds this round's
    to_act: Annotated[NDArray[np.int16], Shape("")]  #: the player to act (-1: over)
    round_number: Annotated[NDArray[np.int32], Shape("")]
    bid_q: Annotated[NDArray[np.int16], Shape("")]  #: the standing bid's quantity (0: none)
    bid_f: Annotated[NDArray[np.int8], Shape("")]  #: its face
    bid_p: Annotated[NDArray[np.bool_], Shape("")]  #: made with pressure
    bidder: Annotated[NDArray[np.int16], Shape("")]  #: who made it (-1: nobody)
    open_f: Annotated[NDArray[np.int8], Shape("")]  #: the face the round opened on
    nbids: Annotated[NDArray[np.int16], Shape("")]  #: bids made this round
    bid_made: Annotated[NDArray[np.int16], Shape("b")]  #: the round's bids, by number, in order
    bid_by: Annotated[NDArray[np.int8], Shape("b")]  #: who made each (the first nbids hold)
    #: what each link of the round claims: 0 a bid, 1 the standing bid exactly (Bull), 2 a
    #: pass of it, 3 a doubt of it (a challenge that waits for every other seat's), as
    #: :data:`perudo.encoding.CLAIMS` numbers them
    bid_claim: Annotated[NDArray[np.int8], Shape("b")]
    #: the action taken after the round's k-th bid (0: before any), as the observation
    #: writes it with absolute seats: ``1 + number * players + seat`` (0: none)
    acts_after: Annotated[NDArray[np.int32], Shape("a")]
    special: Annotated[NDArray[np.bool_], Shape("")]  #: the round is the special round
    special_player: Annotated[NDArray[np.int16], Shape("")]  #: who it is for (-1: none)
    changers: Annotated[NDArray[np.bool_], Shape("n")]  #: who may change face in it
    offers: Annotated[NDArray[np.bool_], Shape("d")]  #: the declarations on offer
    must_declare: Annotated[NDArray[np.bool_], Shape("")]  #: one of them is required
    must_bid: Annotated[NDArray[np.bool_], Shape("")]  #: the player to act rolled: it bids
    had_special: Annotated[NDArray[np.bool_], Shape("n")]  #: who has had a special round
    #: each seat's place in the queue of seats owed a special round in later rounds, from 1
    #: (0: none; a farewell round)
    owed: Annotated[NDArray[np.int8], Shape("n")]
    pressure_left: Annotated[NDArray[np.int8], Shape("n")]  #: each seat's pressure uses
    pressured: Annotated[NDArray[np.bool_], Shape("")]  #: pressure was used this round
    scores: Annotated[NDArray[np.int32], Shape("n")]
    over: Annotated[NDArray[np.bool_], Shape("")]
    winners: Annotated[NDArray[np.bool_], Shape("n")]
    out_place: Annotated[NDArray[np.int8], Shape("n")]  #: the place each seat went out in
    opener: Annotated[NDArray[np.int16], Shape("")]  #: the seat that opened the game
    returned: Annotated[NDArray[np.float64], Shape("n")]  #: each seat's return so far
    # The last call, as views show it (read only where ``last``).
    last: Annotated[NDArray[np.bool_], Shape("")]
    last_call: Annotated[NDArray[np.int8], Shape("")]  #: 0 Dudo, 1 the exact call, 2 time
    last_claim: Annotated[NDArray[np.int8], Shape("")]  #: what the link called claimed
    last_q: Annotated[NDArray[np.int16], Shape("")]
    last_f: Annotated[NDArray[np.int8], Shape("")]
    last_p: Annotated[NDArray[np.bool_], Shape("")]
    last_caller: Annotated[NDArray[np.int16], Shape("")]
    last_bidder: Annotated[NDArray[np.int16], Shape("")]
    last_count: Annotated[NDArray[np.int16], Shape("")]
    last_revealed: Annotated[NDArray[np.int8], Shape("n")]  #: place in the showing, from 1
    last_hidden: Annotated[NDArray[np.bool_], Shape("n")]
    last_wild: Annotated[NDArray[np.int8], Shape("")]
    last_loser: Annotated[
        NDArray[np.int16], Shape("")
    ]  #: the one seat that lost (-1: none, or several)
    last_gainer: Annotated[NDArray[np.int16], Shape("")]  #: the one seat that gained (the same)
    last_points: Annotated[NDArray[np.int16], Shape("")]
    last_eliminated: Annotated[NDArray[np.int16], Shape("")]  #: the one seat put out (the same)
    #: each seat's change of dice, or of points where calls move points
    last_changes: Annotated[NDArray[np.int16], Shape("n")]


def _declared() -> dict[str, tuple[np.dtype[Any], str]]:
    """Each field's dtype and shape code, read from :class:`GameArrays`'s annotations."""
    hints = get_type_hints(GameArrays, include_extras=True)
    fields = {}
    for name in GameArrays._fields:
        array, shape = hints[name].__origin__, hints[name].__metadata__[0]
        (dtype,) = array.__args__[1].__args__
        fields[name] = (np.dtype(dtype), shape.code)
    return fields


#: Each field's dtype and shape code.
FIELDS: dict[str, tuple[np.dtype[Any], str]] = _declared()


class Layout(NamedTuple):
    """The numbers of an edition's table that the compiled steps read."""

    players: int
    faces: int
    per_player: int
    actions: int  #: the actions numbered (:attr:`ActionEncoding.size`)
    bids: int  #: the bid numbers (a bid and its pressured form count twice)
    links: int  #: the most links a round's bid chain holds (its bids and its passes)
    max_quantity: int
    declarations: int
    first_declaration: int  #: the number of the first declaration
    first_act: int  #: the number of the first of the edition's own actions
    first_bid: int  #: the number of the first bid
    exact_call: int  #: the number of the exact call (-1: none)
    passing: int  #: the number of the pass (-1: none)
    out_of_time: int  #: the number of letting the time run out, where it costs (-1: none)
    pressed_dudo: int  #: the number of Dudo with pressure (-1: none)
    per_bid: int  #: 2 where a bid may be made with pressure, else 1
    rounds: int  #: the rounds a game lasts (0: until one player is left)
    elimination: bool  #: the last player with dice wins
    observed_rounds: int  #: the most rounds an observation's ``round`` entry counts


class Spots(NamedTuple):
    """Where each entry of the observation starts (-1: the edition has no such entry): the
    names of :class:`~perudo.encoding.ObservationEncoding`'s fields."""

    seat: int
    round: int
    hand: int
    hand_hidden: int
    dice: int
    starting_dice: int
    score: int
    pressure_left: int
    to_act: int
    may_call: int
    face_changers: int
    special_round: int
    special_player: int
    owed: int  # -1: no special round that queues
    offers: int
    must_declare: int
    wild: int
    bids: int
    claims: int  # -1: no exact claim in the bid chain
    passes: int  # -1: no pass
    doubts: int  # -1: no challenge all around
    legal: int
    last: int
    last_call: int
    last_claim: int  # -1: no exact claim in the chain and no pass
    last_quantity: int
    last_face: int
    last_pressure: int
    last_caller: int
    last_bidder: int
    last_count: int
    last_revealed: int
    last_hidden: int
    last_hands: int
    last_wild: int
    last_loser: int
    last_gainer: int
    last_points: int
    last_eliminated: int
    last_changes: int
    winners: int
    open: int
    acts: int
    seen: int
    seen_by: int


def spots(encoding: ObservationEncoding) -> Spots:
    """The :class:`Spots` of ``encoding``."""
    return Spots(**{f.name: f.start if f.length else -1 for f in encoding.fields})


def layout(variant: Variant, rules: BatchRules, players: int) -> Layout:
    """The :class:`Layout` of ``variant`` at a table of ``players``."""
    actions = action_encoding(variant, players)
    calls = variant.calls
    rounds = variant.scoring.round_limit(players) or 0  # 0: until one player is left
    return Layout(
        players=players,
        faces=variant.dice.faces,
        per_player=variant.dice.per_player,
        actions=actions.size,
        bids=actions.bid_count,
        links=variant.most_links(players, actions.bid_count),
        max_quantity=actions.max_quantity,
        declarations=len(variant.declarations),
        first_declaration=len(calls),
        first_act=actions.acts_from,
        first_bid=actions.first_bid,
        exact_call=calls.index(EXACT_CALL) if EXACT_CALL in calls else -1,
        passing=calls.index(PASS) if PASS in calls else -1,
        out_of_time=calls.index(OUT_OF_TIME) if OUT_OF_TIME in calls else -1,
        pressed_dudo=1 if variant.has_pressure else -1,
        per_bid=2 if variant.has_pressure else 1,
        rounds=rounds,
        elimination=rules.moves_dice and not rounds,
        observed_rounds=observation_encoding(variant, players).field("round").high,
    )


def act_faces(actions: ActionEncoding) -> NDArray[np.int8]:
    """Each of the edition's own actions (:attr:`perudo.encoding.ActionEncoding.acts`: Bluff's
    ``reroll 2 5``) as the dice it names, counted by face: row ``k`` for action
    ``acts_from + k``, column 0 the number of dice (one row of zeros where there is none)."""
    faces = actions.variant.dice.faces
    table = np.zeros((max(len(actions.acts), 1), faces + 1), dtype=np.int8)
    for k, act in enumerate(actions.acts):
        table[k, 0] = len(act.numbers)
        for face in act.numbers:
            table[k, face] += 1
    return table


#: The most entries :func:`act_index` holds (past it, the actions are looked through).
MAX_ACT_INDEX = 1 << 20


def act_index(actions: ActionEncoding) -> NDArray[np.int32]:
    """Each own action's row in :func:`act_faces`, found from its dice: entry
    ``sum(count[f] * radix ** (f - 1))`` (``radix`` the dice per player) holds the row of
    the action putting out ``count[f]`` dice of each face ``f``, -1 where none does; one
    entry (-1) where the edition has no own actions, or the table would pass
    :data:`MAX_ACT_INDEX` entries."""
    variant = actions.variant
    radix, faces = variant.dice.per_player, variant.dice.faces
    if not actions.acts or radix**faces > MAX_ACT_INDEX:
        return np.full(1, -1, dtype=np.int32)
    table = np.full(radix**faces, -1, dtype=np.int32)
    for k, act in enumerate(actions.acts):
        table[sum(radix ** (face - 1) for face in act.numbers)] = k
    return table


def _sizes(table: Layout) -> dict[str, tuple[int, ...]]:
    n, nf = table.players, table.faces
    return {"": (), "n": (n,), "nf1": (n, nf + 1), "2nf1": (2, n, nf + 1), "b": (table.links,),
            "a": (table.links + 1,), "d": (table.declarations,)}  # fmt: skip


def new_arrays(table: Layout, batch: int) -> GameArrays:
    """Zeroed arrays for ``batch`` games (a new game sets each row:
    :func:`perudo.batch.moves.new_game`)."""
    sizes = _sizes(table)
    return GameArrays(
        *(np.zeros((batch, *sizes[shape]), dtype=dtype) for dtype, shape in FIELDS.values())
    )


def bytes_per_game(table: Layout) -> int:
    """The bytes of one game's row in every array of a batch."""
    sizes = _sizes(table)
    return sum(dtype.itemsize * int(np.prod(sizes[shape])) for dtype, shape in FIELDS.values())


def call_bytes_per_game(variant: Variant, players: int) -> int:
    """The most bytes one call allocates per game while it runs, measured with tracemalloc
    (``tests/test_batch.py`` holds every call to it): an observation's vector and its copy,
    the mask, a step's results."""
    observation = 4 * observation_encoding(variant, players).size
    return max(2 * observation, 2 * action_encoding(variant, players).size) + 64 * players + 256


def check_numbers(variant: Variant, rules: BatchRules, players: int) -> None:
    """Refuse an edition whose numbers would not fit the arrays that hold them (a house
    rule's points or pressure uses), before anything is played: numbers never wrap."""
    rounds = variant.scoring.round_limit(players) or 0  # 0: until one player is left
    most_points = variant.scoring.most_points
    largest = {
        "pressure_left": ("pressure uses", rules.pressure_uses),
        "last_points": ("points one call moves", most_points),
        "scores": ("score a game can reach", rounds * most_points),
        "round_number": ("rounds", rounds),
        "in_play": ("dice in play", rules.per_player * players),
        "players_in": ("players", players),
        "held": ("dice a player holds", rules.per_player),
    }
    for field, (what, value) in largest.items():
        top = int(np.iinfo(FIELDS[field][0]).max)
        if value > top:
            raise GameSetupError(
                f"the batch engine cannot play {variant.key!r} at {players} players: its "
                f"{what} ({value}) pass the {top} its arrays hold; play it with "
                "perudo.new_game, the reference engine"
            )
