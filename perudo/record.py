"""Game records: everything needed to replay a game exactly, as text or JSON.

A record holds a header (the edition key and the fingerprint of its declaration, the seed,
the player names, the first player when it was given, the starting dice when a handicap
gave them, the dice set by hand) and the moves,
each with the seat that made it. The text form, one item a line::

    perudo-record 1
    variant italian
    fingerprint sha256:0123456789abcdef
    seed 7
    players ["Ana", "Ben", "Cleo"]
    first-player 0
    starting-dice [5, 5, 5]
    dice 1 [[1, 4, 4, 5, 6], [2, 2, 3, 4, 6], [1, 3, 3, 5, 5]]
    1 0 3x4
    2 1 dudo
    end 2

``first-player`` is present only when the game's first player was given rather than
rolled off, ``starting-dice`` only when each seat's starting dice were given
(``new_game(starting_dice=...)``); each ``dice R hands`` line is a round whose dice were
set by hand (with ``new_game(dice=...)`` for round 1 or
:meth:`~perudo.GameState.with_dice`), at most once a round, in round order. Move lines
are ``number seat action`` in :mod:`perudo.notation`; a move that re-rolled dice (Bluff's
``reroll``) ends with ``->`` and the faces the re-rolled dice showed (``7 1 reroll 2 5 -> 1
3 6``), so the record replays the re-roll as it fell. A move the table made for its player,
whose time ran out (the edition's clock, or a stand-in), is followed by ``late N``, its
number. ``end N`` closes the record, so a truncated file is refused. A record written
with a key ends with ``signature hmac-sha256:HEX``, the HMAC-SHA256 of every line before
it.

A record holds the seed, and every die of the game follows from it: it is the referee's.
A player gets :meth:`~perudo.GameRecord.for_player`, what that player saw.

Records are read within limits, checked before any parsing: :data:`MAX_RECORD_CHARS`
characters and :data:`MAX_MOVES` moves. Replaying is linear in the number of moves.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
from collections import deque
from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from perudo.actions import (
    MAX_DICE_PER_PLAYER,
    MAX_FACES,
    MAX_PLAYERS,
    Act,
    Action,
    canonical_action,
)
from perudo.dice import SEED_LIMIT
from perudo.errors import (
    GameSetupError,
    IllegalActionError,
    PerudoError,
    RecordError,
    UnknownVariantError,
    shown,
)
from perudo.loader import is_edition_key, load_variant
from perudo.notation import parse_action
from perudo.players import Hands, name_problem
from perudo.resolution import Resolution
from perudo.setup import new_game
from perudo.state import GameState
from perudo.variant import Variant

__all__ = [
    "FORMAT_VERSION",
    "MAX_MOVES",
    "MAX_RECORD_CHARS",
    "MIN_KEY_BYTES",
    "GameRecord",
    "Hands",
    "PlayerRecord",
    "PlayerRound",
    "read_record",
    "state_from_dict",
    "state_to_dict",
]

FORMAT_VERSION = 1

#: The longest record read, in characters (text or JSON), checked before parsing.
MAX_RECORD_CHARS = 4 * 1024 * 1024
#: The most moves a record may hold (a ten-player game takes about 1,000).
MAX_MOVES = 200_000
#: The shortest signing key taken, in bytes (an HMAC key is best 32 random bytes).
MIN_KEY_BYTES = 16
_SIGNATURE = "hmac-sha256:"
_FINGERPRINT = re.compile(r"sha256:[0-9a-f]{16}", re.ASCII)


@attrs.frozen
class GameRecord:
    """A game as its header and moves; :meth:`replay` rebuilds the exact state.

    Attributes:
        variant: The edition key.
        fingerprint: The fingerprint of the edition's declaration (:attr:`Variant.fingerprint`).
        seed: The game's seed.
        players: The player names, in seat order.
        first_player: The seat that opened round 1 when it was given, ``None`` for a roll-off.
        dice: ``(round, hands)`` for each round whose dice were set by hand, in order.
        moves: ``(seat, action)`` for each action, in order.
        starting_dice: Each seat's dice at the start when they were given (a handicap),
            ``None`` when every seat started with the edition's.
        rolls: ``(move number, faces)`` for each move that re-rolled dice (Bluff's
            ``reroll``; moves numbered from 1): the faces the re-rolled dice showed.
        late: The numbers (from 1) of the moves the table made for their player, whose
            time ran out (the edition's ``clock`` move, or a stand-in's): ``perudo serve``
            and ``perudo play`` mark them.
    """

    variant: str
    fingerprint: str
    seed: int
    players: tuple[str, ...]
    first_player: int | None = None
    dice: tuple[tuple[int, Hands], ...] = ()
    moves: tuple[tuple[int, Action], ...] = ()
    starting_dice: tuple[int, ...] | None = None
    rolls: tuple[tuple[int, tuple[int, ...]], ...] = ()
    late: tuple[int, ...] = ()

    @classmethod
    def from_state(cls, state: GameState) -> GameRecord:
        """The record of ``state``'s game so far: :meth:`replay` rebuilds ``state``.

        It holds the seed, from which every die follows: it is the referee's, never a
        player's (a player gets :meth:`for_player`).
        """
        log = state.log
        return cls(
            variant=state.variant.key,
            fingerprint=state.variant.fingerprint,
            seed=state.seed,
            players=tuple(player.name for player in state.players),
            first_player=log.first_player,
            dice=log.dice,
            moves=log.moves,
            starting_dice=log.starting_dice,
            rolls=log.rolls,
            late=log.lates,
        )

    def _repr_svg_(self) -> str:
        """The picture of the position the record leads to (a shipped edition's)."""
        return str(self.replay()._repr_svg_())

    # --- replay --------------------------------------------------------------------------

    def replay(self, variant: Variant | None = None, *, max_moves: int = MAX_MOVES) -> GameState:
        """The state after every move, replayed under the record's edition.

        Args:
            variant: The edition, for one that is not shipped (a house rule): the caller
                supplies it, and its key and fingerprint must match the record's. By
                default, the shipped edition whose key the record names; the key is never
                read as a path.
            max_moves: The most moves replayed: a longer record is refused before any is
                (a server sets its own, see the server how-to).

        Raises:
            RecordError: the edition is not shipped and was not given, does not match the
                fingerprint, or a move is illegal (``reason``, ``move`` and ``player`` say
                which; the :class:`~perudo.IllegalActionError` is the ``__cause__``).
        """
        _check_moves(len(self.moves), max_moves)
        return self.replay_as(self._edition(variant))

    def states(
        self, variant: Variant | None = None, *, max_moves: int = MAX_MOVES
    ) -> Iterator[GameState]:
        """The state at the start, then after each move, replayed as :meth:`replay` does
        (one at a time: a long game is never held whole).

        Raises:
            RecordError: as :meth:`replay`, when the state that breaks is reached.
        """
        _check_moves(len(self.moves), max_moves)
        return self._states(self._edition(variant))

    def replay_as(self, variant: Variant) -> GameState:
        """The same seed, names, dice and moves replayed under ``variant``, any edition:
        what :func:`perudo.verdicts` uses to rebuild a position elsewhere.

        Raises:
            RecordError: the table or a move is not legal in ``variant`` (named).
        """
        (state,) = deque(self._states(variant), maxlen=1)  # the last, keeping no other
        return state

    def for_player(self, player: int, variant: Variant | None = None) -> PlayerRecord:
        """What seat ``player`` saw of the game: its own hand each round, every move, and
        each call as the table saw it. No seed and no other hidden die: the record to hand
        to that player.

        Raises:
            RecordError: as :meth:`replay`, or ``player`` is not a seat of the game.
        """
        if type(player) is not int or not 0 <= player < len(self.players):
            raise RecordError(f"player {shown(player)} is not a seat of this game")
        edition = self._edition(variant)
        states = self._states(edition)
        start = last = next(states)
        assert start.to_act is not None  # a game that starts has a player to act
        rounds: list[PlayerRound] = []
        moves: list[tuple[int, Action]] = []
        rolled: list[tuple[int, tuple[int, ...]]] = []  # the player's own re-rolls
        late: list[int] = []  # the moves made out of time, seen by every player
        for state in states:
            log = state.log
            assert log.last is not None
            moves.append(log.last)
            if log.rolled is not None and log.last[0] == player:
                rolled.append((len(moves), log.rolled))
            if log.late:
                late.append(len(moves))
            if state.round_number != start.round_number or state.is_over:
                opener, hand = start.to_act, start.players[player].dice
                assert opener is not None  # a round that had moves had a player to act
                result = state.last_result
                rounds.append(
                    PlayerRound(
                        number=start.round_number,
                        hand=hand,
                        opener=opener,
                        moves=tuple(moves),
                        result=result,
                        rolled=tuple(rolled),
                        late=tuple(late),
                    )
                )
                start, moves, rolled, late = state, [], [], []
            last = state
        if not last.is_over:  # the round in progress, with the hand as the player sees it now
            assert start.to_act is not None
            hand = last.view(player).dice
            rounds.append(
                PlayerRound(
                    number=start.round_number,
                    hand=hand,
                    opener=start.to_act,
                    moves=tuple(moves),
                    result=None,
                    rolled=tuple(rolled),
                    late=tuple(late),
                )
            )
        return PlayerRecord(
            variant=self.variant,
            fingerprint=self.fingerprint,
            players=self.players,
            player=player,
            rounds=tuple(rounds),
            winners=last.winners,
        )

    def _edition(self, variant: Variant | None) -> Variant:
        if variant is None:
            try:
                variant = load_variant(self.variant)
            except UnknownVariantError:
                raise RecordError(
                    f"the record is of {self.variant!r}, which is not a shipped edition: "
                    "pass its Variant to replay it"
                ) from None
        if variant.key != self.variant:
            raise RecordError(f"the record is of {self.variant!r}, not {variant.key!r}")
        if variant.fingerprint != self.fingerprint:
            raise RecordError(
                f"the declaration of {self.variant!r} has changed since the game was recorded "
                f"(fingerprint {variant.fingerprint}, record {self.fingerprint})"
            )
        return variant

    def _states(self, variant: Variant) -> Iterator[GameState]:
        """The state at the start, then after each move (with the next round's dice set)."""
        pending = deque(self.dice)
        first_dice = pending.popleft()[1] if pending and pending[0][0] == 1 else None
        try:
            state = new_game(
                variant,
                self.players,
                seed=self.seed,
                dice=first_dice,
                first_player=self.first_player,
                starting_dice=self.starting_dice,
            )
        except GameSetupError as error:
            raise RecordError(f"the header does not start a game: {error}") from None
        state = _set_dice(state, pending)
        yield state
        rolls, late = dict(self.rolls), set(self.late)
        stray = [n for n in self.late if type(n) is not int or not 1 <= n <= len(self.moves)]
        if stray:
            raise RecordError(f"late {shown(stray[0])}: the record has no such move")
        for number, (seat, action) in enumerate(self.moves, start=1):
            try:
                state = state.apply(action, by=seat, rolled=rolls.get(number), late=number in late)
            except IllegalActionError as error:
                raise RecordError(
                    f"move {number} (seat {seat}, {action}) is illegal: {error.reason}: {error}",
                    reason=error.reason,
                    move=number,
                    player=seat,
                ) from error
            except GameSetupError as error:
                raise RecordError(f"move {number} (seat {seat}, {action}): {error}") from None
            state = _set_dice(state, pending)
            yield state
        if pending:
            raise RecordError(f"dice for round {pending[0][0]} were never used")

    # --- text ----------------------------------------------------------------------------

    def to_text(self, *, key: bytes | None = None) -> str:
        """The record in the text notation described above; with ``key``, signed
        (HMAC-SHA256) so that :meth:`from_text` with the same key refuses any change."""
        lines = [
            f"perudo-record {FORMAT_VERSION}",
            f"variant {self.variant}",
            f"fingerprint {self.fingerprint}",
            f"seed {self.seed}",
            f"players {json.dumps(list(self.players), ensure_ascii=False)}",
        ]
        if self.first_player is not None:
            lines.append(f"first-player {self.first_player}")
        if self.starting_dice is not None:
            lines.append(f"starting-dice {json.dumps(list(self.starting_dice))}")
        lines += [f"dice {number} {json.dumps(_lists(hands))}" for number, hands in self.dice]
        rolls, late = dict(self.rolls), set(self.late)
        for number, (seat, action) in enumerate(self.moves, start=1):
            faces = rolls.get(number)
            rolled = "" if faces is None else " -> " + " ".join(map(str, faces))
            lines.append(f"{number} {seat} {action}{rolled}")
            if number in late:
                lines.append(f"late {number}")
        lines.append(f"end {len(self.moves)}")
        text = "\n".join(lines) + "\n"
        if key is not None:
            text += f"signature {_sign(text, key)}\n"
        return text

    @classmethod
    def from_text(
        cls, text: str, *, key: bytes | None = None, max_moves: int = MAX_MOVES
    ) -> GameRecord:
        """Read a record written by :meth:`to_text`.

        Args:
            key: The key the record was signed with: the signature must be there and match,
                else the record is refused. Without a key, a signature line is not checked.
            max_moves: The most moves read: at the first move past it the record is
                refused (at most :data:`~perudo.record.MAX_MOVES`).

        Raises:
            RecordError: a record over the limits, a malformed line (named by number), a
                missing header item, a truncated record, or a missing or wrong signature.
        """
        if not isinstance(text, str):
            raise RecordError(f"a record is text, not {type(text).__name__}")
        _check_size(text)
        _check_moves(0, max_moves)
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        lines = [line.removesuffix("\r") for line in lines]
        signature = None
        if lines and lines[-1].startswith("signature "):
            signature = lines.pop().removeprefix("signature ")
        if key is not None:
            _verify(text[: text.rfind("signature ")] if signature else text, signature, key)
        if not lines or lines[0] != f"perudo-record {FORMAT_VERSION}":
            raise RecordError(f"line 1: expected 'perudo-record {FORMAT_VERSION}'")
        header: dict[str, Any] = {}
        dice: list[tuple[int, Hands]] = []
        moves: list[tuple[int, Action]] = []
        rolls: list[tuple[int, tuple[int, ...]]] = []
        late: list[int] = []
        ended = False
        for number, line in enumerate(lines[1:], start=2):
            where = f"line {number}"
            if ended:
                raise RecordError(f"{where}: text after 'end'")
            key_word, _, rest = line.partition(" ")
            if key_word in (
                "variant",
                "fingerprint",
                "seed",
                "players",
                "first-player",
                "starting-dice",
            ):
                if key_word in header:
                    raise RecordError(f"{where}: {key_word} given twice")
                header[key_word] = _header_value(key_word, rest, where)
            elif key_word == "dice":
                round_text, _, hands_text = rest.partition(" ")
                _add_dice(dice, _natural(round_text, where), _hands(hands_text, where), where)
            elif key_word == "end":
                if _natural(rest, where, zero=True) != len(moves):
                    raise RecordError(
                        f"{where}: 'end {shown(rest)}' but the record has {len(moves)} moves"
                    )
                ended = True
            elif key_word == "late":  # the move just read was made out of time
                number_late = _natural(rest, where)
                if number_late != len(moves) or (late and late[-1] == number_late):
                    raise RecordError(
                        f"{where}: 'late {number_late}' does not follow move {number_late} "
                        "(or follows it twice)"
                    )
                late.append(number_late)
            elif _is_natural(key_word):
                rest, arrow, faces = rest.partition(" -> ")
                moves.append(_move_line(key_word, rest, len(moves) + 1, where, max_moves))
                if arrow:
                    rolls.append((len(moves), _faces(faces.split(" "), where)))
            else:
                raise RecordError(f"{where}: cannot read {shown(line)}")
        if not ended:
            raise RecordError("the record is truncated: no 'end' line")
        for key_word in ("variant", "fingerprint", "seed", "players"):
            if key_word not in header:
                raise RecordError(f"the header has no {key_word}")
        return cls(
            variant=header["variant"],
            fingerprint=header["fingerprint"],
            seed=header["seed"],
            players=header["players"],
            first_player=header.get("first-player"),
            dice=tuple(dice),
            moves=tuple(moves),
            starting_dice=header.get("starting-dice"),
            rolls=tuple(rolls),
            late=tuple(late),
        )

    # --- JSON ----------------------------------------------------------------------------

    @classmethod
    def parse(
        cls, text: str | bytes, *, key: bytes | None = None, max_moves: int = MAX_MOVES
    ) -> GameRecord:
        """Read a record in either notation: JSON (:meth:`from_json`) when its first
        character but spaces is ``{``, else text (:meth:`from_text`), with ``key`` and
        ``max_moves`` as there.

        Raises:
            RecordError: as :meth:`from_text` or :meth:`from_json`; bytes that are not
                UTF-8.
        """
        if isinstance(text, bytes):
            if len(text) > 4 * MAX_RECORD_CHARS:  # UTF-8: at most 4 bytes a character
                _check_size(text)
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError as error:
                raise RecordError(f"the record is not UTF-8 text (byte {error.start})") from None
        if isinstance(text, str) and text.lstrip()[:1] == "{":
            return cls.from_json(text, key=key, max_moves=max_moves)
        return cls.from_text(text, key=key, max_moves=max_moves)

    def to_dict(self, *, key: bytes | None = None) -> dict[str, Any]:
        """The record as JSON-ready data (actions in :mod:`perudo.notation`); with ``key``,
        a ``signature`` field signs the rest (HMAC-SHA256 of its canonical JSON)."""
        data: dict[str, Any] = {
            "format": "perudo-record",
            "version": FORMAT_VERSION,
            "variant": self.variant,
            "fingerprint": self.fingerprint,
            "seed": self.seed,
            "players": list(self.players),
            "first_player": self.first_player,
            "dice": [{"round": number, "hands": _lists(hands)} for number, hands in self.dice],
            "moves": _move_dicts(self.moves, dict(self.rolls), set(self.late)),
        }
        if self.starting_dice is not None:  # absent otherwise, as in records made before
            data["starting_dice"] = list(self.starting_dice)
        if key is not None:
            data["signature"] = _sign(_canonical(data), key)
        return data

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any], *, key: bytes | None = None, max_moves: int = MAX_MOVES
    ) -> GameRecord:
        """Read :meth:`to_dict`'s data back, checking every field.

        Args:
            key: As for :meth:`from_text`: the ``signature`` field must be there and match.
            max_moves: As for :meth:`from_text`.

        Raises:
            RecordError: a missing, malformed or oversized field, named; a missing or wrong
                signature.
        """
        if not isinstance(data, Mapping):
            raise RecordError("a record is a JSON object")
        _check_moves(0, max_moves)
        expected = {"format", "version", "variant", "fingerprint", "seed", "players"}
        expected |= {"first_player", "dice", "moves"}
        if "starting_dice" in data:
            expected.add("starting_dice")
        given = set(data) - {"signature"}
        if given != expected:
            missing, extra = expected - given, given - expected
            raise RecordError(
                f"record fields: missing {sorted(missing)}, "
                f"unknown {shown(sorted(map(str, extra)))}"
            )
        if key is not None:
            signature = data.get("signature")
            if signature is not None and not isinstance(signature, str):
                raise RecordError("the signature is not text")
            _verify(_canonical({k: data[k] for k in expected}), signature, key)
        if data["format"] != "perudo-record" or data["version"] != FORMAT_VERSION:
            raise RecordError(f"not a perudo-record version {FORMAT_VERSION}")
        first = data["first_player"]
        if first is not None and (not _is_int(first) or not 0 <= first < MAX_PLAYERS):
            raise RecordError(f"first_player {shown(first)} is not a seat")
        dice = data["dice"]
        moves = data["moves"]
        if not isinstance(dice, list) or not isinstance(moves, list):
            raise RecordError("dice and moves are lists")
        _check_moves(len(moves), max_moves)
        if len(dice) > MAX_MOVES + 1:
            raise RecordError(f"the record has more than {MAX_MOVES + 1} rounds of dice")
        read_dice: list[tuple[int, Hands]] = []
        for entry in dice:
            if not isinstance(entry, Mapping) or set(entry) != {"round", "hands"}:
                raise RecordError(f"dice entry {shown(entry)} is not {{round, hands}}")
            if not _is_int(entry["round"]) or not 1 <= entry["round"] <= MAX_MOVES + 1:
                raise RecordError(f"dice round {shown(entry['round'])} is not a round number")
            where = f"dice of round {entry['round']}"
            _add_dice(read_dice, entry["round"], _hand_tuple(entry["hands"], where), where)
        read_moves: list[tuple[int, Action]] = []
        read_rolls: list[tuple[int, tuple[int, ...]]] = []
        read_late: list[int] = []
        for number, entry in enumerate(moves, start=1):
            fields = set(entry) if isinstance(entry, Mapping) else None
            if fields is None or not {"player", "action"} <= fields <= _MOVE_FIELDS:
                raise RecordError(
                    f"move {number}: {shown(entry)} is not {{player, action}} "
                    "(and rolled, for a re-roll; late, for a move made out of time)"
                )
            if "late" in entry:
                if entry["late"] is not True:
                    raise RecordError(f"move {number}: late {shown(entry['late'])} is not true")
                read_late.append(number)
            if not _is_int(entry["player"]) or not 0 <= entry["player"] < MAX_PLAYERS:
                raise RecordError(f"move {number}: player {shown(entry['player'])} is not a seat")
            read_moves.append((entry["player"], _action(entry["action"], f"move {number}")))
            if "rolled" in entry:
                read_rolls.append((number, _faces(entry["rolled"], f"move {number} rolled")))
        return cls(
            variant=_checked_key(data["variant"], "variant"),
            fingerprint=_checked_fingerprint(data["fingerprint"], "fingerprint"),
            seed=_checked_seed(data["seed"], "seed"),
            players=_checked_names(data["players"], "players"),
            first_player=first,
            dice=tuple(read_dice),
            moves=tuple(read_moves),
            starting_dice=(
                _checked_counts(data["starting_dice"], "starting_dice")
                if "starting_dice" in data
                else None
            ),
            rolls=tuple(read_rolls),
            late=tuple(read_late),
        )

    def to_json(self, *, key: bytes | None = None) -> str:
        """The record as a JSON document (signed with ``key``, as :meth:`to_dict`)."""
        return json.dumps(self.to_dict(key=key), ensure_ascii=False, indent=1)

    @classmethod
    def from_json(
        cls, text: str | bytes, *, key: bytes | None = None, max_moves: int = MAX_MOVES
    ) -> GameRecord:
        """Read a record written by :meth:`to_json` (verified with ``key``, and at most
        ``max_moves`` moves, as :meth:`from_dict`). The size limit is checked before the
        JSON is parsed."""
        if not isinstance(text, str | bytes):
            raise RecordError(f"a record is JSON text, not {type(text).__name__}")
        _check_size(text)
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
            raise RecordError(f"not JSON: {str(error)[:100]}") from None
        return cls.from_dict(data, key=key, max_moves=max_moves)


