"""Player views: what each player may see, and that nothing else leaks."""

from __future__ import annotations

import json
import random

import attrs
import pytest
from helpers import game, play
from hypothesis import given
from hypothesis import strategies as st
from strategies import Table, any_action, choose, moves, tables

import perudo
from perudo import Bid, Calza, Declare, GameState, IllegalActionError

FIVE = [2, 3, 4, 5, 6]


def test_a_view_shows_own_dice_and_only_counts_of_the_others() -> None:
    state = game("italian", [[1, 1, 2, 3, 4], [5, 5, 6, 6, 6], [2, 2]])
    view = state.view(1)
    assert view.player == 1
    assert view.dice == (5, 5, 6, 6, 6)
    assert [seat.dice_count for seat in view.seats] == [5, 5, 2]
    assert view.unseen == 7
    assert view.to_act == 0
    assert view.legal_actions == ()
    assert state.view(0).legal_actions == state.legal_actions()
    text = repr(view) + json.dumps(view.to_dict())
    assert "1, 1, 2, 3, 4" not in text
    assert "[1, 1, 2, 3, 4]" not in text


def test_view_lists_who_may_call_out_of_turn() -> None:
    hands = [[4, 4], [4, 2, 3], [4, 2, 2, 3], [4, 5], [4, 2, 2, 3, 3]]
    state = play(game("french-jonti", hands, first=1), "3x4")
    assert state.view(4).may_call == (2, 3)
    assert Calza() in state.view(3).legal_actions
    assert Calza() not in state.view(4).legal_actions


def test_view_to_dict_is_json() -> None:
    state = play(game("wango-party", [FIVE, FIVE, FIVE]), "2x3!", "dudo")
    data = state.view(2).to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["variant"] == "wango-party"
    assert data["last_result"]["points"] == [3, -3, 0]
    assert data["legal_actions"] == []
    assert state.view(state.to_act).to_dict()["legal_actions"][0] == "1x2"  # type: ignore[arg-type]


def test_italian_hands_not_shown_stay_hidden_in_every_view() -> None:
    hands = [[6, 6, 6, 6, 6], [2, 2, 2, 2, 2], [3, 3, 3, 3, 3], [4, 4, 4, 4, 4]]
    state = play(game("italian", hands), "2x6", "dudo")
    for seat in range(4):
        result = state.view(seat).last_result
        assert result is not None
        assert result.revealed == (2, 3, 0)
        assert result.hands[1] is None
        assert "2, 2, 2, 2, 2" not in repr(state.view(seat))


def test_italian_two_player_choice_hides_the_die_until_declared() -> None:
    state = play(game("italian", [[2, 3, 4, 5, 5], [2, 3]], first=1), "9x6", "dudo")
    assert state.must_declare
    view = state.view(1)
    assert view.dice_hidden
    assert view.dice == ()
    assert set(view.legal_actions) == {Declare("palifico"), Declare("ordinary")}
    assert state.view(0).dice == state.players[0].dice
    after = state.apply(Declare("palifico"))
    assert after.view(1).dice == after.players[1].dice
    assert not after.view(1).dice_hidden


def test_view_of_an_unknown_seat_is_refused() -> None:
    with pytest.raises(IllegalActionError):
        game("italian", [FIVE, FIVE]).view(5)


# --- the no-leak property -----------------------------------------------------------------


def strings_for(
    state: GameState, player: int, probes: list[tuple[perudo.Action, int]]
) -> list[str]:
    """Everything ``player`` can obtain as text: the view, its JSON, its legal actions, the
    refusals of the player's own attempts (message, args, repr)."""
    view = state.view(player)
    out = [repr(view), json.dumps(view.to_dict(), sort_keys=True)]
    out += [str(action) for action in view.legal_actions]
    if view.last_result is not None:
        out.append(str(view.last_result))
    for action, seat in probes:
        if seat != player:
            continue
        try:
            state.apply(action, by=seat)
        except IllegalActionError as error:
            out += [str(error), repr(error.args), error.reason]
    return out


def reshuffle(state: GameState, player: int, rng: random.Random, keep: set[int]) -> GameState:
    """The same position with every hand but ``player``'s and ``keep``'s redrawn under the
    cup (dice in the open, seen by all, stay as they are)."""
    players = tuple(
        p if seat == player or seat in keep or not p.dice
        else attrs.evolve(p, dice=tuple(sorted([*p.open, *(rng.randint(1, 6) for _ in p.cup)])))
        for seat, p in enumerate(state.players)
    )  # fmt: skip
    return attrs.evolve(state, players=players)


def check_no_leak(state: GameState, rng: random.Random) -> None:
    probes = [(any_action(rng, state.dice_in_play, capped=True), rng.randrange(len(state.players)))]
    probes += [(Bid(1, rng.randint(1, 6)), state.to_act or 0)]
    reroll = perudo.Act("reroll", (rng.randint(1, 6),))  # Bluff's, refused or not by seat
    probes += [(reroll, seat) for seat in range(len(state.players))]
    for player in state.seats_in:
        other = reshuffle(state, player, rng, keep=set())
        assert strings_for(state, player, probes) == strings_for(other, player, probes)


@pytest.mark.slow
@given(tables(max_players=5), st.randoms(use_true_random=False))
def test_no_view_or_message_depends_on_hidden_dice(table: Table, rng: random.Random) -> None:
    state = perudo.new_game(table.edition, table.players, seed=table.seed)
    steps = 0
    while not state.is_over and steps < 60:
        check_no_leak(state, rng)
        action, seat = choose(rng, moves(state))
        after = state.apply(action, by=seat)
        result = after.last_result
        if result is not None and result is not state.last_result and not after.is_over:
            # Hands a call left hidden (Italian) must not show in what follows either.
            hidden = {s for s, hand in enumerate(result.hands) if hand is None}
            if hidden:
                keep = set(range(len(state.players))) - hidden
                other = reshuffle(state, -1, rng, keep=keep).apply(action, by=seat)
                for player in after.seats_in:
                    assert strings_for(after, player, []) == strings_for(other, player, [])
        state = after
        steps += 1


def test_no_view_depends_on_the_dice_under_other_cups_with_dice_in_the_open() -> None:
    # Bluff's re-roll puts dice in the open and re-rolls the rest: positions with open dice
    # and re-rolled cups, reached on purpose (every bidder re-rolls when it can).
    rng = random.Random(5)
    opened = 0
    for seed in range(12):
        state = perudo.new_game("bluff", 2 + seed % 4, seed=seed)
        for _ in range(40):
            if state.is_over:
                break
            check_no_leak(state, rng)
            opened += any(player.open for player in state.players)
            pairs = moves(state)
            rerolls = [pair for pair in pairs if isinstance(pair[0], perudo.Act)]
            action, seat = rng.choice(rerolls) if rerolls else choose(rng, pairs)
            state = state.apply(action, by=seat)
    assert opened > 100
