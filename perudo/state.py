"""The immutable game state: what a position is, what is legal in it, and the position
each action leads to.

Every action turns a :class:`GameState` into a new one; nothing mutates. The rules come
from the state's :class:`~perudo.Variant`: the state only sequences turns and rounds.
:mod:`perudo.setup` makes a game's first state (:func:`~perudo.new_game`), and
:mod:`perudo.rounds` decides what a settled call leads to.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from perudo.actions import (
    ACTION_TYPES,
    CALL_ROLES,
    CHALLENGE,
    CHALLENGE_PRESSED,
    EXACT_CALL,
    OUT_OF_TIME,
    PASS,
    Act,
    Action,
    AnyBid,
    Bid,
    Calza,
    Declare,
    Dudo,
    HandBid,
    OutOfTime,
    Paso,
)
from perudo.dice import pick, reroll
from perudo.errors import (
    GameSetupError,
    IllegalActionError,
    InvalidVariantError,
    shown,
)
from perudo.players import (
    TO_ACT,
    BidChain,
    Claim,
    GameLog,
    Glimpse,
    PlacedAct,
    PlacedBid,
    Player,
    RoundFacts,
    Seat,
    called_link,
    chain_key,
    checked_hands,
    doubters_of,
    evolved,
    holds,
    without,
)
from perudo.resolution import Resolution, settle_call
from perudo.rounds import next_round
from perudo.rules import ActEffect, RoundContext, RoundRules, SettledCall, Violation
from perudo.rules.axes import extended, in_the_open
from perudo.rules.bidding import (
    check_bid,
    different_bids,
    legal_bids,
    legal_bids_by_standing,
    may_change_face,
)
from perudo.variant import Variant
from perudo.view import PlayerView, SeatView, draw_table

__all__ = ["GameState", "legal_order"]

_IN_TURN = (Bid, HandBid, Dudo, Paso, Declare, OutOfTime)  # only the player to act takes these
_ANY_BID = (Bid, HandBid)  # a bid of a quantity or of a hand (a tuple: isinstance is quickest)
_OWED = (Bid, HandBid, Act)  # what the player who owes a bid may do
#: The challenges open to a seat, without and with pressure to spend (party mode).
_CHALLENGES: dict[bool, tuple[Action, ...]] = {
    False: (CHALLENGE,),
    True: (CHALLENGE, CHALLENGE_PRESSED),
}


# A state keeps what it derives from itself (the hot path's caches) in its own ``__dict__``,
# under these names, beside its fields: never part of its equality, never set by ``evolve``.
_BIDS, _DICE, _IN, _LEGAL, _SEATS, _MAY_CALL, _CONTEXT, _PATTERN = (
    "_bids", "_dice_in_play", "_players_in", "_legal", "_seats", "_may_call",
    "_context_value", "_context_pattern",
)  # fmt: skip

#: The caches a bid makes false (the rest stay true: the same seats and dice).
_NOT_AFTER_BID = (_BIDS, _LEGAL, _MAY_CALL, _CONTEXT)


@attrs.frozen(repr=False, slots=False)  # dict-based: made twice as fast, and its caches
class GameState(RoundFacts):
    """A position of a game: who holds what, the round's bids, whose turn it is.

    Make one with :func:`new_game`; move with :meth:`apply`. Two states built from the
    same variant, seed and actions are equal and hash equal.

    Attributes:
        variant: The edition played.
        seed: The seed every round's dice are drawn from.
        players: The seats, clockwise.
        starting_dice: Each seat's dice at the start of the game (the edition's dice per
            player, or fewer for a handicap): no seat ever holds more.
        round_number: The round being played, from 1.
        to_act: The seat whose turn it is, ``None`` once the game is over.
        rules: The bidding rules in force this round (after any special round).
        special_round: ``None``, or the edition's word for its special round in lower
            case (``"palifico"``, ``"palafico"``, ``"calzone"``): for people; the engine
            reads ``special_player``.
        special_player: The seat whose special round this is, if any.
        owed: The seats owed a special round in later rounds, in the order owed (a
            farewell round for each of several seats that fell to one die at once).
        offers: Declarations the player to act may make before the first bid.
        must_declare: Whether the player to act must declare before bidding.
        must_bid: Whether the player to act must bid now, and only bid: an action said
            together with a bid (:attr:`~perudo.rules.ActEffect.then_bid`) was taken.
        pressured: Whether anyone used pressure this round (party mode).
        acts: The round's actions of the edition's ``actions`` axis (Bluff's re-roll), each
            with its player and the number of bids the round had then.
        seen: The dice seen under another player's cup this round (an action that looks),
            sorted: each known to its seer and its owner only.
        last_result: The resolution of the last call, if any.
        log: How the game got here (left out of equality): see
            :meth:`perudo.GameRecord.from_state`.
    """

    variant: Variant
    seed: int
    players: tuple[Player, ...]
    starting_dice: tuple[int, ...]
    round_number: int
    to_act: int | None
    _chain: BidChain | None = attrs.field(eq=chain_key, repr=False)
    rules: RoundRules = attrs.field()
    special_round: str | None = None
    special_player: int | None = None
    owed: tuple[int, ...] = ()
    offers: tuple[str, ...] = ()
    must_declare: bool = False
    must_bid: bool = False
    pressured: bool = False
    acts: tuple[PlacedAct, ...] = ()
    seen: tuple[Glimpse, ...] = ()
    last_result: Resolution | None = None
    log: GameLog = attrs.field(factory=GameLog, eq=False, repr=False)

    # --- what a position is ----------------------------------------------------------------

    def __repr__(self) -> str:
        counts = tuple(len(player.dice) for player in self.players)
        return (
            f"<GameState {self.variant.key} round {self.round_number}, to act {self.to_act}, "
            f"bid {self.bid}, dice {counts}>"
        )

    @property
    def bids(self) -> tuple[PlacedBid, ...]:  # type: ignore[override]
        """The bids of this round, in order."""
        known = self.__dict__
        bids = known.get(_BIDS)
        if bids is None:
            bids = known[_BIDS] = chain_key(self._chain)
        return bids

    @property
    def bid(self) -> AnyBid | None:
        """The standing bid, or ``None`` before the round's first bid."""
        return None if self._chain is None else self._chain.last.bid

    @property
    def bidder(self) -> int | None:
        """The seat that made the standing bid (or claim, or pass), the one a challenge is
        against: doubts of a bid challenged all around leave it its bidder's."""
        chain = self._chain
        if chain is None:
            return None
        return chain.last.player if chain.last.claim != "doubt" else super().bidder

    @property
    def claim(self) -> Claim | None:
        """What the last link of the bid chain claims (``"bid"``, ``"exact"``: a Bull,
        ``"pass"``), ``None`` before the round's first bid."""
        return None if self._chain is None else self._chain.last.claim

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over (several on a party-mode tie), else ``()``."""
        if not self.is_over:
            return ()
        return self.variant.scoring.winners(self.context)

    @property
    def dice_in_play(self) -> int:
        """How many dice all hands hold together."""
        known = self.__dict__
        dice = known.get(_DICE)
        if dice is None:
            dice = known[_DICE] = sum([len(p.dice) for p in self.players])
        return dice

    @property
    def players_in(self) -> int:
        """How many players still hold dice."""
        known = self.__dict__
        players = known.get(_IN)
        if players is None:
            players = known[_IN] = sum([1 for p in self.players if p.dice])
        return players

    @property
    def seats_in(self) -> tuple[int, ...]:
        """The seats still holding dice, clockwise from seat 0."""
        return tuple(seat for seat, player in enumerate(self.players) if player.dice)

    def left_of(self, seat: int) -> int:
        """The next seat still in, clockwise (to the left) of ``seat``."""
        return _left_of(self.players, seat)

    def right_of(self, seat: int) -> int:
        """The previous seat still in (the one ``seat`` follows)."""
        n = len(self.players)
        for step in range(1, n + 1):
            other = (seat - step) % n
            if self.players[other].dice:
                return other
        return seat

    # --- asking --------------------------------------------------------------------------

    def check(self, action: Action, by: Seat = TO_ACT) -> Violation | None:
        """``None`` if ``action`` by seat ``by`` (default :data:`~perudo.TO_ACT`, the player
        to act) is legal, else the :class:`~perudo.rules.Violation` saying why not."""
        _require_action(action)
        if self.to_act is None:
            return Violation("game-over", "the game is over")
        seat = self._seat(by)
        return self._violation(action, seat)

    def is_legal(self, action: Action, by: Seat = TO_ACT) -> bool:
        """Whether ``action`` by seat ``by`` (default :data:`~perudo.TO_ACT`) is legal now."""
        return self.check(action, by) is None

    def legal_actions(self, by: Seat = TO_ACT) -> tuple[Action, ...]:
        """Every legal action of seat ``by`` (default :data:`~perudo.TO_ACT`, the player to
        act; ``None`` is refused, never read as the player to act).

        In order: declarations; bids by face (ones to sixes), each by rising quantity,
        pressured bids after their face's plain ones (where bids name hands, the hands
        ranked above the standing one, lowest first); Dudo; the exact call; the pass;
        letting the time run out (:class:`~perudo.OutOfTime`, where it costs); the actions of
        the edition's ``actions`` axis (:class:`~perudo.Act`, in its kind's order). Bids are
        listed up to the dice in play (where an edition has no cap, a larger bid is still
        legal: :meth:`apply` accepts it). Seats other than the player to act get only what
        is open to them out of turn: the exact call (Jonti), an action such as Bluff's
        re-roll by the bidder.
        """
        if self.to_act is None:
            return ()
        if by is TO_ACT or (by == self.to_act and type(by) is int):
            known = self.__dict__
            legal = known.get(_LEGAL)
            if legal is None:
                legal = known[_LEGAL] = self._legal_actions(self.to_act)
            return legal
        seat = self._seat(by)
        if not self.players[seat].dice:
            return ()
        return self._out_of_turn(seat)

    def _out_of_turn(self, seat: int) -> tuple[Action, ...]:
        """What ``seat``, not the player to act, may do now: bids and the challenge as the
        turns kind opens them (a burst), the exact call out of turn, actions."""
        variant = self.variant
        moves: tuple[Action, ...] = ()
        turns = variant.turns
        roles = turns.out_of_turn
        if self.must_bid:  # the player to act owes a bid: nothing else, by anyone
            return ()
        if roles and not self.must_declare:
            pressure = self._may_press(seat)
            context = self._context()
            if "bid" in roles and turns.check("bid", seat, context) is None:
                moves = self._bids_of(seat, pressure)
            if (
                "challenge" in roles
                and turns.check("challenge", seat, context) is None
                and not self._has_challenged(seat)
            ):
                moves += _CHALLENGES[pressure]
        if variant.exact_call.out_of_turn and self._exact_call_violation(seat) is None:
            moves += (EXACT_CALL,)
        return moves + self._acts_open(seat) if variant.has_actions else moves

    def _may_press(self, seat: int) -> bool:
        """Whether ``seat`` may bid or challenge under pressure now (party mode)."""
        return self.variant.has_pressure and self.players[seat].pressure_left > 0

    def _bids_of(self, seat: int, pressure: bool) -> tuple[AnyBid, ...]:
        """Every legal bid of ``seat`` now, up to the dice in play (pressured ones too with
        ``pressure``); where bids name hands, every hand ranked above the standing one."""
        chain, rules = self._chain, self.rules
        may_change = may_change_face(rules, seat)
        if rules.by_standing_bid if chain is not None else rules.opening_by_face:  # hot path
            standing = None if chain is None else chain.last.bid  # never a hand: see RoundRules
            return legal_bids_by_standing(rules, standing, may_change, self.dice_in_play, pressure)
        hands = self.variant.hand_bids
        if hands:
            return hands if chain is None else hands[rules.hand_rank(chain.last.bid) :]  # type: ignore[arg-type]
        standing = self.bid  # a quantity of a face: hands were answered above
        return legal_bids(rules, standing, self._context, may_change, self.dice_in_play, pressure)  # type: ignore[arg-type]

    def _acts_open(self, seat: int) -> tuple[Act, ...]:
        """The actions of the edition's ``actions`` axis open to ``seat`` now."""
        player = self.players[seat]
        if self._no_bid_left(seat):
            return ()
        moves = self.variant.actions.moves(seat, player.cup, self._context())
        if not isinstance(moves, tuple) or not all(isinstance(m, Act) for m in moves):
            raise _broke(self.variant, "moves", f"returned {shown(moves)}, not a tuple of Act")
        return moves

    def _legal_actions(self, seat: int) -> tuple[Action, ...]:
        declarations = tuple(Declare(name) for name in self.offers) if self.offers else ()
        if self.must_declare:
            return declarations
        variant = self.variant
        pressure = self._may_press(seat)
        bids = self._bids_of(seat, pressure)
        if self.must_bid:  # a bid owed: or another action its kind still offers (a draw)
            return bids + self._acts_open(seat) if variant.has_actions else bids
        calls: tuple[Action, ...] = ()
        chain = self._chain
        if variant.bids_after_action and self._action_first(seat) is not None:
            bids = ()  # an action comes first
        if chain is not None:
            doubted = variant.challenged_all_around and self._has_challenged(seat)
            calls = () if doubted else _CHALLENGES[pressure]
            if variant.has_exact_call and self._exact_call_violation(seat) is None:
                calls += (EXACT_CALL,)
            if variant.passes.offered and self._pass_violation(seat) is None:
                calls += (PASS,)
            if variant.forfeits_on_time:
                calls += (OUT_OF_TIME,)
        if variant.has_actions:
            calls += self._acts_open(seat)
        return declarations + bids + calls if declarations else bids + calls

    # --- moving --------------------------------------------------------------------------

    def apply(
        self,
        action: Action,
        by: Seat = TO_ACT,
        *,
        rolled: Sequence[int] | None = None,
        late: bool = False,
    ) -> GameState:
        """The state after seat ``by`` takes ``action``.

        ``by`` defaults to :data:`~perudo.TO_ACT`: the seat whose turn it is, whoever that
        is. A server acting for a client passes the client's own seat, so a move sent out
        of turn is refused (``not-your-turn``); ``None`` is refused (``unknown-seat``).

        An action that re-rolls dice (Bluff's ``reroll``) draws the new faces from the
        game's seed stream, or takes them from ``rolled`` (one face per die re-rolled, in
        any order: a record's, a server's own dice, a chance node's outcome); one that looks
        under a cup takes the face seen after them (:meth:`chance_nodes` lists what
        ``rolled`` holds).

        ``late=True`` says the table made the move for its player, whose time ran out
        (the edition's ``clock`` move, :func:`perudo.match.timeout_move`, or a stand-in's):
        the log and the record mark it (:attr:`perudo.GameRecord.late`).

        Raises:
            IllegalActionError: the action is not legal now; ``reason`` says why. This state
                is unchanged (states never change).
            GameSetupError: ``rolled`` is given for an action that rolls nothing, or holds
                the wrong number of faces, a face the dice lack, or a face the cup looked
                under does not hold; ``late`` is not ``True`` or ``False``.
        """
        if late is not False:  # the move, then its log link marked
            if late is not True:
                raise GameSetupError(f"late: {shown(late)} is not True or False")
            after = self.apply(action, by, rolled=rolled)
            after.__dict__["log"] = after.log.marked_late()  # a new state: no one holds it yet
            return after
        _require_action(action)
        if self.to_act is None:
            raise IllegalActionError(
                "game-over",
                f"{action}: the game is over",
                action=action,
                player=by if type(by) is int else None,
            )
        seat = self._seat(by)
        violation = self._violation(action, seat)
        if violation is not None:
            raise IllegalActionError(
                violation.reason, violation.message, action=action, player=seat
            )
        if isinstance(action, Act):
            return self._act(action, seat, rolled)
        if rolled is not None:
            raise GameSetupError(f"rolled: {action} re-rolls no dice and looks at none")
        log = self.log.with_move(seat, action)
        if isinstance(action, _ANY_BID):
            return self._bid(action, seat, log)
        standing = self._chain.last.bid if self._chain is not None else None
        if isinstance(action, Dudo):
            if self.variant.challenged_all_around and not self._challenged_all_around(seat):
                return self._bid(standing, seat, log, claim="doubt")  # type: ignore[arg-type]
            if action.pressure:
                return self._resolve(action, seat, self._spend_pressure(seat), True, log)
            return self._resolve(action, seat, self.players, self.pressured, log)
        if isinstance(action, Declare):
            return self._declare(action.name, seat, log)
        if isinstance(action, Paso):  # the standing bid stays, passed over
            return self._bid(standing, seat, log, claim="pass")  # type: ignore[arg-type]
        if isinstance(action, OutOfTime):  # the clock settles it, as a call
            return self._resolve(action, seat, self.players, self.pressured, log)
        if self.variant.claims_in_chain:  # checked: a bid stands
            claim = Bid(standing.quantity, standing.face)  # type: ignore[union-attr]  # restated: no pressure spent again
            return self._bid(claim, seat, log, claim="exact")
        return self._resolve(action, seat, self.players, self.pressured, log)

    def chance_nodes(self, action: Action, by: Seat = TO_ACT) -> tuple[tuple[int, ...], ...]:
        """What chance decides when seat ``by`` takes ``action``: one entry per outcome, in
        the order :meth:`apply` takes them as ``rolled``. First each die re-rolled (its
        faces, 1 to the edition's highest), then the die looked at (the faces under that
        cup, each die equally likely: a face held twice is twice as likely). ``()`` for
        every action but one that re-rolls or looks; a chance node draws each outcome.

        Raises:
            IllegalActionError: the action is not legal now.
        """
        violation = self.check(action, by)
        if violation is not None:
            raise IllegalActionError(violation.reason, violation.message, action=action)
        if not isinstance(action, Act):
            return ()
        seat = self._seat(by)
        effect = self._effect(action, seat)
        nodes: list[tuple[int, ...]] = []
        if effect.reroll or effect.redraw:
            cup = self.players[seat].cup
            rerolled = len(cup) - len(effect.put_out) if effect.reroll else len(effect.redraw)
            nodes += [tuple(range(1, self.variant.dice.faces + 1))] * rerolled
        if effect.look_at is not None:
            nodes.append(self.players[effect.look_at].cup)
        return tuple(nodes)

    def with_dice(self, dice: Sequence[Sequence[int]]) -> GameState:
        """This state with the round's hands replaced (a server's own dice, a test, a lesson).

        Each hand must hold as many dice as the player has now. Refused once the round has
        a bid, or when the game is over.
        """
        if self.to_act is None:
            raise GameSetupError("with_dice: the game is over")
        if self._chain is not None:
            raise GameSetupError(f"with_dice: the round already has a bid ({self.bid})")
        faces = self.variant.dice.faces
        hands = checked_hands(dice, len(self.players), self.starting_dice, faces, fewest=0)
        for seat, (player, hand) in enumerate(zip(self.players, hands, strict=True)):
            if len(hand) != len(player.dice):
                raise GameSetupError(
                    f"with_dice: seat {seat} holds {len(player.dice)} dice, not {len(hand)}"
                )
        players = tuple(
            attrs.evolve(player, dice=hand)
            for player, hand in zip(self.players, hands, strict=True)
        )
        return attrs.evolve(self, players=players, log=self.log.with_dice(self.round_number, hands))

    # --- what a player sees, and records ---------------------------------------------------

    def view(self, player: Seat) -> PlayerView:
        """All that seat ``player`` may know now (see :class:`~perudo.view.PlayerView`).

        ``player`` is a seat number, or :data:`~perudo.TO_ACT` for the player to act;
        ``None`` is refused (``unknown-seat``): a spectator gets :meth:`public_view`.
        """
        return self._view(self._seat(player))

    def draw(self, *, ascii: bool = False) -> str:
        """The whole table in a few lines, every hand shown (the referee's drawing; a
        player gets :meth:`PlayerView.draw`). ``str(state)`` is ``state.draw()``."""
        return draw_table(self._view(None), [p.cup for p in self.players], ascii=ascii)

    def __str__(self) -> str:
        return self.draw()

    def _repr_svg_(self) -> str:
        """The picture of the whole table, every hand shown (:mod:`perudo.svg`)."""
        from perudo.svg import table_svg

        return table_svg(self._view(None), [p.cup for p in self.players])

    def public_view(self) -> PlayerView:
        """What a spectator may know: :meth:`view` with no hand and no legal action
        (``player`` is ``None``). Every die in it is one the table has seen revealed."""
        return self._view(None)

    def _view(self, seat: int | None) -> PlayerView:
        hidden = seat is not None and self.must_declare and seat == self.to_act
        known = self.__dict__
        seats = known.get(_SEATS)
        if seats is None:
            seats = known[_SEATS] = tuple(
                [
                    SeatView(
                        name=p.name,
                        dice_count=len(p.dice),
                        score=p.score,
                        pressure_left=p.pressure_left,
                        open=p.open,
                    )
                    for p in self.players
                ]
            )
        may_call = known.get(_MAY_CALL)
        if may_call is None:
            playing = self.to_act is not None and self.variant.has_exact_call
            playing = playing and not self.must_bid  # a bid owed: nothing else, by anyone
            may_call = known[_MAY_CALL] = tuple(
                [s for s in self.seats_in if playing and self._exact_call_violation(s) is None]
            )
        return PlayerView(
            player=seat,
            variant=self.variant,
            round_number=self.round_number,
            starting_dice=self.starting_dice,
            dice=() if hidden or seat is None else self.players[seat].cup,
            dice_hidden=hidden,
            seats=seats,
            bids=self.bids,
            to_act=self.to_act,
            may_call=may_call,
            special_round=self.special_round,
            special_player=self.special_player,
            offers=self.offers,
            must_declare=self.must_declare,
            rules=self.rules,
            legal_actions=() if seat is None else self.legal_actions(by=seat),
            last_result=self.last_result,
            winners=self.winners,
            acts=self.acts,
            seen=tuple(g for g in self.seen if seat is not None and seat in (g.seer, g.owner)),
            owed=self.owed,
        )

    # --- inside --------------------------------------------------------------------------

    def _seat(self, by: Seat) -> int:
        if by is TO_ACT:
            if self.to_act is None:
                raise IllegalActionError("game-over", "the game is over: no player is to act")
            return self.to_act
        if type(by) is not int or not 0 <= by < len(self.players):
            hint = " (for the player to act, pass perudo.TO_ACT)" if by is None else ""
            raise IllegalActionError(
                "unknown-seat",
                f"seat {shown(by)} is not a seat of this game (0 to {len(self.players) - 1})"
                + hint,
            )
        return by

    def _violation(self, action: Action, seat: int) -> Violation | None:
        if (
            type(action) is Bid
            and seat == self.to_act
            and not action.pressure
            and not self.must_declare
            and self.variant.plain_bids
        ):  # the hot path: a plain bid by the player to act, who holds dice and may bid
            return self._bid_violation(action, seat)
        if not self.players[seat].dice:
            return Violation("player-out", f"{self.players[seat].name} has no dice left")
        if self.must_bid and not (  # a bid owed: or another action, as its kind says
            seat == self.to_act and isinstance(action, _OWED)
        ):
            name = self.players[self.to_act].name  # type: ignore[index]
            act = self.acts[-1].act
            return Violation("bid-required", f"{action}: {name} bids now, together with '{act}'")
        if not isinstance(action, _IN_TURN):  # the exact call and acts: out of turn too
            if isinstance(action, Act):
                return self._act_violation(action, seat)
            return self._exact_call_violation(seat)
        if seat != self.to_act:
            refused = self._turn_violation(action, seat)
            if refused is not None:
                return refused
        if isinstance(action, Declare):  # the player to act's: refused out of turn above
            if action.name in self.offers:
                return None
            return Violation("declaration-not-offered", f"{action} is not open to you now")
        if self.must_declare:
            choices = " or ".join(f"'declare {name}'" for name in self.offers)
            return Violation("declaration-required", f"{action}: first choose {choices}")
        if isinstance(action, Paso):
            return self._pass_violation(seat)
        if isinstance(action, OutOfTime):
            return self._time_violation()
        if isinstance(action, Dudo):  # a challenge
            if action.pressure:
                refused = self._pressure_violation(action, seat)
                if refused is not None:
                    return refused
            if self._chain is None:
                word = self.variant.words.dudo
                return Violation("nothing-to-challenge", f"there is no bid yet to call {word} on")
            if self.variant.challenged_all_around and self._has_challenged(seat):
                return Violation(
                    "already-challenged",
                    f"{action}: you have challenged {self.bid} already; raise it or wait",
                )
            return None
        if isinstance(action, HandBid):  # a hand: judged by the edition's claims alone
            return self._unplain_bid_violation(action, seat)
        if not self.variant.plain_bids:
            refused = self._unplain_bid_violation(action, seat)
            if refused is not None:
                return refused
        if action.pressure:
            refused = self._pressure_violation(action, seat)
            if refused is not None:
                return refused
        return self._bid_violation(action, seat)

    def _unplain_bid_violation(self, action: Bid | HandBid, seat: int) -> Violation | None:
        """Why ``seat`` may not bid ``action`` in an edition whose bids name hands or wait
        for an action (:attr:`perudo.Variant.plain_bids` is false): an action owed first
        (``act-first``), a bid of the other kind, or a hand that does not raise; ``None``
        leaves a quantity bid to the raise order."""
        variant = self.variant
        if variant.bids_after_action and seat == self.to_act and not self.must_bid:
            first = self._action_first(seat)
            if first is not None:
                return Violation("act-first", f"{action}: first {first}, then bid")
        if isinstance(action, HandBid):
            return self._hand_bid_violation(action, seat)
        if variant.hand_bids:
            example = variant.hand_names[-1][1]
            return Violation(
                "bid-names-a-hand",
                f"{action}: in {variant.name} a bid names a hand, such as {example}",
            )
        return None

    def _hand_bid_violation(self, action: HandBid, seat: int) -> Violation | None:
        """Why ``seat`` may not bid the hand ``action``: the edition's bids name no hands,
        its ladder lacks it, or it is not ranked above the standing hand."""
        variant, rules = self.variant, self.rules
        if not variant.hand_bids:
            return Violation(
                "no-hand-bids",
                f"{action}: in {variant.name} a bid names a quantity and a face, such as 3x5",
            )
        rank = rules.hand_rank(action)
        if not rank:
            lowest, highest = variant.hand_names[0][1], variant.hand_names[-1][1]
            return Violation(
                "not-a-hand-bid",
                f"{action}: not a hand a bid names in {variant.name} (from {lowest} up to "
                f"{highest})",
            )
        chain = self._chain
        if chain is not None and rank <= rules.hand_rank(chain.last.bid):  # type: ignore[arg-type]
            named, standing = variant.hand_name(action), variant.bid_said(chain.last.bid)
            return Violation(
                "bid-too-low", f"{action}: {named} does not raise {standing}: name a higher hand"
            )
        return None

    def _bid_violation(self, action: Bid, seat: int) -> Violation | None:
        """Why ``seat`` may not bid ``action`` as the round's rules stand; where the player
        to act may still declare, the refusal names the declaration that would allow it."""
        standing = self.bid  # a quantity of a face: an edition of hands refused it above
        violation = check_bid(self.rules, standing, self._context, action, seat, self.dice_in_play)  # type: ignore[arg-type]
        if violation is None or not self.offers or seat != self.to_act:
            return violation
        # An open declaration may change the round's rules: say which one allows the bid.
        allowing = [
            name
            for name in self.offers
            if self.apply(Declare(name), by=seat)._violation(action, seat) is None
        ]
        if not allowing:
            return violation
        choices = " or ".join(f"'declare {name}'" for name in allowing)
        return Violation(violation.reason, f"{violation.message} ({choices} first, and you may)")

    def _pressure_violation(self, action: Bid | Dudo, seat: int) -> Violation | None:
        """Why ``seat`` may not spend pressure on ``action``; ``None`` if it may."""
        if not self.variant.has_pressure:
            return Violation("no-pressure", f"{action}: this edition has no pressure")
        if self.players[seat].pressure_left <= 0:
            return Violation("pressure-used-up", f"{action}: you have no pressure left")
        return None

    def _turn_violation(
        self, action: Bid | HandBid | Dudo | Paso | Declare | OutOfTime, seat: int
    ) -> Violation | None:
        """Why ``seat``, not the player to act, may not take ``action`` (a bid, a challenge
        or a declaration) now, as the edition's turns kind says; ``None`` if it may."""
        role = (
            "bid"
            if isinstance(action, _ANY_BID)
            else "challenge"
            if isinstance(action, Dudo)
            else None
        )
        turns = self.variant.turns
        refused = None
        if role is not None and role in turns.out_of_turn:
            refused = turns.check(role, seat, self._context())
            if refused is None:
                return None
        turn = f"it is {self.players[self.to_act].name}'s turn"  # type: ignore[index]
        return Violation(
            "not-your-turn", f"{action}: {turn}" + (f" ({refused.message})" if refused else "")
        )

    def _act_violation(self, action: Act, seat: int) -> Violation | None:
        actions = self.variant.actions
        if action.word not in actions.words:
            offered = ", ".join(actions.words) or "none"
            return Violation(
                "no-such-action",
                f"{action}: {self.variant.name} has no action {action.word!r} "
                f"(its own actions: {offered})",
            )
        violation = actions.check(action, seat, self.players[seat].cup, self._context())
        if violation is not None and not isinstance(violation, Violation):
            raise _broke(self.variant, "check", f"returned {shown(violation)}")
        if violation is None and self._no_bid_left(seat):
            return Violation("no-bid-left", f"{action}: it is said with a bid, and none is left")
        return violation

    def _action_first(self, seat: int) -> Act | None:
        """The action that must come before ``seat``'s bid now (its actions kind's
        ``before_bid``: Mia's roll), or ``None``."""
        actions = self.variant.actions
        first = actions.before_bid(seat, self.players[seat].cup, self._context())  # type: ignore[attr-defined]
        if first is not None and not isinstance(first, Act):
            raise _broke(self.variant, "before_bid", f"returned {shown(first)}, not an Act")
        return first

    def _no_bid_left(self, seat: int) -> bool:
        """Whether an action said together with a bid would leave ``seat`` owing a bid it
        cannot make (every bid up to the dice in play is taken)."""
        return self.variant.binds_next_move and not self._bids_of(seat, self._may_press(seat))

    @property
    def context(self) -> RoundContext:
        """The round as the rule kinds see it (:class:`~perudo.rules.RoundContext`): what
        their methods are given, never a hidden die."""
        return self._context()

    def _context(self) -> RoundContext:
        known = self.__dict__
        context = known.get(_CONTEXT)
        if context is not None:
            return context  # type: ignore[no-any-return]
        pattern = known.get(_PATTERN)
        if pattern is not None:  # a state of the same round, the same seats and dice
            context = known[_CONTEXT] = extended(
                RoundContext, pattern, to_act=self.to_act, bids=self._chain or ()
            )
            return context
        variant = self.variant
        dice = variant.dice
        context = known[_CONTEXT] = RoundContext(
            words=variant.words,
            faces=dice.faces,
            dice_per_player=dice.per_player,
            dice=tuple([len(player.dice) for player in self.players]),
            round_number=self.round_number,
            to_act=self.to_act,
            bids=self._chain or (),
            rules=self.rules,
            scores=tuple([player.score for player in self.players]),
            starting=self.starting_dice,
            open=in_the_open(p.open for p in self.players) if self.acts else (),
            acts=self.acts,
        )
        return context

    def _exact_call_violation(self, seat: int) -> Violation | None:
        call = self.variant.exact_call
        if call.offered:
            word = self.variant.words.calza or "the exact call"
            if self._chain is None:
                return Violation("nothing-to-challenge", f"there is no bid yet to call {word} on")
            claim = self._chain.last.claim
            if claim != "bid":
                if claim == "exact":  # a claim on a claim would say nothing new
                    return Violation(
                        "exact-call-not-allowed",
                        f"{word}: the standing bid is already claimed exactly right",
                    )
                return Violation(  # a pass or a doubt
                    "exact-call-not-allowed",
                    f"{word}: a {claim} stands; raise the bid or challenge it",
                )
        return call.check(seat, self._context())

    def _has_challenged(self, seat: int) -> bool:
        """Whether ``seat`` has challenged the standing bid already (it waits to be
        challenged all around)."""
        chain = self._chain
        return chain is not None and chain.last.claim == "doubt" and seat in doubters_of(chain)

    def _challenged_all_around(self, seat: int) -> bool:
        """Whether a challenge by ``seat`` is the last the standing bid waits for: every
        other player still in has then challenged it."""
        doubters = {*doubters_of(self._chain or ()), seat}
        return len(doubters) >= self.players_in - 1

    def _time_violation(self) -> Violation | None:
        """Why the player to act may not let the time run out now (at a cost: the clock's
        ``forfeit``), or ``None``."""
        if not self.variant.forfeits_on_time:
            return Violation(
                "no-forfeit", "time: this edition's clock costs nothing; bid or call instead"
            )
        if self._chain is None:
            return Violation(
                "nothing-to-challenge",
                "time: out of time before any bid, the lowest bid is made for you; bid now",
            )
        return None

    def _pass_violation(self, seat: int) -> Violation | None:
        """Why the player to act, ``seat``, may not pass now; ``None`` if it may."""
        passes = self.variant.passes
        if passes.offered:
            word = self.variant.words.paso or "pass"
            if self._chain is None:
                return Violation("pass-not-allowed", f"{word}: there is no bid yet to pass on")
            if self._chain.last.claim in ("exact", "doubt"):
                return Violation(
                    "pass-not-allowed", f"{word}: the bid is challenged; raise it or challenge it"
                )
        violation = passes.check(seat, self._context())
        if violation is not None and not isinstance(violation, Violation):
            raise InvalidVariantError(
                f"rule kind passes:{passes.kind} of {self.variant.key!r} broke its protocol: "
                f"check returned {shown(violation)}"
            )
        return violation

    def _spend_pressure(self, seat: int) -> tuple[Player, ...]:
        p = self.players[seat]
        spent = attrs.evolve(p, pressure_left=p.pressure_left - 1)  # its open dice stay out
        return (*self.players[:seat], spent, *self.players[seat + 1 :])

    def _bid(self, bid: AnyBid, seat: int, log: GameLog, *, claim: Claim = "bid") -> GameState:
        """The state after ``seat`` bids ``bid``, or makes another ``claim`` about the
        standing bid ``bid`` (an exact claim, a pass)."""
        chain = BidChain(self._chain, PlacedBid(seat, bid, claim))
        if self.variant.user_kinds:  # perudo's own raise orders never place a bid twice
            self._check_round_length(chain)
        to_act = self.left_of(seat)
        if claim == "doubt":  # the next player who has not challenged the bid yet
            waiting = {*doubters_of(chain), called_link(chain).player}
            while to_act in waiting:
                to_act = self.left_of(to_act)
        # the fields and the caches copied; a bid declines what was offered
        state = evolved(
            self, to_act=to_act, _chain=chain, offers=(), must_declare=False, log=log
        )  # fmt: skip
        fields = state.__dict__
        if self.must_bid:  # the bid owed is made
            fields["must_bid"] = False
        for key in _NOT_AFTER_BID:  # the caches a bid makes false go
            fields.pop(key, None)
        if bid.pressure and claim == "bid":  # a pass or a doubt restates it: nothing spent
            fields["players"] = self._spend_pressure(seat)
            fields["pressured"] = True
            fields.pop(_SEATS, None)  # what views show of the seats: its pressure changed
        context = self.__dict__.get(_CONTEXT)
        if context is not None:
            fields[_PATTERN] = context  # the next context is made from it
        return state

    def _check_round_length(self, chain: BidChain) -> None:
        """Stop a round that passes its rules' bound (a raise order that lets a bid come
        back): a game whose round never ends is refused, not played on."""
        rules, variant = self.rules, self.variant
        top = max(self.dice_in_play, chain.highest)
        hands = len(variant.hand_bids)  # each raise names a higher hand: each once
        different = hands or different_bids(rules, top, variant.has_pressure)
        times = 1 if hands else rules.raising.times_per_bid
        if chain.length <= variant.most_links(len(self.players), different * (times or 1)):
            return
        order = f"raising:{rules.raising.kind}"
        if times is None:
            raise InvalidVariantError(
                f"round {self.round_number} of {variant.key!r} never ends: {chain.length} "
                f"bids, more than the {different} different bids of at most {top} dice, and "
                f"its raise order ({order}) lets a bid come back without limit "
                "(times_per_bid is None)"
            )
        raise InvalidVariantError(
            f"rule kind {order} of {variant.key!r} broke its protocol: times_per_bid said a "
            f"bid is placed at most {times} time(s) a round, and round {self.round_number} "
            f"holds {chain.length} bids, more than {times} times the {different} different "
            f"bids of at most {top} dice"
        )

    def _declare(self, name: str, seat: int, log: GameLog) -> GameState:
        variant = self.variant
        special = variant.special_round
        players = self.players
        if special.once_per_player:
            spent = attrs.evolve(players[seat], had_special=True)
            players = (*players[:seat], spent, *players[seat + 1 :])
        role = special.declarations[variant.declarations.index(name)]  # the word's role
        if role == "ordinary":
            return attrs.evolve(self, players=players, offers=(), must_declare=False, log=log)
        rules = special.transform(self.rules, seat, self._context())
        return attrs.evolve(
            self,
            players=players,
            rules=rules,
            special_round=name,
            special_player=seat,
            offers=(),
            must_declare=False,
            log=log,
        )

    def _effect(self, action: Act, seat: int) -> ActEffect:
        """What ``action`` (legal) by ``seat`` does, as the actions kind says, checked."""
        variant = self.variant
        cup = self.players[seat].cup
        effect = variant.actions.effect(action, seat, cup, self._context())
        if not isinstance(effect, ActEffect):
            raise _broke(variant, "effect", f"returned {shown(effect)}, not an ActEffect")
        put_out = effect.put_out
        if not isinstance(put_out, tuple) or not holds(cup, put_out):
            raise _broke(variant, "effect", f"put out {shown(put_out)}, not dice of {cup}")
        redraw = effect.redraw
        if redraw and (
            not isinstance(redraw, tuple) or not holds(cup, redraw) or put_out or effect.reroll
        ):
            raise _broke(
                variant, "effect", f"draws {shown(redraw)}, not dice of {cup} alone (no put_out, "
                "no reroll)"
            )  # fmt: skip
        if effect.then_bid and not variant.binds_next_move:
            raise _broke(
                variant, "effect", "bound the next move to a bid (then_bid) without binds = True"
            )
        look = effect.look_at
        if look is not None and (
            type(look) is not int
            or not 0 <= look < len(self.players)
            or look == seat
            or not self.players[look].cup
        ):
            raise _broke(
                variant, "effect", f"looks under the cup of seat {shown(look)}, which has none"
            )
        return effect

    def _act(self, action: Act, seat: int, rolled: Sequence[int] | None) -> GameState:
        variant = self.variant
        effect = self._effect(action, seat)
        player = self.players[seat]
        left = without(player.cup, effect.put_out or effect.redraw)
        n = len(left) if effect.reroll else len(effect.redraw)
        look, faces = effect.look_at, variant.dice.faces
        index = len(self.acts)  # the action's number in the round: its chance streams
        seen: int | None = None
        if rolled is None:
            rerolled = reroll(self.seed, self.round_number, index, n, faces) if n else ()
            if look is not None:
                under = self.players[look].cup
                seen = under[pick(self.seed, self.round_number, index, len(under))]
        else:
            outcome = _checked_roll(rolled, n + (look is not None), faces, action)
            rerolled = tuple(sorted(outcome[:n]))
            if look is not None:
                seen = outcome[n]
                if seen not in self.players[look].cup:
                    raise GameSetupError(
                        f"rolled: seat {look} has no {seen} under its cup to be looked at"
                    )
        opened = tuple(sorted(player.open + effect.put_out))
        cup = (*left, *rerolled) if effect.redraw else rerolled if n else left
        moved = attrs.evolve(player, dice=tuple(sorted(opened + cup)), open=opened)
        players = (*self.players[:seat], moved, *self.players[seat + 1 :])
        acts = (*self.acts, PlacedAct(seat, action, len(self.bids)))
        glimpses = self.seen
        if look is not None and seen is not None:
            glimpses = tuple(sorted((*glimpses, Glimpse(seat, look, seen))))
        chance = (*rerolled, *(() if seen is None else (seen,)))
        log = self.log.with_move(seat, action, chance or None)
        if effect.then_bid:  # said together with a bid: the actor bids now, and only bids
            return attrs.evolve(
                self, players=players, acts=acts, seen=glimpses, log=log, to_act=seat,
                must_bid=True,
            )  # fmt: skip
        return attrs.evolve(self, players=players, acts=acts, seen=glimpses, log=log)

    def _resolve(
        self,
        action: Action,
        caller: int,
        players: tuple[Player, ...],
        pressured: bool,
        log: GameLog,
    ) -> GameState:
        assert self._chain is not None  # a call needs a standing bid
        hands = [player.dice for player in self.players]
        names = tuple([player.name for player in self.players])
        call = CALL_ROLES[type(action)]
        settled, result = settle_call(
            self.variant, self._context(), hands, call, caller, pressured, names
        )
        return self._next_round(result, settled, players, log)

    def _next_round(
        self, result: Resolution, settled: SettledCall, players: tuple[Player, ...], log: GameLog
    ) -> GameState:
        variant = self.variant
        after = next_round(variant, self.seed, settled, players, self.owed)
        if after.opener is None:  # the game is over
            return attrs.evolve(
                self, players=after.players, to_act=None, chain=None, offers=(),
                must_declare=False, pressured=False, acts=(), seen=(), owed=(),
                last_result=result, log=log,
            )  # fmt: skip
        special = after.special_player is not None  # the role; its word is for people
        return GameState(
            variant=variant,
            seed=self.seed,
            players=after.players,
            starting_dice=self.starting_dice,
            round_number=self.round_number + 1,
            to_act=after.opener,
            chain=None,
            rules=after.rules,
            special_round=variant.words.declaration("special") if special else None,
            special_player=after.special_player,
            owed=after.owed,
            offers=after.offers,
            must_declare=after.must_declare,
            pressured=False,
            last_result=result,
            log=log,
        )


