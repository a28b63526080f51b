"""How one game of a batch moves: a new game, a bid, a declaration, a call and its
resolution, the next round. The compiled form of :class:`perudo.GameState`'s moves for
the built-in kinds (``perudo.resolution`` for the calls, the ``special_round`` and
``starter`` kinds for the next round).

Each function changes row ``i`` of the :class:`~perudo.batch.arrays.GameArrays` ``s``
under the rules ``r`` and the table ``t``; :func:`play` applies one legal action.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from perudo.batch.arrays import Layout
from perudo.batch.compiled import below, compiled, die, inlined, row, rows
from perudo.batch.handle import Games
from perudo.batch.legality import bid_number, bid_of, has_doubted, wild_face
from perudo.batch.rules import BatchRules, FaceChange, Starter, TwoPlayers

__all__ = ["new_game", "new_games", "play", "returns", "step_games"]


@inlined
def deal(s: Games, r: BatchRules, t: Layout, i: int) -> None:
    """New hands in game ``i``: as many dice as each seat holds, counted by face, dealt
    into the other set of ``faces`` (this round's become the last call's)."""
    hands, held, opened = s.faces, s.held, s.open_faces
    h = 1 - s.dealt[i]
    s.dealt[i] = h
    for seat in range(t.players):
        for face in range(t.faces + 1):
            hands[i, h, seat, face] = 0
        if r.reroll:  # a new round: every die back under its cup
            for face in range(t.faces + 1):
                opened[i, seat, face] = 0
        for _ in range(held[i, seat]):
            hands[i, h, seat, 1 + die(s.bits, t.faces)] += 1


@inlined
def link(s: Games, t: Layout, i: int) -> None:
    """For each seat of game ``i``, the next seat still in clockwise (``left``) and the one
    it follows (``right``), from the hands held now (itself when nobody else is in)."""
    n = t.players
    held, left, right = s.held, s.left, s.right
    # Twice round the table: the nearest seat in after each place is its left, the nearest
    # before it its right (itself at a distance of n; nobody: itself).
    after = before = -1
    for k in range(2 * n - 1, -1, -1):
        seat = k - n if k >= n else k
        if k < n:
            left[i, seat] = seat if after < 0 else after
        if held[i, seat] > 0:
            after = seat
    for k in range(2 * n):
        seat = k - n if k >= n else k
        if k >= n:
            right[i, seat] = seat if before < 0 else before
        if held[i, seat] > 0:
            before = seat


@inlined
def keep_shown(s: Games, t: Layout, i: int) -> None:
    """Game ``i``, over, keeps the hands its last call showed beside its hands now (no deal
    follows to put them there)."""
    hands, h = s.faces, s.dealt[i]
    for seat in range(t.players):
        for face in range(t.faces + 1):
            hands[i, 1 - h, seat, face] = hands[i, h, seat, face]


@inlined
def clear_bids(s: Games, r: BatchRules, i: int) -> None:
    """No bid in game ``i``'s round yet, nor any action after one."""
    if r.reroll or r.roll:
        for k in range(s.nbids[i] + 1):  # the entries the round used
            s.acts_after[i, k] = 0
    s.bid_q[i] = 0
    s.bid_f[i] = 0
    s.bid_p[i] = False
    s.bidder[i] = -1
    s.open_f[i] = 0
    s.must_bid[i] = False
    s.nbids[i] = 0  # the bids made are the first nbids of bid_made: none


@inlined
def new_game(s: Games, r: BatchRules, t: Layout, i: int) -> None:
    """A new game in row ``i``: each seat's starting dice (``start_dice``, kept), the
    first round dealt, its opener drawn (or the edition's fixed seat)."""
    held, start, changers, had = s.held, s.start_dice, s.changers, s.had_special
    uses, scores, winners, out_place = s.pressure_left, s.scores, s.winners, s.out_place
    returned = s.returned
    dice = players_in = 0
    for seat in range(t.players):
        held[i, seat] = start[i, seat]
        dice += start[i, seat]
        players_in += start[i, seat] > 0
        changers[i, seat] = False
        had[i, seat] = False
        uses[i, seat] = r.pressure_uses
        scores[i, seat] = r.lives  # lives, where the edition plays for them
        winners[i, seat] = False
        out_place[i, seat] = -1
        returned[i, seat] = 0.0
        s.owed[i, seat] = 0
    s.in_play[i] = dice
    s.players_in[i] = players_in
    link(s, t, i)
    deal(s, r, t, i)
    first = r.first_seat if r.first_seat >= 0 else below(s.bits, t.players)
    s.to_act[i] = first
    s.opener[i] = first
    s.round_number[i] = 1
    clear_bids(s, r, i)
    s.special[i] = False
    s.special_player[i] = -1
    for d in range(t.declarations):
        s.offers[i, d] = False
    s.must_declare[i] = False
    s.pressured[i] = False
    s.over[i] = False
    s.last[i] = False  # the last call's fields are read only where this is set


