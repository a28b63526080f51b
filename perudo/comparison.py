"""Compare editions: axis by axis, and with witnesses found by searching small positions.

A *witness* is a concrete position and action that shows an axis at work: an action legal
in one edition and refused in the other (with both verdicts and reasons), or an action
both allow whose outcome differs (who loses or gains what, who opens next, which round
follows). Witnesses are searched, not written by hand: small random tables are played
under both editions side by side until they part, and the parting is credited to each
axis that alone, swapped into the first edition, makes it part the same way.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import attrs

from perudo.actions import Action, Bid
from perudo.errors import PerudoError
from perudo.loader import load_variant
from perudo.players import TO_ACT, Seat
from perudo.prose import describe
from perudo.record import GameRecord
from perudo.rules import Provenance, Words
from perudo.setup import new_game
from perudo.state import GameState
from perudo.variant import AXES, Variant

__all__ = ["AxisComparison", "Comparison", "Verdict", "Witness", "compare", "verdicts"]


@attrs.frozen
class Verdict:
    """What one edition says of an action in a position.

    Attributes:
        variant: The edition key.
        legal: Whether the action is legal; ``None`` if the position cannot arise in this
            edition (``reason`` says why).
        reason: The refusal's reason code, or ``"unreachable"``.
        message: The refusal's sentence.
        outcome: For a legal action, what follows: the call's resolution and how the next
            round starts.
    """

    variant: str
    legal: bool | None
    reason: str | None = None
    message: str | None = None
    outcome: str | None = None

    def __str__(self) -> str:
        if self.legal is None:
            return f"{self.variant}: cannot arise ({self.message})"
        if not self.legal:
            return f"{self.variant}: refused ({self.reason}: {self.message})"
        return f"{self.variant}: legal" + (f"; {self.outcome}" if self.outcome else "")


@attrs.frozen
class Witness:
    """A position and an action on which two editions part.

    Attributes:
        axis: The axis it shows.
        kind: ``"legality"``, ``"outcome"`` or ``"setup"`` (a table one edition refuses).
        position: The position, as the record of the moves that lead to it (under the
            first edition); ``None`` for a setup witness.
        action: The action, with ``player`` the seat taking it.
        player: The acting seat.
        verdicts: Both editions' verdicts.
        setup: For a setup witness, the table in question.
    """

    axis: str
    kind: str
    position: GameRecord | None
    action: Action | None
    player: int | None
    verdicts: tuple[Verdict, Verdict]
    setup: str | None = None

    def describe(self) -> str:
        """The witness in sentences."""
        if self.position is None:
            return f"{self.setup}: " + "; ".join(str(v) for v in self.verdicts)
        moves = ", ".join(f"{action} by seat {seat}" for seat, action in self.position.moves)
        hands = self.position.dice[0][1] if self.position.dice else ()
        table = " ".join("[" + "".join(map(str, hand)) + "]" for hand in hands)
        head = f"hands {table}, seat {self.position.first_player} opens"
        if moves:
            head += f", then {moves}"
        return f"{head}: {self.action} by seat {self.player} -> " + "; ".join(
            str(v) for v in self.verdicts
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "axis": self.axis,
            "kind": self.kind,
            "position": None if self.position is None else self.position.to_dict(),
            "action": None if self.action is None else str(self.action),
            "player": self.player,
            "verdicts": [attrs.asdict(v) for v in self.verdicts],
            "setup": self.setup,
            "text": self.describe(),
        }


@attrs.frozen
class AxisComparison:
    """One axis of two editions: both settings (each a component, or ``None`` for an axis
    that edition never asks: :meth:`perudo.Variant.asks`) with their provenance, and
    witnesses."""

    axis: str
    a: Any
    b: Any
    a_provenance: Provenance
    b_provenance: Provenance
    witnesses: tuple[Witness, ...]

    @property
    def same(self) -> bool:
        """Whether both editions have the same mechanics on this axis (``None`` stands for
        an axis an edition never asks: :meth:`perudo.Variant.asks`)."""
        return bool(self.a == self.b)


@attrs.frozen
class Comparison:
    """Two editions compared on every axis."""

    a: Variant
    b: Variant
    axes: tuple[AxisComparison, ...]

    @property
    def differing(self) -> tuple[str, ...]:
        """The axes on which the editions' mechanics differ."""
        return tuple(item.axis for item in self.axes if not item.same)

    @property
    def same_rules(self) -> bool:
        """Whether the editions play the same game (whatever their words)."""
        return not self.differing

    @property
    def same_words(self) -> bool:
        """Whether the editions call things by the same words."""
        return bool(self.a.words == self.b.words)

    @property
    def summary(self) -> str:
        """The comparison in one sentence. Same or different rules, and words.

        >>> import perudo
        >>> compare("italian", "spanish", witnesses=False).summary
        'different rules (raising, challenge, special_round), different words'
        """
        rules = (
            "same rules" if self.same_rules else f"different rules ({', '.join(self.differing)})"
        )
        return f"{rules}, {'same' if self.same_words else 'different'} words"

    def axis(self, name: str) -> AxisComparison:
        """The comparison on axis ``name``."""
        return self.axes[AXES.index(name)]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "a": self.a.key,
            "b": self.b.key,
            "same_rules": self.same_rules,
            "same_words": self.same_words,
            "summary": self.summary,
            "words": {"a": _words(self.a.words), "b": _words(self.b.words)},
            "axes": [
                {
                    "axis": item.axis,
                    "same": item.same,
                    "a": {"setting": describe(self.a, item.axis), **_prov(item.a_provenance)},
                    "b": {"setting": describe(self.b, item.axis), **_prov(item.b_provenance)},
                    "witnesses": [w.to_dict() for w in item.witnesses],
                }
                for item in self.axes
            ],
        }


