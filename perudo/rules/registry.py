"""The kinds each axis may use: perudo's own, and any registered from outside perudo.

A kind is an attrs class (frozen, so its values hash) with class attributes ``axis`` and
``kind``, its parameters declared with :func:`perudo.rules.base.param`, and the methods of
its axis's protocol (:mod:`perudo.rules.axes`). :func:`register_kind` makes it usable from
a TOML declaration (``kind = "..."``), from :meth:`perudo.Variant.derive`, and everywhere
an edition goes. A package can also offer kinds through the entry-point group
``perudo.rules`` (each entry point names a class); they are loaded the first time a kind is
looked up.
"""

from __future__ import annotations

import functools
import inspect
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from importlib.metadata import entry_points
from types import MappingProxyType
from typing import Any, TypeVar

import attrs

from perudo.actions import MAX_FACES, Act, Bid, Dudo
from perudo.errors import IllegalActionError, InvalidVariantError, PerudoError, shown
from perudo.players import PlacedBid
from perudo.rules import (
    acts,
    bidding,
    calls,
    claims,
    clock,
    passes,
    scoring,
    special,
    table,
    turns,
)
from perudo.rules.axes import (
    AXES,
    PROTOCOLS,
    CallContext,
    RoundContext,
    RoundRules,
    SettledCall,
    optional,
)
from perudo.rules.base import ActEffect, RoundStart, Violation, Words
from perudo.rules.bidding import HalveDouble, Opening, QuantityOrFace, WildOnes
from perudo.rules.clock import MAX_SECONDS
from perudo.rules.turns import TURN_ROLES

__all__ = [
    "ENTRY_POINT_GROUP",
    "KindRegistry",
    "check_component",
    "name_failures",
    "register_kind",
    "rule_kinds",
]

#: The entry-point group through which installed packages offer rule kinds.
ENTRY_POINT_GROUP = "perudo.rules"

_KIND = re.compile(r"[a-z0-9][a-z0-9-]{0,39}", re.ASCII)
# perudo's own kinds: every component class of the kinds' modules, in their order.
_BUILT_IN: tuple[type, ...] = tuple(
    value
    for module in (table, claims, bidding, calls, turns, passes, special, acts, scoring, clock)
    for value in vars(module).values()
    if isinstance(value, type)
    and attrs.has(value)
    and hasattr(value, "axis")
    and value.__module__ == module.__name__
)
_T = TypeVar("_T", bound=type)