@inlined
def make_special(s: Games, r: BatchRules, i: int, opener: int) -> None:
    """Game ``i``'s round is the special round, opened by ``opener`` (its transform)."""
    s.special[i] = True
    s.special_player[i] = opener
    for seat in range(s.held.shape[1]):
        s.changers[i, seat] = r.special_face_change != FaceChange.NOBODY and s.held[i, seat] == 1
    if r.special_face_change == FaceChange.ONE_DIE_EXCEPT_OPENER:
        s.changers[i, opener] = False


@inlined
def add_link(s: Games, t: Layout, i: int, number: int, seat: int, claim: int) -> None:
    """A link of game ``i``'s bid chain: ``seat`` places the bid numbered ``number`` (from
    the first bid) with ``claim`` (a bid, or a claim, pass or doubt of the standing one);
    what was offered is declined, and nothing is owed any more."""
    k = s.nbids[i]
    s.bid_made[i, k] = number
    s.bid_by[i, k] = seat
    s.bid_claim[i, k] = claim
    s.nbids[i] += 1
    for d in range(t.declarations):
        s.offers[i, d] = False
    s.must_declare[i] = False
    s.must_bid[i] = False


@inlined
def bid(s: Games, r: BatchRules, t: Layout, i: int, act: int, seat: int) -> None:
    """The bid numbered ``act`` by ``seat`` (a hand: its rank as the quantity, no face);
    the turn passes to its left."""
    quantity, face, pressure = bid_of(t, act)
    if r.hands:
        quantity, face, pressure = act - t.first_bid + 1, 0, False
    if s.nbids[i] == 0:
        s.open_f[i] = face
    add_link(s, t, i, act - t.first_bid, seat, 0)
    s.bid_q[i] = quantity
    s.bid_f[i] = face
    s.bid_p[i] = pressure
    s.bidder[i] = seat
    if pressure:
        s.pressure_left[i, seat] -= 1
        s.pressured[i] = True
    s.to_act[i] = s.left[i, seat]


@inlined
def pass_bid(s: Games, t: Layout, i: int, seat: int) -> None:
    """``seat`` passes: the standing bid stays (restated in the chain, no pressure spent),
    ``seat`` in its bidder's place; the turn passes to its left."""
    add_link(s, t, i, s.bid_made[i, s.nbids[i] - 1], seat, 2)
    s.bidder[i] = seat
    s.to_act[i] = s.left[i, seat]


@inlined
def claim_exact(s: Games, t: Layout, i: int, seat: int) -> None:
    """``seat`` claims the standing bid is exactly right (Bull): the claim stands in the
    chain as the bid to raise or challenge, restated without pressure, ``seat`` its
    bidder; the turn passes to its left."""
    add_link(s, t, i, bid_number(t, s.bid_q[i], s.bid_f[i], False) - t.first_bid, seat, 1)
    s.bid_p[i] = False
    s.bidder[i] = seat
    s.to_act[i] = s.left[i, seat]


@inlined
def doubt(s: Games, t: Layout, i: int, seat: int) -> None:
    """``seat`` challenges the standing bid, which stands until every other seat still in
    has (a challenge all around): a doubt in the chain, no pressure spent; the turn passes
    to the next seat on its left that has not challenged it, nor made it."""
    add_link(s, t, i, s.bid_made[i, s.nbids[i] - 1], seat, 3)
    nxt = s.left[i, seat]
    while nxt == s.bidder[i] or has_doubted(s, i, nxt):
        nxt = s.left[i, nxt]
    s.to_act[i] = nxt


@inlined
def doubters(s: Games, i: int) -> int:
    """How many seats have challenged game ``i``'s standing bid (the doubts since its
    last bid)."""
    count = 0
    for k in range(s.nbids[i] - 1, -1, -1):
        if s.bid_claim[i, k] != 3:
            break
        count += 1
    return count


