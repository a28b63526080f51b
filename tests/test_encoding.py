"""perudo.encoding: action numbers and observation vectors, for every edition."""

from __future__ import annotations

import random

import attrs
import pytest
from helpers import SIX
from hypothesis import given

import perudo
from perudo import Bid, Calza, Declare, Dudo, EncodingError
from perudo.encoding import action_encoding, observation_encoding
from tests.strategies import Table, choose, moves, tables

EDITIONS = perudo.variant_names()


def tables_of(key: str) -> list[int]:
    variant = perudo.load_variant(key)
    return sorted({variant.players.min, min(4, variant.players.max), variant.players.max})


@pytest.mark.parametrize("key", EDITIONS)
def test_every_action_number_round_trips(key: str) -> None:
    for players in tables_of(key):
        encoding = action_encoding(key, players)
        assert len(set(encoding.actions)) == encoding.size
        for number in range(encoding.size):
            assert encoding.encode(encoding.decode(number)) == number
        for action in encoding.actions:
            assert encoding.decode(encoding.encode(action)) == action


@pytest.mark.parametrize("key", SIX)
def test_the_documented_layout(key: str) -> None:
    variant = perudo.load_variant(key)
    small, large = action_encoding(key, 2), action_encoding(key, variant.players.max)
    head = [Dudo()]
    if variant.has_pressure:
        head.append(Dudo(pressure=True))
    if variant.has_exact_call:
        head.append(Calza())
    head += [Declare(name) for name in variant.declarations]
    assert list(small.actions[: len(head)]) == head
    assert small.first_bid == len(head)
    step = 2 if variant.has_pressure else 1
    assert small.encode(Bid(3, 4)) == len(head) + step * (2 * 6 + 3)
    assert small.decode(small.size - 1).quantity == 2 * variant.dice.per_player  # type: ignore[union-attr]
    # A bid's number does not depend on the table: more players only add bids at the end.
    assert large.actions[: small.size] == small.actions


def test_editions_number_their_own_actions_only() -> None:
    italian, party, jonti = (
        action_encoding("italian", 4), action_encoding("wango-party", 4),
        action_encoding("french-jonti", 4),
    )  # fmt: skip
    assert italian.encode(Declare("palifico")) == 1
    assert italian.encode(Declare("ordinary")) == 2
    assert jonti.encode(Calza()) == 1
    assert jonti.encode(Declare("calzone")) == 2
    assert party.encode(Dudo(pressure=True)) == 1
    assert party.decode(party.encode(Bid(2, 2, pressure=True))) == Bid(2, 2, pressure=True)
    with pytest.raises(EncodingError, match=r"calza has no number.*Italian"):
        italian.encode(Calza())
    with pytest.raises(EncodingError, match="has no such action"):
        italian.encode(Bid(2, 2, pressure=True))
    with pytest.raises(EncodingError, match=r"21x3 has no number.*up to 20 dice"):
        italian.encode(Bid(21, 3))
    with pytest.raises(EncodingError, match="'3x3' is not an action"):
        italian.encode("3x3")  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 123, 10**9, "3", 2.0, True, None])
def test_bad_action_numbers_are_named(bad: object) -> None:
    encoding = action_encoding("italian", 4)
    with pytest.raises(EncodingError, match=repr(bad) if not isinstance(bad, int) else str(bad)):
        encoding.decode(bad)  # type: ignore[arg-type]


def test_numpy_integers_are_numbers() -> None:
    numpy = pytest.importorskip("numpy")
    assert action_encoding("italian", 4).decode(numpy.int64(0)) == Dudo()


@pytest.mark.parametrize(
    ("players", "message"), [(1, "2 to 10 players, not 1"), (11, "not 11"), ("4", "not '4'")]
)
def test_table_sizes_outside_the_edition_are_refused(players: object, message: str) -> None:
    with pytest.raises(perudo.GameSetupError, match=message):
        action_encoding("italian", players)  # type: ignore[arg-type]
    with pytest.raises(perudo.GameSetupError, match=message):
        observation_encoding("italian", players)  # type: ignore[arg-type]


def test_an_edition_of_one_table_size_says_so() -> None:
    with pytest.raises(perudo.GameSetupError, match=r"is played by 2 players, not 3$"):
        observation_encoding("openspiel-liars-dice", 3)


def test_unknown_editions_are_refused() -> None:
    with pytest.raises(perudo.UnknownVariantError):
        action_encoding("klingon", 4)


