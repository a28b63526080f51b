"""Invariants every step of every game must keep, shared by the property and stateful tests."""

from __future__ import annotations

from collections import Counter

from perudo import Act, Action, Bid, Calza, Declare, Dudo, GameState, HandBid, Paso

#: Mia's values from lowest to highest, as the source lists them (Wikipedia's article, its
#: rules quoted at modhoster.com), written out here apart from perudo's own ladder.
MIA_ORDER = "31 32 41 42 43 51 52 53 54 61 62 63 64 65 11 22 33 44 55 66 21".split(" ")  # noqa: SIM905


def mia_rank(dice: tuple[int, ...]) -> int:
    """The rank of two dice in Mia, 1 for 31 up to 21 for Mia, read higher die first."""
    high, low = sorted(dice, reverse=True)
    return MIA_ORDER.index(f"{high}{low}") + 1


#: Every declaration name a shipped edition offers (actions are open to any name now; these
#: are the ones that may be legal somewhere).
DECLARATIONS = ("palifico", "palafico", "calzone", "ordinary")


def check_step(before: GameState, action: Action, seat: int, after: GameState) -> None:
    variant = before.variant
    full = variant.dice.per_player
    old = [len(p.dice) for p in before.players]
    new = [len(p.dice) for p in after.players]
    assert all(0 <= n <= full for n in new)
    assert [p.name for p in after.players] == [p.name for p in before.players]
    resolved = after.round_number != before.round_number or after.is_over
    if not resolved:
        assert new == old
        assert after.last_result == before.last_result
        for seat_number, (a, b) in enumerate(zip(before.players, after.players, strict=True)):
            assert Counter(b.open) <= Counter(b.dice)  # open dice are part of the hand
            if not isinstance(action, Act) or seat_number != seat:
                assert (a.dice, a.open) == (b.dice, b.open)
        if isinstance(action, Act):
            check_act(before, action, seat, after)
        if isinstance(action, HandBid):  # Mia: a higher value, the turn to the left
            assert before.bid is None or mia_rank(action.faces) > mia_rank(before.bid.faces)  # type: ignore[union-attr]
            assert after.to_act == before.left_of(seat)
    elif variant.hand_bids:
        check_mia_call(before, action, seat, after)
    else:
        result = after.last_result
        assert result is not None
        assert result.caller == seat
        assert result.bid == before.bid
        changes = [b - a for a, b in zip(old, new, strict=True)]
        if variant.challenge.kind == "pure-hands" and result.call == "challenge":
            # Immortal Blade: a pure hand counts two more, an impure one one more
            assert result.count == pure_hands_count(before, result.bid)
        if variant.challenge.kind == "bidder-hand" and result.call == "challenge":
            # UO Outlands: the bidder's dice alone are shown and counted (nothing is wild)
            bidder = before.bidder
            assert bidder is not None
            assert result.revealed == (bidder,)
            assert result.count == before.players[bidder].dice.count(result.bid.face)
        if variant.scoring.kind == "difference":  # Bluff: the loser loses the difference
            assert changes == difference_changes(old, result.count, before)
        elif result.call == "challenge" and (
            variant.claims_in_chain or variant.scoring.kind == "elimination-burst"
        ):
            assert changes == claim_and_burst_changes(old, result.count, before, seat)
        elif variant.scoring.kind == "out-below":  # Aetolia: out "below three die"
            assert changes == out_below_changes(old, result.count, before, seat)
            assert result.out == tuple(s for s, n in enumerate(new) if old[s] and not n)
        elif variant.scoring.moves_dice:
            zeros = [0] * (len(old) - 1)
            assert sorted(changes) in ([-1, *zeros], [*zeros, 1], [0, *zeros])
            if -1 in changes:
                assert changes.index(-1) == result.loser
            elif 1 in changes:
                assert changes.index(1) == result.gainer
            else:
                assert result.call == "exact"
                assert result.gainer is None
                assert result.loser is None
            assert sum(p.score for p in after.players) == 0
        elif variant.scoring.kind == "lives":  # a lost challenge costs a life; none: out
            assert sorted(result.points) == [-1, *([0] * (len(old) - 1))]
            for seat, player in enumerate(after.players):
                assert player.is_in == (player.score > 0)
                assert changes[seat] == (-old[seat] if seat in result.out else 0)
        elif variant.scoring.kind == "bidder-against-all":  # Liar's poker: a dollar each
            assert changes == [0] * len(old)
            assert before.bid is not None
            assert before.bidder is not None
            sign = 1 if result.count >= before.bid.quantity else -1
            others = [s for s, n in enumerate(old) if n and s != before.bidder]
            unit = variant.scoring.points
            expected = [-sign * unit if s in others else 0 for s in range(len(old))]
            expected[before.bidder] = sign * unit * len(others)
            assert list(result.points) == expected
        else:
            assert changes == [0] * len(old)
            assert sorted(result.points)[-1] in (1, 3)
            assert sum(result.points) == 0
            assert sum(p.score for p in after.players) == 0
    for a, b in zip(before.players, after.players, strict=True):
        assert a.is_in or not b.is_in  # seats out stay out
        assert 0 <= b.pressure_left <= a.pressure_left
    if after.is_over:
        assert after.legal_actions() == ()
        if variant.scoring.moves_dice:
            assert len(after.winners) == 1
            assert after.seats_in == after.winners
        else:
            assert after.winners
    else:
        assert after.to_act is not None
        assert after.players[after.to_act].is_in
        assert after.legal_actions()


