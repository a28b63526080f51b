"""Game records: everything needed to replay a game exactly, as text or JSON.

A record holds a header (the edition key and the fingerprint of its declaration, the seed,
the player names, the first player when it was given, the dice set by hand) and the moves,
each with the seat that made it. The text form, one item a line::

    perudo-record 1
    variant italian
    fingerprint sha256:0123456789abcdef
    seed 7
    players ["Ana", "Ben", "Cleo"]
    first-player 0
    dice 1 [[1, 4, 4, 5, 6], [2, 2, 3, 4, 6], [1, 3, 3, 5, 5]]
    1 0 3x4
    2 1 dudo
    end 2

``first-player`` is present only when the game's first player was given rather than
rolled off; each ``dice R hands`` line is a round whose dice were set by hand (with
``new_game(dice=...)`` for round 1 or :meth:`~perudo.GameState.with_dice`). Move lines are
``number seat action`` in :mod:`perudo.notation`; ``end N`` closes the record, so a
truncated file is refused.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

from perudo.actions import Action
from perudo.errors import GameSetupError, IllegalActionError, PerudoError, RecordError
from perudo.notation import parse_action

if TYPE_CHECKING:
    from perudo.state import GameState
    from perudo.variant import Variant

__all__ = ["FORMAT_VERSION", "GameLog", "GameRecord", "Hands"]

FORMAT_VERSION = 1
Hands = tuple[tuple[int, ...], ...]


@attrs.frozen(eq=False)
class GameLog:
    """What a state remembers of how it was reached: the first player when given, the dice
    set by hand, and the moves. :meth:`perudo.GameState.record` adds the header.

    The moves are a chain (each log points to the one before its last move), so adding a
    move costs the same however long the game.
    """

    first_player: int | None = None
    dice: tuple[tuple[int, Hands], ...] = ()
    previous: GameLog | None = None
    last: tuple[int, Action] | None = None

    @property
    def moves(self) -> tuple[tuple[int, Action], ...]:
        """``(seat, action)`` for every move, in order."""
        moves = []
        log: GameLog | None = self
        while log is not None and log.last is not None:
            moves.append(log.last)
            log = log.previous
        return tuple(reversed(moves))

    def with_move(self, player: int, action: Action) -> GameLog:
        """This log with one more move."""
        return GameLog(self.first_player, self.dice, self, (player, action))

    @classmethod
    def of(
        cls,
        first_player: int | None,
        dice: tuple[tuple[int, Hands], ...],
        moves: tuple[tuple[int, Action], ...],
    ) -> GameLog:
        """The log of ``moves`` (built link by link, never recursively)."""
        log = cls(first_player, dice)
        for move in moves:
            log = cls(first_player, dice, log, move)
        return log

    def __reduce__(self) -> tuple[Any, ...]:  # flat, so a game of any length pickles
        return (GameLog.of, (self.first_player, self.dice, self.moves))

    def with_dice(self, round_number: int, hands: Hands) -> GameLog:
        """This log with the dice of ``round_number`` set by hand."""
        return GameLog(
            self.first_player, (*self.dice, (round_number, hands)), self.previous, self.last
        )


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
    """

    variant: str
    fingerprint: str
    seed: int
    players: tuple[str, ...]
    first_player: int | None = None
    dice: tuple[tuple[int, Hands], ...] = ()
    moves: tuple[tuple[int, Action], ...] = ()

    # --- replay --------------------------------------------------------------------------

    def replay(self, variant: Variant | None = None) -> GameState:
        """The state after every move, replayed under the record's edition.

        Args:
            variant: The edition, for one that is not shipped (a house rule); by default
                the shipped edition named by the record.

        Raises:
            RecordError: the edition does not match the fingerprint, or a move is illegal
                (the message names the move number and the reason).
        """
        from perudo.loader import load_variant

        if variant is None:
            variant = load_variant(self.variant)
        if variant.key != self.variant:
            raise RecordError(f"the record is of {self.variant!r}, not {variant.key!r}")
        if variant.fingerprint != self.fingerprint:
            raise RecordError(
                f"the declaration of {self.variant!r} has changed since the game was recorded "
                f"(fingerprint {variant.fingerprint}, record {self.fingerprint})"
            )
        return self.replay_as(variant)

    def replay_as(self, variant: Variant) -> GameState:
        """The same seed, names, dice and moves replayed under ``variant``, any edition:
        what :func:`perudo.verdicts` uses to rebuild a position elsewhere.

        Raises:
            RecordError: the table or a move is not legal in ``variant`` (named).
        """
        from perudo.state import new_game

        pending = list(self.dice)
        first_dice = pending.pop(0)[1] if pending and pending[0][0] == 1 else None
        try:
            state = new_game(
                variant,
                self.players,
                seed=self.seed,
                dice=first_dice,
                first_player=self.first_player,
            )
        except GameSetupError as error:
            raise RecordError(f"the header does not start a game: {error}") from None
        state = _set_dice(state, pending)
        for number, (seat, action) in enumerate(self.moves, start=1):
            try:
                state = state.apply(action, by=seat)
            except IllegalActionError as error:
                raise RecordError(
                    f"move {number} (seat {seat}, {action}) is illegal: {error.reason}: {error}"
                ) from None
            state = _set_dice(state, pending)
        if pending:
            raise RecordError(f"dice for round {pending[0][0]} were never used")
        return state

    # --- text ----------------------------------------------------------------------------

    def to_text(self) -> str:
        """The record in the text notation described above."""
        lines = [
            f"perudo-record {FORMAT_VERSION}",
            f"variant {self.variant}",
            f"fingerprint {self.fingerprint}",
            f"seed {self.seed}",
            f"players {json.dumps(list(self.players), ensure_ascii=False)}",
        ]
        if self.first_player is not None:
            lines.append(f"first-player {self.first_player}")
        lines += [f"dice {number} {json.dumps(_lists(hands))}" for number, hands in self.dice]
        lines += [
            f"{number} {seat} {action}" for number, (seat, action) in enumerate(self.moves, start=1)
        ]
        lines.append(f"end {len(self.moves)}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> GameRecord:
        """Read a record written by :meth:`to_text`.

        Raises:
            RecordError: a malformed line (named by number), a missing header item, or a
                truncated record.
        """
        if not isinstance(text, str):
            raise RecordError(f"a record is text, not {type(text).__name__}")
        lines = text.splitlines()
        if not lines or lines[0] != f"perudo-record {FORMAT_VERSION}":
            raise RecordError(f"line 1: expected 'perudo-record {FORMAT_VERSION}'")
        header: dict[str, Any] = {}
        dice: list[tuple[int, Hands]] = []
        moves: list[tuple[int, Action]] = []
        ended = False
        for number, line in enumerate(lines[1:], start=2):
            where = f"line {number}"
            if ended:
                raise RecordError(f"{where}: text after 'end'")
            key, _, rest = line.partition(" ")
            if key in ("variant", "fingerprint", "seed", "players", "first-player"):
                if key in header:
                    raise RecordError(f"{where}: {key} given twice")
                header[key] = _header_value(key, rest, where)
            elif key == "dice":
                round_text, _, hands_text = rest.partition(" ")
                dice.append((_natural(round_text, where), _hands(hands_text, where)))
            elif key == "end":
                if _natural(rest, where, zero=True) != len(moves):
                    raise RecordError(
                        f"{where}: 'end {rest}' but the record has {len(moves)} moves"
                    )
                ended = True
            elif _is_natural(key):
                moves.append(_move_line(key, rest, len(moves) + 1, where))
            else:
                raise RecordError(f"{where}: cannot read {line[:60]!r}")
        if not ended:
            raise RecordError("the record is truncated: no 'end' line")
        for key in ("variant", "fingerprint", "seed", "players"):
            if key not in header:
                raise RecordError(f"the header has no {key}")
        return cls(
            variant=header["variant"],
            fingerprint=header["fingerprint"],
            seed=header["seed"],
            players=header["players"],
            first_player=header.get("first-player"),
            dice=tuple(dice),
            moves=tuple(moves),
        )

    # --- JSON ----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data (actions in :mod:`perudo.notation`)."""
        return {
            "format": "perudo-record",
            "version": FORMAT_VERSION,
            "variant": self.variant,
            "fingerprint": self.fingerprint,
            "seed": self.seed,
            "players": list(self.players),
            "first_player": self.first_player,
            "dice": [{"round": number, "hands": _lists(hands)} for number, hands in self.dice],
            "moves": [{"player": seat, "action": str(action)} for seat, action in self.moves],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        """Read :meth:`to_dict`'s data back, checking every field.

        Raises:
            RecordError: a missing or malformed field, named.
        """
        if not isinstance(data, Mapping):
            raise RecordError("a record is a JSON object")
        expected = {"format", "version", "variant", "fingerprint", "seed", "players"}
        expected |= {"first_player", "dice", "moves"}
        if set(data) != expected:
            missing, extra = expected - set(data), set(data) - expected
            raise RecordError(f"record fields: missing {sorted(missing)}, unknown {sorted(extra)}")
        if data["format"] != "perudo-record" or data["version"] != FORMAT_VERSION:
            raise RecordError(f"not a perudo-record version {FORMAT_VERSION}")
        first = data["first_player"]
        if first is not None and not _is_int(first):
            raise RecordError(f"first_player {first!r} is not a seat")
        dice = data["dice"]
        moves = data["moves"]
        if not isinstance(dice, list) or not isinstance(moves, list):
            raise RecordError("dice and moves are lists")
        read_dice: list[tuple[int, Hands]] = []
        for entry in dice:
            if not isinstance(entry, Mapping) or set(entry) != {"round", "hands"}:
                raise RecordError(f"dice entry {entry!r} is not {{round, hands}}")
            if not _is_int(entry["round"]) or entry["round"] < 1:
                raise RecordError(f"dice round {entry['round']!r} is not a round number")
            read_dice.append((entry["round"], _hand_tuple(entry["hands"], "dice")))
        read_moves: list[tuple[int, Action]] = []
        for number, entry in enumerate(moves, start=1):
            if not isinstance(entry, Mapping) or set(entry) != {"player", "action"}:
                raise RecordError(f"move {number}: {entry!r} is not {{player, action}}")
            if not _is_int(entry["player"]) or entry["player"] < 0:
                raise RecordError(f"move {number}: player {entry['player']!r} is not a seat")
            read_moves.append((entry["player"], _action(entry["action"], f"move {number}")))
        return cls(
            variant=_checked_text(data["variant"], "variant"),
            fingerprint=_checked_text(data["fingerprint"], "fingerprint"),
            seed=_checked_seed(data["seed"]),
            players=_checked_names(data["players"]),
            first_player=first,
            dice=tuple(read_dice),
            moves=tuple(read_moves),
        )

    def to_json(self) -> str:
        """The record as a JSON document."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Read a record written by :meth:`to_json`."""
        if not isinstance(text, str | bytes):
            raise RecordError(f"a record is JSON text, not {type(text).__name__}")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
            raise RecordError(f"not JSON: {str(error)[:100]}") from None
        return cls.from_dict(data)


# --- reading helpers ---------------------------------------------------------------------


def _lists(hands: Hands) -> list[list[int]]:
    return [list(hand) for hand in hands]


def _is_int(value: Any) -> bool:
    return type(value) is int


_MAX_DIGITS = 40  # seeds are 64-bit; nothing in a record needs more digits


def _is_natural(text: str) -> bool:
    return (
        0 < len(text) <= _MAX_DIGITS
        and text.isascii()
        and text.isdigit()
        and (text == "0" or not text.startswith("0"))
    )


def _natural(text: str, where: str, *, zero: bool = False) -> int:
    if not _is_natural(text) or (not zero and text == "0"):
        raise RecordError(f"{where}: {text!r} is not a number")
    return int(text)


def _json(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
        raise RecordError(f"{where}: {text[:60]!r} is not JSON") from None


def _checked_text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value or not value.isprintable() or " " in value:
        raise RecordError(f"{what} {value!r} is not a single word")
    return value


def _checked_seed(value: Any) -> int:
    if not _is_int(value):
        raise RecordError(f"seed {value!r} is not an integer")
    return int(value)


def _checked_names(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise RecordError(f"players {value!r} is not a list of names")
    return tuple(value)


def _header_value(key: str, rest: str, where: str) -> Any:
    if key in ("variant", "fingerprint"):
        return _checked_text(rest, f"{where}: {key}")
    if key == "seed":
        digits = rest.removeprefix("-")
        if not _is_natural(digits):
            raise RecordError(f"{where}: seed {rest!r} is not an integer")
        return int(rest)
    if key == "players":
        try:
            return _checked_names(_json(rest, where))
        except RecordError as error:
            raise RecordError(f"{where}: {error}") from None
    return _natural(rest, where, zero=True)


def _hand_tuple(value: Any, where: str) -> Hands:
    if not isinstance(value, list):
        raise RecordError(f"{where}: hands {value!r} are not a list")
    hands = []
    for hand in value:
        if not isinstance(hand, list) or not all(_is_int(face) for face in hand):
            raise RecordError(f"{where}: hand {hand!r} is not a list of faces")
        hands.append(tuple(hand))
    return tuple(hands)


def _hands(text: str, where: str) -> Hands:
    return _hand_tuple(_json(text, where), where)


def _action(text: Any, where: str) -> Action:
    try:
        return parse_action(text)
    except PerudoError as error:
        raise RecordError(f"{where}: {error}") from None


def _move_line(key: str, rest: str, expected: int, where: str) -> tuple[int, Action]:
    if int(key) != expected:
        raise RecordError(f"{where}: move {key} where move {expected} was expected")
    seat_text, _, action_text = rest.partition(" ")
    return _natural(seat_text, where, zero=True), _action(action_text, where)


def _set_dice(state: GameState, pending: list[tuple[int, Hands]]) -> GameState:
    """Set the dice recorded for the state's round, before its first move."""
    while pending and pending[0][0] == state.round_number and not state.bids:
        round_number, hands = pending.pop(0)
        try:
            state = state.with_dice(hands)
        except (GameSetupError, IllegalActionError) as error:
            raise RecordError(f"dice of round {round_number}: {error}") from None
    return state