def legal_order(variant: Variant) -> Callable[[Action], tuple[int, ...]]:
    """The sort key of :meth:`~perudo.GameState.legal_actions`'s order in ``variant``:
    declarations (in the order offered), bids by face then pressure then quantity, the
    challenge (plain, then pressured), the exact call, the pass, letting the time run out,
    the edition's own actions."""
    declarations, rules = variant.declarations, variant.round_rules()

    def key(action: Action) -> tuple[int, ...]:
        if isinstance(action, Declare):
            return (0, declarations.index(action.name))
        if isinstance(action, HandBid):  # by rank, lowest first
            return (1, rules.hand_rank(action))
        if isinstance(action, Bid):
            return (1, action.face, action.pressure, action.quantity)
        if isinstance(action, Dudo):
            return (2, action.pressure)
        if isinstance(action, Calza):
            return (3,)
        if isinstance(action, Paso):
            return (4,)
        return (5,) if isinstance(action, OutOfTime) else (6,)

    return key


def _left_of(players: Sequence[Player], seat: int) -> int:
    n = len(players)
    for step in range(1, n + 1):
        other = (seat + step) % n
        if players[other].dice:
            return other
    return seat


def _require_action(action: Any) -> None:
    if not isinstance(action, ACTION_TYPES):
        raise IllegalActionError(
            "malformed-action",
            f"{shown(action)} is not an action: "
            "use Bid(quantity, face), Dudo(), Calza(), Declare(name) or Act(word, numbers)",
        )


def _broke(variant: Variant, method: str, what: str) -> InvalidVariantError:
    """The error of an actions kind whose ``method`` broke its protocol."""
    kind = variant.actions.kind
    return InvalidVariantError(
        f"rule kind actions:{kind} of {variant.key!r} broke its protocol: {method} {what}"
    )


def _checked_roll(rolled: Sequence[int], n: int, faces: int, action: Act) -> tuple[int, ...]:
    """``rolled``, the ``n`` faces chance gives ``action`` (re-rolled, then looked at),
    checked."""
    if isinstance(rolled, str | bytes) or not isinstance(rolled, Sequence):
        raise GameSetupError(f"rolled {shown(rolled)} is not a list of faces")
    if not n:
        raise GameSetupError(f"rolled: {action} re-rolls no dice and looks at none")
    if len(rolled) != n:
        raise GameSetupError(f"rolled gives {len(rolled)} faces for {n} dice {action} rolls")
    for face in rolled:
        if type(face) is not int or not 1 <= face <= faces:
            raise GameSetupError(f"rolled: {shown(face)} is not a face 1 to {faces}")
    return tuple(rolled)
