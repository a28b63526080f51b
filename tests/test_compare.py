"""Comparing editions: settings, provenance, searched witnesses, verdicts, the command."""

from __future__ import annotations

import io
import itertools
import json

import pytest
from helpers import SIX, game, play

import perudo
from perudo.cli import main
from perudo.comparison import compare, verdicts

PAIRS = list(itertools.combinations(SIX, 2))


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_every_differing_axis_has_a_witness_that_replays(a: str, b: str) -> None:
    comparison = compare(a, b)
    assert comparison.differing
    for axis in comparison.differing:
        item = comparison.axis(axis)
        assert item.witnesses, axis
        witness = item.witnesses[0]
        first, second = witness.verdicts
        if witness.kind == "setup":
            assert first.legal != second.legal or first.outcome != second.outcome
            continue
        assert first.legal != second.legal or first.outcome != second.outcome
        assert witness.position is not None
        assert witness.action is not None
        state = witness.position.replay()
        assert verdicts(state, witness.action, [a, b], by=witness.player) == witness.verdicts


@pytest.mark.parametrize(("a", "b"), PAIRS[:3])
def test_a_witness_is_credited_only_where_the_axis_matters(a: str, b: str) -> None:
    comparison = compare(a, b)
    for item in comparison.axes:
        assert item.same == (item.a == item.b)
        if item.same:
            assert item.witnesses == ()


def test_an_edition_compared_with_itself() -> None:
    comparison = compare("italian", "italian")
    assert comparison.differing == ()


def test_comparison_carries_provenance_and_is_json() -> None:
    comparison = compare("italian", "spanish")
    raising = comparison.axis("raising")
    assert raising.a_provenance.kind == "stated"
    assert raising.b_provenance.kind == "reading"
    data = comparison.to_dict()
    assert json.loads(json.dumps(data)) == data
    by_axis = {row["axis"]: row for row in data["axes"]}
    assert by_axis["raising"]["b"]["provenance"] == "reading"


def test_verdicts_answer_which_editions_allow_an_action() -> None:
    state = play(game("italian", [[2, 3, 4], [2, 5, 6], [1, 1, 2]]), "3x3")
    found = verdicts(state, perudo.Bid(4, 2), perudo.variant_names())
    allowed = {v.variant: v.legal for v in found}
    assert allowed == {
        "openspiel-liars-dice": None,  # two players only: the position cannot arise
        "aetolia-liars-dice": False,  # the face never goes down
        "fb88-liar-dice": None,  # two players only: the position cannot arise
        "outlands-liars-dice": True,
        "immortal-blade-liars-dice": None,  # two players only: the position cannot arise
        "bluff": True,
        "bull-and-burst": True,
        "common-hand-pass": True,
        "dead-mans-dice": True,
        "french-calza": True,
        "french-jonti": True,
        "italian": True,
        "liars-poker": True,  # 2s rank lowest: four of them raise three 3s
        "mia": None,  # a bid names a hand: a round of quantity bids cannot arise
        "spanish": False,
        "wango": True,
        "wango-party": True,
    }
    spanish = next(v for v in found if v.variant == "spanish")
    assert spanish.reason == "face-lowered"
    calza = {
        v.variant: v.legal
        for v in verdicts(state, perudo.Calza(), ["french-calza", "italian", "bull-and-burst"])
    }
    assert calza == {"french-calza": True, "italian": False, "bull-and-burst": True}


def test_verdicts_say_when_a_position_cannot_arise() -> None:
    state = perudo.new_game("italian", 8, seed=1)
    found = verdicts(state, perudo.Bid(1, 2), ["italian", "wango"])
    assert found[0].legal is True
    assert found[1].legal is None
    assert "2 to 6 players" in (found[1].message or "")
    state = play(game("italian", [[2, 3], [4, 5]]), "3x3", "4x2")
    found = verdicts(state, perudo.Bid(5, 2), ["spanish"])
    assert found[0].legal is None
    assert "move 2" in (found[0].message or "")


@pytest.mark.slow
def test_compare_command_fits_80_columns() -> None:
    for argv in (
        ["compare", "italian", "spanish"],
        ["compare"],
        ["rules", "italian"],
        ["variants"],
    ):
        out = io.StringIO()
        assert main(argv, out=out) == 0
        text = out.getvalue()
        assert text
        assert max(len(line) for line in text.splitlines()) <= 80, argv
    out = io.StringIO()
    main(["compare", "italian", "spanish"], out=out)
    assert "Raise order *" in out.getvalue()
    assert "face-lowered" in out.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [["compare", "italian", "wango", "--json"], ["compare", "--json"], ["rules", "wango", "--json"],
     ["variants", "--json"]],
)  # fmt: skip
def test_json_output(argv: list[str]) -> None:
    out = io.StringIO()
    assert main(argv, out=out) == 0
    assert json.loads(out.getvalue())


def test_compare_command_refuses_one_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "italian"]) == 2
    assert "two edition keys" in capsys.readouterr().err
