"""The text notation of actions, and each edition's own words for them.

=======================  ==============================================
notation                 action
=======================  ==============================================
``3x4``                  ``Bid(3, 4)``: three 4s (``5x1``: five ones)
``3x4!``                 ``Bid(3, 4, pressure=True)``
``dudo``                 ``Dudo()``: the challenge
``dudo!``                ``Dudo(pressure=True)``
``6-5``                  ``HandBid((6, 5))``: a bid naming a hand (Mia's 65)
``calza``                ``Calza()``: the exact call
``declare palifico``     ``Declare("palifico")``: any declaration name
``reroll 2 5``           ``Act("reroll", (2, 5))``: an edition's own action
=======================  ==============================================

Words are ASCII, lower case, separated by one space; quantities are written without
leading zeros; a face is 1 to 20 (the edition's dice decide which are legal: six-sided
dice have 1 to 6, and ``3x12`` is a bid on twelves). ``str(action)`` gives this canonical
form, and ``parse_action`` reads it back; records are written in it.
``parse_action`` reads any case and spacing (``3X5``, `` 3x5 ``, ``Declare  Palifico``), and
``parse_action(text, variant=...)`` also reads the edition's own words (``Dubito``,
``Jonti``, ``Spot on``, ``Palifico``), and, where its bids name hands, what players call
each hand (``Mia``, ``65``).

**The pressure mark.** ``!`` at the end of a bid or of the challenge's word is WANGO's
pressure, and nothing else: the pressured form of a word is the word with ``!`` added. A
word that ends in ``!`` itself (``dudo = "Basta!"``) is read as written, and its
pressured form ends in ``!!``. An edition whose words would make one typed text mean two
actions (``calza = "Liar!"`` beside ``dudo = "Liar"``: ``liar!`` would be both the
pressured challenge and the exact call) is refused when it is made, and so is a face
named with a final ``!`` (``[words] faces``), which no bid could be told apart from.

**Actions an edition declares** (:class:`~perudo.Act`) are written as their word followed by
their numbers, each after one space: ``reroll 2 5``, ``reroll 6``, ``peek``. The edition's
action kind says what the numbers mean (for Bluff's ``reroll``, the faces put out in the
open) and which are legal; the notation reads a word only where the edition offers it
(without an edition, the shipped editions' words: ``reroll``).

The whole grammar, in EBNF (``"x"`` a character, ``{ }`` repeated, ``[ ]`` optional)::

    action    = bid | hand | challenge | exact | pass | declare | act ;
    bid       = quantity "x" face [ "!" ] ;          (* 3x4, 3x4! *)
    hand      = face "-" face { "-" face } ;          (* 6-5: highest first, 2 to 20 *)
    challenge = "dudo" [ "!" ] ;                      (* or the edition's word *)
    exact     = "calza" ;                             (* or the edition's word *)
    pass      = "paso" ;                              (* or the edition's word *)
    declare   = "declare " name ;                     (* declare palifico *)
    act       = word { " " number } ;                 (* reroll 2 5 *)
    quantity  = nonzero [ digit [ digit [ digit ] ] ] ;          (* 1 to 9999 *)
    face      = nonzero | "1" digit | "20" ;                     (* 1 to 20 *)
    number    = "0" | nonzero [ digit [ digit [ digit ] ] ] ;    (* 0 to 9999, at most 20 *)
    word      = letter { letter | "-" } ;    (* 1 to 20; not dudo, calza, paso, declare *)
    name      = 1 to 40 printable characters, lower case, words one space apart ;

A record writes a re-roll's move with the faces it rolled after ``->`` (``7 1 reroll 2 5
-> 1 3 6``): see :mod:`perudo.record`.
"""

from __future__ import annotations

import functools

from perudo.actions import Act, Action, canonical_action
from perudo.errors import IllegalActionError, shown
from perudo.loader import load_variant, variant_names
from perudo.rules import Words
from perudo.variant import Variant

__all__ = ["parse_action", "refused_as_typed", "spoken_words"]

_LONGEST = 200  # no notation or edition word is longer


