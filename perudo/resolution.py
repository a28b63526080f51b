"""How a call ends a round: the challenge (Dudo) or the exact call (Calza, Jonti) is
counted and settled (or the time a player let run out, where the clock makes it cost), and
:class:`Resolution` tells what happened to every seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from perudo.actions import AnyBid, Bid, CallRole, HandBid
from perudo.errors import InvalidVariantError, shown
from perudo.players import Claim, called_link
from perudo.rules import (
    CallContext,
    ExactCallRule,
    RoundContext,
    ScoringRule,
    SettledCall,
    Words,
    capitalised,
)
from perudo.rules.axes import SeatChanges, extended, optional
from perudo.variant import Variant

__all__ = ["Resolution", "call_word", "settle_call"]


def call_word(words: Words, call: CallRole) -> str:
    """What the edition calls a call of that role: its challenge's word (``"Dubito"``),
    its exact call's (``"Jonti"``, else ``"exact call"``), or ``"out of time"``."""
    if call == "challenge":
        return words.dudo
    return "out of time" if call == "time" else words.calza or "exact call"


@attrs.frozen(slots=False)  # made once a round: a dict-based class is made faster
class Resolution(SeatChanges):
    """The outcome of a call.

    Attributes:
        call: ``"challenge"``, ``"exact"`` (the exact call: Calza, Jonti, Spot on) or
            ``"time"`` (the caller let the time run out, where the clock makes it cost:
            :class:`~perudo.OutOfTime`; no hand is shown).
        word: What the edition calls it: ``"Dubito"``, ``"Perudo"``, ``"Jonti"``,
            ``"out of time"`` ...
        bid: The bid that was called.
        caller: The seat that called.
        bidder: The seat that made the bid (for an exact claim, the claimer).
        claim: What the link called claimed (:attr:`perudo.PlacedBid.claim`): ``"bid"``,
            ``"exact"`` (a Bull: exactly its quantity) or ``"pass"`` (then ``count`` is 1
            when the passer's hand, the only one shown, is as the pass claims, else 0).
        count: Dice of the bid's face (with the wild face, if one was wild) among the
            hands shown; for a bid that names a hand (Mia's), the rank of the highest hand
            the dice shown make (1 for the edition's lowest, 0 for none).
        revealed: The seats that showed their hands, in the order shown (caller last).
        hands: Each seat's hand as shown: ``None`` for a hand that stayed hidden, ``()`` for a
            seat already out.
        wild: The face that counted as wild in this count, or ``None``.
        changes: Each seat's change of dice.
        points: Each seat's change of score (points editions; zeros elsewhere).
        out: The seats this call left without dice, in seat order.
        names: The players' names by seat, when the call was made at a table (a state sets
            them); :meth:`describe` uses them. They take no part in equality.
        words: The edition's words, for :meth:`describe` (no part in equality).
    """

    call: CallRole
    word: str
    bid: AnyBid
    caller: int
    bidder: int
    count: int
    revealed: tuple[int, ...]
    hands: tuple[tuple[int, ...] | None, ...]
    wild: int | None
    changes: tuple[int, ...]
    points: tuple[int, ...]
    out: tuple[int, ...] = ()
    claim: Claim = attrs.field(default="bid", kw_only=True)
    names: tuple[str, ...] | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)
    words: Words | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)
    unit: tuple[str, str] = attrs.field(
        default=("point", "points"), eq=False, repr=False, kw_only=True
    )  # what a score counts, for describe: the scoring kind's
    #: The hands a bid may name, lowest first, and what players call each (an edition whose
    #: bids name hands), for describe.
    hand_names: tuple[tuple[tuple[int, ...], str], ...] = attrs.field(
        default=(), eq=False, repr=False, kw_only=True
    )
    #: Whether the claims kind judges each hand apart: ``count`` is then 1 where the dice
    #: shown hold the hand, else 0 (for describe).
    judged_apart: bool = attrs.field(default=False, eq=False, repr=False, kw_only=True)

    @property
    def loser(self) -> int | None:
        """The seat that lost, when exactly one did (else ``None``: see :attr:`losers`)."""
        losers = self.losers
        return losers[0] if len(losers) == 1 else None

    @property
    def gainer(self) -> int | None:
        """The seat that gained, when exactly one did (else ``None``: see :attr:`gainers`)."""
        gainers = self.gainers
        return gainers[0] if len(gainers) == 1 else None

    @property
    def is_exact(self) -> bool:
        """Whether the count equals the bid's quantity (what an exact call claims); never
        for a bid that names a hand."""
        return isinstance(self.bid, Bid) and self.count == self.bid.quantity

    @property
    def partly_shown(self) -> bool:
        """Whether a hand of a seat still in stayed hidden (a partial reveal): the count is
        "among the hands shown"."""
        return None in self.hands

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data; hands that stayed hidden are ``None``; ``claim`` is there
        only for the challenge of an exact claim or a pass."""
        return {
            "call": self.call,
            "word": self.word,
            "bid": str(self.bid),
            "caller": self.caller,
            "bidder": self.bidder,
            "count": self.count,
            "revealed": list(self.revealed),
            "hands": [None if hand is None else list(hand) for hand in self.hands],
            "wild": self.wild,
            "changes": list(self.changes),
            "points": list(self.points),
            "losers": list(self.losers),
            "gainers": list(self.gainers),
            "out": list(self.out),
        } | ({"claim": self.claim} if self.claim != "bid" else {})  # saved positions read the same

    def describe(self, names: Sequence[str] | None = None) -> str:
        """A sentence for people, in the edition's words: the players by ``names`` when
        given, else by the names of the table the call was made at, else by seat."""
        names = self.names if names is None else names
        words = self.words or Words(dudo="Dudo")

        def who(seat: int) -> str:
            return names[seat] if names is not None else f"seat {seat}"

        bid = self.bid
        if isinstance(bid, HandBid):
            said, counted = self._hand_said(bid)
        else:
            wild = ""
            if self.wild is not None and bid.face != self.wild:
                wild = f" ({words.face_name(self.wild)} wild)"
            shown_only = " among the hands shown" if self.partly_shown else ""
            said = words.bid_said(bid, self.claim)
            counted = f"{words.counted(self.count, bid.face)}{wild}{shown_only}"
        if self.claim == "pass":  # judged on the passer's hand, the one shown
            word = words.paso or "pass"
            counted = f"the hand shown is {'as' if self.count else 'not as'} the {word} claims"
            said = word
        if self.call == "time":
            head = f"{who(self.caller)} ran out of time on {said} by {who(self.bidder)}"
        else:
            word = capitalised(self.word)  # WANGO's "challenge" opens it too
            head = f"{word} by {who(self.caller)} on {said} by {who(self.bidder)}: {counted}"
        parts = []
        given = [seat for seat, point in enumerate(self.points) if point < 0]
        taken = [seat for seat, point in enumerate(self.points) if point > 0]
        points = self.points
        if len(given) == len(taken) == 1 and points[given[0]] == -points[taken[0]]:
            amount = points[taken[0]]
            parts.append(f"{who(given[0])} gives {self._counted(amount)} to {who(taken[0])}")
            points = (0,) * len(points)
        for seat, (change, point) in enumerate(zip(self.changes, points, strict=True)):
            if change:
                dice = "a die" if abs(change) == 1 else f"{abs(change)} dice"
                if change < 0:
                    out = seat in self.out
                    parts.append(f"{who(seat)} loses {dice}" + (", and is out" if out else ""))
                else:
                    parts.append(f"{who(seat)} gains {dice}")
            if point:
                score = self._counted(abs(point))
                gone = ", and is out" if seat in self.out and not change else ""
                parts.append(f"{who(seat)} {'gains' if point > 0 else 'loses'} {score}{gone}")
        if parts:
            return f"{head}; " + "; ".join(parts)
        if self.call == "exact" and self.is_exact:
            return f"{head}; {who(self.caller)} is right, already holds every die and gains nothing"
        return f"{head}; nobody loses or gains anything"

    def _hand_said(self, bid: HandBid) -> tuple[str, str]:
        """A hand bid as players call it, and what the dice shown make of it."""
        names = dict(self.hand_names)
        said = names.get(bid.faces, str(bid))
        if not self.revealed:
            return said, "no hand is shown"
        if self.judged_apart:
            return said, f"the dice shown {'hold' if self.count else 'do not hold'} it"
        made = "no hand of the ladder"
        if 0 < self.count <= len(self.hand_names):
            made = self.hand_names[self.count - 1][1]
        return said, f"the dice shown make {made}"

    def _counted(self, amount: int) -> str:
        """``amount`` of the score's unit: ``"1 point"``, ``"2 points"``, ``"1 life"``."""
        return f"{amount} {self.unit[0] if amount == 1 else self.unit[1]}"

    def __str__(self) -> str:
        return self.describe()


