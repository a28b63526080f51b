"""Many games between bots, tallied with honest statistics: how long games last, who wins,
which calls happen, each rate and mean with its 95% confidence interval.

Game ``i`` of a run with seed ``s`` has its own seed, drawn from ``(s, i)`` by BLAKE2b
(:func:`game_seed`): runs with different seeds share no game, and a run's result does not
depend on how many worker processes share it. Bots change seats from game to game so that
each sits in every seat equally often (``fixed_seats=True`` keeps them where they are).
"""

from __future__ import annotations

import array
import contextlib
import hashlib
import math
import os
import signal
import sys
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from fractions import Fraction
from typing import Any

import attrs

from perudo.actions import Act, Calza, Declare, Dudo
from perudo.bots import Bot, BotSpec, bot_name, make_bot
from perudo.errors import BotError, GameSetupError, PerudoError, shown
from perudo.loader import load_variant
from perudo.match import play_move
from perudo.setup import new_game
from perudo.state import GameState
from perudo.stats import (
    Difference,
    Interval,
    largest_gap,
    mean_interval,
    paired_difference,
    wilson,
)
from perudo.variant import Variant

__all__ = [
    "ENGINES",
    "LABELS",
    "MAX_GAMES",
    "MAX_WORKERS",
    "PAIRED",
    "GameOutcomes",
    "SimulationResult",
    "game_seed",
    "simulate",
]

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


#: The counters a run keeps of what happens in its games (:class:`SimulationResult`'s fields).
_EVENTS = ("calls", "special_rounds", "declarations", "acts")

#: The measures a paired comparison of two runs reads game by game
#: (:meth:`SimulationResult.paired`), each a field of :class:`GameOutcomes`.
PAIRED = ("first_player_advantage", "decisiveness", "game_length", "first_bot")
#: What a person reads for the measures of a game's play, in reports and studies.
LABELS = {
    "first_player_advantage": "first-player advantage",
    "decisiveness": "decisiveness",
    "game_length": "rounds per game",
}


