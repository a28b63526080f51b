"""The observation encoder as it was before its rewrite of 2026-11-30 (commit 51152ce), kept as
the reference ``bench/batch.py`` measures today's :meth:`ObservationEncoding.encode` against in
the same run, its entries brought up to today's layout (the wild face now, starting dice,
every seat a call concerns, faces of any number). Not used by perudo."""

from __future__ import annotations

from perudo.encoding import ObservationEncoding
from perudo.errors import EncodingError, shown
from perudo.view import PlayerView


def encode(self: ObservationEncoding, view: PlayerView) -> list[int]:
    """The vector of ``view``: a new list of :attr:`size` integers.

    Raises:
        EncodingError: the view belongs to another edition or table size, or holds a
            bid above :attr:`ActionEncoding.max_quantity`.
    """
    if not isinstance(view, PlayerView):
        raise EncodingError(f"{shown(view)} is not a PlayerView")
    if view.variant != self.variant or len(view.seats) != self.players:
        raise EncodingError(
            f"a view of {view.variant.key} with {len(view.seats)} seats does not fit {self!r}"
        )
    n, me = self.players, view.player
    if me is None:
        raise EncodingError("a spectator's view (public_view) has no seat to encode from")
    out = [0] * self.size
    f = self._by_name

    def put(name: str, offset: int, value: int) -> None:
        if value:  # a field this edition leaves out (length 0) only ever holds 0
            fld = f[name]
            if offset >= fld.length:
                raise EncodingError(f"{value} does not fit field {name!r} of {self!r}")
            out[fld.start + offset] = value

    def seat_flag(name: str, seat: int | None, offset: int = 0) -> None:
        if seat is not None:
            put(name, offset + (seat - me) % n, 1)

    put("seat", me, 1)
    put("round", 0, view.round_number)
    for face in view.dice:
        out[f["hand"].start + face - 1] += 1
    put("hand_hidden", 0, int(view.dice_hidden))
    for seat, info in enumerate(view.seats):
        rel = (seat - me) % n
        put("dice", rel, info.dice_count)
        put("starting_dice", rel, view.starting_dice[seat])
        put("score", rel, info.score)
        put("pressure_left", rel, info.pressure_left)
    seat_flag("to_act", view.to_act)
    for seat in view.may_call:
        seat_flag("may_call", seat)
    for seat in view.rules.face_changers:
        seat_flag("face_changers", seat)
    if view.special_round is not None:
        put("special_round", 0, 1)
    seat_flag("special_player", view.special_player)
    for name in view.offers:
        put("offers", self.variant.declarations.index(name), 1)
    put("must_declare", 0, int(view.must_declare))
    put("wild", 0, view.wild_face or 0)
    first = self.actions.first_bid
    for position, placed in enumerate(view.bids, start=1):
        slot = self.actions.encode(placed.bid) - first
        put("bids", slot * n + (placed.player - me) % n, position)
    for number in self.actions.encode_all(view.legal_actions):
        put("legal", number, 1)
    result = view.last_result
    if result is not None:
        put("last", 0, 1)
        put("last_call", 0 if result.call == "challenge" else 1, 1)
        self.actions.encode(result.bid)  # refuses a bid without a number
        put("last_quantity", 0, result.bid.quantity)
        put("last_face", result.bid.face - 1, 1)
        put("last_pressure", 0, int(result.bid.pressure))
        seat_flag("last_caller", result.caller)
        seat_flag("last_bidder", result.bidder)
        put("last_count", 0, result.count)
        for order, seat in enumerate(result.revealed, start=1):
            put("last_revealed", (seat - me) % n, order)
        for seat, hand in enumerate(result.hands):
            rel = (seat - me) % n
            if hand is None:
                put("last_hidden", rel, 1)
                continue
            faces = self.variant.dice.faces
            for face in hand:
                out[f["last_hands"].start + faces * rel + face - 1] += 1
        put("last_wild", 0, result.wild or 0)
        for seat in result.losers:
            seat_flag("last_loser", seat)
        for seat in result.gainers:
            seat_flag("last_gainer", seat)
        put("last_points", 0, max(result.points))
        for seat in result.out:
            seat_flag("last_eliminated", seat)
        if self.variant.user_kinds:
            moves_dice = self.variant.scoring.moves_dice or result.call == "exact"
            for seat, change in enumerate(result.changes if moves_dice else result.points):
                put("last_changes", (seat - me) % n, change)
    for seat in view.winners:
        seat_flag("winners", seat)
    return out