def _shown(
    hands: Sequence[tuple[int, ...]], revealed: Sequence[int]
) -> tuple[tuple[int, ...] | None, ...]:
    if len(revealed) == len(hands) - list(hands).count(()):
        return tuple(hands)  # every hand still in was shown
    shown_seats = set(revealed)
    return tuple(
        [hand if seat in shown_seats or not hand else None for seat, hand in enumerate(hands)]
    )


def _per_seat(
    variant: Variant, axis: str, values: Any, players: int, method: str = "settle"
) -> tuple[int, ...]:
    """``values`` checked as one whole number per seat, or the kind that gave them blamed."""
    if (
        not isinstance(values, tuple | list)
        or len(values) != players
        or not all(type(value) is int for value in values)
    ):
        kind = variant.component(axis).kind
        raise InvalidVariantError(
            f"rule kind {axis}:{kind} of {variant.key!r} broke its protocol: {method} returned "
            f"{shown(values)}, not one whole number per seat ({players})"
        )
    return tuple(values)


def _counted(variant: Variant, axis: str, answer: Any, players: int) -> tuple[tuple[int, ...], int]:
    """``answer`` checked as the seats shown (each once) and a count, or the kind that
    gave it blamed."""
    if (
        isinstance(answer, tuple)
        and len(answer) == 2
        and isinstance(answer[0], tuple | list)
        and all(type(seat) is int and 0 <= seat < players for seat in answer[0])
        and len(set(answer[0])) == len(answer[0])
        and type(answer[1]) is int
        and answer[1] >= 0
    ):
        return tuple(answer[0]), answer[1]
    kind = variant.component(axis).kind
    raise InvalidVariantError(
        f"rule kind {axis}:{kind} of {variant.key!r} broke its protocol: reveal_hands "
        f"returned {shown(answer)}, not the seats shown and a count"
    )


