"""The OpenAPI 3.1 description of the JSON API, served at ``/api/openapi.json`` (written here
by hand: the framework makes none; a test checks that it names exactly the app's calls): the
rulings' calls here, the score pad's and the tables' in :mod:`herzla.web.openapi_paths`."""

from __future__ import annotations

from typing import Any

from herzla import __version__
from herzla.evening.model import VERSION as EVENING_VERSION
from herzla.web.openapi_games import game_names, new_evening, new_table, policies
from herzla.web.openapi_paths import GUARDED, PATHS, SCHEMAS
from herzla.web.openapi_paths import json_answer as _json
from herzla.web.openapi_paths import ref as _ref

__all__ = ["document"]

_ERRORS = {
    **GUARDED,
    "413": _json(_ref("Error"), "The body is over the size limit (or holds too many records)."),
    "415": _json(_ref("Error"), "The body is not sent as JSON."),
    "422": _json(_ref("Error"), "The body is malformed, or the tallies do not add up; the "
                                "error names the problem in one line."),
}

_SEATS = {"type": "array", "items": {"type": "integer", "minimum": 0},
          "description": "One whole number per seat, seat 0 first."}

_SCHEMAS: dict[str, Any] = {
    "Error": {"type": "object", "required": ["error"],
              "properties": {"error": {"type": "string", "description": "One line naming the "
                                                                        "problem."}}},
    "Record": {"type": "object", "required": ["game", "contract", "hands"],
               "description": "A hand record, as the Hand records page of the docs describes it.",
               "properties": {"game": {"type": "string"}, "contract": {"type": "string"},
                              "players": {"type": "integer"}, "dealer": {"type": "integer"},
                              "declarer": {"type": ["integer", "null"]},
                              "stock": {"type": "integer"}, "options": {"type": "object"},
                              "hands": {"type": "array",
                                        "items": {"type": "array",
                                                  "items": {"type": "string"}}},
                              "plays": {"type": "array", "items": {"type": "string"}}}},
    "Replay": {"type": "object",
               "description": "What `herzla replay --json` answers for one record (a list "
                              "answers a score sheet).",
               "properties": {"game": {"type": "string"}, "contract": {"type": "string"},
                              "players": {"type": "integer"}, "complete": {"type": "boolean"},
                              "illegal": {"type": ["object", "null"]},
                              "tricks": {"type": ["array", "null"]},
                              "order": {"type": ["array", "null"]},
                              "scores": {"type": ["array", "null"],
                                         "items": {"type": "integer"}},
                              "stock": {"type": ["integer", "null"]},
                              "events": {"type": "array", "items": {"type": "string"}},
                              "explanation": {"type": "array", "items": {"type": "string"}}}},
    "Tally": {"type": "object", "required": ["game", "contract"],
              "additionalProperties": False,
              "description": "What each seat took, as `herzla score` takes it; give what the "
                             "contract needs (the error says what is missing).",
              "properties": {
                  "game": {"type": "string", "examples": ["herzla"]},
                  "contract": {"type": "string", "examples": ["normal"]},
                  "players": {"type": "integer"},
                  "hearts": _SEATS, "tricks": _SEATS,
                  "captured": {"type": "array",
                               "description": "Each seat's captured cards, seat 0 first: a "
                                              "text of card codes or a list of them.",
                               "items": {"oneOf": [{"type": "string"},
                                                   {"type": "array",
                                                    "items": {"type": "string"}}]}},
                  "order": {**_SEATS, "description": "Layout deals: the seats in the order "
                                                     "they went out."},
                  "declarer": {"type": "integer"},
                  "made": {"type": "boolean", "description": "Beddl/Mord: made or lost "
                                                             "(instead of the tricks)."},
                  "last_trick": {"type": "integer",
                                 "description": "The seat that won the last trick."},
                  "stock": {"type": "integer", "description": "Cents in the stock before "
                                                              "the hand."},
                  "options": {"type": "object", "description": "Rule options by name."}}},
    "Score": {"type": "object",
              "description": "What `herzla score --json` answers.",
              "properties": {"game": {"type": "string"}, "contract": {"type": "string"},
                             "players": {"type": "integer"},
                             "scores": {"type": "array", "items": {"type": "integer"}},
                             "stock": {"type": ["integer", "null"]},
                             "events": {"type": "array", "items": {"type": "string"}},
                             "explanation": {"type": "array", "items": {"type": "string"}}}},
}


