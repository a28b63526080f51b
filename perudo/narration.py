"""A game told move by move, as the players at a table follow it: each round's opening
(the dice in play, who opens, a special round), every move in the edition's words, each
call's showdown (what was counted, the hands shown, who loses or gains) and the end.

Only what the whole table sees is told: a hand appears once a call shows it, never
before. The table of ``perudo serve`` keeps its game's log this way.

>>> import perudo
>>> state = perudo.new_game(perudo.load_variant("italian"), ["Ana", "Bo"], seed=3, first_player=0)
>>> after = state.apply(perudo.Bid(2, 5))
>>> [line.text for line in told(state, after)]
['Ana bids 2 5s (2x5)']
>>> print(opening(state).text)
Round 1: 10 dice in play; Ana opens
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

import attrs

from perudo.actions import Act, Action, Bid, Calza, Declare, Dudo, HandBid, OutOfTime, Paso
from perudo.state import GameState

__all__ = ["Line", "narrate", "opening", "places", "told"]

#: What a line tells: a round's opening, a move, a showdown, or the end of the game.
Kind = Literal["round", "move", "showdown", "end"]


@attrs.frozen
class Line:
    """One line of a game's story.

    Attributes:
        round: The round it belongs to (from 1).
        kind: ``"round"`` (a round opens), ``"move"`` (a bid, call, declaration or action
            of the edition), ``"showdown"`` (a call counted: its hands and who pays) or
            ``"end"`` (the game's winner).
        seat: The seat that moved (``"move"``), else ``None``.
        text: The sentence, in the edition's words and the players' names.
        hands: For a showdown, each seat's hand as shown (``None``: it stayed hidden;
            ``()``: the seat was out already); else ``()``.
        out: For a showdown, the seats it put out of the game.
        late: Whether the table made the move for its player, out of time.
    """

    round: int
    kind: Kind
    seat: int | None
    text: str
    hands: tuple[tuple[int, ...] | None, ...] = ()
    out: tuple[int, ...] = ()
    late: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {
            "round": self.round,
            "kind": self.kind,
            "seat": self.seat,
            "text": self.text,
            "hands": [None if hand is None else list(hand) for hand in self.hands],
            "out": list(self.out),
            "late": self.late,
        }


def opening(state: GameState) -> Line:
    """The line that opens ``state``'s round: the dice in play and who opens (and whose
    special round it is)."""
    names = [player.name for player in state.players]
    text = f"Round {state.round_number}: {state.dice_in_play} dice in play"
    if state.to_act is not None:
        text += f"; {names[state.to_act]} opens"
    if state.special_round is not None and state.special_player is not None:
        word = state.variant.words.special_round or state.special_round
        text += f" ({word}: {names[state.special_player]}'s round)"
    return Line(round=state.round_number, kind="round", seat=None, text=text)


def told(before: GameState, after: GameState) -> tuple[Line, ...]:
    """What the table saw between ``before`` and ``after``, one move apart: the move, and
    where it was a call, the showdown; then the next round's opening or the end."""
    if after.log.last is None or after.log.last is before.log.last:
        return ()
    seat, action = after.log.last
    names = [player.name for player in after.players]
    number = before.round_number
    text = _move_text(after, names[seat], action)
    if after.log.late:
        text += " (out of time: the table played it)"
    lines = [Line(round=number, kind="move", seat=seat, text=text, late=after.log.late)]
    result = after.last_result
    if result is not None and result is not before.last_result:
        shown = [
            f"{names[who]} {_hand_text(hand)}"
            for who, hand in enumerate(result.hands)
            if hand is not None and hand
        ]
        text = result.describe(names)
        if shown:
            text += ". Hands shown: " + "; ".join(shown)
        lines.append(
            Line(
                round=number, kind="showdown", seat=None, text=text, hands=result.hands,
                out=result.out,
            )
        )  # fmt: skip
    if after.is_over:
        winners = " and ".join(names[who] for who in after.winners)
        verb = "wins" if len(after.winners) == 1 else "win"
        lines.append(Line(round=number, kind="end", seat=None, text=f"{winners} {verb} the game"))
    elif after.round_number != number:
        lines.append(opening(after))
    return tuple(lines)


def narrate(states: Iterable[GameState]) -> list[Line]:
    """The story of a game from its states, the first and then one after each move (as
    :meth:`perudo.GameRecord.states` gives them)."""
    lines: list[Line] = []
    before: GameState | None = None
    for state in states:
        lines.extend(opening(state) for _ in range(before is None))
        if before is not None:
            lines.extend(told(before, state))
        before = state
    return lines


def places(state: GameState, lines: Iterable[Line]) -> list[int]:
    """The seats of a finished game from first to last: the winners, then the others by
    the score they end with (points editions), then the latest out first."""
    out: list[int] = []
    for line in lines:
        out.extend(line.out)
    rest = [seat for seat in range(len(state.players)) if seat not in state.winners]
    last_out = {seat: number for number, seat in enumerate(out)}
    rest.sort(key=lambda seat: (-state.players[seat].score, -last_out.get(seat, len(out))))
    return [*state.winners, *rest]


def _move_text(state: GameState, name: str, action: Action) -> str:
    words = state.variant.words
    if isinstance(action, Bid):
        return f"{name} bids {words.counted(action.quantity, action.face)} ({action})"
    if isinstance(action, HandBid):
        for bid, (_, hand_name) in zip(
            state.variant.hand_bids, state.variant.hand_names, strict=True
        ):
            if bid == action:
                return f"{name} bids {hand_name}"
        return f"{name} bids {action}"
    if isinstance(action, Dudo):
        return f"{name} calls {words.dudo}"
    if isinstance(action, Calza):
        return f"{name} calls {words.calza or 'exact'}"
    if isinstance(action, Paso):
        return f"{name} says {words.paso or 'pass'}"
    if isinstance(action, OutOfTime):
        return f"{name} lets the time run out"
    if isinstance(action, Declare):
        return f"{name} declares {action.name}"
    if isinstance(action, Act):
        return f"{name}: {action}"
    return f"{name}: {action}"  # pragma: no cover - every action kind is told above


def _hand_text(hand: tuple[int, ...]) -> str:
    return " ".join(str(face) for face in hand)