def check_mia_call(before: GameState, action: Action, seat: int, after: GameState) -> None:
    """Mia's calls, as its source says: a challenge shows the bidder's two dice, and the
    value they show (or higher) makes the challenger lose a life, two on a true Mia; a lower
    one the bidder; giving up, only on a Mia, costs the one who gives up a life. The player
    left of the loser opens the next round; the first player out of lives ends the game."""
    result, bid, bidder = after.last_result, before.bid, before.bidder
    assert result is not None
    assert isinstance(bid, HandBid)
    assert bidder is not None
    n = len(before.players)
    if isinstance(action, Dudo):
        assert result.revealed == (bidder,)
        shown = before.players[bidder].dice
        assert result.count == mia_rank(shown)
        stands = mia_rank(shown) >= mia_rank(bid.faces)
        loser = seat if stands else bidder
        lost = 2 if stands and bid.faces == (2, 1) else 1
    else:
        assert isinstance(action, Calza)
        assert bid.faces == (2, 1)
        assert result.revealed == ()
        loser, lost = seat, 1
    assert list(result.points) == [-lost if s == loser else 0 for s in range(n)]
    assert list(result.changes) == [0] * n
    scores = [p.score + (-lost if s == loser else 0) for s, p in enumerate(before.players)]
    assert [p.score for p in after.players] == scores
    assert after.is_over == (min(scores) <= 0)
    if not after.is_over:
        assert after.to_act == (loser + 1) % n  # nobody is out until the game ends
        assert all(len(p.dice) == 2 for p in after.players)


def difference_changes(held: list[int], count: int, before: GameState) -> list[int]:
    """What Bluff's rule costs each seat: a count short of the bid costs the bidder the dice
    it is short, a count over it the challenger the dice it is over, an exact count every
    player but the bidder one die (never more than a seat holds)."""
    assert before.bid is not None
    assert before.bidder is not None
    wrong_by = count - before.bid.quantity
    if wrong_by == 0:
        return [-1 if n and seat != before.bidder else 0 for seat, n in enumerate(held)]
    loser = before.bidder if wrong_by < 0 else before.to_act
    return [-min(abs(wrong_by), n) if seat == loser else 0 for seat, n in enumerate(held)]


