"""The open rule-set protocol (issue 14): declarations that extend others, editions derived in
Python, the editions' own words, and rule kinds written outside perudo."""

from __future__ import annotations

import importlib
import importlib.metadata
import io
import sys
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest
from helpers import registered

import perudo
from perudo import Bid, Calza, Declare, Dudo, InvalidVariantError, register_kind
from perudo.cli import main
from perudo.comparison import compare
from perudo.encoding import observation_encoding
from perudo.prose import rules_text
from perudo.rules import DiceInPlayCap, Elimination, NoCap, RollOff, Words, param, rule_kinds
from perudo.rules.registry import KindRegistry

EXAMPLES = Path(__file__).parent.parent / "examples"


def example(name: str) -> dict[str, Any]:
    """An example's namespace, imported as a module (never run a second time under another
    name: its kinds are the same classes wherever a test imports it)."""
    sys.path.insert(0, str(EXAMPLES))
    try:
        return vars(importlib.import_module(Path(name).stem))
    finally:
        sys.path.remove(str(EXAMPLES))


# --- 1. extends in TOML --------------------------------------------------------------------

HOUSE = """
extends = "italian"
key = "italian-capped"
name = "Italian, capped"

[cap]
kind = "dice-in-play"
provenance = "reading"
reason = "Our table caps bids."
"""


def test_a_declaration_extends_a_shipped_one_and_gives_only_its_changes() -> None:
    capped = perudo.variant_from_toml(HOUSE)
    italian = perudo.load_variant("italian")
    assert capped.cap == DiceInPlayCap()
    assert capped.provenance_of("cap").reason == "Our table caps bids."
    for axis in perudo.AXES:
        if axis != "cap":
            assert capped.component(axis) == italian.component(axis)
            assert capped.provenance_of(axis) == italian.provenance_of(axis)
    assert capped.words == italian.words
    assert capped.source == "derived from Italian Palifico (italian): Our table caps bids."
    assert capped.language == italian.language
    assert compare(italian, capped, witnesses=False).differing == ("cap",)


def test_a_section_keeps_the_parents_keys_it_does_not_name() -> None:
    text = HOUSE.replace('[cap]\nkind = "dice-in-play"', "[special_round]\nonce_per_player = false")
    variant = perudo.variant_from_toml(text)
    special = variant.special_round
    italian = perudo.load_variant("italian").special_round
    assert attrs.evolve(italian, once_per_player=False) == special  # type: ignore[misc]


def test_every_problem_is_reported_in_one_error() -> None:
    text = """
extends = "wango"
key = "broken"
[cap]
kind = "dice-in-play"
[dice]
per_player = 50
provenance = "reading"
reason = "Big dice."
[scoring]
kind = "nope"
provenance = "reading"
reason = "x"
"""
    with pytest.raises(InvalidVariantError) as caught:
        perudo.variant_from_toml(text)
    message = str(caught.value)
    assert "[cap] provenance: a changed section says where it comes from" in message
    text = text.replace('[cap]\nkind = "dice-in-play"\n', "")
    with pytest.raises(InvalidVariantError) as caught:
        perudo.variant_from_toml(text)
    message = str(caught.value)
    assert "[dice] per_player: 50 is above the maximum 20" in message
    assert "[scoring] kind: 'nope' is not one of" in message


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('extends = "wango"\nname = "x"\n', "a derived edition gives its own key"),
        ('extends = "wango"\nkey = "wango"\n', "shipped edition's or the parent's key"),
        ('extends = "wango"\nkey = "italian"\n', "shipped edition's or the parent's key"),
        ('extends = "klingon"\nkey = "x"\n', "unknown edition 'klingon'"),
        ('extends = "/etc/passwd.toml"\nkey = "x"\n', "is not an edition key"),
        ('extends = "../variants/wango.toml"\nkey = "x"\n', "is not an edition key"),
    ],
)
def test_extends_is_refused_when(text: str, problem: str) -> None:
    with pytest.raises(perudo.PerudoError, match=problem):
        perudo.variant_from_toml(text)


def test_a_file_extends_a_file_beside_it(tmp_path: Path) -> None:
    (tmp_path / "base.toml").write_text(HOUSE, encoding="utf-8")
    (tmp_path / "child.toml").write_text(
        'extends = "base.toml"\nkey = "child"\n[dice]\nper_player = 4\n'
        'provenance = "reading"\nreason = "Four dice."\n',
        encoding="utf-8",
    )
    child = perudo.load_variant(tmp_path / "child.toml")
    assert (child.key, child.dice.per_player, child.cap) == ("child", 4, DiceInPlayCap())
    (tmp_path / "loop.toml").write_text('extends = "loop.toml"\nkey = "loop"\n', "utf-8")
    with pytest.raises(InvalidVariantError, match="more than 8 levels"):
        perudo.load_variant(tmp_path / "loop.toml")


