"""Many games between bots, tallied: how long games last, who wins, which calls happen.

Game ``i`` of a run with seed ``s`` uses the seed ``s + i`` for its dice and its bots, so a
run's result does not depend on how many worker processes share it, and two editions can
be compared on the same seeds.
"""

from __future__ import annotations

import signal
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from fractions import Fraction
from typing import Any

import attrs

from perudo.actions import Declare
from perudo.bots import BOTS, choose_move, make_bot
from perudo.errors import GameSetupError, PerudoError, shown
from perudo.loader import load_variant
from perudo.state import new_game
from perudo.variant import Variant

__all__ = ["MAX_GAMES", "MAX_WORKERS", "SimulationResult", "simulate"]

#: The most games one run plays, and the most worker processes it starts.
MAX_GAMES = 10**9
MAX_WORKERS = 256


@attrs.frozen
class SimulationResult:
    """The tally of a run.

    Attributes:
        variant: The edition key.
        players: Players per game.
        games: Games played.
        seed: The seed of game 0.
        bots: The bot of each seat.
        rounds: Rounds played in all games.
        actions: Actions taken in all games.
        wins: Each seat's wins (a win shared by ``k`` seats counts ``1/k`` to each).
        calls: ``(call, count)`` pairs: ``"dudo"``, ``"calza"`` (exact calls, Jonti
            included), ``"calza-out-of-turn"``.
        special_rounds: ``(name, count)`` pairs: rounds played as Palifico, Palafico, Calzone.
        declarations: ``(name, count)`` pairs of declarations made.
    """

    variant: str
    players: int
    games: int
    seed: int
    bots: tuple[str, ...]
    rounds: int
    actions: int
    wins: tuple[Fraction, ...]
    calls: tuple[tuple[str, int], ...]
    special_rounds: tuple[tuple[str, int], ...]
    declarations: tuple[tuple[str, int], ...]

    @property
    def mean_rounds(self) -> float:
        """Rounds per game."""
        return self.rounds / self.games if self.games else 0.0

    @property
    def mean_actions(self) -> float:
        """Actions per game."""
        return self.actions / self.games if self.games else 0.0

    @property
    def win_rate_by_seat(self) -> tuple[float, ...]:
        """Each seat's share of the wins."""
        return tuple(float(w / self.games) if self.games else 0.0 for w in self.wins)

    @property
    def win_rate_by_bot(self) -> tuple[tuple[str, float], ...]:
        """Each kind of bot's wins per seat it held, per game."""
        totals: dict[str, Fraction] = {}
        seats: Counter[str] = Counter(self.bots)
        for bot, wins in zip(self.bots, self.wins, strict=True):
            totals[bot] = totals.get(bot, Fraction(0)) + wins
        return tuple(
            (bot, float(totals[bot] / (seats[bot] * self.games)) if self.games else 0.0)
            for bot in sorted(totals)
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "variant": self.variant,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "bots": list(self.bots),
            "mean_rounds": self.mean_rounds,
            "mean_actions": self.mean_actions,
            "win_rate_by_seat": list(self.win_rate_by_seat),
            "win_rate_by_bot": dict(self.win_rate_by_bot),
            "calls": dict(self.calls),
            "special_rounds": dict(self.special_rounds),
            "declarations": dict(self.declarations),
        }


@attrs.define
class _Tally:
    rounds: int = 0
    actions: int = 0
    wins: list[Fraction] = attrs.field(factory=list)
    calls: Counter[str] = attrs.field(factory=Counter)
    special: Counter[str] = attrs.field(factory=Counter)
    declarations: Counter[str] = attrs.field(factory=Counter)

    def add(self, other: _Tally) -> None:
        self.rounds += other.rounds
        self.actions += other.actions
        if not self.wins:
            self.wins = [Fraction(0)] * len(other.wins)
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.calls.update(other.calls)
        self.special.update(other.special)
        self.declarations.update(other.declarations)


def _play_games(variant: Variant, bots: tuple[str, ...], first: int, count: int) -> _Tally:
    tally = _Tally(wins=[Fraction(0)] * len(bots))
    for seed in range(first, first + count):
        state = new_game(variant, len(bots), seed=seed)
        players = [make_bot(name, seed * 1009 + seat) for seat, name in enumerate(bots)]
        while not state.is_over:
            actor, action = choose_move(state, players)
            if actor != state.to_act:
                tally.calls["calza-out-of-turn"] += 1
            if isinstance(action, Declare):
                tally.declarations[action.name] += 1
            before = state
            state = state.apply(action, by=actor)
            tally.actions += 1
            if state.last_result is not before.last_result:
                assert state.last_result is not None
                tally.rounds += 1
                tally.calls[state.last_result.call] += 1
                if before.special_round is not None:
                    tally.special[before.special_round] += 1
        for seat in state.winners:
            tally.wins[seat] += Fraction(1, len(state.winners))
    return tally


