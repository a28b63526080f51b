"""The plain-Python floor: classic Perudo as a tight loop over ints and lists.

Wild ones, conversion to and from ones, one die lost per challenge, the loser opens, no
special rounds. It builds the full list of legal moves at every turn, as perudo must, and
picks one with the same seeded random choice, so its rate is what plain Python can do
for the same work with no library at all.
"""

from __future__ import annotations

import random

CHALLENGE = -1


def play_game(players: int, rng: random.Random, dice_rng: random.Random) -> int:
    """Play one random game; returns the number of actions."""
    counts = [5] * players
    opener = 0
    actions = 0
    while sum(1 for c in counts if c) > 1:
        hands = [[dice_rng.randint(1, 6) for _ in range(c)] for c in counts]
        total = sum(counts)
        seat = opener
        bid_q = bid_f = 0
        bidder = -1
        while True:
            moves: list[int] = []
            for face in range(1, 7):
                if bid_q == 0:
                    low = 0 if face == 1 else 1
                elif face == 1 and bid_f != 1:
                    low = (bid_q + 1) // 2
                elif bid_f == 1 and face != 1:
                    low = 2 * bid_q + 1
                elif face > bid_f:
                    low = bid_q
                else:
                    low = bid_q + 1
                if low:
                    moves.extend(q * 8 + face for q in range(low, total + 1))
            if bid_q:
                moves.append(CHALLENGE)
            move = rng.choice(moves)
            actions += 1
            if move == CHALLENGE:
                wild = bid_f != 1
                found = sum(1 for hand in hands for d in hand if d == bid_f or (wild and d == 1))
                loser = seat if found >= bid_q else bidder
                counts[loser] -= 1
                opener = loser
                while not counts[opener]:
                    opener = (opener + 1) % players
                break
            bid_q, bid_f, bidder = move // 8, move % 8, seat
            seat = (seat + 1) % players
            while not counts[seat]:
                seat = (seat + 1) % players
    return actions