def _prov(source: Provenance) -> dict[str, Any]:
    return {
        "provenance": source.kind,
        "quote": source.quote,
        "translation": source.translation,
        "reason": source.reason,
    }


# --- verdicts ------------------------------------------------------------------------------


def _rebuild(record: GameRecord, variant: Variant) -> GameState | Verdict:
    """The position of ``record`` under ``variant``, or the verdict that it cannot arise."""
    try:
        return record.replay_as(variant)
    except PerudoError as error:
        return Verdict(variant=variant.key, legal=None, reason="unreachable", message=str(error))


def _outcome(before: GameState, after: GameState) -> str | None:
    if after.last_result is before.last_result:
        return None
    assert after.last_result is not None
    names = [f"seat {seat}" for seat in range(len(after.players))]
    text = after.last_result.describe(names)
    if after.is_over:
        return text + "; the game is over"
    text += f"; seat {after.to_act} opens round {after.round_number}"
    if after.special_round is not None:
        text += f" as a {after.special_round.capitalize()} round"
    elif after.offers:
        text += f" and may declare {' or '.join(after.offers)}"
    return text


def _verdict(state: GameState, action: Action, by: Seat) -> Verdict:
    key = state.variant.key
    try:
        violation = state.check(action, by)
    except PerudoError as error:
        return Verdict(
            variant=key,
            legal=False,
            reason=getattr(error, "reason", "malformed-action"),
            message=str(error),
        )
    if violation is not None:
        return Verdict(variant=key, legal=False, reason=violation.reason, message=violation.message)
    return Verdict(variant=key, legal=True, outcome=_outcome(state, state.apply(action, by=by)))