@inlined
def roll(s: Games, t: Layout, i: int, seat: int) -> None:
    """``seat``, the player to act, rolls all its dice afresh (Mia), drawn from the batch's
    generator, and bids next."""
    hands, h = s.faces, s.dealt[i]
    for face in range(t.faces + 1):
        hands[i, h, seat, face] = 0
    for _ in range(s.held[i, seat]):
        hands[i, h, seat, 1 + die(s.bits, t.faces)] += 1
    s.acts_after[i, s.nbids[i]] = 1 + seat  # the action numbered 0, by seat
    s.must_bid[i] = True


@inlined
def reroll(s: Games, r: BatchRules, t: Layout, i: int, k: int, seat: int) -> None:
    """``seat`` puts the dice of own action ``k`` out in the open and re-rolls the rest of
    its cup (Bluff), drawing the new dice from the batch's generator."""
    dice, hands, opened = s.act_faces, s.faces, s.open_faces
    h = s.dealt[i]
    under = 0
    for face in range(1, t.faces + 1):
        opened[i, seat, face] += dice[k, face]
        under += hands[i, h, seat, face] - opened[i, seat, face]
        hands[i, h, seat, face] = opened[i, seat, face]
    for _ in range(under):
        hands[i, h, seat, 1 + die(s.bits, t.faces)] += 1
    s.acts_after[i, s.nbids[i]] = 1 + k * t.players + seat
    s.must_bid[i] = r.reroll_in_turn  # a re-roll before a bid: the bid comes next


@inlined
def declare(s: Games, r: BatchRules, i: int, index: int, seat: int) -> None:
    """The declaration ``index`` by ``seat``."""
    if r.special_once:
        s.had_special[i, seat] = True
    for d in range(s.offers.shape[1]):
        s.offers[i, d] = False
    s.must_declare[i] = False
    if index == r.special_declaration:
        make_special(s, r, i, seat)


