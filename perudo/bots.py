"""Simple bots that play any edition legally.

A bot is driven only by its player's :class:`~perudo.view.PlayerView`: its own hand, how
many dice each player holds, the bids, and its own legal actions.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol

from perudo.actions import Action, Bid, Calza, Declare, Dudo
from perudo.dice import count

if TYPE_CHECKING:
    from perudo.view import PlayerView

__all__ = ["Bot", "CautiousBot", "RandomBot", "expected_count"]


class Bot(Protocol):
    """What a bot does: act on its turn, and maybe call out of turn."""

    def act(self, view: PlayerView) -> Action:
        """The bot's action when its player is to act."""
        ...

    def interrupt(self, view: PlayerView) -> Action | None:
        """An out-of-turn call (Jonti) by its player, or ``None``."""
        ...


class RandomBot:
    """Picks uniformly among its legal actions, from its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def act(self, view: PlayerView) -> Action:
        """A random legal action."""
        return self._random.choice(view.legal_actions)

    def interrupt(self, view: PlayerView) -> Action | None:
        """An out-of-turn call now and then, when one is open."""
        actions = view.legal_actions
        return actions[0] if actions and self._random.random() < 0.05 else None


def expected_count(view: PlayerView, face: int) -> float:
    """How many dice showing ``face`` the player expects among all hands, from their own
    hand and the number of dice they cannot see."""
    wild = view.rules.wild_ones
    chance = 1 / 3 if wild and face != 1 else 1 / 6
    return count([view.dice], face, wild_ones=wild) + view.unseen * chance


class CautiousBot:
    """Bids what its own hand makes likely and calls Dudo on bids it finds unlikely.

    Args:
        seed: Seeds its choices between bids of equal merit.
        boldness: How far above its expectation it is willing to bid or let stand.
    """

    def __init__(self, seed: int | None = None, *, boldness: float = 1.0) -> None:
        self._random = random.Random(seed)
        self.boldness = boldness

    def act(self, view: PlayerView) -> Action:
        """The bot's choice among its legal actions."""
        actions = view.legal_actions
        declarations = [action for action in actions if isinstance(action, Declare)]
        if declarations and (view.must_declare or self._random.random() < 0.5):
            return declarations[0]
        standing = view.bid
        if standing is not None:
            gap = standing.quantity - expected_count(view, standing.face)
            if Calza() in actions and abs(gap) < 0.5 and self._random.random() < 0.3:
                return Calza()
            if gap > self.boldness and Dudo() in actions:
                return Dudo()
        bids = [a for a in actions if isinstance(a, Bid) and not a.pressure]
        if not bids:
            return Dudo() if Dudo() in actions else actions[0]

        def margin(bid: Bid) -> float:
            return expected_count(view, bid.face) - bid.quantity

        best = sorted(bids, key=margin, reverse=True)[:3]
        choice = self._random.choice(best)
        if margin(choice) < -self.boldness and Dudo() in actions:
            return Dudo()
        pressured = Bid(choice.quantity, choice.face, pressure=True)
        if pressured in actions and margin(choice) > 1 and self._random.random() < 0.3:
            return pressured
        return choice

    def interrupt(self, view: PlayerView) -> Action | None:
        """Jonti out of turn when the standing bid looks exactly right."""
        standing = view.bid
        if standing is None or Calza() not in view.legal_actions:
            return None
        gap = standing.quantity - expected_count(view, standing.face)
        return Calza() if abs(gap) < 0.25 and self._random.random() < 0.2 else None
