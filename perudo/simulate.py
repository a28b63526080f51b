"""Many games between bots, tallied with honest statistics: how long games last, who wins,
which calls happen, each rate and mean with its 95% confidence interval.

Game ``i`` of a run with seed ``s`` has its own seed, drawn from ``(s, i)`` by BLAKE2b
(:func:`game_seed`): runs with different seeds share no game, and a run's result does not
depend on how many worker processes share it. Bots change seats from game to game so that
each sits in every seat equally often (``fixed_seats=True`` keeps them where they are).
"""

from __future__ import annotations

import hashlib
import signal
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from fractions import Fraction
from typing import Any

import attrs

from perudo.actions import Act, Declare
from perudo.bots import Bot, BotSpec, bot_name, make_bot
from perudo.errors import BotError, GameSetupError, PerudoError, shown
from perudo.loader import load_variant
from perudo.match import play_move
from perudo.state import GameState, new_game
from perudo.stats import (
    Difference,
    Interval,
    difference_of_means,
    difference_of_rates,
    mean_interval,
    wilson,
)
from perudo.variant import Variant

__all__ = ["ENGINES", "MAX_GAMES", "MAX_WORKERS", "SimulationResult", "game_seed", "simulate"]

#: The most games one run plays, and the most worker processes it starts.
MAX_GAMES = 10**9
MAX_WORKERS = 256
#: The engines a run can play on. ``"auto"`` is the batch engine where it can, else the
#: reference; ``"batch"`` is :mod:`perudo.batch`; ``"reference"`` is
#: :class:`~perudo.GameState`.
ENGINES = ("auto", "batch", "reference")
#: Games per job on the batch engine (a fixed size: the result does not depend on workers).
BATCH_CHUNK = 4096


