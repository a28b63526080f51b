"""Simple bots that play any edition legally.

A bot is driven only by its player's :class:`~perudo.view.PlayerView`: its own hand, how
many dice each player holds, the bids, and its own legal actions.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol

from perudo.actions import Action, Bid, Calza, Declare, Dudo
from perudo.dice import count
from perudo.odds import view_chance, view_odds

if TYPE_CHECKING:
    from perudo.view import PlayerView

__all__ = ["BOTS", "Bot", "OddsBot", "RandomBot", "expected_count", "make_bot"]


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
    """

    def __init__(self, seed: int | None = None, *, doubt: float = 0.4, exact: float = 0.3) -> None:
        self._random = random.Random(seed)
        self.doubt = doubt
        self.exact = exact

    def _chance(self, view: PlayerView, bid: Bid) -> float:
        return view_chance(
            bid, own_dice=view.dice, unseen=view.unseen, wild_ones=view.rules.wild_ones
        )

    def _exact(self, view: PlayerView) -> bool:
        bid = view.bid
        return bid is not None and float(view_odds(view, bid, exact=True)) > self.exact

    def act(self, view: PlayerView) -> Action:
        """The bot's choice among its legal actions."""
        actions = view.legal_actions
        legal = set(actions)
        declarations = [action for action in actions if isinstance(action, Declare)]
        if declarations and (view.must_declare or self._random.random() < 0.5):
            return self._random.choice(declarations)
        standing = view.bid
        if standing is not None:
            if Calza() in legal and self._exact(view):
                return Calza()
            if self._chance(view, standing) < self.doubt:
                sure = self._chance(view, standing) < 0.1
                return Dudo(pressure=True) if sure and Dudo(pressure=True) in legal else Dudo()
        cheapest: dict[int, Bid] = {}
        for action in actions:
            if isinstance(action, Bid) and not action.pressure:
                low = cheapest.get(action.face)
                if low is None or action.quantity < low.quantity:
                    cheapest[action.face] = action
        if not cheapest:
            return Dudo() if Dudo() in legal else actions[0]
        ranked = sorted(cheapest.values(), key=lambda bid: self._chance(view, bid), reverse=True)
        best = ranked[0]
        ties = [bid for bid in ranked if self._chance(view, bid) == self._chance(view, best)]
        choice = self._random.choice(ties)
        chance = self._chance(view, choice)
        if standing is not None and chance < self.doubt and Dudo() in legal:
            return Dudo()
        pressured = Bid(choice.quantity, choice.face, pressure=True)
        if chance > 0.9 and pressured in legal and self._random.random() < 0.5:
            return pressured
        return choice

    def interrupt(self, view: PlayerView) -> Action | None:
        """The exact call out of turn (Jonti) when the bid looks exactly right."""
        if Calza() in view.legal_actions and self._exact(view):
            return Calza()
        return None


#: The bots by name, for the command line.
BOTS: dict[str, type[RandomBot] | type[OddsBot]] = {"random": RandomBot, "odds": OddsBot}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by its name in :data:`BOTS`."""
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}: the bots are {', '.join(BOTS)}")
    return BOTS[name](seed)
