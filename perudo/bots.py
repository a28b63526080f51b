"""Simple bots that play any edition legally.

A bot is driven only by its player's :class:`~perudo.view.PlayerView`: its own hand, how
many dice each player holds, the bids, and its own legal actions.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol

from perudo.actions import CALZA, DUDO, DUDO_PRESSED, Action, Bid, Declare
from perudo.dice import count
from perudo.errors import shown
from perudo.odds import chance_of, chance_table, exact_chance_of

if TYPE_CHECKING:
    from collections.abc import Sequence

    from perudo.state import GameState
    from perudo.view import PlayerView

__all__ = ["BOTS", "Bot", "OddsBot", "RandomBot", "choose_move", "expected_count", "make_bot"]


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
    wild = view.wild_face
    chance = 1 / 3 if wild is not None and face != wild else 1 / 6
    return count([view.dice], face, wild=wild) + view.unseen * chance


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

    def act(self, view: PlayerView) -> Action:
        """The bot's choice among its legal actions."""
        actions = view.legal_actions
        if view.offers and (view.must_declare or self._random.random() < 0.5):
            return self._random.choice([a for a in actions if isinstance(a, Declare)])
        table = chance_table(view.dice, view.unseen, wild=view.wild_face)
        standing = view.bid
        calls = actions[-3:]  # legal actions end with the calls
        if standing is not None:
            if CALZA in calls and exact_chance_of(table, standing) > self.exact:
                return CALZA
            chance = chance_of(table, standing)
            if chance < self.doubt:
                return DUDO_PRESSED if chance < 0.1 and DUDO_PRESSED in calls else DUDO
        cheapest: dict[int, Bid] = {}
        for action in actions:  # bids come by face, each by rising quantity
            if type(action) is Bid and action.face not in cheapest:
                cheapest[action.face] = action
        if not cheapest:
            return DUDO if DUDO in calls else actions[0]
        best = max(chance_of(table, bid) for bid in cheapest.values())
        choice = self._random.choice(
            [bid for bid in cheapest.values() if chance_of(table, bid) == best]
        )
        if standing is not None and best < self.doubt:
            return DUDO
        assert view.player is not None  # a bot plays a seat, never a spectator's view
        pressure_left = view.seats[view.player].pressure_left > 0
        if best > 0.9 and pressure_left and self._random.random() < 0.5:
            return Bid(choice.quantity, choice.face, pressure=True)
        return choice

    def interrupt(self, view: PlayerView) -> Action | None:
        """The exact call out of turn (Jonti) when the bid looks exactly right."""
        bid = view.bid
        if bid is None or CALZA not in view.legal_actions:
            return None
        table = chance_table(view.dice, view.unseen, wild=view.wild_face)
        return CALZA if exact_chance_of(table, bid) > self.exact else None


def choose_move(state: GameState, bots: Sequence[Bot]) -> tuple[int, Action]:
    """The next move of a game played by ``bots`` (one per seat): first any out-of-turn
    call a bot makes (where the edition allows one), else the action of the player to act."""
    assert state.to_act is not None
    if state.variant.exact_call.out_of_turn:
        for seat in state.seats_in:
            if seat != state.to_act and state.legal_actions(by=seat):
                action = bots[seat].interrupt(state.view(seat))
                if action is not None:
                    return seat, action
    return state.to_act, bots[state.to_act].act(state.view(state.to_act))


#: The bots by name, for the command line.
BOTS: dict[str, type[RandomBot] | type[OddsBot]] = {"random": RandomBot, "odds": OddsBot}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by its name in :data:`BOTS`."""
    if name not in BOTS:
        raise ValueError(f"unknown bot {shown(name)}: the bots are {', '.join(BOTS)}")
    return BOTS[name](seed)