@attrs.frozen
class PlayerRound:
    """One round as one player saw it.

    Attributes:
        number: The round, from 1.
        hand: The player's own hand (``()`` once out).
        opener: The seat that opened the round.
        moves: ``(seat, action)`` for each action of the round.
        result: The call that ended the round, with only the hands the table saw.
        rolled: ``(move, faces)`` for each of the player's own re-rolls this round (the
            move numbered from 1 within the round): what the player saw fall under the cup.
        late: The moves of the round (numbered from 1 within it) the table made for their
            player, out of time: the whole table saw it.
    """

    number: int
    hand: tuple[int, ...]
    opener: int
    moves: tuple[tuple[int, Action], ...]
    result: Resolution | None
    rolled: tuple[tuple[int, tuple[int, ...]], ...] = ()
    late: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "round": self.number,
            "hand": list(self.hand),
            "opener": self.opener,
            "moves": _move_dicts(self.moves, dict(self.rolled), set(self.late)),
            "result": None if self.result is None else self.result.to_dict(),
        }


@attrs.frozen
class PlayerRecord:
    """What one player saw of a game: :meth:`~perudo.GameRecord.for_player`. It holds no seed and
    no die that player did not see, so it may be handed to them (or published after the
    game, one per player). It is an account, not a replay: hidden dice are not in it.

    Attributes:
        variant: The edition key.
        fingerprint: The fingerprint of the edition's declaration.
        players: The player names, in seat order.
        player: The seat whose account this is.
        rounds: Every round so far, as that player saw it.
        winners: The winning seats, once the game is over.
    """

    variant: str
    fingerprint: str
    players: tuple[str, ...]
    player: int
    rounds: tuple[PlayerRound, ...]
    winners: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "format": "perudo-player-record",
            "version": FORMAT_VERSION,
            "variant": self.variant,
            "fingerprint": self.fingerprint,
            "players": list(self.players),
            "player": self.player,
            "rounds": [played.to_dict() for played in self.rounds],
            "winners": list(self.winners),
        }

    def to_json(self) -> str:
        """The account as a JSON document."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)


def read_record(
    path: str | os.PathLike[str], *, key: bytes | None = None, max_moves: int = MAX_MOVES
) -> GameRecord:
    """The record in the file at ``path``, in either notation (:meth:`perudo.GameRecord.parse`,
    with ``key`` and ``max_moves`` as there). At most :data:`MAX_RECORD_CHARS` characters
    are read (in UTF-8, at most four times as many bytes): a longer file is refused
    without reading the rest.

    Raises:
        RecordError: the file cannot be read (missing, a folder, not allowed), is too long,
            or holds no record (as :meth:`perudo.GameRecord.parse`).
    """
    where = shown(os.fspath(path))
    try:
        with open(path, "rb") as file:
            data = file.read(4 * MAX_RECORD_CHARS + 1)  # UTF-8 is at most 4 bytes a character
    except OSError as error:
        raise RecordError(f"cannot read the record {where}: {error.strerror}") from None
    return GameRecord.parse(data, key=key, max_moves=max_moves)


# --- saved states ------------------------------------------------------------------------

_STATE_KEYS = frozenset({"format", "version", "record", "position"})


def state_to_dict(state: GameState, *, key: bytes | None = None) -> dict[str, Any]:
    """``state`` as JSON-ready data: its record, and the position it leads to.

    :func:`state_from_dict` replays the record and checks it gives the same position. Like
    the record, it holds the seed and so every die: it is the referee's, never a player's
    (a player gets :meth:`~perudo.GameState.view` or :meth:`GameRecord.for_player`). With
    ``key``, the record is signed (:meth:`GameRecord.to_dict`).
    """
    return {
        "format": "perudo-state",
        "version": 1,
        "record": GameRecord.from_state(state).to_dict(key=key),
        "position": _position(state),
    }


def state_from_dict(
    data: Mapping[str, Any],
    *,
    variant: Variant | None = None,
    key: bytes | None = None,
    max_moves: int = MAX_MOVES,
) -> GameState:
    """The state saved by :func:`state_to_dict`.

    Args:
        variant: The edition, for one that is not shipped (a house rule); the data's
            edition key is only ever looked up among the shipped editions.
        key: The key the state was signed with; an unsigned or changed state is refused.
        max_moves: The most moves its record may hold (:meth:`GameRecord.from_dict`).

    Raises:
        RecordError: the data is malformed, its record does not replay, or the position
            it states is not the one its record leads to.
    """
    if not isinstance(data, Mapping) or set(data) != _STATE_KEYS:
        raise RecordError("a state is an object with format, version, record and position")
    if data["format"] != "perudo-state" or data["version"] != 1:
        raise RecordError("not a perudo-state version 1")
    state = GameRecord.from_dict(data["record"], key=key, max_moves=max_moves).replay(variant)
    if _position(state) != data["position"]:
        raise RecordError("the position does not match the one its record leads to")
    return state


def _position(state: GameState) -> dict[str, Any]:
    position: dict[str, Any] = {
        "round_number": state.round_number,
        "to_act": state.to_act,
        "players": [
            {
                "name": p.name,
                "dice": list(p.dice),
                "score": p.score,
                "pressure_left": p.pressure_left,
                "had_special": p.had_special,
                "open": list(p.open),
            }
            for p in state.players
        ],
        "bids": [placed.to_dict() for placed in state.bids],
        "special_round": state.special_round,
        "special_player": state.special_player,
        "offers": list(state.offers),
        "must_declare": state.must_declare,
        "pressured": state.pressured,
        "last_result": None if state.last_result is None else state.last_result.to_dict(),
    }
    if state.owed:  # only where a special round queues: earlier states read the same
        position["owed"] = list(state.owed)
    if state.must_bid:  # only after an action said together with a bid: the same
        position["must_bid"] = True
    return position


# --- reading helpers ---------------------------------------------------------------------


def _lists(hands: Hands) -> list[list[int]]:
    return [list(hand) for hand in hands]


def _is_int(value: Any) -> bool:
    return type(value) is int


_MAX_DIGITS = 40  # seeds are 64-bit; nothing in a record needs more digits


def _check_size(text: str | bytes) -> None:
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(f"the record is longer than {MAX_RECORD_CHARS} characters")


def _canonical(data: Mapping[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _checked_key_bytes(key: Any) -> bytes:
    if not isinstance(key, bytes | bytearray):
        raise RecordError(f"a signing key is a bytes value, not {type(key).__name__}")
    if len(key) < MIN_KEY_BYTES:
        raise RecordError(
            f"a signing key has at least {MIN_KEY_BYTES} bytes (this one has {len(key)}): "
            "use secrets.token_bytes(32)"
        )
    return bytes(key)


def _sign(text: str, key: bytes) -> str:
    checked = _checked_key_bytes(key)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as error:  # a lone surrogate, from "\ud800" in JSON
        raise RecordError(
            f"the record is not valid Unicode text ({shown(error.object[error.start])} at "
            f"character {error.start})"
        ) from None
    return _SIGNATURE + hmac.new(checked, data, hashlib.sha256).hexdigest()


def _verify(text: str, signature: str | None, key: bytes) -> None:
    expected = _sign(text, key)
    if signature is None:
        raise RecordError("the record is not signed")
    if not hmac.compare_digest(expected.encode(), signature.encode("utf-8", "replace")):
        raise RecordError("the record's signature does not match: it was changed or forged")


def _is_natural(text: str) -> bool:
    return (
        0 < len(text) <= _MAX_DIGITS
        and text.isascii()
        and text.isdigit()
        and (text == "0" or not text.startswith("0"))
    )


def _natural(text: str, where: str, *, zero: bool = False) -> int:
    if not _is_natural(text) or (not zero and text == "0"):
        raise RecordError(f"{where}: {shown(text)} is not a number")
    return int(text)


def _json(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
        raise RecordError(f"{where}: {shown(text)} is not JSON") from None


def _checked_key(value: Any, where: str) -> str:
    if not is_edition_key(value):
        raise RecordError(f"{where}: {shown(value)} is not an edition key")
    return str(value)


def _checked_fingerprint(value: Any, where: str) -> str:
    if not isinstance(value, str) or _FINGERPRINT.fullmatch(value) is None:
        raise RecordError(f"{where}: {shown(value)} is not a fingerprint (sha256:16 hex digits)")
    return value


def _checked_seed(value: Any, where: str) -> int:
    if not _is_int(value) or not -SEED_LIMIT < value < SEED_LIMIT:
        raise RecordError(f"{where}: {shown(value)} is not a seed (an integer of 64 bits)")
    return int(value)


def _checked_names(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_PLAYERS:
        raise RecordError(f"{where}: {shown(value)} is not a list of 1 to {MAX_PLAYERS} names")
    for name in value:
        problem = name_problem(name)
        if problem is not None:
            raise RecordError(f"{where}: player name {shown(name)} {problem}")
    return tuple(value)


def _checked_counts(value: Any, where: str) -> tuple[int, ...]:
    """Starting dice: one small whole number per seat (the game checks them against the
    edition when the record is replayed)."""
    if (
        not isinstance(value, list)
        or not 1 <= len(value) <= MAX_PLAYERS
        or not all(_is_int(n) and 1 <= n <= MAX_DICE_PER_PLAYER for n in value)
    ):
        raise RecordError(
            f"{where}: starting dice {shown(value)} is not a list of 1 to {MAX_PLAYERS} "
            f"counts of 1 to {MAX_DICE_PER_PLAYER} dice"
        )
    return tuple(value)


def _header_value(key: str, rest: str, where: str) -> Any:
    if key == "variant":
        return _checked_key(rest, where)
    if key == "fingerprint":
        return _checked_fingerprint(rest, where)
    if key == "seed":
        digits = rest.removeprefix("-")
        if not _is_natural(digits):
            raise RecordError(f"{where}: seed {shown(rest)} is not an integer")
        return _checked_seed(int(rest), where)
    if key == "players":
        return _checked_names(_json(rest, where), where)
    if key == "starting-dice":
        return _checked_counts(_json(rest, where), where)
    seat = _natural(rest, where, zero=True)
    if seat >= MAX_PLAYERS:
        raise RecordError(f"{where}: first-player {seat} is not a seat")
    return seat


def _add_dice(dice: list[tuple[int, Hands]], number: int, hands: Hands, where: str) -> None:
    """Add a round's dice: once a round, in round order."""
    if dice and number <= dice[-1][0]:
        problem = "given twice" if any(n == number for n, _ in dice) else "out of order"
        raise RecordError(f"{where}: the dice of round {number} are {problem}")
    dice.append((number, hands))


