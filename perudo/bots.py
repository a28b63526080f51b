"""Simple bots that play any edition legally.

A bot looks only at what its player may know: its own hand, how many dice each player
holds, the bids, and its own legal actions. It never reads another player's dice.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol

from perudo.actions import Action, Bid, Calza, Declare, Dudo
from perudo.dice import count

if TYPE_CHECKING:
    from perudo.state import GameState

__all__ = ["Bot", "CautiousBot", "RandomBot", "expected_count"]


class Bot(Protocol):
    """What a bot does: act on its turn, and maybe call out of turn."""

    def act(self, state: GameState, player: int) -> Action:
        """The bot's action when ``player`` is to act."""
        ...

    def interrupt(self, state: GameState, player: int) -> Action | None:
        """An out-of-turn call (Jonti) by ``player``, or ``None``."""
        ...


class RandomBot:
    """Picks uniformly among its legal actions, from its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def act(self, state: GameState, player: int) -> Action:
        """A random legal action."""
        return self._random.choice(state.legal_actions(by=player))

    def interrupt(self, state: GameState, player: int) -> Action | None:
        """An out-of-turn call now and then, when one is open."""
        actions = state.legal_actions(by=player)
        return actions[0] if actions and self._random.random() < 0.05 else None


def expected_count(state: GameState, player: int, face: int) -> float:
    """How many dice showing ``face`` ``player`` expects among all hands, from their own
    hand and the number of dice they cannot see."""
    wild = state.rules.wild_ones
    own = state.players[player].dice
    unseen = state.dice_in_play - len(own)
    chance = 1 / 3 if wild and face != 1 else 1 / 6
    return count([own], face, wild_ones=wild) + unseen * chance


class CautiousBot:
    """Bids what its own hand makes likely and calls Dudo on bids it finds unlikely.

    Args:
        seed: Seeds its choices between bids of equal merit.
        boldness: How far above its expectation it is willing to bid or let stand.
    """

    def __init__(self, seed: int | None = None, *, boldness: float = 1.0) -> None:
        self._random = random.Random(seed)
        self.boldness = boldness

    def act(self, state: GameState, player: int) -> Action:
        """The bot's choice among its legal actions."""
        actions = state.legal_actions(by=player)
        declarations = [action for action in actions if isinstance(action, Declare)]
        if declarations and (state.must_declare or self._random.random() < 0.5):
            return declarations[0]
        standing = state.bid
        if standing is not None:
            gap = standing.quantity - expected_count(state, player, standing.face)
            if Calza() in actions and abs(gap) < 0.5 and self._random.random() < 0.3:
                return Calza()
            if gap > self.boldness and Dudo() in actions:
                return Dudo()
        bids = [a for a in actions if isinstance(a, Bid) and not a.pressure]
        if not bids:
            return Dudo() if Dudo() in actions else actions[0]

        def margin(bid: Bid) -> float:
            return expected_count(state, player, bid.face) - bid.quantity

        best = sorted(bids, key=margin, reverse=True)[:3]
        choice = self._random.choice(best)
        if margin(choice) < -self.boldness and Dudo() in actions:
            return Dudo()
        pressured = Bid(choice.quantity, choice.face, pressure=True)
        if pressured in actions and margin(choice) > 1 and self._random.random() < 0.3:
            return pressured
        return choice

    def interrupt(self, state: GameState, player: int) -> Action | None:
        """Jonti out of turn when the standing bid looks exactly right."""
        standing = state.bid
        if standing is None or Calza() not in state.legal_actions(by=player):
            return None
        gap = standing.quantity - expected_count(state, player, standing.face)
        return Calza() if abs(gap) < 0.25 and self._random.random() < 0.2 else None
