"""Edition declarations: every axis declared with its provenance, and broken files refused."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest

import perudo
from perudo import InvalidVariantError, UnknownVariantError
from perudo.loader import variant_from_mapping, variants_dir

EDITIONS = (
    "french-calza",
    "french-jonti",
    "italian",
    "spanish",
    "wango",
    "wango-party",
)


def declaration(key: str) -> dict[str, Any]:
    return tomllib.loads((variants_dir() / f"{key}.toml").read_text(encoding="utf-8"))


def test_the_six_editions_ship() -> None:
    # and ten rule sets from outside the sources: OpenSpiel's liars_dice, Bluff with its
    # re-roll, the Bull and Burst house rules of a published online Perudo, the common
    # hand game with a pass, Dead Man's Dice, played for one life, Liar's poker, the Liar's
    # Dice of Aetolia's game help, out below three dice, fb88's Liar Dice, ones high, UO
    # Outlands' Liar's Dice, judged on the bidder's dice, Immortal Blade's pure hands, and
    # Mia, whose bids name the value of two dice
    outside = (
        "openspiel-liars-dice", "bluff", "bull-and-burst", "common-hand-pass", "dead-mans-dice",
        "liars-poker", "aetolia-liars-dice", "fb88-liar-dice", "outlands-liars-dice",
        "immortal-blade-liars-dice", "mia",
    )  # fmt: skip
    assert perudo.variant_names() == tuple(sorted((*EDITIONS, *outside)))


@pytest.mark.parametrize("key", EDITIONS)
def test_every_axis_is_declared_with_its_provenance(key: str) -> None:
    variant = perudo.load_variant(key)
    assert variant.key == key
    assert len(variant.provenance) == len(perudo.AXES)
    for axis in perudo.AXES:
        source = variant.provenance_of(axis)
        assert source.kind in ("stated", "inherited", "reading")
        if source.kind == "stated":
            assert source.quote
        else:
            assert source.reason
        assert variant.component(axis) is getattr(variant, axis)


# What RULES.md marks reading or inherited must stay visible in the declaration.
EXPECTED_PROVENANCE = {
    ("italian", "players"): "inherited",
    ("italian", "cap"): "inherited",
    ("italian", "special_round"): "reading",
    ("italian", "first_player"): "stated",
    ("italian", "challenge"): "reading",  # the reveal and the dice counts (audit readings)
    ("spanish", "raising"): "reading",
    ("spanish", "conversion"): "reading",
    ("spanish", "special_round"): "reading",  # "ya son Palaficos" (audit readings)
    ("french-jonti", "special_round"): "reading",  # how a one-die player changes face
    ("spanish", "first_player"): "inherited",
    ("french-calza", "conversion"): "inherited",
    ("french-calza", "opening"): "inherited",
    ("french-calza", "starter"): "inherited",
    ("french-calza", "exact_call"): "stated",
    ("french-jonti", "exact_call"): "reading",
    ("french-jonti", "conversion"): "inherited",
    ("french-jonti", "players"): "inherited",
    ("french-jonti", "starter"): "stated",
    ("wango", "cap"): "stated",
    ("wango", "opening"): "inherited",
    ("wango", "starter"): "inherited",
    ("wango-party", "scoring"): "reading",
    ("wango-party", "opening"): "inherited",
}


@pytest.mark.parametrize(("key", "axis"), list(EXPECTED_PROVENANCE))
def test_provenance_matches_rules_md(key: str, axis: str) -> None:
    assert perudo.load_variant(key).provenance_of(axis).kind == EXPECTED_PROVENANCE[(key, axis)]


def test_spanish_raise_reading_quotes_both_sentences() -> None:
    source = perudo.load_variant("spanish").provenance_of("raising")
    assert source.quote is not None
    assert "tres diferentes maneras" in source.quote
    assert "Mientras uno de los numeros apostados se incremente" in source.quote


def test_editions_differ_where_the_rules_differ() -> None:
    italian, spanish = perudo.load_variant("italian"), perudo.load_variant("spanish")
    assert italian.raising != spanish.raising
    assert italian.conversion == spanish.conversion
    wango, party = perudo.load_variant("wango"), perudo.load_variant("wango-party")
    different = [axis for axis in perudo.AXES if wango.component(axis) != party.component(axis)]
    assert different == ["scoring"]


def test_loading_is_cached_and_variants_hash() -> None:
    assert perudo.load_variant("italian") is perudo.load_variant("italian")
    assert len({perudo.load_variant(key) for key in EDITIONS}) == 6


def test_load_from_a_path(tmp_path: Path) -> None:
    data = (variants_dir() / "wango.toml").read_text(encoding="utf-8")
    path = tmp_path / "house.toml"
    path.write_text(data.replace('key = "wango"', 'key = "house"'), encoding="utf-8")
    variant = perudo.load_variant(path)
    assert variant.key == "house"
    with pytest.raises(UnknownVariantError, match=r"pass a pathlib\.Path"):
        perudo.load_variant(str(path))  # a string is a key, never a path (issue 13)
    state = perudo.new_game(variant, 3, seed=1)
    assert state.variant is variant


def test_unknown_edition_lists_the_known_ones() -> None:
    with pytest.raises(UnknownVariantError) as caught:
        perudo.load_variant("klingon")
    for key in EDITIONS:
        assert key in str(caught.value)


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(UnknownVariantError, match=r"nope\.toml"):
        perudo.load_variant(tmp_path / "nope.toml")


def test_a_file_that_is_not_toml(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("key = = 3", encoding="utf-8")
    with pytest.raises(InvalidVariantError, match=r"broken\.toml.*not valid TOML"):
        perudo.load_variant(path)


def test_a_key_may_differ_from_the_file_name(tmp_path: Path) -> None:
    # A file loaded by path names its edition by its key, whatever the file is called
    # (issue 14); a record of it still replays only under the same declaration.
    path = tmp_path / "other.toml"
    path.write_text((variants_dir() / "wango.toml").read_text(encoding="utf-8"), encoding="utf-8")
    assert perudo.load_variant(path) == perudo.load_variant("wango")


def _broken(edit: Any) -> dict[str, Any]:
    data = copy.deepcopy(declaration("french-jonti"))
    edit(data)
    return data


BROKEN = [
    (lambda d: d.pop("cap"), r"\[cap\]: missing"),
    (lambda d: d.update(extra=1), "'extra': unknown key"),
    (lambda d: d.update(schema=2), "schema: must be 1"),
    (lambda d: d.pop("name"), "name: missing"),
    (lambda d: d.update(name=""), "name: '' is not a non-empty string"),
    (lambda d: d.update(cap=3), r"\[cap\]: 3 is not a table"),
    (lambda d: d["raising"].update(kind="sideways"), "'sideways' is not one of"),
    (lambda d: d["raising"].update(kind="sideways"), r"or --plugin MODULE on the command line\)"),
    (lambda d: d["raising"].pop("kind"), r"None is not one of: [a-z, -]*$"),
    (lambda d: d["players"].update(min="2"), r"\[players\] min: '2' is not of type int"),
    (lambda d: d["players"].update(min=True), "True is not of type int"),
    (lambda d: d["players"].update(min=1), "below the minimum 2"),
    (lambda d: d["players"].update(min=8, max=4), "min 8 is above max 4"),
    (lambda d: d["dice"].update(per_player=21), "above the maximum 20"),
    (lambda d: d["dice"].pop("per_player"), r"\[dice\] per_player: missing"),
    (lambda d: d["challenge"].update(reveal="some"), "'some' is not one of: all, from-left"),
    (lambda d: d["cap"].update(colour="red"), "'colour': unknown key"),
    (lambda d: d["special_round"].update(optional="yes"), "'yes' is not of type bool"),
    (lambda d: d["wilds"].update(provenance="guess"), "'guess' is not one of"),
    (lambda d: d["wilds"].pop("quote"), "a stated setting quotes the source"),
    (lambda d: d["cap"].pop("reason"), "a setting marked inherited says why"),
    (lambda d: d["exact_call"].pop("reason"), "a setting marked reading says why"),
    (lambda d: d["words"].pop("calza"), "an edition with an exact call names it"),
    (lambda d: d["words"].update(bid="x"), r"\[words\] 'bid': unknown key"),
    (lambda d: d["cap"].update(translation="No cap."), "translates a quote: give the quote"),
    (lambda d: d["wilds"].update(translation=7), r"\[wilds\] translation: 7 is not"),
]


@pytest.mark.parametrize(("edit", "message"), BROKEN)
def test_broken_declarations_name_the_file_and_the_key(edit: Any, message: str) -> None:
    with pytest.raises(InvalidVariantError, match=message) as caught:
        variant_from_mapping(_broken(edit), where="house.toml")
    assert str(caught.value).startswith("house.toml: ")


def test_an_exact_call_word_without_the_call_is_refused() -> None:
    data = copy.deepcopy(declaration("italian"))
    data["words"]["calza"] = "Calza"
    with pytest.raises(InvalidVariantError, match="without an exact call"):
        variant_from_mapping(data)


def test_a_declaration_built_in_python_plays() -> None:
    data = copy.deepcopy(declaration("italian"))
    data["key"] = "italian-capped"
    data["cap"] = {"kind": "dice-in-play", "provenance": "reading", "reason": "house rule"}
    variant = variant_from_mapping(data)
    state = perudo.new_game(variant, 2, seed=3)
    assert max(a.quantity for a in state.legal_actions() if isinstance(a, perudo.Bid)) == 10
    assert not state.is_legal(perudo.Bid(11, 6))


@pytest.mark.parametrize("key", perudo.variant_names())
def test_every_quote_not_in_english_has_an_english_translation(key: str) -> None:
    """Issue 18: a reader who does not read the source's language reads our translation."""
    variant = perudo.load_variant(key)
    for axis in perudo.AXES:
        source = variant.provenance_of(axis)
        if variant.language == "en":
            assert source.translation is None, axis
        elif source.quote:
            assert source.translation, f"{key} [{axis}] quotes without a translation"
            assert source.translation != source.quote


