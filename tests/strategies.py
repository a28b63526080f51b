"""Hypothesis strategies: editions, tables and random legal games."""

from __future__ import annotations

import random

import attrs
from hypothesis import strategies as st
from invariants import DECLARATIONS

import perudo
from perudo import Action, Bid, Calza, Declare, Dudo, GameState

editions = st.sampled_from(perudo.variant_names())


@attrs.frozen
class Table:
    """A game to play: edition, players, seed."""

    edition: str
    players: int
    seed: int


@st.composite
def tables(draw: st.DrawFn, edition: str | None = None, max_players: int = 6) -> Table:
    key = draw(editions) if edition is None else edition
    variant = perudo.load_variant(key)
    players = draw(st.integers(variant.players.min, min(variant.players.max, max_players)))
    return Table(key, players, draw(st.integers(0, 2**32)))


def moves(state: GameState) -> list[tuple[Action, int]]:
    """Every legal (action, seat) pair: the player to act, and out-of-turn calls."""
    assert state.to_act is not None
    pairs = [(action, state.to_act) for action in state.legal_actions()]
    for seat in state.seats_in:
        if seat != state.to_act:
            pairs.extend((action, seat) for action in state.legal_actions(by=seat))
    return pairs


def choose(rng: random.Random, pairs: list[tuple[Action, int]]) -> tuple[Action, int]:
    """A random move that favours calls and low bids, so games end in a sensible length."""
    calls = [pair for pair in pairs if not isinstance(pair[0], Bid)]
    if calls and rng.random() < 0.3:
        return rng.choice(calls)
    bids = [pair for pair in pairs if isinstance(pair[0], Bid)]
    if bids:
        low = min(bid.quantity for bid, _ in bids)  # type: ignore[union-attr]
        near = [pair for pair in bids if pair[0].quantity <= low + 2]  # type: ignore[union-attr]
        return rng.choice(near)
    return rng.choice(pairs)


def any_action(rng: random.Random, dice_in_play: int, *, capped: bool) -> Action:
    """Any well-formed action, legal or not. Bids go up to the dice in play, beyond it only
    under a cap (without one a larger bid is legal but not listed)."""
    kind = rng.randrange(10)
    if kind < 6:
        top = dice_in_play + 2 if capped else dice_in_play
        return Bid(rng.randint(1, top), rng.randint(1, 6), pressure=rng.random() < 0.2)
    if kind < 8:
        return Dudo(pressure=rng.random() < 0.2)
    if kind == 8:
        return Calza()
    return Declare(rng.choice(DECLARATIONS))


@attrs.frozen
class BatchTable:
    """An edition drawn over the batch engine's kinds and parameter values, and a table."""

    variant: perudo.Variant
    players: int
    seed: int


@st.composite
def batch_tables(draw: st.DrawFn) -> BatchTable:
    """An edition whose every axis is a kind the batch engine plays, with values drawn from
    the ones it plays (:data:`perudo.batch.rules.BATCH_PARAMS`), on small dice so that
    games end fast; refused combinations are drawn again."""
    from hypothesis import assume

    from perudo.batch.rules import BATCH_KINDS, BATCH_PARAMS, batch_rules
    from perudo.rules import NoExactCall, NoPairPass, NoSpecialRound

    players = draw(st.integers(2, 4))
    faces = draw(st.integers(3, 8))
    per_player = draw(st.integers(1, 3))
    numbers = {  # the whole numbers, in ranges a small game can use
        ("PlayerCount", "min"): 2, ("PlayerCount", "max"): 6,
        ("Dice", "per_player"): per_player, ("Dice", "faces"): faces,
        ("WildFace", "face"): draw(st.integers(1, faces)),
        ("WildUntilBidOn", "face"): draw(st.integers(1, faces)),
        ("HalveDouble", "face"): draw(st.integers(1, faces)),
        ("OutBelow", "dice"): draw(st.integers(1, per_player)),
        ("Lives", "lives"): draw(st.integers(1, 3)),
        ("OpeningAtLeast", "quantity"): draw(st.integers(2, 4)),
        ("RankedFaces", "order"): tuple(
            draw(st.permutations(range(1, faces + 1)))[: draw(st.integers(1, faces))]
        ),
        ("ExactCall", "min_players"): draw(st.integers(2, 4)),
        ("FixedSeat", "seat"): draw(st.integers(0, players - 1)),
        ("PartyPoints", "rounds_per_player"): draw(st.integers(1, 2)),
        ("PartyPoints", "points"): draw(st.integers(1, 3)),
        ("PartyPoints", "pressure_points"): draw(st.integers(1, 3)),
        ("PartyPoints", "pressure_uses"): draw(st.integers(0, 2)),
        ("FixedRounds", "rounds"): draw(st.integers(1, 3)),
        ("FixedRounds", "points"): draw(st.integers(1, 3)),
        ("DefaultMove", "seconds"): draw(st.integers(1, 60)),  # time: a table's business
        ("DefaultMove", "quantity"): draw(st.integers(0, 3)),
        ("DefaultMove", "face"): draw(st.integers(0, faces)),
        ("NoPairPass", "per_round"): draw(st.integers(1, 2)),
        ("BidderAgainstAll", "rounds"): draw(st.integers(1, 3)),
        ("BidderAgainstAll", "points"): draw(st.integers(1, 3)),
        ("LivesFirstOut", "lives"): draw(st.integers(1, 3)),
        ("Forfeit", "seconds"): draw(st.integers(1, 60)),
        ("PokerHands", "order"): tuple(draw(st.permutations(range(1, faces + 1)))),
    }  # fmt: skip
    components = {}
    for axis, kinds in BATCH_KINDS.items():
        kind = draw(st.sampled_from(kinds))
        values = {}
        for name, played in BATCH_PARAMS[kind].items():
            if played is None:
                values[name] = numbers[kind.__name__, name]
            else:
                values[name] = draw(st.sampled_from(played))
        components[axis] = kind(**values)
    special = components["special_round"]
    words = {  # the words an edition's calls and rounds need, and none it does not
        "calza": None if isinstance(components["exact_call"], NoExactCall) else "Calza",
        "paso": "Paso" if isinstance(components["passes"], NoPairPass) else None,
        "special_round": None if isinstance(special, NoSpecialRound) else "Palifico",
        "ordinary": "Ordinary" if getattr(special, "two_players", "") == "choice"
        or getattr(special, "optional", False) else None,
    }  # fmt: skip
    try:
        variant = perudo.load_variant("italian").derive(
            "drawn", reason="Drawn by Hypothesis.", words=words, **components
        )
    except perudo.InvalidVariantError:
        assume(False)
    try:  # a combination the batch engine refuses by name (hands beside a face's count)
        batch_rules(variant)
    except perudo.GameSetupError:
        assume(False)
    return BatchTable(variant=variant, players=players, seed=draw(st.integers(0, 2**32)))