def _chunk(args: tuple[str | Variant, tuple[str, ...], int, int]) -> _Tally:
    variant, bots, first, count = args
    return _play_games(
        load_variant(variant) if isinstance(variant, str) else variant, bots, first, count
    )


def simulate(
    variant: Variant | str,
    players: int,
    games: int,
    *,
    bots: Sequence[str] = ("odds",),
    seed: int = 0,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> SimulationResult:
    """Play ``games`` games of ``players`` bots and tally them.

    Args:
        variant: The edition, or its key (a key only: never read as a path).
        players: Players per game.
        games: How many games, 0 to :data:`MAX_GAMES`.
        bots: Bot names from :data:`perudo.bots.BOTS`, given to the seats in turn (one name
            gives every seat the same bot); no more names than players.
        seed: The seed of game 0; game ``i`` uses ``seed + i``.
        workers: Processes to share the games, 1 to :data:`MAX_WORKERS`; the result does not
            depend on it.
        progress: Called with (games done, games) as chunks finish.

    Raises:
        GameSetupError: a count, a bot or the player count is not one the edition allows.
    """
    if not isinstance(variant, Variant):
        variant = load_variant(variant)
    if type(games) is not int or not 0 <= games <= MAX_GAMES:
        raise GameSetupError(f"games {shown(games)} is not a count of games (0 to {MAX_GAMES})")
    if type(workers) is not int or not 1 <= workers <= MAX_WORKERS:
        raise GameSetupError(f"workers {shown(workers)} is not 1 to {MAX_WORKERS} processes")
    if isinstance(bots, str) or not bots:
        raise GameSetupError(f"bots {shown(bots)} is not a list of bot names")
    for name in bots:
        if name not in BOTS:
            raise GameSetupError(f"unknown bot {shown(name)}: the bots are {', '.join(BOTS)}")
    new_game(variant, players, seed=seed)  # refuses a player count the edition does not allow
    if len(bots) > players:
        raise GameSetupError(f"{len(bots)} bots named for {players} players")
    seats = tuple(bots[seat % len(bots)] for seat in range(players))
    size = max(1, min(1000, games // (workers * 8) or 1))
    source: str | Variant = variant.key if _is_shipped(variant) else variant
    jobs = (
        (source, seats, seed + start, min(size, games - start)) for start in range(0, games, size)
    )
    tally = _Tally(wins=[Fraction(0)] * players)
    done = 0
    for part, count in _run(jobs, workers if games > size else 1):
        tally.add(part)
        done += count
        if progress is not None:
            progress(done, games)
    return SimulationResult(
        variant=variant.key,
        players=players,
        games=games,
        seed=seed,
        bots=seats,
        rounds=tally.rounds,
        actions=tally.actions,
        wins=tuple(tally.wins),
        calls=tuple(sorted(tally.calls.items())),
        special_rounds=tuple(sorted(tally.special.items())),
        declarations=tuple(sorted(tally.declarations.items())),
    )


_Job = tuple[str | Variant, tuple[str, ...], int, int]


def _run(jobs: Iterator[_Job], workers: int) -> Iterator[tuple[_Tally, int]]:
    """Each job's tally and game count, in order; jobs are made as they are needed (a run
    of a billion games never holds a million jobs), at most two per worker in flight."""
    if workers == 1:
        for job in jobs:
            yield _chunk(job), job[3]
        return
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_signals)
    pending: list[tuple[Future[_Tally], int]] = []
    try:
        for job in jobs:
            pending.append((pool.submit(_chunk, job), job[3]))
            if len(pending) >= 2 * workers:
                future, count = pending.pop(0)
                yield future.result(), count
        for future, count in pending:
            yield future.result(), count
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _worker_signals() -> None:
    """Ctrl-C at a terminal reaches the workers too: let it end them without a traceback;
    the parent reports the interruption once."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _is_shipped(variant: Variant) -> bool:
    try:
        return load_variant(variant.key) == variant
    except PerudoError:
        return False
