"""The next round: what a settled call leads to (the scores, the end of the game, the next
deal, its opener and any special round), as a value :class:`~perudo.GameState` builds
itself from."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from perudo.dice import deal
from perudo.errors import InvalidVariantError, shown
from perudo.players import Player
from perudo.rules import RoundContext, RoundRules, SettledCall
from perudo.variant import Variant

__all__ = ["NextRound", "dropped_to_one", "next_round"]


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
    """

    players: tuple[Player, ...]
    opener: int | None
    rules: RoundRules
    special_player: int | None = None
    offers: tuple[str, ...] = ()
    must_declare: bool = False


def next_round(
    variant: Variant,
    seed: int,
    settled: SettledCall,
    players: Sequence[Player],
) -> NextRound:
    """What ``settled``, the call that ended round ``settled.round_number`` of a game of
    ``variant`` with ``seed``, leads to; ``players`` are the seats as the call found them
    (a pressure use spent). Each rule kind's answer is checked: one that breaks its
    protocol raises :class:`~perudo.InvalidVariantError` naming it."""
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
    dropped = dropped_to_one(settled.losers, settled.dice, counts) if 1 in counts else None
    used = dropped is not None and dealt[dropped].had_special
    start = variant.special_round.start(dropped, settled, used=used)
    if dropped is None and (start.special or start.uses_special):  # never ignored
        raise InvalidVariantError(
            f"rule kind special_round:{variant.special_round.kind} of {variant.key!r} "
            "broke its protocol: start() began the special round with nobody dropped to "
            "one die (it is played for a seat that just fell to one die)"
        )
    rules = variant.round_rules()
    words = variant.words
    offers = tuple([words.declaration(role) for role in start.offers]) if start.offers else ()
    if not start.special or dropped is None:
        return NextRound(
            players=dealt,
            opener=opener,
            rules=rules,
            offers=offers,
            must_declare=start.must_declare,
        )
    opening = RoundContext(
        words=words,
        faces=settled.faces,
        dice_per_player=settled.dice_per_player,
        dice=counts,
        round_number=number,
        to_act=dropped,
        bids=(),
        rules=rules,
        scores=scores,
        starting=settled.starting,
    )
    if start.uses_special:
        spent = attrs.evolve(dealt[dropped], had_special=True)
        dealt = (*dealt[:dropped], spent, *dealt[dropped + 1 :])
    return NextRound(
        players=dealt,
        opener=opener,
        rules=variant.special_round.transform(rules, dropped, opening),
        special_player=dropped,
        offers=offers,
        must_declare=start.must_declare,
    )


def dropped_to_one(
    losers: Sequence[int], before: Sequence[int], counts: Sequence[int]
) -> int | None:
    """The seat a call left with one die (a loser first), whose special round may follow;
    ``None`` when the call left nobody at one die."""
    seats = [seat for seat, n in enumerate(counts) if n == 1 and before[seat] > 1]
    first = [seat for seat in seats if seat in losers]
    return (first or seats)[0] if seats else None
