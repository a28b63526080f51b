"""Palifico (Italian, French), Palafico (Spanish) and Calzone (French Jonti)."""

from __future__ import annotations

import random
from typing import ClassVar

import attrs
import pytest
from helpers import game, play

import perudo
from perudo import Bid, Declare, Dudo, IllegalActionError
from perudo.rules import OneDieRound, RoundStart, SettledCall

FIVE = [2, 3, 4, 5, 6]
NO_SIXES = [2, 3, 4, 5, 5]


def drop_to_one(
    edition: str, players: int = 4, *, one_die: tuple[int, ...] = ()
) -> perudo.GameState:
    """Seat 1 (two dice) bids 9x6 on a table with no six and no one, and loses a die.

    Seats in ``one_die`` hold one die from the start.
    """
    hands = [[2] if seat in one_die else list(NO_SIXES) for seat in range(players)]
    hands[1] = [2, 3]
    state = game(edition, hands, first=1)
    return play(state, "9x6", "dudo")


def refusal(state: perudo.GameState, action: perudo.Action, by: perudo.Seat = perudo.TO_ACT) -> str:
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action, by=by)
    return caught.value.reason


# --- Italian Palifico --------------------------------------------------------------------


def test_italian_palifico_follows_a_drop_to_one_die() -> None:
    state = drop_to_one("italian")
    assert len(state.players[1].dice) == 1
    assert state.special_round == "palifico"
    assert state.special_player == 1
    assert state.to_act == 1  # the loser starts as usual
    assert state.context.wild is None
    assert state.players[1].had_special


def test_italian_palifico_ones_are_not_wild_and_opening_on_ones_is_refused() -> None:
    state = drop_to_one("italian")
    assert refusal(state, Bid(1, 1)) == "ones-on-opening"
    state = state.with_dice([[1, 1, 6, 6, 6], [6], [1, 1, 1, 2, 3], [1, 1, 4, 5, 5]])
    state = play(state, "5x6", "dudo")
    result = state.last_result
    assert result is not None
    assert result.wild is None
    assert result.count == 4  # four sixes: the seven ones do not count
    assert result.loser == 1


def test_italian_palifico_player_does_not_change_the_face() -> None:
    # reading of "non si potrà cambiare il numero su cui avete scommesso"
    state = play(drop_to_one("italian", one_die=(3,)), "1x4", "2x4", "2x5")  # seat 3: one die
    assert state.to_act == 0
    state = play(state, "3x5")
    assert state.to_act == 1
    assert refusal(state, Bid(4, 6)) == "face-locked"
    assert state.is_legal(Bid(4, 5))


def test_italian_palifico_a_one_die_player_changes_face_with_the_ordinary_order() -> None:
    state = play(drop_to_one("italian", one_die=(3,)), "2x4", "3x4")
    assert state.to_act == 3
    assert state.is_legal(Bid(3, 5))  # same quantity, higher face
    assert not state.is_legal(Bid(3, 2))  # lower face needs more dice
    assert state.is_legal(Bid(4, 2))
    assert state.is_legal(Bid(4, 1))  # ones rank lowest, no conversion
    assert not state.is_legal(Bid(2, 1))  # no halving to ones


def test_italian_palifico_is_once_per_game(monkeypatch: pytest.MonkeyPatch) -> None:
    palifico = perudo.load_variant("italian").special_round
    assert isinstance(palifico, OneDieRound)
    seen: list[perudo.rules.SettledCall] = []
    original = OneDieRound.start

    def spy(self: OneDieRound, context: perudo.rules.SettledCall, *,
            had: tuple[bool, ...], owed: tuple[int, ...]) -> perudo.rules.RoundStart:  # fmt: skip
        seen.append(context)
        return original(self, context, had=had, owed=owed)

    monkeypatch.setattr(OneDieRound, "start", spy)
    drop_to_one("italian", players=4)
    (settled,) = seen
    assert settled.after[1] == 1
    assert settled.losers == (1,)
    # A special round's start says whether it is in force; the edition's words name it.
    assert palifico.start(settled, had=(False,) * 4, owed=()).special is True
    assert palifico.start(settled, had=(False, True, False, False), owed=()).special is False


