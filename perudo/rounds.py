"""The next round: what a settled call leads to (the scores, the end of the game, the next
deal, its opener and any special round), as a value :class:`~perudo.GameState` builds
itself from."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from perudo.dice import deal
from perudo.errors import InvalidVariantError, shown
from perudo.players import Player
from perudo.rules import RoundContext, RoundRules, RoundStart, SettledCall
from perudo.rules.axes import optional
from perudo.rules.special import dropped_to_one
from perudo.variant import Variant

__all__ = ["NextRound", "dropped_to_one", "next_round"]  # dropped_to_one: perudo.rules.special


@attrs.frozen(slots=False)  # one a round: made faster dict-based
class NextRound:
    """What a settled call leads to.

    Attributes:
        players: The seats after the call: each hand cut to its count and every die under
            the cup again when the game is over, else the next round's deal.
        opener: The seat that opens the next round; ``None`` when the game is over.
        rules: The next round's rules (after any special round's transform).
        special_player: The seat whose special round the next round is, if any.
        offers: The declarations (in the edition's words) its opener may make first.
        must_declare: Whether its opener must declare before bidding.
        owed: The seats owed a special round in later rounds, in order.
    """

    players: tuple[Player, ...]
    opener: int | None
    rules: RoundRules
    special_player: int | None = None
    offers: tuple[str, ...] = ()
    must_declare: bool = False
    owed: tuple[int, ...] = ()


def next_round(
    variant: Variant,
    seed: int,
    settled: SettledCall,
    players: Sequence[Player],
    owed: tuple[int, ...] = (),
) -> NextRound:
    """What ``settled``, the call that ended round ``settled.round_number`` of a game of
    ``variant`` with ``seed``, leads to; ``players`` are the seats as the call found them
    (a pressure use spent), ``owed`` the seats owed a special round before it. Each rule
    kind's answer is checked: one that breaks its protocol raises
    :class:`~perudo.InvalidVariantError` naming it."""
    counts = settled.after
    scores = settled.scores_after if any(settled.points) else settled.scores
    if variant.scoring.is_over(settled):
        final = tuple(
            attrs.evolve(player, dice=player.dice[:count], score=score, open=())
            for player, count, score in zip(players, counts, scores, strict=True)
        )
        return NextRound(players=final, opener=None, rules=variant.round_rules())
    number = settled.round_number + 1
    limit = variant.scoring.round_limit(len(counts))
    if limit is not None and number > limit:  # the bound the encodings count on
        raise InvalidVariantError(
            f"rule kind scoring:{variant.scoring.kind} of {variant.key!r} broke its "
            f"protocol: round_limit({len(counts)}) said {limit} rounds at most, and round "
            f"{limit} ended without is_over"
        )
    hands = deal(seed, number, counts, variant.dice.faces)
    dealt = tuple(
        [
            player.dealt(hand, score)
            for player, hand, score in zip(players, hands, scores, strict=True)
        ]
    )
    opener = variant.starter.next_opener(settled)
    if type(opener) is not int or not 0 <= opener < len(counts) or not counts[opener]:
        seat = type(opener) is int and 0 <= opener < len(counts)
        raise InvalidVariantError(
            f"rule kind starter:{variant.starter.kind} of {variant.key!r} broke its "
            f"protocol: next_opener named seat {shown(opener)}, which "
            + ("is out of the game" if seat else "is not a seat")
        )
    had = tuple([player.had_special for player in dealt])
    start = variant.special_round.start(settled, had=had, owed=owed)
    if variant.user_kinds:  # perudo's own kinds keep the protocol
        _check_start(variant, settled, start)
    rules = variant.round_rules()
    words = variant.words
    offers = tuple([words.declaration(role) for role in start.offers]) if start.offers else ()
    player = start.player
    if player is not None and start.opens:
        opener = player  # before the starter's opener (a farewell round)
    if not start.special or player is None:
        return NextRound(
            players=dealt,
            opener=opener,
            rules=rules,
            offers=offers,
            must_declare=start.must_declare,
            owed=start.owed,
        )
    opening = RoundContext(
        words=words,
        faces=settled.faces,
        dice_per_player=settled.dice_per_player,
        dice=counts,
        round_number=number,
        to_act=opener,
        bids=(),
        rules=rules,
        scores=scores,
        starting=settled.starting,
    )
    if start.uses_special:
        spent = attrs.evolve(dealt[player], had_special=True)
        dealt = (*dealt[:player], spent, *dealt[player + 1 :])
    return NextRound(
        players=dealt,
        opener=opener,
        rules=variant.special_round.transform(rules, player, opening),
        special_player=player,
        offers=offers,
        must_declare=start.must_declare,
        owed=start.owed,
    )


def _check_start(variant: Variant, settled: SettledCall, start: RoundStart) -> None:
    """Refuse a special round kind's ``start`` after ``settled`` that cannot be honoured:
    a special round is someone's, a seat still in, and the seats it leaves owed are seats
    (of a kind that says it queues)."""
    kind = variant.special_round
    after = settled.after
    player = start.player if isinstance(start, RoundStart) else None
    problem = None
    if not isinstance(start, RoundStart):
        problem = f"returned {shown(start)}, not a RoundStart"
    elif player is None and (start.special or start.offers or start.uses_special):
        problem = "began a special round for nobody (RoundStart.player is None)"
    elif player is not None and (type(player) is not int or not 0 <= player < len(after)):
        problem = f"named seat {shown(player)}, which is not a seat"
    elif player is not None and not after[player]:
        problem = f"began the special round of seat {player}, which is out of the game"
    elif not all(type(seat) is int and 0 <= seat < len(after) for seat in start.owed):
        problem = f"left {shown(start.owed)} owed, which are not all seats"
    elif start.owed and not optional(kind, "queues"):
        problem = f"left seats {shown(start.owed)} owed, and the kind does not say queues = True"
    if problem is None:
        return
    raise InvalidVariantError(
        f"rule kind special_round:{kind.kind} of {variant.key!r} broke its protocol: "
        f"start() {problem}"
    )
