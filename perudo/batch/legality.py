"""What the player to act may do in one game of a batch: the compiled form of
``perudo.rules.bidding`` and of the calls' conditions, for the built-in kinds.

Each function reads row ``i`` of the :class:`~perudo.batch.arrays.GameArrays` ``s`` under
the rules ``r`` (:class:`~perudo.batch.rules.BatchRules`) and the table ``t``
(:class:`~perudo.batch.arrays.Layout`). :func:`fill_mask` lists the legal actions,
:func:`is_legal` judges one (:func:`perudo.batch.policies.random_action` draws one): each
counts bids from :func:`lowest`, the one statement of the raise rules here.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from perudo.batch.arrays import Layout
from perudo.batch.compiled import compiled, inlined, rows
from perudo.batch.handle import Games
from perudo.batch.rules import BatchRules, OnesOpening, RaiseOrder

__all__ = [
    "NO_BID",
    "bid_number",
    "bid_of",
    "bids_wait",
    "can_press",
    "count_acts",
    "count_bids",
    "cup_parts",
    "cup_size",
    "exact_callers",
    "fill_acts",
    "fill_bids",
    "fill_mask",
    "fill_out_of_turn",
    "first_illegal",
    "has_doubted",
    "is_legal",
    "lowest",
    "lowest_quantities",
    "masks",
    "may_burst",
    "may_call",
    "may_challenge",
    "may_pass",
    "may_put_out",
    "may_reroll",
    "may_roll",
    "may_time_out",
    "nth_act",
    "nth_bid",
    "out_of_turn_actions",
    "out_of_turn_count",
    "out_of_turn_counts",
    "passers",
    "pressure_open",
    "seat_masks",
    "standing",
    "under_cup",
    "wild_face",
    "wild_faces",
]

#: The lowest quantity given for a face that no bid may name (past every quantity).
NO_BID = 1 << 20


@inlined
def wild_face(s: Games, r: BatchRules, i: int) -> int:
    """The wild face of game ``i``'s round so far (0: none): none in a special round, none
    in a round that opened on it where the edition says so, none once a bid of the round
    named it where it is wild only until then (``until-bid-on``)."""
    if s.special[i] or (r.wild_unless_opened_on and s.open_f[i] == r.wild):
        return 0
    if r.wild_until_bid_on:
        t = s.layout
        for k in range(s.nbids[i]):
            if bid_of(t, t.first_bid + s.bid_made[i, k])[1] == r.wild:
                return 0
    return r.wild


@inlined
def standing(s: Games, r: BatchRules, i: int, seat: int) -> tuple[int, int, bool, bool, int]:
    """What :func:`lowest` reads of game ``i`` for ``seat``, read once: the standing bid's
    quantity (0: none) and face, whether the round is special, whether its face is locked
    for ``seat``, and the fewest dice an opening bid names (the opening kind's: one, at
    least some number but never past the dice in play, or one for each player in)."""
    special = bool(s.special[i])
    least = r.opening_least
    if least < 0:  # one die for each player still in
        least = int(s.players_in[i])
    elif least > 1:
        least = min(least, int(s.in_play[i]))
    locked = special and not s.changers[i, seat]
    return int(s.bid_q[i]), int(s.bid_f[i]), special, locked, least


@inlined
def lowest(
    r: BatchRules, ranks: NDArray[np.int8], q: int, f: int, special: bool, locked: bool,
    least: int, face: int,
) -> int:  # fmt: skip
    """The lowest quantity of ``face`` that may be bid on the bid ``q`` x ``f`` (``q`` 0:
    none yet, opened with at least ``least`` dice; :data:`NO_BID`: none), in a
    ``special`` round whose face may be ``locked`` (:func:`standing` reads them), the faces
    ranked by ``ranks`` (``face_rank``): the batch form of
    ``perudo.rules.bidding.lowest_quantities``."""
    if q == 0:  # the opening bid
        mode = r.special_opening if special else r.opening
        if face == 1:
            return NO_BID if mode == OnesOpening.FORBIDDEN else least
        return NO_BID if mode == OnesOpening.REQUIRED else least
    if r.raising == RaiseOrder.FACE_OR_QUANTITY:  # a higher face from 1, the same face +1
        low = 1 if face > f else q + 1
    elif r.raising == RaiseOrder.RANKED_FACES:  # as below, by rank (the table read here only)
        low = q + 1 if ranks[face] <= ranks[f] else q
        if ranks[face] < 0:  # a face the order leaves out (the conversion may still name it)
            low = NO_BID
    else:  # a higher face keeps the quantity, the same face needs one more
        low = q + 1 if face <= f else q
    never_down = r.raising == RaiseOrder.MONOTONE or r.raising == RaiseOrder.FACE_OR_QUANTITY
    if never_down and face < f:  # the face never goes down
        low = NO_BID
    c = r.convert_face
    if c and not special:  # onto the face: half, rounded up; off it: twice, plus one
        if face == c and f != c:
            low = (q + 1) // 2
        elif face != c and f == c:
            low = 2 * q + 1
    if locked and face != f:
        low = NO_BID
    return low


@inlined
def can_press(s: Games, r: BatchRules, i: int, seat: int) -> bool:
    """``seat`` has pressure left to use in game ``i``."""
    return r.pressure_uses > 0 and s.pressure_left[i, seat] > 0


@inlined
def may_call(s: Games, r: BatchRules, i: int, seat: int) -> bool:
    """``seat`` may make the exact call in game ``i`` now (in turn, or out of turn where
    the edition allows it): a bid stands, not a claim, pass or doubt of it."""
    if not r.exact or s.over[i] or s.bid_q[i] == 0 or s.held[i, seat] == 0 or s.must_bid[i]:
        return False
    if s.bid_claim[i, s.nbids[i] - 1] != 0:
        return False
    if r.give_up:  # the player to act, on the top hand
        return bool(seat == s.to_act[i] and s.bid_q[i] == r.hands)
    if s.players_in[i] < r.exact_min_players:
        return False
    if r.exact_claim:  # Bull: by the player to act, or any player still in
        return r.exact_out_of_turn or seat == s.to_act[i]
    if not r.exact_out_of_turn:
        if seat != s.to_act[i]:
            return False
    else:
        bidder = s.bidder[i]
        if seat == bidder or seat == s.right[i, bidder]:
            return False
    return not (r.exact_below_full and s.held[i, seat] >= s.start_dice[i, seat])


@inlined
def may_pass(s: Games, r: BatchRules, i: int, seat: int) -> bool:
    """``seat``, the player to act, may pass in game ``i`` now: a bid stands (or a pass of
    it), and ``seat`` has passed fewer times this round than the edition allows."""
    if r.passes == 0 or s.over[i] or s.bid_q[i] == 0 or s.must_declare[i] or s.must_bid[i]:
        return False
    claim = s.bid_claim[i, s.nbids[i] - 1]
    if claim == 1 or claim == 3:  # claimed exact, or challenged: raise it or challenge it
        return False
    passed = 0
    for k in range(s.nbids[i]):
        passed += s.bid_by[i, k] == seat and s.bid_claim[i, k] == 2
    return passed < r.passes


@inlined
def may_time_out(s: Games, t: Layout, i: int, seat: int) -> bool:
    """``seat``, the player to act, may let its time run out in game ``i`` now, where that
    costs it one (the clock ``forfeit``): once a bid stands, as a call."""
    if t.out_of_time < 0 or s.over[i] or s.bid_q[i] == 0 or seat != s.to_act[i]:
        return False
    return not (s.must_declare[i] or s.must_bid[i])


@inlined
def cup_size(s: Games, t: Layout, i: int, seat: int) -> int:
    """The dice ``seat`` holds under its cup in game ``i`` (its hand less those out in the
    open)."""
    size = int(s.held[i, seat])
    for face in range(1, t.faces + 1):
        size -= s.open_faces[i, seat, face]
    return size


@inlined
def under_cup(s: Games, i: int, seat: int, face: int) -> int:
    """The dice showing ``face`` under ``seat``'s cup in game ``i`` (its hand's, less those
    out in the open)."""
    return int(s.faces[i, s.dealt[i], seat, face]) - int(s.open_faces[i, seat, face])


@inlined
def cup_parts(s: Games, t: Layout, i: int, seat: int) -> int:
    """How many ways there are to take some of ``seat``'s cup in game ``i`` (none and all
    of it among them): the product over faces of the dice under it, plus one."""
    parts = 1
    for face in range(1, t.faces + 1):
        parts *= under_cup(s, i, seat, face) + 1
    return parts


@inlined
def may_reroll(s: Games, r: BatchRules, t: Layout, i: int, seat: int) -> bool:
    """``seat`` may re-roll in game ``i`` now, holding at least two dice under its cup (one
    out, one re-rolled): in Bluff it made the last link of the chain and has not re-rolled
    since; where the re-roll comes before a bid, it is the player to act, has not re-rolled
    this turn, and has a bid left to make."""
    if r.reroll_in_turn:
        if seat != s.to_act[i] or s.over[i] or s.must_bid[i] or s.must_declare[i]:
            return False
        return cup_size(s, t, i, seat) >= 2 and count_bids(s, r, t, i, seat) > 0
    return (
        r.reroll
        and not s.over[i]
        and s.nbids[i] > 0
        and s.bid_by[i, s.nbids[i] - 1] == seat  # the last link's (a bid, a pass, a doubt)
        and s.acts_after[i, s.nbids[i]] == 0
        and cup_size(s, t, i, seat) >= 2
    )


@inlined
def bids_wait(s: Games, r: BatchRules, i: int) -> bool:
    """The player to act in game ``i`` rolls before it bids (Mia): a bid stands, and it has
    not rolled yet."""
    return r.roll and s.bid_q[i] > 0 and not s.must_bid[i]


@inlined
def may_roll(s: Games, r: BatchRules, t: Layout, i: int, seat: int) -> bool:
    """``seat`` may roll its dice afresh in game ``i`` now, to bid after (Mia): the player
    to act, once a bid stands, before its roll, while a bid is left."""
    if not bids_wait(s, r, i) or seat != s.to_act[i] or s.over[i] or s.must_declare[i]:
        return False
    return count_bids(s, r, t, i, seat) > 0


@inlined
def may_put_out(s: Games, t: Layout, i: int, seat: int, k: int, cup: int) -> bool:
    """The dice of own action ``k`` (a row of ``act_faces``) are under ``seat``'s cup in
    game ``i``, and leave at least one of its ``cup`` dice there."""
    dice = s.act_faces
    if dice[k, 0] >= cup:
        return False
    for face in range(1, t.faces + 1):  # noqa: SIM110 (numba compiles no generator)
        if dice[k, face] > under_cup(s, i, seat, face):
            return False
    return True


@inlined
def fill_acts(s: Games, r: BatchRules, t: Layout, i: int, seat: int, row: NDArray[Any]) -> None:
    """Set ``row`` to 1 at the own actions ``seat`` may take in game ``i`` now."""
    if r.roll:
        row[t.first_act] = may_roll(s, r, t, i, seat)
        return
    if not may_reroll(s, r, t, i, seat):
        return
    cup = cup_size(s, t, i, seat)
    index = s.act_index
    if r.reroll_in_turn or (index[0] < 0 and len(index) == 1):  # look through every action
        for k in range(t.first_bid - t.first_act):
            if may_put_out(s, t, i, seat, k, cup):
                row[t.first_act + k] = 1
        return
    # Every part of the cup (a count of each face, as mixed-radix digits), found by index.
    radix = t.per_player
    for part in range(1, cup_parts(s, t, i, seat)):
        rest, key, size, weight = part, 0, 0, 1
        for face in range(1, t.faces + 1):
            base = under_cup(s, i, seat, face) + 1
            digit = rest % base
            rest //= base
            key += digit * weight
            size += digit
            weight *= radix
        if size < cup:
            row[t.first_act + index[key]] = 1


@inlined
def has_doubted(s: Games, i: int, seat: int) -> bool:
    """``seat`` has challenged game ``i``'s standing bid already, which stands until every
    other seat still in has (a challenge all around): the doubts since its last bid."""
    for k in range(s.nbids[i] - 1, -1, -1):
        if s.bid_claim[i, k] != 3:
            return False
        if s.bid_by[i, k] == seat:
            return True
    return False


@inlined
def nth_act(s: Games, r: BatchRules, t: Layout, i: int, seat: int, k: int) -> int:
    """The number of the ``k``-th own action (from 0, in number order) ``seat`` may take
    in game ``i`` now (a re-roll: :func:`may_reroll`), -1 past the last."""
    if not may_reroll(s, r, t, i, seat):
        return -1
    cup = cup_size(s, t, i, seat)
    for a in range(t.first_bid - t.first_act):
        if may_put_out(s, t, i, seat, a, cup):
            if k == 0:
                return t.first_act + a
            k -= 1
    return -1


@inlined
def count_acts(s: Games, r: BatchRules, t: Layout, i: int, seat: int) -> int:
    """How many own actions ``seat`` may take in game ``i`` now (what :func:`fill_acts`
    flags): Mia's roll, or each choice of dice to put out and re-roll."""
    if r.roll:
        return 1 if may_roll(s, r, t, i, seat) else 0
    if not may_reroll(s, r, t, i, seat):
        return 0
    if not r.reroll_in_turn:  # every part of the cup but none and all of it
        return cup_parts(s, t, i, seat) - 2
    count, cup = 0, cup_size(s, t, i, seat)
    for face in range(1, t.faces + 1):  # one value, all but one die of the cup at most
        count += min(under_cup(s, i, seat, face), cup - 1)
    return count