def test_masks_flag_exactly_the_actions() -> None:
    encoding = action_encoding("italian", 3)
    state = perudo.new_game("italian", 3, seed=2)
    mask = encoding.mask(state.legal_actions())
    assert len(mask) == encoding.size
    assert [encoding.decode(n) for n, flag in enumerate(mask) if flag] == sorted(
        state.legal_actions(), key=encoding.encode
    )
    assert encoding.encode_all(state.legal_actions()) == tuple(n for n, f in enumerate(mask) if f)


# --- observations ------------------------------------------------------------------------


def random_views(table: Table, rounds: int = 3):  # type: ignore[no-untyped-def]
    """Every seat's view along a random game (at most ``rounds`` rounds, and its end)."""
    rng = random.Random(table.seed)
    state = perudo.new_game(table.edition, table.players, seed=table.seed)
    while True:
        for seat in range(table.players):
            yield state.view(seat)
        if state.is_over or state.round_number > rounds:
            return
        action, seat = choose(rng, moves(state))
        state = state.apply(action, by=seat)


@pytest.mark.slow
@given(tables())
def test_every_view_round_trips_and_stays_in_bounds(table: Table) -> None:
    encoding = observation_encoding(table.edition, table.players)
    low, high = encoding.low, encoding.high
    for view in random_views(table):
        vector = encoding.encode(view)
        assert len(vector) == encoding.size
        assert all(lo <= v <= hi for lo, v, hi in zip(low, vector, high, strict=True))
        names = [seat.name for seat in view.seats]
        assert encoding.decode(vector, names) == view


@pytest.mark.parametrize("key", EDITIONS)
def test_whole_games_round_trip_to_their_end(key: str) -> None:
    players = min(3, perudo.load_variant(key).players.max)
    for seed in range(3):
        table = Table(key, players, seed)
        encoding = observation_encoding(key, players)
        views = list(random_views(table, rounds=10**6))
        assert views[-1].winners  # the game ended
        for view in views:
            vector = encoding.encode(view)
            decoded = encoding.decode(vector)
            assert decoded == view
            # a decoded view's bids are new values, not the interned ones: the same vector
            assert encoding.encode(decoded) == vector


def test_legal_actions_out_of_order_still_encode_each_one() -> None:
    """A hand-made view whose bids are not a run up to the dice in play: each flagged."""
    state = perudo.new_game("italian", 2, seed=1, first_player=0)
    view = attrs.evolve(state.view(0), legal_actions=(Bid(2, 3), Bid(10, 3)))
    encoding = observation_encoding("italian", 2)
    legal = encoding.field("legal")
    flags = encoding.encode(view)[legal.start : legal.stop]
    assert [k for k, v in enumerate(flags) if v] == sorted(
        encoding.actions.encode(b) for b in (Bid(2, 3), Bid(10, 3))
    )


def test_the_vector_does_not_see_other_hands() -> None:
    state = perudo.new_game("italian", 3, seed=4, first_player=0)
    other = state.with_dice([state.players[0].dice, (1, 1, 1, 1, 1), (6, 6, 6, 6, 6)])
    encoding = observation_encoding("italian", 3)
    assert encoding.encode(state.view(0)) == encoding.encode(other.view(0))
    assert encoding.encode(state.view(1)) != encoding.encode(other.view(1))


def test_seats_are_relative_to_the_viewer() -> None:
    state = perudo.new_game("italian", 3, seed=4, first_player=2)
    encoding = observation_encoding("italian", 3)
    to_act = encoding.field("to_act")
    for seat in range(3):
        vector = encoding.encode(state.view(seat))
        relative = vector[to_act.start : to_act.stop]
        assert relative.index(1) == (2 - seat) % 3


def test_fields_tile_the_vector() -> None:
    for key in EDITIONS:
        encoding = observation_encoding(key, min(4, perudo.load_variant(key).players.max))
        position = 0
        for field in encoding.fields:
            assert field.start == position
            position = field.stop
        assert position == encoding.size
    party, classic = observation_encoding("wango-party", 4), observation_encoding("wango", 4)
    assert party.field("score").length == 4
    assert classic.field("score").length == 0  # no points move: no constant entries
    with pytest.raises(EncodingError, match="'scores' is not a field"):
        classic.field("scores")