def check_act(before: GameState, action: Act, seat: int, after: GameState) -> None:
    """A re-roll puts the named dice out, keeps the dice already out, and re-rolls the rest
    of the cup (as many dice as stayed under it)."""
    a, b = before.players[seat], after.players[seat]
    if action.word == "roll":  # Mia: the player to act rolls both dice, then bids
        assert seat == before.to_act
        assert before.bid is not None
        assert len(b.dice) == len(a.dice) == 2
        assert after.must_bid
        assert all(isinstance(move, HandBid) for move in after.legal_actions())
        return
    assert action.word == "reroll"
    assert before.bidder == seat  # only the bidder, right after the bid
    assert Counter(b.open) == Counter(a.open) + Counter(action.numbers)
    assert len(b.cup) == len(a.cup) - len(action.numbers) > 0
    assert after.to_act == before.to_act
    assert after.bids == before.bids
    assert after.check(Act("reroll", b.cup[:1]), by=seat) is not None  # once a bid


def action_space(state: GameState) -> list[Action]:
    """Every well-formed action worth trying in ``state``: each quantity up to the dice in
    play (one more under a cap, which must be refused) and each face (one more than the
    dice have, which must be refused), plain and pressured; the calls; every declaration."""
    top = state.dice_in_play + (1 if state.rules.cap else 0)
    space: list[Action] = [
        Bid(quantity, face, pressure=pressure)
        for quantity in range(1, top + 1)
        for face in range(1, state.rules.faces + 2)
        for pressure in (False, True)
    ]
    space += [Dudo(), Dudo(pressure=True), Calza(), Paso()]
    space += [Declare(name) for name in DECLARATIONS]
    faces = state.rules.faces  # every hand of two dice, one face too many included
    space += [HandBid((a, b)) for a in range(1, faces + 2) for b in range(1, a + 1)]
    actions = state.variant.actions
    if actions.words:
        space += actions.every_move(state.variant.dice.per_player + 1, 6)  # one too many
        space += [Act(word) for word in actions.words]
    return space


def pure_hands_count(before: GameState, bid: Bid) -> int:
    """The showdown's count where a hand of the bid's face alone counts two more and one of
    that face and wild dice alone one more (Immortal Blade)."""
    wild = before.rules.wilds.wild_face(before.context) if before.rules.wilds else None
    total = 0
    for player in before.players:
        dice = player.dice
        if not dice:
            continue
        counts = [d == bid.face or (wild is not None and d == wild) for d in dice]
        total += sum(counts)
        if all(d == bid.face for d in dice):
            total += 2
        elif wild is not None and wild != bid.face and all(counts):
            total += 1
    return total


def out_below_changes(held: list[int], count: int, before: GameState, caller: int) -> list[int]:
    """What a challenge costs where a player left with fewer than the scoring's ``dice`` is
    out: the loser (the challenger if the bid holds, the bidder if not) loses one die, or
    every die it holds when one fewer is below that."""
    assert before.bid is not None
    assert before.bidder is not None
    loser = caller if count >= before.bid.quantity else before.bidder
    changes = [0] * len(held)
    least = before.variant.scoring.dice
    changes[loser] = -1 if held[loser] - 1 >= least else -held[loser]
    return changes


def claim_and_burst_changes(
    held: list[int], count: int, before: GameState, caller: int
) -> list[int]:
    """What a challenge costs where the standing bid may be an exact claim (a Bull) and a
    challenger out of turn (a burst) wins a die: a right claim costs every other seat in a
    die; else the loser (the challenger if the bid holds, the bidder if not) loses one, and
    a right challenger out of turn gains one below its start (guyguroz-hue/Perudo, 8-9)."""
    assert before.bid is not None
    assert before.bidder is not None
    quantity = before.bid.quantity
    if (before.claim == "exact") and count == quantity:
        return [-1 if n and seat != before.bidder else 0 for seat, n in enumerate(held)]
    holds = count >= quantity and not ((before.claim == "exact") and count != quantity)
    changes = [0] * len(held)
    changes[caller if holds else before.bidder] = -1
    bursts = before.variant.scoring.kind == "elimination-burst" and caller != before.to_act
    if bursts and not holds and held[caller] < before.starting_dice[caller]:
        changes[caller] = 1
    return changes