def test_italian_two_players_choose_before_any_bid() -> None:
    state = drop_to_one("italian", players=2)
    assert state.special_round is None
    assert state.must_declare
    assert set(state.legal_actions()) == {Declare("palifico"), Declare("ordinary")}
    assert refusal(state, Bid(1, 3)) == "declaration-required"
    assert refusal(state, Declare("calzone")) == "declaration-not-offered"
    assert refusal(state, Declare("palifico"), by=0) == "not-your-turn"

    palifico = state.apply(Declare("palifico"))
    assert palifico.special_round == "palifico"
    assert palifico.to_act == 1  # the declaration keeps the turn
    assert palifico.context.wild is None
    assert palifico.players[1].had_special

    ordinary = state.apply(Declare("ordinary"))
    assert ordinary.special_round is None
    assert ordinary.context.wild == 1
    assert ordinary.players[1].had_special  # choosing ordinary spends the Palifico
    assert refusal(ordinary, Declare("palifico")) == "declaration-not-offered"
    assert ordinary.is_legal(Bid(1, 3))


def test_the_special_round_is_a_role_and_its_word_only_prose() -> None:
    """Regression: the engine compared words to find the special round, so two editions
    that differ only in words got unequal round rules."""
    named = perudo.load_variant("italian").derive(
        "italian-last-stand", reason="Test.", words={"special_round": "Last stand"}
    )
    hands = [NO_SIXES, [2, 3], NO_SIXES, NO_SIXES]
    ours = play(game("italian", hands, first=1), "9x6", "dudo")
    theirs = play(game(named, hands, first=1), "9x6", "dudo")
    assert (ours.special_round, theirs.special_round) == ("palifico", "last stand")
    assert ours.rules == theirs.rules
    assert hash(ours.rules) == hash(theirs.rules)
    assert theirs.rules.special == "Last stand"  # still there for the messages
    two = play(game(named, [NO_SIXES, [2, 3]], first=1), "9x6", "dudo")
    assert two.apply(Declare("last stand")).special_player == 1
    assert two.apply(Declare("ordinary")).special_player is None


# --- French Palifico ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_french_palifico_every_drop_no_exception(players: int) -> None:
    state = drop_to_one("french-calza", players=players, one_die=(3,) if players == 4 else ())
    assert state.special_round == "palifico"
    assert not state.must_declare
    state = play(state, "2x4")
    assert refusal(state, Bid(2, 5)) == "face-locked"
    if players == 4:
        state = play(state, "3x4")
        assert state.to_act == 3  # holds one die, still locked in the French edition
        assert refusal(state, Bid(3, 5)) == "face-locked"


def test_french_palifico_comes_again_after_a_calza_regain() -> None:
    state = drop_to_one("french-calza", players=3)
    assert state.special_round == "palifico"
    # Seat 1 (one die) calls Calza exactly right and regains a die.
    state = state.with_dice([[2, 3, 4, 5, 5], [4], [2, 2, 3, 3, 4]])
    state = play(state, "1x4", "2x4")
    assert state.to_act == 0
    state = play(state, "3x4")
    assert state.to_act == 1
    state = play(state, "calza")
    assert len(state.players[1].dice) == 2
    assert state.special_round is None
    # Back up at two dice, seat 1 bids high again and drops to one: Palifico again.
    state = state.with_dice([[2, 3, 4, 5, 5], [2, 3], [2, 2, 2, 3, 3]])
    state = play(state, "9x6", "dudo")
    assert len(state.players[1].dice) == 1
    assert state.special_round == "palifico"


# --- Spanish Palafico --------------------------------------------------------------------