def test_bad_vectors_are_named() -> None:
    encoding = observation_encoding("italian", 2)
    good = encoding.encode(perudo.new_game("italian", 2, seed=1).view(0))
    with pytest.raises(EncodingError, match="3 entries does not fit"):
        encoding.decode([0, 1, 0])
    with pytest.raises(EncodingError, match="not a vector"):
        encoding.decode("0101")
    hand = encoding.field("hand").start
    with pytest.raises(EncodingError, match=f"entry {hand} \\('hand'\\) is 9"):
        encoding.decode([*good[:hand], 9, *good[hand + 1 :]])
    with pytest.raises(EncodingError, match=r"is 0\.5"):
        encoding.decode([*good[:hand], 0.5, *good[hand + 1 :]])
    with pytest.raises(EncodingError, match="'seat' must hold exactly one 1"):
        encoding.decode([0, 0, *good[2:]])
    with pytest.raises(EncodingError, match="2 names for 3 players"):
        observation_encoding("italian", 3).decode(
            observation_encoding("italian", 3).encode(perudo.new_game("italian", 3).view(0)),
            ["A", "B"],
        )


def test_views_of_another_table_are_refused() -> None:
    view = perudo.new_game("spanish", 3, seed=1).view(0)
    with pytest.raises(EncodingError, match="a view of spanish with 3 seats"):
        observation_encoding("spanish", 4).encode(view)
    with pytest.raises(EncodingError, match="a view of spanish"):
        observation_encoding("italian", 3).encode(view)
    with pytest.raises(EncodingError, match="is not a PlayerView"):
        observation_encoding("italian", 3).encode(perudo.new_game("italian", 3))  # type: ignore[arg-type]


def test_bids_beyond_the_table_are_refused() -> None:
    state = perudo.new_game("italian", 2, seed=1, first_player=0).apply(Bid(11, 3))
    with pytest.raises(EncodingError, match="11x3 has no number"):
        observation_encoding("italian", 2).encode(state.view(0))


def test_the_round_order_of_bids_survives() -> None:
    state = perudo.new_game("italian", 3, seed=9, first_player=0)
    for bid in (Bid(2, 3), Bid(2, 5), Bid(3, 2), Bid(2, 1)):
        state = state.apply(bid)
    encoding = observation_encoding("italian", 3)
    view = encoding.decode(encoding.encode(state.view(1)))
    assert [(p.player, p.bid) for p in view.bids] == [
        (0, Bid(2, 3)), (1, Bid(2, 5)), (2, Bid(3, 2)), (0, Bid(2, 1)),
    ]  # fmt: skip
    assert attrs.evolve(view, seats=state.view(1).seats) == state.view(1)


# Pinned: the numbering is a published interface (docs/editions/generated/encoding.md);
# changing it breaks trained agents, so it must show up here first.
PINNED = {
    "french-calza": ((62, 122, 182), 2),
    "french-jonti": ((63, 123, 183), 3),
    "italian": ((63, 123, 183), 3),
    "spanish": ((61, 121, 181), 1),
    "wango": ((61, 121, 181), 1),
    "wango-party": ((122, 242, 362), 2),
}


@pytest.mark.parametrize("key", SIX)
def test_the_numbering_is_pinned(key: str) -> None:
    sizes, first_bid = PINNED[key]
    assert tuple(action_encoding(key, n).size for n in (2, 4, 6)) == sizes
    assert action_encoding(key, 2).first_bid == first_bid


def test_bluff_numbers_its_rerolls_after_the_calls_and_before_the_bids() -> None:
    encoding = action_encoding("bluff", 3)
    assert encoding.acts_from == 1
    assert len(encoding.acts) == 209
    assert encoding.decode(1) == perudo.Act("reroll", (1,))
    assert encoding.decode(209) == perudo.Act("reroll", (6, 6, 6, 6))
    assert encoding.first_bid == 210
    assert encoding.decode(210) == Bid(1, 1)
    observations = observation_encoding("bluff", 3)
    assert observations.field("open").length == 18
    assert observations.field("acts").length == encoding.bid_count + 1


def test_openspiel_liars_dice_numbers_liar_then_its_twelve_bids() -> None:
    encoding = action_encoding("openspiel-liars-dice", 2)
    assert (encoding.size, encoding.first_bid) == (13, 1)
    assert encoding.decode(0) == Dudo()
    assert encoding.decode(12) == Bid(2, 6)