def parse_action(text: str, variant: Variant | None = None) -> Action:
    """The action written as ``text``: the canonical notation above, or, with ``variant``,
    the edition's own words for its calls and declarations (any case, surrounding spaces
    ignored; ``!`` after a challenge word adds pressure), and its own actions' words.

    Without ``variant``, the shipped editions' words are read in lower case, as the
    notation has always read them.

    >>> parse_action("3x4"), parse_action("dubito!"), parse_action("jonti")
    (Bid(3, 4), Dudo(pressure=True), Calza())
    >>> parse_action("declare palifico")
    Declare('palifico')
    >>> import perudo
    >>> parse_action("  DUBITO ", variant=perudo.load_variant("italian"))
    Dudo()

    Raises:
        IllegalActionError: ``reason="malformed-action"``, naming the text.
    """
    if not isinstance(text, str):
        raise IllegalActionError(
            "malformed-action", f"{shown(text)} is not action notation (a str)"
        )
    action = canonical_action(text)
    spoken = text
    if action is None and len(text) <= _LONGEST:  # any case and spacing: 3X5, " 3x5 "
        spoken = " ".join(text.split()).lower()
        action = canonical_action(spoken)
    if isinstance(action, Act):  # an action word only where an edition offers it
        offered = _shipped_act_words() if variant is None else variant.actions.words
        action = action if action.word in offered else None
    if action is None:
        words = _shipped_words() if variant is None else _edition_words(variant.words)
        action = words.get(spoken)
    if action is None and variant is not None and variant.hand_bids:
        action = _hand_words(variant).get(spoken)
    if action is None:
        why = f"{shown(text)} is not a move: {_help(variant)}"
        raise IllegalActionError("malformed-action", why)
    return action


def refused_as_typed(error: IllegalActionError, typed: str) -> str:
    """``error``'s sentence with the move as the player typed it (``Dubito: it is Ana's
    turn``, not ``dudo: ...``), for a player who typed the edition's words.

    >>> import perudo
    >>> state = perudo.new_game("italian", ["Ana", "Ben"], seed=1, first_player=0)
    >>> try:
    ...     state.apply(parse_action("Dubito", variant=state.variant), by=1)
    ... except IllegalActionError as error:
    ...     print(error, "/", refused_as_typed(error, "Dubito"))
    dudo: it is Ana's turn / Dubito: it is Ana's turn
    """
    message = error.message
    prefix = f"{error.action}: "
    if error.action is not None and message.startswith(prefix):
        return f"{' '.join(typed.split())[:_LONGEST]}: {message[len(prefix) :]}"
    return message


@functools.lru_cache(maxsize=64)
def _edition_words(words: Words) -> dict[str, Action]:
    """An edition's words, in lower case, and the actions they stand for."""
    return dict(words.action_words())


@functools.lru_cache(maxsize=64)
def _hand_words(variant: Variant) -> dict[str, Action]:
    """What players call each hand of an edition whose bids name hands, in lower case."""
    return {" ".join(name.split()).lower(): bid for bid, (_, name) in zip(
        variant.hand_bids, variant.hand_names, strict=True)}  # fmt: skip


@functools.cache
def _shipped_words() -> dict[str, Action]:
    """The shipped editions' words, in lower case: what the notation read before editions
    named their own words."""
    table: dict[str, Action] = {}
    for key in variant_names():
        table.update(_edition_words(load_variant(key).words))
    return table


@functools.cache
def _shipped_act_words() -> frozenset[str]:
    """The words of the shipped editions' own actions (``reroll``)."""
    return frozenset(word for key in variant_names() for word in load_variant(key).actions.words)


def _help(variant: Variant | None) -> str:
    """What a player may write: the edition's own moves in its words, only those it has."""
    if variant is None:
        return "write 3x4, 3x4!, dudo, dudo!, calza, paso or declare <name>"
    words = variant.words
    moves = ["a bid such as 3x4"]
    if variant.hand_bids:
        named = variant.hand_names
        moves = [f"a hand such as {named[-2][1]} or {named[-1][1]}"]
    if variant.has_pressure:
        moves.append("3x4! (a bid with pressure)")
    moves.append(words.dudo.lower())
    if variant.has_pressure:
        moves.append(f"{words.dudo.lower()}! (with pressure)")
    if variant.has_exact_call and words.calza is not None:
        moves.append(words.calza.lower())
    if variant.passes.offered:
        moves.append((words.paso or "paso").lower())
    moves += list(variant.declarations)
    moves += [f"{word} ..." for word in variant.actions.words]
    return f"in {variant.name}, write {', '.join(moves[:-1])} or {moves[-1]}"


@functools.cache
def spoken_words(variant: Variant) -> dict[Action, str]:
    """Each call and declaration of ``variant`` in its own first word for it, and each hand
    a bid may name as players call it (``"Mia"``, where bids name hands): what a player
    writes for them, and :func:`perudo.parse_action` reads back.

    >>> import perudo
    >>> spoken_words(perudo.load_variant("italian"))[perudo.Dudo()]
    'dubito'
    """
    words: dict[Action, str] = {}
    for word, action in variant.words.action_words():
        words.setdefault(action, word)
    for bid, (_, name) in zip(variant.hand_bids, variant.hand_names, strict=True):
        words.setdefault(bid, name)
    return words
