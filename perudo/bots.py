"""Bots: the protocol any bot follows, perudo's own bots, and bots named on a command line.

A bot is driven only by its player's :class:`~perudo.view.PlayerView`: its own hand, how
many dice each player holds, the bids, and its own legal actions. Any object with an
``act(view)`` method is a bot (:class:`Bot`); so is a plain function of the view
(:class:`FunctionBot` wraps it). :func:`make_bot` makes one from a name of :data:`BOTS`, an
import path ``"package.module:Name"``, a class, a function or a bot.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import itertools
import math
import random
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeAlias

import attrs

from perudo.actions import (
    CHALLENGE,
    CHALLENGE_PRESSED,
    EXACT_CALL,
    PASS,
    Act,
    Action,
    AnyBid,
    Bid,
    Calza,
    Declare,
    Dudo,
    HandBid,
    Paso,
    bid_row,
)
from perudo.dice import count
from perudo.errors import GameSetupError, shown
from perudo.odds import chance_of, chance_table, exact_chance_of
from perudo.rules.axes import PassRule, RoundContext, RoundRules
from perudo.rules.bidding import lowest_quantities, may_change_face
from perudo.rules.calls import BidderHandChallenge

if TYPE_CHECKING:
    from perudo.view import PlayerView

__all__ = [
    "BOTS",
    "Bot",
    "BotSpec",
    "FunctionBot",
    "OddsBot",
    "RandomBot",
    "bid_reading_table",
    "bot_name",
    "expected_count",
    "hand_chances",
    "make_bot",
    "pass_chance",
    "reader_bot",
]


class Bot(Protocol):
    """What a bot does: act on its turn. A bot may also have ``interrupt(view)``, returning
    an out-of-turn call (Jonti) or ``None``; without it, it never calls out of turn. And
    it may have ``policy(view)``, the probability of each action it may take, which
    :func:`perudo.solve.exploitability` reads (perudo's own bots have one).

    The bot sees only its player's view; its action must be one of ``view.legal_actions``
    (a game between bots stops, or counts a forfeit, on any other).
    """

    def act(self, view: PlayerView) -> Action:
        """The bot's action when its player is to act."""
        ...


@attrs.frozen
class FunctionBot:
    """A plain function of the view, as a bot (never calls out of turn)."""

    function: Callable[[PlayerView], Action]

    def act(self, view: PlayerView) -> Action:
        """The function's action."""
        return self.function(view)


class RandomBot:
    """Picks uniformly among its legal actions, from its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def act(self, view: PlayerView) -> Action:
        """A random legal action."""
        return self._random.choice(view.legal_actions)

    def policy(self, view: PlayerView) -> dict[Action, Fraction]:
        """The probability of each legal action: all alike (what :meth:`act` draws from)."""
        actions = view.legal_actions
        return {action: Fraction(1, len(actions)) for action in actions}

    def interrupt(self, view: PlayerView) -> Action | None:
        """Now and then, one of its out-of-turn actions (an exact call, a re-roll) when any
        is open."""
        actions = view.legal_actions
        return self._random.choice(actions) if actions and self._random.random() < 0.05 else None


def _cheapest_bids(view: PlayerView) -> dict[int, Bid]:
    """The cheapest legal bid of each face, from the view's rules and standing bid: the first
    bid of each face among ``view.legal_actions``, without scanning them."""
    if view.must_declare or view.player is None:
        return {}
    rules = view.rules
    standing = view.bid
    assert not isinstance(standing, HandBid)  # asked where bids are quantities of a face
    lows = lowest_quantities(
        rules, standing, lambda: view.context, may_change_face(rules, view.player)
    )
    top = view.dice_in_play
    return {
        face: bid_row(face)[low]
        for face, low in ((face, lows[face]) for face in range(1, rules.faces + 1))
        if low is not None and low <= top
    }


#: A chance table: row ``face``, column ``q``, the chance of at least ``q`` counting dice.
_Table: TypeAlias = tuple[tuple[float, ...], ...]


def _independent_table(view: PlayerView) -> tuple[tuple[float, ...], ...]:
    return chance_table(view.known, view.unseen, wild=view.wild_face, faces=view.variant.dice.faces)


def bid_reading_table(view: PlayerView, *, trust: float = 0.6) -> tuple[tuple[float, ...], ...]:
    """A chance table (as :func:`perudo.odds.chance_table`) that reads the round's bids:
    each other player whose last bid was on a face is taken, with weight ``trust``, to hold
    at least one die that counts for it. Where a bidder may re-roll after the bid (Bluff),
    the bids are not read: the bidder shows what it holds by the dice it puts out, and the
    cup it re-rolls holds new dice. Counts are summed with a normal approximation of
    each seat's (truncated) binomial, from the view alone."""
    wild = view.wild_face
    me = view.player
    if view.variant.actions.out_of_turn:  # a bidder may re-roll (Bluff): its bid tells
        return _independent_table(view)  # nothing the dice it put out do not
    last_face: dict[int, int] = {}
    for placed in view.bids:
        if placed.player != me and isinstance(placed.bid, Bid):
            last_face[placed.player] = placed.bid.face
    top = view.dice_in_play + 2
    faces = view.variant.dice.faces
    table: list[tuple[float, ...]] = [()]
    for face in range(1, faces + 1):
        p = (2 if wild is not None and face != wild else 1) / faces
        own = count([view.known], face, wild=wild)
        mean = variance = 0.0
        for seat, info in enumerate(view.seats):
            k = info.dice_count - len(info.open) - (len(view.dice) if seat == me else 0)
            if k <= 0:
                continue
            m, v = k * p, k * p * (1 - p)
            if last_face.get(seat) == face:
                none = (1 - p) ** k
                mc = m / (1 - none)
                vc = (v + m * m) / (1 - none) - mc * mc
                second = trust * (vc + mc * mc) + (1 - trust) * (v + m * m)
                m = trust * mc + (1 - trust) * m
                v = second - m * m
            mean += m
            variance += v
        sd = math.sqrt(max(variance, 1e-12))
        row = [
            1.0 if q <= own else 0.5 * math.erfc((q - own - 0.5 - mean) / (sd * math.sqrt(2)))
            for q in range(top)
        ]
        table.append(tuple(row))
    return tuple(table)


def reader_bot(seed: int | None = None) -> OddsBot:
    """The ``reader`` bot: an :class:`OddsBot` whose belief reads the other players' bids
    (:func:`bid_reading_table`)."""
    return OddsBot(seed, belief=bid_reading_table, name="reader")


def expected_count(view: PlayerView, face: int) -> float:
    """How many dice showing ``face`` the player expects among all hands, from the dice they
    see (their own hand, every die in the open) and the number they cannot see."""
    wild = view.wild_face
    chance = (2 if wild is not None and face != wild else 1) / view.variant.dice.faces
    return count([view.known], face, wild=wild) + view.unseen * chance


class _Decision(NamedTuple):
    """What :class:`OddsBot` does once it does not declare: a call; or a draw among the
    likeliest cheapest bids, then either another action instead (the challenge, when even
    the best bid is unlikely) or the bid, pressed half the time where ``press``. (A named
    tuple: one is made at every decision.)"""

    call: Action | None = None
    bids: Sequence[AnyBid] = ()
    after: Action | None = None
    press: bool = False


class OddsBot:
    """Plays by the exact odds of the bids (:mod:`perudo.odds`), from its view alone.

    It calls Dudo on a bid it finds less likely than ``doubt``; makes the exact call
    (Calza, Jonti, in or out of turn) when the bid is likely enough to be exactly right;
    otherwise bids the cheapest bid of the face it finds likeliest. It spends pressure on
    sure things, and takes optional declarations half the time.

    Args:
        seed: Seeds its choices between equal options.
        doubt: Below this chance that the standing bid is true, it calls Dudo.
        exact: Above this chance that the bid is exactly right, it makes the exact call.
        belief: How it judges the unseen dice: the chance table of a view. By default
            :func:`perudo.odds.chance_table` (every unseen die independent); the ``reader``
            bot uses :func:`bid_reading_table` (the others' bids tell what they hold).
        name: Its name in reports.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        doubt: float = 0.4,
        exact: float = 0.3,
        belief: Callable[[PlayerView], tuple[tuple[float, ...], ...]] | None = None,
        name: str = "odds",
    ) -> None:
        self._random = random.Random(seed)
        self.doubt = doubt
        self.exact = exact
        self.belief = belief or _independent_table
        self.name = name

    def act(self, view: PlayerView) -> Action:
        """The bot's choice among its legal actions."""
        actions = view.legal_actions
        if view.offers and (view.must_declare or self._random.random() < 0.5):
            return self._random.choice([a for a in actions if isinstance(a, Declare)])
        decision = self._decide(view)
        if decision.call is not None:
            return decision.call
        choice = self._random.choice(decision.bids)
        if decision.after is not None:
            return decision.after
        if decision.press and self._random.random() < 0.5:
            assert isinstance(choice, Bid)  # a hand is never pressed
            return Bid(choice.quantity, choice.face, pressure=True)
        return choice

    def policy(self, view: PlayerView) -> dict[Action, Fraction]:
        """The probability of each action :meth:`act` may choose (the others are 0)."""
        declarations = [a for a in view.legal_actions if isinstance(a, Declare)]
        declared = Fraction(0)
        chances: dict[Action, Fraction] = {}
        if view.offers:
            declared = Fraction(1) if view.must_declare else Fraction(1, 2)
            chances = {a: declared / len(declarations) for a in declarations}
            if view.must_declare:
                return chances
        rest = 1 - declared
        decision = self._decide(view)
        chosen = decision.call if decision.call is not None else decision.after
        if chosen is not None:  # a call or a bid: never one of the declarations
            chances[chosen] = rest
            return chances
        each = rest / len(decision.bids)
        for bid in decision.bids:
            if decision.press and isinstance(bid, Bid):
                pressed = Bid(bid.quantity, bid.face, pressure=True)
                chances[bid] = chances[pressed] = each / 2
            else:
                chances[bid] = each
        return chances

    def _tables(self, view: PlayerView) -> tuple[_Table, _Table]:
        """The chance tables the bot judges by: the standing bid's, and its own bids'. They
        are the bot's belief, unless a challenge counts the bidder's hand alone (UO
        Outlands): then the standing bid is judged on the bidder's dice, and the bot's own
        bids on its own hand, which it sees."""
        if not isinstance(view.variant.challenge, BidderHandChallenge):
            table = self.belief(view)
            return table, table
        wild, faces = view.wild_face, view.variant.dice.faces
        own = chance_table(view.dice, 0, wild=wild, faces=faces)
        bidder = view.bidder
        if bidder is None or bidder == view.player:
            return own, own
        unseen = view.seats[bidder].dice_count
        return chance_table((), unseen, wild=wild, faces=faces), own

    def _decide(self, view: PlayerView) -> _Decision:
        """What the bot does once it does not declare (no chance drawn here)."""
        if view.variant.hand_bids:
            return self._decide_hands(view)
        actions = view.legal_actions
        table, mine = self._tables(view)
        standing = view.bid
        assert not isinstance(standing, HandBid)  # hands were decided above
        calls = actions[-4:]  # legal actions end with the calls, then any edition's own
        if view.variant.has_actions:
            calls = tuple(a for a in actions if isinstance(a, Dudo | Calza | Paso))
        if standing is not None:
            if EXACT_CALL in calls and exact_chance_of(table, standing) > self.exact:
                return _Decision(call=EXACT_CALL)
            chance = _holds(view, table)
            if chance < self.doubt:
                pressed = chance < 0.1 and CHALLENGE_PRESSED in calls
                return _Decision(call=CHALLENGE_PRESSED if pressed else CHALLENGE)
        cheapest = _cheapest_bids(view)
        if not cheapest:
            return _Decision(call=CHALLENGE if CHALLENGE in calls else actions[0])
        best = max(chance_of(mine, bid) for bid in cheapest.values())
        bids = [bid for bid in cheapest.values() if chance_of(mine, bid) == best]
        if best < 0.5 and PASS in calls and view.variant.passes.holds(view.dice, view.context):
            return _Decision(call=PASS)  # a true pass rather than a raise as likely false
        if standing is not None and best < self.doubt:
            return _Decision(bids=bids, after=CHALLENGE)
        assert view.player is not None  # a bot plays a seat, never a spectator's view
        pressure_left = view.seats[view.player].pressure_left > 0
        return _Decision(bids=bids, press=best > 0.9 and pressure_left)

    def _decide_hands(self, view: PlayerView) -> _Decision:
        """Where bids name hands (Mia): a challenge of a standing hand less likely than
        ``doubt`` (giving up instead, where the edition lets one give up and the hand looks
        likelier than not); else the edition's action before a bid (Mia's roll); else the
        best hand its own dice make, when it raises, or the lowest hand that does."""
        actions, standing = view.legal_actions, view.bid
        if standing is not None and CHALLENGE in actions:
            chance = _hand_chance(view, standing)  # type: ignore[arg-type]
            if EXACT_CALL in actions and chance > 0.5:
                return _Decision(call=EXACT_CALL)
            if chance < self.doubt:
                return _Decision(call=CHALLENGE)
        bids = [action for action in actions if isinstance(action, HandBid)]
        if not bids:  # an action first (a roll), or nothing left but the calls
            acts = [action for action in actions if isinstance(action, Act)]
            return _Decision(call=acts[0] if acts else actions[0])
        made = view.variant.claims.rank(view.dice)  # the best hand its own dice make
        mine = view.variant.hand_bids[made - 1] if made else None
        return _Decision(bids=[mine if mine in bids else bids[0]])

    def interrupt(self, view: PlayerView) -> Action | None:
        """The exact call out of turn (Jonti) when the bid looks exactly right; a challenge
        out of turn (a burst) when it looks half as likely as the bot's own doubt; after its
        own bid, Bluff's re-roll: it puts out the dice under its cup that count for its bid
        and re-rolls the others, when it holds some of each."""
        bid = view.bid
        legal = view.legal_actions
        if bid is None or not legal:
            return None
        if isinstance(bid, HandBid):  # a hand: only a challenge is ever out of turn
            doubted = CHALLENGE in legal and _hand_chance(view, bid) < self.doubt / 2
            return CHALLENGE if doubted else None
        table = self._tables(view)[0]
        if EXACT_CALL in legal and exact_chance_of(table, bid) > self.exact:
            return EXACT_CALL
        if CHALLENGE in legal and _holds(view, table) < self.doubt / 2:
            return CHALLENGE
        if view.bidder == view.player and view.variant.has_actions:
            wild = view.wild_face
            keep = tuple(die for die in view.dice if die in (bid.face, wild))
            reroll = Act("reroll", keep) if keep else None
            if reroll is not None and reroll in legal:
                return reroll
        return None


#: The most outcomes of the unseen dice :func:`_hand_chance` counts one by one; past it, it
#: judges on a fixed sample of this many.
_HAND_OUTCOMES = 4096


def _hand_chance(view: PlayerView, bid: HandBid) -> float:
    """The chance the hands a challenge of ``bid`` shows make a hand ranked at least as
    high as ``bid``'s, from the view alone: the bidder's hand where the challenge shows it
    alone (the bot's own hand, known, where it is the bidder), else every hand (the dice
    the bot sees, and the rest unseen, each face alike)."""
    variant = view.variant
    rules = view.rules
    bidder = view.bidder
    if isinstance(variant.challenge, BidderHandChallenge):
        assert bidder is not None  # asked only once a bid stands
        known = view.dice if bidder == view.player else ()
        unseen = 0 if bidder == view.player else view.seats[bidder].dice_count
    else:
        known, unseen = view.known, view.unseen
    return _held_share(rules, bid, _unseen_outcomes(unseen, variant.dice.faces), known)


def _held_share(
    rules: RoundRules, bid: HandBid, outcomes: Sequence[tuple[int, ...]], known: Sequence[int]
) -> float:
    """The share of ``outcomes`` of the unseen dice with which the dice ``known`` hold the
    hand ``bid``, as a challenge of it judges them."""
    held = sum(
        1 for rolled in outcomes if rules.hand_stands(bid, rules.hand_count(bid, (*known, *rolled)))
    )
    return held / len(outcomes)


@functools.lru_cache(maxsize=64)
def _unseen_outcomes(unseen: int, faces: int) -> tuple[tuple[int, ...], ...]:
    """What ``unseen`` dice of ``faces`` faces may show, as the odds bot weighs hands:
    every outcome, or past 4,096 of them a fixed sample of 4,096 (the same every time)."""
    if faces**unseen <= _HAND_OUTCOMES:
        return tuple(itertools.product(range(1, faces + 1), repeat=unseen))
    draw = random.Random(unseen * 1_000 + faces)
    return tuple(
        tuple(draw.randint(1, faces) for _ in range(unseen)) for _ in range(_HAND_OUTCOMES)
    )


def hand_chances(
    rules: RoundRules,
    ladder: Sequence[HandBid],
    unseen: int,
    faces: int,
    known: Sequence[int] = (),
) -> tuple[float, ...]:
    """For each rank of ``ladder`` (0 first: no hand), the chance that the dice ``known``
    and ``unseen`` dice of ``faces`` faces hold the hand of that rank, as a challenge of it
    judges them (:meth:`perudo.rules.RoundRules.hand_stands`): every outcome of the unseen
    dice counted, or a fixed sample of 4,096 past that many (the same answer every time).

    >>> import perudo
    >>> mia = perudo.load_variant("mia")
    >>> chances = hand_chances(mia.round_rules(), mia.hand_bids, 2, 6)
    >>> chances[1], chances[-1]  # any two dice make 31 or better; Mia is 2 in 36
    (1.0, 0.05555555555555555)
    """
    outcomes = _unseen_outcomes(unseen, faces)
    return (1.0, *(_held_share(rules, bid, outcomes, known) for bid in ladder))


def _holds(view: PlayerView, table: tuple[tuple[float, ...], ...]) -> float:
    """The chance the last link of the bid chain holds: a bid at least its quantity, an
    exact claim (a Bull) exactly it, a pass the passer's hand as its kind claims."""
    bid, claim = view.bid, view.claim
    assert isinstance(bid, Bid)  # asked only once a bid stands, a quantity of a face
    if claim == "pass":
        passer = view.bids[-1].player
        return pass_chance(view.variant.passes, view.seats[passer].dice_count, view.context)
    return exact_chance_of(table, bid) if claim == "exact" else chance_of(table, bid)


def pass_chance(passes: PassRule, dice: int, context: RoundContext) -> float:
    """The chance a hand of ``dice`` dice is as a pass of ``passes`` claims: from 256
    hands drawn from a fixed stream (the same answer every time), for any pass kind.

    >>> import perudo
    >>> edition = perudo.load_variant("common-hand-pass")
    >>> pass_chance(edition.passes, 1, edition.round_one((5, 5)))  # one die: never a pair
    1.0
    """
    faces = context.faces
    draw = random.Random(dice * 1_000 + faces)
    hands = [tuple(sorted(draw.randint(1, faces) for _ in range(dice))) for _ in range(256)]
    return sum(1 for hand in hands if passes.holds(hand, context)) / len(hands)


#: perudo's own bots by name, for the command line and :func:`make_bot`: each makes a bot
#: from ``seed=``.
BOTS: Mapping[str, Callable[..., Bot]] = MappingProxyType(
    {"random": RandomBot, "odds": OddsBot, "reader": reader_bot}
)

#: What :func:`make_bot` accepts: a name of :data:`BOTS`, ``"package.module:Name"``, a bot
#: class, a function of the view, or a bot.
BotSpec: TypeAlias = "str | type | Callable[[PlayerView], Action] | Bot"


def make_bot(spec: Any, seed: int | None = None, *, allow_import: bool = False) -> Bot:
    """A bot from ``spec`` (:data:`BotSpec`): a class is made with ``seed=`` when it takes
    one; a function is wrapped in :class:`FunctionBot`; a bot is used as it is.

    A name is one of :data:`BOTS`. A ``"package.module:Name"`` string imports that module,
    which runs its code: it is taken only with ``allow_import=True``, so a bot name that
    comes from a client, a form or a file can never make perudo import a module. (Pass your
    class or function itself and no import is needed.)

    Raises:
        GameSetupError: an unknown name, an import path without ``allow_import``, an import
            path that does not import, or a value that is not a bot.
    """
    if isinstance(spec, str):
        if spec in BOTS:
            return BOTS[spec](seed=seed)
        spec = _resolve(spec, allow_import=allow_import)
    if isinstance(spec, type):
        try:
            takes_seed = "seed" in inspect.signature(spec).parameters
        except (TypeError, ValueError):
            takes_seed = False
        try:
            spec = spec(seed=seed) if takes_seed else spec()
        except Exception as error:
            raise GameSetupError(
                f"bot class {spec.__name__} cannot be made: {type(error).__name__}: "
                f"{shown(str(error))}"
            ) from error
    if callable(getattr(spec, "act", None)):
        return spec  # type: ignore[no-any-return]
    if callable(spec):
        return FunctionBot(spec)
    raise GameSetupError(f"{shown(spec)} is not a bot: give an object with act(view)")


def _resolve(name: str, *, allow_import: bool) -> Any:
    if name in BOTS:
        return BOTS[name]
    module_name, colon, attribute = name.partition(":")
    if not colon or not module_name or not attribute:
        raise GameSetupError(
            f"unknown bot {shown(name)}: the bots are {', '.join(BOTS)}, or "
            "'package.module:Name' for one of your own"
        )
    if not allow_import:
        raise GameSetupError(
            f"bot {shown(name)} would import and run the module {shown(module_name)}: the "
            f"bots are {', '.join(BOTS)}; to load your own, pass allow_import=True "
            "(on the command line, --bots-from-module)"
        )
    try:
        module = importlib.import_module(module_name)
    except Exception as error:
        where = (
            f" (Python looks for it in the folders of PYTHONPATH: add the folder that holds "
            f"{module_name.split('.')[0]}.py, or its package, to PYTHONPATH)"
            if isinstance(error, ModuleNotFoundError) and error.name == module_name.split(".")[0]
            else ""
        )  # not found at all: say where it was looked for; else the module's own failure
        raise GameSetupError(
            f"bot {shown(name)} does not import: {type(error).__name__}: {shown(str(error))}{where}"
        ) from None
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise GameSetupError(f"bot {shown(name)}: {module_name} has no {attribute}") from None


def bot_name(bot: Any) -> str:
    """A bot's name for reports: its :data:`BOTS` name, its class's or its function's (the
    ``Name`` of ``"package.module:Name"``)."""
    if isinstance(bot, str):
        return bot.rpartition(":")[2]  # "package.module:Name" reads as "Name"
    named = getattr(bot, "name", None)
    if isinstance(named, str) and not isinstance(bot, type):
        return named
    for name, cls in BOTS.items():
        if type(bot) is cls or bot is cls:
            return name
    if isinstance(bot, FunctionBot):
        return getattr(bot.function, "__name__", "function")
    plain = isinstance(bot, type) or (callable(bot) and not hasattr(bot, "act"))
    target = bot if plain else type(bot)
    return str(getattr(target, "__qualname__", getattr(target, "__name__", repr(target))))
