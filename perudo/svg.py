"""Pictures of a table as SVG: every seat's cup and dice, the round's bids as a ladder, and
the last call with the hands it showed.

:func:`table_svg` draws a :class:`~perudo.PlayerView` (its player's own dice, the others'
hidden) or, with the hands given, a whole :class:`~perudo.GameState`; views, states and
records show these pictures in Jupyter (``_repr_svg_``). The SVG is a standalone document
with no external resource, and a view's picture depends on nothing its player cannot see.

>>> import perudo
>>> svg = perudo.new_game("italian", 3, seed=1).view(0)._repr_svg_()
>>> svg.startswith("<svg") and svg.count("<rect") > 10
True
"""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Sequence
from html import escape
from typing import Any

__all__ = ["table_svg"]

_DIE = 26  # a die's side, in pixels
_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.2), (0.75, 0.2), (0.25, 0.5), (0.75, 0.5), (0.25, 0.8), (0.75, 0.8)],
}


# A server draws a table for every seat after every move: the same dice, names and words
# at the same places again and again, each drawn once here.
@functools.lru_cache(maxsize=16384)
def _text(x: float, y: float, text: str, *, size: int = 14, weight: str = "normal") -> str:
    return (
        f'<text x="{x:.0f}" y="{y:.0f}" font-family="sans-serif" font-size="{size}" '
        f'font-weight="{weight}" fill="#222">{escape(text)}</text>'
    )


@functools.lru_cache(maxsize=4096)
def _die(x: float, y: float, face: int | None, *, out: bool = False) -> str:
    """A die: its face, ``?`` when hidden; a die out in the open (Bluff) on a green ground
    with a thick edge, so it reads apart from the cup's."""
    fill = "#d8efd0" if out else "#fffdf5" if face is not None else "#c9c9c9"
    edge = ' stroke-width="2.5" class="open"' if out else ""
    parts = [
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{_DIE}" height="{_DIE}" rx="5" '
        f'fill="{fill}" stroke="#444"{edge}/>'
    ]
    if face is None:
        parts.append(_text(x + 8, y + 19, "?", size=16, weight="bold"))
    elif face not in _PIPS:  # dice of more than six faces show their number
        parts.append(_text(x + (8 if face < 10 else 4), y + 19, str(face), size=15, weight="bold"))
    else:
        for px, py in _PIPS[face]:
            parts.append(
                f'<circle cx="{x + px * _DIE:.1f}" cy="{y + py * _DIE:.1f}" r="2.8" fill="#222"/>'
            )
    return "".join(parts)


#: Characters on a line of the last call's text, and its most lines.
_LINE, _LINES = 80, 4


def _last_call_lines(result: Any, names: tuple[str, ...]) -> tuple[str, ...]:
    """The last call as the terminal tells it, wrapped between words: the sentence, then
    the hands it showed (whose, and their faces)."""
    # What the sentence reads beyond the call's own fields (left out of its equality) is
    # part of the key, so two editions' calls equal in every field are told apart.
    told = (result.words, result.unit, result.hand_names, result.judged_apart)
    return _call_lines(result, names, told)


@functools.lru_cache(maxsize=1024)
def _call_lines(result: Any, names: tuple[str, ...], _told: object) -> tuple[str, ...]:
    text = result.describe(names)
    shown = [
        f"{names[seat]} {' '.join(map(str, result.hands[seat] or ()))}" for seat in result.revealed
    ]
    lines = textwrap.wrap(text, _LINE)
    if shown:
        lines += textwrap.wrap("Shown: " + "; ".join(shown), _LINE)
    if len(lines) > _LINES:  # a long table: the rest is in the view's text
        lines = [*lines[: _LINES - 1], textwrap.shorten(" ".join(lines[_LINES - 1 :]), _LINE)]
    return tuple(lines)


def table_svg(view: Any, hands: Sequence[Sequence[int] | None] | None = None) -> str:
    """The table of ``view`` as an SVG document. ``hands[seat]`` gives the faces drawn for
    each seat under its cup (``None``: hidden); by default the view's own player's dice
    only. Dice out in the open (Bluff's re-roll) are drawn for every seat, after its cup."""
    seats = view.seats
    if hands is None:
        hands = [
            (view.dice if seat == view.player and not view.dice_hidden else None)
            for seat in range(len(seats))
        ]
    variant = view.variant
    top = max(variant.dice.per_player, max(s.dice_count for s in seats), 1)
    cups = 150 + top * (_DIE + 4) + (12 if any(s.open for s in seats) else 0)
    width = cups + 230
    row = _DIE + 22
    result = view.last_result
    names = tuple(seat.name for seat in seats)
    told = _last_call_lines(result, names) if result is not None else ()
    height = 60 + row * len(seats) + (40 + 18 * len(told) if result is not None else 20)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">',
        f'<rect width="{width}" height="{height}" fill="#f3efe3"/>',
    ]
    title = f"{variant.name}, round {view.round_number}"
    if view.special_round is not None:
        title += f", {variant.words.special_round or view.special_round} round"
    parts.append(_text(14, 26, title, size=16, weight="bold"))
    for seat, info in enumerate(seats):
        y = 44 + seat * row
        turn = seat == view.to_act
        parts.append(
            f'<rect x="8" y="{y - 4}" width="{cups - 8}" height="{row - 6}" rx="8" '
            f'fill="{"#e4d7b0" if turn else "#ebe4cf"}" stroke="#8a7a50"/>'
        )
        label = info.name + (" (you)" if seat == view.player else "")
        parts.append(_text(16, y + 20, label[:16], weight="bold" if turn else "normal"))
        hand = hands[seat]
        under = info.dice_count - len(info.open)
        faces: list[int | None] = list(hand) if hand is not None else [None] * under
        for index, face in enumerate(faces):
            parts.append(_die(140 + index * (_DIE + 4), y + 2, face))
        for index, face in enumerate(info.open, start=len(faces)):  # out in the open
            parts.append(_die(152 + index * (_DIE + 4), y + 2, face, out=True))
        if not info.is_in:  # points editions put nobody out; lives editions do
            parts.append(_text(140, y + 20, "out"))
        if not variant.scoring.moves_dice:
            parts.append(_text(cups - 70, y + 20, f"{info.score} pts", size=12))
    # the bid ladder
    x = cups + 16
    parts.append(_text(x, 50, "Bids", weight="bold"))
    for index, placed in enumerate(view.bids[-12:]):
        who = seats[placed.player].name
        said = variant.bid_said(placed.bid, placed.claim)
        parts.append(_text(x, 72 + index * 18, f"{said}  {who}"[:26], size=13))
    if not view.bids:
        parts.append(_text(x, 72, "none yet", size=13))
    if result is not None:
        y = 60 + row * len(seats)
        parts.append(_text(14, y + 4, "Last call", weight="bold"))
        for line_number, line in enumerate(told):
            parts.append(_text(14, y + 24 + 18 * line_number, line, size=12))
    if view.winners:
        winners = ", ".join(seats[seat].name for seat in view.winners)
        parts.append(_text(x, height - 14, f"Winner: {winners}"[:30], weight="bold"))
    parts.append("</svg>")
    return "\n".join(parts)
