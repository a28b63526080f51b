"""Special one-die rounds: Palifico, Palafico, Calzone (the edition's words name them).

A special round is a transform: given the edition's ordinary round rules it returns the
rules of the special round, so no other component needs a "but in Palifico..." branch.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import ClassVar

import attrs

from perudo.rules.axes import RoundContext, RoundRules, SettledCall
from perudo.rules.base import RoundStart, Words, first_paragraph, param
from perudo.rules.bidding import OPENING_ONES, NoConversion, opening_sentence, opening_with_ones

__all__ = [
    "FACE_CHANGE",
    "TWO_PLAYERS",
    "FarewellRound",
    "NoSpecialRound",
    "OneDieRound",
    "dropped_to_one",
    "fell_to_one",
]

TWO_PLAYERS = ("same", "off", "choice")
FACE_CHANGE = ("nobody", "one-die", "one-die-except-opener")

ORDINARY = RoundStart()


@attrs.frozen
class NoSpecialRound:
    """Every round is ordinary."""

    axis: ClassVar[str] = "special_round"
    kind: ClassVar[str] = "none"
    declarations: ClassVar[tuple[str, ...]] = ()
    offered: ClassVar[bool] = False
    once_per_player: ClassVar[bool] = False

    def start(
        self, context: SettledCall, *, had: tuple[bool, ...], owed: tuple[int, ...]
    ) -> RoundStart:
        """Always an ordinary round."""
        return ORDINARY

    def transform(self, rules: RoundRules, opener: int, context: RoundContext) -> RoundRules:
        """The rules unchanged."""
        return rules

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return first_paragraph(self)

    def label(self, words: Words) -> str:
        """A short label."""
        return "-"


@attrs.frozen
class OneDieRound:
    """A round after a player drops to one die, in which ones are not wild, there is no
    conversion and the face is locked. The edition's words name it (``special_round``).

    Attributes:
        once_per_player: Whether each player has it at most once per game.
        two_players: With two players still in: ``"same"`` (as with more), ``"off"`` (never)
            or ``"choice"`` (the player declares the round or an ordinary one before any bid).
        optional: Whether the player opts in by declaring it; bidding declines it.
        opening: Bids on ones at the opening: ``"forbidden"``, ``"allowed"`` or ``"required"``
            (the round keeps the edition's opening kind, with this ``ones`` setting: an
            opening kind without the parameter ``ones`` cannot be played with it).
        face_change: Who may change the locked face: ``"nobody"``, ``"one-die"`` (anyone
            holding one die) or ``"one-die-except-opener"``.
    """

    axis: ClassVar[str] = "special_round"
    kind: ClassVar[str] = "one-die-round"
    offered: ClassVar[bool] = True
    once_per_player: bool = param(bool)
    two_players: str = param(str, choices=TWO_PLAYERS)
    optional: bool = param(bool)
    opening: str = param(str, choices=OPENING_ONES)
    face_change: str = param(str, choices=FACE_CHANGE)

    @property
    def declarations(self) -> tuple[str, ...]:
        """The roles of the declarations this round can offer, in the order offered."""
        if self.two_players == "choice":
            return ("special", "ordinary")
        return ("special",) if self.optional else ()

    def start(
        self, context: SettledCall, *, had: tuple[bool, ...], owed: tuple[int, ...]
    ) -> RoundStart:
        """The special round of the seat the call just left with one die (the call's loser
        first), unless it already had it (``once_per_player``) or the table says otherwise."""
        after = context.after
        dropped = dropped_to_one(context.losers, context.dice, after) if 1 in after else None
        if dropped is None or (self.once_per_player and had[dropped]):
            return ORDINARY
        return self._start_for(dropped, context.players_left)

    def _start_for(self, player: int, players_in: int) -> RoundStart:
        """The start of ``player``'s special round at a table of ``players_in``."""
        if players_in == 2 and self.two_players == "off":
            return ORDINARY
        if players_in == 2 and self.two_players == "choice":
            return RoundStart(offers=("special", "ordinary"), must_declare=True, player=player)
        if self.optional:
            return RoundStart(offers=("special",), player=player)
        return RoundStart(special=True, uses_special=self.once_per_player, player=player)

    def transform(self, rules: RoundRules, opener: int, context: RoundContext) -> RoundRules:
        """The rules of this special round, opened by ``opener``."""
        one_die = frozenset([seat for seat, n in enumerate(context.dice) if n == 1])
        words = context.words
        name = words.special_round or words.declaration("special")
        return _transform(self, rules, opener, one_die, name)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences, in the edition's words."""
        name = words.special_round or "The special round"
        word = words.declaration("special")
        opt = (
            f"may announce '{word}' before the first bid (bidding declines it)"
            if self.optional
            else "plays it"
        )
        once = " Once per player per game." if self.once_per_player else ""
        two = {
            "same": "It is played the same way with two players left.",
            "off": "It is not played when only two players are left.",
            "choice": (
                "With two players left, the one-die player chooses before looking at the die: "
                f"'declare {word}' or 'declare {words.declaration('ordinary')}'."
            ),
        }[self.two_players]
        ones = words.ones_word
        return (
            f"{name}: a player who loses a die and is left with one {opt} in the next round."
            f"{once} {ones.capitalize()} are not wild, there is no conversion, and the face is "
            f"locked: {_FACE_CHANGE[self.face_change]}, with {ones} ranked lowest. "
            f"{opening_sentence(self.opening, words)} {two}"
        )

    def label(self, words: Words) -> str:
        """A short label: the round's name."""
        return (words.special_round or "special")[:8]