def test_the_observation_layout_is_pinned() -> None:
    encoding = observation_encoding("wango-party", 2)
    assert [(f.name, f.length) for f in encoding.fields] == [
        ("seat", 2), ("round", 1), ("hand", 6), ("hand_hidden", 1), ("dice", 2),
        ("starting_dice", 2), ("score", 2), ("pressure_left", 2), ("to_act", 2), ("may_call", 2),
        # special_round and offers count what the edition does, not names (issue 14):
        # WANGO party mode has no special round and offers no declaration.
        ("face_changers", 2), ("special_round", 0), ("special_player", 2),
        ("owed", 0),  # editions whose special round queues
        ("offers", 0),
        ("must_declare", 1), ("wild", 1), ("bids", 240),
        ("claims", 0),  # editions whose exact call stands in the bid chain (a Bull)
        ("passes", 0),  # editions with a pass
        ("doubts", 0),  # editions whose challenge is all around
        ("legal", 122), ("last", 1), ("last_call", 2), ("last_claim", 0),
        ("last_quantity", 1), ("last_face", 6), ("last_pressure", 1), ("last_caller", 2),
        ("last_bidder", 2), ("last_count", 1), ("last_revealed", 2), ("last_hidden", 2),
        ("last_hands", 12), ("last_wild", 1), ("last_loser", 2), ("last_gainer", 2),
        ("last_points", 1), ("last_eliminated", 2), ("last_changes", 0), ("winners", 2),
        ("open", 0), ("acts", 0), ("seen", 0), ("seen_by", 0),  # editions with actions
    ]  # fmt: skip
    assert encoding.size == 432
    italian = observation_encoding("italian", 2)
    assert (italian.field("special_round").length, italian.field("offers").length) == (1, 2)
    bull = observation_encoding("bull-and-burst", 2)  # 10 dice, 6 faces: 60 bids, 2 seats
    assert [(f.name, f.length, f.high) for f in bull.fields if f.name in ("bids", "claims")] == [
        ("bids", 120, 120), ("claims", 120, 120),  # a position per bid and per claim
    ]  # fmt: skip
    assert bull.field("last_claim").length == 1


@pytest.mark.parametrize("key", EDITIONS)
def test_the_round_entry_is_bounded_by_the_rules_or_the_cap(key: str) -> None:
    """No entry is bounded by 2**31 - 1: the round entry's highest value is the most
    rounds the edition's rules allow, or ROUND_CAP where an exact call may win a die back;
    every round of whole random games stays within it."""
    from perudo.encoding import ROUND_CAP, ROUND_LIMIT

    variant = perudo.load_variant(key)
    for players in tables_of(key):
        encoding = observation_encoding(key, players)
        high = encoding.field("round").high
        assert high == (variant.most_rounds(players) or ROUND_CAP)
        assert max(encoding.high) < ROUND_LIMIT
        scoring = variant.scoring  # unbounded: an exact call or a burst may win a die back,
        unbounded = (  # or calls move points (lives) with no round limit of the scoring's
            variant.has_exact_call
            or getattr(scoring, "gives_dice", False)
            or (not scoring.moves_dice and scoring.round_limit(players) is None)
        )
        assert (high == ROUND_CAP) == unbounded
        for seed in range(3):
            views = list(random_views(Table(key, players, seed), rounds=10**6))
            assert max(view.round_number for view in views) <= high


def test_a_game_past_the_cap_reads_the_cap() -> None:
    """A French game longer than ROUND_CAP rounds (which no random game comes near): its
    views read the cap, in the single encoder and in the batch engine alike."""
    from perudo.encoding import ROUND_CAP

    encoding = observation_encoding("french-calza", 3)
    state = perudo.new_game("french-calza", 3, seed=1)
    long = attrs.evolve(state, round_number=ROUND_CAP + 7)
    vector = encoding.encode(long.view(0))
    assert vector[encoding.field("round").start] == ROUND_CAP
    assert encoding.decode(vector).round_number == ROUND_CAP
    assert encoding.encode(state.view(0))[encoding.field("round").start] == 1
    pytest.importorskip("numba", reason="the batch engine needs the extra perudo[batch]")
    from perudo.batch import BatchGames

    table = BatchGames.new("french-calza", 3, batch=2, seed=1)
    table.round_number[:] = [ROUND_CAP + 7, 12]
    rounds = table.observe(0)[:, encoding.field("round").start]
    assert rounds.tolist() == [ROUND_CAP, 12]