def _hand_tuple(value: Any, where: str) -> Hands:
    if not isinstance(value, list) or len(value) > MAX_PLAYERS:
        raise RecordError(f"{where}: hands {shown(value)} are not a list of hands")
    hands = []
    for hand in value:
        if (
            not isinstance(hand, list)
            or len(hand) > MAX_DICE_PER_PLAYER
            or not all(_is_int(face) for face in hand)
        ):
            raise RecordError(f"{where}: hand {shown(hand)} is not a list of faces")
        hands.append(tuple(hand))
    return tuple(hands)


def _hands(text: str, where: str) -> Hands:
    return _hand_tuple(_json(text, where), where)


def _action(text: Any, where: str) -> Action:
    try:
        return parse_action(text)
    except PerudoError as error:
        act = canonical_action(text) if isinstance(text, str) and len(text) <= 200 else None
        if isinstance(act, Act):  # an edition's own action: its replay decides
            return act
        raise RecordError(f"{where}: {error}") from None


def _faces(value: Any, where: str) -> tuple[int, ...]:
    """The faces of a re-roll: 1 to :data:`MAX_DICE_PER_PLAYER` faces of 1 to 20, as
    numbers (JSON) or number texts (a move line)."""
    if not isinstance(value, list) or not 0 < len(value) <= MAX_DICE_PER_PLAYER:
        raise RecordError(f"{where}: {shown(value)} is not a list of re-rolled faces")
    faces = []
    for face in value:
        if isinstance(face, str) and _is_natural(face) and len(face) <= 2:
            face = int(face)
        if not _is_int(face) or not 1 <= face <= MAX_FACES:
            raise RecordError(f"{where}: {shown(face)} is not a face 1 to {MAX_FACES}")
        faces.append(face)
    return tuple(faces)