@inlined
def may_challenge(s: Games, r: BatchRules, i: int, seat: int) -> bool:
    """``seat`` may call Dudo in game ``i`` (as the player to act, or in a burst): a bid
    stands that it has not challenged yet."""
    if s.bid_q[i] == 0 or s.must_declare[i] or s.must_bid[i] or s.over[i]:
        return False
    return not (r.all_around and has_doubted(s, i, seat))


@inlined
def bid_number(t: Layout, quantity: int, face: int, pressure: bool) -> int:
    """The action number of the bid ``quantity`` x ``face`` (with ``pressure``)."""
    return t.first_bid + ((quantity - 1) * t.faces + face - 1) * t.per_bid + int(pressure)


@inlined
def bid_of(t: Layout, act: int) -> tuple[int, int, bool]:
    """The quantity, face and pressure of the bid numbered ``act`` (:func:`bid_number`
    undone)."""
    number = act - t.first_bid
    if t.per_bid == 1:  # (not number // t.per_bid: a division by a number known only here)
        return number // t.faces + 1, number % t.faces + 1, False
    plain = number // 2
    return plain // t.faces + 1, plain % t.faces + 1, number % 2 == 1


@inlined
def fill_bids(s: Games, r: BatchRules, t: Layout, i: int, seat: int, row: NDArray[Any]) -> None:
    """Set ``row`` to 1 at the bids ``seat`` may make in game ``i`` now, up to the dice in
    play (with pressure too, where it has some left)."""
    if r.hands:  # every hand ranked above the standing one
        for rank in range(s.bid_q[i] + 1, r.hands + 1):
            row[t.first_bid + rank - 1] = 1
        return
    top = s.in_play[i]
    press = t.per_bid == 2 and can_press(s, r, i, seat)
    q, f, special, locked, least = standing(s, r, i, seat)
    for face in range(1, t.faces + 1):
        for quantity in range(lowest(r, s.face_rank, q, f, special, locked, least, face), top + 1):
            number = bid_number(t, quantity, face, False)
            row[number] = 1
            if press:
                row[number + 1] = 1