def test_spanish_palafico_opener_must_bid_ones() -> None:
    state = drop_to_one("spanish", one_die=(3,))
    assert state.special_round == "palafico"
    assert state.to_act == 1
    assert refusal(state, Bid(2, 3)) == "must-open-on-ones"
    assert {a.face for a in state.legal_actions() if isinstance(a, Bid)} == {1}
    state = play(state, "1x1")
    assert refusal(state, Bid(2, 3)) == "face-locked"
    assert state.is_legal(Bid(2, 1))
    state = play(state, "2x1")
    assert state.to_act == 3  # holds one die: already Palafico
    assert state.is_legal(Bid(2, 3))  # monotone: same quantity, higher face
    assert state.is_legal(Bid(3, 6))
    # regression (issue 18): a one-die player, who may change the face, is refused a lower
    # one by the raise order, not told the face is locked
    changing = play(state, "2x3", "3x3", "3x4", "4x4")  # seat 1 (one die) moved to 4s
    assert changing.to_act == 3
    assert refusal(changing, Bid(5, 2)) == "face-lowered"
    state = play(state, "2x3")
    assert refusal(state, Bid(3, 4)) == "face-locked"
    assert state.is_legal(Bid(3, 3))


def test_spanish_palafico_ones_not_wild() -> None:
    state = drop_to_one("spanish")
    state = state.with_dice([[1, 1, 3, 3, 3], [3], [1, 1, 1, 2, 2], [2, 2, 4, 4, 4]])
    state = play(state, "1x1", "5x1", "dudo")
    result = state.last_result
    assert result is not None
    assert result.wild is None
    assert result.count == 5
    assert result.loser == 3  # the challenger


def test_spanish_palafico_not_with_two_players() -> None:
    state = drop_to_one("spanish", players=2)
    assert state.special_round is None
    assert not state.offers
    assert refusal(state, Bid(1, 1)) == "ones-on-opening"
    assert state.context.wild == 1


# --- French Jonti: Calzone ---------------------------------------------------------------


def test_calzone_is_offered_and_declined_by_bidding() -> None:
    state = drop_to_one("french-jonti")
    assert state.special_round is None
    assert state.offers == ("calzone",)
    assert not state.must_declare
    assert Declare("calzone") in state.legal_actions()
    declined = play(state, "2x3")
    assert declined.special_round is None
    assert declined.offers == ()
    assert declined.context.wild == 1
    assert refusal(declined, Declare("calzone"), by=declined.to_act) == "declaration-not-offered"


def test_opening_on_ones_while_calzone_is_offered_says_how() -> None:
    # regression (issue 18): the refusal named no way to the bid the offer allows
    state = drop_to_one("french-jonti")
    with pytest.raises(IllegalActionError) as caught:
        state.apply(Bid(1, 1))
    assert caught.value.reason == "ones-on-opening"
    assert str(caught.value) == (
        "1x1: a round may not open on ones ('declare calzone' first, and you may)"
    )


def test_calzone_round_rules() -> None:
    state = play(drop_to_one("french-jonti", one_die=(3,)), "declare calzone")
    assert state.special_round == "calzone"
    assert state.special_player == 1
    assert state.to_act == 1
    assert state.context.wild is None
    assert state.is_legal(Bid(1, 1))  # a Calzone round may open on ones
    state = play(state, "1x1")
    assert refusal(state, Bid(1, 4)) == "face-locked"  # five dice: only the quantity
    state = play(state, "2x1")
    assert state.to_act == 3  # one die: may change the face
    assert state.is_legal(Bid(2, 4))
    state = play(state, "2x4", "3x4")
    assert state.to_act == 1  # the declarer holds one die too
    assert state.is_legal(Bid(3, 6))


def test_calzone_count_ones_as_ones() -> None:
    state = play(drop_to_one("french-jonti"), "declare calzone")
    state = state.with_dice([[1, 1, 4, 4, 4], [4], [1, 2, 2, 2, 2], [1, 5, 5, 5, 5]])
    state = play(state, "5x4", "dudo")
    result = state.last_result
    assert result is not None
    assert result.count == 4
    assert result.loser == 1


def test_no_special_round_in_wango() -> None:
    state = drop_to_one("wango")
    assert state.special_round is None
    assert state.offers == ()
    assert state.context.wild == 1


