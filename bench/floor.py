"""The plain-Python floor: classic Perudo as a tight loop over ints and tuples.

Wild ones, conversion to and from ones, one die lost per challenge, the loser opens, no
special rounds. At every turn it takes the full tuple of legal moves (made once for each
standing bid and number of dice in play, then looked up, as perudo's engine does) and picks
one with a seeded random choice; a round's dice are dealt as counts of each face. Its rate
is what plain Python does for the same work with no library at all: the tightest such loop
we could write, so the ratios against it are honest.
"""

from __future__ import annotations

import random

CHALLENGE = -1
FACES = (1, 2, 3, 4, 5, 6)

#: The legal moves by (standing bid, dice in play): bids as ``quantity * 8 + face``, in
#: order of face then quantity, and the challenge last once a bid stands.
_LEGAL: dict[int, tuple[int, ...]] = {}


def lowest(face: int, bid_q: int, bid_f: int) -> int:
    """The lowest quantity of ``face`` that raises the standing bid (0: none may)."""
    if bid_q == 0:
        return 0 if face == 1 else 1
    if face == 1 and bid_f != 1:
        return (bid_q + 1) // 2
    if bid_f == 1 and face != 1:
        return 2 * bid_q + 1
    return bid_q if face > bid_f else bid_q + 1


def legal_moves(bid_q: int, bid_f: int, total: int) -> tuple[int, ...]:
    """Every legal move after the bid ``bid_q`` x ``bid_f`` (0 x 0: none yet)."""
    key = (bid_q * 8 + bid_f) * 64 + total
    moves = _LEGAL.get(key)
    if moves is None:
        made = []
        for face in FACES:
            low = lowest(face, bid_q, bid_f)
            if low:
                made.extend(q * 8 + face for q in range(low, total + 1))
        if bid_q:
            made.append(CHALLENGE)
        moves = _LEGAL[key] = tuple(made)
    return moves


def play_game(players: int, rng: random.Random, dice_rng: random.Random) -> int:
    """Play one random game; returns the number of actions."""
    counts = [5] * players
    alive, opener, actions = players, 0, 0
    choice, roll, legal = rng.choice, dice_rng.choices, _LEGAL
    while alive > 1:
        total = sum(counts)
        found = [0] * 7
        for die in roll(FACES, k=total):
            found[die] += 1
        seat, bid_q, bid_f, bidder = opener, 0, 0, -1
        while True:
            moves = legal.get((bid_q * 8 + bid_f) * 64 + total) or legal_moves(bid_q, bid_f, total)
            move = choice(moves)
            actions += 1
            if move == CHALLENGE:
                n = found[bid_f] + (found[1] if bid_f != 1 else 0)
                loser = seat if n >= bid_q else bidder
                counts[loser] -= 1
                alive -= not counts[loser]
                opener = loser
                while not counts[opener]:
                    opener = (opener + 1) % players
                break
            bid_q, bid_f, bidder = move >> 3, move & 7, seat
            seat = (seat + 1) % players
            while not counts[seat]:
                seat = (seat + 1) % players
    return actions
