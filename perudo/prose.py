"""Rule components told as sentences, for ``perudo rules`` and the edition pages."""

from __future__ import annotations

from typing import Any

import attrs

from perudo.variant import AXES, Variant

__all__ = ["AXIS_TITLES", "describe", "label", "rules_text", "setting"]

AXIS_TITLES = {
    "players": "Players",
    "dice": "Dice",
    "wilds": "Wild ones",
    "raising": "Raise order",
    "conversion": "To/from ones",
    "opening": "Opening ones",
    "cap": "Quantity cap",
    "challenge": "Dudo",
    "exact_call": "Exact call",
    "special_round": "One-die round",
    "starter": "Next round",
    "first_player": "First player",
    "scoring": "End, scoring",
}

_OPENING = {
    "forbidden": "A round may not open with a bid on ones.",
    "allowed": "A round may open with a bid on ones.",
    "required": "The opener must bid on ones.",
}
_FACE_CHANGE = {
    "nobody": "nobody may change the face",
    "one-die": "only players holding one die may change the face",
    "one-die-except-opener": (
        "only the other players holding one die may change the face (not the player whose "
        "round it is)"
    ),
}
_TWO_PLAYERS = {
    "same": "It is played the same way with two players left.",
    "off": "It is not played when only two players are left.",
    "choice": (
        "With two players left, the one-die player chooses before looking at the die: "
        "'declare {name}' or 'declare ordinary'."
    ),
}


def describe(variant: Variant, axis: str) -> str:
    """The setting of ``variant`` on ``axis`` as sentences in the edition's words."""
    component: Any = variant.component(axis)
    words = variant.words
    kind = component.kind
    if axis == "players":
        return f"{component.min} to {component.max} players."
    if axis == "dice":
        return f"Each player starts with {component.per_player} six-sided dice."
    if axis == "opening":
        return _OPENING[component.ones]
    if axis == "challenge":
        text = (
            f"'{words.dudo}' challenges the standing bid: a count at least its quantity makes "
            "the challenger lose, a lower count the bidder (equality favours the bidder)."
        )
        if component.reveal == "from-left":
            text += (
                " Hands are shown one by one from the challenger's left and the showing stops "
                "as soon as the bid is proven true; the rest stay hidden."
            )
        else:
            text += " Every hand is shown."
        return text
    if axis == "exact_call" and kind == "exact":
        who = (
            "on their own turn"
            if component.who == "player-to-act"
            else "in or out of turn, except the last bidder and the player just before them"
        )
        text = (
            f"'{words.calza}' claims the standing bid is exactly right; "
            f"any player may call it {who}"
        )
        if component.caller_below_full:
            text += f", holding fewer than {variant.dice.per_player} dice"
        text += (
            f", with at least {component.min_players} players still in. Right: the caller "
            f"gains a die (never above {variant.dice.per_player}). Wrong: the caller loses one."
        )
        return text
    if axis == "special_round" and kind == "one-die-round":
        name = component.name.capitalize()
        opt = (
            f"may announce '{component.name}' before the first bid (bidding declines it)"
            if component.optional
            else "plays it"
        )
        once = " Once per player per game." if component.once_per_player else ""
        return (
            f"{name}: a player who loses a die and is left with one {opt} in the next round.{once} "
            f"Ones are not wild, there is no conversion, and the face is locked: "
            f"{_FACE_CHANGE[component.face_change]}, with ones ranked lowest. "
            f"{_OPENING[component.opening]} "
            + _TWO_PLAYERS[component.two_players].format(name=component.name)
        )
    if axis == "starter":
        text = "The player who lost opens the next round; after an exact call, the caller."
        if component.if_out == "eliminator":
            return text + " If the loser is out, the player who put them out opens."
        return text + " If that player is out, the next player to the left opens."
    if axis == "scoring" and kind == "points":
        return (
            f"N players play {component.rounds_per_player}N rounds with their dice; nobody is "
            f"eliminated. A challenge moves {component.points} point from its loser to its "
            f"winner, {component.pressure_points} if anyone used pressure in the round (never "
            f"more). Each player has {component.pressure_uses} pressure uses for the game. "
            "The highest score wins; ties share the win."
        )
    return _first_paragraph(component)


def _first_paragraph(component: Any) -> str:
    doc = type(component).__doc__ or ""
    return " ".join(doc.strip().split("\n\n")[0].split())


def rules_text(variant: Variant) -> str:
    """The whole edition as prose: one paragraph per axis, with where it comes from."""
    lines = [f"{variant.name} ({variant.key}), source {variant.source}", "", variant.summary, ""]
    for axis in AXES:
        source = variant.provenance_of(axis)
        lines.append(f"{AXIS_TITLES[axis]} [{source.kind}]: {describe(variant, axis)}")
        if source.reason and source.kind != "stated":
            lines.append(f"  ({source.reason})")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def setting(component: Any) -> str:
    """A component as ``kind (param=value, ...)``, the form declarations use."""
    params = ", ".join(
        f"{field.name}={getattr(component, field.name)}" for field in attrs.fields(type(component))
    )
    return str(component.kind) + (f" ({params})" if params else "")


_SHORT_SPECIAL = {"palifico": "Palifico", "palafico": "Palafico", "calzone": "Calzone"}


def label(variant: Variant, axis: str) -> str:
    """The setting in at most eight characters, for the editions-by-axes matrix."""
    c: Any = variant.component(axis)
    if axis == "players":
        return f"{c.min}-{c.max}"
    if axis == "dice":
        return str(c.per_player)
    if axis == "opening":
        return {"forbidden": "no ones", "allowed": "any", "required": "ones"}[c.ones]
    if axis == "challenge":
        return "partial" if c.reveal == "from-left" else "show all"
    if axis == "exact_call":
        if c.kind == "none":
            return "-"
        return (variant.words.calza or "Calza") + ("" if c.who == "player-to-act" else "*")
    if axis == "special_round":
        return "-" if c.kind == "none" else _SHORT_SPECIAL[c.name]
    if axis == "starter":
        return "loser" if c.if_out == "left" else "loser/KO"
    short = {
        "quantity-or-face": "qty|face",
        "monotone": "monotone",
        "halve-double": "q/2,2a+1",
        "none": "none",
        "dice-in-play": "in play",
        "ones": "ones",
        "roll-off": "roll-off",
        "elimination": "last in",
        "points": "points",
    }
    return short.get(c.kind, str(c.kind)[:8])
