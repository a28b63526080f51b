"""The exceptions perudo raises, and the stable reason codes of refused actions."""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

__all__ = [
    "REASONS",
    "BotError",
    "EncodingError",
    "GameSetupError",
    "IllegalActionError",
    "InvalidVariantError",
    "PerudoError",
    "RecordError",
    "SolveError",
    "StoreError",
    "UnknownVariantError",
    "is_reason_code",
    "shown",
]

#: The most characters of a caller's value that a message quotes.
SHOWN_LIMIT = 60


def install_hint(extra: str) -> str:
    """How to install the optional extra ``extra``, from a checkout and from a built wheel
    (perudo is installed from where it is, not from a package index)."""
    return (
        f"the extra perudo[{extra}]: pip install '.[{extra}]' in a checkout, or "
        f"pip install 'PATH/TO/perudo-VERSION-py3-none-any.whl[{extra}]' from a wheel"
    )


def shown(value: Any, limit: int = SHOWN_LIMIT) -> str:
    """``repr(value)`` for a message, cut to ``limit`` characters: messages never repeat
    unbounded input (a 10 MB string, an integer of a million digits).

    >>> shown("dudo"), shown("x" * 100)
    ("'dudo'", "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... (102 characters)")
    >>> shown(10**5000)
    'an integer of 16610 bits'
    """
    if type(value) is int and value.bit_length() > 128:
        return f"an integer of {value.bit_length()} bits"
    if isinstance(value, str | bytes | bytearray) and len(value) > 4 * limit:
        text = repr(value[: 4 * limit])  # enough to fill the limit, without copying it all
        size = f"{len(value)}+ characters"
    else:
        try:
            text = repr(value)
        except Exception:  # a hostile __repr__, or an int past sys.get_int_max_str_digits
            return f"a value of type {type(value).__name__}"
        size = f"{len(text)} characters"
    if len(text) <= limit:
        return text
    return f"{text[: limit - 2]}... ({size})"


#: Every reason an :class:`IllegalActionError` can carry, with the rule behind it.
#: The keys are stable: programs may match on them.
REASONS: Mapping[str, str] = MappingProxyType(
    {
        "malformed-action": "The value is not an action of the right shape (face 1-20, "
        "quantity >= 1, a declaration name of 1 to 40 characters, booleans where a flag is "
        "expected).",
        "unknown-seat": "The acting seat is not a seat of this game.",
        "game-over": "The game has ended: no action is accepted.",
        "not-your-turn": "Only the player to act may bid, call Dudo or declare.",
        "player-out": "A player with no dice left takes no part in the game.",
        "no-such-face": "The bid names a face the edition's dice do not have (six-sided dice "
        "have faces 1 to 6).",
        "bid-too-low": "A bid must raise the standing bid under the edition's raise order "
        "(and the conversion to and from ones).",
        "face-lowered": "Under a monotone raise order (Spanish) the face never goes down.",
        "face-locked": "In a one-die round (Palifico, Palafico, Calzone) the face is locked for "
        "players who may not change it.",
        "ones-on-opening": "A round may not open with a bid on ones.",
        "must-open-on-ones": "The opener of this round must bid on ones (Spanish Palafico).",
        "opening-too-low": "The edition's opening bid names at least some number of dice (two, "
        "or one for each player still in).",
        "above-cap": "The edition caps a bid's quantity at the dice in play.",
        "nothing-to-challenge": "A call (Dudo, an exact call, or letting the time run out "
        "where it costs) needs a standing bid.",
        "declaration-required": "The player to act must first choose between the "
        "declarations offered.",
        "declaration-not-offered": "That declaration is not open to this player at this point.",
        "no-exact-call": "The edition has no exact call (Calza, Jonti).",
        "no-pass": "The edition has no pass (Paso).",
        "no-forfeit": "The edition's clock costs nothing: no one lets the time run out as a "
        "move (OutOfTime is a move where running out of time costs a die).",
        "already-challenged": "The player has challenged the standing bid already; it waits "
        "for every other player's challenge.",
        "bid-required": "An action said together with a bid was taken: its player bids now, "
        "and nothing else is open to anyone until that bid.",
        "pass-not-allowed": "The pass is not open to this player now (no bid to pass on, an "
        "exact claim standing, or passes used up this round).",
        "exact-call-not-allowed": "The exact call is not open to this player now (turn, seat, dice "
        "held or players still in).",
        "no-pressure": "The edition has no pressure.",
        "pressure-used-up": "The player has spent every pressure use of the game.",
        "no-such-action": "The edition offers no action of that word (its own actions, such "
        "as Bluff's reroll, are its actions axis's).",
        "not-the-bidder": "Only the player who made the standing bid may re-roll (Bluff).",
        "too-late": "A re-roll comes right after the bidder's bid, before the next player "
        "acts (Bluff).",
        "already-rerolled": "A player re-rolls at most once after each bid (Bluff), or once a "
        "turn (a re-roll said with a bid).",
        "nothing-put-out": "A re-roll puts at least one die out in the open (Bluff).",
        "die-not-held": "A die put out in the open is one the player holds under the cup (Bluff).",
        "nothing-to-reroll": "At least one die stays under the cup to be re-rolled (Bluff).",
        "no-bid-left": "An action said together with a bid is refused when no bid is left.",
        "values-differ": "The dice put out before a re-roll said with a bid show one value.",
        "act-first": "The edition's action comes before this bid (Mia's roll before each bid "
        "but a round's first).",
        "nothing-to-raise": "The action comes before a raise, and no bid stands yet (Mia's "
        "opener bids on the dice dealt).",
        "already-rolled": "A player rolls once a turn, before their bid (Mia).",
        "draws-used-up": "A bidder draws (rolls chosen dice again) at most the edition's number "
        "of times before each bid.",
        "bid-names-a-hand": "In an edition whose bids name hands (Mia's 65), a bid names a "
        "hand, not a quantity of a face.",
        "no-hand-bids": "The edition's bids name a quantity of a face, not a hand.",
        "not-a-hand-bid": "The hand is not one the edition's bids name (its claims kind's ladder).",
    }
)


