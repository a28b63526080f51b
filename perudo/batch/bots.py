"""perudo's bots in batch form: the ``random`` and ``odds`` bots of :mod:`perudo.bots`, each
deciding for every game of a :class:`~perudo.batch.BatchGames` at once.

A batch bot makes the same decisions as its single-game form, in distribution: the random
bot draws uniformly among the legal actions and acts out of turn one time in twenty (an
exact call, a re-roll), as :class:`perudo.bots.RandomBot` does; the odds bot reads the same
chance tables (the same floating-point values, from :mod:`perudo.odds`, the dice out in
the open seen by all), breaks ties the same way and re-rolls as :class:`perudo.bots.OddsBot`
does. Their random draws come from their own NumPy generators.
"""

from __future__ import annotations

import functools
import math
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from perudo.batch import policies
from perudo.batch.compiled import compiled, rows
from perudo.batch.engine import BatchGames
from perudo.batch.rules import hand_ladder
from perudo.bots import OddsBot, RandomBot, hand_chances, pass_chance, reader_bot
from perudo.odds import tail_chances
from perudo.rules import BidderHandChallenge
from perudo.variant import Variant

__all__ = [
    "BatchBot",
    "BatchOddsBot",
    "BatchRandomBot",
    "BatchReaderBot",
    "batch_bot",
    "unjudged",
]


class BatchBot(Protocol):
    """What a batch bot does, for every game of a batch at once."""

    name: str

    def act(self, table: BatchGames) -> NDArray[np.int64]:
        """``(batch,)``: the action of each game's player to act (any value where over)."""
        ...

    def interrupt(self, table: BatchGames) -> NDArray[np.int64]:
        """``(batch, players)``: the action each seat other than the player to act takes
        out of turn now, -1 for none (only actions
        :meth:`perudo.batch.BatchGames.legal_mask` allows the seat: the exact call out of
        turn, a re-roll after its bid)."""
        ...


def _out_of_turn_calls(table: BatchGames) -> NDArray[np.bool_]:
    """The seats that may make the exact call out of turn now (Jonti)."""
    if table.rules.exact_out_of_turn:
        may = table.may_call()
        may[np.arange(table.batch), np.maximum(table.to_act, 0)] = False
        return may
    return np.zeros((table.batch, table.players), dtype=np.bool_)


