"""Call components: the challenge (Dudo) and the exact call (Calza, Jonti)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs

from perudo.actions import MAX_PLAYERS, Bid, HandBid
from perudo.dice import count
from perudo.rules.axes import CallContext, RoundContext
from perudo.rules.base import Violation, Words, one_seat, param

__all__ = [
    "REVEALS",
    "WHO_MAY_CALL",
    "WHO_MAY_CLAIM",
    "AllAroundChallenge",
    "BidderHandChallenge",
    "Challenge",
    "ExactCall",
    "ExactClaim",
    "GiveUp",
    "NoExactCall",
    "PureHandsChallenge",
    "count_for_bid",
    "show_every_hand",
]

REVEALS = ("all", "from-left")
WHO_MAY_CALL = ("player-to-act", "not-bidder-or-before")
WHO_MAY_CLAIM = ("player-to-act", "any-player")


def count_for_bid(shown: Sequence[Sequence[int]], context: RoundContext) -> int:
    """The count the hands ``shown`` give the standing bid of ``context``: the dice of its
    face, with the wild face at the call; for a bid that names a hand (:class:`~perudo.HandBid`,
    Mia's), the rank of the highest hand the dice shown make, as the edition's ``claims``
    kind ranks them (0 for none), or 1 if they hold it and 0 if not, for a kind that judges
    each hand apart (:meth:`perudo.rules.RoundRules.hand_count`). What a challenge kind's
    ``reveal_hands`` returns beside the seats it shows.

    >>> import attrs, perudo
    >>> mia = perudo.load_variant("mia")
    >>> standing = perudo.PlacedBid(0, perudo.HandBid((6, 5)))
    >>> context = attrs.evolve(mia.round_one((2, 2)), bids=(standing,))
    >>> count_for_bid([(5, 4)], context), count_for_bid([(1, 2)], context)
    (9, 21)
    """
    bid = context.bids[-1].bid  # a call needs a standing bid (a doubt restates it)
    if type(bid) is Bid:  # the usual: a quantity of a face
        return count(shown, bid.face, wild=context.wild)
    assert isinstance(bid, HandBid)
    return context.rules.hand_count(bid, [die for hand in shown for die in hand])


def show_every_hand(
    hands: Sequence[Sequence[int]], caller: int, context: RoundContext
) -> tuple[tuple[int, ...], int]:
    """A call's ``reveal_hands`` that shows every hand still in, from ``caller``'s left,
    ``caller`` last, and counts the standing bid's face with the wild face at the call:
    what perudo's exact call and a challenge that shows all do, for a kind of one's own
    to answer with.

    >>> import attrs, perudo
    >>> round_one = perudo.load_variant("italian").round_one((2, 2))
    >>> context = attrs.evolve(round_one, bids=(perudo.PlacedBid(0, perudo.Bid(2, 5)),))
    >>> show_every_hand(((1, 5), (3, 4)), 1, context)  # a 5 and a wild one
    ((0, 1), 2)
    """
    order, bid = context.order_from(caller), context.bids[-1].bid
    shown = [hands[seat] for seat in order]
    if type(bid) is Bid:  # the hot path of every call: count_for_bid's first case, inline
        return order, count(shown, bid.face, wild=context.wild)
    return order, count_for_bid(shown, context)


@attrs.frozen
class Challenge:
    """Dudo: the hands are shown and the face counted; a count at least the bid's quantity
    makes the challenger lose, a lower count makes the bidder lose (equality favours the
    bidder).

    ``reveal="all"`` shows every hand. ``reveal="from-left"`` (Italian) shows hands one by
    one from the challenger's left, clockwise, and stops as soon as the bid is proven true:
    the rest stay hidden and are not counted.
    """

    axis: ClassVar[str] = "challenge"
    kind: ClassVar[str] = "dudo"
    reveal: str = param(str, choices=REVEALS)

    def reveal_hands(
        self, hands: Sequence[Sequence[int]], caller: int, context: RoundContext
    ) -> tuple[tuple[int, ...], int]:
        """The seats that show their hands, from the challenger's left, the challenger
        last, and the count among them."""
        bid = context.bids[-1].bid
        if self.reveal == "all" or isinstance(bid, HandBid):  # a hand: judged on all shown
            return show_every_hand(hands, caller, context)
        order, wild = context.order_from(caller), context.wild
        face, quantity, total = bid.face, bid.quantity, 0
        both = wild is not None and wild != face  # the wild face counts too
        for shown, seat in enumerate(order, start=1):
            hand = hands[seat]
            total += hand.count(face) + hand.count(wild) if both else hand.count(face)
            if total >= quantity:
                return order[:shown], total
        return order, total

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        text = (
            f"'{words.dudo}' challenges the standing bid: a count at least its quantity makes "
            "the challenger lose, a lower count the bidder (equality favours the bidder)."
        )
        if self.reveal == "from-left":
            return text + (
                " Hands are shown one by one from the challenger's left and the showing stops "
                "as soon as the bid is proven true; the rest stay hidden."
            )
        return text + " Every hand is shown."

    def label(self, words: Words) -> str:
        """A short label."""
        return "partial" if self.reveal == "from-left" else "show all"


@attrs.frozen
class BidderHandChallenge:
    """A challenge that shows the bidder's hand alone and counts the bid's face (with the
    wild face, where one is wild) in it: a count at least the bid's quantity makes the
    challenger lose, a lower count the bidder. Every other hand stays hidden.

    From a published online game's wiki (UO Outlands, "Liars Dice"): "When that occurs,
    the last bidding player's Dice are now revealed to everyone. If the accused player is
    found to have less dice at the value claimed in their bid, they are "caught" and
    permanently lose one of their dice".

    >>> import attrs, perudo
    >>> round_one = perudo.load_variant("wango").round_one((3, 3))
    >>> context = attrs.evolve(round_one, bids=(perudo.PlacedBid(0, perudo.Bid(2, 5)),))
    >>> BidderHandChallenge().reveal_hands(((5, 5, 2), (5, 5, 5)), 1, context)
    ((0,), 2)
    """

    axis: ClassVar[str] = "challenge"
    kind: ClassVar[str] = "bidder-hand"

    def reveal_hands(
        self, hands: Sequence[Sequence[int]], caller: int, context: RoundContext
    ) -> tuple[tuple[int, ...], int]:
        """The bidder's hand, and the count of the bid's face in it (:func:`count_for_bid`)."""
        bidder = context.bidder
        assert bidder is not None  # a challenge needs a standing bid
        return (bidder,), count_for_bid([hands[bidder]], context)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        return (
            f"'{words.dudo}' challenges the standing bid, and only the bidder's hand is shown: "
            "a count in it at least the bid's quantity makes the challenger lose, a lower "
            "count the bidder. Every other hand stays hidden."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return "bidder's"


@attrs.frozen
class PureHandsChallenge:
    """A challenge that shows every hand and counts the bid's face with the wild face, and
    more for a hand that holds nothing else: a pure hand (every die the bid's face) counts
    two more, an impure one (every die the bid's face or the wild face, at least one wild)
    one more.

    From a published online game's wiki (Immortal Blade, "Liar's Dice", its glossary):
    "Impure Hand/Pure Hand: If all of one side's dices show the same number or 1, the
    total amount of the number will increase by 1 when being calculated on the showdown.
    If all of one side's dices show the same number, the total amount of the number will
    increase by 2 when being calculated on the showdown."

    >>> import attrs, perudo
    >>> round_one = perudo.load_variant("italian").round_one((3, 3))
    >>> context = attrs.evolve(round_one, bids=(perudo.PlacedBid(0, perudo.Bid(5, 4)),))
    >>> PureHandsChallenge().reveal_hands(((4, 4, 4), (1, 4, 2)), 1, context)  # 3 + 2 + 2
    ((0, 1), 7)
    >>> PureHandsChallenge().reveal_hands(((4, 1, 4), (1, 1, 1)), 1, context)  # 3 + 1, 3 + 1
    ((0, 1), 8)
    """

    axis: ClassVar[str] = "challenge"
    kind: ClassVar[str] = "pure-hands"
    bonus_per_hand: ClassVar[int] = 2  # a pure hand

    def reveal_hands(
        self, hands: Sequence[Sequence[int]], caller: int, context: RoundContext
    ) -> tuple[tuple[int, ...], int]:
        """Every hand still in, from the challenger's left; the count, with each pure hand's
        two and each impure hand's one."""
        order, total = show_every_hand(hands, caller, context)
        bid, wild = context.bid, context.wild
        assert isinstance(bid, Bid)  # refused with bids naming hands: they count no face
        face = bid.face
        for seat in order:
            hand = hands[seat]
            if all(die == face for die in hand):
                total += 2
            elif wild is not None and wild != face and all(die in (face, wild) for die in hand):
                total += 1
        return order, total

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        return (
            f"'{words.dudo}' challenges the standing bid: every hand is shown and the bid's "
            "face counted with the wild face; a hand of the bid's face alone counts two more, "
            "one of the face and wild dice alone one more. A count at least the bid's "
            "quantity makes the challenger lose, a lower count the bidder."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return "pure+2"


@attrs.frozen
class AllAroundChallenge:
    """A challenge that ends the round only once every other player still in has made it:
    the bid stands until it is "challenged all around", and each player may still raise it
    instead (a raise starts the challenges again). Then every hand is shown and the bid's
    face counted with the wild face; the scoring settles it, the last challenger as the
    caller and the others as ``doubters``.

    From Liar's poker as a published encyclopedia entry gives it: "The end of the game is
    reached when a player makes a bid that is challenged all around."
    """

    axis: ClassVar[str] = "challenge"
    kind: ClassVar[str] = "all-around"
    all_around: ClassVar[bool] = True

    def reveal_hands(
        self, hands: Sequence[Sequence[int]], caller: int, context: RoundContext
    ) -> tuple[tuple[int, ...], int]:
        """Every hand still in, from the last challenger's left."""
        return show_every_hand(hands, caller, context)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        return (
            f"'{words.dudo}' challenges the standing bid, which stands until every other "
            "player has challenged it (each may raise it instead); then every hand is shown "
            "and the bid holds with a count at least its quantity."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return "all arnd"


@attrs.frozen
class NoExactCall:
    """The edition has no exact call."""

    axis: ClassVar[str] = "exact_call"
    kind: ClassVar[str] = "none"
    offered: ClassVar[bool] = False
    out_of_turn: ClassVar[bool] = False

    def check(self, player: int, context: RoundContext) -> Violation | None:
        """Always a violation: there is no exact call to make."""
        return Violation("no-exact-call", "this edition has no exact call (no Calza)")

    def reveal_hands(
        self, hands: Sequence[Sequence[int]], caller: int, context: RoundContext
    ) -> tuple[tuple[int, ...], int]:
        """Never called (no call is ever made): nothing shown, nothing counted."""
        return (), 0

    def settle(self, context: CallContext) -> tuple[int, ...]:
        """Never called (no call is ever made): no change."""
        return (0,) * context.players

    def describe(self, words: Words, dice: int) -> str:
        """The setting as a sentence."""
        return "There is no exact call."

    def label(self, words: Words) -> str:
        """A short label."""
        return "-"


@attrs.frozen
class ExactCall:
    """Calza or Jonti: the standing bid is exactly right.

    Right: the caller gains one die (never above the edition's dice per player). Wrong: the
    caller loses one die.

    Attributes:
        who: ``"player-to-act"`` (Calza, on your turn) or ``"not-bidder-or-before"`` (Jonti:
            any seat but the last bidder and the seat just before the last bidder, in or out
            of turn).
        min_players: Players still in needed for the call.
        caller_below_full: Whether the caller must hold fewer dice than they started with (the
            edition's dice per player, or a handicap's fewer)
            per player.
    """

    axis: ClassVar[str] = "exact_call"
    kind: ClassVar[str] = "exact"
    offered: ClassVar[bool] = True
    who: str = param(str, choices=WHO_MAY_CALL)
    min_players: int = param(int, minimum=2, maximum=MAX_PLAYERS)
    caller_below_full: bool = param(bool)

    @property
    def out_of_turn(self) -> bool:
        """Whether the call may be made by a seat other than the player to act."""
        return self.who != "player-to-act"

    def check(self, player: int, context: RoundContext) -> Violation | None:
        """``None`` if ``player`` may make the exact call against the standing bid."""
        word = context.words.calza
        if self.who == "player-to-act" and player != context.to_act:
            return Violation("not-your-turn", f"{word} is called on your own turn")
        players_in = context.players_in
        if players_in < self.min_players:
            return Violation(
                "exact-call-not-allowed",
                f"{word} needs at least {self.min_players} players still in ({players_in} are)",
            )
        if self.who == "not-bidder-or-before":
            bidder = context.bidder
            assert bidder is not None  # an exact call is asked only against a standing bid
            if player == bidder:
                return Violation(
                    "exact-call-not-allowed", f"{word} cannot be called on your own bid"
                )
            if player == context.right_of(bidder):
                return Violation(
                    "exact-call-not-allowed",
                    f"{word} cannot be called on the bid of the player who follows you",
                )
        full = context.starting[player]
        if self.caller_below_full and context.dice[player] >= full:
            return Violation(
                "exact-call-not-allowed", f"{word} needs fewer than {full} dice in your hand"
            )
        return None

    def reveal_hands(
        self, hands: Sequence[Sequence[int]], caller: int, context: RoundContext
    ) -> tuple[tuple[int, ...], int]:
        """Every hand still in is shown, from the caller's left, the caller last; the bid's
        face is counted with the wild face."""
        return show_every_hand(hands, caller, context)

    def settle(self, context: CallContext) -> tuple[int, ...]:
        """Right: the caller gains a die (the engine keeps it at most its starting dice).
        Wrong: the caller loses one."""
        caller = context.caller
        change = 1 if context.is_exact else -1
        return tuple([change if seat == caller else 0 for seat in range(context.players)])

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        who = (
            "on their own turn"
            if self.who == "player-to-act"
            else "in or out of turn, except the last bidder and the player just before them"
        )
        text = (
            f"'{words.calza}' claims the standing bid is exactly right; "
            f"any player may call it {who}"
        )
        if self.caller_below_full:
            text += f", holding fewer than {dice} dice"
        return text + (
            f", with at least {self.min_players} players still in. Right: the caller "
            f"gains a die (never above {dice}). Wrong: the caller loses one."
        )

    def label(self, words: Words) -> str:
        """A short label: the call's word, with * when it may be made out of turn."""
        return (words.calza or "exact")[:7] + ("*" if self.out_of_turn else "")


@attrs.frozen
class ExactClaim:
    """Bull: an exact claim in the bid chain. A player says the standing bid is exactly
    right; the claim becomes the standing bid, made by that player, and the turn passes
    to their left as after a bid. The next player raises it (any legal raise over the same
    bid supersedes the claim) or challenges it. Every hand is then shown and the bid's
    face counted with the wild face. A wrong claim (any other count, higher or lower) is a
    false bid: its claimer loses as a bidder does. A right claim costs every other player
    still in a die, the challenger among them. A claim is never made on a claim.

    From a published online Perudo's house rules (``guyguroz-hue/Perudo``,
    ``docs/GAME_RULES.md`` section 8): "Bull is a declaration in the bidding chain, not an
    immediate challenge. It does not reveal dice. Bull changes the interpretation of the
    current active bid: from at least X to exactly X"; "If correct: every currently active
    participant EXCEPT the Bull caller loses 1 die"; "If the Bull is false [...] the Bull
    caller alone loses 1 die". Its worked example: "A: 7 fives, B: Bull, C: 8 fives, D: 9
    sixes, A: Dudo. A is challenging 9 sixes, not 7 fives."

    Attributes:
        who: ``"any-player"`` (any seat still in, in or out of turn: the source's Bull,
            "declared out of turn, as a Burst") or ``"player-to-act"`` (on one's own turn).
    """

    axis: ClassVar[str] = "exact_call"
    kind: ClassVar[str] = "exact-claim"
    offered: ClassVar[bool] = True
    in_chain: ClassVar[bool] = True
    who: str = param(str, choices=WHO_MAY_CLAIM)

    @property
    def out_of_turn(self) -> bool:
        """Whether a seat other than the player to act may make the claim."""
        return self.who == "any-player"

    def check(self, player: int, context: RoundContext) -> Violation | None:
        """``None`` if ``player`` may claim the standing bid is exactly right."""
        if self.who == "player-to-act" and player != context.to_act:
            return Violation("not-your-turn", f"{context.words.calza} is called on your own turn")
        return None

    def reveal_hands(
        self, hands: Sequence[Sequence[int]], caller: int, context: RoundContext
    ) -> tuple[tuple[int, ...], int]:
        """Every hand still in is shown, from the challenger's left, the challenger last;
        the bid's face is counted with the wild face."""
        return show_every_hand(hands, caller, context)

    def settle(self, context: CallContext) -> tuple[int, ...]:
        """A right claim, challenged: every seat still in but the claimer loses a die (or
        a point, where calls move points)."""
        claimer, dice = context.called.player, context.dice
        return tuple([-1 if dice[seat] and seat != claimer else 0 for seat in range(len(dice))])

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        who = "any player, in or out of turn," if self.out_of_turn else "the player to act"
        return (
            f"'{words.calza}' claims the standing bid is exactly right: {who} may say it, "
            "and the claim stands as the bid to raise or challenge. Challenged and wrong, "
            "its claimer loses as a bidder does; right, every other player loses a die."
        )

    def label(self, words: Words) -> str:
        """A short label: the call's word, with * when it may be made out of turn."""
        return (words.calza or "claim")[:7] + ("*" if self.out_of_turn else "")


@attrs.frozen
class GiveUp:
    """Giving up: once the standing bid names the highest hand there is (Mia), the player
    to act may give up instead of challenging it. No hand is shown, and the player who gave
    up loses one (a die, a point or a life, as the scoring counts). Only an edition whose
    bids name hands has it.

    From the rules of Mia as Wikipedia's article gives them (quoted at modhoster.com,
    "Mia"): "If Mia is announced, the next player has two choices: They may give up
    without looking at the dice and lose one life. They may look at the dice."
    """

    axis: ClassVar[str] = "exact_call"
    kind: ClassVar[str] = "give-up"
    offered: ClassVar[bool] = True
    out_of_turn: ClassVar[bool] = False

    def check(self, player: int, context: RoundContext) -> Violation | None:
        """``None`` if ``player`` is to act and the standing bid is the highest hand."""
        word = context.words.calza
        if player != context.to_act:
            return Violation("not-your-turn", f"{word}: you give up on your own turn")
        ladder, bid = context.rules.ladder, context.bid
        if not ladder or not isinstance(bid, HandBid) or bid.faces != ladder[-1]:
            return Violation(
                "exact-call-not-allowed",
                f"{word}: you may give up only when the highest hand stands; raise or challenge",
            )
        return None

    def reveal_hands(
        self, hands: Sequence[Sequence[int]], caller: int, context: RoundContext
    ) -> tuple[tuple[int, ...], int]:
        """No hand is shown, and nothing counted."""
        return (), 0

    def settle(self, context: CallContext) -> tuple[int, ...]:
        """The player who gave up loses one."""
        return one_seat(context.players, context.caller, -1)

    def describe(self, words: Words, dice: int) -> str:
        """The setting as sentences."""
        return (
            f"Once the highest hand stands, the player to act may say '{words.calza}' instead "
            "of challenging it: no hand is shown, and they lose one."
        )

    def label(self, words: Words) -> str:
        """A short label."""
        return "give up"
