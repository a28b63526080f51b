"""The text notation of actions.

=======================  ==============================================
notation                 action
=======================  ==============================================
``3x4``                  ``Bid(3, 4)``: three 4s (``5x1``: five ones)
``3x4!``                 ``Bid(3, 4, pressure=True)``
``dudo``                 ``Dudo()``; aliases ``dubito``, ``perudo``, ``challenge``
``dudo!``                ``Dudo(pressure=True)``
``calza``                ``Calza()``; alias ``jonti``
``declare palifico``     ``Declare("palifico")`` (also ``palafico``, ``calzone``, ``ordinary``)
=======================  ==============================================

Words are ASCII, lower case, separated by one space; quantities are written without
leading zeros. ``str(action)`` gives the canonical form, and ``parse_action`` reads it back.
"""

from __future__ import annotations

import re

from perudo.actions import DECLARATIONS, Action, Bid, Calza, Declare, Dudo
from perudo.errors import IllegalActionError, shown

__all__ = ["CALL_ALIASES", "parse_action"]

#: Words accepted for the calls, the editions' own included.
CALL_ALIASES: dict[str, str] = {
    "dudo": "dudo",
    "dubito": "dudo",
    "perudo": "dudo",
    "challenge": "dudo",
    "calza": "calza",
    "jonti": "calza",
}

_BID = re.compile(r"([1-9][0-9]{0,3})x([1-6])(!?)", re.ASCII)


def parse_action(text: str) -> Action:
    """The action written as ``text`` in the notation above.

    >>> parse_action("3x4"), parse_action("dubito!"), parse_action("jonti")
    (Bid(3, 4), Dudo(pressure=True), Calza())
    >>> parse_action("declare palifico")
    Declare('palifico')

    Raises:
        IllegalActionError: ``reason="malformed-action"``, naming the text.
    """
    if not isinstance(text, str):
        raise IllegalActionError(
            "malformed-action", f"{shown(text)} is not action notation (a str)"
        )
    match = _BID.fullmatch(text)
    if match is not None:
        return Bid(int(match[1]), int(match[2]), pressure=bool(match[3]))
    word, pressure = (text[:-1], True) if text.endswith("!") else (text, False)
    call = CALL_ALIASES.get(word)
    if call == "dudo":
        return Dudo(pressure=pressure)
    if call == "calza" and not pressure:
        return Calza()
    name = text.removeprefix("declare ")
    if name != text and name in DECLARATIONS:
        return Declare(name)
    raise IllegalActionError(
        "malformed-action",
        f"{shown(text)} is not action notation: "
        "write 3x4, 3x4!, dudo, dudo!, calza or declare <name>",
    )
