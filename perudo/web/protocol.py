"""The messages of a seat at a ``perudo serve`` table, for programs that play there: a
JSON Schema (draft 2020-12) of what the server sends and what a seat may send, served at
``GET /api/schema`` and versioned by :data:`PROTOCOL`.

A program joins a seat like a page does: a WebSocket to ``/tables/ID/ws?name=NAME`` (or
``?token=TOKEN`` to come back: the first message gives the token). Every message from the
server is a JSON object whose ``type`` says which it is:

- ``"view"``: the table as the seat sees it, after every change: its view, the legal
  moves (``legal``, each a string to send back) and the same laid out by face
  (``turn``, :func:`perudo.web.turn.choices`), the game's log from line ``log_start``
  on, the seconds the player to act has left, and the places and ``rematch`` at the end;
- ``"refused"``: a move of this seat's was refused (``reason``, one of
  :data:`perudo.errors.REASONS` or ``"malformed-message"`` / ``"no-rematch"``, and a
  sentence);
- ``"error"``: the page asked for a seat it could not take (a full table, a name taken);
- ``"benched"``: the seat sent :data:`~perudo.web.table.BENCH_AFTER` refused moves in a
  row; a bot plays for it until it connects again.

A seat sends ``{"move": "3x5"}`` (a move in the notation or the edition's words, as
``legal`` lists them) or, once the game is over, ``{"rematch": true}``. A turn has the
table's time (``seconds_left``); at zero the table plays it (the log says so).

>>> SCHEMA["properties"]["protocol"]["const"] == PROTOCOL
True
"""

from __future__ import annotations

from typing import Any

__all__ = ["PROTOCOL", "SCHEMA"]

#: The version of the messages, raised when a message loses a field or changes its
#: meaning (a field added keeps it).
PROTOCOL = 1

_SEAT = {"type": ["integer", "null"], "minimum": 0}
_STRINGS = {"type": "array", "items": {"type": "string"}}
_SEATS = {"type": "array", "items": {"type": "integer", "minimum": 0}}

_FACE = {
    "type": "object",
    "required": ["face", "name", "quantities", "below", "refused"],
    "properties": {
        "face": {"type": "integer", "minimum": 1},
        "name": {"type": "string"},
        "quantities": {"type": "array", "items": {"type": "integer", "minimum": 1},
                       "description": "the legal quantities of a plain bid on this face, rising"},
        "below": {"type": ["string", "null"],
                  "description": "why a quantity under the lowest legal one is refused"},
        "refused": {"type": ["string", "null"],
                    "description": "why this face may not be bid now (null: it may)"},
    },
}  # fmt: skip

_LINE = {
    "type": "object",
    "required": ["round", "kind", "seat", "text", "hands", "out", "late"],
    "properties": {
        "round": {"type": "integer", "minimum": 1},
        "kind": {"enum": ["round", "move", "showdown", "end"]},
        "seat": _SEAT,
        "text": {"type": "string"},
        "hands": {"type": "array",
                  "items": {"type": ["array", "null"], "items": {"type": "integer"}}},
        "out": _SEATS,
        "late": {"type": "boolean"},
    },
}  # fmt: skip

_VIEW = {
    "type": "object",
    "required": ["type", "protocol", "table", "edition", "seat", "view", "svg", "names",
                 "people", "dice_in_play", "log_start", "log", "places", "rematch",
                 "stood_in", "ready", "seconds_left", "closed", "stopped"],
    "properties": {
        "type": {"const": "view"},
        "protocol": {"const": PROTOCOL},
        "table": {"type": "string"},
        "edition": {"type": "string"},
        "seat": _SEAT,
        "view": {"type": "object", "required": ["player", "to_act", "bids", "seats",
                                                 "legal_actions", "winners"],
                 "description": "perudo.PlayerView.to_dict(): the seat's own view only"},
        "svg": {"type": "string"},
        "names": _STRINGS,
        "people": {"type": "array", "items": {"type": "boolean"}},
        "dice_in_play": {"type": "integer", "minimum": 0},
        "log_start": {"type": "integer", "minimum": 0},
        "log": {"type": "array", "items": _LINE},
        "places": _SEATS,
        "rematch": {"type": ["string", "null"]},
        "stood_in": _SEATS,
        "ready": {"type": "boolean"},
        "seconds_left": {"type": ["number", "null"], "minimum": 0},
        "closed": {"type": "boolean"},
        "stopped": {"type": ["string", "null"]},
        "seed": {"type": "integer"},
        "token": {"type": ["string", "null"],
                  "description": "on joining: the seat's secret, to come back with ?token="},
        "legal": {**_STRINGS, "description": "each legal move, as the seat sends it"},
        "turn": {
            "type": "object",
            "required": ["faces", "pressured", "moves"],
            "properties": {
                "faces": {"type": "array", "items": _FACE},
                "pressured": {"type": "array", "items": _FACE},
                "moves": {"type": "array", "items": {
                    "type": "object",
                    "required": ["move", "kind", "legend"],
                    "properties": {"move": {"type": "string"},
                                   "kind": {"enum": ["call", "declaration", "action", "bid"]},
                                   "legend": {"type": "string"}},
                }},
            },
        },
    },
}  # fmt: skip


def _notice(kind: str, *, reason: bool) -> dict[str, Any]:
    required = ["type", "message", *(["reason"] if reason else [])]
    properties: dict[str, Any] = {"type": {"const": kind}, "message": {"type": "string"}}
    if reason:
        properties["reason"] = {"type": "string", "pattern": "^[a-z]+(-[a-z]+)*$"}
    return {"type": "object", "required": required, "properties": properties}


#: The JSON Schema of the protocol. Its ``$defs`` hold each message; the document itself
#: validates any message from the server (``oneOf`` its four kinds), and ``$defs.sent``
#: any message a seat sends.
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": f"urn:perudo:serve:protocol:{PROTOCOL}",
    "title": f"perudo serve: a seat's messages, protocol {PROTOCOL}",
    "description": __doc__.split("\n\n>>>")[0] if __doc__ else "",
    "properties": {"protocol": {"const": PROTOCOL}},
    "oneOf": [{"$ref": "#/$defs/view"}, {"$ref": "#/$defs/refused"},
              {"$ref": "#/$defs/error"}, {"$ref": "#/$defs/benched"}],
    "$defs": {
        "view": _VIEW,
        "refused": _notice("refused", reason=True),
        "error": _notice("error", reason=False),
        "benched": _notice("benched", reason=True),
        "sent": {
            "oneOf": [
                {"type": "object", "required": ["move"], "additionalProperties": False,
                 "properties": {"move": {"type": "string", "maxLength": 200}}},
                {"type": "object", "required": ["rematch"], "additionalProperties": False,
                 "properties": {"rematch": {"const": True}}},
            ],
        },
    },
}  # fmt: skip
