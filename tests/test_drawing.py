"""The table drawn for people (issue 16): text and SVG, which never show a hidden die."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

import perudo
from perudo import Bid, Dudo


def italian() -> perudo.GameState:
    state = perudo.new_game("italian", ["Ana", "Ben", "Cleo"], seed=3, first_player=0)
    return state.with_dice([[2, 3, 3, 6, 6], [1, 1, 2, 2, 5], [1, 2, 2, 3, 4]])


def test_a_view_draws_its_own_dice_and_hides_the_others() -> None:
    state = italian().apply(Bid(2, 5)).apply(Bid(3, 5))
    text = str(state.view(1))
    assert text.splitlines() == [
        "Italian Palifico - round 1",
        "  Ana   ? ? ? ? ?  5 dice",
        "  Ben   ⚀ ⚀ ⚁ ⚁ ⚄  5 dice  <- you",
        "  Cleo  ? ? ? ? ?  5 dice  <- to act",
        "Bids: Ana 2x5, Ben 3x5",
    ]
    assert "1 1 2 2 5" in state.view(1).draw(ascii=True)


def test_a_state_draws_every_hand_and_the_last_call_in_the_editions_words() -> None:
    state = italian().apply(Bid(2, 5)).apply(Bid(3, 5)).apply(Dudo())
    text = state.draw(ascii=True)
    assert "  Ana   2 3 3 6 6  5 dice" in text
    assert "Last call: Dubito by Cleo on 3x5 by Ben" in text
    assert "shown: Ana 2 3 3 6 6; Ben 1 1 2 2 5" in text
    party = str(perudo.new_game("wango-party", 3, seed=1).view(0))
    assert "score 0  pressure 2" in party


def test_the_svg_is_a_standalone_document() -> None:
    state = italian().apply(Bid(2, 5)).apply(Dudo())
    for svg in (state._repr_svg_(), state.view(2)._repr_svg_(),
                perudo.GameRecord.from_state(state)._repr_svg_()):  # fmt: skip
        root = ET.fromstring(svg)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        for bad in ("href", "<image", "url(", "<script"):
            assert bad not in svg
    assert "Dubito by Ben on 2x5 by Ana" in state._repr_svg_()


def test_names_are_escaped_in_the_svg() -> None:
    state = perudo.new_game("italian", ["<b>", "A&B"], seed=1)
    svg = state._repr_svg_()
    ET.fromstring(svg)
    assert "&lt;b&gt;" in svg
    assert "A&amp;B" in svg


@pytest.mark.slow
@pytest.mark.parametrize("edition", perudo.variant_names())
def test_a_views_drawings_never_depend_on_hidden_dice(edition: str) -> None:
    rng = random.Random(edition)
    players = min(4, perudo.load_variant(edition).players.max)
    compared = 0
    for seed in range(15):
        state = perudo.new_game(edition, players, seed=seed)
        twin, seat = None, 0
        for _ in range(80):
            if state.is_over:
                break
            if state.bid is None and twin is None:
                # another deal that keeps one seat's hand: its view must not move all round
                seat = rng.choice(state.seats_in)
                twin = state.with_dice([
                    p.dice if s == seat else tuple(sorted(rng.randint(1, 6) for _ in p.dice))
                    for s, p in enumerate(state.players)
                ])  # fmt: skip
            if twin is not None:
                assert twin.view(seat).draw() == state.view(seat).draw()
                assert twin.view(seat)._repr_svg_() == state.view(seat)._repr_svg_()
                compared += 1
            action = rng.choice(state.legal_actions())
            round_number = state.round_number
            state = state.apply(action)
            twin = twin.apply(action) if twin is not None else None
            if state.round_number != round_number or state.is_over:
                twin = None  # the call showed hands, which differ between the deals
    assert compared > 40


def test_the_docs_svg_is_what_table_svg_draws_today() -> None:
    from pathlib import Path

    from perudo.svg import table_svg

    state = perudo.new_game("italian", ["Ana", "Ben", "Cleo"], seed=3, first_player=0)
    state = state.with_dice([[2, 3, 3, 6, 6], [1, 1, 2, 2, 5], [1, 2, 2, 3, 4]])
    state = state.apply(Bid(2, 5)).apply(Bid(3, 5)).apply(Dudo()).apply(Bid(2, 6))
    docs = Path(__file__).parent.parent / "docs" / "_static" / "table.svg"
    assert docs.read_text(encoding="utf-8") == table_svg(state.view(0))


def test_the_svgs_last_call_wraps_between_words_and_shows_the_hands_shown() -> None:
    names = ["Alessandra", "Bartolomeo", "Costanza", "Domenico", "Eleonora", "Federico"]
    state = perudo.new_game("italian", names, seed=5, first_player=0)
    for bid in (Bid(2, 5), Bid(3, 5), Bid(4, 5), Bid(5, 5), Bid(6, 5)):
        state = state.apply(bid)
    state = state.apply(Dudo())
    result = state.last_result
    assert result is not None
    svg = state.view(0)._repr_svg_()
    lines = [t.text or "" for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    told = lines[lines.index("Last call") + 1 :]
    sentence = result.describe(names)
    assert len(sentence) > 80  # long enough to wrap
    words = sentence.split()
    said = " ".join(line for line in told if not line.startswith(("Shown:", "Winner")))
    assert said.split()[: len(words)] == words  # every word whole, none cut in two
    shown = " ".join(told)[" ".join(told).index("Shown: ") :]
    for seat in result.revealed:
        assert f"{names[seat]} {' '.join(map(str, result.hands[seat] or ()))}" in shown
