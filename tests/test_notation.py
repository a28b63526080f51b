"""The action notation: parse_action and str round-trip; malformed text is refused."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from invariants import DECLARATIONS

import perudo
from perudo import Bid, Calza, Declare, Dudo, IllegalActionError, parse_action
from perudo.errors import shown
from perudo.notation import refused_as_typed
from perudo.rules import Words

actions = st.one_of(
    st.builds(
        Bid, st.integers(1, perudo.actions.MAX_QUANTITY), st.integers(1, 6), pressure=st.booleans()
    ),
    st.builds(Dudo, pressure=st.booleans()),
    st.just(Calza()),
    st.builds(Declare, st.sampled_from(DECLARATIONS)),
)


@given(actions)
def test_str_and_parse_round_trip(action: perudo.Action) -> None:
    assert parse_action(str(action)) == action


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("3x4", Bid(3, 4)),
        ("5x1", Bid(5, 1)),
        ("4x5!", Bid(4, 5, pressure=True)),
        ("dudo", Dudo()),
        ("dudo!", Dudo(pressure=True)),
        ("dubito", Dudo()),
        ("perudo", Dudo()),
        ("challenge!", Dudo(pressure=True)),
        ("calza", Calza()),
        ("jonti", Calza()),
        ("declare palifico", Declare("palifico")),
        ("declare ordinary", Declare("ordinary")),
    ],
)
def test_examples(text: str, action: perudo.Action) -> None:
    assert parse_action(text) == action


@pytest.mark.parametrize(
    "text",
    ["", "3x21", "3x0", "0x3", "03x4", "3 x 4", "３x4", "3x٤", "x4", "3x",
     "3x4!!", "dudo !", "calza!", "jonti!", "declare", "fold", "12345x2", "3x4" + " " * 300],
)  # fmt: skip
def test_malformed_text_is_refused(text: str) -> None:
    with pytest.raises(IllegalActionError) as caught:
        parse_action(text)
    assert caught.value.reason == "malformed-action"
    assert shown(text) in str(caught.value)  # named, and never echoed past 60 characters


@pytest.mark.parametrize(
    ("text", "action"),
    [("3X4", Bid(3, 4)), (" 3x4", Bid(3, 4)), ("3x4 ", Bid(3, 4)), ("\t3X4!\n", Bid(3, 4, True)),
     ("Dudo", Dudo()), ("DUDO!", Dudo(pressure=True)), ("declare  Palifico", Declare("palifico")),
     ("Reroll 2  5", perudo.Act("reroll", (2, 5)))],
)  # fmt: skip
def test_moves_are_read_like_words_in_any_case_and_spacing(
    text: str, action: perudo.Action
) -> None:
    assert parse_action(text) == action
    assert parse_action(text, variant=perudo.load_variant("wango-party" if "!" in text else
                                                          "bluff" if "eroll" in text else
                                                          "italian")) == action  # fmt: skip


def test_the_help_lists_only_the_editions_moves_and_a_refusal_echoes_the_word() -> None:
    italian = perudo.load_variant("italian")
    with pytest.raises(IllegalActionError) as caught:
        parse_action("9x21", variant=italian)
    text = str(caught.value)
    assert "dubito" in text
    assert "palifico" in text
    assert "!" not in text  # no pressure in the Italian game
    assert "calza" not in text.lower()  # nor an exact call
    with pytest.raises(IllegalActionError) as caught:
        parse_action("9x21", variant=perudo.load_variant("french-calza"))
    assert "calza" in str(caught.value)
    state = perudo.new_game(italian, 2, seed=1, first_player=0)
    with pytest.raises(IllegalActionError) as caught:
        state.apply(parse_action("  Dubito ", variant=italian), by=1)
    assert refused_as_typed(caught.value, "  Dubito ") == "Dubito: it is Player 1's turn"
    assert str(caught.value).startswith("dudo: ")  # the error itself keeps the notation


def test_counts_read_well() -> None:
    words = perudo.load_variant("bluff").words
    assert [words.counted(1, face) for face in (1, 5, 6)] == ["1 one", "1 five", "1 star"]
    assert [words.counted(2, face) for face in (1, 5, 6)] == ["2 ones", "2 5s", "2 stars"]
    assert Words(dudo="Dudo", ones="Aces").counted(1, 1) == "1 Ace"


def test_any_declaration_name_is_notation_and_the_edition_decides() -> None:
    # Declarations are the edition's words (issue 14): the notation reads any name, and
    # the state refuses one it does not offer.
    assert parse_action("declare banana") == Declare("banana")
    state = perudo.new_game("italian", 3, seed=1)
    with pytest.raises(IllegalActionError) as caught:
        state.apply(Declare("banana"))
    assert caught.value.reason == "declaration-not-offered"


@pytest.mark.parametrize("value", [None, 34, b"3x4", ["3x4"]])
def test_non_text_is_refused(value: object) -> None:
    with pytest.raises(IllegalActionError, match="not action notation"):
        parse_action(value)  # type: ignore[arg-type]


def test_a_word_ending_in_the_pressure_mark_is_read_as_written() -> None:
    basta = perudo.load_variant("wango-party").derive(
        "party-basta", reason="Our words.", words={"dudo": "Basta!"}
    )
    assert perudo.parse_action("basta!", variant=basta) == perudo.Dudo()
    assert perudo.parse_action("BASTA!!", variant=basta) == perudo.Dudo(pressure=True)
    with pytest.raises(perudo.InvalidVariantError, match="would mean both"):
        perudo.load_variant("french-calza").derive(
            "calza-liar", reason="Our words.", words={"dudo": "Liar", "calza": "Liar!"}
        )
    with pytest.raises(perudo.InvalidVariantError, match="ends in '!'"):
        perudo.load_variant("wango").derive(
            "wango-stars", reason="Our words.", words={"faces": {"6": "stars!"}}
        )
