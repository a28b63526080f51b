"""One table of a server, without its transport: the game, who sits where, the bots, and
what each seat may see. A server (``perudo serve``, or your own) turns connections into
calls of :class:`Table` and sends what :meth:`~perudo.web.Table.message` gives each seat.

Every change to a table is handed to its store (a :class:`~perudo.web.store.TableStore`,
or anything with its ``save``) before the call that made it returns, so a server that
answers a move once the store has it never answers one a crash can lose.

>>> import tempfile, pathlib, perudo
>>> from perudo.web import Table, TableSetup, TableStore
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> store = TableStore(folder / "perudo.sqlite")
>>> setup = TableSetup(variant="italian", bots=(None, "odds", "odds"), seed=7)
>>> table = Table.create(store, b"k" * 32, "t1", setup, perudo.load_variant("italian"))
>>> seat, token = table.join("Ana")
>>> seat, table.to_act is not None
(0, True)
"""

from __future__ import annotations

import functools
import hashlib
import secrets
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol

import attrs

import perudo
from perudo.bots import BOTS, Bot, make_bot
from perudo.errors import (
    GameSetupError,
    IllegalActionError,
    InvalidVariantError,
    RecordError,
    StoreError,
    shown,
)
from perudo.match import choose_move, timeout_move
from perudo.narration import Line, narrate, opening, places, told
from perudo.notation import refused_as_typed, spoken_words
from perudo.record import GameRecord
from perudo.state import GameState
from perudo.svg import table_svg
from perudo.variant import Variant
from perudo.web.protocol import PROTOCOL
from perudo.web.store import StoredTable
from perudo.web.turn import choices

__all__ = [
    "BENCH_AFTER",
    "LET_GO",
    "MAX_NAME",
    "MAX_TIMEOUT",
    "STAND_IN",
    "Saves",
    "Table",
    "TableSetup",
    "let_go_word",
]

#: The longest player name a table takes (characters).
MAX_NAME = 24
#: The longest a person's turn may wait, in seconds.
MAX_TIMEOUT = 3600.0
#: The bot that plays a person's turn once it has waited out the timeout.
STAND_IN = "odds"
#: The refused moves in a row after which a seat is benched, and a bot plays for it until
#: it connects again (a program that keeps sending what the rules refuse holds up the table).
BENCH_AFTER = 5


class Saves(Protocol):
    """Where a table saves itself: a :class:`~perudo.web.TableStore`, or a server's own
    writer that batches the writes of many tables (``perudo serve``'s)."""

    def save(self, table: StoredTable) -> None:
        """Keep ``table`` (a server answers the change once it is on disk)."""


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@attrs.frozen
class TableSetup:
    """How a table is set up: what its creator chose.

    Attributes:
        variant: The key of the edition played (one the server offers).
        bots: One entry per seat: a bot's name (:data:`perudo.bots.BOTS`), or ``None`` for
            a person's seat.
        seed: The game's seed (``None``: one drawn from :mod:`secrets`). Every die follows
            from it, so a seed somebody chose is shown to everyone at the table
            (``perudo serve`` takes one only for a table of one person and bots).
        timeout: Seconds a person's turn waits before a bot
            (:data:`~perudo.web.table.STAND_IN`) plays it: that turn, for a person whose
            page is here; every turn until they are back, for one whose page has gone
            for this long.
    """

    variant: str
    bots: tuple[str | None, ...]
    seed: int | None = None
    timeout: float = 60.0

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.variant, str) or not 0 < len(self.variant) <= 80:
            raise GameSetupError(f"the edition {shown(self.variant)} is not an edition key")
        if not isinstance(self.bots, tuple) or not 2 <= len(self.bots) <= 20:
            raise GameSetupError("a table has 2 to 20 seats, each a bot's name or None")
        for bot in self.bots:
            if bot is not None and bot not in BOTS:
                raise GameSetupError(f"{shown(bot)} is not a bot: one of {', '.join(BOTS)}")
        if None not in self.bots:
            raise GameSetupError("a table needs a seat for at least one person")
        if self.seed is not None and (type(self.seed) is not int or not 0 <= self.seed < 2**64):
            raise GameSetupError(f"the seed {shown(self.seed)} is not a whole number of 64 bits")
        timeout = self.timeout
        if type(timeout) not in (int, float) or not 0 <= timeout <= MAX_TIMEOUT:
            raise GameSetupError(f"the timeout {shown(timeout)} is not 0 to {MAX_TIMEOUT:g} s")

    @property
    def players(self) -> int:
        """The seats at the table."""
        return len(self.bots)

    def to_dict(self) -> dict[str, Any]:
        """The setup as JSON-ready values (:meth:`~perudo.web.TableSetup.from_dict` reads them)."""
        return {"variant": self.variant, "bots": list(self.bots), "seed": self.seed,
                "timeout": self.timeout}  # fmt: skip

    @classmethod
    def from_dict(cls, data: Any) -> TableSetup:
        """The setup in ``data`` (from a form, a message or the store), checked.

        Raises:
            GameSetupError: a missing or bad value, named.
        """
        if not isinstance(data, dict):
            raise GameSetupError("a table's setup is an object of variant, bots, seed, timeout")
        bots = data.get("bots")
        if not isinstance(bots, list) or len(bots) > 20:
            raise GameSetupError("bots is a list of 2 to 20 seats, each a bot's name or null")
        return cls(
            variant=data.get("variant"),  # type: ignore[arg-type]  # checked when made
            bots=tuple(bots),
            seed=data.get("seed"),
            timeout=data.get("timeout", 60.0),
        )