def _known(table: BatchGames, seats: NDArray[Any]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """``(batch, faces + 1)``: the dice each game's seat ``seats`` sees, counted by face
    (its own hand and every die out in the open), and ``(batch,)``: those it does not see
    (under the other seats' cups): :attr:`perudo.PlayerView.known` and ``unseen``."""
    rows = np.arange(table.batch)
    known = table.faces[rows, table.dealt, seats].astype(np.int64)
    held = table.held[rows, seats].astype(np.int64)
    if table.rules.reroll:  # the other seats' dice in the open are seen too
        opened = table.open_faces.sum(axis=1, dtype=np.int64) - table.open_faces[rows, seats]
        known = known + opened
        held = held + opened.sum(axis=1)
    return known, table.in_play.astype(np.int64) - held


def _own_count(
    table: BatchGames, seats: NDArray[Any], face: NDArray[Any]
) -> tuple[NDArray[np.int64], NDArray[np.bool_], NDArray[np.int64]]:
    """How many of the dice ``seats`` sees count for ``face`` in each game, where the wild
    face helps (the face is not the wild one), and the dice it does not see:
    :func:`perudo.dice.count` of :attr:`perudo.PlayerView.known`, and ``unseen``."""
    rows = np.arange(table.batch)
    wild = table.wild_faces()
    known, unseen = _known(table, seats)
    helps: NDArray[np.bool_] = (wild > 0) & (face != wild)
    return known[rows, face] + np.where(helps, known[rows, wild], 0), helps, unseen


@functools.lru_cache(maxsize=16)
def _pass_chances(variant: Variant) -> NDArray[np.float64]:
    """``[dice]``: the chance a hand of ``dice`` dice is as the edition's pass claims, the
    odds bot's own estimate (:func:`perudo.bots.pass_chance`)."""
    context = variant.round_one((variant.dice.per_player,) * 2)
    dice = range(variant.dice.per_player + 1)
    return np.array([pass_chance(variant.passes, held, context) for held in dice])


@functools.lru_cache(maxsize=16)
def _hand_chances(variant: Variant) -> NDArray[np.float64]:
    """``[dice, rank]``: the chance a hand of ``dice`` unseen dice holds the hand of rank
    ``rank`` (or higher), as the odds bot judges a hand when a challenge shows the bidder's
    alone: every outcome of the dice counted (:func:`perudo.bots.hand_chance`'s, the same
    floats)."""
    rules, ladder = variant.round_rules(), variant.hand_bids
    dice, faces = variant.dice.per_player, variant.dice.faces
    table = np.zeros((dice + 1, len(ladder) + 1))
    for unseen in range(dice + 1):
        table[unseen] = hand_chances(rules, ladder, unseen, faces)
    return table


def _held_ranks(counts: NDArray[Any], ladder: NDArray[np.int8]) -> NDArray[np.int64]:
    """The rank of the highest hand of ``ladder`` (:func:`~perudo.batch.rules.hand_ladder`)
    each row of dice ``counts`` (counted by face) holds; 0 for none."""
    held = (ladder[None, :, :] <= counts[:, None, :]).all(axis=2)
    ranks: NDArray[np.int64] = np.where(held, np.arange(len(ladder)), 0).max(axis=1)
    return ranks


class BatchRandomBot:
    """:class:`perudo.bots.RandomBot` in batch form."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, table: BatchGames) -> NDArray[np.int64]:
        """A legal action drawn uniformly in each game (the table's generator draws it)."""
        return table.random_actions()

    def interrupt(self, table: BatchGames) -> NDArray[np.int64]:
        """Each seat that may act out of turn does so one time in twenty, with one of
        those actions drawn uniformly."""
        counts = table.out_of_turn_counts()
        acting = (counts > 0) & (self.rng.random(counts.shape) < 0.05)
        acts = np.full(counts.shape, -1, dtype=np.int64)
        games, seats = np.nonzero(acting)
        if len(games):
            ks = (self.rng.random(len(games)) * counts[games, seats]).astype(np.int64)
            acts[games, seats] = table.out_of_turn_actions(games, seats, ks)
        return acts


@functools.lru_cache(maxsize=64)
def _tail_table(dice: int, faces: int) -> NDArray[np.float64]:
    """``[wild, unseen, k]``: the chance that at least k of ``unseen`` dice of ``faces``
    faces count (two in ``faces`` where a wild face helps, else one), 0 past ``unseen``:
    the floats of :func:`perudo.odds.tail_chances`."""
    table = np.zeros((2, dice + 1, dice + 2))
    for wild in (0, 1):
        for unseen in range(dice + 1):
            row = tail_chances(unseen, wild=bool(wild), faces=faces)
            table[wild, unseen, : len(row)] = row
    return table


class BatchOddsBot:
    """:class:`perudo.bots.OddsBot` in batch form (its ``doubt`` and ``exact`` thresholds,
    and its independent chance table: :func:`perudo.odds.chance_table`)."""

    name = "odds"

    def __init__(self, seed: int | None = None, *, doubt: float = 0.4, exact: float = 0.3) -> None:
        self.rng = np.random.default_rng(seed)
        self.doubt = doubt
        self.exact = exact

    def _at_least(
        self,
        table: BatchGames,
        seats: NDArray[Any],
        quantity: NDArray[Any],
        face: NDArray[Any],
    ) -> NDArray[np.float64]:
        """The chance that at least ``quantity`` dice show ``face`` in each game, as seat
        ``seats`` sees it (the odds bot's chance table, row ``face``)."""
        tails = _tail_table(table.max_quantity, table.nfaces)
        own, helps, unseen = _own_count(table, seats, face)
        need = np.asarray(quantity) - own
        chance = tails[helps.astype(np.intp), unseen, np.clip(need, 0, unseen + 1)]
        return np.where(need <= 0, 1.0, chance)

    def _in_hand(
        self,
        table: BatchGames,
        seats: NDArray[Any],
        owner: NDArray[Any],
        quantity: NDArray[Any],
        face: NDArray[Any],
    ) -> NDArray[np.float64]:
        """The chance that at least ``quantity`` of ``owner``'s dice count for ``face`` in
        each game, as ``seats`` sees it: its own hand, known, or another's, unseen (the odds
        bot's tables where a challenge shows the bidder's hand alone)."""
        rows = np.arange(table.batch)
        face = np.broadcast_to(np.asarray(face, dtype=np.int64), (table.batch,))
        wild = table.wild_faces()
        helps: NDArray[np.bool_] = (wild > 0) & (face != wild)
        hand = table.faces[rows, table.dealt, seats].astype(np.int64)
        own = np.where(owner == seats, hand[rows, face] + np.where(helps, hand[rows, wild], 0), 0)
        unseen = np.where(owner == seats, 0, table.held[rows, owner]).astype(np.int64)
        tails = _tail_table(table.max_quantity, table.nfaces)
        need = np.asarray(quantity) - own
        chance = tails[helps.astype(np.intp), unseen, np.clip(need, 0, unseen + 1)]
        return np.where(need <= 0, 1.0, chance)

    def _standing(
        self, table: BatchGames, seats: NDArray[Any], quantity: NDArray[Any], face: NDArray[Any]
    ) -> NDArray[np.float64]:
        """The chance at which ``seats`` judges the standing bid at ``quantity``: on the
        bidder's hand alone where a challenge shows only that, else on its belief."""
        if table.rules.bidder_hand:
            return self._in_hand(table, seats, np.maximum(table.bidder, 0), quantity, face)
        return self._at_least(table, seats, quantity, face)

    def _own_bids(
        self, table: BatchGames, seats: NDArray[Any], quantity: NDArray[Any], face: NDArray[Any]
    ) -> NDArray[np.float64]:
        """The chance at which ``seats`` judges a bid of its own: on its own hand alone where
        a challenge shows only the bidder's, else on its belief."""
        if table.rules.bidder_hand:
            return self._in_hand(table, seats, seats, quantity, face)
        return self._at_least(table, seats, quantity, face)

    def _holds(self, table: BatchGames, seats: NDArray[Any]) -> NDArray[np.float64]:
        """The chance the last link of each game's chain holds, as ``seats`` sees it: the
        standing bid at least its quantity, an exact claim exactly it, a pass the passer's
        hand as it claims."""
        rows = np.arange(table.batch)
        q, f = table.bid_q.astype(np.int64), np.maximum(table.bid_f, 1).astype(np.int64)
        chance = self._standing(table, seats, q, f)
        last = table.bid_claim[rows, np.maximum(table.nbids - 1, 0)]
        if table.rules.exact_claim:  # a claim stands: the chance it is exactly right
            chance = np.where(last == 1, self._exact(table, seats), chance)
        if table.layout.passing >= 0:  # a pass stands: the chance the passer's is as claimed
            passer = table.held[rows, np.maximum(table.bidder, 0)]
            chance = np.where(last == 2, _pass_chances(table.variant)[passer], chance)
        return chance

    def _exact(self, table: BatchGames, seats: NDArray[Any]) -> NDArray[np.float64]:
        q = table.bid_q.astype(np.int64)
        f = np.maximum(table.bid_f, 1).astype(np.int64)
        return self._standing(table, seats, q, f) - self._standing(table, seats, q + 1, f)

    def act(self, table: BatchGames) -> NDArray[np.int64]:
        """The odds bot's choice in each game."""
        if table.rules.hands:
            return self._act_on_hands(table)
        batch, rng = table.batch, self.rng
        rows = np.arange(batch)
        seats = np.maximum(table.to_act, 0).astype(np.int64)
        standing = table.bid_q > 0
        acts = np.zeros(batch, dtype=np.int64)
        decided = table.over.copy()
        # Optional declarations half the time; a required one always.
        offered: NDArray[np.bool_] = np.asarray(table.offers.any(axis=1))
        declare = offered & (table.must_declare | (rng.random(batch) < 0.5)) & ~decided
        if declare.any():
            weights = table.offers * rng.random(table.offers.shape)
            acts[declare] = table.layout.first_declaration + np.argmax(weights[declare], axis=1)
            decided |= declare
        if table.layout.exact_call >= 0:
            may = table.may_call()[rows, seats]
            calza = ~decided & standing & may & (self._exact(table, seats) > self.exact)
            acts[calza] = table.layout.exact_call
            decided |= calza
        chance = self._holds(table, seats)
        press = table.may_press()
        doubt = ~decided & standing & (chance < self.doubt)
        pressed = doubt & (chance < 0.1) & press
        acts[doubt] = np.where(pressed[doubt], table.layout.pressed_dudo, 0)
        decided |= doubt
        # The cheapest bid of each face, and the likeliest of them (ties broken at random).
        lows = table.lowest_quantities()
        legal = (lows <= table.in_play[None, :]) & ~table.must_declare[None, :]
        chances = np.stack(
            [
                self._own_bids(table, seats, lows[face - 1], np.full(batch, face))
                for face in range(1, table.nfaces + 1)
            ]
        )
        chances = np.where(legal, chances, -1.0)
        best = chances.max(axis=0)
        ties = (chances == best[None, :]) & legal
        face = np.argmax(ties * rng.random((table.nfaces, batch)), axis=0)
        none = ~legal.any(axis=0) & ~decided
        acts[none & standing] = 0
        opening = np.flatnonzero(none & ~standing & offered)  # no bid at all: a declaration
        if len(opening):
            first = table.layout.first_declaration
            acts[opening] = first + np.argmax(table.offers[opening], axis=1)
        decided |= none
        if table.layout.passing >= 0:  # a true pass rather than a raise as likely false
            own = table.faces[rows, table.dealt, seats, 1:]
            no_pair = (own <= 1).all(axis=1)  # the pass's claim of the seat's own hand
            passing = ~decided & (best < 0.5) & table.may_pass() & no_pair
            acts[passing] = table.layout.passing
            decided |= passing
        give_up = ~decided & standing & (best < self.doubt)
        acts[give_up] = 0
        decided |= give_up
        bid = ~decided
        quantity = lows[face, rows]
        pressure = (best > 0.9) & press & (rng.random(batch) < 0.5)
        per_bid = table.layout.per_bid
        number = ((quantity - 1) * table.nfaces + face) * per_bid + (pressure & (per_bid == 2))
        acts[bid] = table.layout.first_bid + number[bid]
        return acts

    def _act_on_hands(self, table: BatchGames) -> NDArray[np.int64]:
        """Where bids name hands (Mia), as the single form decides: a challenge of a
        standing hand less likely than ``doubt`` (giving up instead, where it may and the
        hand looks likelier than not); else the roll before a bid; else the hand its own
        dice make, when it raises, or the lowest hand that does."""
        rows = np.arange(table.batch)
        seats = np.maximum(table.to_act, 0)
        mask = table.legal_mask()
        q = table.bid_q.astype(np.int64)
        held = table.held[rows, np.maximum(table.bidder, 0)]  # the bidder's dice, unseen
        chance = _hand_chances(table.variant)[held, q]
        layout = table.layout
        acts = np.zeros(table.batch, dtype=np.int64)
        doubting = mask[:, 0]
        give_up = doubting & (chance > 0.5)
        give_up &= mask[:, layout.exact_call] if layout.exact_call >= 0 else False
        doubted = doubting & ~give_up & (chance < self.doubt)
        acts[give_up] = layout.exact_call
        decided = give_up | doubted  # a doubt: 0, as set
        made = _held_ranks(table.faces[rows, table.dealt, seats], hand_ladder(table.variant))
        bidding = mask[:, layout.first_bid :].any(axis=1)
        rank = np.where(made > q, made, q + 1)
        acts[~decided & bidding] = (layout.first_bid + rank - 1)[~decided & bidding]
        if table.rules.roll:  # no bid yet: the roll first
            acts[~decided & ~bidding & mask[:, layout.first_act]] = layout.first_act
        return acts

    def interrupt(self, table: BatchGames) -> NDArray[np.int64]:
        """The exact call out of turn where the bid looks exactly right to the seat; a
        challenge out of turn (a burst) where the bid looks half as likely as its doubt;
        after its own bid, Bluff's re-roll: the dice under its cup that count for its bid go
        out in the open and the others are re-rolled, when it holds some of each."""
        may = _out_of_turn_calls(table)
        acts = np.full(may.shape, -1, dtype=np.int64)
        for seat in np.flatnonzero(may.any(axis=0)):
            seats = np.full(table.batch, seat)
            calls = may[:, seat] & (self._exact(table, seats) > self.exact)
            acts[calls, seat] = table.layout.exact_call
        if table.rules.burst_challenge:
            for burster in range(table.players):
                free = (acts[:, burster] < 0) & (table.to_act != burster)
                open_ = table.legal_mask(by=burster)[:, 0].astype(np.bool_) & free
                if open_.any():
                    judged = self._holds(table, np.full(table.batch, burster))
                    acts[open_ & (judged < self.doubt / 2), burster] = 0
        if table.rules.reroll:  # the bidder's re-roll, where it calls nothing
            keep = np.empty(table.batch, dtype=np.int64)
            policies.rerolls_keeping_the_bid(table._games, keep)
            rows = np.flatnonzero(keep >= 0)
            bidder = table.bidder[rows].astype(np.int64)
            free = acts[rows, bidder] < 0
            acts[rows[free], bidder[free]] = keep[rows[free]]
        return acts


@compiled
def _reading_chances(
    held: NDArray[np.int8], seats: NDArray[np.int64], face: NDArray[np.int64],
    quantity: NDArray[np.int64], own: NDArray[np.int64], helps: NDArray[np.bool_],
    last: NDArray[np.int64], in_play: NDArray[np.int16], faces: int, trust: float,
    out: NDArray[np.float64],
) -> None:  # fmt: skip
    """``out[i]``: :func:`perudo.bots.bid_reading_table`'s chance that at least
    ``quantity[i]`` dice show ``face[i]`` in game ``i``, as ``seats[i]`` (who holds
    ``own[i]`` of them) sees it; the same operations in the same order, so the very floats
    (libm's ``pow`` and ``erfc``, as Python's ``math`` uses them)."""
    for i in rows(len(out)):
        p = (2 if helps[i] else 1) / faces
        mean, variance = 0.0, 0.0
        for seat in range(held.shape[1]):
            k = 0 if seat == seats[i] else int(held[i, seat])
            if k <= 0:
                continue
            m, v = k * p, k * p * (1 - p)
            if last[i, seat] == face[i]:  # the seat bid this face last: read its bid
                none = math.pow(1 - p, float(k))
                mc = m / (1 - none)
                vc = (v + m * m) / (1 - none) - mc * mc
                second = trust * (vc + mc * mc) + (1 - trust) * (v + m * m)
                m_read = trust * mc + (1 - trust) * m
                v = second - m_read * m_read
                m = m_read
            mean += m
            variance += v
        sd = math.sqrt(max(variance, 1e-12))
        z = (quantity[i] - own[i] - 0.5 - mean) / (sd * math.sqrt(2))
        chance = 1.0 if quantity[i] <= own[i] else 0.5 * math.erfc(z)
        out[i] = chance if quantity[i] < in_play[i] + 2 else 0.0


class BatchReaderBot(BatchOddsBot):
    """The ``reader`` bot (:func:`perudo.bots.reader_bot`) in batch form: the odds bot whose
    belief reads the other players' last bids (:func:`perudo.bots.bid_reading_table`,
    computed the same way, float for float)."""

    name = "reader"

    def __init__(self, seed: int | None = None, *, trust: float = 0.6) -> None:
        super().__init__(seed)
        self.trust = trust

    def _at_least(
        self,
        table: BatchGames,
        seats: NDArray[Any],
        quantity: NDArray[Any],
        face: NDArray[Any],
    ) -> NDArray[np.float64]:
        """Row ``face`` of :func:`perudo.bots.bid_reading_table` at ``quantity``, as seat
        ``seats`` sees each game."""
        batch = table.batch
        face = np.broadcast_to(np.asarray(face, dtype=np.int64), (batch,))
        quantity = np.broadcast_to(np.asarray(quantity, dtype=np.int64), (batch,))
        if table.variant.actions.out_of_turn:  # a bidder re-rolls after: bids not read
            return super()._at_least(table, seats, quantity, face)
        own, helps, _ = _own_count(table, seats, face)
        chances = np.empty(batch)
        _reading_chances(
            table.held, np.asarray(seats, dtype=np.int64), face, quantity,
            own.astype(np.int64), helps.astype(np.bool_), table.last_bid_faces(),
            table.in_play, table.nfaces, self.trust, chances,
        )  # fmt: skip
        return chances


def unjudged(variant: Variant) -> str | None:
    """Why the batch odds and reader bots cannot play ``variant`` as their single forms
    do, or ``None``: where bids name hands, they judge a hand on the bidder's dice alone
    (a challenge that shows only those), not on every hand shown."""
    if variant.hand_bids and not isinstance(variant.challenge, BidderHandChallenge):
        return (
            f"the batch odds and reader bots judge hands on the bidder's dice alone, and a "
            f"challenge of {variant.key!r} shows every hand"
        )
    return None


def batch_bot(spec: Any, seed: int | None = None) -> BatchBot | None:
    """The batch form of a bot spec (:data:`perudo.bots.BotSpec`), or ``None`` when it has
    none: the names ``"random"``, ``"odds"`` and ``"reader"``, and the classes
    :class:`~perudo.bots.RandomBot` and :class:`~perudo.bots.OddsBot` (default settings)
    and the function :func:`~perudo.bots.reader_bot`."""
    if spec in ("random", RandomBot):
        return BatchRandomBot(seed)
    if spec in ("odds", OddsBot):
        return BatchOddsBot(seed)
    if spec in ("reader", reader_bot):
        return BatchReaderBot(seed)
    return None