def verdicts(
    state: GameState, action: Action, variants: Sequence[Variant | str], *, by: Seat = TO_ACT
) -> tuple[Verdict, ...]:
    """Which editions allow ``action`` (by seat ``by``, default the player to act) in
    ``state``'s position.

    The position is rebuilt in each edition from the state's record (same seed, names,
    dice and moves); where the moves that lead to it are not all legal, the verdict says
    the position cannot arise there.

    >>> import perudo
    >>> state = perudo.new_game("italian", 3, seed=1, first_player=0).apply(perudo.Bid(3, 3))
    >>> [v.legal for v in verdicts(state, perudo.Bid(4, 2), ["italian", "spanish"])]
    [True, False]
    """
    record = GameRecord.from_state(state)
    out = []
    for variant in variants:
        variant = variant if isinstance(variant, Variant) else load_variant(variant)
        rebuilt = _rebuild(record, variant)
        if isinstance(rebuilt, Verdict):
            out.append(rebuilt)
            continue
        out.append(_verdict(rebuilt, action, by))
    return tuple(out)


# --- the search ----------------------------------------------------------------------------


def _words(words: Words) -> dict[str, Any]:
    data = attrs.asdict(words)
    data["faces"] = {str(face): name for face, name in words.faces}
    return data


def _signature(state: GameState) -> tuple[Any, ...]:
    """What an outcome is, edition words aside."""
    result = state.last_result
    call = None
    if result is not None:
        call = (result.call, result.changes, result.points, result.revealed, result.count)
    return (
        state.round_number,
        state.to_act,
        tuple(len(p.dice) for p in state.players),
        tuple(p.score for p in state.players),
        state.special_round,
        state.offers,
        state.must_declare,
        call,
    )


def _result(state: GameState | None, action: Action, seat: int) -> tuple[Any, ...] | None:
    """The verdict and outcome of ``action`` in ``state``, for comparing editions."""
    if state is None:
        return None
    if state.check(action, by=seat) is not None:
        return ("refused",)
    return ("legal", _signature(state.apply(action, by=seat)))


def _candidates(states: Sequence[GameState], rng: random.Random) -> list[tuple[Action, int]]:
    first = states[0]
    assert first.to_act is not None
    pairs: set[tuple[Action, int]] = set()
    for state in states:
        pairs.update((action, state.to_act) for action in state.legal_actions())  # type: ignore[misc]
        for seat in state.seats_in:
            if seat != state.to_act:
                pairs.update((action, seat) for action in state.legal_actions(by=seat))
    pairs.add((Bid(first.dice_in_play + 1, rng.randint(2, 6)), first.to_act))
    for call in sorted({call for state in states for call in state.variant.calls}, key=str):
        pairs.add((call, rng.choice(first.seats_in)))  # a call one edition may refuse
    return sorted(pairs, key=str)


def _setup_witnesses(a: Variant, b: Variant, axes: Sequence[str]) -> dict[str, Witness]:
    found: dict[str, Witness] = {}
    if "players" in axes:
        for count in range(2, 21):
            allowed = [v.players.min <= count <= v.players.max for v in (a, b)]
            if allowed[0] != allowed[1]:
                verdicts_ = tuple(
                    Verdict(
                        variant=v.key, legal=ok, reason=None if ok else "players",
                        message=None if ok else f"{v.players.min} to {v.players.max} players",
                    )
                    for v, ok in zip((a, b), allowed, strict=True)
                )  # fmt: skip
                found["players"] = Witness(
                    axis="players", kind="setup", position=None, action=None, player=None,
                    verdicts=verdicts_,  # type: ignore[arg-type]
                    setup=f"a table of {count} players",
                )  # fmt: skip
                break
    if "dice" in axes and a.dice.per_player != b.dice.per_player:
        verdicts_ = tuple(
            Verdict(variant=v.key, legal=True, outcome=f"{v.dice.per_player} dice each")
            for v in (a, b)
        )
        found["dice"] = Witness(
            axis="dice", kind="setup", position=None, action=None, player=None,
            verdicts=verdicts_,  # type: ignore[arg-type]
            setup="the dice dealt to each player at the start",
        )  # fmt: skip
    return found