_FACE_CHANGE: Mapping[str, str] = MappingProxyType(
    {
        "nobody": "nobody may change the face",
        "one-die": "only players holding one die may change the face",
        "one-die-except-opener": (
            "only the other players holding one die may change the face (not the player whose "
            "round it is)"
        ),
    }
)


@attrs.frozen
class FarewellRound(OneDieRound):
    """A one-die round for every descent to one die: each seat a call leaves with one die
    (having held more) is owed its own round, several that fall at once queued in seat
    order, and that seat opens its round. Its rules are those of the one-die round
    (``opening``, ``face_change``, no wild dice, no conversion).

    From a published online Perudo's house rules (``guyguroz-hue/Perudo``,
    ``docs/GAME_RULES.md`` section 10): "Triggered when a player is reduced to exactly one
    die after losing a die. The trigger is the transition [...] It happens once per
    descent", "That player starts the next round", and "Each is owed their own Farewell
    Round: they are queued, one takes the next round, the next follows after that. [...]
    the engine uses seat order".
    """

    kind: ClassVar[str] = "farewell-round"
    queues: ClassVar[bool] = True  # it may leave seats owed a round

    def start(
        self, context: SettledCall, *, had: tuple[bool, ...], owed: tuple[int, ...]
    ) -> RoundStart:
        """The round of the first seat owed one (those owed from earlier calls first, then
        those this call left with one die, in seat order), which it opens; the rest stay
        owed. A seat out of the game is owed nothing."""
        after = context.after
        queue: list[int] = []
        for seat in (*owed, *fell_to_one(context.dice, after)):
            if after[seat] and seat not in queue and not (self.once_per_player and had[seat]):
                queue.append(seat)
        if not queue:
            return ORDINARY
        player, rest = queue[0], tuple(queue[1:])
        begun = self._start_for(player, context.players_left)
        if begun == ORDINARY:  # no round for this seat at this table: the queue waits
            return RoundStart(owed=tuple(queue))
        return attrs.evolve(begun, opens=True, owed=rest)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences, in the edition's words."""
        name = words.special_round or "The special round"
        return (
            f"{name}: each player a call leaves with one die, having held more, is owed a "
            "round of their own, which they open (several at once in seat order, one round "
            "after another). " + super().describe(words, dice)
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return "farewell"


def fell_to_one(before: Sequence[int], counts: Sequence[int]) -> list[int]:
    """The seats a call left with one die, having held more before it, in seat order."""
    return [seat for seat, n in enumerate(counts) if n == 1 and before[seat] > 1]


def dropped_to_one(
    losers: Sequence[int], before: Sequence[int], counts: Sequence[int]
) -> int | None:
    """The seat a call left with one die (a loser first), whose special round may follow;
    ``None`` when the call left nobody at one die."""
    seats = fell_to_one(before, counts)
    first = [seat for seat in seats if seat in losers]
    return (first or seats)[0] if seats else None


@functools.lru_cache(maxsize=1024)
def _transform(
    special: OneDieRound,
    rules: RoundRules,
    opener: int,
    one_die_seats: frozenset[int],
    name: str,
) -> RoundRules:
    """:meth:`OneDieRound.transform`, shared between rounds that start alike."""
    changers = one_die_seats if special.face_change != "nobody" else frozenset()
    if special.face_change == "one-die-except-opener":
        changers -= {opener}
    return attrs.evolve(
        rules,
        wilds=None,
        conversion=NoConversion(),
        opening=opening_with_ones(rules.opening, special.opening, f"special_round:{special.kind}"),
        face_lock=True,
        face_changers=changers,
        special=name,
    )