class KindRegistry:
    """The kinds of every axis. Use the module's :func:`register_kind` and
    :func:`rule_kinds`; this class is the one place the table lives (guarded by a lock)."""

    def __init__(self, built_in: Sequence[type]) -> None:
        self._lock = threading.Lock()
        self._kinds: dict[str, dict[str, type]] = {axis: {} for axis in AXES}
        self._loaded_entry_points = False
        self.built_in: frozenset[type] = frozenset(built_in)
        for cls in built_in:
            self._add(cls)

    def register(self, cls: _T) -> _T:
        """Check ``cls`` and make it a kind of its axis. Registering it again, or a class of
        the same module and name (its module run again), replaces the registration."""
        with self._lock:
            self._add(cls)
        return cls

    def kinds(self, axis: str) -> Mapping[str, type]:
        """The kinds of ``axis``, by name (entry points loaded first)."""
        self._load_entry_points()
        return MappingProxyType(self._kinds[axis])

    def _add(self, cls: type) -> None:
        name = getattr(cls, "__name__", repr(cls))
        axis, kind = getattr(cls, "axis", None), getattr(cls, "kind", None)
        if not isinstance(cls, type) or not attrs.has(cls):
            raise InvalidVariantError(f"rule kind {shown(name)} is not an attrs class")
        if axis not in AXES:
            raise InvalidVariantError(
                f"rule kind {name}: axis {shown(axis)} is not one of {', '.join(AXES)}"
            )
        if "kind" not in vars(cls):  # a subclass of a kind, which inherits its kind
            raise InvalidVariantError(
                f"rule kind {name} inherits the kind {shown(kind)} of its base: give it its "
                f'own, as a class attribute (kind = "{_kind_name(name)}")'
            )
        if not isinstance(kind, str) or _KIND.fullmatch(kind) is None:
            raise InvalidVariantError(f"rule kind {name}: kind {shown(kind)} is not a kind name")
        if getattr(cls, "__hash__", None) is None:
            raise InvalidVariantError(f"rule kind {kind!r}: its values must be frozen (hashable)")
        missing = [member for member in _members(PROTOCOLS[axis]) if not hasattr(cls, member)]
        missing += [f.name for f in attrs.fields(cls) if "type" not in f.metadata]
        if missing:
            raise InvalidVariantError(
                f"rule kind {kind!r} ({axis}) lacks {', '.join(missing)}: see the protocol "
                f"perudo.rules.{PROTOCOLS[axis].__name__} (parameters are declared with param())"
            )
        unbounded = [
            f.name
            for f in attrs.fields(cls)
            if f.metadata["type"] in (int, tuple)
            and f.metadata["choices"] is None
            and (f.metadata["minimum"] is None or f.metadata["maximum"] is None)
        ]
        if unbounded:
            raise InvalidVariantError(
                f"rule kind {kind!r} ({axis}): the whole-number parameter "
                f"{', '.join(unbounded)} needs a minimum and a maximum "
                "(param(int, minimum=..., maximum=...)), so no declaration can hold a number "
                "the engines cannot"
            )
        known = self._kinds[axis].get(kind)
        same_place = known is not None and (known.__module__, known.__qualname__) == (
            cls.__module__,
            cls.__qualname__,
        )  # the same class, defined again (a module run again, a notebook cell)
        if known is not None and known is not cls and not same_place:
            raise InvalidVariantError(f"rule kind {kind!r} of {axis} is already {known.__name__}")
        if not (vars(cls).get("__doc__") or "").strip():
            raise InvalidVariantError(
                f"rule kind {kind!r} ({name}) has no docstring: add one, whose first paragraph "
                "says the rule as a player reads it (the rules' prose and the docs show it)"
            )
        if cls not in self.built_in:
            name_failures(cls)
        self._kinds[axis][kind] = cls

    def _load_entry_points(self) -> None:
        if self._loaded_entry_points:
            return
        with self._lock:
            if self._loaded_entry_points:
                return
            self._loaded_entry_points = True
            for point in entry_points(group=ENTRY_POINT_GROUP):
                try:
                    cls = point.load()
                except Exception as error:
                    raise InvalidVariantError(
                        f"entry point {point.name!r} of {ENTRY_POINT_GROUP} does not load: "
                        f"{type(error).__name__}: {shown(str(error))}"
                    ) from error
                self._add(cls)