@inlined
def resolve(
    s: Games, r: BatchRules, t: Layout, i: int, call: int, caller: int, one_round: bool
) -> None:
    """The call by ``caller`` (``call``: 0 Dudo, 1 the exact call, 2 its time run out, as
    :data:`perudo.rules.CALLS` numbers them): the dice shown and
    counted, each seat's dice or points moved (``last_changes``), the last call recorded,
    then the next round."""
    n = t.players
    q = int(s.bid_q[i])
    face = int(s.bid_f[i])
    bidder = int(s.bidder[i])
    called = s.nbids[i] - 1 - doubters(s, i)  # the link called: past any doubts of it
    claim = int(s.bid_claim[i, called])
    passed = claim == 2  # a challenge of a pass: judged on the passer's hand alone
    exact, timed = call == 1, call == 2
    claimed = claim == 1  # a challenge of an exact claim: every hand, counted plainly
    plain = exact or claimed  # counted by the exact call's kind, not the challenge's
    forfeit = timed or (exact and r.give_up)  # nothing shown: the caller loses one
    wild = 0 if passed or forfeit else wild_face(s, r, i)  # no face counted with the wild
    # The dice are shown from the caller's left; where the edition says so, only until the
    # bid is reached (the exact call shows every hand).
    # The hands shown stay where they are: the next deal goes into the other set of faces.
    total = 0
    shown = 0  # the seats shown so far, in order: each one's place in the showing
    hands, h, revealed, hidden = s.faces, s.dealt[i], s.last_revealed, s.last_hidden
    changes = s.last_changes
    for k in range(caller + 1, caller + 1 + n):
        seat = k - n if k >= n else k
        held = s.held[i, seat]
        revealed[i, seat] = 0
        hidden[i, seat] = False
        changes[i, seat] = 0
        if held == 0:
            continue
        if forfeit:  # nothing shown, nothing counted
            hidden[i, seat] = True
            continue
        if passed:  # the passer's hand alone, counted 1 when it holds no two dice alike
            if seat != bidder:
                hidden[i, seat] = True
                continue
            count = 1
            for f in range(1, t.faces + 1):
                if hands[i, h, seat, f] > 1:
                    count = 0
            total = count
            shown = 1
            revealed[i, seat] = shown
            continue
        proven = r.reveal_from_left and total >= q  # the bid is reached: the rest stay hidden
        if not plain and (proven or (r.bidder_hand and seat != bidder)):
            hidden[i, seat] = True
            continue
        if r.hands:  # a hand: shown, then the dice shown judged together (below)
            shown += 1
            revealed[i, seat] = shown
            continue
        count = hands[i, h, seat, face]
        if wild > 0 and wild != face:
            count += hands[i, h, seat, wild]
        if r.pure_hands and not plain and count == held:  # a challenge: two more, or one
            count += 2 if hands[i, h, seat, face] == held else 1
        total += count
        shown += 1
        revealed[i, seat] = shown
    if r.hands and shown:  # the highest hand the dice shown hold together
        total = held_rank(s, r, t, i)
    # The link called holds (its challenger loses): a pass as it claims, an exact claim
    # exactly, a bid at least.
    true = total >= 1 if passed else total == q if claimed else total >= q
    # What a challenge is played for: more on the top hand where it holds (Mia's), else one.
    stake = r.top_stake if r.hands and call == 0 and true and q == r.hands else 1
    points = 0
    # The one seat whose dice change, and by how many (most calls); -1 where the call moves
    # several seats' dice, each set in last_changes; -2 where it moves points.
    moved, delta = caller, 0
    if forfeit:  # the caller loses one: a die, a life or a point
        true, delta = True, -1
        if r.lives:
            moved = -2
        elif not r.moves_dice:  # a point nobody gains
            moved = -1
            changes[i, caller] = -1
    elif claimed and true:  # a right claim: every other seat still in loses a die
        moved = -1
        for seat in range(n):
            if s.held[i, seat] > 0 and seat != bidder:
                changes[i, seat] = -1
    elif not exact:
        if r.lose_difference:  # the loser loses what the bid was wrong by; exact: all but one
            if total == q:
                moved = -1
                for seat in range(n):
                    if s.held[i, seat] > 0 and seat != bidder:
                        changes[i, seat] = -1
            else:  # by the count against the quantity (a pass's too: its count is 0 or 1)
                moved, delta = (caller, q - total) if total > q else (bidder, total - q)
        elif r.against_all:  # the bidder wins from every other seat still in, or pays each
            moved, sign = -1, 1 if true else -1
            others = 0
            for seat in range(n):
                if s.held[i, seat] > 0 and seat != bidder:
                    changes[i, seat] = -sign * r.points
                    others += 1
            changes[i, bidder] = sign * r.points * others
            points = r.points * others if true else r.points  # the most one seat gains
        elif r.burst_gain and not true and caller != s.to_act[i]:  # a right burst: +1
            moved = -1
            changes[i, bidder] = -1
            changes[i, caller] = 1
        elif r.moves_dice:  # a count at least the quantity makes the caller lose a die
            moved, delta = caller if true else bidder, -stake
        else:  # points, from the loser to the winner: no seat's dice move
            moved, points = -2, r.pressure_points if s.pressured[i] else r.points
    else:  # the exact call: right, the caller gains a die (never above full); wrong, it loses one
        delta = 1 if total == q else -1
    loser = gainer = eliminated = -1
    losers = gainers = 0
    if moved == -2 and r.lives:  # a life lost; none left: out, the dice leaving with it
        loser, losers, points = caller if true else bidder, 1, 0
        lost = stake
        changes[i, loser] = -lost
        s.scores[i, loser] -= lost
        if s.scores[i, loser] <= 0:
            eliminated = loser
            s.out_place[i, loser] = next_place(s, i, n)
    elif moved == -2:  # points, from the loser to the winner
        loser, gainer = (caller, bidder) if true else (bidder, caller)
        losers = gainers = 1
        changes[i, loser] = -points
        changes[i, gainer] = points
        s.scores[i, loser] -= points
        s.scores[i, gainer] += points
    elif moved >= 0:  # one seat's dice: a hand stays between none and its starting dice
        held = int(s.held[i, moved])
        delta = max(min(delta, int(s.start_dice[i, moved]) - held), -held) if held else 0
        changes[i, moved] = delta
        if delta < 0:
            loser, losers = moved, 1
            if held + delta < r.fewest:  # out (the dice left in the cup go with it)
                eliminated = moved
                s.out_place[i, moved] = next_place(s, i, n)
        elif delta > 0:
            gainer, gainers = moved, 1
    else:
        for seat in range(n):
            change = int(changes[i, seat])
            if change == 0:
                continue
            if r.moves_dice:  # a hand stays between none and its starting dice
                held = int(s.held[i, seat])
                change = max(min(change, int(s.start_dice[i, seat]) - held), -held) if held else 0
                changes[i, seat] = change
                if change < 0 and held + change < r.fewest:
                    eliminated = seat if eliminated == -1 else -2
                    s.out_place[i, seat] = next_place(s, i, n)  # in seat order
            else:  # points
                s.scores[i, seat] += change
            if change < 0:
                loser, losers = seat, losers + 1
            elif change > 0:
                gainer, gainers = seat, gainers + 1
    s.last[i] = True
    s.last_call[i] = call
    s.last_claim[i] = claim
    s.last_q[i] = q
    s.last_f[i] = face
    s.last_p[i] = s.bid_p[i]
    s.last_caller[i] = caller
    s.last_bidder[i] = bidder
    s.last_count[i] = total
    s.last_wild[i] = wild
    s.last_loser[i] = loser if losers == 1 else -1
    s.last_gainer[i] = gainer if gainers == 1 else -1
    s.last_points[i] = points
    s.last_eliminated[i] = max(eliminated, -1)
    # Who opens the next round, and who instead where that seat goes out (-1: the next
    # seat still in, clockwise): the starter's answer before any seat moves.
    instead = -1
    if r.starter == Starter.LOST_DICE:  # the one seat that lost dice; after several, the bidder
        opener = loser if losers == 1 else bidder
    elif r.starter == Starter.WINNER:  # the winner of a challenge; after the exact call, the caller
        opener = caller if call else (bidder if true else caller)
    elif r.starter == Starter.ROTATE:  # the seat left of the round's opener, its first bidder
        opener = (s.bid_by[i, 0] + 1) % n
    elif r.starter == Starter.AFTER_LOSER:  # the seat left of the one loser, else the caller's
        opener = ((loser if losers == 1 else caller) + 1) % n
    else:  # the loser of a challenge; after the exact call or several losers, the caller
        single = call == 0 and losers == 1
        opener = loser if single else caller
        if single and r.starter == Starter.LOSER_OR_ELIMINATOR:  # the caller or the bidder
            instead = caller if opener == bidder else bidder  # who put them out
    next_round(s, r, t, i, moved, opener, instead, one_round)