@attrs.define
class _Seat:
    """A person's seat: the name they gave, their token's hash, whether a page holds it,
    and since when it has been dropped."""

    name: str | None = None
    token: str | None = None  # the hash: the token itself is the person's alone
    present: bool = False
    dropped: float = 0.0  # the clock when the last page let it go


class Table:
    """One table: its game, its people and bots; made by :meth:`~perudo.web.Table.create`
    or rebuilt by :meth:`~perudo.web.Table.load`. Every method runs to its end without
    waiting for anything but the store, so a server calls them under one lock per table.

    Attributes:
        id: The table's name.
        setup: How it was set up.
        state: The game now.
        closed: When it left its server's active tables (finished, or closed by
            :meth:`~perudo.web.Table.close`), ``None`` while it is active.
        stopped: Why the game was stopped, where its rules broke (a round that never
            ends): the table is then closed, and every page is told why.
        creator: Who made it, as its server names them (a keyed hash of an address).
        log: The game told so far (:mod:`perudo.narration`): only what the whole table
            saw, so every seat and spectator is sent the same lines.
        rematch: The table of the rematch, once a person at this one asked for it.
        benched: The seats a bot plays for since they sent
            :data:`~perudo.web.table.BENCH_AFTER` refused moves in a row, until their page
            or program connects again.
    """

    def __init__(
        self, store: Saves, key: bytes, stored: StoredTable, setup: TableSetup,
        state: GameState, seats: list[_Seat], passed: set[tuple[int, int, int]],
        clock: Callable[[], float], log: list[Line] | None = None, rematch: str | None = None,
    ) -> None:  # fmt: skip
        self.id = stored.id
        self.created = stored.created
        self.closed = stored.closed
        self.creator = stored.creator
        self.setup = setup
        self.state = state
        self._store, self._key, self._clock = store, key, clock
        self._seats = seats
        self._passed = passed
        self.stopped: str | None = None
        self.log: list[Line] = log if log is not None else [opening(state)]
        self.rematch = rematch
        self.benched: set[int] = set()
        self._refused = [0] * len(setup.bots)  # each seat's refused moves in a row
        self._turn_began = clock()  # the clock when the move now awaited became due
        bots: list[Bot] = []
        for seat, name in enumerate(setup.bots):
            bots.append(make_bot(name or STAND_IN, state.seed * 31 + seat))
        self._bots = bots

    # --- making and rebuilding -------------------------------------------------------

    @classmethod
    def create(
        cls, store: Saves, key: bytes, table_id: str, setup: TableSetup, variant: Variant,
        *, clock: Callable[[], float] = time.monotonic, creator: str = "",
    ) -> Table:  # fmt: skip
        """A new table ``table_id`` playing ``variant`` (whose key is ``setup.variant``),
        saved in ``store``; its records and its row are signed with ``key``; ``creator``
        names who made it (kept in its row)."""
        if variant.key != setup.variant:
            raise GameSetupError(f"the setup names {shown(setup.variant)}, not {variant.key!r}")
        names = [f"Player {seat + 1}" if bot is None else f"{bot.title()} bot {seat + 1}"
                 for seat, bot in enumerate(setup.bots)]  # fmt: skip
        state = perudo.new_game(variant, names, seed=setup.seed)
        stored = StoredTable(id=table_id, created=time.time(), setup=setup.to_dict(), people={},
                             record="", over=False, creator=creator)  # fmt: skip
        seats = [_Seat() for _ in setup.bots]
        table = cls(store, key, stored, setup, state, seats, set(), clock)
        table._save()
        return table

    @classmethod
    def load(
        cls, store: Saves, key: bytes, stored: StoredTable, variants: Mapping[str, Variant],
        *, clock: Callable[[], float] = time.monotonic,
    ) -> Table:  # fmt: skip
        """The table ``stored`` rebuilt: its row's signature and its record checked against
        ``key``, and the record replayed under the edition of ``variants`` it names. Every
        seat starts dropped (its turn waits for its person, then for the timeout).

        Raises:
            StoreError: the row does not rebuild (a row this key did not sign, its setup,
                an edition the server no longer offers, a record whose signature or moves
                do not hold), named.
        """
        if not stored.is_signed_by(key):
            raise StoreError(f"table {shown(stored.id)} does not rebuild: its row is not signed "
                             "by this server's key (written by another program or an older "
                             "perudo)")  # fmt: skip
        try:
            setup = TableSetup.from_dict(stored.setup)
            variant = variants.get(setup.variant)
            if variant is None:
                raise StoreError(f"table {shown(stored.id)} plays {setup.variant!r}, which this "
                                 "server does not offer")  # fmt: skip
            record = GameRecord.from_text(stored.record, key=key)
            last: list[GameState] = []
            log = narrate(_kept(record.states(variant), last))
            state = last[0]
            people = stored.people
            rematch = people.get("rematch")
            if rematch is not None and not isinstance(rematch, str):
                raise TypeError("its rematch")
            seats = [
                _Seat(name=_name_or_none(entry.get("name")), token=entry.get("token"))
                for entry in people.get("seats", [])
            ]
            passed = {(int(a), int(b), int(c)) for a, b, c in people.get("passed", [])}
        except (GameSetupError, RecordError, AttributeError, TypeError, ValueError) as error:
            raise StoreError(f"table {shown(stored.id)} does not rebuild: {error}") from None
        if len(seats) != setup.players:
            raise StoreError(f"table {shown(stored.id)} does not rebuild: its seats")
        now = clock()
        for seat in seats:
            seat.dropped = now
        return cls(store, key, stored, setup, state, seats, passed, clock, log=log,
                   rematch=rematch)  # fmt: skip

    def rematched(self, table_id: str, *, creator: str = "") -> Table:
        """A new table ``table_id`` for the rematch of this finished game: the same
        edition, bots and timeout, a new secret seed (a chosen seed goes on by one), and
        each person's seat kept for them (their name, and the page that holds their token
        takes it back); saved, and named in :attr:`rematch`.

        Raises:
            GameSetupError: the game is not over, or its rematch was made already.
        """
        if not self.state.is_over:
            raise GameSetupError("a rematch follows a finished game")
        if self.rematch is not None:
            raise GameSetupError(f"the rematch is table {self.rematch}")
        seed = None if self.setup.seed is None else self.setup.seed + 1
        setup = attrs.evolve(self.setup, seed=seed)
        table = Table.create(self._store, self._key, table_id, setup, self.state.variant,
                             clock=self._clock, creator=creator)  # fmt: skip
        for person, kept in zip(table._seats, self._seats, strict=True):
            person.name, person.token = kept.name, kept.token
        table._name_the_game()
        table._save()
        self.rematch = table_id
        self._save()
        return table

    # --- people ------------------------------------------------------------------------

    def join(self, name: str, token: str | None = None) -> tuple[int | None, str | None]:
        """A page arrives: the seat of ``token`` (a page coming back), else a person's seat
        nobody holds, taken under ``name`` with a new token, else none (a spectator).
        The seat and its token (the page keeps it; ``None`` for a spectator).

        Raises:
            GameSetupError: ``name`` is not a name (1 to
                :data:`~perudo.web.table.MAX_NAME` printable characters), or another seat's.
        """
        if token is not None:
            for seat, person in enumerate(self._seats):
                if person.token is not None and secrets.compare_digest(
                    person.token, _token_hash(token)
                ):
                    person.present = True
                    self.benched.discard(seat)  # back: its own moves again
                    self._refused[seat] = 0
                    return seat, token
        checked = _checked_name(name)
        if checked.casefold() in (taken.casefold() for taken in self.names()):
            raise GameSetupError(f"the name {shown(checked)} is taken at this table")
        for seat, bot in enumerate(self.setup.bots):
            person = self._seats[seat]
            if bot is None and person.token is None:
                token = secrets.token_urlsafe(24)
                person.name, person.token, person.present = checked, _token_hash(token), True
                if not self.state.log.moves:  # before the first move: the game takes the name
                    self._name_the_game()
                self._turn_began = self._clock()  # the game may start now: its clock too
                self._save()
                return seat, token
        return None, None

    def leave(self, seat: int) -> None:
        """The page holding ``seat`` has gone: its turn waits for the timeout."""
        person = self._seats[seat]
        person.present, person.dropped = False, self._clock()

    @property
    def ready(self) -> bool:
        """Every person's seat has been taken (the game waits until then)."""
        return all(bot is not None or person.token is not None
                   for bot, person in zip(self.setup.bots, self._seats, strict=True))  # fmt: skip

    def close(self) -> None:
        """Take the table out of play (its server closes it as abandoned): it is saved
        with the time, and refuses every move after."""
        if self.closed is None:
            self.closed = time.time()
            self._save()

    def stood_in(self) -> list[int]:
        """The people's seats a bot plays for now: dropped for longer than the timeout,
        or benched."""
        now = self._clock()
        return [
            seat
            for seat, person in enumerate(self._seats)
            if self.setup.bots[seat] is None
            and person.token is not None
            and (seat in self.benched or (not person.present
                                          and now - person.dropped >= self.setup.timeout))
        ]  # fmt: skip

    # --- play ----------------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        """The seat to act (``None``: the game is over)."""
        return self.state.to_act

    def play(self, seat: int, move: str) -> IllegalActionError | None:
        """``seat``'s move, written in the notation or the edition's words: played and
        saved, or the refusal (returned, not raised: a server sends it to that page). The
        :data:`~perudo.web.table.BENCH_AFTER`-th refused move in a row (a move sent a
        moment too late, as the turn passed, is not counted) benches a person's seat: see
        :attr:`benched`."""
        if self.stopped is not None:
            return IllegalActionError("not-your-turn", f"this game was stopped: {self.stopped}")
        if self.closed is not None and not self.state.is_over:
            return IllegalActionError("not-your-turn", "this table was closed: nobody was here")
        if not self.ready:
            return IllegalActionError("not-your-turn", "the game starts once every seat is taken")
        if seat in self.benched:
            told = f"a bot plays for you since {BENCH_AFTER} refused moves: connect again to play"
            return IllegalActionError("not-your-turn", told)
        refusal = self._play(seat, move)
        if refusal is None:
            self._refused[seat] = 0
        elif refusal.reason != "not-your-turn":
            self._refused[seat] += 1
            if self._refused[seat] >= BENCH_AFTER and self.setup.bots[seat] is None:
                self.benched.add(seat)
        return refusal

    def _play(self, seat: int, move: str) -> IllegalActionError | None:
        if not isinstance(move, str):
            return IllegalActionError("malformed-action", "a move is text such as 3x5")
        if move.strip().lower() == let_go_word(self.state.variant):
            if seat != self.waiting_for():
                return IllegalActionError("not-your-turn", "there is nothing to let go now")
            self._passed.add((*self._moment(), seat))
            self._save()
            return None
        before = self.state
        try:
            action = perudo.parse_action(move[:200], variant=self.state.variant)
            self.state = self.state.apply(action, by=seat)
        except IllegalActionError as error:  # told with the move as the player wrote it
            told = refused_as_typed(error, move[:200])
            return IllegalActionError(error.reason, told, action=error.action, player=seat)
        except InvalidVariantError as error:  # the rules broke (a round that never ends)
            self._stop(error)
            return IllegalActionError("not-your-turn", f"this game was stopped: {self.stopped}")
        self._moved(before)
        return None

    @property
    def bots_may_move(self) -> bool:
        """Whether :meth:`~perudo.web.Table.bots_move` would move now: a bot is to act, or
        the stand-in for a person whose turn has waited out the timeout (or who dropped
        longer ago than that), and no person may still act out of turn."""
        state = self.state
        if state.is_over or self.closed is not None or not self.ready:
            return False
        seat = state.to_act
        if seat is None or self.waiting_for() is not None:
            return False
        return self.setup.bots[seat] is not None or self._out_of_time() or seat in self.stood_in()

    def bots_move(self) -> bool:
        """One move by the bot to act, or by the stand-in for a person out of time; saved.
        Whether a move was made (none while a person is to act in time, the table is not
        full, or a person may still act out of turn)."""
        if not self.bots_may_move:
            return False
        before = self.state
        try:
            seat = self.state.to_act
            person = seat is not None and self.setup.bots[seat] is None
            move = timeout_move(self.state) if person and self._out_of_time() else None
            if move is not None and seat is not None:  # the edition's move, out of time
                self.state = self.state.apply(move, by=seat, late=True)
            else:  # a bot's, or the stand-in's for a person out of time (marked late)
                mover, action = choose_move(self.state, self._bots)
                self.state = self.state.apply(action, by=mover, late=person and mover == seat)
        except InvalidVariantError as error:  # the rules broke: the table stops, and says so
            self._stop(error)
            return True
        self._moved(before)
        return True

    def _stop(self, error: InvalidVariantError) -> None:
        self.stopped = str(error)[:300]  # the engine's own words, bounded
        self.close()

    def seconds_left(self) -> float | None:
        """How long the person to act has before their turn is played for them (``None``:
        a bot is to act, nobody, or the game waits for its people)."""
        seat = self.state.to_act
        if seat is None or self.setup.bots[seat] is not None or not self.ready:
            return None
        return max(0.0, self.turn_time - (self._clock() - self._turn_began))

    @property
    def turn_time(self) -> float:
        """The seconds a person has to act: the edition's own (its ``clock`` kind's
        ``seconds``) where it sets one, else the table's timeout."""
        seconds = self.state.variant.clock.seconds
        return self.setup.timeout if seconds is None else float(seconds)

    def _out_of_time(self) -> bool:
        return self._clock() - self._turn_began >= self.turn_time

    def _name_the_game(self) -> None:
        """The game, not yet begun, made again with the seats' names as they are now."""
        self.state = perudo.new_game(self.state.variant, self.names(), seed=self.state.seed)
        self.log = [opening(self.state)]

    def _moved(self, before: GameState) -> None:
        self.log.extend(told(before, self.state))
        self._turn_began = self._clock()
        self._save()

    def waiting_for(self) -> int | None:
        """The person the bots wait for: one who may take an action of the edition's own
        out of turn now (Bluff's bidder, right after the bid) and has not let it go."""
        state = self.state
        if state.is_over or not state.variant.actions.out_of_turn:
            return None
        if self._out_of_time():  # the moment to act out of turn has passed for everyone
            return None
        stood_in, moment = self.stood_in(), self._moment()  # once, not once a seat
        for seat, bot in enumerate(self.setup.bots):
            if bot is not None or seat == state.to_act or seat in stood_in:
                continue
            if (*moment, seat) in self._passed:
                continue
            if any(isinstance(a, perudo.Act) for a in state.legal_actions(by=seat)):
                return seat
        return None

    def _moment(self) -> tuple[int, int]:
        return self.state.round_number, len(self.state.bids)

    # --- what each seat sees ---------------------------------------------------------------

    def message(self, seat: int | None, since: int = 0) -> dict[str, Any]:
        """What ``seat`` is sent (``None``: a spectator): its view only, as a dict and as
        the SVG table, each seat's name, the moves it may make (in the edition's words:
        ``"dubito"``, not ``"dudo"``; :func:`perudo.parse_action` reads them back) and
        laid out for a picker (:func:`perudo.web.turn.choices`), the game's log from line
        ``since`` on (``log_start`` says where it starts), the seats a bot plays for, the
        seconds the person to act has left, the places once the game is over, the
        rematch's table once asked for, and the seed if somebody chose it (then it is
        everyone's)."""
        view = self.state.public_view() if seat is None else self.state.view(seat)
        since = min(max(since, 0), len(self.log))
        data: dict[str, Any] = {
            "type": "view",
            "protocol": PROTOCOL,
            "table": self.id,
            "edition": self.state.variant.name,
            "seat": seat,
            "view": view.to_dict(),
            "svg": table_svg(view),
            "names": self.names(),
            "people": [bot is None for bot in self.setup.bots],
            "dice_in_play": self.state.dice_in_play,
            "log_start": since,
            "log": [line.to_dict() for line in self.log[since:]],
            "places": places(self.state, self.log) if self.state.is_over else [],
            "rematch": self.rematch,
            "stood_in": self.stood_in(),
            "ready": self.ready,
            "seconds_left": self.seconds_left(),
            "closed": self.closed is not None and not self.state.is_over,
            "stopped": self.stopped,
        }
        if self.setup.seed is not None:
            data["seed"] = self.setup.seed
        if seat is not None:
            words = spoken_words(self.state.variant)
            legal = [words.get(action, str(action)) for action in view.legal_actions]
            turn = (choices(self.state, seat, view.legal_actions) if legal
                    else {"faces": [], "pressured": [], "moves": []})  # fmt: skip
            let_go = let_go_word(self.state.variant)
            if let_go is not None and seat == self.waiting_for():
                legal.append(let_go)
                legend = f"{let_go.capitalize()}: you let the option go"
                turn["moves"].append({"move": let_go, "kind": "call", "legend": legend})
            data["legal"] = legal
            data["turn"] = turn
        return data

    def names(self) -> list[str]:
        """Each seat's name: the person's own, else the seat's (a bot's, or a free seat's)."""
        seats = zip(self._seats, self.state.players, strict=True)
        return [person.name or player.name for person, player in seats]

    def record_text(self) -> str:
        """The game's record, signed with the server's key (for a finished game's page)."""
        return GameRecord.from_state(self.state).to_text(key=self._key)

    # --- inside ------------------------------------------------------------------------

    def _save(self) -> None:
        if self.state.is_over and self.closed is None:  # a finished game leaves play
            self.closed = time.time()
        people = {
            "seats": [{"name": p.name, "token": p.token} for p in self._seats],
            "passed": sorted(list(entry) for entry in self._passed),
        } | ({"rematch": self.rematch} if self.rematch is not None else {})
        stored = StoredTable(
            id=self.id, created=self.created, setup=self.setup.to_dict(), people=people,
            record=self.record_text(), over=self.state.is_over, closed=self.closed,
            creator=self.creator,
        )  # fmt: skip
        self._store.save(stored.signed(self._key))