def test_extends_lays_the_parents_declaration_as_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parent is merged as its declaration (read and checked once, its errors naming
    its own file), never as a rebuilt edition's ``to_dict()``."""

    written: list[str] = []
    to_dict = perudo.Variant.to_dict

    def spied(self: perudo.Variant) -> dict[str, Any]:
        written.append(self.key)
        return to_dict(self)

    monkeypatch.setattr(perudo.Variant, "to_dict", spied)
    (tmp_path / "base.toml").write_text(HOUSE, encoding="utf-8")
    (tmp_path / "child.toml").write_text(
        'extends = "base.toml"\nkey = "child"\n[dice]\nper_player = 4\n'
        'provenance = "reading"\nreason = "Four dice."\n',
        encoding="utf-8",
    )
    assert perudo.load_variant(tmp_path / "child.toml").dice.per_player == 4
    shipped = perudo.variant_from_toml(
        'extends = "wango"\nkey = "wango-4"\n[dice]\nper_player = 4\n'
        'provenance = "reading"\nreason = "Four dice."\n'
    )
    assert (shipped.dice.per_player, shipped.words) == (4, perudo.load_variant("wango").words)
    assert set(written) <= {"child", "wango-4"}  # each edition's own fingerprint, no parent's
    broken = HOUSE.replace('kind = "dice-in-play"', 'kind = "no-such-cap"')
    (tmp_path / "base.toml").write_text(broken, encoding="utf-8")
    with pytest.raises(InvalidVariantError, match=r"^'base.toml': \[cap\] kind"):
        perudo.load_variant(tmp_path / "child.toml")


def test_derive_changes_every_axis_it_is_given() -> None:
    italian = perudo.load_variant("italian")
    for axis in perudo.AXES:
        derived = italian.derive(f"it-{axis}", reason="R.", **{axis: italian.component(axis)})
        assert derived.provenance_of(axis).kind == "reading", axis
        assert derived.component(axis) == italian.component(axis)


def test_bagos_declares_itself_with_extends() -> None:
    bagos = perudo.load_variant(EXAMPLES / "bagos.toml")
    assert (bagos.key, bagos.dice.per_player, bagos.words.dudo) == ("bagos", 3, "Liar")
    hands = [[1, 1, 4], [2, 4, 6], [3, 5, 6]]
    # Ones are wild: 4x4 stands (two 4s and two ones).
    state = perudo.new_game(bagos, 3, seed=1, dice=hands, first_player=0)
    after = state.apply(Bid(4, 4)).apply(Dudo())
    assert after.last_result is not None
    assert (after.last_result.count, after.last_result.loser) == (4, 1)
    assert after.to_act == 0  # the winner of the challenge (the bidder) opens
    # A round opened on ones: ones count only as ones, so 3x1 is false (two ones)...
    ones = state.apply(Bid(3, 1)).apply(Dudo())
    assert (ones.last_result.count, ones.last_result.loser) == (2, 0)  # type: ignore[union-attr]
    assert ones.to_act == 1  # ...and the challenger, who won, opens
    # ...and a later bid on 4s counts 4s alone (no wild ones this round).
    later = state.apply(Bid(1, 1)).apply(Bid(3, 4)).apply(Dudo())
    assert later.last_result.count == 2  # type: ignore[union-attr]
    assert not state.apply(Bid(3, 1)).is_legal(Bid(3, 1))  # no conversion: ones rank lowest
    assert state.apply(Bid(3, 1)).is_legal(Bid(3, 2))


# --- 2. derive in Python -------------------------------------------------------------------