@inlined
def held_rank(s: Games, r: BatchRules, t: Layout, i: int) -> int:
    """The rank of the highest hand the dice game ``i``'s last call showed hold together
    (``last_revealed``), as the ``ladder`` ranks them; 0 for none."""
    hands, h, ladder = s.faces, s.dealt[i], s.ladder
    for rank in range(r.hands, 0, -1):
        held = True
        for face in range(1, t.faces + 1):
            need = ladder[rank, face]
            if need == 0:
                continue
            have = 0
            for seat in range(t.players):
                if s.last_revealed[i, seat] > 0:
                    have += hands[i, h, seat, face]
            if have < need:
                held = False
                break
        if held:
            return rank
    return 0


@inlined
def next_place(s: Games, i: int, n: int) -> int:
    """The place the next seat put out of game ``i`` takes: the seats out so far."""
    place = 0
    for seat in range(n):
        place += s.out_place[i, seat] >= 0
    return place


@inlined
def move_dice(
    s: Games, r: BatchRules, i: int, seat: int, change: int, dropped: int
) -> tuple[bool, int]:
    """Move ``seat``'s dice in game ``i`` by ``change`` (all of them, where it is left
    with fewer than the edition's fewest): whether it went out, and the first seat the call
    left with one die (``dropped`` so far, -1: none)."""
    before = int(s.held[i, seat])
    after = before + change
    if after < r.fewest:  # out: the dice still in its cup leave the game with it
        after = 0
    change = after - before
    s.held[i, seat] = after
    s.in_play[i] += change
    if after == 0:
        s.players_in[i] -= 1
    if dropped < 0 and after == 1 and before > 1:
        dropped = seat
    return after == 0 and before > 0, dropped


