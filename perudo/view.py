"""What one player may see: :class:`PlayerView`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from perudo.actions import Action
from perudo.players import Glimpse, PlacedAct, PlacedBid, RoundFacts
from perudo.resolution import Resolution
from perudo.rules import RoundContext, RoundRules
from perudo.rules.axes import in_the_open
from perudo.variant import Variant

__all__ = ["PlayerView", "SeatView", "draw_table"]

#: Unicode die faces 1 to 6 (index 0 unused).
DIE_FACES = " \u2680\u2681\u2682\u2683\u2684\u2685"


@attrs.frozen
class SeatView:
    """What everyone knows about a seat.

    Attributes:
        name: The player's name.
        dice_count: The dice the seat holds, under its cup and in the open.
        score: Its score (points editions).
        pressure_left: Its pressure uses left (WANGO party mode).
        open: Its dice out in the open this round (Bluff's re-roll), seen by everyone.
    """

    name: str
    dice_count: int
    score: int
    pressure_left: int
    open: tuple[int, ...] = ()

    @property
    def is_in(self) -> bool:
        """Whether the seat still holds dice."""
        return self.dice_count > 0


@attrs.frozen
class PlayerView(RoundFacts):
    """All that ``player`` may know of a position: their own hand, every seat's dice count
    and score, the round's bids, whose turn it is, and what the last call showed.

    Build one with :meth:`perudo.GameState.view`. Nothing in it (its ``repr``, its
    :meth:`to_dict`, its legal actions) depends on another player's hidden dice.

    Attributes:
        player: The seat this view belongs to; ``None`` for a spectator's
            (:meth:`perudo.GameState.public_view`: no hand, no legal action).
        variant: The edition.
        round_number: The round, from 1.
        starting_dice: Each seat's dice at the start of the game (fewer than the edition's
            for a seat given a handicap).
        dice: The player's own hand under the cup (dice the player put out in the open
            are in ``seats[player].open``); ``()`` while it is hidden (``dice_hidden``).
        dice_hidden: Whether the player may not look yet (Italian: the one-die player
            choosing between Palifico and an ordinary round with two players left).
        seats: Every seat, clockwise.
        bids: The bids of the round and who made them.
        to_act: The seat whose turn it is; ``None`` once the game is over.
        may_call: The seats that may make the exact call now, in or out of turn.
        special_round: The special round in force, if any.
        special_player: The seat whose special round it is.
        offers: Declarations open to the player to act.
        must_declare: Whether the player to act must declare before bidding.
        rules: The bidding rules in force this round.
        legal_actions: This player's legal actions now.
        last_result: The last call as everyone saw it (hands not shown are ``None``).
        winners: The winning seats once the game is over.
        acts: The round's actions of the edition's ``actions`` axis (Bluff's re-roll), each
            with its player and the number of bids the round had then.
        seen: The dice this player saw under another cup this round, and its own dice
            another player saw (an action that looks), sorted; ``()`` for a spectator.
        owed: The seats owed a special round in later rounds, in the order owed.
    """

    player: int | None
    variant: Variant
    round_number: int
    starting_dice: tuple[int, ...]
    dice: tuple[int, ...]
    dice_hidden: bool
    seats: tuple[SeatView, ...]
    bids: tuple[PlacedBid, ...]
    to_act: int | None
    may_call: tuple[int, ...]
    special_round: str | None
    special_player: int | None
    offers: tuple[str, ...]
    must_declare: bool
    rules: RoundRules
    legal_actions: tuple[Action, ...]
    last_result: Resolution | None
    winners: tuple[int, ...]
    acts: tuple[PlacedAct, ...] = ()
    seen: tuple[Glimpse, ...] = ()
    owed: tuple[int, ...] = ()

    @property
    def dice_in_play(self) -> int:
        """How many dice all hands hold together."""
        return sum(seat.dice_count for seat in self.seats)

    @property
    def context(self) -> RoundContext:
        """The round as the rule kinds see it (:class:`~perudo.rules.RoundContext`), from
        what this view shows."""
        variant = self.variant
        return RoundContext(
            words=variant.words,
            faces=variant.dice.faces,
            dice_per_player=variant.dice.per_player,
            dice=tuple([seat.dice_count for seat in self.seats]),
            round_number=self.round_number,
            to_act=self.to_act,
            bids=self.bids,
            rules=self.rules,
            scores=tuple([seat.score for seat in self.seats]),
            starting=self.starting_dice,
            open=in_the_open(seat.open for seat in self.seats),
            acts=self.acts,
        )

    @property
    def wild_face(self) -> int | None:
        """The face that counts as wild at this moment of the round (it may depend on the
        bids so far), or ``None``."""
        return self.rules.wild_face(self.context)

    @property
    def known(self) -> tuple[int, ...]:
        """Every die this player sees, sorted (its own hand and every die in the open, its
        own and the other seats')."""
        opened = [face for seat in self.seats for face in seat.open]
        return tuple(sorted([*self.dice, *opened])) if opened else self.dice

    @property
    def unseen(self) -> int:
        """How many dice this player cannot see (under the other players' cups)."""
        return self.dice_in_play - len(self.known)

    def draw(self, *, ascii: bool = False) -> str:
        """The table as this player sees it, in a few lines: every seat with its dice (this
        player's faces, the others' hidden), scores and pressure where the edition has
        them, the special round, the round's bids and who made them, whose turn it is,
        and the last call with the hands it showed. Unicode die faces, or digits with
        ``ascii=True``; the edition's words throughout. ``str(view)`` is ``view.draw()``.
        """
        hands = [
            (self.dice if seat == self.player and not self.dice_hidden else None)
            for seat in range(len(self.seats))
        ]
        return draw_table(self, hands, ascii=ascii)

    def __str__(self) -> str:
        return self.draw()

    def _repr_svg_(self) -> str:
        """The picture of this view (:mod:`perudo.svg`), for Jupyter."""
        from perudo.svg import table_svg

        return table_svg(self)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data, actions in :mod:`perudo.notation`."""
        return {
            "player": self.player,
            "variant": self.variant.key,
            "round_number": self.round_number,
            "starting_dice": list(self.starting_dice),
            "dice": list(self.dice),
            "dice_hidden": self.dice_hidden,
            "seats": [
                {
                    "name": seat.name,
                    "dice_count": seat.dice_count,
                    "score": seat.score,
                    "pressure_left": seat.pressure_left,
                    "open": list(seat.open),
                }
                for seat in self.seats
            ],
            "bids": [placed.to_dict() for placed in self.bids],
            "to_act": self.to_act,
            "may_call": list(self.may_call),
            "special_round": self.special_round,
            "special_player": self.special_player,
            "offers": list(self.offers),
            "must_declare": self.must_declare,
            "rules": self.rules.to_dict(),
            "legal_actions": [str(action) for action in self.legal_actions],
            "last_result": None if self.last_result is None else self.last_result.to_dict(),
            "winners": list(self.winners),
            "acts": [{"player": a.player, "act": str(a.act), "after": a.after} for a in self.acts],
            "seen": [{"seer": g.seer, "owner": g.owner, "face": g.face} for g in self.seen],
            "owed": list(self.owed),
        }


def _faces(hand: Sequence[int], ascii: bool) -> str:
    return " ".join(str(face) if ascii or face > 6 else DIE_FACES[face] for face in hand)


def draw_table(
    view: PlayerView, hands: Sequence[Sequence[int] | None], *, ascii: bool = False
) -> str:
    """The text drawing of :meth:`~perudo.PlayerView.draw`, with ``hands[seat]`` the faces shown
    for each seat (``None``: hidden, drawn as ``?``). :meth:`perudo.GameState.draw` shows
    every hand; a view shows its player's own."""
    variant, words = view.variant, view.variant.words
    ascii = ascii or variant.dice.faces != 6  # die faces past six have no character
    points = not variant.scoring.moves_dice
    unit = variant.score_unit[1]  # what a score counts, in the plural
    title = f"{variant.name} - round {view.round_number}"
    if view.special_round is not None and view.special_player is not None:
        name = words.special_round or view.special_round
        title += f", {name} round of {view.seats[view.special_player].name}"
    lines = [title]
    width = max(len(seat.name) for seat in view.seats)
    cells = []
    for seat, info in enumerate(view.seats):
        hand = hands[seat]
        under = info.dice_count - len(info.open)
        if not info.is_in:  # points editions put nobody out; lives editions do
            cells.append("out")
        elif hand is None:
            cells.append(" ".join("?" * under))
        else:
            cells.append(_faces(hand, ascii))
        if info.open:
            cells[-1] += f" | open {_faces(info.open, ascii)}"
    dice_width = max(len(cell) for cell in cells)
    for seat, info in enumerate(view.seats):
        extra = f"  {info.dice_count} dice" if info.is_in and not points else ""
        if points:  # what a score counts: "score 3" (points), "lives 2"
            extra += f"  {'score' if unit == 'points' else unit} {info.score}"
        if variant.has_pressure:
            extra += f"  pressure {info.pressure_left}"
        marks = []
        if seat == view.to_act:
            marks.append("to act")
        if seat == view.player:
            marks.append("you")
        mark = f"  <- {', '.join(marks)}" if marks else ""
        row = f"  {info.name.ljust(width)}  {cells[seat].ljust(dice_width)}{extra}{mark}"
        lines.append(row.rstrip())
    if view.bids:
        said = ", ".join(
            f"{view.seats[p.player].name} {view.variant.bid_said(p.bid, p.claim)}"
            for p in view.bids
        )
        lines.append(f"Bids: {said}")
        context = view.context
        wild = view.rules.wild_face(context)
        if wild != view.rules.wild_face(attrs.evolve(context, bids=())):  # the bids changed it
            lines.append(f"Wild now: {'none' if wild is None else words.face_name(wild)}")
    elif view.offers and view.to_act is not None:
        who = view.seats[view.to_act].name
        lines.append(f"{who} may declare: {' or '.join(view.offers)}")
    if view.acts:
        done = ", ".join(f"{view.seats[a.player].name} {a.act}" for a in view.acts)
        lines.append(f"Actions: {done}")
    for glimpse in view.seen:
        seer, owner = view.seats[glimpse.seer].name, view.seats[glimpse.owner].name
        lines.append(f"Seen: {seer} saw a {glimpse.face} under {owner}'s cup")
    result = view.last_result
    if result is not None:
        names = [seat.name for seat in view.seats]
        lines.append(f"Last call: {result.describe(names)}")
        shown = [
            f"{names[seat]} {_faces(result.hands[seat] or (), ascii)}" for seat in result.revealed
        ]
        if shown:
            lines.append(f"  shown: {'; '.join(shown)}")
    if view.winners:
        lines.append("Winner: " + ", ".join(view.seats[seat].name for seat in view.winners))
    return "\n".join(lines)
