"""Play a game against bots in a terminal: ``perudo play``.

The table is drawn from the player's own view at each of their turns (never another
seat's hidden dice); the player types a move in the edition's words or the notation
(``3x5``, ``dudo``, ``calza``, ``palifico``...), ``?`` for the legal moves, ``q`` to leave. A
refused move gets the rule's sentence and a new prompt. Out-of-turn moves are offered when
the edition allows them: the exact call (Jonti), Bluff's re-roll right after the player's
bid (``reroll 2 5``: put a 2 and a 5 out, re-roll the rest). At the end the winner is
shown and the record is saved where ``--save`` says, or where the player answers at a
terminal (also when the player leaves: the game so far). Input may be piped, so a game can
be scripted.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from perudo.actions import Act, Action, Bid, Dudo
from perudo.bots import Bot, BotSpec, bot_name, make_bot
from perudo.errors import IllegalActionError, PerudoError, shown
from perudo.match import choose_move, timeout_move
from perudo.narration import describe_action
from perudo.notation import parse_action, refused_as_typed, spoken_words
from perudo.record import GameRecord
from perudo.rules import capitalised
from perudo.setup import new_game
from perudo.state import GameState
from perudo.variant import Variant

__all__ = ["play_console"]


class _Quit(Exception):
    """The player left (``q``) or the input ended."""


def play_console(
    variant: Variant,
    players: int,
    *,
    seat: int = 0,
    bots: Sequence[BotSpec] = ("odds",),
    seed: int | None = None,
    ascii: bool = False,
    stdin: TextIO,
    out: TextIO,
    allow_import: bool = False,
    starting_dice: Sequence[int] | None = None,
    save: Path | str | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> GameState:
    """Play ``variant`` at a table of ``players``, the person at ``seat``, bots elsewhere
    (``allow_import``: as :func:`perudo.bots.make_bot`). At the end the game's record is
    written to ``save`` (also when the player leaves, ``q`` or the end of input, with the
    game so far); without it, the player is asked for a file only when ``stdin`` is
    a terminal (a script's next line is never taken for a file name). Where the edition
    sets a time to act (its ``clock``), a move typed after it is not played: the
    edition's move for a player out of time is, or a bot's (``clock`` tells the time).

    Returns the last state (the game may have been left before its end).

    Raises:
        GameSetupError: a bad table, seat or bot.
    """
    from perudo.errors import GameSetupError

    if type(seat) is not int or not 0 <= seat < players:
        raise GameSetupError(f"seat {shown(seat)} is not a seat of {players} players")
    state = new_game(variant, players, seed=seed, starting_dice=starting_dice)
    others: list[Bot] = [
        _Human()
        if n == seat
        else make_bot(bots[n % len(bots)], state.seed * 1009 + n, allow_import=allow_import)
        for n in range(players)
    ]
    names = ", ".join(sorted({bot_name(b) for n, b in enumerate(others) if n != seat}))
    print(
        f"{variant.name}: you are {state.players[seat].name}, in seat {seat + 1} of {players}; "
        f"bots: {names}. "
        "'?' lists your moves, 'q' leaves.",
        file=out,
    )
    passed: set[tuple[int, int]] = set()  # (round, bids) where the player let a call go
    late = _Late(clock, make_bot("odds", state.seed * 1009 + seat))
    seconds = variant.clock.seconds
    if seconds is not None:
        print(f"You have {seconds} seconds for each move.", file=out)
    try:
        while not state.is_over:
            state = _next(state, seat, others, passed, ascii, stdin, out, late)
    except _Quit:
        print("You left the table.", file=out)
        if save is not None:  # the game so far: perudo replay tells it
            _save_record(state, Path(save), out)
        return state
    print(state.view(seat).draw(ascii=ascii), file=out)
    winners = ", ".join(state.players[w].name for w in state.winners)
    print(f"Game over: {winners} {'win' if len(state.winners) > 1 else 'wins'}.", file=out)
    if save is not None:
        _save_record(state, Path(save), out)
    elif stdin.isatty():
        _offer_record(state, stdin, out)
    return state


def _ask(prompt: str, stdin: TextIO, out: TextIO) -> str:
    out.write(prompt)
    out.flush()
    line = stdin.readline()
    if not line:
        print(file=out)
        raise _Quit
    return line.strip()


class _Late:
    """The time a move of the person took, and what is played for them once out of time."""

    def __init__(self, clock: Callable[[], float], stand_in: Bot) -> None:
        self.clock, self.stand_in = clock, stand_in

    def move(self, state: GameState, seat: int, began: float) -> Action | None:
        """The move played instead of the person's, ``None`` while they are in time."""
        seconds = state.variant.clock.seconds
        if seconds is None or self.clock() - began <= seconds:
            return None
        return timeout_move(state) or self.stand_in.act(state.view(seat))


class _Human:
    """The person's seat among the bots: never asked to act, never calls out of turn."""

    def act(self, view: object) -> Action:  # pragma: no cover - the console asks instead
        raise AssertionError("the console asks the player")


def _next(
    state: GameState,
    seat: int,
    bots: Sequence[Bot],
    passed: set[tuple[int, int]],
    ascii: bool,
    stdin: TextIO,
    out: TextIO,
    late: _Late,
) -> GameState:
    moment = (state.round_number, len(state.bids))
    may_call = moment not in passed and state.legal_actions(by=seat)
    if state.to_act == seat or (state.to_act is not None and may_call):
        mine = state.to_act == seat
        view = state.view(seat)
        print(file=out)
        print(view.draw(ascii=ascii), file=out)
        prompt = "Your move: " if mine else f"{_out_of_turn(state, seat)} now? (Enter to pass) "
        began = late.clock()
        while True:
            text = _ask(prompt, stdin, out)
            if text.lower() in ("q", "quit"):
                raise _Quit
            played = late.move(state, seat, began) if mine else None
            if played is not None:  # out of time: the edition's move, or a bot's
                print(f"  Out of time: {describe_action(state, played, seat)}", file=out)
                return _told(state, state.apply(played, by=seat, late=True), out)
            if text == "?":  # in the edition's words: dubito, not dudo
                words = spoken_words(state.variant)
                legal = state.legal_actions(by=seat)
                moves = ", ".join(words.get(action, str(action)) for action in legal)
                print(f"Legal moves: {moves}", file=out)
                continue
            if not text and not mine:
                passed.add(moment)
                break  # a pass
            if not text:  # an empty line at one's own turn: asked again
                continue
            try:
                action = parse_action(text, variant=state.variant)
                after = state.apply(action, by=seat)
            except IllegalActionError as error:
                print(f"Refused ({error.reason}): {refused_as_typed(error, text)}", file=out)
                continue
            print("  " + describe_action(state, action, seat), file=out)
            return _told(state, after, out)
        if state.to_act == seat:  # pragma: no cover - a pass is only offered out of turn
            return state
    actor, action = choose_move(state, bots)
    print("  " + describe_action(state, action, actor), file=out)
    return _told(state, state.apply(action, by=actor), out)


def _out_of_turn(state: GameState, seat: int) -> str:
    """What the player may do out of turn, in the edition's words: ``Jonti``, ``Reroll``,
    ``A bid or dubito`` (a burst)."""
    words: list[str] = []
    calls = state.variant.words
    for action in state.legal_actions(by=seat):
        if isinstance(action, Act):
            word = action.word
        elif isinstance(action, Bid):
            word = "a bid"
        elif isinstance(action, Dudo):
            word = calls.dudo.lower()
        else:
            word = str(calls.calza)
        if word not in words:
            words.append(word)
    text = " or ".join(words)
    return capitalised(text)


def _told(before: GameState, after: GameState, out: TextIO) -> GameState:
    result = after.last_result
    if result is not None and result is not before.last_result:
        print(f"  {result.describe()}", file=out)
    return after


def _offer_record(state: GameState, stdin: TextIO, out: TextIO) -> None:
    try:
        path = _ask("Save the record to a file? (a path, or Enter) ", stdin, out)
    except _Quit:
        return
    if path:
        _save_record(state, Path(path), out)


def _save_record(state: GameState, path: Path, out: TextIO) -> None:
    try:
        path.write_text(GameRecord.from_state(state).to_text(), encoding="utf-8")
    except OSError as error:
        print(f"Not saved: {error.strerror}", file=out)
        return
    except PerudoError as error:  # pragma: no cover - a record always writes
        print(f"Not saved: {error}", file=out)
        return
    print(f"Saved to {path}.", file=out)
