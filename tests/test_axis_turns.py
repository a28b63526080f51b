"""The turns axis: who may bid or challenge out of turn (a burst), and how every part of
perudo plays it: the engine, views, records, bots, the turn-based adapters."""

from __future__ import annotations

import random
from pathlib import Path
from typing import ClassVar

import attrs
import pytest
from helpers import context, game, play

import perudo
from perudo import Bid, Dudo, IllegalActionError
from perudo.rules import Burst, InTurn, RoundContext, Violation, Words, register_kind

BURST = Burst(bid=True, challenge=True)
ROUND = context((5, 5, 5, 5), bids=[(1, "3x4")], to_act=2)


@pytest.mark.parametrize(
    ("kind", "role", "player", "round_context", "reason"),
    [
        (InTurn(), "bid", 0, ROUND, "not-your-turn"),  # nothing open out of turn
        (BURST, "bid", 0, ROUND, None),  # "make a higher legal bid out of normal turn order"
        (BURST, "challenge", 3, ROUND, None),  # "A player may Burst Dudo out of turn"
        (BURST, "bid", 1, ROUND, "not-your-turn"),  # the standing bid is its own (a reading)
        (BURST, "challenge", 0, context((5, 5, 5, 5), to_act=2), "not-your-turn"),  # no bid
        (Burst(bid=False, challenge=True), "bid", 0, ROUND, "not-your-turn"),
    ],
)
def test_who_may_act_out_of_turn(
    kind: InTurn | Burst, role: str, player: int, round_context: RoundContext, reason: str | None
) -> None:
    violation = kind.check(role, player, round_context)
    assert (None if violation is None else violation.reason) == reason


def test_the_roles_open_out_of_turn() -> None:
    assert InTurn().out_of_turn == ()
    assert BURST.out_of_turn == ("bid", "challenge")
    assert Burst(bid=False, challenge=True).out_of_turn == ("challenge",)


def burst_edition(scoring: str = "elimination") -> perudo.Variant:
    """Italian with bursts: any player may bid or challenge out of turn."""
    return perudo.load_variant("italian").derive(
        "italian-burst", reason="a table that bursts",
        turns={"kind": "burst", "bid": True, "challenge": True},
        scoring={"kind": scoring},
    )  # fmt: skip


HANDS = [[2, 3, 4, 5, 5], [1, 3, 3, 6, 6], [2, 2, 4, 4, 6], [1, 5, 5, 5, 6]]


def test_a_burst_bid_passes_the_turn_to_the_left_of_its_bidder() -> None:
    state = play(game(burst_edition(), HANDS), "2x5")  # seat 0 bid; seat 1 to act
    assert state.to_act == 1
    assert Bid(3, 5) in state.legal_actions(by=3)
    assert state.legal_actions(by=0) == ()  # the bidder waits
    after = state.apply(Bid(3, 5), by=3)  # seat 3 bursts in
    assert (after.to_act, after.bidder) == (0, 3)  # "resumes with the player AFTER the LAST BURST"
    assert after.log.moves[-1] == (3, Bid(3, 5))


def test_a_burst_challenge_is_a_challenge_made_out_of_turn() -> None:
    state = play(game(burst_edition("elimination-burst"), HANDS), "2x5", "9x5")
    ended = state.apply(Dudo(), by=3)  # seat 2 to act; seat 3 bursts in on seat 1's 9x5
    result = ended.last_result
    assert result is not None
    assert (result.caller, result.bidder, result.count) == (3, 1, 7)  # five 5s and two ones
    assert result.changes == (0, -1, 0, 0)  # 9x5 was false: seat 1 loses a die; seat 3 holds five
    wrong = play(game(burst_edition("elimination-burst"), HANDS), "2x5").apply(Dudo(), by=2)
    assert wrong.last_result is not None
    assert wrong.last_result.changes == (0, 0, -1, 0)  # 2x5 stood: the burst challenger loses


def test_a_right_burst_challenger_below_its_start_wins_a_die() -> None:
    hands = [[2, 3, 4, 5, 5], [1, 3, 3, 6, 6], [2, 2, 4, 4, 6], [1, 5, 6]]
    state = play(game(burst_edition("elimination-burst"), hands), "2x5", "9x5")
    result = state.apply(Dudo(), by=3).last_result
    assert result is not None
    assert result.changes == (0, -1, 0, 1)


def test_an_out_of_turn_move_the_turns_kind_does_not_open_is_refused() -> None:
    state = play(game("italian", HANDS), "2x5")
    with pytest.raises(IllegalActionError) as refused:
        state.apply(Bid(3, 5), by=3)
    assert refused.value.reason == "not-your-turn"
    assert state.legal_actions(by=3) == ()
    challenge_only = perudo.load_variant("italian").derive(
        "italian-burst-dudo", reason="t", turns={"kind": "burst", "bid": False, "challenge": True}
    )
    state = play(game(challenge_only, HANDS), "2x5")
    assert state.legal_actions(by=3) == (Dudo(),)
    with pytest.raises(IllegalActionError, match="it is Player 2's turn"):
        state.apply(Bid(3, 5), by=3)
    with pytest.raises(IllegalActionError, match="the standing bid is your own"):
        state.apply(Dudo(), by=0)


def test_legal_actions_and_apply_agree_out_of_turn() -> None:
    """Random burst games: every action listed for any seat applies, and a move refused
    for a seat is never listed for it."""
    edition = burst_edition("elimination-burst")
    rng = random.Random(7)
    for seed in range(15):
        state = perudo.new_game(edition, 4, seed=seed)
        while not state.is_over:
            seat = rng.choice(state.seats_in)
            legal = state.legal_actions(by=seat)
            for action in (Dudo(), Bid(state.dice_in_play, 6)):
                assert (state.check(action, by=seat) is None) == (action in legal)
            if not legal:
                continue
            state = state.apply(rng.choice(legal), by=seat)


