"""An edition of Perudo: one component per axis, with where each setting comes from.

:meth:`Variant.to_dict` writes its declaration and :meth:`Variant.from_dict` reads one back;
reading, checking and merging declarations as data is :mod:`perudo.declaration`'s business,
reading files and edition keys :mod:`perudo.loader`'s.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from perudo.actions import (
    CHALLENGE,
    CHALLENGE_PRESSED,
    EXACT_CALL,
    OUT_OF_TIME,
    PASS,
    Action,
    AnyBid,
    HandBid,
)
from perudo.declaration import (
    MAX_WORD,
    NOT_ASKED_OF_HANDS,
    OPTIONAL_AXES,
    SCHEMA,
    WORDS,
    checked_declaration,
    component_table,
    is_edition_key,
    is_left_out,
    merge_declarations,
)
from perudo.errors import GameSetupError, InvalidVariantError, PerudoError, shown
from perudo.rules import (
    AXES,
    ActionRule,
    CapRule,
    ChallengeRule,
    ClaimRule,
    ClockRule,
    ConversionRule,
    DiceRule,
    ExactCallRule,
    FirstPlayerRule,
    OpeningRule,
    PassRule,
    PlayerCountRule,
    Provenance,
    RaisingRule,
    RoundContext,
    RoundRules,
    ScoringRule,
    SpecialRoundRule,
    StarterRule,
    TurnRule,
    WildsRule,
    Words,
)
from perudo.rules.axes import MAX_STAKE, optional
from perudo.rules.registry import is_built_in, name_failures

__all__ = [
    "AXES",
    "OPTIONAL_AXES",
    "SCHEMA",
    "Variant",
    "Words",
    "checked_players",
    "component_table",
    "is_edition_key",
    "merge_declarations",
]


def checked_players(variant: Variant, players: object) -> int:
    """``players`` as a count of seats at ``variant``'s table.

    >>> from perudo import load_variant
    >>> checked_players(load_variant("italian"), 4)
    4

    Raises:
        GameSetupError: not a whole number, or not a table size of the edition, in a
            sentence: ``Italian Palifico is played by 2 to 10 players, not 11``, or, for an
            edition of one size, ``... is played by 2 players, not 3``.
    """
    low, high = variant.players.min, variant.players.max
    if type(players) is not int or not low <= players <= high:
        sizes = f"{low}" if low == high else f"{low} to {high}"
        raise GameSetupError(f"{variant.name} is played by {sizes} players, not {shown(players)}")
    return players


@attrs.frozen(cache_hash=True, repr=False)
class Variant:
    """An edition: identity, vocabulary, and one component per axis of :data:`~perudo.AXES`.

    Load one with :func:`perudo.load_variant`, or make a house rule with :meth:`Variant.derive`;
    every axis is declared, nothing is a hidden default. ``provenance`` holds one
    :class:`~perudo.rules.Provenance` per axis, in the order of :data:`~perudo.AXES`; read it
    with :meth:`provenance_of`.
    """

    key: str
    name: str
    source: str
    language: str
    summary: str
    words: Words
    players: PlayerCountRule
    dice: DiceRule
    claims: ClaimRule
    wilds: WildsRule
    raising: RaisingRule
    conversion: ConversionRule
    opening: OpeningRule
    cap: CapRule
    turns: TurnRule
    challenge: ChallengeRule
    exact_call: ExactCallRule
    passes: PassRule
    special_round: SpecialRoundRule
    actions: ActionRule
    starter: StarterRule
    first_player: FirstPlayerRule
    scoring: ScoringRule
    clock: ClockRule
    provenance: tuple[Provenance, ...] = attrs.field(repr=False)
    # Derived once when the edition is made, and gone with it: the one place of the
    # edition's caches (never a module-level table).
    #: The bids a player may name where the edition's bids name hands (its ``claims``
    #: kind's ladder, lowest first: Mia's 21 values); ``()`` where bids name a quantity of
    #: a face.
    hand_bids: tuple[HandBid, ...] = attrs.field(init=False, eq=False, repr=False)
    #: Each hand of :attr:`hand_bids` and what players call it (``"Mia"``, ``"65"``).
    hand_names: tuple[tuple[tuple[int, ...], str], ...] = attrs.field(
        init=False, eq=False, repr=False
    )
    #: What a challenge of each hand is played for, by hand and whether the hands shown
    #: held it, where its claims kind says more than one (its ``stake``: Mia's two for a
    #: Mia doubted that stands); ``{}`` where every challenge is played for one settlement.
    stakes: Mapping[tuple[tuple[int, ...], bool], int] = attrs.field(
        init=False, eq=False, repr=False
    )
    _round_rules: RoundRules = attrs.field(init=False, eq=False, repr=False)
    _fingerprint: str = attrs.field(init=False, eq=False, repr=False)
    _user_kinds: tuple[str, ...] = attrs.field(init=False, eq=False, repr=False)
    # Flags read on every move: attributes, derived from the components once.
    #: Whether the edition offers actions besides bids, calls and declarations (Bluff's
    #: re-roll), as its ``actions`` component says.
    has_actions: bool = attrs.field(init=False, eq=False, repr=False)
    #: Whether a seat other than the player to act may ever act (the exact call out of
    #: turn in Jonti, an action such as Bluff's re-roll by the bidder, or a bid or a
    #: challenge out of turn: a burst).
    has_out_of_turn: bool = attrs.field(init=False, eq=False, repr=False)
    #: Whether the edition has an exact call (Calza, Jonti, Spot on).
    has_exact_call: bool = attrs.field(init=False, eq=False, repr=False)
    #: Whether a bid stands until every other player has challenged it, each challenge but
    #: the last a doubt in the bid chain (:class:`~perudo.rules.ChallengeRule`'s
    #: ``all_around``).
    challenged_all_around: bool = attrs.field(init=False, eq=False, repr=False)
    #: Whether the exact call is a claim in the bid chain (a Bull) that the next player
    #: raises or challenges, rather than a call that ends the round
    #: (:class:`~perudo.rules.ExactCallRule`'s ``in_chain``).
    claims_in_chain: bool = attrs.field(init=False, eq=False, repr=False)
    #: Whether an action of the edition may bind the next move to a bid (its actions kind's
    #: ``binds``: :attr:`~perudo.rules.ActEffect.then_bid`).
    binds_next_move: bool = attrs.field(init=False, eq=False, repr=False)
    #: Whether the player to act bids only after an action of the edition's, while one is
    #: open to them (its actions kind's ``before_bid``: Mia's roll before each bid).
    bids_after_action: bool = attrs.field(init=False, eq=False, repr=False)
    #: Whether a bid is a quantity of a face that no action of the edition need come
    #: before (not :attr:`hand_bids`, not :attr:`bids_after_action`): the engine's fast
    #: path for a bid.
    plain_bids: bool = attrs.field(init=False, eq=False, repr=False)
    #: Whether running out of time costs the player to act (its ``clock`` kind's
    #: ``forfeit``): the edition then offers :class:`~perudo.OutOfTime` once a bid stands.
    forfeits_on_time: bool = attrs.field(init=False, eq=False, repr=False)
    #: What a score counts, singular and plural (the scoring kind's optional ``unit``:
    #: ``("life", "lives")``; points where it is left out), as the calls' descriptions say.
    score_unit: tuple[str, str] = attrs.field(init=False, eq=False, repr=False)

    @hand_bids.default
    def _name_hands(self) -> tuple[HandBid, ...]:
        dice, claims = self.dice, self.claims
        ladder = claims.ladder(dice.per_player, dice.faces)
        if ladder is None:
            return ()
        if (
            not isinstance(ladder, tuple)
            or not ladder
            or len(set(ladder)) != len(ladder)
            or not all(isinstance(hand, tuple) for hand in ladder)
        ):
            raise InvalidVariantError(
                f"rule kind claims:{claims.kind} of {self.key!r} broke its protocol: ladder "
                f"returned {shown(ladder)}, not a tuple of different hands"
            )
        try:
            bids = tuple(HandBid(hand) for hand in ladder)
        except PerudoError as error:
            raise InvalidVariantError(
                f"rule kind claims:{claims.kind} of {self.key!r} broke its protocol: its "
                f"ladder holds a hand that is not one ({error})"
            ) from None
        if any(
            bid.faces != hand or max(hand) > dice.faces
            for bid, hand in zip(bids, ladder, strict=True)
        ):
            raise InvalidVariantError(
                f"rule kind claims:{claims.kind} of {self.key!r} broke its protocol: each hand "
                f"of its ladder lists faces of the dice ({dice.faces}), highest first"
            )
        return bids

    @hand_names.default
    def _call_hands(self) -> tuple[tuple[tuple[int, ...], str], ...]:
        named = []
        for bid in self.hand_bids:
            name = self.claims.hand_name(bid.faces, self.words)
            if not isinstance(name, str) or not 0 < len(name) <= MAX_WORD:
                raise InvalidVariantError(
                    f"rule kind claims:{self.claims.kind} of {self.key!r} broke its protocol: "
                    f"hand_name returned {shown(name)} for {bid}, not a word of 1 to "
                    f"{MAX_WORD} characters"
                )
            named.append((bid.faces, name))
        spoken = [" ".join(name.split()).lower() for _, name in named]
        if len(set(spoken)) != len(spoken):
            raise InvalidVariantError(
                f"rule kind claims:{self.claims.kind} of {self.key!r} broke its protocol: "
                "hand_name gave two hands one name"
            )
        return tuple(named)

    @stakes.default
    def _stake_hands(self) -> Mapping[tuple[tuple[int, ...], bool], int]:
        stake_of = optional(self.claims, "stake")
        if stake_of is None or not self.hand_bids:
            return {}
        stakes = {}
        for bid in self.hand_bids:
            for stands in (True, False):
                stake = stake_of(bid.faces, stands)
                if type(stake) is not int or not 1 <= stake <= MAX_STAKE:
                    raise InvalidVariantError(
                        f"rule kind claims:{self.claims.kind} of {self.key!r} broke its "
                        f"protocol: stake returned {shown(stake)} for {bid}, not a whole "
                        f"number 1 to {MAX_STAKE}"
                    )
                if stake != 1:
                    stakes[bid.faces, stands] = stake
        return stakes  # read, never written (a plain dict: a variant pickles)

    @property
    def most_stake(self) -> int:
        """The most a challenge of one hand is played for (1 where no hand is staked)."""
        return max(self.stakes.values(), default=1)

    def hand_name(self, bid: HandBid) -> str:
        """What players call the hand ``bid`` names (``"Mia"``), or its notation where the
        edition's bids name no such hand."""
        rank = self._round_rules.hand_rank(bid)
        return self.hand_names[rank - 1][1] if rank else str(bid)

    def bid_said(self, bid: AnyBid, claim: str = "bid") -> str:
        """A link of the bid chain as people read it, in the edition's words: a hand as
        players call it (``"Mia"``), anything else as :meth:`perudo.Words.bid_said`
        says it."""
        return self.words.bid_said(self.hand_name(bid) if isinstance(bid, HandBid) else bid, claim)

    @_round_rules.default
    def _make_round_rules(self) -> RoundRules:
        hands = self.hand_bids
        return RoundRules(
            wilds=self.wilds,
            raising=self.raising,
            conversion=self.conversion,
            opening=self.opening,
            cap=self.cap.caps,
            faces=self.dice.faces,
            claims=self.claims if hands else None,
            ladder=tuple(bid.faces for bid in hands),
        )

    @_fingerprint.default
    def _make_fingerprint(self) -> str:
        text = json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)
        return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    @has_actions.default
    def _offers_actions(self) -> bool:
        return bool(self.actions.words)

    @has_exact_call.default
    def _offers_exact_call(self) -> bool:
        return bool(self.exact_call.offered)

    @forfeits_on_time.default
    def _time_costs(self) -> bool:
        return optional(self.clock, "forfeit") is not None

    @challenged_all_around.default
    def _challenges_all_around(self) -> bool:
        return bool(optional(self.challenge, "all_around"))

    @binds_next_move.default
    def _actions_bind(self) -> bool:
        return bool(optional(self.actions, "binds"))

    @bids_after_action.default
    def _bids_wait(self) -> bool:
        return optional(self.actions, "before_bid") is not None

    @plain_bids.default
    def _bids_plain(self) -> bool:
        return not (self.hand_bids or self.bids_after_action)

    @claims_in_chain.default
    def _claims_in_chain(self) -> bool:
        return bool(optional(self.exact_call, "in_chain"))

    @score_unit.default
    def _score_unit(self) -> tuple[str, str]:
        unit = optional(self.scoring, "unit")
        if not (
            isinstance(unit, tuple)
            and len(unit) == 2
            and all(isinstance(word, str) and 0 < len(word) <= MAX_WORD for word in unit)
        ):
            raise InvalidVariantError(
                f"rule kind scoring:{self.scoring.kind} of {self.key!r} broke its protocol: "
                f"unit is {shown(unit)}, not a singular and a plural word"
            )
        return unit

    @has_out_of_turn.default
    def _acts_out_of_turn(self) -> bool:
        exact_call, actions, turns = self.exact_call, self.actions, self.turns
        return bool(exact_call.out_of_turn or actions.out_of_turn or turns.out_of_turn)

    @_user_kinds.default
    def _find_user_kinds(self) -> tuple[str, ...]:
        kinds = []
        for axis in AXES:
            component = self.component(axis)
            if not is_built_in(type(component)):
                name_failures(type(component))  # once a class: its failures name it
                kinds.append(f"{axis}:{component.kind}")
        return tuple(kinds)

    def __str__(self) -> str:
        return f"{self.name} ({self.key})"

    def __repr__(self) -> str:
        return f"<Variant {self.key}: {self.name}>"

    # --- what the edition is -----------------------------------------------------------------

    @property
    def fingerprint(self) -> str:
        """The short SHA-256 hash of the whole declaration.

        Records carry it, so a game replays only under the rules it was played with.
        """
        return self._fingerprint

    @property
    def user_kinds(self) -> tuple[str, ...]:
        """The ``axis:kind`` of every component that is not one of perudo's own (registered
        with :func:`perudo.rules.register_kind`)."""
        return self._user_kinds

    def provenance_of(self, axis: str) -> Provenance:
        """Where this edition's setting on ``axis`` comes from."""
        return self.provenance[AXES.index(axis)]

    def component(self, axis: str) -> Any:
        """The component on ``axis``."""
        if axis not in AXES:
            raise KeyError(f"{shown(axis)} is not an axis: the axes are {', '.join(AXES)}")
        return getattr(self, axis)

    def asks(self, axis: str) -> bool:
        """Whether the engine ever asks the component on ``axis``: not the wild dice, the
        raise order, the conversion, the opening or the cap of an edition whose bids name
        hands (its claims kind ranks and judges them)."""
        return not (self.hand_bids and axis in NOT_ASKED_OF_HANDS)

    def describe(self, axis: str) -> str:
        """The setting on ``axis`` as sentences, in the edition's words (each component
        writes its own; an axis the edition never asks, :meth:`asks`, says so)."""
        if not self.asks(axis):
            return f"Not asked: a bid names a hand ({self.claims.label(self.words)})."
        return str(self.component(axis).describe(self.words, self.dice.per_player))

    def round_rules(self) -> RoundRules:
        """The bidding rules of an ordinary round of this edition (one shared value)."""
        return self._round_rules

    def round_one(self, counts: Sequence[int]) -> RoundContext:
        """Round 1 of a game of this edition whose seats start with ``counts`` dice, before
        anyone acts, as the rules see it."""
        dice = self.dice
        return RoundContext(
            words=self.words,
            faces=dice.faces,
            dice_per_player=dice.per_player,
            dice=tuple(counts),
            round_number=1,
            to_act=None,
            bids=(),
            rules=self._round_rules,
            scores=(0,) * len(counts),
            starting=tuple(counts),
        )

    @property
    def has_pressure(self) -> bool:
        """Whether players may spend pressure (WANGO party mode)."""
        return self.scoring.pressure_uses > 0

    def most_links(self, players: int, bids: int) -> int:
        """The most links a round's bid chain holds at a table of ``players``, where ``bids``
        bids may be placed in all (each different bid as often as the raise order lets it
        come back): each bid, then its exact claim (a Bull) and the doubts of every other
        player but its bidder's last (a bid challenged all around); and every seat's passes.

        >>> from perudo import load_variant
        >>> [load_variant(key).most_links(4, 30) for key in ("italian", "bull-and-burst")]
        [30, 60]
        """
        per_bid = 1 + self.claims_in_chain + (players - 2 if self.challenged_all_around else 0)
        return bids * per_bid + players * self.passes.most_per_round

    def most_rounds(self, players: int, dice: int | None = None) -> int | None:
        """The most rounds a game at a table of ``players`` can last, where the rules bound
        it: the scoring's round limit; else, where calls move dice and no exact call wins
        one back, one round for each die but the winner's last (``dice``: every seat's
        dice together at the start; the edition's full hands by default). ``None`` where
        an exact call may win a die back (the French editions): such a game may go on and
        on. An exact claim in the bid chain (a Bull) wins none back unless its kind says
        ``gives_dice = True``.

        A scoring kind whose ``settle`` may give a die back says so with the class
        attribute ``gives_dice = True`` (perudo's ``elimination-burst``): there is then no
        such bound either. (A registered kind that gives dice back without saying so breaks
        the second bound; what reads it saturates there: an observation's ``round`` entry.)

        >>> from perudo import load_variant
        >>> [load_variant(key).most_rounds(4) for key in ("italian", "wango-party", "french-calza")]
        [19, 8, None]
        """
        limit = self.scoring.round_limit(players)
        if limit is not None:
            return limit
        scoring, exact = self.scoring, self.exact_call
        # an exact call may win a die back; an exact claim (a Bull) only where its kind says
        exact_gives = exact.offered and (
            not self.claims_in_chain or optional(exact, "gives_dice")
        )  # fmt: skip
        if scoring.moves_dice and not exact_gives and not optional(scoring, "gives_dice"):
            return (players * self.dice.per_player if dice is None else dice) - 1
        return None

    @property
    def calls(self) -> tuple[Action, ...]:
        """The calls the edition offers as actions. The challenge (with pressure too, in
        party mode), the exact call, the pass, and letting the time run out, each where the
        edition has it."""
        pressed = (CHALLENGE_PRESSED,) if self.has_pressure else ()
        exact = (EXACT_CALL,) if self.has_exact_call else ()
        passing = (PASS,) if self.passes.offered else ()
        late = (OUT_OF_TIME,) if self.forfeits_on_time else ()
        return (CHALLENGE, *pressed, *exact, *passing, *late)

    @property
    def declarations(self) -> tuple[str, ...]:
        """The names a :class:`~perudo.Declare` can carry in this edition, in the order
        offered: the edition's words for its special round and for an ordinary one."""
        return tuple(self.words.declaration(role) for role in self.special_round.declarations)

    # --- the declaration -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The declaration as plain data, in the shape of a ``variants/*.toml`` file.

        :meth:`from_dict` reads it back to an equal variant.
        """
        words = {name: getattr(self.words, name) for name in WORDS}
        if words["ordinary"] == "ordinary":
            del words["ordinary"]
        spoken: dict[str, Any] = {name: word for name, word in words.items() if word is not None}
        if self.words.faces:
            spoken["faces"] = {str(face): name for face, name in self.words.faces}
        data: dict[str, Any] = {
            "schema": SCHEMA,
            "key": self.key,
            "name": self.name,
            "source": self.source,
            "language": self.language,
            "summary": self.summary,
            "words": spoken,
        }
        for axis in AXES:
            source = self.provenance_of(axis)
            if is_left_out(axis, self.component(axis), source):
                continue  # what a declaration without the section means: said by leaving out
            table = component_table(self.component(axis))
            table["provenance"] = source.kind
            if source.quote is not None:
                table["quote"] = source.quote
            if source.reason is not None:
                table["reason"] = source.reason
            if source.translation is not None:
                table["translation"] = source.translation
            data[axis] = table
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Variant:
        """A variant from a whole declaration's data (:meth:`to_dict`'s), fully checked.
        (A declaration that ``extends`` another is read by :func:`perudo.variant_from_toml`
        or :func:`perudo.variant_from_mapping`.)

        Raises:
            InvalidVariantError: the data is not a valid declaration; the message names
                every wrong or missing section.
        """
        return read_declaration(data, where="<dict>")

    def derive(
        self,
        key: str,
        *,
        reason: str,
        name: str | None = None,
        summary: str | None = None,
        source: str | None = None,
        language: str | None = None,
        words: Mapping[str, str | None] | None = None,
        players: PlayerCountRule | Mapping[str, Any] | None = None,
        dice: DiceRule | Mapping[str, Any] | None = None,
        claims: ClaimRule | Mapping[str, Any] | None = None,
        wilds: WildsRule | Mapping[str, Any] | None = None,
        raising: RaisingRule | Mapping[str, Any] | None = None,
        conversion: ConversionRule | Mapping[str, Any] | None = None,
        opening: OpeningRule | Mapping[str, Any] | None = None,
        cap: CapRule | Mapping[str, Any] | None = None,
        turns: TurnRule | Mapping[str, Any] | None = None,
        challenge: ChallengeRule | Mapping[str, Any] | None = None,
        exact_call: ExactCallRule | Mapping[str, Any] | None = None,
        passes: PassRule | Mapping[str, Any] | None = None,
        special_round: SpecialRoundRule | Mapping[str, Any] | None = None,
        actions: ActionRule | Mapping[str, Any] | None = None,
        starter: StarterRule | Mapping[str, Any] | None = None,
        first_player: FirstPlayerRule | Mapping[str, Any] | None = None,
        scoring: ScoringRule | Mapping[str, Any] | None = None,
        clock: ClockRule | Mapping[str, Any] | None = None,
    ) -> Variant:
        """A new edition: this one with the axes given changed. *The* way to make a house
        rule in Python.

        Each axis is given as a component (``cap=perudo.rules.DiceInPlayCap()``), typed by
        its axis's protocol so that mypy refuses a kind of another axis, or as a mapping
        shaped like its TOML section (``cap={"kind": "dice-in-play"}``; without ``kind``,
        the parameters given change this edition's component). A changed axis is marked
        ``reading`` with ``reason``, unless the mapping gives its own provenance.

        Args:
            key: The new edition's key (never a shipped edition's).
            reason: Why the axes change: the provenance of each.
            name: The new edition's name (default: this one's, with the key).
            summary: Its summary (default: where an axis changes, one made from its
                components, never this one's; else this one's).
            source: Where its rules come from (default: where an axis changes, that it is
                derived from this edition, and why; else this one's: a source is never
                credited with rules it does not state; a declaration that ``extends`` one
                is read the same way).
            language: The language of that source (default: this one's).
            words: Words to change (``{"dudo": "Liar"}``).

        >>> import perudo
        >>> capped = perudo.load_variant("italian").derive("italian-capped",
        ...     reason="Our table caps bids.", cap={"kind": "dice-in-play"})
        >>> capped.cap, capped.provenance_of("cap").kind
        (DiceInPlayCap(), 'reading')

        Raises:
            InvalidVariantError: a component of another axis, a shipped key, or an invalid
                result.
        """
        given: dict[str, Any] = {
            "players": players, "dice": dice, "claims": claims, "wilds": wilds, "raising": raising,
            "conversion": conversion, "opening": opening, "cap": cap, "turns": turns,
            "challenge": challenge,
            "exact_call": exact_call, "passes": passes, "special_round": special_round,
            "actions": actions,
            "starter": starter, "first_player": first_player, "scoring": scoring,
            "clock": clock,
        }  # fmt: skip
        header = {"summary": summary, "source": source, "language": language}
        changes: dict[str, Any] = {"key": key, "name": name or f"{self.name} ({key})"}
        changes |= {field: text for field, text in header.items() if text is not None}
        if words is not None:
            changes["words"] = dict(words)
        for axis, value in given.items():
            if value is None:
                continue
            table = dict(value) if isinstance(value, Mapping) else component_table(value)
            if not isinstance(value, Mapping) and getattr(value, "axis", axis) != axis:
                raise InvalidVariantError(f"derive: {type(value).__name__} is not a {axis} kind")
            if "provenance" not in table:
                table.update(provenance="reading", reason=reason)
            changes[axis] = table
        return read_declaration(
            merge_declarations(self.to_dict(), changes, where=f"<derive {key}>"),
            where=f"<derive {key}>",
        )


def read_declaration(data: Mapping[str, Any], *, where: str) -> Variant:
    """Build and check a :class:`Variant` from a whole declaration (no ``extends``).

    Raises:
        InvalidVariantError: naming every wrong or missing section at once.
    """
    return Variant(**checked_declaration(data, where=where))


def inapplicable(variant: Variant) -> tuple[str, ...]:
    """Settings of ``variant`` that can never apply as declared, each as a sentence (``perudo
    rules`` shows them as warnings): the edition still plays, but a setting says more than
    the game can do."""
    found: list[str] = []
    faces, words = variant.dice.faces, variant.words
    wild = variant.wilds.wild_face(variant.round_one((variant.dice.per_player,) * 2))
    converted = getattr(variant.conversion, "face", None)
    for axis, face in (("wilds", wild), ("conversion", converted)):
        if face is not None and face > faces:
            found.append(f"{axis}: the face {face} is not on dice of {faces} faces")
    if converted is not None and wild is None:
        found.append(
            f"conversion: bids convert to and from {words.face_name(converted)}, but no face "
            "is wild, so the conversion prices nothing"
        )
    elif converted is not None and wild is not None and converted != wild:
        found.append(
            f"conversion: bids convert to and from {words.face_name(converted)}, but the wild "
            f"face is {words.face_name(wild)}"
        )
    order = getattr(variant.raising, "order", None)  # a raise order of ranked faces
    if isinstance(order, tuple):
        beyond = [str(face) for face in order if face > faces]
        if beyond:
            found.append(
                f"raising: the order ranks {', '.join(beyond)}, not on dice of {faces} faces"
            )
        left = [words.face_name(face) for face in range(1, faces + 1) if face not in order]
        if left:
            found.append(f"raising: the order leaves out {', '.join(left)}: no raise names them")
    if variant.special_round.offered and variant.dice.per_player == 1:
        found.append("special_round: every player starts with one die, so nobody ever drops to one")
    least = getattr(variant.exact_call, "min_players", 0)
    if variant.exact_call.offered and least > variant.players.max:
        found.append(
            f"exact_call: it needs {least} players still in, more than sit ({variant.players.max})"
        )
    return tuple(found)
