"""A game as a strict sequence of decisions, one seat at a time, for frameworks that have
no out-of-turn moves.

Perudo is turn-based except for two things: in the French online room the exact call
(Jonti) may be made out of turn, and in Bluff the bidder may re-roll after the bid, while the
next player is to act. :class:`Turns` turns these into turns of their own: after each new
bid, every seat that may act out of turn is *asked*, clockwise from the left of the player
to act, and answers with one of its out-of-turn actions or a pass (``None``); only then does
the player to act move. A seat that passed is not asked again about the same bid.

It also keeps the order in which players went out, which the returns need.

>>> import perudo
>>> from perudo.interop.turns import Turns
>>> hands = [(1, 2), (3, 4, 5), (1,), (2, 2)]
>>> turns = Turns.start(perudo.new_game("french-jonti", 4, seed=3, dice=hands, first_player=0))
>>> turns = turns.apply(perudo.Bid(3, 4))
>>> turns.seat, turns.asking, turns.state.to_act
(2, (2,), 1)
>>> turns.legal_actions()
(Calza(), None)
>>> numbers = TurnActions.of(turns.state.variant, 4)
>>> numbers.legal(turns), numbers.size
((1, 123), 124)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, SupportsIndex

import attrs

from perudo.actions import Action
from perudo.encoding import ROUND_LIMIT, ActionEncoding, action_encoding, whole_number
from perudo.errors import EncodingError, IllegalActionError

if TYPE_CHECKING:
    from perudo.state import GameState
    from perudo.variant import Variant

__all__ = ["TurnActions", "Turns", "lowest_return", "placing_returns"]


def placing_returns(players: int, out: tuple[int, ...], winners: tuple[int, ...]) -> list[float]:
    """Returns by finishing place: the first player out gets -1, the winner +1, the places
    between are evenly spaced (so the returns sum to 0). Seats not yet placed get 0.

    >>> placing_returns(4, (2, 0), ())
    [-0.3333333333333333, 0.0, -1.0, 0.0]
    """
    returns = [0.0] * players
    if players < 2:
        return returns
    for place, seat in enumerate(out):
        returns[seat] = (2 * place - (players - 1)) / (players - 1)
    for seat in winners:
        returns[seat] = 1.0
    return returns


def lowest_return(variant: Variant, players: int) -> float:
    """The least return a seat can end with: -1 with elimination; in party mode, losing
    every round under pressure."""
    scoring = variant.scoring
    if scoring.moves_dice:
        return -1.0
    rounds = scoring.round_limit(players) or ROUND_LIMIT
    return -float(scoring.most_points * rounds)


@attrs.frozen
class Turns:
    """A :class:`~perudo.GameState` with out-of-turn calls made into turns.

    Attributes:
        state: The game.
        asking: Seats still to be asked whether they make the exact call out of turn on the
            standing bid, in the order they are asked.
        out: The seats that went out, in the order they went out (elimination editions).
    """

    state: GameState
    asking: tuple[int, ...] = ()
    out: tuple[int, ...] = ()

    def __deepcopy__(self, memo: dict[int, object]) -> Turns:
        return self  # immutable: a copy is the value itself

    @classmethod
    def start(cls, state: GameState) -> Turns:
        """The turns from ``state`` on (seats already out count as out in seat order)."""
        out = tuple(seat for seat, player in enumerate(state.players) if not player.dice)
        return cls(state, _asked(state), out)

    @property
    def seat(self) -> int | None:
        """The seat that decides now; ``None`` once the game is over."""
        return self.asking[0] if self.asking else self.state.to_act

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.state.is_over

    def legal_actions(self) -> tuple[Action | None, ...]:
        """What the deciding seat may do: its out-of-turn actions (the exact call, a
        re-roll) or a pass (``None``) when it is asked, else its legal actions."""
        if self.asking:
            return (*self.state.legal_actions(by=self.asking[0]), None)
        return self.state.legal_actions()

    def apply(self, action: Action | None, *, rolled: Sequence[int] | None = None) -> Turns:
        """The turns after the deciding seat takes ``action`` (``None``: pass when asked);
        ``rolled`` as for :meth:`perudo.GameState.apply` (the faces of a re-roll).

        Raises:
            IllegalActionError: the action is not open to the deciding seat.
        """
        if self.asking:
            if action is None:
                return attrs.evolve(self, asking=self.asking[1:])
            if action not in self.state.legal_actions(by=self.asking[0]):
                raise IllegalActionError(
                    "not-your-turn",
                    f"{action}: seat {self.asking[0]} is only asked whether it acts out of "
                    "turn (one of its out-of-turn actions, or None to pass)",
                    action=action,
                    player=self.asking[0],
                )
            return self._after(self.state.apply(action, by=self.asking[0], rolled=rolled))
        if action is None:
            raise IllegalActionError(
                "malformed-action",
                "None (a pass) is only open to a seat asked about an out-of-turn action",
                player=self.state.to_act,
            )
        return self._after(self.state.apply(action, rolled=rolled))

    def _after(self, state: GameState) -> Turns:
        out = self.out
        result = state.last_result
        if result is not None and result is not self.state.last_result and result.out:
            out += result.out  # a call just ended the round and put seats out
        return Turns(state, _asked(state), out)

    def returns(self) -> list[float]:
        """Each seat's return so far: by finishing place with elimination
        (:func:`placing_returns`), points in party mode. Final once the game is over."""
        state = self.state
        if not state.variant.scoring.moves_dice:
            return [float(player.score) for player in state.players]
        return placing_returns(len(state.players), self.out, state.winners)


def _asked(state: GameState) -> tuple[int, ...]:
    """The seats asked about an out-of-turn action (the exact call, a re-roll) on a new
    standing bid."""
    to_act = state.to_act
    if to_act is None or not state.bids or not state.variant.has_out_of_turn:
        return ()
    n = len(state.players)
    order = ((to_act + step) % n for step in range(1, n))
    return tuple(seat for seat in order if state.legal_actions(by=seat))


@attrs.frozen
class TurnActions:
    """The numbers of :class:`Turns` decisions: those of an
    :class:`~perudo.encoding.ActionEncoding`, plus one more, the last, for a pass when the
    edition has out-of-turn actions (Jonti, Bluff's re-roll).

    Attributes:
        encoding: The action encoding.
    """

    encoding: ActionEncoding

    def __deepcopy__(self, memo: dict[int, object]) -> TurnActions:
        return self  # immutable: a copy is the value itself

    @classmethod
    def of(cls, variant: Variant | str, players: int) -> TurnActions:
        """The decision numbers of an edition at a table of ``players``."""
        return cls(action_encoding(variant, players))

    @property
    def pass_number(self) -> int | None:
        """The number of a pass, or ``None`` when the edition never asks (no out-of-turn
        action)."""
        return self.encoding.size if self.encoding.variant.has_out_of_turn else None

    @property
    def size(self) -> int:
        """How many numbers there are."""
        return self.encoding.size + (self.pass_number is not None)

    def encode(self, action: Action | None) -> int:
        """The number of ``action`` (``None``: a pass)."""
        if action is None:
            if self.pass_number is None:
                raise EncodingError(f"{self.encoding.variant.name} has no pass: nobody is asked")
            return self.pass_number
        return self.encoding.encode(action)

    def decode(self, number: SupportsIndex) -> Action | None:
        """The decision numbered ``number`` (``None``: a pass).

        Raises:
            EncodingError: ``number`` is not a whole number from 0 to ``size - 1``.
        """
        number = whole_number(number, "action number")
        if number == self.pass_number:
            return None
        return self.encoding.decode(number)

    def legal(self, turns: Turns) -> tuple[int, ...]:
        """The numbers of the deciding seat's legal decisions, in increasing order."""
        return tuple(sorted(self.encode(action) for action in turns.legal_actions()))

    def mask(self, turns: Turns) -> list[int]:
        """:attr:`size` flags, 1 for each legal decision of the deciding seat."""
        flags = [0] * self.size
        for number in self.legal(turns):
            flags[number] = 1
        return flags