def game_seed(seed: int, game: int) -> int:
    """The seed of game ``game`` of a run with ``seed``: an independent 63-bit stream.

    >>> game_seed(0, 1) != game_seed(1, 0)
    True
    """
    digest = hashlib.blake2b(f"perudo-simulate:{seed}:{game}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@attrs.frozen
class SimulationResult:
    """The tally of a run.

    Attributes:
        variant: The edition key.
        players: Players per game.
        games: Games played.
        seed: The run's seed (each game's seed comes from it: :func:`game_seed`).
        bots: The bots' names, by seat of game 0.
        fixed_seats: Whether the bots kept their seats (else they moved one seat a game).
        rounds: Rounds played in all games.
        actions: Actions taken in all games.
        rounds_squared: The sum over games of each game's rounds squared (for intervals).
        actions_squared: The same for actions.
        wins: Each seat's wins (a win shared by ``k`` seats counts ``1/k`` to each).
        bot_wins: ``(bot, wins)``: the wins of the seats each bot held.
        calls: ``(call, count)`` pairs, by role: ``"challenge"``, ``"exact"`` (the exact
            call, in or out of turn), ``"exact-out-of-turn"`` (those made out of turn).
        special_rounds: ``(name, count)`` pairs: rounds played as the special round.
        declarations: ``(name, count)`` pairs of declarations made.
        acts: ``(word, count)`` pairs of the edition's own actions taken (Bluff's
            ``reroll``).
        forfeits: ``(bot, count)``: games a bot forfeited by failing (``on_error="forfeit"``);
            they count in no other figure, and ``games`` counts the others.
        first_player_wins: The wins of the seat that opened each game.
        rounds_histogram: ``(rounds, games)``: how many games lasted each number of rounds.
        engine: Where the games were played: ``"batch"`` (:mod:`perudo.batch`) or
            ``"reference"`` (:class:`~perudo.GameState`).
        starting_dice: Each seat's dice at the start of every game when given (a
            handicap), else ``None``.
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
    fixed_seats: bool = False
    rounds_squared: int = 0
    actions_squared: int = 0
    bot_wins: tuple[tuple[str, Fraction], ...] = ()
    forfeits: tuple[tuple[str, int], ...] = ()
    first_player_wins: Fraction = Fraction(0)
    rounds_histogram: tuple[tuple[int, int], ...] = ()
    engine: str = "reference"
    starting_dice: tuple[int, ...] | None = None
    acts: tuple[tuple[str, int], ...] = ()

    @property
    def first_player_interval(self) -> Interval:
        """The share of games won by the seat that opened them, with its 95% interval (a
        fair game gives ``1 / players``)."""
        return wilson(float(self.first_player_wins), self.games).percent()

    @property
    def mean_rounds(self) -> float:
        """Rounds per game."""
        return self.rounds / self.games if self.games else 0.0

    @property
    def mean_actions(self) -> float:
        """Actions per game."""
        return self.actions / self.games if self.games else 0.0

    @property
    def rounds_interval(self) -> Interval:
        """Rounds per game, with its 95% interval."""
        return mean_interval(self.rounds, self.rounds_squared, self.games)

    @property
    def actions_interval(self) -> Interval:
        """Actions per game, with its 95% interval."""
        return mean_interval(self.actions, self.actions_squared, self.games)

    @property
    def win_rate_by_seat(self) -> tuple[float, ...]:
        """Each seat's share of the games won."""
        return tuple(float(w / self.games) if self.games else 0.0 for w in self.wins)

    @property
    def seat_intervals(self) -> tuple[Interval, ...]:
        """Each seat's share of the games won, with its 95% (Wilson) interval."""
        return tuple(wilson(float(w), self.games).percent() for w in self.wins)

    def _seats_held(self, bot: str) -> int:
        return Counter(self.bots)[bot] * self.games

    @property
    def win_rate_by_bot(self) -> tuple[tuple[str, float], ...]:
        """Each bot's share of the games won per seat it held."""
        return tuple(
            (bot, float(wins / self._seats_held(bot)) if self.games else 0.0)
            for bot, wins in self.bot_wins
        )

    @property
    def bot_intervals(self) -> tuple[tuple[str, Interval], ...]:
        """Each bot's share of games won per seat held, with its 95% (Wilson) interval."""
        return tuple(
            (bot, wilson(float(wins), self._seats_held(bot)).percent())
            for bot, wins in self.bot_wins
        )

    def seat_difference(self, other: SimulationResult, seat: int) -> Difference:
        """How much more often ``seat`` wins here than in ``other`` (another edition on the
        same seeds), with its interval and whether it is significant."""
        return difference_of_rates(
            self.seat_intervals[seat], self.games, other.seat_intervals[seat], other.games
        )

    def rounds_difference(self, other: SimulationResult) -> Difference:
        """How many more rounds a game lasts here than in ``other``."""
        return difference_of_means(
            self.rounds_interval, self.games, other.rounds_interval, other.games
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data, each rate and mean with its 95% interval."""

        def interval(value: Interval) -> dict[str, float]:
            return {"estimate": value.estimate, "low": value.low, "high": value.high}

        return {
            "variant": self.variant,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "bots": list(self.bots),
            "fixed_seats": self.fixed_seats,
            "starting_dice": None if self.starting_dice is None else list(self.starting_dice),
            "engine": self.engine,
            "mean_rounds": self.mean_rounds,
            "mean_actions": self.mean_actions,
            "rounds_per_game": interval(self.rounds_interval),
            "actions_per_game": interval(self.actions_interval),
            "win_rate_by_seat": list(self.win_rate_by_seat),
            "win_share_by_seat": [interval(i) for i in self.seat_intervals],
            "win_rate_by_bot": dict(self.win_rate_by_bot),
            "win_share_per_seat_held_by_bot": {b: interval(i) for b, i in self.bot_intervals},
            "calls": dict(self.calls),
            "special_rounds": dict(self.special_rounds),
            "declarations": dict(self.declarations),
            "acts": dict(self.acts),
            "forfeits": dict(self.forfeits),
            "first_player_win_share": interval(self.first_player_interval),
            "rounds_histogram": {str(n): games for n, games in self.rounds_histogram},
        }


@attrs.define
class _Tally:
    rounds: int = 0
    actions: int = 0
    rounds_squared: int = 0
    actions_squared: int = 0
    wins: list[Fraction] = attrs.field(factory=list)
    bot_wins: dict[str, Fraction] = attrs.field(factory=dict)
    games: int = 0
    forfeits: Counter[str] = attrs.field(factory=Counter)
    first_player_wins: Fraction = Fraction(0)
    rounds_histogram: Counter[int] = attrs.field(factory=Counter)
    calls: Counter[str] = attrs.field(factory=Counter)
    special: Counter[str] = attrs.field(factory=Counter)
    declarations: Counter[str] = attrs.field(factory=Counter)
    acts: Counter[str] = attrs.field(factory=Counter)

    def add(self, other: _Tally) -> None:
        self.rounds += other.rounds
        self.actions += other.actions
        self.rounds_squared += other.rounds_squared
        self.actions_squared += other.actions_squared
        if other.wins:
            if not self.wins:
                self.wins = [Fraction(0)] * len(other.wins)
            self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        for bot, wins in other.bot_wins.items():
            self.bot_wins[bot] = self.bot_wins.get(bot, Fraction(0)) + wins
        self.games += other.games
        self.forfeits.update(other.forfeits)
        self.first_player_wins += other.first_player_wins
        self.rounds_histogram.update(other.rounds_histogram)
        self.calls.update(other.calls)
        self.special.update(other.special)
        self.declarations.update(other.declarations)
        self.acts.update(other.acts)


def seating(bots: tuple[Any, ...], game: int, *, fixed: bool) -> tuple[Any, ...]:
    """The bot of each seat in game ``game``: moved one seat a game unless ``fixed``."""
    if fixed:
        return bots
    shift = game % len(bots)
    return bots[-shift:] + bots[:-shift] if shift else bots


def _play_games(
    variant: Variant,
    bots: tuple[Any, ...],
    seed: int,
    first: int,
    count: int,
    fixed: bool,
    on_error: str,
    allow_import: bool,
    starting: tuple[int, ...] | None = None,
) -> _Tally:
    tally = _Tally(wins=[Fraction(0)] * len(bots))
    for game in range(first, first + count):
        seats = seating(bots, game, fixed=fixed)
        names = [bot_name(spec) for spec in seats]
        state = new_game(variant, len(seats), seed=game_seed(seed, game), starting_dice=starting)
        players = [
            make_bot(spec, state.seed * 1009 + seat, allow_import=allow_import)
            for seat, spec in enumerate(seats)
        ]
        game_tally = _Tally()
        opener = state.to_act
        try:
            state = _play_one(state, players, game_tally)
        except BotError as error:
            if on_error == "stop":
                raise
            tally.forfeits[error.bot] += 1
            continue
        tally.add(game_tally)
        tally.games += 1
        tally.rounds_histogram[game_tally.rounds] += 1
        for seat in state.winners:
            share = Fraction(1, len(state.winners))
            tally.wins[seat] += share
            if seat == opener:
                tally.first_player_wins += share
            tally.bot_wins[names[seat]] = tally.bot_wins.get(names[seat], Fraction(0)) + share
    return tally


def _play_one(state: GameState, players: list[Bot], tally: _Tally) -> GameState:
    """Play ``state`` to the end, counting into ``tally`` (which holds one game only)."""
    rounds = actions = 0
    while not state.is_over:
        actor, action, after = play_move(state, players)
        if isinstance(action, Act):
            tally.acts[action.word] += 1
        elif actor != state.to_act:
            tally.calls["exact-out-of-turn"] += 1
        if isinstance(action, Declare):
            tally.declarations[action.name] += 1
        actions += 1
        if after.last_result is not state.last_result:
            assert after.last_result is not None
            rounds += 1
            tally.calls[after.last_result.call] += 1
            if state.special_round is not None:
                tally.special[state.special_round] += 1
        state = after
    tally.rounds, tally.actions = rounds, actions
    tally.rounds_squared, tally.actions_squared = rounds * rounds, actions * actions
    return state


def _chunk(args: _Job) -> _Tally:
    variant, bots, seed, first, count, fixed, on_error, engine, allow_import, starting = args
    edition = load_variant(variant) if isinstance(variant, str) else variant
    if engine == "batch":
        return _play_batch(edition, bots, seed, first, count, fixed, starting)
    return _play_games(edition, bots, seed, first, count, fixed, on_error, allow_import, starting)


def _play_batch(
    variant: Variant,
    bots: tuple[Any, ...],
    seed: int,
    first: int,
    count: int,
    fixed: bool,
    starting: tuple[int, ...] | None = None,
) -> _Tally:
    """The games ``first`` to ``first + count`` on the batch engine, tallied as
    :func:`_play_games` tallies them."""
    import numpy as np

    from perudo.batch.bots import batch_bot
    from perudo.batch.match import play_bots

    names = sorted({bot_name(spec) for spec in bots})
    specs = {bot_name(spec): spec for spec in bots}
    chunk_seed = game_seed(seed, first)
    players = [batch_bot(specs[name], chunk_seed + 1 + k) for k, name in enumerate(names)]
    lineups = [seating(bots, game, fixed=fixed) for game in range(first, first + count)]
    seat_bots = np.array([[names.index(bot_name(spec)) for spec in seats] for seats in lineups])
    played = play_bots(
        variant,
        len(bots),
        seat_bots,
        [bot for bot in players if bot is not None],
        seed=chunk_seed,
        starting_dice=starting,
    )
    tally = _Tally(wins=[Fraction(0)] * len(bots))
    tally.games = count
    rounds, actions = played.rounds.tolist(), played.decisions.tolist()
    tally.rounds, tally.actions = sum(rounds), sum(actions)
    tally.rounds_squared = sum(n * n for n in rounds)
    tally.actions_squared = sum(n * n for n in actions)
    tally.rounds_histogram.update(rounds)
    for game, (winners, opener) in enumerate(zip(played.winners, played.opener, strict=True)):
        seats = np.flatnonzero(winners).tolist()
        share = Fraction(1, len(seats))
        for seat in seats:
            tally.wins[seat] += share
            name = names[seat_bots[game, seat]]
            tally.bot_wins[name] = tally.bot_wins.get(name, Fraction(0)) + share
            if seat == opener:
                tally.first_player_wins += share
    exact, out_of_turn = int(played.exact.sum()), int(played.out_of_turn.sum())
    calls = {"challenge": int(played.dudo.sum()), "exact": exact + out_of_turn}
    calls["exact-out-of-turn"] = out_of_turn
    tally.calls.update({call: n for call, n in calls.items() if n})
    special = int(played.special.sum())
    if special:
        tally.special[variant.words.declaration("special")] += special
    for name, n in zip(variant.declarations, played.declarations.sum(axis=0).tolist(), strict=True):
        if n:
            tally.declarations[name] += n
    return tally


def simulate(
    variant: Variant | str,
    players: int,
    games: int,
    *,
    bots: Sequence[BotSpec] = ("odds",),
    seed: int = 0,
    workers: int = 1,
    fixed_seats: bool = False,
    on_error: str = "stop",
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    engine: str = "auto",
    allow_import: bool = False,
    starting_dice: Sequence[int] | None = None,
) -> SimulationResult:
    """Play ``games`` games of ``players`` bots and tally them.

    Args:
        variant: The edition, or its key (a key only: never read as a path).
        players: Players per game.
        games: How many games, 0 to :data:`MAX_GAMES`.
        bots: Bots (any :data:`~perudo.bots.BotSpec`: a name of :data:`perudo.bots.BOTS`,
            ``"package.module:Name"``, a class or a function), given to the seats in turn (one
            gives every seat the same bot); no more than players. With several workers, they
            must be importable (names, or classes and functions of a module).
            ``"package.module:Name"`` imports that module: it needs ``allow_import``.
        seed: The run's seed; game ``i`` uses :func:`game_seed` of it.
        workers: Processes to share the games, 1 to :data:`MAX_WORKERS`; the result does not
            depend on it.
        fixed_seats: Keep each bot in its seat (by default bots move one seat a game, so
            each sits in every seat equally often over a multiple of ``players`` games).
        on_error: ``"stop"`` (raise :class:`~perudo.BotError`, naming the bot, its seat
            and the game's seed) or ``"forfeit"`` (the game counts in
            :attr:`SimulationResult.forfeits` only) when a bot raises or plays an illegal
            action.
        executor: Any :class:`concurrent.futures.Executor` to run the games on (a Dask
            cluster's: :func:`perudo.cluster.dask_executor`); ``workers`` then says how many
            chunks to keep in flight. The result is the same as on one process.
        progress: Called with (games done, games) as chunks finish.
        engine: ``"auto"`` (the default) plays on the batch engine (:mod:`perudo.batch`,
            the extra ``perudo[batch]``) when every bot has a batch form (``random``,
            ``odds``, ``reader``) and the edition uses only kinds it implements, else on
            :class:`~perudo.GameState`; ``"reference"`` always plays on GameState;
            ``"batch"`` insists on the batch engine. The two give the same results in
            distribution, not game for game: their dice differ.
        allow_import: Let ``"package.module:Name"`` bots import their module (see
            :func:`perudo.bots.make_bot`).
        starting_dice: Each seat's dice at the start of every game, a handicap (as
            :func:`perudo.new_game` takes it; it stays with the seat as the bots move).

    Raises:
        GameSetupError: a count, a bot or the player count is not one the edition allows,
            or ``engine="batch"`` cannot be had (the message says why).
        BotError: a bot failed and ``on_error`` is ``"stop"``.
    """
    if not isinstance(variant, Variant):
        variant = load_variant(variant)
    if type(games) is not int or not 0 <= games <= MAX_GAMES:
        raise GameSetupError(f"games {shown(games)} is not a count of games (0 to {MAX_GAMES})")
    if type(workers) is not int or not 1 <= workers <= MAX_WORKERS:
        raise GameSetupError(f"workers {shown(workers)} is not 1 to {MAX_WORKERS} processes")
    if isinstance(bots, str) or not isinstance(bots, Sequence) or not bots:
        raise GameSetupError(f"bots {shown(bots)} is not a list of bots")
    for spec in bots:
        make_bot(spec, 0, allow_import=allow_import)  # refuses a bot that does not resolve
    if on_error not in ("stop", "forfeit"):
        raise GameSetupError(f"on_error {shown(on_error)} is not 'stop' or 'forfeit'")
    # refuses a player count, or starting dice, the edition does not allow
    given = new_game(variant, players, seed=seed, starting_dice=starting_dice).starting_dice
    starting = None if starting_dice is None else given
    if len(bots) > players:
        raise GameSetupError(f"{len(bots)} bots named for {players} players")
    seats = tuple(bots[seat % len(bots)] for seat in range(players))
    names = tuple(bot_name(spec) for spec in seats)
    engine = _engine(engine, variant, seats)
    auto_size = max(1, min(1000, games // (workers * 8) or 1))
    size = BATCH_CHUNK if engine == "batch" else auto_size
    source: str | Variant = variant.key if _is_shipped(variant) else variant
    jobs = (
        (
            source,
            seats,
            seed,
            start,
            min(size, games - start),
            fixed_seats,
            on_error,
            engine,
            allow_import,
            starting,
        )
        for start in range(0, games, size)
    )
    tally = _Tally(wins=[Fraction(0)] * players)
    done = 0
    for part, count in _run(jobs, workers if games > size else 1, executor):
        tally.add(part)
        done += count
        if progress is not None:
            progress(done, games)
    return SimulationResult(
        variant=variant.key,
        players=players,
        games=tally.games,
        seed=seed,
        bots=names,
        fixed_seats=fixed_seats,
        rounds=tally.rounds,
        actions=tally.actions,
        rounds_squared=tally.rounds_squared,
        actions_squared=tally.actions_squared,
        bot_wins=tuple((bot, tally.bot_wins.get(bot, Fraction(0))) for bot in sorted(set(names))),
        forfeits=tuple(sorted(tally.forfeits.items())),
        first_player_wins=tally.first_player_wins,
        rounds_histogram=tuple(sorted(tally.rounds_histogram.items())),
        wins=tuple(tally.wins),
        calls=tuple(sorted(tally.calls.items())),
        special_rounds=tuple(sorted(tally.special.items())),
        declarations=tuple(sorted(tally.declarations.items())),
        acts=tuple(sorted(tally.acts.items())),
        engine=engine,
        starting_dice=starting,
    )


_Job = tuple[
    str | Variant, tuple[Any, ...], int, int, int, bool, str, str, bool, tuple[int, ...] | None
]


def _run(
    jobs: Iterator[_Job], workers: int, executor: Executor | None = None
) -> Iterator[tuple[_Tally, int]]:
    """Each job's tally and game count, in order; jobs are made as they are needed (a run
    of a billion games never holds a million jobs), at most two per worker in flight. With
    ``executor`` (the caller's: never shut down here), jobs go to it."""
    if executor is None and workers == 1:
        for job in jobs:
            yield _chunk(job), job[4]
        return
    pool = executor or ProcessPoolExecutor(max_workers=workers, initializer=_worker_signals)
    pending: list[tuple[Future[_Tally], int]] = []
    try:
        for job in jobs:
            pending.append((pool.submit(_chunk, job), job[4]))
            if len(pending) >= 2 * workers:
                future, count = pending.pop(0)
                yield future.result(), count
        for future, count in pending:
            yield future.result(), count
    finally:
        if executor is None:
            pool.shutdown(wait=True, cancel_futures=True)
        else:
            for future, _ in pending:
                future.cancel()


def _engine(engine: str, variant: Variant, bots: tuple[Any, ...]) -> str:
    """The engine a run plays on: ``"batch"`` or ``"reference"``.

    Raises:
        GameSetupError: ``engine`` is not one of :data:`ENGINES`, or ``"batch"`` was asked
            for and cannot be had (the message says why).
    """
    if engine not in ENGINES:
        raise GameSetupError(f"engine {shown(engine)} is not one of {', '.join(ENGINES)}")
    if engine == "reference":
        return engine
    why = _why_not_batch(variant, bots)
    if why is None:
        return "batch"
    if engine == "batch":
        raise GameSetupError(f"the batch engine cannot play this run: {why}")
    return "reference"


def _why_not_batch(variant: Variant, bots: tuple[Any, ...]) -> str | None:
    """Why the batch engine cannot play ``bots`` at ``variant``, or ``None`` if it can."""
    try:
        from perudo.batch.bots import batch_bot
        from perudo.batch.rules import batch_rules
    except ImportError as error:
        return str(error)
    try:
        batch_rules(variant)
    except GameSetupError as error:
        return str(error)
    for spec in bots:
        if batch_bot(spec) is None:
            return f"bot {bot_name(spec)} has no batch form (the batch bots: random, odds, reader)"
    return None


def _worker_signals() -> None:
    """Ctrl-C at a terminal reaches the workers too: let it end them without a traceback;
    the parent reports the interruption once."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _is_shipped(variant: Variant) -> bool:
    try:
        return load_variant(variant.key) == variant
    except PerudoError:
        return False