_REASON_CODE = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", re.ASCII)


def is_reason_code(text: object) -> bool:
    """Whether ``text`` has the shape of a reason code: lower-case words joined by hyphens,
    at most 40 characters. perudo's own are :data:`REASONS`; a registered rule kind may
    refuse with codes of its own (``"already-peeked"``).

    >>> is_reason_code("bid-too-low"), is_reason_code("Bid too low")
    (True, False)
    """
    return isinstance(text, str) and len(text) <= 40 and _REASON_CODE.fullmatch(text) is not None


class PerudoError(Exception):
    """Base class of every error perudo raises on purpose.

    Every perudo error pickles with its attributes, so it crosses process pools intact.
    """

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.args, self.__dict__))


class IllegalActionError(PerudoError, ValueError):
    """An action refused by the rules, or a value that is not an action. How-to: validate a
    client's move, :doc:`/howto/server`; every reason, :doc:`/editions/generated/reasons`.

    Attributes:
        reason: A stable code from :data:`~perudo.errors.REASONS`, such as ``"bid-too-low"``,
            or one of a registered rule kind's own (:func:`~perudo.errors.is_reason_code`).
        action: The refused action (``None`` when the value was not an action).
        player: The seat that tried to act, when known.
    """

    def __init__(
        self,
        reason: str,
        message: str,
        *,
        action: Any = None,
        player: int | None = None,
    ) -> None:
        if reason not in REASONS and not is_reason_code(reason):  # a programming error
            raise AssertionError(f"{shown(reason)} is not a reason code")
        super().__init__(message)
        self.reason = reason
        self.action = action
        self.player = player

    @property
    def message(self) -> str:
        """The sentence a player reads."""
        return str(self.args[0])


class InvalidVariantError(PerudoError, ValueError):
    """An edition declaration that is malformed: the message names the file and the key.
    How-to: :doc:`/howto/house-rules`."""


class UnknownVariantError(PerudoError, LookupError):
    """An edition key that names no declaration; the message lists the known keys.
    How-to: a house rule of your own, :doc:`/howto/house-rules`."""


class RecordError(PerudoError, ValueError):
    """A game record or state dictionary that cannot be read, verified or replayed; the
    message names the line or the move. How-to: records on a server, :doc:`/howto/server`;
    ``perudo replay``, :doc:`/howto/table`.

    Attributes:
        reason: When a move of the record is refused, the refusal's reason code
            (:data:`~perudo.errors.REASONS`); ``None`` otherwise. The
            :class:`IllegalActionError` is the ``__cause__``.
        move: The number of the refused move (from 1), or ``None``.
        player: The seat of the refused move, or ``None``.
    """

    def __init__(
        self,
        message: str,
        *,
        reason: str | None = None,
        move: int | None = None,
        player: int | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.move = move
        self.player = player


class GameSetupError(PerudoError, ValueError):
    """Bad arguments to :func:`~perudo.new_game` or :meth:`~perudo.GameState.with_dice`.
    How-to: :doc:`/tutorial`."""


class BotError(PerudoError):
    """A bot that raised, or returned an action the rules refuse, in a game between bots.
    How-to: :doc:`/howto/bots`.

    Attributes:
        bot: The bot's name.
        seat: Its seat.
        seed: The seed of the game (it replays the game up to the failure). It gives every
            hand of the game, so it is never part of the message: a server may show or log
            ``str(error)``.
        reason: The refusal's reason code (:data:`~perudo.errors.REASONS`), or
            ``"raised"`` when the bot raised an exception (the exception is the
            ``__cause__``).
    """

    def __init__(self, message: str, *, bot: str, seat: int, seed: int, reason: str) -> None:
        super().__init__(message)
        self.bot = bot
        self.seat = seat
        self.seed = seed
        self.reason = reason


class EncodingError(PerudoError, ValueError):
    """An action, index, view or vector outside an encoding of :mod:`perudo.encoding`; the
    message names the value. How-to: :doc:`/howto/pettingzoo`."""


class StoreError(PerudoError, ValueError):
    """A table server's database or key file that it cannot use (:mod:`perudo.web.store`):
    not its format, a key file others may read, or a store another server is serving; the
    message names the file. How-to: :doc:`/howto/table`."""


class ServeError(PerudoError, OSError):
    """A table server that cannot listen where it was told (:meth:`perudo.web.app.TableServer.run`):
    the port taken, or an address not this machine's; the message names both. How-to:
    :doc:`/howto/friends`."""


class SolveError(PerudoError, ValueError):
    """A game :mod:`perudo.solve` does not solve: not two players, dice the edition does not
    deal, a round too big to solve, or chance inside the round; the message says which.
    How-to: :doc:`/howto/solve`."""


def _rebuild(cls: type[PerudoError], args: tuple[Any, ...], state: dict[str, Any]) -> PerudoError:
    """Unpickle a perudo error without calling its ``__init__`` (whose arguments differ)."""
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error