@inlined
def next_round(
    s: Games, r: BatchRules, t: Layout, i: int, moved: int, opener: int, instead: int,
    one_round: bool,
) -> None:  # fmt: skip
    """After a call moved the seats' dice by ``last_changes`` (only ``moved``'s, where it
    is a seat; points are moved already): the game ends, or the next round is dealt,
    opened by ``opener`` (by ``instead`` where ``opener`` went out and it is a seat, else by
    the next seat still in) and, where a player fell to one die, made special or offered."""
    if one_round:  # play_random(one_round=True): each game is its first round
        keep_shown(s, t, i)
        s.over[i] = True
        s.to_act[i] = -1
        return
    n = t.players
    changes = s.last_changes
    dropped = -1  # the first seat (in seat order) the call left with one die
    gone = False
    if r.lives and s.last_eliminated[i] >= 0:  # no life left: the dice leave with the seat
        out = s.last_eliminated[i]
        gone, dropped = move_dice(s, r, i, out, -int(s.held[i, out]), dropped)
    if moved >= 0:  # one seat's dice
        gone, dropped = move_dice(s, r, i, moved, int(changes[i, moved]), dropped)
    elif r.moves_dice:
        for seat in range(n):
            change = int(changes[i, seat])
            if change:
                out, dropped = move_dice(s, r, i, seat, change, dropped)
                gone |= out
    players_in = s.players_in[i]
    last_in = t.elimination or r.lives  # the game goes on to the last seat in
    over = players_in <= 1 if last_in else s.round_number[i] >= t.rounds
    over |= r.first_out and gone  # or ends as the first seat goes out
    clear_bids(s, r, i)
    s.pressured[i] = False
    for d in range(t.declarations):
        s.offers[i, d] = False
    s.must_declare[i] = False
    if over:  # the game keeps its last hands, less the dice just lost; the shown, as shown
        keep_shown(s, t, i)
        h = s.dealt[i]
        for seat in range(n):
            if r.reroll:
                for f in range(t.faces + 1):
                    s.open_faces[i, seat, f] = 0  # every die back under its cup
            lost = -int(s.held[i, seat])  # the dice the hand holds past its count, dropped
            for f in range(t.faces + 1):
                lost += s.faces[i, h, seat, f]
            for f in range(t.faces, 0, -1):
                while lost > 0 and s.faces[i, h, seat, f] > 0:
                    s.faces[i, h, seat, f] -= 1
                    lost -= 1
        s.to_act[i] = -1
        s.over[i] = True
        for seat in range(n):
            s.owed[i, seat] = 0  # nobody is owed a round of a game that is over
        best = np.max(s.scores[i, :])
        for seat in range(n):
            s.winners[i, seat] = s.held[i, seat] > 0 if last_in else s.scores[i, seat] == best
        return
    if gone:  # the links change only when a seat goes out
        link(s, t, i)
    s.round_number[i] += 1
    deal(s, r, t, i)
    s.special[i] = False
    s.special_player[i] = -1
    for seat in range(n):
        s.changers[i, seat] = False
    if s.held[i, opener] > 0:
        s.to_act[i] = opener
    elif instead >= 0:
        s.to_act[i] = instead
    else:
        s.to_act[i] = s.left[i, opener]
    # A player who just fell to one die: the special round, or its offer.
    if not r.special:
        return
    if r.farewell:  # a round for each descent to one die, queued
        farewell(s, r, t, i, players_in)
    elif dropped >= 0 and not (r.special_once and s.had_special[i, dropped]):
        start_special(s, r, i, dropped, players_in)


@inlined
def start_special(s: Games, r: BatchRules, i: int, player: int, players_in: int) -> bool:
    """``player``'s special round in game ``i``, or its offer, at a table of
    ``players_in``; ``False`` where the table plays none (two players, ``off``)."""
    two = players_in == 2
    if two and r.special_two_players == TwoPlayers.OFF:
        return False
    if two and r.special_two_players == TwoPlayers.CHOICE:
        s.offers[i, :] = True
        s.must_declare[i] = True
    elif r.special_optional:
        s.offers[i, r.special_declaration] = True
    else:
        make_special(s, r, i, player)
        if r.special_once:
            s.had_special[i, player] = True
    return True