#: The table's words, in order of preference, for letting an out-of-turn option go (Bluff's
#: re-roll); the first the edition does not use for an action of its own.
LET_GO = ("pass", "let go", "let it go")


@functools.cache
def let_go_word(variant: Variant) -> str | None:
    """The word a seat sends to let an out-of-turn option go: ``"pass"``, unless the
    edition says ``pass`` for an action of its own (its words always win over the table's);
    ``None`` if the edition uses every word of :data:`LET_GO` (then the option lapses at the
    table's timeout).

    >>> import perudo
    >>> let_go_word(perudo.load_variant("bluff"))
    'pass'
    >>> let_go_word(perudo.load_variant("italian").derive("x", reason="a test",
    ...                                                   words={"dudo": "Pass"}))
    'let go'
    """
    taken = {word for word, _ in variant.words.action_words()}
    return next((word for word in LET_GO if word not in taken), None)


def _kept(states: Iterator[GameState], last: list[GameState]) -> Iterator[GameState]:
    """``states``, the last kept in ``last``."""
    for state in states:
        last[:] = [state]
        yield state


def _checked_name(name: Any) -> str:
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME:
        raise GameSetupError(f"a name is 1 to {MAX_NAME} characters, not {shown(name)}")
    checked: str = name.strip()
    if not checked.isprintable():
        raise GameSetupError(f"the name {shown(checked)} holds characters that do not print")
    return checked


def _name_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None
