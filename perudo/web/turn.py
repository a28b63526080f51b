"""A seat's turn as data a page (or a program) lays out: the bids as a quantity and a
face, with the lowest legal quantity of each face and why the rest are refused, and every
other move (calls, declarations, the edition's own actions, bids that name hands) in the
edition's words, each with a one-line legend.

>>> import perudo
>>> state = perudo.new_game(perudo.load_variant("italian"), ["Ana", "Bo"], seed=3, first_player=0)
>>> state = state.apply(perudo.Bid(3, 5))
>>> turn = choices(state, 1)
>>> [(face["face"], face["quantities"][0]) for face in turn["faces"]]
[(1, 2), (2, 4), (3, 4), (4, 4), (5, 4), (6, 3)]
>>> [(move["move"], move["kind"]) for move in turn["moves"]]
[('dubito', 'call')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from perudo.actions import Act, Action, Bid, Calza, Declare, Dudo, HandBid, OutOfTime, Paso
from perudo.notation import spoken_words
from perudo.rules import capitalised
from perudo.state import GameState
from perudo.variant import Variant

__all__ = ["choices"]


def choices(state: GameState, seat: int, legal: Sequence[Action] | None = None) -> dict[str, Any]:
    """What ``seat`` may do now, laid out for a picker: its ``legal`` actions when the
    caller has them already (a view's), else asked of ``state``.

    Returns a dict with:

    - ``faces``: for each face of the dice, in order, ``{"face", "name", "quantities",
      "below", "refused"}``: the legal plain bids' quantities, rising (empty when the face
      may not be bid now); why a smaller quantity is refused (``None`` when the face has
      no legal bid); why the face is refused (``None`` when it has a legal bid);
    - ``pressured``: the same for the bids said with pressure (WANGO party), where any is
      legal now, else ``[]``;
    - ``moves``: every other legal move, ``{"move", "kind", "legend"}``: what to send (the
      edition's word), ``"call"``, ``"declaration"``, ``"action"`` or ``"bid"`` (a bid
      that names a hand), and a sentence saying what it does.
    """
    if legal is None:
        legal = state.legal_actions(by=seat) if state.to_act is not None else ()
    words = spoken_words(state.variant)
    plain: dict[int, list[int]] = {}
    pressured: dict[int, list[int]] = {}
    moves: list[dict[str, Any]] = []
    for action in legal:
        if isinstance(action, Bid):
            (pressured if action.pressure else plain).setdefault(action.face, []).append(
                action.quantity
            )
        else:
            move = words.get(action, str(action))
            kind, legend = _legend(state.variant, action, capitalised(move))
            moves.append({"move": move, "kind": kind, "legend": legend})
    faces = [_face(state, seat, face, plain.get(face, []), False) for face in _faces(state)]
    with_pressure = (
        [_face(state, seat, face, pressured.get(face, []), True) for face in _faces(state)]
        if pressured
        else []
    )
    return {"faces": faces, "pressured": with_pressure, "moves": moves}


def _faces(state: GameState) -> range:
    return range(1, state.variant.dice.faces + 1)


def _face(
    state: GameState, seat: int, face: int, quantities: list[int], pressure: bool
) -> dict[str, Any]:
    """One face's entry: its legal quantities, and the reasons for the rest."""
    quantities.sort()
    name = state.variant.words.face_name(face)
    below: str | None = None
    refused: str | None = None
    if quantities:
        if quantities[0] > 1:
            violation = state.check(Bid(quantities[0] - 1, face, pressure=pressure), by=seat)
            below = violation.message if violation is not None else None
    elif state.to_act is not None:
        largest = max(state.dice_in_play, 1)
        violation = state.check(Bid(largest, face, pressure=pressure), by=seat)
        refused = violation.message if violation is not None else f"no bid on {name} now"
    return {"face": face, "name": name, "quantities": quantities, "below": below,
            "refused": refused}  # fmt: skip


def _legend(variant: Variant, action: Action, move: str) -> tuple[str, str]:
    """The kind of a move that is not a plain bid, and what it does in one line (starting
    with ``move``, the move's word as a sentence starts it)."""
    words = variant.words
    if isinstance(action, Dudo):
        return "call", (
            f"{move}: you doubt the last bid. The dice are counted, and whoever was wrong pays"
        )
    if isinstance(action, Calza):
        return "call", (
            f"{move}: you claim the last bid is exactly right. The dice are counted: "
            "right, you win by it; wrong, you pay"
        )
    if isinstance(action, Paso):
        return "call", f"{move}: you pass instead of raising; the last bid stands"
    if isinstance(action, OutOfTime):
        return "call", f"{move}: you let your time run out"
    if isinstance(action, Declare):
        if action.name == words.ordinary.lower():
            return "declaration", f"{move}: you play this round as an ordinary one"
        return "declaration", f"{move}: you declare this round, before its first bid"
    if isinstance(action, HandBid):
        return "bid", f"{move}: you bid that the dice make this hand or better"
    if isinstance(action, Act):
        return "action", f"{move}: {_first_sentence(variant.describe('actions'))}"
    return "call", move  # pragma: no cover - every kind of move is above


def _first_sentence(text: str) -> str:
    head, dot, _ = text.partition(". ")
    return head + ("" if head.endswith(".") else ".") if dot else text