def test_dudo_in_a_special_round_is_an_ordinary_call() -> None:
    state = play(drop_to_one("italian"), "1x4")
    assert Dudo() in state.legal_actions()


@perudo.register_kind
@attrs.frozen
class EveryRoundSpecial(OneDieRound):
    """Asks for the special round after every call, whoever fell to one die: a kind that
    breaks its protocol."""

    kind: ClassVar[str] = "test-every-round-special"

    def start(
        self, context: SettledCall, *, had: tuple[bool, ...], owed: tuple[int, ...]
    ) -> RoundStart:
        return RoundStart(special=True)


def test_a_special_round_started_with_nobody_dropped_is_refused_not_ignored() -> None:
    """Regression: a kind's start() that began the special round when nobody fell to one
    die was dropped in silence (the round played ordinary). A special round is someone's:
    one for nobody is refused."""
    italian = perudo.load_variant("italian")
    broken = EveryRoundSpecial(**attrs.asdict(italian.special_round))
    edition = italian.derive("always-special", reason="Broken on purpose.", special_round=broken)
    state = game(edition, [list(FIVE)] * 3, first=0).apply(Bid(3, 6))
    with pytest.raises(perudo.InvalidVariantError, match="special_round:test-every-round"):
        state.apply(Dudo())  # a die lost, nobody at one: the kind asked for the special round


def farewell_bluff() -> perudo.Variant:
    """Bluff, where an exact count costs every player but the bidder a die (so several fall
    at once), with a farewell round for each seat that falls to one die."""
    return perudo.load_variant("bluff").derive(
        "bluff-farewell", reason="farewell rounds, after guyguroz-hue/Perudo",
        special_round={"kind": "farewell-round", "once_per_player": False,
                       "two_players": "same", "optional": False, "opening": "allowed",
                       "face_change": "nobody"},
        words={"special_round": "Farewell"},
    )  # fmt: skip


def test_farewell_rounds_are_queued_and_opened_by_their_seat() -> None:
    """guyguroz-hue/Perudo, docs/GAME_RULES.md section 10: "Each is owed their own Farewell
    Round: they are queued, one takes the next round, the next follows after that"; "That
    player starts the next round"."""
    edition = farewell_bluff()
    # eight 3s counting the stars (6s): 8x3 by seat 0 is exact, so seats 1, 2 and 3 lose one
    hands = [[6, 6, 2, 3, 3], [3, 3], [4, 1], [6, 3, 5]]
    state = play(game(edition, hands, first=0), "8x3").apply(Dudo())
    result = state.last_result
    assert result is not None
    assert result.changes == (0, -1, -1, -1)
    assert [len(p.dice) for p in state.players] == [5, 1, 1, 2]
    assert (state.special_player, state.to_act, state.owed) == (1, 1, (2,))
    assert state.special_round == "farewell"
    assert state.view(3).owed == (2,)
    encoding = perudo.encoding.observation_encoding(edition, 4)
    for seat in range(4):
        view = state.view(seat)
        assert encoding.decode(encoding.encode(view)) == view
    # the next call ends seat 1's round; seat 2's follows, opened by seat 2
    bid = next(a for a in state.legal_actions() if isinstance(a, Bid))
    after = state.apply(bid).apply(Dudo())
    if after.players[2].dice:
        assert (after.special_player, after.to_act, after.owed) == (2, 2, ())
    record = perudo.GameRecord.from_state(after)
    assert perudo.GameRecord.from_json(record.to_json()).replay(edition) == after


def test_farewell_games_play_to_the_end() -> None:
    edition = farewell_bluff()
    farewells = 0
    for seed in range(30):
        state = perudo.new_game(edition, 5, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            if not state.is_over and state.special_player is not None and state.bids == ():
                farewells += 1
                assert state.players[state.special_player].dice  # never an out seat's
                assert state.to_act == state.special_player  # "That player starts"
                assert all(state.players[seat].dice for seat in state.owed)
    assert farewells > 0