#: the calls that make a document, and the calls that take its id (``{id}`` after the prefix)
_MAKERS = {("/api/evenings", "post"): "/api/evenings/{id}",
           ("/api/evenings/import", "post"): "/api/evenings/{id}",
           ("/api/tables", "post"): "/api/tables/{id}"}


_METHODS = ("get", "put", "post", "delete", "patch")


def _linked(paths: dict[str, Any]) -> dict[str, Any]:
    """``paths`` with links from each call that makes an evening or a table (its 201 answer)
    to every call that takes the new one's id (so a client, or a tester, goes on from the
    answer's ``id``)."""
    out = dict(paths)
    for (path, method), prefix in _MAKERS.items():
        links = {}
        for taker, ops in paths.items():
            if taker != prefix and not taker.startswith(prefix + "/"):
                continue
            for verb in ops:
                if verb not in _METHODS:
                    continue
                name = (taker.removeprefix(prefix).strip("/").replace("/", "_") or "doc")
                pointer = taker.replace("~", "~0").replace("/", "~1")
                links[f"{verb}_{name}"] = {"operationRef": f"#/paths/{pointer}/{verb}",
                                           "parameters": {"id": "$response.body#/id"}}
        op = dict(out[path][method])
        made = dict(op["responses"]["201"])
        made["links"] = links
        op["responses"] = {**op["responses"], "201": made}
        out[path] = {**out[path], method: op}
    return out


def _games() -> dict[str, Any]:
    """The schemas read from the games' declarations (the games installed now)."""
    file = SCHEMAS["EveningFile"]
    return {
        "NewEvening": new_evening(), "NewTable": new_table(), "Policy": policies(),
        "Record": {**_SCHEMAS["Record"],
                   "properties": {**_SCHEMAS["Record"]["properties"], "game": game_names()}},
        "Tally": {**_SCHEMAS["Tally"],
                  "properties": {**_SCHEMAS["Tally"]["properties"], "game": game_names()}},
        "EveningFile": {**file, "properties": {
            **file["properties"], "game": game_names(),
            "version": {"type": "integer", "minimum": 1, "maximum": EVENING_VERSION}}},
    }


def document() -> dict[str, Any]:
    """The description, as a JSON object."""
    return {
        "openapi": "3.1.0",
        "info": {"title": "herzla table app", "version": __version__,
                 "description": "The calls of `herzla serve` (the Table app page of the docs): the "
                                "rulings, "
                                "the score pad's evenings and the tables against the "
                                "computer. With a token in force, send `Authorization: "
                                "Bearer TOKEN`."},
        "components": {
            "schemas": {**_SCHEMAS, **SCHEMAS, **_games()},
            "securitySchemes": {"token": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{}, {"token": []}],
        "paths": {
            "/api/replay": {"post": {
                "summary": "Replay, check and score a hand record (or a list of them)",
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": {"oneOf": [_ref("Record"),
                                         {"type": "array", "items": _ref("Record")}]}}}},
                "responses": {"200": _json(_ref("Replay"), "The replay: complete, illegal "
                                                           "(200 with `illegal` set) or in "
                                                           "progress."), **_ERRORS}}},
            "/api/score": {"post": {
                "summary": "Score a hand from its tallies",
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": _ref("Tally")}}},
                "responses": {"200": _json(_ref("Score"), "The score, with every amount "
                                                          "explained."), **_ERRORS}}},
            "/api/openapi.json": {"get": {
                "summary": "This description",
                "responses": {"200": {"description": "The OpenAPI document."}}}},
            **_linked(PATHS),
        },
    }