@attrs.frozen(eq=False)
class GameOutcomes:
    """Each game's outcome, in game order: what a paired comparison of two runs on the same
    seeds reads (:meth:`SimulationResult.paired`). A forfeited game is NaN throughout.

    Attributes:
        first_player_advantage: The opener's share of the win (1, 0, or ``1/k`` of a win
            shared by ``k`` seats).
        decisiveness: The share of the win of the first player to lead alone.
        game_length: Rounds played.
        first_bot: The share of the win of the seats held by the lineup's first bot
            (``bots[0]``), per seat held.
    """

    first_player_advantage: array.array[float]
    decisiveness: array.array[float]
    game_length: array.array[float]
    first_bot: array.array[float]

    @classmethod
    def empty(cls) -> GameOutcomes:
        """No game yet."""
        return cls(*(array.array("d") for _ in PAIRED))

    def extend(self, other: GameOutcomes) -> None:
        """Add ``other``'s games after these."""
        for name in PAIRED:
            getattr(self, name).extend(getattr(other, name))

    def add(self, opener: float, leader: float, rounds: float, first_bot: float) -> None:
        """One game more."""
        for name, value in zip(PAIRED, (opener, leader, rounds, first_bot), strict=True):
            getattr(self, name).append(value)


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
            call, in or out of turn), ``"exact-out-of-turn"`` (those made out of turn),
            and where an edition opens them to every seat (a burst),
            ``"challenge-out-of-turn"`` and ``"bid-out-of-turn"``.
        special_rounds: ``(name, count)`` pairs: rounds played as the special round.
        declarations: ``(name, count)`` pairs of declarations made.
        acts: ``(word, count)`` pairs of the edition's own actions taken (Bluff's
            ``reroll``).
        forfeits: ``(bot, count)``: games a bot forfeited by failing (``on_error="forfeit"``);
            they count in no other figure, and ``games`` counts the others.
        place_wins: The wins of each place in turn order: the seat that opened the game
            first, then the seat on its left, and so on round the table.
        leader_wins: The wins of the first player to lead alone (more dice than every
            other player; more points where calls move points), in games where one did.
        rounds_histogram: ``(rounds, games)``: how many games lasted each number of rounds.
        engine: Where the games were played: ``"batch"`` (:mod:`perudo.batch`) or
            ``"reference"`` (:class:`~perudo.GameState`).
        starting_dice: Each seat's dice at the start of every game when given (a
            handicap), else ``None``.
        event_squares: ``(field, name, total)``: for each counter of ``calls``,
            ``special_rounds``, ``declarations`` and ``acts``, the sum over games of each
            game's count squared (for intervals: :meth:`per_game`).
        outcomes: Each game's outcome, for paired comparisons (:meth:`paired`), when the
            run kept them (``simulate(..., keep_games=True)``); not part of equality.
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
    place_wins: tuple[Fraction, ...] = ()
    leader_wins: Fraction = Fraction(0)
    rounds_histogram: tuple[tuple[int, int], ...] = ()
    engine: str = "reference"
    starting_dice: tuple[int, ...] | None = None
    acts: tuple[tuple[str, int], ...] = ()
    event_squares: tuple[tuple[str, str, int], ...] = ()
    outcomes: GameOutcomes | None = attrs.field(default=None, eq=False, repr=False)

    @property
    def fair_share(self) -> float:
        """``1 / players``: each seat's share of the wins were the game fair and the bots
        equal."""
        return 1 / self.players

    @property
    def first_player_wins(self) -> Fraction:
        """The wins of the seat that opened each game (``place_wins[0]``)."""
        return self.place_wins[0] if self.place_wins else Fraction(0)

    @property
    def first_player_interval(self) -> Interval:
        """The share of games won by the seat that opened them, with its 95% interval (a
        fair game gives ``1 / players``)."""
        return wilson(float(self.first_player_wins), self.games).percent()

    @property
    def first_player_advantage(self) -> Interval:
        """**First-player advantage**: the opener's share of the wins less the fair share
        (0 in a fair game; +0.05: the opener wins five games in a hundred more than a fair
        share), with its 95% interval."""
        return self.first_player_interval.less(self.fair_share)

    @property
    def place_intervals(self) -> tuple[Interval, ...]:
        """Each place's share of the wins in turn order (the opener first), with its 95%
        interval. Between equal bots, a share away from the fair one is the rules' doing."""
        return tuple(wilson(float(w), self.games).percent() for w in self.place_wins)

    @property
    def balance(self) -> Interval:
        """**Balance**: the largest gap between a place's share of the wins (the opener,
        the next to act, and so on) and the fair share: 0 when every place wins as often as
        the others. Its interval holds for all the places at once
        (:func:`perudo.stats.largest_gap`)."""
        return largest_gap([float(w) for w in self.place_wins], self.games, self.fair_share)

    @property
    def decisiveness(self) -> Interval:
        """**Decisiveness**: the share of games won by the first player to lead alone (more
        dice than every other player, or more points), with its 95% interval: the fair
        share if an early lead meant nothing, 100% if it always held."""
        return wilson(float(self.leader_wins), self.games).percent()

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
        """**Game length**: rounds per game, with its 95% interval."""
        return mean_interval(self.rounds, self.rounds_squared, self.games)

    @property
    def actions_interval(self) -> Interval:
        """Actions per game (game length counted in moves), with its 95% interval."""
        return mean_interval(self.actions, self.actions_squared, self.games)

    def per_game(self, field: str) -> tuple[tuple[str, Interval], ...]:
        """Each counter of ``field`` (``"calls"``, ``"special_rounds"``, ``"declarations"``
        or ``"acts"``) per game, with its 95% interval.

        Raises:
            ValueError: ``field`` is not one of those.
        """
        if field not in _EVENTS:
            raise ValueError(f"field {shown(field)} is not a counter of a simulation")
        squares = {name: total for kind, name, total in self.event_squares if kind == field}
        return tuple(
            (name, mean_interval(count, squares.get(name, count), self.games))
            for name, count in getattr(self, field)
        )

    @property
    def win_rate_by_seat(self) -> tuple[float, ...]:
        """Each seat's share of the games won."""
        return tuple(float(w / self.games) if self.games else 0.0 for w in self.wins)

    @property
    def seat_intervals(self) -> tuple[Interval, ...]:
        """Each seat's share of the games won, with its 95% (Wilson) interval. (Where the
        opener is drawn and every seat holds the same bot, each is the fair share by
        construction: :attr:`place_intervals` says more.)"""
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
        """Each bot's share of games won per seat held, with its 95% (Wilson) interval.
        (With one bot in every seat, the fair share by construction.)"""
        return tuple(
            (bot, wilson(float(wins), self._seats_held(bot)).percent())
            for bot, wins in self.bot_wins
        )

    def paired(self, other: SimulationResult, measure: str) -> Difference:
        """How much greater ``measure`` is here than in ``other``, a run of the same games
        (seeds, bots, table) under other rules, with its interval: the mean of the
        game-by-game differences (:func:`perudo.stats.paired_difference`). ``measure`` is
        one of :data:`PAIRED`: ``"first_player_advantage"``, ``"decisiveness"`` (shares of
        the win), ``"game_length"`` (rounds), ``"first_bot"`` (the first bot's share per
        seat held: the skill share, in a study's skill games).

        Raises:
            ValueError: ``measure`` is not one of those, or either run kept no outcomes
                (``simulate(..., keep_games=True)``) or they are not of the same games.
        """
        if measure not in PAIRED:
            raise ValueError(f"measure {shown(measure)} is not one of {', '.join(PAIRED)}")
        if self.outcomes is None or other.outcomes is None:
            raise ValueError("a paired comparison needs each game: simulate(..., keep_games=True)")
        same = ("players", "seed", "bots", "fixed_seats", "starting_dice")
        if any(getattr(self, name) != getattr(other, name) for name in same):
            raise ValueError("a paired comparison needs the same games: seed, bots and table")
        return paired_difference(
            getattr(self.outcomes, measure),
            getattr(other.outcomes, measure),
            percent=measure != "game_length",
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data, each rate and mean with its 95% interval."""

        def interval(value: Interval) -> dict[str, float]:
            return {"estimate": value.estimate, "low": value.low, "high": value.high}

        data = {
            "variant": self.variant,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "bots": list(self.bots),
            "fixed_seats": self.fixed_seats,
            "starting_dice": None if self.starting_dice is None else list(self.starting_dice),
            "engine": self.engine,
            "fair_share": self.fair_share,
            "first_player_advantage": interval(self.first_player_advantage),
            "balance": interval(self.balance),
            "decisiveness": interval(self.decisiveness),
            "mean_rounds": self.mean_rounds,
            "mean_actions": self.mean_actions,
            "rounds_per_game": interval(self.rounds_interval),
            "actions_per_game": interval(self.actions_interval),
            "first_player_win_share": interval(self.first_player_interval),
            "win_share_by_place": [interval(i) for i in self.place_intervals],
            "win_rate_by_seat": list(self.win_rate_by_seat),
            "win_share_by_seat": [interval(i) for i in self.seat_intervals],
            "calls": dict(self.calls),
            "special_rounds": dict(self.special_rounds),
            "declarations": dict(self.declarations),
            "acts": dict(self.acts),
            "per_game": {
                field: {name: interval(i) for name, i in self.per_game(field)} for field in _EVENTS
            },
            "forfeits": dict(self.forfeits),
            "rounds_histogram": {str(n): games for n, games in self.rounds_histogram},
        }
        if len(self.bot_wins) > 1:  # one bot in every seat holds the fair share by construction
            data["win_rate_by_bot"] = dict(self.win_rate_by_bot)
            data["win_share_per_seat_held_by_bot"] = {
                bot: interval(i) for bot, i in self.bot_intervals
            }
        return data


@attrs.define
class _Tally:
    """What a run, or a chunk of it, counted; :meth:`game` adds one game."""

    players: int
    first_bot: str  # the lineup's first bot, whose share per seat held each game keeps
    keep: bool = False  # keep each game's outcome
    games: int = 0
    rounds: int = 0
    actions: int = 0
    rounds_squared: int = 0
    actions_squared: int = 0
    wins: list[Fraction] = attrs.field(init=False)
    place_wins: list[Fraction] = attrs.field(init=False)
    leader_wins: Fraction = Fraction(0)
    bot_wins: dict[str, Fraction] = attrs.field(factory=dict)
    forfeits: Counter[str] = attrs.field(factory=Counter)
    rounds_histogram: Counter[int] = attrs.field(factory=Counter)
    events: dict[str, Counter[str]] = attrs.field(factory=lambda: {e: Counter() for e in _EVENTS})
    squares: Counter[tuple[str, str]] = attrs.field(factory=Counter)
    outcomes: GameOutcomes | None = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self.wins = [Fraction(0)] * self.players
        self.place_wins = [Fraction(0)] * self.players
        self.outcomes = GameOutcomes.empty() if self.keep else None

    def game(
        self,
        winners: Sequence[int],
        opener: int,
        leader: int,
        names: Sequence[str],
        rounds: int,
        actions: int,
        events: Iterable[tuple[str, str, int]],
    ) -> None:
        """One game played: its ``winners``, the seat that opened it, the first to lead
        alone (-1: nobody did), each seat's bot, its length and what happened in it
        (``(field, name, count)``: :data:`_EVENTS`' counters)."""
        n, share = self.players, Fraction(1, len(winners))
        self.games += 1
        self.rounds += rounds
        self.actions += actions
        self.rounds_squared += rounds * rounds
        self.actions_squared += actions * actions
        self.rounds_histogram[rounds] += 1
        for seat in winners:
            self.wins[seat] += share
            self.place_wins[(seat - opener) % n] += share
            self.bot_wins[names[seat]] = self.bot_wins.get(names[seat], Fraction(0)) + share
        if leader in winners:
            self.leader_wins += share
        for field, name, count in events:
            self.events[field][name] += count
            self.squares[field, name] += count * count
        if self.outcomes is not None:
            held = [seat for seat in range(n) if names[seat] == self.first_bot]
            first_bot = share * sum(seat in winners for seat in held) / len(held)
            self.outcomes.add(
                float(share * (opener in winners)), float(share * (leader in winners)), rounds,
                float(first_bot),
            )  # fmt: skip

    def forfeit(self, bot: str) -> None:
        """A game that ``bot`` forfeited: it counts only here."""
        self.forfeits[bot] += 1
        if self.outcomes is not None:
            self.outcomes.add(math.nan, math.nan, math.nan, math.nan)

    def add(self, other: _Tally) -> None:
        """The games of ``other``, a later chunk, after these."""
        self.games += other.games
        self.rounds += other.rounds
        self.actions += other.actions
        self.rounds_squared += other.rounds_squared
        self.actions_squared += other.actions_squared
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.place_wins = [a + b for a, b in zip(self.place_wins, other.place_wins, strict=True)]
        self.leader_wins += other.leader_wins
        for bot, wins in other.bot_wins.items():
            self.bot_wins[bot] = self.bot_wins.get(bot, Fraction(0)) + wins
        self.forfeits.update(other.forfeits)
        self.rounds_histogram.update(other.rounds_histogram)
        for field in _EVENTS:
            self.events[field].update(other.events[field])
        self.squares.update(other.squares)
        if self.outcomes is not None and other.outcomes is not None:
            self.outcomes.extend(other.outcomes)


def _sole_leader(values: Sequence[int]) -> int:
    """The seat holding more than every other (-1: none does)."""
    top = max(values)
    return values.index(top) if values.count(top) == 1 else -1


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
    starting: tuple[int, ...] | None,
    keep: bool,
) -> _Tally:
    tally = _Tally(players=len(bots), first_bot=bot_name(bots[0]), keep=keep)
    for game in range(first, first + count):
        seats = seating(bots, game, fixed=fixed)
        names = [bot_name(spec) for spec in seats]
        state = new_game(variant, len(seats), seed=game_seed(seed, game), starting_dice=starting)
        players = [
            make_bot(spec, state.seed * 1009 + seat, allow_import=allow_import)
            for seat, spec in enumerate(seats)
        ]
        opener = state.to_act
        assert opener is not None
        try:
            state, played = _play_one(state, players)
        except BotError as error:
            if on_error == "stop":
                raise
            tally.forfeit(error.bot)
            continue
        events = [(f, name, n) for f, counts in played.events.items() for name, n in counts.items()]
        tally.game(state.winners, opener, played.leader, names, played.rounds, played.actions,
                   events)  # fmt: skip
    return tally


#: What an action out of turn is counted as (a bid out of turn, a burst, is the rest).
_OUT_OF_TURN: dict[type, str] = {Calza: "exact-out-of-turn", Dudo: "challenge-out-of-turn"}


@attrs.define
class _Game:
    """What :func:`_play_one` saw of one game."""

    rounds: int = 0
    actions: int = 0
    leader: int = -1  # the first seat to lead alone
    events: dict[str, Counter[str]] = attrs.field(factory=lambda: {e: Counter() for e in _EVENTS})


def _play_one(state: GameState, players: list[Bot]) -> tuple[GameState, _Game]:
    """Play ``state`` to the end; the state it ends in, and what happened on the way."""
    game = _Game()
    events = game.events
    points = not state.variant.scoring.moves_dice
    while not state.is_over:
        actor, action, after = play_move(state, players)
        if isinstance(action, Act):
            events["acts"][action.word] += 1
        elif actor != state.to_act:  # out of turn: the exact call, or a burst
            events["calls"][_OUT_OF_TURN.get(type(action), "bid-out-of-turn")] += 1
        if isinstance(action, Declare):
            events["declarations"][action.name] += 1
        game.actions += 1
        if after.last_result is not state.last_result:
            assert after.last_result is not None
            game.rounds += 1
            events["calls"][after.last_result.call] += 1
            if state.special_player is not None:  # the role; the word names it
                events["special_rounds"][state.variant.words.declaration("special")] += 1
            if game.leader < 0:
                held = [p.score if points else len(p.dice) for p in after.players]
                game.leader = _sole_leader(held)
        state = after
    return state, game


def _chunk(job: _Job) -> _Tally:
    edition = load_variant(job.variant) if isinstance(job.variant, str) else job.variant
    if job.engine == "batch":
        return _play_batch(
            edition, job.bots, job.seed, job.first, job.count, job.fixed, job.starting, job.keep
        )
    return _play_games(
        edition, job.bots, job.seed, job.first, job.count, job.fixed, job.on_error,
        job.allow_import, job.starting, job.keep,
    )  # fmt: skip


def _play_batch(
    variant: Variant,
    bots: tuple[Any, ...],
    seed: int,
    first: int,
    count: int,
    fixed: bool,
    starting: tuple[int, ...] | None,
    keep: bool,
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
    tally = _Tally(players=len(bots), first_bot=bot_name(bots[0]), keep=keep)
    counts = {
        ("calls", "challenge"): played.dudo,
        ("calls", "exact"): played.exact,
        ("calls", "time"): played.late,
        ("calls", "exact-out-of-turn"): played.out_of_turn,
        ("calls", "challenge-out-of-turn"): played.dudo_out_of_turn,
        ("calls", "bid-out-of-turn"): played.bids_out_of_turn,
        ("special_rounds", variant.words.declaration("special") or ""): played.special,
        **{("acts", word): played.acts for word in variant.actions.words[:1]},  # the re-roll
        **{("declarations", name): played.declarations[:, k]
           for k, name in enumerate(variant.declarations)},
    }  # fmt: skip
    happened = {key: values.tolist() for key, values in counts.items() if values.any()}
    rounds, actions = played.rounds.tolist(), played.decisions.tolist()
    winners = [np.flatnonzero(row).tolist() for row in played.winners]
    openers, leaders = played.opener.tolist(), played.leader.tolist()
    lineup = [[names[k] for k in row] for row in seat_bots.tolist()]
    for game in range(count):
        events = [(f, name, values[game]) for (f, name), values in happened.items() if values[game]]
        tally.game(winners[game], openers[game], leaders[game], lineup[game], rounds[game],
                   actions[game], events)  # fmt: skip
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
    keep_games: bool = False,
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
        keep_games: Keep each game's outcome (:attr:`SimulationResult.outcomes`, four
            numbers a game), for paired comparisons with a run of other rules on the same
            seeds (:meth:`SimulationResult.paired`).

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
        _Job(
            variant=source,
            bots=seats,
            seed=seed,
            first=start,
            count=min(size, games - start),
            fixed=fixed_seats,
            on_error=on_error,
            engine=engine,
            allow_import=allow_import,
            starting=starting,
            keep=keep_games,
        )
        for start in range(0, games, size)
    )
    tally = _Tally(players=players, first_bot=names[0], keep=keep_games)
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
        place_wins=tuple(tally.place_wins),
        leader_wins=tally.leader_wins,
        rounds_histogram=tuple(sorted(tally.rounds_histogram.items())),
        wins=tuple(tally.wins),
        calls=tuple(sorted(tally.events["calls"].items())),
        special_rounds=tuple(sorted(tally.events["special_rounds"].items())),
        declarations=tuple(sorted(tally.events["declarations"].items())),
        acts=tuple(sorted(tally.events["acts"].items())),
        event_squares=tuple(sorted((f, name, n) for (f, name), n in tally.squares.items())),
        outcomes=tally.outcomes,
        engine=engine,
        starting_dice=starting,
    )


