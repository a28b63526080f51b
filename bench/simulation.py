"""What a game between bots costs: run on demand (``python bench/simulation.py``), never as
a test.

Games of odds bots through :func:`perudo.simulate.simulate` (one process), in games per
second, against a reference measured in the same run: the same games played the way
``simulate`` played them before 2026-11-30 (a fresh view of every seat and a chance table
computed afresh at every decision, the cheapest bids found by scanning the legal actions;
its decisions are those of the odds bot without pressure).
The target is a fifth of the reference's time for five-player Italian games,
and 100,000 four-player games within two minutes (``--hundred-thousand``). ``simulate``
is measured on both engines: GameState (``engine="reference"``) and the batch engine
(``engine="batch"``, what ``"auto"`` picks for odds bots).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from run import measure

import perudo
from perudo.actions import CHALLENGE, EXACT_CALL, Bid
from perudo.odds import _chance_table, chance_of, exact_chance_of
from perudo.simulate import game_seed, simulate


def reference(key: str, players: int, games: int) -> Callable[[], int]:
    """The games as simulate played them before: fresh tables, full scans."""

    def act(view: perudo.PlayerView, rng: random.Random) -> perudo.Action:
        actions = view.legal_actions
        if view.offers and (view.must_declare or rng.random() < 0.5):
            return rng.choice([a for a in actions if isinstance(a, perudo.Declare)])
        table = _chance_table.__wrapped__(tuple(view.dice), view.unseen, view.wild_face)
        standing, calls = view.bid, actions[-3:]
        if standing is not None:
            if EXACT_CALL in calls and exact_chance_of(table, standing) > 0.3:
                return EXACT_CALL
            if chance_of(table, standing) < 0.4:
                return CHALLENGE
        cheapest: dict[int, Bid] = {}
        for action in actions:
            if type(action) is Bid and action.face not in cheapest:
                cheapest[action.face] = action
        if not cheapest:
            return CHALLENGE if CHALLENGE in calls else actions[0]
        best = max(chance_of(table, bid) for bid in cheapest.values())
        if standing is not None and best < 0.4:
            return CHALLENGE
        return rng.choice([b for b in cheapest.values() if chance_of(table, b) == best])

    def work() -> int:
        rng = random.Random(1)
        for game in range(games):
            state = perudo.new_game(key, players, seed=game_seed(0, game))
            while not state.is_over:
                assert state.to_act is not None
                if state.variant.exact_call.out_of_turn:  # choose_move asked these seats
                    for seat in state.seats_in:
                        if seat != state.to_act and state.legal_actions(by=seat):
                            state.view(seat)
                state = state.apply(act(state.view(state.to_act), rng))
        return games

    return work


def current(key: str, players: int, games: int, engine: str) -> Callable[[], int]:
    def work() -> int:
        simulate(key, players, games, bots=["odds"], seed=0, engine=engine)
        return games

    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--hundred-thousand",
        action="store_true",
        help="also time 100,000 four-player Italian games of odds bots (target: 2 minutes)",
    )
    args = parser.parse_args()
    print("Games between odds bots, one process, ms a game (median of runs)\n")
    print(f"{'edition':13} {'n':>2} {'before':>8} {'reference':>10} {'batch':>8}  batch vs before")
    for key, players in (("italian", 5), ("italian", 4), ("french-jonti", 4)):
        ref = measure(reference(key, players, args.games), args.repeats)[0]
        now = measure(current(key, players, args.games, "reference"), args.repeats)[0]
        batch = measure(current(key, players, args.games, "batch"), args.repeats)[0]
        print(
            f"{key:13} {players:>2} {1000 / ref:8.3f} {1000 / now:10.3f} {1000 / batch:8.3f}  "
            f"{batch / ref:6.1f}x as fast (target 5x)"
        )
    if args.hundred_thousand:
        start = time.perf_counter()
        simulate("italian", 4, 100_000, bots=["odds"], seed=0)
        print(f"\n100,000 four-player Italian games: {time.perf_counter() - start:.1f} s "
              "(target 120 s)")  # fmt: skip


if __name__ == "__main__":
    main()
