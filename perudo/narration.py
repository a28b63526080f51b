"""A game told move by move, as the players at a table follow it: each round's opening
(the dice in play, who opens, a special round), every move in the edition's words, each
call's showdown (what was counted, the hands shown, who loses or gains) and the end.

Only what the whole table sees is told: a hand appears once a call shows it, never
before. The table of ``perudo serve`` keeps its game's log this way.

>>> import perudo
>>> state = perudo.new_game(perudo.load_variant("italian"), ["Ana", "Bo"], seed=3, first_player=0)
>>> after = state.apply(perudo.Bid(2, 5))
>>> [line.text for line in told(state, after)]
['Ana bids 2x5']
>>> print(opening(state).text)
Round 1: 10 dice in play (Ana 5, Bo 5); Ana opens
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

import attrs

from perudo.actions import Act, Action, Bid, Calza, Declare, Dudo, HandBid, OutOfTime, Paso
from perudo.rules import capitalised
from perudo.state import GameState

__all__ = ["Line", "describe_action", "ending", "narrate", "opening", "places", "told"]

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
    """The line that opens ``state``'s round: the dice in play (each seat's), who opens,
    and a special round or the declarations the opener may make."""
    counts = ", ".join(f"{p.name} {len(p.dice)}" for p in state.players if p.dice)
    text = f"Round {state.round_number}: {state.dice_in_play} dice in play ({counts})"
    if state.to_act is not None:
        opener = state.players[state.to_act].name
        text += f"; {opener} opens"
        if state.special_round is not None:
            text += f" - {state.variant.words.special_round or state.special_round} round"
        elif state.offers:
            offers = " or ".join(offer.capitalize() for offer in state.offers)
            text += f" - {opener} may declare {offers}"
    return Line(round=state.round_number, kind="round", seat=None, text=text)


def told(before: GameState, after: GameState) -> tuple[Line, ...]:
    """What the table saw between ``before`` and ``after``, one move apart: the move, and
    where it was a call, the showdown; then the next round's opening or the end."""
    if after.log.last is None or after.log.last is before.log.last:
        return ()
    seat, action = after.log.last
    names = [player.name for player in after.players]
    number = before.round_number
    text = describe_action(before, action, seat)
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
        lines.append(Line(round=number, kind="end", seat=None, text=ending(after)))
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


def describe_action(state: GameState, action: Action, player: int) -> str:
    """One line of play-by-play for ``action`` by ``player`` from ``state`` (the position
    it is taken in), in the edition's words: ``"Ana bids 3x5"``, ``"Ben: Dubito!"``."""
    name = state.players[player].name
    words = state.variant.words
    pressure = " with pressure" if getattr(action, "pressure", False) else ""
    if isinstance(action, Bid):
        return f"{name} bids {action}{pressure}"
    if isinstance(action, HandBid):
        return f"{name} bids {state.variant.hand_name(action)}"
    if isinstance(action, Dudo):
        return f"{name}: {_exclaimed(words.dudo)}{pressure}"
    if isinstance(action, Calza):
        late = "" if player == state.to_act else " (out of turn)"
        return f"{name}: {_exclaimed(str(words.calza))}{late}"
    if isinstance(action, Paso):
        return f"{name}: {words.paso or 'pass'} ({state.bid} stands)"
    if isinstance(action, Act):
        return f"{name}: {action}"
    if isinstance(action, OutOfTime):
        return f"{name} lets the time run out"
    assert isinstance(action, Declare)
    return f"{name} declares {action.name.capitalize()}"


def ending(state: GameState) -> str:
    """How a finished game ended: ``"Ana wins."``, or the scores and the winners (points
    editions)."""
    winners = [state.players[seat].name for seat in state.winners]
    if state.variant.scoring.moves_dice:
        return f"{' and '.join(winners)} {'wins' if len(winners) == 1 else 'win'}."
    scores = ", ".join(f"{player.name} {player.score}" for player in state.players)
    return f"Scores: {scores}. Winners: {', '.join(winners)}."


def _exclaimed(word: str) -> str:
    """A call as a player cries it: ``Challenge!`` (WANGO's word is lower case)."""
    return f"{capitalised(word)}!"


def _hand_text(hand: tuple[int, ...]) -> str:
    return " ".join(str(face) for face in hand)