@attrs.frozen(kw_only=True)
class _Job:
    """One chunk of a simulation, sent to a worker: the games ``first`` to ``first +
    count`` of the edition (its key when shipped, so a worker loads it itself)."""

    variant: str | Variant
    bots: tuple[Any, ...]
    seed: int
    first: int
    count: int
    fixed: bool
    on_error: str
    engine: str
    allow_import: bool
    starting: tuple[int, ...] | None
    keep: bool


def _run(
    jobs: Iterator[_Job], workers: int, executor: Executor | None = None
) -> Iterator[tuple[_Tally, int]]:
    """Each job's tally and game count, in order; jobs are made as they are needed (a run
    of a billion games never holds a million jobs), at most two per worker in flight. With
    ``executor`` (the caller's: never shut down here), jobs go to it."""
    if executor is None and workers == 1:
        for job in jobs:
            yield _chunk(job), job.count
        return
    pool = executor or ProcessPoolExecutor(
        max_workers=workers, initializer=_worker_signals, initargs=(os.getpid(),)
    )
    pending: list[tuple[Future[_Tally], int]] = []
    try:
        for job in jobs:
            pending.append((pool.submit(_chunk, job), job.count))
            if len(pending) >= 2 * workers:
                future, count = pending.pop(0)
                yield future.result(), count
        for future, count in pending:
            yield future.result(), count
    except BaseException:  # interrupted, terminated, or a failure: no chunk is waited for
        if executor is None:
            _stop_workers(pool)
        raise
    finally:
        if executor is None:
            pool.shutdown(wait=True, cancel_futures=True)
        else:
            for future, _ in pending:
                future.cancel()


