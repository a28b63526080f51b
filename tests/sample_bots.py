"""Bots written outside perudo, for the tests of the bot protocol (issue 15)."""

from __future__ import annotations

from perudo import Action, Bid, Dudo, PlayerView


class Cautious:
    """Calls Dudo whenever it may, else makes the first legal bid."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, view: PlayerView) -> Action:
        legal = view.legal_actions
        return Dudo() if Dudo() in legal else legal[0]


def first_legal(view: PlayerView) -> Action:
    """A plain function is a bot too."""
    return view.legal_actions[0]


def sulky(view: PlayerView) -> Action:
    """Fails once a round has three bids."""
    if len(view.bids) >= 3:
        raise RuntimeError("three bids is enough")
    return view.legal_actions[0]


def cheat(view: PlayerView) -> Action:
    """Bids something that does not raise once there is a bid."""
    return Bid(1, 2) if view.bids else view.legal_actions[0]