def test_derive_takes_components_or_sections_and_marks_them_readings() -> None:
    italian = perudo.load_variant("italian")
    by_component = italian.derive("italian-capped", reason="Caps.", cap=DiceInPlayCap())
    by_section = italian.derive("italian-capped", reason="Caps.", cap={"kind": "dice-in-play"})
    assert by_component == by_section
    assert by_component.provenance_of("cap") == perudo.Provenance("reading", None, "Caps.")
    four = italian.derive("four", reason="Four dice.", dice={"per_player": 4})
    assert four.dice.per_player == 4
    assert four.provenance_of("dice").kind == "reading"
    stated = italian.derive(
        "x", reason="r", cap={"kind": "dice-in-play", "provenance": "stated", "quote": "Q."}
    )
    assert stated.provenance_of("cap") == perudo.Provenance("stated", "Q.", None)
    with pytest.raises(TypeError, match="unexpected keyword argument 'sky'"):
        italian.derive("x", reason="r", sky=1)  # type: ignore[call-arg]  (mypy says so first)
    with pytest.raises(InvalidVariantError, match="shipped edition's"):
        italian.derive("spanish", reason="r", cap=DiceInPlayCap())
    with pytest.raises(InvalidVariantError, match="is not a cap kind"):
        italian.derive("x", reason="r", cap=Elimination())


def test_derive_sets_the_header_and_keeps_the_rest() -> None:
    italian = perudo.load_variant("italian")
    ours = italian.derive(
        "ours", reason="Ours.", name="Our table", summary="Italian, capped.",
        source="our club's sheet", language="English", cap={"kind": "dice-in-play"},
    )  # fmt: skip
    assert (ours.name, ours.summary, ours.source, ours.language) == (
        "Our table",
        "Italian, capped.",
        "our club's sheet",
        "English",
    )
    # A changed axis is not the source's: the edition says it is derived, and why
    # (regression: it kept the parent's source, crediting it with a cap it does not state).
    capped = italian.derive("capped", reason="Ours.", cap={"kind": "dice-in-play"})
    assert capped.source == "derived from Italian Palifico (italian): Ours."
    assert capped.language == italian.language  # its words are still the parent's
    renamed = italian.derive("renamed", reason="Our words.", words={"dudo": "Liar"})
    assert (renamed.source, renamed.language) == (italian.source, italian.language)
    declared = perudo.variant_from_toml(
        'extends = "italian"\nkey = "capped"\n[cap]\nkind = "dice-in-play"\n'
        'provenance = "reading"\nreason = "Ours."\n'
    )
    assert declared.source == capped.source  # a declaration that extends: the same rule
    with pytest.raises(InvalidVariantError, match="summary: holds the control"):
        italian.derive("bad", reason="Ours.", summary="Italian\x1b[2J")


# --- 3. words are free -------------------------------------------------------------------


def pub() -> perudo.Variant:
    return perudo.load_variant("italian").derive(
        "pub", reason="A pub's words.", words={"dudo": "Liar", "ones": "stars",
                                               "special_round": "Last stand"},
    )  # fmt: skip


def test_the_editions_words_are_read_in_any_case() -> None:
    variant = pub()
    assert perudo.parse_action("  LIAR ", variant=variant) == Dudo()
    assert perudo.parse_action("liar!", variant=variant) == Dudo(pressure=True)
    assert perudo.parse_action("Last Stand", variant=variant) == Declare("last stand")
    assert perudo.parse_action("declare last stand", variant=variant) == Declare("last stand")
    assert perudo.parse_action("3x4", variant=variant) == Bid(3, 4)
    spot = example("spot_on.py")["variant"]()
    assert perudo.parse_action("Spot  on", variant=spot) == Calza()
    with pytest.raises(perudo.IllegalActionError, match="liar, last stand or ordinary"):
        perudo.parse_action("dubito", variant=variant)


@pytest.mark.slow
def test_same_rules_different_words() -> None:
    comparison = compare("italian", pub(), witnesses=False)
    assert comparison.same_rules
    assert not comparison.same_words
    assert comparison.summary == "same rules, different words"
    out = io.StringIO()
    assert main(["compare", "italian", str(EXAMPLES / "bagos.toml")], out=out) == 0
    assert "Different rules (dice, wilds" in out.getvalue()
    assert "dudo: Dubito / Liar" in out.getvalue()


def test_words_show_in_play_and_prose() -> None:
    variant = pub()
    state = perudo.new_game(variant, 2, seed=3, dice=[[2, 3], [4, 5, 6, 6, 6]], first_player=0)
    state = state.apply(Bid(3, 2)).apply(Dudo())  # seat 0 drops to one die
    assert state.offers == ("last stand", "ordinary")
    state = state.apply(perudo.parse_action("last stand", variant=variant))
    assert state.special_round == "last stand"
    refusal = state.apply(Bid(1, 2)).check(Bid(2, 3), by=1)
    assert refusal is not None
    assert "in a Last stand round only" in refusal.message
    assert state.view(0).to_dict()["special_round"] == "last stand"
    after = state.apply(Bid(1, 2)).apply(Dudo())
    assert after.last_result is not None
    assert after.last_result.word == "Liar"
    text = rules_text(variant)
    assert "'Liar' challenges" in text
    assert "Last stand: a player" in text
    assert "Stars are wild" in text