@pytest.mark.parametrize("key", perudo.variant_names())
def test_each_source_is_named_by_what_it_is(key: str) -> None:
    from perudo.prose import LANGUAGES, rules_text

    variant = perudo.load_variant(key)
    assert not variant.source.strip().isdigit()  # never "Source 000"
    assert variant.language in LANGUAGES
    head = rules_text(variant).splitlines()[0]
    source = variant.source.rstrip(".")
    assert f"Source: {source}, written in {LANGUAGES[variant.language]}." in head


def test_the_edition_page_shows_each_translation_marked_as_ours() -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).parent.parent / "docs" / "_ext"))
    try:
        from perudo_editions import edition_page
    finally:
        sys.path.pop(0)
    page = edition_page("italian")
    assert "Source: an Italian rule book, written in Italian." in page
    variant = perudo.load_variant("italian")
    for axis in perudo.AXES:
        source = variant.provenance_of(axis)
        if source.quote:
            at = page.index(f"> {source.quote}")
            assert page.index(f"> *Our translation:* {source.translation}") > at


def test_a_source_that_ends_its_sentence_is_not_stopped_twice() -> None:
    from perudo.prose import source_line

    capped = perudo.load_variant("italian").derive(
        "italian-capped", reason="Our table caps bids.", cap={"kind": "dice-in-play"}
    )
    assert source_line(capped) == (
        "Source: derived from Italian Palifico (italian): Our table caps bids, written in Italian."
    )