def find_witnesses(
    a: Variant, b: Variant, *, budget: int = 3000, seed: int = 0, steps: int = 12
) -> dict[str, Witness]:
    """Search small positions for a witness of every axis on which ``a`` and ``b`` differ.

    Tables of 2 to 4 players holding 1 to 3 dice are played under both editions (and under
    ``a`` with one axis of ``b`` swapped in) for up to ``steps`` actions; ``budget`` tables
    at most. Axes with no witness found are absent from the result.
    """
    axes = [axis for axis in AXES if a.component(axis) != b.component(axis)]
    found = _setup_witnesses(a, b, axes)
    hybrids = {
        axis: attrs.evolve(a, **{axis: b.component(axis)}) for axis in axes if axis not in found
    }
    low = max(a.players.min, b.players.min, 2)
    high = min(a.players.max, b.players.max, 4)
    if low > high:
        return found
    for number in range(budget):
        if all(axis in found for axis in axes):
            break
        rng = random.Random(seed * 1_000_003 + number)
        players = rng.randint(low, high)
        top = min(3, a.dice.per_player, b.dice.per_player)
        hands = [[rng.randint(1, 6) for _ in range(rng.randint(1, top))] for _ in range(players)]
        try:
            states: list[GameState | None] = [
                new_game(v, players, seed=number, dice=hands, first_player=0) for v in (a, b)
            ]
        except PerudoError:
            continue
        mixed: dict[str, GameState | None] = {
            axis: new_game(h, players, seed=number, dice=hands, first_player=0)
            for axis, h in hybrids.items()
        }
        for _ in range(steps):
            sa, sb = states
            if sa is None or sb is None or sa.is_over or sb.is_over:
                break
            both: list[tuple[Action, int]] = []
            for action, seat in _candidates([sa, sb], rng):
                ra, rb = _result(sa, action, seat), _result(sb, action, seat)
                if ra == rb:
                    if ra is not None and ra[0] == "legal":
                        both.append((action, seat))
                    continue
                for axis, hybrid in mixed.items():
                    if axis not in found and _result(hybrid, action, seat) not in (ra, None):
                        found[axis] = Witness(
                            axis=axis,
                            kind="legality" if ra[0] != rb[0] else "outcome",  # type: ignore[index]
                            position=GameRecord.from_state(sa),
                            action=action,
                            player=seat,
                            verdicts=(_verdict(sa, action, seat), _verdict(sb, action, seat)),
                        )
            if not both:
                break
            calls = [pair for pair in both if not isinstance(pair[0], Bid)]
            action, seat = rng.choice(calls if calls and rng.random() < 0.3 else both)
            states = [_step(s, action, seat) for s in states]
            mixed = {axis: _step(s, action, seat) for axis, s in mixed.items()}
    return found


def _step(state: GameState | None, action: Action, seat: int) -> GameState | None:
    if state is None or state.is_over or state.check(action, by=seat) is not None:
        return None
    return state.apply(action, by=seat)


def compare(
    a: Variant | str, b: Variant | str, *, witnesses: bool = True, budget: int = 3000
) -> Comparison:
    """Compare two editions on every axis: settings, provenance, and (unless
    ``witnesses=False``) a searched witness for each axis on which they differ.

    >>> comparison = compare("italian", "spanish", witnesses=False)
    >>> comparison.differing
    ('raising', 'challenge', 'special_round')
    """
    a = a if isinstance(a, Variant) else load_variant(a)
    b = b if isinstance(b, Variant) else load_variant(b)
    found = find_witnesses(a, b, budget=budget) if witnesses else {}
    return Comparison(
        a,
        b,
        tuple(
            AxisComparison(
                axis=axis,
                a=a.component(axis) if a.asks(axis) else None,
                b=b.component(axis) if b.asks(axis) else None,
                a_provenance=a.provenance_of(axis),
                b_provenance=b.provenance_of(axis),
                witnesses=(found[axis],) if axis in found else (),
            )
            for axis in AXES
        ),
    )


__all__ += ["find_witnesses"]