# --- 4. kinds are open ------------------------------------------------------------------


@attrs.frozen
class MaxCap:
    """A bid's quantity may not exceed a fixed number."""

    axis: ClassVar[str] = "cap"
    kind: ClassVar[str] = "test-max"
    caps: ClassVar[bool] = True
    most: int = param(int, minimum=1, maximum=1000)

    def describe(self, words: Words, dice: int) -> str:
        return f"Bids are capped at the dice in play, and at {self.most}."

    def label(self, words: Words) -> str:
        return f"max {self.most}"


def test_a_kind_registered_outside_perudo_is_usable_everywhere() -> None:
    register_kind(MaxCap)
    register_kind(MaxCap)  # again: no change
    assert rule_kinds("cap")["test-max"] is MaxCap
    text = (
        'extends = "italian"\nkey = "italian-max"\nname = "Italian Palifico (italian-max)"\n'
        '[cap]\nkind = "test-max"\nmost = 7\n'
        'provenance = "reading"\nreason = "Test."\n'
    )
    from_toml = perudo.variant_from_toml(text)
    from_python = perudo.load_variant("italian").derive(
        "italian-max", reason="Test.", cap=MaxCap(7)
    )
    assert from_toml == from_python
    assert from_toml.user_kinds == ("cap:test-max",)
    assert "at 7" in rules_text(from_toml)
    assert perudo.Variant.from_dict(from_toml.to_dict()) == from_toml
    comparison = compare("italian", from_toml, budget=400)
    assert comparison.differing == ("cap",)
    assert comparison.axis("cap").witnesses  # the witness search finds it at work
    state = perudo.new_game(from_toml, 2, seed=1)
    encoding = observation_encoding(from_toml, 2)
    assert encoding.decode(encoding.encode(state.view(0)), ["Player 1", "Player 2"]) == state.view(
        0
    )


def test_the_docs_list_registered_kinds() -> None:
    sys.path.insert(0, str(Path(__file__).parent.parent / "docs" / "_ext"))
    try:
        from perudo_editions import schema_page
    finally:
        sys.path.pop(0)
    register_kind(MaxCap)
    assert '`kind = "test-max"`' in schema_page()


@pytest.mark.parametrize(
    ("cls", "problem"),
    [
        (type("NotAttrs", (), {"axis": "cap", "kind": "x"}), "is not an attrs class"),
        (attrs.frozen(type("NoAxis", (), {"kind": "x", "__annotations__": {}})), "axis None"),
        (attrs.frozen(type("BadKind", (), {"axis": "cap", "kind": "Bad Kind"})), "not a kind name"),
        (attrs.frozen(type("NoCaps", (), {"axis": "cap", "kind": "test-nocaps"})), "lacks"),
        (attrs.frozen(type("Clash", (), {"axis": "cap", "kind": "none", "caps": True,
                                          "describe": lambda s, w, d: "",
                                          "label": lambda s, w: ""})), "already NoCap"),
        (attrs.frozen(type("Undocumented", (), {"axis": "cap", "kind": "test-undocumented",
                                                "caps": True, "describe": lambda s, w, d: "",
                                                "label": lambda s, w: ""})), "has no docstring"),
        (attrs.frozen(type("MyNoCap", (NoCap,), {"__doc__": "No cap, again."})),
         'inherits the kind \'none\' of its base: give it its own.*kind = "my-no-cap"'),
    ],
)  # fmt: skip
def test_a_kind_that_breaks_the_protocol_is_refused_at_registration(
    cls: type, problem: str
) -> None:
    with pytest.raises(InvalidVariantError, match=problem):
        register_kind(cls)