#: The fields of a move in a JSON record: ``rolled`` for a re-roll, ``late`` (``true``) for
#: a move made for its player out of time.
_MOVE_FIELDS = frozenset({"player", "action", "rolled", "late"})


def _move_dicts(
    moves: tuple[tuple[int, Action], ...],
    rolls: Mapping[int, tuple[int, ...]],
    late: set[int] | frozenset[int] = frozenset(),
) -> list[dict[str, Any]]:
    """Moves as JSON objects (numbered from 1), a re-roll's with the faces it rolled, and
    ``"late": true`` on those of ``late`` (made out of time)."""
    listed = []
    for number, (seat, action) in enumerate(moves, start=1):
        entry: dict[str, Any] = {"player": seat, "action": str(action)}
        if number in rolls:
            entry["rolled"] = list(rolls[number])
        if number in late:
            entry["late"] = True
        listed.append(entry)
    return listed


def _check_moves(moves: int, max_moves: Any) -> None:
    """Refuse ``moves`` past ``max_moves`` (itself a count up to :data:`MAX_MOVES`)."""
    if not _is_int(max_moves) or not 0 <= max_moves <= MAX_MOVES:
        raise RecordError(f"max_moves {shown(max_moves)} is not a count from 0 to {MAX_MOVES}")
    if moves > max_moves:
        raise RecordError(f"the record has more than {max_moves} moves")


def _move_line(
    key: str, rest: str, expected: int, where: str, max_moves: int
) -> tuple[int, Action]:
    if expected > max_moves:
        raise RecordError(f"{where}: the record has more than {max_moves} moves")
    if int(key) != expected:
        raise RecordError(f"{where}: move {key} where move {expected} was expected")
    seat_text, _, action_text = rest.partition(" ")
    seat = _natural(seat_text, where, zero=True)
    if seat >= MAX_PLAYERS:
        raise RecordError(f"{where}: seat {seat} is not a seat")
    return seat, _action(action_text, where)


def _set_dice(state: GameState, pending: deque[tuple[int, Hands]]) -> GameState:
    """Set the dice recorded for the state's round, before its first move."""
    if pending and pending[0][0] == state.round_number and state.bid is None:
        round_number, hands = pending.popleft()
        try:
            state = state.with_dice(hands)
        except (GameSetupError, IllegalActionError) as error:
            raise RecordError(f"dice of round {round_number}: {error}") from None
    return state
