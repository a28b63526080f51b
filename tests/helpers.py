"""Small helpers to set up positions in tests."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import attrs

import perudo
from perudo import Act, Action, Bid, Calza, Declare, Dudo, GameState, HandBid, OutOfTime, Paso

#: The six editions of RULES.md, from the five sources: the tests of their rules use these.
#: Every shipped edition (OpenSpiel's liars_dice and Bluff too) is ``perudo.variant_names()``.
SIX = ("french-calza", "french-jonti", "italian", "spanish", "wango", "wango-party")


#: A declaration file naming the scoring kind of ``examples/lose_the_difference.py``, known
#: only once that module has run (a plugin, an import).
LOSE_THE_DIFFERENCE = """\
extends = "wango"
key = "wango-lose-the-difference"
name = "WANGO classic, lose the difference"

[scoring]
kind = "lose-the-difference"
provenance = "reading"
reason = "A common house rule: the loser loses as many dice as the bid was wrong by."
"""


@contextmanager
def registered(*kinds: type) -> Iterator[None]:
    """``kinds`` registered for the block, then gone: the doctest of ``rule_kinds`` lists
    every kind of an axis, so a test's kinds must not outlive it."""
    from perudo.rules.registry import _REGISTRY

    for kind in kinds:
        perudo.register_kind(kind)
    try:
        yield
    finally:
        for kind in kinds:
            _REGISTRY._kinds[kind.axis].pop(kind.kind)  # type: ignore[attr-defined]


def act(text: str) -> Action:
    """``"3x4"``, ``"3x4!"``, ``"dudo"``, ``"dudo!"``, ``"calza"`` (or ``"bull"``),
    ``"paso"``, ``"time"``, ``"declare palifico"``, ``"reroll 2 5"``, a hand ``"6-5"``."""
    if text.startswith("declare "):
        return Declare(text.removeprefix("declare "))
    if "-" in text:
        return HandBid(tuple(int(face) for face in text.split("-")))
    if text.startswith("reroll"):
        return Act("reroll", tuple(int(face) for face in text.split()[1:]))
    pressure = text.endswith("!")
    text = text.removesuffix("!")
    if text == "dudo":
        return Dudo(pressure=pressure)
    if text in ("calza", "bull"):  # the exact call, whatever the edition calls it
        return Calza()
    if text == "paso":
        return Paso()
    if text == "time":
        return OutOfTime()
    quantity, face = text.split("x")
    return Bid(int(quantity), int(face), pressure=pressure)


def game(
    variant: str | perudo.Variant,
    hands: Sequence[Sequence[int]],
    *,
    first: int = 0,
    seed: int = 0,
) -> GameState:
    """A game whose round 1 has ``hands`` and is opened by seat ``first``."""
    return perudo.new_game(variant, len(hands), seed=seed, dice=hands, first_player=first)


def play(state: GameState, *moves: str) -> GameState:
    """Apply ``moves`` in turn; ``"calza@3"`` makes seat 3 act out of turn."""
    for move in moves:
        text, _, seat = move.partition("@")
        state = state.apply(act(text), by=int(seat) if seat else perudo.TO_ACT)
    return state


def check_random_games(variant: perudo.Variant, players: int, seeds: int) -> None:
    """Play ``seeds`` random games of ``variant``: every view of every position reads back
    from its observation, and every game replays from its record, as text and as JSON."""
    import random

    from perudo.encoding import observation_encoding

    encoding = observation_encoding(variant, players)
    for seed in range(seeds):
        state, rng = perudo.new_game(variant, players, seed=seed), random.Random(seed)
        while not state.is_over:
            names = [p.name for p in state.players]
            for seat in range(players):
                view = state.view(seat)
                assert encoding.decode(encoding.encode(view), names) == view
            state = state.apply(rng.choice(state.legal_actions()))
        record = perudo.GameRecord.from_state(state)
        assert perudo.GameRecord.from_text(record.to_text()).replay(variant) == state
        assert perudo.GameRecord.from_json(record.to_json()).replay(variant) == state


def set_round(state: GameState, hands: Sequence[Sequence[int]]) -> GameState:
    """The same position with this round's hands replaced."""
    return state.with_dice(hands)


# --- contexts, for testing a kind's methods on their own ---------------------------------

WORDS = perudo.Words(dudo="Dudo", calza="Calza", special_round="Palifico")
ITALIAN_RULES = perudo.load_variant("italian").round_rules()


def context(
    dice: Sequence[int] = (5, 5, 5),
    bids: Sequence[tuple[int, str]] = (),
    *,
    to_act: int | None = 0,
    rules: perudo.rules.RoundRules | None = None,
    faces: int = 6,
    scores: Sequence[int] | None = None,
    starting: Sequence[int] | None = None,
    round_number: int = 1,
) -> perudo.rules.RoundContext:
    """A round as the rules see it: ``bids`` are ``(seat, "3x4")`` pairs, in order."""
    placed = tuple(perudo.PlacedBid(seat, act(text)) for seat, text in bids)  # type: ignore[arg-type]
    return perudo.rules.RoundContext(
        words=WORDS,
        faces=faces,
        dice_per_player=5,
        dice=tuple(dice),
        round_number=round_number,
        to_act=to_act,
        bids=placed,
        rules=rules or ITALIAN_RULES,
        scores=tuple(scores or (0,) * len(dice)),
        starting=tuple(starting or (5,) * len(dice)),
    )


def called(
    round_context: perudo.rules.RoundContext,
    call: str,
    caller: int,
    count: int,
    *,
    pressured: bool = False,
) -> perudo.rules.CallContext:
    """That round called by ``caller`` and counted ``count`` (every hand shown, unseen)."""
    fields = attrs.asdict(round_context, recurse=False)
    fields["to_act"] = None  # a call ends the turns
    shown = tuple(() for _ in round_context.dice)
    return perudo.rules.CallContext(
        **fields, call=call, caller=caller, pressured=pressured, shown=shown, count=count
    )


def settled(
    call_context: perudo.rules.CallContext,
    changes: Sequence[int],
    points: Sequence[int] | None = None,
) -> perudo.rules.SettledCall:
    """That call settled with ``changes`` of dice (and ``points``)."""
    dice = call_context.dice
    after = tuple(n + change for n, change in zip(dice, changes, strict=True))
    return perudo.rules.SettledCall(
        **attrs.asdict(call_context, recurse=False),
        changes=tuple(changes),
        points=tuple(points or (0,) * len(dice)),
        after=after,
    )


def four_faces(key: str) -> perudo.Variant:
    """The shipped edition ``key`` on dice of four faces: rounds small enough to solve."""
    return perudo.load_variant(key).derive(
        f"{key}-d4", reason="Test.", dice={"per_player": 5, "faces": 4}
    )


def batch_plays(key: str) -> bool:
    """Whether the batch engine is installed and plays the shipped edition ``key``."""
    try:
        from perudo.batch.rules import batch_rules
    except ImportError:
        return False
    try:
        batch_rules(perudo.load_variant(key))
    except perudo.GameSetupError:
        return False
    return True