def _stop_workers(pool: Executor) -> None:
    """End ``pool``'s worker processes at once (their chunks are not wanted any more)."""
    processes = getattr(pool, "_processes", None) or {}  # the standard library's own record
    for process in list(processes.values()):
        with contextlib.suppress(Exception):
            process.terminate()


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
    if why is None and engine == "auto":
        why = _why_not_compiled(variant, bots)
        if why is not None:  # said, then played on the reference engine
            warnings.warn(
                f"perudo: the batch engine failed to compile its steps for {variant.key} "
                f"({why}): the run plays on the reference engine", RuntimeWarning,
                stacklevel=3,
            )  # fmt: skip
    if why is None:
        return "batch"
    if engine == "batch":
        raise GameSetupError(f"the batch engine cannot play this run: {why}")
    return "reference"


def _why_not_compiled(variant: Variant, bots: tuple[Any, ...]) -> str | None:
    """Why the batch engine's steps do not compile for ``bots`` at ``variant`` (one game
    played, which compiles them or loads them from numba's cache), or ``None``."""
    from perudo.batch import match
    from perudo.batch.bots import batch_bot

    names = sorted({bot_name(spec) for spec in bots})
    specs = {bot_name(spec): spec for spec in bots}
    players = [batch_bot(specs[name], 1) for name in names]
    seat_bots = [[names.index(bot_name(spec)) for spec in bots]]
    try:
        import numpy as np

        match.play_bots(variant, len(bots), np.array(seat_bots),
                        [bot for bot in players if bot is not None], seed=1)  # fmt: skip
    except (KeyboardInterrupt, PerudoError):
        raise
    except Exception as error:  # numba's, LLVM's: the compiler, not the rules
        return f"{type(error).__name__}: {shown(str(error))}"
    return None


def _why_not_batch(variant: Variant, bots: tuple[Any, ...]) -> str | None:
    """Why the batch engine cannot play ``bots`` at ``variant``, or ``None`` if it can."""
    try:
        from perudo.batch.bots import batch_bot, unjudged
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
        if bot_name(spec) != "random" and (why := unjudged(variant)) is not None:
            return why
    return None


def _worker_signals(parent: int) -> None:
    """Ctrl-C at a terminal reaches the workers too: let it end them without a traceback;
    the parent reports the interruption once. On Linux a worker also ends with its parent,
    however the parent ends (SIGTERM, SIGKILL): no worker waits for ever for work."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: SIGKILL when the parent ends
            if os.getppid() != parent:  # the parent ended before the line above
                os._exit(1)


def _is_shipped(variant: Variant) -> bool:
    try:
        return load_variant(variant.key) == variant
    except PerudoError:
        return False
