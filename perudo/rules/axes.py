"""The axes of the rules, and the protocol a component of each axis follows.

An edition picks one component per axis. A component is a small frozen value (an attrs
class, whose fields are the parameters a declaration sets) with two class attributes,
``axis`` and ``kind``; two methods that tell it to people,
:meth:`~perudo.rules.Component.describe` and :meth:`~perudo.rules.Component.label`; and
the methods of its axis below, which the engine calls. A kind written outside perudo
follows the same protocol (mypy checks it) and is made known with
:func:`perudo.rules.register_kind`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Protocol, runtime_checkable

import attrs

from perudo.actions import Bid
from perudo.rules.base import RoundStart, Violation, Words
from perudo.rules.context import CallContext, RoundContext

__all__ = [
    "AXES",
    "AXIS_TITLES",
    "PROTOCOLS",
    "CapRule",
    "ChallengeRule",
    "Component",
    "ConversionRule",
    "DiceRule",
    "ExactCallRule",
    "FirstPlayerRule",
    "OpeningRule",
    "PlayerCountRule",
    "RaisingRule",
    "RoundRules",
    "ScoringRule",
    "SpecialRoundRule",
    "StarterRule",
    "WildsRule",
]

#: The axes every edition declares, in the order they are shown.
AXES = (
    "players",
    "dice",
    "wilds",
    "raising",
    "conversion",
    "opening",
    "cap",
    "challenge",
    "exact_call",
    "special_round",
    "starter",
    "first_player",
    "scoring",
)

#: Each axis's title, as the prose, the docs and the command line show it.
AXIS_TITLES: Mapping[str, str] = MappingProxyType(
    {
        "players": "Players",
        "dice": "Dice",
        "wilds": "Wild dice",
        "raising": "Raise order",
        "conversion": "To/from ones",
        "opening": "Opening ones",
        "cap": "Quantity cap",
        "challenge": "Challenge",
        "exact_call": "Exact call",
        "special_round": "One-die round",
        "starter": "Next round",
        "first_player": "First player",
        "scoring": "End, scoring",
    }
)


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
    """``dice``: six-sided dice, ``per_player`` in each hand at the start."""

    @property
    def per_player(self) -> int: ...


class WildsRule(Component, Protocol):
    """``wilds``: which face, if any, counts for every other face."""

    def wild_face(self, opening: Bid | None) -> int | None:
        """The wild face of a round whose first bid is ``opening`` (``None`` before it),
        or ``None`` when no face is wild."""
        ...


class RaisingRule(Component, Protocol):
    """``raising``: the raise order."""

    def lowest(self, standing: Bid, face: int) -> int | None:
        """The lowest quantity of ``face`` that raises ``standing``; ``None`` if none does."""
        ...

    def explain(self, standing: Bid, bid: Bid) -> Violation:
        """Why ``bid``, known not to raise ``standing``, is refused."""
        ...


class ConversionRule(Component, Protocol):
    """``conversion``: how a bid moves onto and off ones, where that differs from the raise
    order."""

    def lowest(self, standing: Bid, face: int) -> int | None:
        """The lowest quantity of ``face`` after ``standing`` when this rule decides it;
        ``None`` to leave it to the raise order."""
        ...

    def explain(self, standing: Bid, bid: Bid) -> Violation:
        """Why ``bid``, known to be too low by this rule, is refused."""
        ...


@attrs.frozen(cache_hash=True)
class RoundRules:
    """The bidding rules in force for one round, after any special round's transform.

    Attributes:
        wilds: The edition's wild dice, or ``None`` when no face is wild this round.
        raising: The raise order.
        conversion: How bids move onto and off ones.
        opening: ``"forbidden"``, ``"allowed"`` or ``"required"``: bids on ones at the opening.
        cap: Whether quantities are capped at the dice in play.
        face_lock: Whether the face of the standing bid is locked.
        face_changers: Seats that may change a locked face.
        special: The special round's name (``"palifico"`` ...), for messages.
    """

    wilds: WildsRule | None
    raising: RaisingRule
    conversion: ConversionRule
    opening: str
    cap: bool
    face_lock: bool = False
    face_changers: frozenset[int] = frozenset()
    special: str | None = None

    def wild_face(self, opening: Bid | None) -> int | None:
        """The wild face of this round once ``opening`` is its first bid (``None``
        before), or ``None`` when no face is wild."""
        return None if self.wilds is None else self.wilds.wild_face(opening)

    @property
    def wild_ones(self) -> bool:
        """Whether ones are wild as the round opens."""
        return self.wild_face(None) == 1

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: components by kind."""
        return {
            "wild_face": self.wild_face(None),
            "wild_ones": self.wild_ones,
            "raising": self.raising.kind,
            "conversion": self.conversion.kind,
            "opening": self.opening,
            "cap": self.cap,
            "face_lock": self.face_lock,
            "face_changers": sorted(self.face_changers),
        }


