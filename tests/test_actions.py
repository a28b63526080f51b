"""The actions axis as an open protocol: an action a user declares (a peek under the left
neighbour's cup, not the re-roll), its chance, what each player may know of it, its record,
its encodings and its OpenSpiel chance node; a kind that breaks the protocol is named."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import ClassVar

import attrs
import pytest
from strategies import choose, moves

import perudo
from perudo import Act, GameRecord, GameSetupError, IllegalActionError, InvalidVariantError
from perudo.dice import pick
from perudo.encoding import action_encoding, observation_encoding
from perudo.players import Glimpse
from perudo.rules import ActEffect, RoundContext, Violation, Words


@perudo.register_kind
@attrs.frozen
class Peek:
    """Once a round, on their turn, a player may look at one die under the cup of the
    player to their left, drawn at random; that player is told which die was seen."""

    axis: ClassVar[str] = "actions"
    kind: ClassVar[str] = "test-peek"

    @property
    def words(self) -> tuple[str, ...]:
        return ("peek",)

    @property
    def out_of_turn(self) -> bool:
        return False

    def moves(self, player: int, cup: tuple[int, ...], context: RoundContext) -> tuple[Act, ...]:
        peek = Act("peek")
        return (peek,) if self.check(peek, player, cup, context) is None else ()

    def check(
        self, action: Act, player: int, cup: tuple[int, ...], context: RoundContext
    ) -> Violation | None:
        if action.numbers:
            return Violation("malformed-peek", f"{action}: write 'peek', with no number")
        if context.to_act != player:
            return Violation("not-your-turn", "you peek on your own turn")
        if any(done.player == player for done in context.acts):
            return Violation("already-peeked", "you have peeked this round already")
        left = context.left_of(player)
        if left == player or context.dice[left] == len(context.open_dice(left)):
            return Violation("nothing-to-peek", "no die is under your left neighbour's cup")
        return None

    def effect(
        self, action: Act, player: int, cup: tuple[int, ...], context: RoundContext
    ) -> ActEffect:
        return ActEffect(look_at=context.left_of(player))

    def every_move(self, dice: int, faces: int) -> tuple[Act, ...]:
        return (Act("peek"),)

    def describe(self, words: Words, dice: int) -> str:
        return "Once a round, on their turn, a player may peek under the left cup."

    def label(self, words: Words) -> str:
        return "peek"


@perudo.register_kind
@attrs.frozen
class Cheat(Peek):
    """A broken kind: it puts out a die nobody holds."""

    kind: ClassVar[str] = "test-cheat"

    def effect(
        self, action: Act, player: int, cup: tuple[int, ...], context: RoundContext
    ) -> ActEffect:
        return ActEffect(put_out=(99,))


HANDS = [[2, 3, 4, 5, 5], [1, 1, 6, 6, 6], [2, 2, 3, 3, 4]]


def peeking() -> perudo.Variant:
    return perudo.load_variant("italian").derive(
        "italian-test-peek", reason="A house rule: a peek a round.", actions=Peek()
    )


def table(seed: int = 1) -> perudo.GameState:
    return perudo.new_game(peeking(), 3, seed=seed, dice=HANDS, first_player=0)


def test_a_user_action_is_listed_checked_and_refused_with_its_reasons() -> None:
    state = table()
    assert state.legal_actions()[-1] == Act("peek")
    assert state.legal_actions(by=1) == ()  # not out of turn
    reasons = {
        (Act("peek"), 1): "not-your-turn",
        (Act("peek", (1,)), 0): "malformed-peek",
        (Act("reroll", (2,)), 0): "no-such-action",
    }
    for (action, seat), reason in reasons.items():
        with pytest.raises(IllegalActionError) as caught:
            state.apply(action, by=seat)
        assert caught.value.reason == reason
    after = state.apply(Act("peek"))
    assert after.check(Act("peek")).reason == "already-peeked"  # type: ignore[union-attr]
    assert after.to_act == 0  # still Ana's turn: she bids next
    assert after.is_legal(perudo.Bid(1, 2))


def test_the_die_seen_comes_from_the_seed_and_only_two_seats_know_it() -> None:
    state = table().apply(Act("peek"))
    face = HANDS[1][pick(state.seed, 1, 0, 5)]
    seen = Glimpse(0, 1, face)
    assert state.seen == (seen,)
    assert state.view(0).seen == state.view(1).seen == (seen,)
    assert state.view(2).seen == ()
    assert state.public_view().seen == ()
    assert state.view(2).acts == state.view(0).acts  # that Ana peeked is seen by all
    assert f"Seen: Player 1 saw a {face} under Player 2's cup" in state.view(1).draw()
    assert "Seen" not in state.view(2).draw()
    assert json.loads(json.dumps(state.view(0).to_dict()))["seen"] == [
        {"seer": 0, "owner": 1, "face": face}
    ]
    later = perudo.new_game(peeking(), 3, seed=2, dice=HANDS, first_player=0).apply(Act("peek"))
    assert {table(seed).apply(Act("peek")).seen[0].face for seed in range(20)} == {1, 6}
    assert later.round_number == 1


def test_no_view_of_a_third_seat_depends_on_the_dice_under_the_cups() -> None:
    rng = random.Random(3)
    for seed in range(30):
        state = perudo.new_game(peeking(), 3, seed=seed)
        for _ in range(12):
            if state.is_over:
                break
            peeks = [pair for pair in moves(state) if isinstance(pair[0], Act)]
            action, seat = peeks[0] if peeks else choose(rng, moves(state))
            state = state.apply(action, by=seat)
            for viewer in range(3):  # redraw every cup but the viewer's and the dice it saw
                saw = {g.owner for g in state.seen if g.seer == viewer}
                saw |= {g.seer for g in state.seen if g.owner == viewer}
                other = attrs.evolve(
                    state,
                    players=tuple(
                        p if s == viewer or s in saw or not p.dice
                        else attrs.evolve(p, dice=tuple(sorted(rng.randint(1, 6) for _ in p.dice)))
                        for s, p in enumerate(state.players)
                    ),
                )  # fmt: skip
                assert repr(other.view(viewer)) == repr(state.view(viewer))


def test_chance_nodes_rolled_and_records_replay_the_die_seen() -> None:
    state = table()
    assert state.chance_nodes(Act("peek")) == ((1, 1, 6, 6, 6),)  # a 6 three times in five
    assert state.chance_nodes(perudo.Bid(1, 2)) == ()
    given = state.apply(Act("peek"), rolled=[1])
    assert given.seen == (Glimpse(0, 1, 1),)
    for rolled, match in [([2], "no 2 under its cup"), ([1, 1], "2 faces for 1"), ([9], "face")]:
        with pytest.raises(GameSetupError, match=match):
            state.apply(Act("peek"), rolled=rolled)
    finished = given.apply(perudo.Bid(2, 6)).apply(perudo.Dudo())
    record = GameRecord.from_state(finished)
    assert record.rolls == ((1, (1,)),)
    assert "1 0 peek -> 1" in record.to_text()
    assert GameRecord.from_json(record.to_json()).replay(peeking()) == finished
    assert finished.seen == ()  # a new round: nothing seen yet


def test_encodings_number_the_action_and_carry_what_was_seen() -> None:
    variant = peeking()
    actions = action_encoding(variant, 3)
    assert actions.acts == (Act("peek"),)
    assert actions.decode(actions.acts_from) == Act("peek")
    observations = observation_encoding(variant, 3)
    state = table().apply(Act("peek"))
    for seat in range(3):
        view = state.view(seat)
        assert observations.decode(observations.encode(view)) == view
    seen = observations.field("seen")
    assert sum(observations.encode(state.view(0))[seen.start : seen.stop]) == 1
    assert sum(observations.encode(state.view(2))[seen.start : seen.stop]) == 0


def test_a_kind_that_breaks_the_protocol_is_named() -> None:
    broken = perudo.load_variant("italian").derive("italian-cheat", reason="T.", actions=Cheat())
    state = perudo.new_game(broken, 3, seed=1, dice=HANDS, first_player=0)
    with pytest.raises(InvalidVariantError, match="actions:test-cheat"):
        state.apply(Act("peek"))


def test_the_axis_is_compared_and_described() -> None:
    comparison = perudo.compare("bluff", "wango")
    assert "actions" in comparison.differing
    assert "re-roll" in perudo.load_variant("bluff").describe("actions")
    assert perudo.load_variant("bluff").provenance_of("actions").kind == "reading"
    assert perudo.load_variant("italian").provenance_of("actions").kind == "inherited"
    assert "actions" not in perudo.load_variant("italian").to_dict()  # left out: none


def test_an_act_is_well_formed_or_refused() -> None:
    assert str(Act("reroll", [2, 5])) == "reroll 2 5"
    for word, numbers in [("Dudo", ()), ("dudo", ()), ("x" * 21, ()), ("a b", ()),
                          ("peek", (-1,)), ("peek", (10_000,)), ("peek", (1,) * 21),
                          ("peek", (True,)), (3, ())]:  # fmt: skip
        with pytest.raises(IllegalActionError) as caught:
            Act(word, numbers)  # type: ignore[arg-type]
        assert caught.value.reason == "malformed-action"


def test_openspiel_draws_the_die_seen_at_a_chance_node_weighted_by_the_cup(
    tmp_path: Path,
) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    import perudo.interop.openspiel  # noqa: F401  registers python_perudo

    path = tmp_path / "peek.toml"  # a declaration of one's own, naming this file's kind
    path.write_text(_toml(peeking()), encoding="utf-8")
    game = pyspiel.load_game("python_perudo", {"declaration": str(path), "players": 3})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    peek = game.table.numbers.encode(Act("peek"))
    assert peek in state.legal_actions()
    seer = state.current_player()
    owner = state.turns.state.left_of(seer)
    under = state.turns.state.players[owner].cup
    state.apply_action(peek)
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {face - 1: under.count(face) / len(under) for face in set(under)}
    face = max(outcomes) + 1
    state.apply_action(face - 1)
    assert state.turns.state.seen == (Glimpse(seer, owner, face),)
    assert f"saw:{owner}:{face}" in state.information_state_string(seer)
    assert f"seen:{seer}:{face}" in state.information_state_string(owner)
    third = 3 - seer - owner
    assert "saw" not in state.information_state_string(third)
    assert "seen" not in state.information_state_string(third)
    # A resample (IS-MCTS) keeps the die for the two who know it, and draws it for the third.
    draw, glimpsed = random.Random(2).random, set()
    for _ in range(30):
        for player in (seer, owner):
            other = state.resample_from_infostate(player, draw)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.turns.state.seen == (Glimpse(seer, owner, face),)
            assert face in other.turns.state.players[owner].cup
        other = state.resample_from_infostate(third, draw)
        assert other.information_state_string(third) == state.information_state_string(third)
        (glimpse,) = other.turns.state.seen
        assert glimpse.face in other.turns.state.players[owner].cup
        glimpsed.add(glimpse.face)
    assert len(glimpsed) > 2
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def _toml(variant: perudo.Variant) -> str:
    """A declaration file of ``variant``: TOML written by hand (no TOML writer is needed)."""
    lines = []
    data = variant.to_dict()
    tables = {k: v for k, v in data.items() if isinstance(v, dict)}
    for key, value in data.items():
        if not isinstance(value, dict):
            lines.append(f"{key} = {json.dumps(value)}")
    for name, table_ in tables.items():
        lines.append(f"[{name}]")
        for key, value in table_.items():
            if isinstance(value, dict):
                inner = ", ".join(f"{k} = {json.dumps(v)}" for k, v in value.items())
                lines.append(f"{key} = {{ {inner} }}")
            else:
                lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join(lines) + "\n"


def test_a_pressured_bid_keeps_the_bidders_open_dice_out() -> None:
    """Regression: a pressured bid rebuilt the bidder's ``Player`` positionally, without the
    field ``open`` added later: the die put out went back under the cup, in every view, and
    the re-roll offered it again."""
    party = perudo.load_variant("wango-party").derive(
        "party-reroll", reason="a test", actions={"kind": "reroll"}
    )
    state = perudo.new_game(party, 3, seed=5, first_player=0)
    for seat, move in [(0, "1x3"), (0, "reroll 1"), (1, "2x3"), (2, "3x3")]:
        state = state.apply(perudo.parse_action(move, variant=party), by=seat)
    assert state.players[0].open == (1,)
    cup, pressure = state.players[0].cup, state.players[0].pressure_left
    state = state.apply(perudo.parse_action("4x3!", variant=party), by=0)  # pressured
    assert state.players[0].pressure_left == pressure - 1
    assert state.players[0].open == (1,)  # still out in the open
    assert state.public_view().seats[0].open == (1,)
    assert state.players[0].cup == cup  # the re-roll offers the dice under the cup alone
