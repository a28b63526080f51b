"""Special one-die rounds: Palifico, Palafico, Calzone.

A special round is a transform: given the edition's ordinary round rules it returns the
rules of the special round, so no other component needs a "but in Palifico..." branch.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import ClassVar, TypeAlias

import attrs

from perudo.rules.base import param
from perudo.rules.bidding import OPENING_ONES, NoConversion, RoundRules

__all__ = [
    "FACE_CHANGE",
    "SPECIAL_NAMES",
    "TWO_PLAYERS",
    "NoSpecialRound",
    "OneDieRound",
    "RoundStart",
    "SpecialRound",
]

SPECIAL_NAMES = ("palifico", "palafico", "calzone")
TWO_PLAYERS = ("same", "off", "choice")
FACE_CHANGE = ("nobody", "one-die", "one-die-except-opener")


@attrs.frozen
class RoundStart:
    """How a round begins.

    Attributes:
        special: The special round in force from the start, or ``None``.
        offers: Declarations the opener may make before the first bid.
        must_declare: Whether the opener must declare before bidding.
        uses_special: Whether this start spends the opener's once-per-game special round.
    """

    special: str | None = None
    offers: tuple[str, ...] = ()
    must_declare: bool = False
    uses_special: bool = False


ORDINARY = RoundStart()


@attrs.frozen
class NoSpecialRound:
    """Every round is ordinary."""

    kind: ClassVar[str] = "none"
    name: ClassVar[str | None] = None
    declarations: ClassVar[tuple[str, ...]] = ()

    def start(self, *, dropped: int | None, players_in: int, used: bool) -> RoundStart:
        """Always an ordinary round."""
        return ORDINARY

    def transform(
        self, rules: RoundRules, *, opener: int, one_die_seats: Iterable[int]
    ) -> RoundRules:
        """The rules unchanged."""
        return rules


@attrs.frozen
class OneDieRound:
    """A round after a player drops to one die, in which ones are not wild, there is no
    conversion and the face is locked.

    Attributes:
        name: ``"palifico"``, ``"palafico"`` or ``"calzone"``.
        once_per_player: Whether each player has it at most once per game.
        two_players: With two players still in: ``"same"`` (as with more), ``"off"`` (never)
            or ``"choice"`` (the player declares ``name`` or ``"ordinary"`` before any bid).
        optional: Whether the player opts in with ``Declare(name)``; bidding declines it.
        opening: Bids on ones at the opening: ``"forbidden"``, ``"allowed"`` or ``"required"``.
        face_change: Who may change the locked face: ``"nobody"``, ``"one-die"`` (anyone
            holding one die) or ``"one-die-except-opener"``.
    """

    kind: ClassVar[str] = "one-die-round"
    name: str = param(str, choices=SPECIAL_NAMES)
    once_per_player: bool = param(bool)
    two_players: str = param(str, choices=TWO_PLAYERS)
    optional: bool = param(bool)
    opening: str = param(str, choices=OPENING_ONES)
    face_change: str = param(str, choices=FACE_CHANGE)

    @property
    def declarations(self) -> tuple[str, ...]:
        """Every :class:`~perudo.Declare` name this round can offer, in the order offered."""
        if self.two_players == "choice":
            return (self.name, "ordinary")
        return (self.name,) if self.optional else ()

    def start(self, *, dropped: int | None, players_in: int, used: bool) -> RoundStart:
        """How the next round starts when ``dropped`` (or nobody) just fell to one die.

        ``used`` says whether that player already had this round in the game.
        """
        if dropped is None or (self.once_per_player and used):
            return ORDINARY
        if players_in == 2 and self.two_players == "off":
            return ORDINARY
        if players_in == 2 and self.two_players == "choice":
            return RoundStart(offers=(self.name, "ordinary"), must_declare=True)
        if self.optional:
            return RoundStart(offers=(self.name,))
        return RoundStart(special=self.name, uses_special=self.once_per_player)

    def transform(
        self, rules: RoundRules, *, opener: int, one_die_seats: Iterable[int]
    ) -> RoundRules:
        """The rules of this special round, opened by ``opener``."""
        return _transform(self, rules, opener, frozenset(one_die_seats))


@functools.lru_cache(maxsize=1024)
def _transform(
    special: OneDieRound, rules: RoundRules, opener: int, one_die_seats: frozenset[int]
) -> RoundRules:
    """:meth:`OneDieRound.transform`, shared between rounds that start alike."""
    changers = one_die_seats if special.face_change != "nobody" else frozenset()
    if special.face_change == "one-die-except-opener":
        changers -= {opener}
    return attrs.evolve(
        rules,
        wild_ones=False,
        conversion=NoConversion(),
        opening=special.opening,
        face_lock=True,
        face_changers=changers,
        special=special.name,
    )


SpecialRound: TypeAlias = NoSpecialRound | OneDieRound