@inlined
def count_bids(s: Games, r: BatchRules, t: Layout, i: int, seat: int) -> int:
    """How many bids :func:`fill_bids` flags for ``seat`` in game ``i``."""
    if r.hands:
        return r.hands - int(s.bid_q[i])
    top = s.in_play[i]
    per_bid = 2 if t.per_bid == 2 and can_press(s, r, i, seat) else 1
    q, f, special, locked, least = standing(s, r, i, seat)
    bids = 0
    for face in range(1, t.faces + 1):
        low = lowest(r, s.face_rank, q, f, special, locked, least, face)
        bids += max(0, top + 1 - low) * per_bid
    return bids


@inlined
def nth_bid(s: Games, r: BatchRules, t: Layout, i: int, seat: int, pick: int) -> int:
    """The number of the ``pick``-th bid (from 0) of the :func:`count_bids` of ``seat`` in
    game ``i``: face by face, each face's quantities upwards (-1 past the last); hands
    by rank."""
    if r.hands:
        rank = int(s.bid_q[i]) + 1 + pick
        return t.first_bid + rank - 1 if rank <= r.hands else -1
    top = s.in_play[i]
    per_bid = 2 if t.per_bid == 2 and can_press(s, r, i, seat) else 1
    q, f, special, locked, least = standing(s, r, i, seat)
    for face in range(1, t.faces + 1):
        low = lowest(r, s.face_rank, q, f, special, locked, least, face)
        span = max(0, top + 1 - low) * per_bid
        if pick < span:
            if per_bid == 1:
                return bid_number(t, low + pick, face, False)
            return bid_number(t, low + pick // 2, face, pick % 2 == 1)
        pick -= span
    return -1


@inlined
def may_burst(s: Games, i: int, seat: int) -> bool:
    """``seat``, not the player to act, may bid or challenge out of turn in game ``i`` now,
    where the turns kind opens either (a burst): a bid stands, not its own, and no
    declaration is owed."""
    bidder = s.bidder[i]
    return s.bid_q[i] > 0 and bidder != seat and not s.must_declare[i] and s.held[i, seat] > 0


@inlined
def fill_mask(s: Games, r: BatchRules, t: Layout, i: int, row: NDArray[Any]) -> None:
    """Set ``row`` (one entry per action) to 1 at game ``i``'s legal actions for its player
    to act: bids up to the dice in play, as :meth:`perudo.GameState.legal_actions` lists
    them. Nothing in a game that is over."""
    if s.over[i]:
        return
    seat = s.to_act[i]
    for d in range(t.declarations):
        if s.offers[i, d] and not s.must_bid[i]:  # a bid owed comes first
            row[t.first_declaration + d] = 1
    if s.must_declare[i]:
        return
    if not bids_wait(s, r, i):
        fill_bids(s, r, t, i, seat, row)
    if s.must_bid[i]:  # it rolled: a bid, nothing else
        return
    dudo = may_challenge(s, r, i, seat)
    row[0] = dudo
    if t.pressed_dudo >= 0:
        row[t.pressed_dudo] = dudo and can_press(s, r, i, seat)
    if t.exact_call >= 0:
        row[t.exact_call] = may_call(s, r, i, seat)
    if t.passing >= 0:
        row[t.passing] = may_pass(s, r, i, seat)
    if t.out_of_time >= 0:
        row[t.out_of_time] = may_time_out(s, t, i, seat)
    fill_acts(s, r, t, i, seat, row)


@inlined
def fill_out_of_turn(
    s: Games, r: BatchRules, t: Layout, i: int, seat: int, row: NDArray[Any]
) -> None:
    """Set ``row`` to 1 at what ``seat``, not the player to act, may do in game ``i`` now:
    the exact call out of turn (Jonti), a re-roll right after its bid (Bluff)."""
    if s.over[i] or s.held[i, seat] == 0 or s.must_bid[i]:  # a bid owed: nothing, by anyone
        return
    if (r.burst_bid or r.burst_challenge) and may_burst(s, i, seat):
        if r.burst_bid:
            fill_bids(s, r, t, i, seat, row)
        if r.burst_challenge and may_challenge(s, r, i, seat):
            row[0] = 1
            if t.pressed_dudo >= 0:
                row[t.pressed_dudo] = can_press(s, r, i, seat)
    if t.exact_call >= 0:
        row[t.exact_call] = may_call(s, r, i, seat)
    fill_acts(s, r, t, i, seat, row)


@inlined
def is_legal(s: Games, r: BatchRules, t: Layout, i: int, act: int, seat: int) -> bool:
    """``act`` by ``seat`` is legal in game ``i`` (a seat other than the player to act
    may only make the exact call, where the edition lets it call out of turn, or take an
    own action, such as Bluff's re-roll after its bid)."""
    if act == t.exact_call:
        return may_call(s, r, i, seat)
    if t.first_act <= act < t.first_bid and r.roll:
        return may_roll(s, r, t, i, seat)
    if t.first_act <= act < t.first_bid:
        return may_reroll(s, r, t, i, seat) and may_put_out(
            s, t, i, seat, act - t.first_act, cup_size(s, t, i, seat)
        )
    if act == t.out_of_time:
        return may_time_out(s, t, i, seat)
    if seat != s.to_act[i]:  # a burst: a bid or a challenge out of turn, where open
        if act == t.passing or s.must_bid[i] or not may_burst(s, i, seat):
            return False
        if act < t.first_declaration:
            if not r.burst_challenge:
                return False
        elif act < t.first_bid or not r.burst_bid:
            return False
    if act == t.passing:
        return may_pass(s, r, i, seat)
    if act < t.first_declaration:  # Dudo, with or without pressure
        pressure = act == t.pressed_dudo
        return may_challenge(s, r, i, seat) and (not pressure or can_press(s, r, i, seat))
    if act < t.first_bid:
        return bool(s.offers[i, act - t.first_declaration]) and not s.must_bid[i]
    if s.must_declare[i] or (seat == s.to_act[i] and bids_wait(s, r, i)):
        return False
    if r.hands:  # a hand ranked above the standing one
        return bool(act - t.first_bid + 1 > s.bid_q[i])
    quantity, face, pressure = bid_of(t, act)
    q, f, special, locked, least = standing(s, r, i, seat)
    low = lowest(r, s.face_rank, q, f, special, locked, least, face)
    if quantity < low or (r.cap and quantity > s.in_play[i]):
        return False
    return not pressure or can_press(s, r, i, seat)


@compiled
def masks(s: Games, out: NDArray[np.bool_]) -> None:
    """Row ``i`` of ``out``: game ``i``'s legal actions (:func:`fill_mask`)."""
    r, t = s.rules, s.layout
    for i in rows(len(out)):
        fill_mask(s, r, t, i, out[i])


@inlined
def out_of_turn_count(s: Games, r: BatchRules, t: Layout, i: int, seat: int) -> int:
    """How many actions ``seat``, not the player to act, may take out of turn in game ``i``
    now (what :func:`fill_out_of_turn` flags)."""
    if s.over[i] or s.held[i, seat] == 0 or seat == s.to_act[i] or s.must_bid[i]:
        return 0
    count = 1 if t.exact_call >= 0 and may_call(s, r, i, seat) else 0
    if (r.burst_bid or r.burst_challenge) and may_burst(s, i, seat):
        if r.burst_challenge and may_challenge(s, r, i, seat):
            count += 1 + (t.pressed_dudo >= 0 and can_press(s, r, i, seat))
        if r.burst_bid:
            count += count_bids(s, r, t, i, seat)
    return count + count_acts(s, r, t, i, seat)


@compiled
def out_of_turn_counts(s: Games, out: NDArray[np.int64]) -> None:
    """``out[i, seat]``: how many actions ``seat`` may take out of turn in game ``i`` now."""
    r, t = s.rules, s.layout
    for i in rows(out.shape[0]):
        for seat in range(t.players):
            out[i, seat] = out_of_turn_count(s, r, t, i, seat)


@compiled
def out_of_turn_actions(
    s: Games, games: NDArray[np.int64], seats: NDArray[np.int64], ks: NDArray[np.int64],
    out: NDArray[np.int64],
) -> None:  # fmt: skip
    """``out[j]``: the ``ks[j]``-th action (from 0) seat ``seats[j]`` may take out of turn
    in game ``games[j]`` (-1 past the last): Dudo and Dudo with pressure (a burst), the
    exact call, the own actions in number order, then the bids (a burst: :func:`nth_bid`)."""
    r, t = s.rules, s.layout
    for j in range(len(games)):
        i, seat, k = games[j], seats[j], ks[j]
        out[j] = -1
        if out_of_turn_count(s, r, t, i, seat) <= k:
            continue
        burst = (r.burst_bid or r.burst_challenge) and may_burst(s, i, seat)
        if burst and r.burst_challenge and may_challenge(s, r, i, seat):  # then with pressure
            if k == 0:
                out[j] = 0
                continue
            k -= 1
            if t.pressed_dudo >= 0 and can_press(s, r, i, seat):
                if k == 0:
                    out[j] = t.pressed_dudo
                    continue
                k -= 1
        if t.exact_call >= 0 and may_call(s, r, i, seat):
            if k == 0:
                out[j] = t.exact_call
                continue
            k -= 1
        acts = count_acts(s, r, t, i, seat)
        if k < acts:
            out[j] = nth_act(s, r, t, i, seat, k)
        elif burst and r.burst_bid:  # then the bids
            out[j] = nth_bid(s, r, t, i, seat, k - acts)


@compiled
def seat_masks(s: Games, seats: NDArray[np.int64], out: NDArray[np.bool_]) -> None:
    """Row ``i`` of ``out``: the legal actions of seat ``seats[i]`` in game ``i``: the
    player to act's (:func:`fill_mask`), or another seat's out of turn
    (:func:`fill_out_of_turn`); none where ``seats[i]`` is -1."""
    r, t = s.rules, s.layout
    for i in rows(len(out)):
        if seats[i] < 0:  # no seat: no mask
            continue
        if seats[i] == s.to_act[i]:
            fill_mask(s, r, t, i, out[i])
        else:
            fill_out_of_turn(s, r, t, i, seats[i], out[i])


@compiled
def wild_faces(s: Games, out: NDArray[np.intp]) -> None:
    """``out[i]``: the wild face of game ``i``'s round (:func:`wild_face`)."""
    r = s.rules
    for i in rows(len(out)):
        out[i] = wild_face(s, r, i)


@compiled
def first_illegal(
    s: Games, acts: NDArray[np.int64], seats: NDArray[np.int64], idle: NDArray[np.bool_]
) -> int:
    """The first game where ``acts[i]`` is no action number (in any game), or, not
    ``idle``, is illegal by ``seats[i]`` (-1: none)."""
    r, t = s.rules, s.layout
    for i in rows(len(acts)):
        act = acts[i]
        if act < 0 or act >= t.actions or (not idle[i] and not is_legal(s, r, t, i, act, seats[i])):
            # Signed: numba would unify an unsigned row and -1 as a float.
            return np.int64(i)  # type: ignore[return-value]
    return -1


@compiled
def exact_callers(s: Games, out: NDArray[np.bool_]) -> None:
    """``out[i, seat]``: ``seat`` may make the exact call in game ``i`` now."""
    r = s.rules
    for i in rows(out.shape[0]):
        for seat in range(out.shape[1]):
            out[i, seat] = may_call(s, r, i, seat)


@compiled
def lowest_quantities(s: Games, seats: NDArray[np.int64], out: NDArray[np.int64]) -> None:
    """``out[face - 1, i]``: the lowest quantity of ``face`` that ``seats[i]`` may bid in
    game ``i`` (:data:`NO_BID`: none)."""
    r, t = s.rules, s.layout
    for i in rows(len(seats)):
        q, f, special, locked, least = standing(s, r, i, seats[i])
        for face in range(1, t.faces + 1):
            out[face - 1, i] = lowest(r, s.face_rank, q, f, special, locked, least, face)


@compiled
def passers(s: Games, seats: NDArray[np.int64], out: NDArray[np.bool_]) -> None:
    """``out[i]``: ``seats[i]`` (the player to act) may pass in game ``i`` now."""
    r = s.rules
    for i in rows(len(seats)):
        out[i] = may_pass(s, r, i, seats[i])


@compiled
def pressure_open(s: Games, seats: NDArray[np.int64], out: NDArray[np.bool_]) -> None:
    """``out[i]``: ``seats[i]`` has pressure left to use in game ``i``."""
    r = s.rules
    for i in rows(len(seats)):
        out[i] = can_press(s, r, i, seats[i])
