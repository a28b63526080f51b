"""Games between bots: the next move, a whole game told play by play or silent, and a bot
that fails named with its seat and the game's seed.

A bot sees only its own player's :class:`~perudo.PlayerView` (see :mod:`perudo.bots`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from perudo.actions import ACTION_TYPES, Action
from perudo.bots import Bot, bot_name
from perudo.errors import BotError, IllegalActionError, InvalidVariantError, shown
from perudo.narration import opening, told
from perudo.state import GameState

__all__ = ["choose_move", "play", "play_move", "timeout_move"]


def choose_move(state: GameState, bots: Sequence[Bot]) -> tuple[int, Action]:
    """The next move of a game played by ``bots`` (one per seat): first any out-of-turn
    action a bot takes (where the edition allows one: the exact call out of turn, Bluff's
    re-roll by the bidder), else the action of the player to act.

    Raises:
        BotError: a bot raised (``reason="raised"``, the exception as ``__cause__``).
    """
    assert state.to_act is not None
    if state.variant.has_out_of_turn:
        for seat in state.seats_in:
            if seat != state.to_act and state.legal_actions(by=seat):
                interrupt = getattr(bots[seat], "interrupt", None)
                if interrupt is None:
                    continue
                action = _ask(state, bots, seat, interrupt)
                if action is not None:
                    return seat, action
    seat = state.to_act
    return seat, _ask(state, bots, seat, bots[seat].act)


def _ask(state: GameState, bots: Sequence[Bot], seat: int, method: object) -> Action:
    try:
        return method(state.view(seat))  # type: ignore[operator, no-any-return]
    except Exception as error:
        what = f"raised {type(error).__name__}: {shown(str(error))}"
        raise _failure(state, bots, seat, what, "raised") from error


def play_move(state: GameState, bots: Sequence[Bot]) -> tuple[int, Action, GameState]:
    """The next move (:func:`choose_move`), played: the seat, its action, and the state.

    Raises:
        BotError: a bot raised, or its action was refused (``reason`` is the refusal's).
    """
    seat, action = choose_move(state, bots)
    try:
        return seat, action, state.apply(action, by=seat)
    except IllegalActionError as error:
        what = f"played {shown(action)}, refused: {error.reason}: {error}"
        raise _failure(state, bots, seat, what, error.reason) from error


def timeout_move(state: GameState) -> Action | None:
    """What the edition's clock plays for the player to act once out of time (its
    ``timeout_move``), checked legal; ``None``: a bot plays the turn.

    Raises:
        InvalidVariantError: the clock kind named a move the player may not make.
    """
    seat = state.to_act
    if seat is None:
        return None
    clock = state.variant.clock
    move = clock.timeout_move(state.legal_actions(), state.context)
    if move is not None and not (isinstance(move, ACTION_TYPES) and state.is_legal(move)):
        raise InvalidVariantError(
            f"rule kind clock:{clock.kind} of {state.variant.key!r} broke its protocol: "
            f"timeout_move returned {shown(move)}, not a legal action of seat {seat}"
        )
    return move


def _failure(state: GameState, bots: Sequence[Bot], seat: int, what: str, reason: str) -> BotError:
    name = bot_name(bots[seat])
    return BotError(
        f"bot {name} at seat {seat} {what} (round {state.round_number}; the error's seed "
        "replays the game)",  # the seed gives every hand: never in a message
        bot=name,
        seat=seat,
        seed=state.seed,
        reason=reason,
    )


def play(
    state: GameState,
    bots: Sequence[Bot],
    *,
    out: TextIO | None = None,
    max_actions: int = 100_000,
    explain: bool = False,
) -> GameState:
    """Play ``state`` to the end with one bot per seat, telling each move to ``out`` when
    given (with ``explain``, the first count "among the hands shown" is explained once).
    Before each turn, every other seat's bot may call out of turn (Jonti) where it can.

    Raises:
        BotError: a bot raised or played an illegal action (named, with the game's seed).
    """

    def say(line: str) -> None:
        if out is not None:
            print(line, file=out)

    say(opening(state).text)
    for _ in range(max_actions):
        if state.is_over:
            break
        _, _, after = play_move(state, bots)
        result = after.last_result
        for line in told(state, after):  # the move, a showdown, the next round or the end
            say(line.text if line.kind in ("round", "end") else "  " + line.text)
            if explain and line.kind == "showdown" and result is not None and result.partly_shown:
                say(
                    f'  (A count "among the hands shown" counts the hands that call showed; '
                    f"in {state.variant.name} the others stay hidden: `perudo rules "
                    f"{state.variant.key}` says which are shown.)"
                )
                explain = False
        state = after
    return state