class OpeningRule(Component, Protocol):
    """``opening``: bids on ones at the opening."""

    @property
    def ones(self) -> str:
        """``"forbidden"``, ``"allowed"`` or ``"required"``."""
        ...


class CapRule(Component, Protocol):
    """``cap``: whether a bid's quantity is capped at the dice in play."""

    @property
    def caps(self) -> bool: ...


class ChallengeRule(Component, Protocol):
    """``challenge`` (Dudo): which hands are shown and what they count."""

    def reveal_hands(
        self, hands: Sequence[Sequence[int]], order: Sequence[int], bid: Bid, *, wild: int | None
    ) -> tuple[tuple[int, ...], int]:
        """The seats that show their hands, in ``order`` (from the challenger's left, the
        challenger last), and the count of ``bid``'s face among them."""
        ...


class ExactCallRule(Component, Protocol):
    """``exact_call`` (Calza, Jonti): who may claim the standing bid is exactly right, and
    what it costs or earns."""

    @property
    def out_of_turn(self) -> bool:
        """Whether a seat other than the player to act may make it."""
        ...

    def may_open(self, players_in: int) -> bool:
        """A quick necessary condition for :meth:`check` to pass."""
        ...

    def check(self, player: int, context: RoundContext) -> Violation | None:
        """``None`` if ``player`` may make the call against the standing bid now (the
        context has a standing bid; its words name the call, ``context.words.calza``)."""
        ...

    def settle(
        self, *, right: bool, caller: int, counts: Sequence[int], full: int
    ) -> tuple[int, ...]:
        """The change of every seat's dice (``counts`` is every seat's dice now; ``full``
        the edition's dice per player) after a call that was ``right`` or not."""
        ...


class SpecialRoundRule(Component, Protocol):
    """``special_round``: a round played under other rules (Palifico and its kin)."""

    @property
    def declarations(self) -> tuple[str, ...]:
        """The roles a :class:`~perudo.Declare` can take in this edition, in the order
        offered (``"special"``, ``"ordinary"``)."""
        ...

    @property
    def once_per_player(self) -> bool: ...

    def start(self, *, dropped: int | None, players_in: int, used: bool) -> RoundStart:
        """How the next round starts when ``dropped`` (or nobody) just fell to one die;
        ``used`` says whether that player already had the special round."""
        ...

    def transform(
        self, rules: RoundRules, *, opener: int, one_die_seats: Sequence[int], name: str
    ) -> RoundRules:
        """The rules of the special round ``name``, opened by ``opener``."""
        ...


class StarterRule(Component, Protocol):
    """``starter``: who opens the next round."""

    def next_opener(self, context: CallContext) -> int:
        """The seat that opens the next round, a seat still in: the context is the round
        just settled (its ``call``, ``caller``, ``count``, ``loser`` and ``called`` bid),
        with every seat's dice after the call."""
        ...


class FirstPlayerRule(Component, Protocol):
    """``first_player``: who opens the game."""

    @property
    def drawn(self) -> bool:
        """Whether chance decides, as in a roll-off. Adapters then show a chance event."""
        ...

    def first(self, seed: int, seats: Sequence[int]) -> int:
        """The seat among ``seats`` that opens round 1 of the game with ``seed``."""
        ...


class ScoringRule(Component, Protocol):
    """``scoring``: what a lost call costs, when the game ends and who wins."""

    @property
    def moves_dice(self) -> bool:
        """Whether calls move dice (else they move points)."""
        ...

    @property
    def pressure_uses(self) -> int:
        """Pressure uses each player has for the game (WANGO party mode)."""
        ...

    def points_for(self, *, pressured: bool) -> int:
        """Points a challenge moves from its loser to its winner."""
        ...

    def penalty(self, *, bid: Bid, count: int, held: int) -> int:
        """Dice the loser of a challenge on ``bid`` loses when ``count`` dice were shown
        and the loser holds ``held``."""
        ...

    def is_over(self, dice_counts: Sequence[int], *, rounds_played: int) -> bool:
        """Whether the game has ended."""
        ...

    def round_limit(self, players: int) -> int | None:
        """The most rounds a game of ``players`` can last, when the scoring fixes it."""
        ...

    def winners(self, dice_counts: Sequence[int], scores: Sequence[int]) -> tuple[int, ...]:
        """The winning seats of a game that has ended."""
        ...


#: The protocol of each axis.
PROTOCOLS: Mapping[str, type] = MappingProxyType(
    {
        "players": PlayerCountRule,
        "dice": DiceRule,
        "wilds": WildsRule,
        "raising": RaisingRule,
        "conversion": ConversionRule,
        "opening": OpeningRule,
        "cap": CapRule,
        "challenge": ChallengeRule,
        "exact_call": ExactCallRule,
        "special_round": SpecialRoundRule,
        "starter": StarterRule,
        "first_player": FirstPlayerRule,
        "scoring": ScoringRule,
    }
)