def test_records_replay_bursts() -> None:
    edition = burst_edition("elimination-burst")
    bots = [perudo.bots.OddsBot(seed=seat) for seat in range(4)]
    for seed in range(4):
        state = perudo.new_game(edition, 4, seed=seed)
        while not state.is_over:
            _, _, state = perudo.match.play_move(state, bots)
        record = perudo.GameRecord.from_state(state)
        assert perudo.GameRecord.from_json(record.to_json()).replay(edition) == state
        assert perudo.GameRecord.from_text(record.to_text()).replay(edition) == state


def test_bots_burst_now_and_then() -> None:
    edition = burst_edition("elimination-burst")
    bots = [perudo.bots.OddsBot(seed=seat) for seat in range(4)]
    bursts = 0
    for seed in range(10):
        state = perudo.new_game(edition, 4, seed=seed)
        while not state.is_over:
            to_act = state.to_act
            seat, _, state = perudo.match.play_move(state, bots)
            bursts += seat != to_act
    assert bursts > 0


def test_the_turn_based_adapters_ask_every_seat_that_may_burst() -> None:
    from perudo.interop.turns import Turns

    turns = Turns.start(game(burst_edition(), HANDS)).apply(Bid(2, 5))
    assert turns.asking == (2, 3)  # seat 1 is to act; the bidder is not asked
    assert Bid(3, 5) in turns.legal_actions()
    assert turns.legal_actions()[-1] is None  # or let it go
    burst = turns.apply(Bid(3, 5))
    assert (burst.state.bidder, burst.state.to_act) == (2, 3)


def test_openspiel_plays_a_burst_declaration(tmp_path: Path) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    import perudo.interop.openspiel  # noqa: F401  (registers python_perudo)

    path = tmp_path / "burst.toml"
    path.write_text(
        'schema = 1\nextends = "italian"\nkey = "italian-burst"\nname = "Italian, bursts"\n'
        '[turns]\nkind = "burst"\nbid = true\nchallenge = true\nprovenance = "reading"\n'
        'reason = "a table that bursts"\n',
        encoding="utf-8",
    )
    game_ = pyspiel.load_game("python_perudo", {"declaration": str(path), "players": 3})
    pyspiel.random_sim_test(game_, num_sims=2, serialize=True, verbose=False)


def test_the_batch_engine_plays_a_burst_as_gamestate_does() -> None:
    """Bids and challenges out of turn, every seat's mask compared with GameState's at
    every step (where the batch extra is installed)."""
    pytest.importorskip("numba", reason="the batch extra is not installed")
    from batch_reference import compare

    assert compare(burst_edition(), 4, 30, seed=4, observe=3) > 60


@attrs.frozen
class _Shouting:
    """Anyone shouts anything out of turn."""

    axis: ClassVar[str] = "turns"
    kind: ClassVar[str] = "test-shouting"

    @property
    def out_of_turn(self) -> tuple[str, ...]:
        return ("shout",)

    def check(self, role: str, player: int, context: RoundContext) -> Violation | None:
        return None

    def describe(self, words: Words, dice: int) -> str:
        return "Anyone shouts."

    def label(self, words: Words) -> str:
        return "shout"


def test_a_turns_kind_that_opens_an_unknown_role_is_refused() -> None:
    register_kind(_Shouting)
    with pytest.raises(perudo.InvalidVariantError, match="test-shouting"):
        perudo.load_variant("italian").derive(
            "italian-shout", reason="t", turns={"kind": "test-shouting"}
        )


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
def test_pettingzoo_asks_every_seat_that_may_burst() -> None:
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
    from pettingzoo.test import api_test

    from perudo.interop.pettingzoo import perudo_env

    api_test(perudo_env(burst_edition("elimination-burst"), 4), num_cycles=300)


def test_a_derived_edition_says_its_bursts_and_each_reason_once() -> None:
    edition = perudo.load_variant("italian").derive(
        "italian-burst", reason="a table that bursts",
        turns={"kind": "burst", "bid": True, "challenge": True},
        first_player={"kind": "random", "provenance": "reading", "reason": "drawn"},
    )  # fmt: skip
    assert "any other player still in may bid over it or call Dubito on it" in edition.summary
    assert edition.source == "derived from Italian Palifico (italian): a table that bursts; drawn"
    assert (
        "out of turn"
        not in perudo.load_variant("italian")
        .derive("italian-capped", reason="t", cap={"kind": "dice-in-play"})
        .summary
    )  # leaving the turns out goes without saying


def test_a_web_table_takes_a_burst_from_a_person_who_is_not_to_act(tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from perudo.web import Table, TableSetup, TableStore

    class Clock:
        now = 100.0

        def __call__(self) -> float:
            return self.now

    edition = burst_edition("elimination-burst")
    store = TableStore(tmp_path / "perudo.sqlite")
    setup = TableSetup(variant=edition.key, bots=(None, None, None), seed=3, timeout=30.0)
    table = Table.create(store, bytes(range(32)), "t1", setup, edition, clock=Clock())
    for seat in range(3):
        table.join(f"P{seat}")
    opener = table.state.to_act
    assert opener is not None
    assert table.play(opener, "2x3") is None
    burster = next(s for s in range(3) if s not in (opener, table.state.to_act))
    assert "3x3" in table.message(burster)["legal"]  # offered to the seat not to act
    assert table.play(burster, "3x3") is None
    assert (table.state.bidder, table.state.to_act) == (burster, table.state.left_of(burster))
    row = next(iter(store.tables()))
    table_again = Table.load(store, bytes(range(32)), row, {edition.key: edition}, clock=Clock())
    assert table_again.state == table.state  # saved, burst and all