@attrs.frozen
class SulkyScoring:
    """Elimination, with a settlement that breaks the protocol: a string, or an exception."""

    axis: ClassVar[str] = "scoring"
    kind: ClassVar[str] = "test-sulky"
    moves_dice: ClassVar[bool] = True
    pressure_uses: ClassVar[int] = 0
    most_points: ClassVar[int] = 0
    zero_sum: ClassVar[bool] = True
    mode: str = param(str, choices=("string", "raise-later"))

    def settle(self, context: perudo.rules.CallContext) -> Any:
        if self.mode == "string":
            return "one"
        if context.round_number != 1 or context.dice != (3, 2, 3):  # the load-time check
            raise RuntimeError("sulking")
        return (0, 0, -1)

    def is_over(self, context: perudo.rules.SettledCall) -> bool:
        return sum(1 for n in context.after if n) <= 1

    def round_limit(self, players: int) -> int | None:
        return None

    def winners(self, context: perudo.rules.RoundContext) -> tuple[int, ...]:
        return tuple(seat for seat, n in enumerate(context.dice) if n)

    def describe(self, words: Words, dice: int) -> str:
        return "Sulks."

    def label(self, words: Words) -> str:
        return "sulky"


def test_a_kind_that_breaks_its_protocol_is_named_at_load_or_at_the_action() -> None:
    register_kind(SulkyScoring)
    wango = perudo.load_variant("wango")
    with pytest.raises(InvalidVariantError, match=r"test-sulky.*settle returned \['one'"):
        wango.derive("sulky", reason="r", scoring={"kind": "test-sulky", "mode": "string"})
    later = wango.derive("sulky", reason="r", scoring={"kind": "test-sulky", "mode": "raise-later"})
    state = perudo.new_game(later, 2, seed=1, dice=[[2, 2, 3, 4, 5], [6] * 5], first_player=0)
    with pytest.raises(InvalidVariantError, match=r"scoring:test-sulky.*RuntimeError: 'sulking'"):
        state.apply(Bid(3, 2)).apply(Dudo())


@attrs.frozen
class MoodyStart(RollOff):
    """The roll-off, except on seed 99, where it breaks."""

    kind: ClassVar[str] = "test-moody-start"

    def first(self, seed: int, context: perudo.rules.RoundContext) -> int:
        if seed == 99:
            raise KeyError("no opener today")
        return super().first(seed, context)


def test_a_kind_names_itself_when_it_raises_and_perudos_own_are_never_wrapped() -> None:
    """Each method of a kind from outside perudo is wrapped once, so a failure names the
    kind wherever the engine asks it (new_game here, which no guard covered once)."""
    with registered(MoodyStart):
        moody = perudo.load_variant("italian").derive(
            "italian-moody", reason="Test.", first_player={"kind": "test-moody-start"}
        )
        assert perudo.new_game(moody, 3, seed=1).to_act in (0, 1, 2)
        with pytest.raises(InvalidVariantError) as caught:
            perudo.new_game(moody, 3, seed=99)
    assert str(caught.value) == (
        "rule kind first_player:test-moody-start broke its protocol: first raised KeyError: "
        "\"'no opener today'\""
    )
    assert isinstance(caught.value.__cause__, KeyError)
    assert getattr(MoodyStart.first, "names_failures", False)
    assert not hasattr(RollOff.first, "names_failures")  # its base, perudo's own: untouched


def test_kinds_come_from_the_entry_point_group(monkeypatch: pytest.MonkeyPatch) -> None:
    point = importlib.metadata.EntryPoint(
        name="maxcap", value=f"{__name__}:MaxCap", group="perudo.rules"
    )
    broken = importlib.metadata.EntryPoint(
        name="broken", value="no_such_module:Thing", group="perudo.rules"
    )
    seen: list[str] = []

    def fake(*, group: str) -> list[importlib.metadata.EntryPoint]:
        seen.append(group)
        return [point]

    monkeypatch.setattr("perudo.rules.registry.entry_points", fake)
    registry = KindRegistry(())
    assert registry.kinds("cap")["test-max"] is MaxCap
    assert seen == ["perudo.rules"]
    monkeypatch.setattr("perudo.rules.registry.entry_points", lambda *, group: [broken])
    with pytest.raises(InvalidVariantError, match=r"entry point 'broken' of perudo\.rules"):
        KindRegistry(()).kinds("cap")


# --- 5. the rule sets from outside the sources -----------------------------------------------


def test_lose_the_difference_is_defined_outside_perudo() -> None:
    module = example("lose_the_difference.py")
    variant = module["variant"]()
    assert variant.user_kinds == ("scoring:lose-the-difference",)
    hands = [[2, 2, 3, 4, 5], [6, 6, 6, 6, 6]]
    state = perudo.new_game(variant, 2, seed=1, dice=hands, first_player=0)
    after = state.apply(Bid(5, 2)).apply(Dudo())  # two 2s: wrong by three
    assert after.last_result is not None
    assert after.last_result.changes == (-3, 0)
    assert len(after.players[0].dice) == 2
    exact = state.apply(Bid(2, 2)).apply(Dudo())  # exactly right: the challenger loses one
    assert exact.last_result.changes == (0, -1)  # type: ignore[union-attr]
    module["main"]()