def _who_stays_in(
    variant: Variant,
    stays_in: Any,
    scores: tuple[int, ...],
    points: tuple[int, ...],
    after: tuple[int, ...],
    out: tuple[int, ...],
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each seat's dice after the call, and the seats it put out, where the scoring kind
    says who stays in (lives, a least number of dice): a seat it puts out holds no dice
    from then on."""
    held_after, put_out = list(after), set(out)
    for seat, held in enumerate(after):
        if not held:
            continue
        stays = stays_in(scores[seat] + points[seat], held)
        if type(stays) is not bool:
            raise InvalidVariantError(
                f"rule kind scoring:{variant.scoring.kind} of {variant.key!r} broke its "
                f"protocol: stays_in returned {shown(stays)}, not True or False"
            )
        if not stays:
            held_after[seat] = 0
            put_out.add(seat)
    return tuple(held_after), tuple(sorted(put_out))


def settle_call(
    variant: Variant,
    context: RoundContext,
    hands: Sequence[tuple[int, ...]],
    call: CallRole,
    caller: int,
    pressured: bool,
    names: tuple[str, ...] | None = None,
) -> tuple[SettledCall, Resolution]:
    """Count and settle ``caller``'s ``call`` on the standing bid of ``context``.

    Each call shows the hands its axis reveals and counts them its own way (perudo's exact
    call shows every hand). Then one settlement: the scoring axis's for a challenge, the
    exact call's for an exact call, the clock's ``forfeit`` for a player out of time (no
    hand shown), each a change per seat, of dice or (where calls move points) of score.
    Every hand stays between none and its starting dice, and a seat already out stays out.
    ``names`` are kept for :meth:`Resolution.describe`.
    """
    placed = context.bids[-1]  # a call needs a standing bid
    if placed.claim == "doubt":  # challenged all around: the call is on the bid doubted
        placed = called_link(context.bids)
    bid, claim = placed.bid, placed.claim
    claimed = claim == "exact"
    wild = context.wild
    dice, starting = context.dice, context.starting
    challenge = call == "challenge"
    # the challenge axis counts a challenge, the scoring settles it; the exact call does both,
    # and counts a challenge of its exact claim (a Bull), whose wrong claim the scoring settles
    counter = variant.challenge if challenge and not claimed else variant.exact_call
    revealed: tuple[int, ...]
    timed_out = call == "time"
    if timed_out:  # nothing is shown, nothing counted
        revealed, total, wild = (), 0, None
    elif claim == "pass":  # judged on the passer's hand alone, shown alone
        passer = placed.player
        holds = variant.passes.holds(hands[passer], context)
        if type(holds) is not bool:
            raise InvalidVariantError(
                f"rule kind passes:{variant.passes.kind} of {variant.key!r} broke its "
                f"protocol: holds returned {shown(holds)}, not True or False"
            )
        revealed, total, wild = (passer,), int(holds), None
    else:
        answer = counter.reveal_hands(hands, caller, context)
        if variant.user_kinds:  # perudo's own kinds keep the protocol
            answer = _counted(variant, counter.axis, answer, len(hands))
        revealed, total = answer
        if not optional(counter, "counts_wild"):  # the kind counted the face alone
            wild = None
    seen = _shown(hands, revealed)
    counted = extended(
        CallContext, context, to_act=None, call=call, caller=caller, pressured=pressured,
        shown=seen, count=total, in_turn=caller == context.to_act,
    )  # fmt: skip
    right_claim = claimed and isinstance(bid, Bid) and total == bid.quantity
    settler: ScoringRule | ExactCallRule = (
        variant.scoring if challenge and not right_claim else variant.exact_call
    )
    if timed_out:  # the clock's: offered only where it has a forfeit
        raw, axis, method = variant.clock.forfeit(counted), "clock", "forfeit"  # type: ignore[attr-defined]
    else:
        raw, axis, method = settler.settle(counted), settler.axis, "settle"
    if variant.user_kinds:  # perudo's own kinds keep the protocol
        raw = _per_seat(variant, axis, raw, len(hands), method)
    if variant.stakes and challenge and isinstance(bid, HandBid):  # played for more (Mia's)
        stake = variant.stakes.get((bid.faces, counted.bid_stands), 1)
        raw = tuple([change * stake for change in raw])
    zeros = (0,) * len(hands)
    out: tuple[int, ...]
    if not variant.scoring.moves_dice:  # calls move points (lives, chips): the exact call too
        changes, points, after, out = zeros, tuple(raw), dice, ()
    else:
        kept, held_after = list(raw), list(dice)  # only the seats a change names are looked at
        put_out = []
        for seat, change in enumerate(raw):
            if change:  # a seat out stays out; a hand stays between none and its start
                held = dice[seat]
                change = kept[seat] = max(min(change, starting[seat] - held), -held) if held else 0
                held_after[seat] = held + change
                if held and not held + change:
                    put_out.append(seat)
        changes, points, after, out = tuple(kept), zeros, tuple(held_after), tuple(put_out)
    stays_in = optional(variant.scoring, "stays_in")  # a kind that plays for lives
    if stays_in is not None:
        after, out = _who_stays_in(variant, stays_in, context.scores, points, after, out)
    settled = extended(SettledCall, counted, changes=changes, points=points, after=after)
    words = variant.words
    result = Resolution(
        call=call,
        word=words.dudo
        if challenge
        else "out of time"
        if timed_out
        else words.calza or "exact call",
        bid=bid,
        caller=caller,
        bidder=placed.player,
        claim=claim,
        count=total,
        revealed=revealed,
        hands=seen,
        wild=wild,
        changes=changes,
        points=points,
        out=out,
        names=names,
        words=words,
        unit=variant.score_unit,
    )
    if variant.hand_bids:  # what describe says of a hand
        judged = variant.round_rules().judged_apart
        result = attrs.evolve(result, hand_names=variant.hand_names, judged_apart=judged)
    return settled, result