def _kind_name(class_name: str) -> str:
    """A kind name for a class named ``class_name``: ``MyWilds`` -> ``my-wilds``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "-", class_name).lower() or "my-kind"


def _members(protocol: type) -> list[str]:
    """The attributes and methods a protocol asks for (its own and its bases')."""
    names: set[str] = set()
    for base in protocol.__mro__:
        if base in (object,) or base.__module__ == "typing" or base.__name__ == "Generic":
            continue
        names.update(getattr(base, "__annotations__", {}))
        names.update(name for name in vars(base) if not name.startswith("_"))
    return sorted(names)


def name_failures(cls: type) -> None:
    """Make each method of ``cls``'s protocol (a kind written outside perudo) name the
    kind when it raises: an :class:`~perudo.InvalidVariantError` saying which kind broke
    its protocol, with the error as its cause, never a crash inside the engine. Done once
    per class, when it is registered or an edition is made with it; perudo's own kinds
    are never wrapped, so they cost nothing."""
    axis: str = cls.axis  # type: ignore[attr-defined]
    for member in [*_members(PROTOCOLS[axis]), "describe", "label"]:
        found = inspect.getattr_static(cls, member, None)
        inherited = member not in vars(cls)  # a method of a base: the class does not change it
        if isinstance(found, property) and found.fget is not None:
            if not getattr(found.fget, "names_failures", False):
                setattr(cls, member, property(_naming(member, found.fget, inherited)))
        elif inspect.isfunction(found) and not getattr(found, "names_failures", False):
            setattr(cls, member, _naming(member, found, inherited))


def wraps_inherited(value: Any) -> bool:
    """Whether ``value``, found in a kind's own class, is only :func:`name_failures`'s
    wrapper of a method it inherits (so the class does not change that method)."""
    function = value.fget if isinstance(value, property) else value
    return bool(getattr(function, "wraps_inherited", False))


def _naming(member: str, method: Callable[..., Any], inherited: bool) -> Callable[..., Any]:
    @functools.wraps(method)
    def named(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except PerudoError:
            raise
        except Exception as error:
            raise InvalidVariantError(
                f"rule kind {self.axis}:{self.kind} broke its protocol: {member} raised "
                f"{type(error).__name__}: {shown(str(error))}"
            ) from error

    named.names_failures = True  # type: ignore[attr-defined]
    named.wraps_inherited = inherited  # type: ignore[attr-defined]
    return named


_REGISTRY = KindRegistry(_BUILT_IN)


def register_kind(cls: _T) -> _T:
    """Make the rule kind ``cls`` usable everywhere: in TOML declarations (``kind =
    "..."``), :meth:`~perudo.Variant.derive`, ``perudo rules``, the comparisons and the
    adapters. Use it as a class decorator.

    Raises:
        InvalidVariantError: ``cls`` is not a frozen attrs class with ``axis`` and ``kind``,
            lacks a method of its axis's protocol or a declared parameter, or its kind name
            is taken by another class.
    """
    return _REGISTRY.register(cls)


def rule_kinds(axis: str) -> Mapping[str, type]:
    """The kinds ``axis`` may use, by name: perudo's own and those registered.

    >>> sorted(rule_kinds("raising"))
    ['face-or-quantity', 'monotone', 'quantity-or-face', 'ranked-faces']
    """
    if axis not in AXES:
        raise KeyError(f"{shown(axis)} is not an axis: the axes are {', '.join(AXES)}")
    return _REGISTRY.kinds(axis)


def is_built_in(cls: type) -> bool:
    """Whether ``cls`` is one of perudo's own kinds."""
    return cls in _REGISTRY.built_in


# --- the protocol check of a registered kind --------------------------------------------

_BID = Bid(2, 3)
_HANDS = ((1, 3, 3), (2, 5), (3, 6, 6))


def check_component(component: Any, words: Words, dice: int) -> None:
    """Call each method of a registered component once with ordinary values and check what
    it returns, so a kind that breaks its protocol is refused when its edition is made.

    Raises:
        InvalidVariantError: a method raises or returns a value of the wrong type; the
            message names the kind and the method.
    """
    axis, kind = component.axis, component.kind
    for method, call, ok in [*_CHECKS[axis], *_TOLD]:  # every axis has its checks
        try:
            value = call(component, words, dice)
        except Exception as error:
            cause = error.__cause__ if isinstance(error, InvalidVariantError) else None
            raised = cause if isinstance(cause, Exception) else error  # a named failure's own
            raise InvalidVariantError(
                f"rule kind {kind!r} ({axis}): {method} raised {type(raised).__name__}: "
                f"{shown(str(raised))}"
            ) from error
        if not ok(value):
            raise InvalidVariantError(
                f"rule kind {kind!r} ({axis}): {method} returned {shown(value)}, which breaks "
                f"the protocol perudo.rules.{PROTOCOLS[axis].__name__}"
            )


def _is_int(value: Any) -> bool:
    return type(value) is int


def _is_act_word(word: str) -> bool:
    try:
        Act(word)
    except IllegalActionError:
        return False
    return True


def _is_seat_tuple(size: int) -> Callable[[Any], bool]:
    return lambda value: (
        isinstance(value, tuple) and len(value) == size and all(map(_is_int, value))
    )


def _is_shown_and_counted(value: Any) -> bool:
    """A call's ``reveal_hands`` answer at the three seats of the probe: the seats shown,
    each once, and a count."""
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and isinstance(value[0], tuple)
        and all(seat in (0, 1, 2) for seat in value[0])
        and len(set(value[0])) == len(value[0])
        and _is_int(value[1])
        and value[1] >= 0
    )


_BIDS = (PlacedBid(1, Bid(1, 3)), PlacedBid(2, _BID))
_TIMED = (Bid(3, 4), Bid(4, 2), Dudo())  # legal actions a clock kind chooses among
_SHOWN = ((1, 3, 3), (2, 5), (3, 6, 6))


def _rules() -> RoundRules:
    return RoundRules(
        wilds=WildOnes(),
        raising=QuantityOrFace(),
        conversion=HalveDouble(),
        opening=Opening("forbidden"),
        cap=False,
    )


def _context(words: Words, dice: int, bids: tuple[PlacedBid, ...] = _BIDS) -> RoundContext:
    """An ordinary round of three seats: seat 2 bid 2x3 after seat 1's 1x3, seat 0 to act."""
    return RoundContext(
        words=words,
        faces=6,
        dice_per_player=dice,
        dice=(3, 2, 3),
        round_number=1,
        to_act=0,
        bids=bids,
        rules=_rules(),
        scores=(0, 0, 0),
        starting=(dice,) * 3,
    )


def _standing_bid_only(component: Any, words: Words, dice: int) -> bool:
    """Whether a kind that says it answers from the standing bid alone (its own class's
    ``standing_bid_only``) does: the same answers on a round that differs in everything
    else (seats, dice, scores, earlier bids, the round). True for a kind that does not
    say so."""
    if not vars(type(component)).get("standing_bid_only", False):
        return True
    other = attrs.evolve(
        _context(words, dice, (PlacedBid(0, Bid(1, 5)), PlacedBid(1, Bid(1, 6)), _BIDS[-1])),
        dice=(1, 4, 2, 5),
        to_act=3,
        round_number=4,
        scores=(2, 0, 1, 0),
        starting=(dice,) * 4,
    )
    if component.axis == "opening":  # asked before any bid: the face alone
        other = attrs.evolve(other, bids=())
    first = _context(words, dice, () if component.axis == "opening" else _BIDS)
    asked = [(face, context) for face in range(1, 7) for context in (first, other)]
    answers = [component.lowest(face, context) for face, context in asked]
    return answers[0::2] == answers[1::2]


def _called(words: Words, dice: int, call: Any, count: int) -> CallContext:
    """That round, called by seat 0 with ``call`` and counted ``count``."""
    asked = _fields(_context(words, dice), RoundContext)
    asked["to_act"] = None  # a call ends the turns
    return CallContext(**asked, call=call, caller=0, pressured=False, shown=_SHOWN, count=count)


def _settled(words: Words, dice: int, call: Any, changes: tuple[int, ...]) -> SettledCall:
    """That call (counted 2) settled with ``changes``."""
    called = _called(words, dice, call, 2)
    asked = _fields(called, CallContext)
    after = tuple(n + c for n, c in zip(called.dice, changes, strict=True))
    return SettledCall(**asked, changes=changes, points=(0, 0, 0), after=after)


def _fields(value: Any, cls: type) -> dict[str, Any]:
    """``value``'s fields of ``cls`` (a class it derives from), by name: the context a
    richer one is built on."""
    return {field.name: getattr(value, field.name) for field in attrs.fields(cls)}


_CALLED = [("challenge", 1), ("challenge", 2), ("challenge", 3), ("exact", 2), ("exact", 1)]
_SETTLED = [
    ("challenge", (0, 0, -1)), ("challenge", (-1, 0, 0)), ("exact", (1, 0, 0)),
    ("exact", (-1, 0, 0)), ("exact", (0, -1, -1)), ("challenge", (0, 0, 0)), ("time", (-1, 0, 0)),
]  # fmt: skip


_Check = tuple[str, Callable[[Any, Words, int], Any], Callable[[Any], bool]]
_STANDING_BID_ONLY: _Check = (
    "standing_bid_only (the same answers on the same standing bid)",
    _standing_bid_only,
    lambda v: v,
)
_TOLD: tuple[_Check, ...] = (
    ("describe", lambda c, w, d: c.describe(w, d), lambda v: isinstance(v, str)),
    ("label", lambda c, w, d: c.label(w), lambda v: isinstance(v, str)),
)
_CHECKS: Mapping[str, list[_Check]] = MappingProxyType({
    "players": [
        ("min", lambda c, w, d: c.min, lambda v: _is_int(v) and 2 <= v <= 20),
        ("max", lambda c, w, d: c.max, lambda v: _is_int(v) and 2 <= v <= 20),
    ],
    "dice": [
        ("per_player", lambda c, w, d: c.per_player, lambda v: _is_int(v) and 1 <= v <= 20),
        ("faces", lambda c, w, d: c.faces, lambda v: _is_int(v) and 2 <= v <= MAX_FACES),
    ],
    "claims": [
        ("rank", lambda c, w, d: [c.rank(hand) for hand in _HANDS],
         lambda v: all(_is_int(x) and x >= 0 for x in v)),
    ],
    "wilds": [
        ("wild_face", lambda c, w, d: [c.wild_face(_context(w, d, bids)) for bids in ((), _BIDS)],
         lambda v: all(x is None or (_is_int(x) and 1 <= x <= MAX_FACES) for x in v)),
    ],
    "raising": [
        ("lowest", lambda c, w, d: [c.lowest(face, _context(w, d)) for face in range(1, 7)],
         lambda v: all(x is None or (_is_int(x) and x >= 1) for x in v)),
        ("explain", lambda c, w, d: c.explain(Bid(1, 2), _context(w, d)),
         lambda v: isinstance(v, Violation)),
        ("times_per_bid", lambda c, w, d: c.times_per_bid,
         lambda v: v is None or (_is_int(v) and v >= 1)),
        _STANDING_BID_ONLY,
    ],
    "conversion": [
        ("lowest", lambda c, w, d: [c.lowest(face, _context(w, d)) for face in range(1, 7)],
         lambda v: all(x is None or (_is_int(x) and x >= 1) for x in v)),
        _STANDING_BID_ONLY,
    ],
    "opening": [
        ("lowest", lambda c, w, d: [c.lowest(face, _context(w, d, ())) for face in range(1, 7)],
         lambda v: all(x is None or (_is_int(x) and 1 <= x <= 8) for x in v)
         and v.count(None) < len(v)),
        ("explain", lambda c, w, d: c.explain(Bid(1, 2), _context(w, d, ())),
         lambda v: isinstance(v, Violation)),
        ("standing_bid_only (the same answers on every opening)", _standing_bid_only,
         lambda v: v),
    ],
    "cap": [("caps", lambda c, w, d: c.caps, lambda v: type(v) is bool)],
    "turns": [
        ("out_of_turn", lambda c, w, d: c.out_of_turn,
         lambda v: isinstance(v, tuple) and all(role in TURN_ROLES for role in v)
         and len(set(v)) == len(v)),
        ("check", lambda c, w, d: [c.check(role, 1, _context(w, d)) for role in c.out_of_turn],
         lambda v: all(x is None or isinstance(x, Violation) for x in v)),
    ],
    "challenge": [
        ("reveal_hands", lambda c, w, d: c.reveal_hands(_HANDS, 0, _context(w, d)),
         _is_shown_and_counted),
    ],
    "exact_call": [
        ("offered", lambda c, w, d: c.offered, lambda v: type(v) is bool),
        ("out_of_turn", lambda c, w, d: c.out_of_turn, lambda v: type(v) is bool),
        ("check", lambda c, w, d: c.check(0, _context(w, d)),
         lambda v: v is None or isinstance(v, Violation)),
        ("reveal_hands", lambda c, w, d: c.reveal_hands(_HANDS, 0, _context(w, d)),
         _is_shown_and_counted),
        ("settle", lambda c, w, d: [c.settle(_called(w, d, "exact", n)) for n in (2, 1)],
         lambda v: all(_is_seat_tuple(3)(x) for x in v)),
    ],
    "clock": [
        ("seconds", lambda c, w, d: c.seconds,
         lambda v: v is None or (_is_int(v) and 1 <= v <= MAX_SECONDS)),
        ("timeout_move", lambda c, w, d: c.timeout_move(_TIMED, _context(w, d)),
         lambda v: v is None or v in _TIMED),
        ("forfeit", lambda c, w, d: optional(c, "forfeit") and c.forfeit(_called(w, d, "time", 0)),
         lambda v: v is None or _is_seat_tuple(3)(v)),
    ],
    "passes": [
        ("offered", lambda c, w, d: c.offered, lambda v: type(v) is bool),
        ("most_per_round", lambda c, w, d: c.most_per_round,
         lambda v: _is_int(v) and 0 <= v <= 20),
        ("check", lambda c, w, d: c.check(0, _context(w, d)),
         lambda v: v is None or isinstance(v, Violation)),
        ("holds", lambda c, w, d: c.holds((1, 2, 2), _context(w, d)), lambda v: type(v) is bool),
    ],
    "special_round": [
        ("declarations", lambda c, w, d: c.declarations,
         lambda v: isinstance(v, tuple) and all(x in ("special", "ordinary") for x in v)),
        ("offered", lambda c, w, d: c.offered, lambda v: type(v) is bool),
        ("once_per_player", lambda c, w, d: c.once_per_player, lambda v: type(v) is bool),
        ("start", lambda c, w, d: c.start(
            _settled(w, d, "challenge", (0, -1, 0)), had=(False,) * 3, owed=()),
         lambda v: isinstance(v, RoundStart)),
        ("transform", lambda c, w, d: c.transform(_rules(), 1, _context(w, d, ())),
         lambda v: isinstance(v, RoundRules)),
    ],
    "actions": [
        ("words", lambda c, w, d: c.words, lambda v: isinstance(v, tuple) and all(
            isinstance(x, str) and _is_act_word(x) for x in v)),
        ("out_of_turn", lambda c, w, d: c.out_of_turn, lambda v: type(v) is bool),
        ("moves", lambda c, w, d: [c.moves(seat, hand, _context(w, d)) for seat, hand in
                                    enumerate(_HANDS)],
         lambda v: all(isinstance(x, tuple) and all(isinstance(a, Act) for a in x) for x in v)),
        ("check", lambda c, w, d: [c.check(Act(word, (3,)), 2, _HANDS[2], _context(w, d))
                                   for word in c.words],
         lambda v: all(x is None or isinstance(x, Violation) for x in v)),
        ("effect", lambda c, w, d: [
            c.effect(act, seat, hand, _context(w, d))
            for seat, hand in enumerate(_HANDS) for act in c.moves(seat, hand, _context(w, d))
        ], lambda v: all(isinstance(x, ActEffect) for x in v)),
        ("every_move", lambda c, w, d: c.every_move(3, 6),
         lambda v: isinstance(v, tuple) and all(isinstance(a, Act) for a in v)),
    ],
    "starter": [
        ("next_opener", lambda c, w, d: [
            c.next_opener(_settled(w, d, call, changes)) for call, changes in _SETTLED
        ], lambda v: all(x in (0, 1, 2) for x in v)),
    ],
    "first_player": [
        ("drawn", lambda c, w, d: c.drawn, lambda v: type(v) is bool),
        ("first", lambda c, w, d: c.first(7, _context(w, d, ())), lambda v: v in (0, 1, 2)),
    ],
    "scoring": [
        ("moves_dice", lambda c, w, d: c.moves_dice, lambda v: type(v) is bool),
        ("pressure_uses", lambda c, w, d: c.pressure_uses, lambda v: _is_int(v) and v >= 0),
        ("most_points", lambda c, w, d: c.most_points, lambda v: _is_int(v) and v >= 0),
        ("settle", lambda c, w, d: [c.settle(_called(w, d, call, n)) for call, n in _CALLED[:3]],
         lambda v: all(_is_seat_tuple(3)(x) for x in v)),
        ("zero_sum", lambda c, w, d: (c.zero_sum, c.moves_dice, [
            c.settle(_called(w, d, call, n)) for call, n in _CALLED[:3]]),
         lambda v: type(v[0]) is bool and (not v[0] or v[1] or all(sum(x) == 0 for x in v[2]))),
        ("is_over", lambda c, w, d: c.is_over(_settled(w, d, "challenge", (0, 0, -1))),
         lambda v: type(v) is bool),
        ("round_limit", lambda c, w, d: c.round_limit(3), lambda v: v is None or _is_int(v)),
        ("winners", lambda c, w, d: c.winners(_context(w, d)),
         lambda v: isinstance(v, tuple) and all(x in (0, 1, 2) for x in v)),
    ],
})  # fmt: skip