@inlined
def farewell(s: Games, r: BatchRules, t: Layout, i: int, players_in: int) -> None:
    """The farewell round of game ``i``'s first seat owed one, which it opens: the seats
    owed from earlier calls first (``owed``, their places from 1), then those the last call
    left with one die, having held more, in seat order; a seat out, or past its one round
    a game, is owed none. Where the table plays none (two players, ``off``), all wait."""
    n = t.players
    owed, changes = s.owed, s.last_changes
    places = 0
    for place in range(1, n + 1):  # the queue as it stood, kept in order (marked negative)
        for seat in range(n):
            if owed[i, seat] == place:
                keep = s.held[i, seat] > 0 and not (r.special_once and s.had_special[i, seat])
                places += keep
                owed[i, seat] = -places if keep else 0
    for seat in range(n):
        owed[i, seat] = -owed[i, seat]
        held = int(s.held[i, seat])
        fell = r.moves_dice and held == 1 and changes[i, seat] < 0 and held - changes[i, seat] > 1
        if fell and owed[i, seat] == 0 and not (r.special_once and s.had_special[i, seat]):
            places += 1
            owed[i, seat] = places
    if places == 0:
        return
    player = 0
    for seat in range(n):
        if owed[i, seat] == 1:
            player = seat
    if not start_special(s, r, i, player, players_in):
        return  # no round at this table: the queue waits
    s.to_act[i] = player
    for seat in range(n):
        if owed[i, seat] > 0:
            owed[i, seat] -= 1


@inlined
def play(s: Games, r: BatchRules, t: Layout, i: int, act: int, seat: int, one_round: bool) -> bool:
    """The legal action ``act`` by ``seat`` in game ``i``; whether it was a call (which
    ends the round)."""
    if act >= t.first_bid:
        bid(s, r, t, i, act, seat)
        return False
    if act >= t.first_act and r.roll:
        roll(s, t, i, seat)
        return False
    if act >= t.first_act:
        reroll(s, r, t, i, act - t.first_act, seat)
        return False
    if act >= t.first_declaration:
        declare(s, r, i, act - t.first_declaration, seat)
        return False
    if act == t.passing:
        pass_bid(s, t, i, seat)
        return False
    if act == t.exact_call and r.exact_claim:
        claim_exact(s, t, i, seat)
        return False
    dudo = act == 0 or act == t.pressed_dudo
    if r.all_around and dudo and doubters(s, i) + 1 < s.players_in[i] - 1:
        doubt(s, t, i, seat)  # the bid waits to be challenged all around
        return False
    if act == t.pressed_dudo:
        s.pressure_left[i, seat] -= 1
        s.pressured[i] = True
    call = 1 if act == t.exact_call else 2 if act == t.out_of_time else 0
    resolve(s, r, t, i, call, seat, one_round)
    return True


@inlined
def returns(s: Games, t: Layout, i: int, seat: int) -> float:
    """``seat``'s return so far in game ``i``, as :meth:`perudo.interop.turns.Turns.returns`
    gives it: placing with elimination (1 the winner, -1 the first out), else points."""
    if not t.elimination:
        return float(s.scores[i, seat])
    if s.winners[i, seat]:
        return 1.0
    if s.out_place[i, seat] >= 0:
        return float((2 * s.out_place[i, seat] - (t.players - 1)) / (t.players - 1))
    return 0.0


@compiled
def step_games(
    s: Games, acts: NDArray[np.int64], seats: NDArray[np.int64], idle: NDArray[np.bool_],
    autoreset: bool, rewards: NDArray[np.float64], done: NDArray[np.bool_],
    ended: NDArray[np.bool_], winners: NDArray[np.bool_],
) -> None:  # fmt: skip
    """Play ``acts[i]`` by ``seats[i]`` in every game ``i`` not ``idle`` (each legal), and
    write what :class:`~perudo.batch.StepResult` holds; with ``autoreset``, a game that
    ends is replaced by a new one."""
    r, t = s.rules, s.layout
    for i in rows(len(acts)):
        if idle[i]:
            continue
        ended[i] = play(s, r, t, i, acts[i], seats[i], False)
        for seat in range(t.players):
            now = returns(s, t, i, seat)
            rewards[i, seat] = now - s.returned[i, seat]
            s.returned[i, seat] = now
        if s.over[i]:
            done[i] = True
            winners[i, :] = s.winners[i, :]
            if autoreset:
                new_game(s, r, t, i)


@compiled
def new_games(s: Games, where: NDArray[np.int64]) -> None:
    """A new game in each row of ``where``."""
    r, t = s.rules, s.layout
    for k in rows(len(where)):
        new_game(s, r, t, row(where[k]))