def test_spot_on_is_defined_outside_perudo() -> None:
    module = example("spot_on.py")
    variant = module["variant"]()
    hands = [[2, 2, 3], [2, 6], [4, 5, 6]]
    state = perudo.new_game(variant, 3, seed=1, dice=hands, first_player=0).apply(Bid(3, 2))
    right = state.apply(Calza())  # seat 1 calls: three 2s, spot on
    assert right.last_result is not None
    assert right.last_result.changes == (-1, 0, -1)
    assert right.last_result.describe().endswith("Player 1 loses a die; Player 3 loses a die")
    assert right.to_act == 1
    wrong = perudo.new_game(variant, 3, seed=1, dice=hands, first_player=0).apply(Bid(2, 2))
    assert wrong.apply(Calza()).last_result.changes == (0, -1, 0)  # type: ignore[union-attr]
    with pytest.raises(perudo.IllegalActionError, match="Spot on is called on your own turn"):
        state.apply(Calza(), by=2)
    assert compare("italian", variant, witnesses=False).differing == ("exact_call",)
    module["main"]()


# --- the round's context ----------------------------------------------------------------


def test_the_context_is_the_round_as_the_rules_see_it() -> None:
    state = perudo.new_game("french-jonti", 4, seed=3, first_player=1)
    state = state.apply(perudo.Bid(2, 3)).apply(perudo.Bid(3, 3))
    context = state.context
    assert (context.to_act, context.bidder, context.bid) == (3, 2, perudo.Bid(3, 3))
    assert [(b.player, b.bid) for b in context.bids] == [
        (1, perudo.Bid(2, 3)),
        (2, perudo.Bid(3, 3)),
    ]
    assert context.dice == (5, 5, 5, 5)
    assert (context.players, context.players_in, context.dice_per_player) == (4, 4, 5)
    assert context.words.calza == "Jonti"
    assert (context.left_of(3), context.right_of(0), context.right_of(2)) == (0, 3, 1)
    assert state.context is context  # one value a position, made once
    fields = {field.name for field in attrs.fields(type(context))}
    assert "hands" not in fields  # no die of any hand: a kind sees what the table sees


def test_the_context_skips_seats_that_are_out() -> None:
    words = perudo.load_variant("italian").words
    rules = perudo.load_variant("italian").round_rules()
    context = perudo.rules.RoundContext(
        words=words,
        faces=6,
        dice_per_player=5,
        dice=(1, 0, 2, 0),
        round_number=7,
        to_act=0,
        bids=(),
        rules=rules,
        scores=(0,) * 4,
        starting=(5,) * 4,
    )
    assert (context.left_of(0), context.left_of(2), context.right_of(0)) == (2, 0, 2)
    assert context.is_in(2)
    assert not context.is_in(3)
    assert context.order_from(0) == (2, 0)
    assert context.order_from(2) == (0, 2)


def test_the_starter_sees_the_settled_call(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[perudo.rules.SettledCall] = []
    starter = perudo.rules.LoserStarts("left")
    original = type(starter).next_opener

    def spy(self: perudo.rules.LoserStarts, context: perudo.rules.SettledCall) -> int:
        seen.append(context)
        return original(self, context)

    monkeypatch.setattr(perudo.rules.LoserStarts, "next_opener", spy)
    hands = [[2, 2], [3, 3], [4, 4]]
    hands_shown = ((2, 2), (3, 3), (4, 4))  # Italian shows from the caller's left: all here
    state = perudo.new_game("italian", 3, seed=1, dice=hands, first_player=0)
    after = state.apply(perudo.Bid(3, 3)).apply(perudo.Dudo())  # two 3s: seat 0 loses
    (context,) = seen
    assert (context.call, context.caller, context.count, context.losers) == (
        "challenge",
        1,
        2,
        (0,),
    )
    assert (context.called.player, context.to_act, context.dice) == (0, None, (2, 2, 2))
    assert (context.changes, context.after, context.shown) == ((-1, 0, 0), (1, 2, 2), hands_shown)
    assert context.called.bid == perudo.Bid(3, 3)
    assert after.to_act == 0
