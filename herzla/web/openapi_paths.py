"""The OpenAPI description of the score pad's and the tables' calls (:mod:`herzla.web.openapi`
puts it together with the rulings' calls): their schemas and paths."""

from __future__ import annotations

from typing import Any

__all__ = ["GUARDED", "PATHS", "SCHEMAS", "json_answer", "ref"]


def ref(name: str) -> dict[str, str]:
    """A reference to the schema ``name`` of the components."""
    return {"$ref": f"#/components/schemas/{name}"}


def json_answer(schema: dict[str, Any], description: str) -> dict[str, Any]:
    """An answer of JSON of ``schema``."""
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _error(description: str) -> dict[str, Any]:
    return json_answer(ref("Error"), description)


#: the answers of the guard (herzla.web.auth), which every call may give
GUARDED = {
    "401": _error("The token is in force and was not given."),
    "403": _error("A request from another site's page, or to a name that is not this "
                  "server's."),
    "429": _error("Over a limit of this client (new evenings and tables, refused tokens and "
                  "keys, calls where the computer thinks): try again after `Retry-After` "
                  "seconds."),
}
_COMMON = {
    **GUARDED,
    "404": _error("No evening or table has this id (or the evening has no such deal)."),
}
_WRITE = {
    **_COMMON,
    "409": _error("The document was changed since the revision given (reload it), or the "
                  "request does not fit it now (not the person's turn, the hand over), or "
                  "the app keeps as many as it may."),
    "413": _error("The body is over the size limit, or the document would be."),
    "415": _error("The body is not sent as JSON."),
    "422": _error("The body is malformed, or what it says does not add up."),
}

_ID = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"},
       "description": "The evening's or table's id."}
_K = {"name": "k", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1},
      "description": "The deal's number, from 1."}
_REVISION = [
    {"name": "If-Match", "in": "header", "required": False,
     "schema": {"type": "string", "pattern": r'^\s*(W/)?"?[0-9]{1,15}"?\s*$'},
     "description": "The revision the change was made from (`\"3\"`); a stale one is 409."},
    {"name": "revision", "in": "query", "required": False,
     "schema": {"type": "integer", "minimum": 0, "maximum": 10**15 - 1},
     "description": "The same, as a parameter."},
]

_REVISION_NOW = {"type": "object", "required": ["id", "revision"], "properties": {
    "id": {"type": "string"}, "revision": {"type": "integer", "minimum": 1}}}



def _revision(noun: str) -> dict[str, Any]:
    """The call that answers an evening's or a table's revision now."""
    return {"get": {
        "summary": f"The {noun}'s revision now, read without its body (what a page polls to "
                   "learn of a change from another phone)", "parameters": [_ID],
        "responses": {"200": json_answer(_REVISION_NOW, "`{\"id\", \"revision\"}`, the "
                                                        "revision as the ETag too."),
                      "304": {"description": "If-None-Match named the revision now."},
                      **_COMMON}}}


_SEAT = {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string"}],
         "description": "A seat: its number from 0, or the player's name."}
_INTS = {"type": "array", "items": {"type": "integer"}}

SCHEMAS: dict[str, Any] = {
    "Entry": {
        "description": "One deal: a tally (what `POST /api/score` takes, less the game and "
                       "players; seats by number or name) or `{\"record\": ...}`.",
        "oneOf": [
            {"type": "object", "additionalProperties": False,
             "properties": {
                 "contract": {"type": "string"}, "declarer": _SEAT,
                 "made": {"type": "boolean"}, "hearts": _INTS, "tricks": _INTS,
                 "captured": {"type": "array", "items": {
                     "oneOf": [{"type": "string"},
                               {"type": "array", "items": {"type": "string"}}]}},
                 "last_trick": _SEAT, "order": {"type": "array", "items": _SEAT},
                 "renege": _SEAT, "left": _INTS, "aside": {"type": "string"},
                 "stock": {"type": "integer"}, "options": {"type": "object"}}},
            {"type": "object", "required": ["record"], "additionalProperties": False,
             "properties": {"record": ref("Record")}}]},
    "Deal": {
        "type": "object",
        "properties": {
            "k": {"type": "integer"}, "partie": {"type": ["integer", "null"]},
            "dealer": {"type": "integer"}, "contract": {"type": "string"},
            "declarer": {"type": ["integer", "null"]},
            "scores": {"type": ["array", "null"], "items": {"type": "integer"}},
            "stock": {"type": ["integer", "null"]}, "totals": _INTS,
            "events": {"type": "array", "items": {"type": "string"}},
            "explanation": {"type": "array", "items": {"type": "string"}},
            "complete": {"type": "boolean"}, "illegal": {"type": ["object", "null"]},
            "entry": {"type": "object", "description": "The deal as entered."}}},
    "Evening": {
        "type": "object",
        "description": "What `herzla pad show --json` writes, with the document's id and "
                       "revision (send the revision back with a change).",
        "properties": {
            "id": {"type": "string"}, "revision": {"type": "integer"},
            "game": {"type": "string"}, "players": {"type": "array",
                                                    "items": {"type": "string"}},
            "options": {"type": "object"}, "start": {"type": "object"},
            "deals": {"type": "array", "items": ref("Deal")}, "totals": _INTS,
            "stock": {"type": ["integer", "null"]},
            "next": {"type": ["object", "null"],
                     "description": "The next deal's number, dealer, contract and partie."},
            "finished": {"type": "boolean"},
            "settlement": {"type": "array", "items": {
                "type": "object", "properties": {"from": {"type": "string"},
                                                 "to": {"type": "string"},
                                                 "cents": {"type": "integer"}}}},
            "winners": {"type": ["array", "null"], "items": {"type": "string"}},
            "statistics": {"type": "array", "items": {"type": "object"}}}},
    "EveningFile": {
        "type": "object", "required": ["format", "version", "game", "players"],
        "description": ("An evening's file, as `herzla pad` writes it (the Evening page of "
                        "the docs)."),
        "properties": {"format": {"const": "herzla-evening"}, "version": {"type": "integer"},
                       "game": {"type": "string"},
                       "players": {"type": "array", "items": {"type": "string"}},
                       "deals": {"type": "array", "items": ref("Entry")},
                       "undo": {"type": "array", "items": {"type": "object"}}}},
    "Table": {
        "type": "object",
        "required": ["id", "game", "contract", "players", "seat", "to_move", "hand", "legal",
                     "over", "record"],
        "properties": {
            "id": {"type": "string"}, "revision": {"type": "integer"},
            "game": {"type": "string"},
            "contract": {"type": ["string", "null"], "description": "null during the bidding"},
            "title": {"type": ["string", "null"]}, "declarer": {"type": ["integer", "null"]},
            "players": {"type": "array", "items": {"type": "string"}},
            "seat": {"type": ["integer", "null"],
                     "description": "The seat whose hand the answer shows (the seat of the "
                                    "key given; null for a table of people's creator)."},
            "opponents": {"type": "string"},
            "deal": {"type": "integer"}, "dealer": {"type": "integer"},
            "stock": {"type": ["integer", "null"]},
            "phase": {"enum": ["bidding", "play", "over"]},
            "to_move": {"type": ["integer", "null"]},
            "hand": {"type": "array", "items": {"type": "string"},
                     "description": "The person's cards."},
            "legal": {"type": "array", "items": {"type": "string"},
                      "description": "The person's legal moves now: card codes, a lay with "
                                     "its end where the card fits both, `pass`."},
            "bidding": {"type": ["object", "null"],
                        "description": "The announcements so far (seat, bid) and, on the "
                                       "person's turn, what it may announce."},
            "held": _INTS, "over": {"type": "boolean"},
            "record": {"oneOf": [ref("Record"), {"type": "null"}],
                       "description": "The hand so far with every hand; at a table of "
                                      "people null until the hand is over."},
            "moves": {"type": "array", "items": {"type": "string"},
                      "description": "The moves so far, as a record writes them."},
            "people": {"type": "array", "items": {"type": "object"},
                       "description": "A table of people's seats: `{seat, left, asked, "
                                      "away, plays_in}` (left: the computer plays it now; "
                                      "asked: for the next deal; away: the person's page "
                                      "has not been seen for a while; plays_in: the seconds "
                                      "until the computer plays for them, 0 once it does, "
                                      "null when it will not)."},
            "away_after": {"type": "integer",
                           "description": "A table of people: the seconds a person may be "
                                          "away before the computer plays for them."},
            "stood_in": {"type": "array", "items": {"type": "integer"},
                         "description": "The indexes in `moves` of the cards the computer "
                                        "played for a person who was away."},
            "seats": {"type": "array", "items": {"type": "object"},
                      "description": "To a table of people's creator alone: each person's "
                                     "`{seat, name, key, url, left}`, the private link to "
                                     "share."},
            "tricks": {"type": ["array", "null"]}, "order": {"type": ["array", "null"]},
            "scores": {"type": ["array", "null"], "items": {"type": "integer"}},
            "stock_after": {"type": ["integer", "null"]},
            "events": {"type": "array", "items": {"type": "string"}},
            "explanation": {"type": "array", "items": {"type": "string"}},
            "review": {"type": ["object", "null"],
                       "description": "Once over: the review of the person's cards, as "
                                      "`herzla review --json` writes it."},
            "evening": {"type": ["object", "null"],
                        "description": "The deals played at the table: their number, the "
                                       "totals, the stock, the next deal, the settlement "
                                       "or winners."}}},
    "Move": {"type": "object", "minProperties": 1, "maxProperties": 1,
             "properties": {"card": {"type": "string", "examples": ["HA", "D7-", "pass"]},
                            "bid": {"type": "string", "examples": ["pass", "beddl"]}}},
    "Hint": {
        "type": "object",
        "properties": {
            "policy": {"type": "string"},
            "card": {"type": ["string", "null"], "description": "The move it advises."},
            "bid": {"type": ["string", "null"], "description": "In the bidding: the "
                                                              "announcement it advises."},
            "values": {"type": "object", "additionalProperties": {"type": "number"},
                       "description": "What it found each legal move worth, by move (pimc: "
                                      "the mean over its sampled deals of the seat's score "
                                      "with perfect play after the card); empty when it "
                                      "weighs no values."},
            "measure": {"type": ["string", "null"], "description": "What the values are."},
            "reason": {"type": ["string", "null"], "description": "Why, in words."}}},
}

_EVENING = json_answer(ref("Evening"), "The evening, every deal recomputed.")
_TABLE = json_answer(ref("Table"), "The table.")
_CHANGE = {"parameters": [_ID, *_REVISION]}

PATHS: dict[str, Any] = {
    "/api/evenings": {
        "get": {"summary": "The evenings kept, the last changed first",
                "responses": {"200": {"description": "`{\"evenings\": [{\"id\", \"game\", "
                                                     "\"players\", \"deals\", ...}]}`"},
                              **_COMMON}},
        "post": {"summary": "Start an evening",
                 "requestBody": {"required": True, "content": {"application/json": {
                     "schema": ref("NewEvening")}}},
                 "responses": {"201": _EVENING, **_WRITE}}},
    "/api/evenings/import": {"post": {
        "summary": "A new evening from an evening's file",
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": ref("EveningFile")}}},
        "responses": {"201": _EVENING, **_WRITE}}},
    "/api/evenings/{id}": {
        "get": {"summary": "The evening", "parameters": [_ID],
                "responses": {"200": _EVENING, **_COMMON}},
        "delete": {"summary": "Delete the evening", **_CHANGE,
                   "responses": {"200": {"description": "`{\"deleted\": id}`"}, **_WRITE}}},
    "/api/evenings/{id}/deals": {"post": {
        "summary": "Enter the next deal (with `Idempotency-Key: KEY`, the same call sent again "
                   "adds nothing and answers the evening as it stands)", **_CHANGE,
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": ref("Entry")}}},
        "responses": {"200": _EVENING, **_WRITE}}},
    "/api/evenings/{id}/deals/{k}": {
        "put": {"summary": "Correct deal k; every deal after it is recomputed",
                "parameters": [_ID, _K, *_REVISION],
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": ref("Entry")}}},
                "responses": {"200": _EVENING, **_WRITE}},
        "delete": {"summary": "Delete deal k; every deal after it is recomputed",
                   "parameters": [_ID, _K, *_REVISION],
                   "responses": {"200": _EVENING, **_WRITE}}},
    "/api/evenings/{id}/undo": {"post": {
        "summary": "Take back the last change (an add, correction or deletion)", **_CHANGE,
        "responses": {"200": _EVENING, **_WRITE}}},
    "/api/evenings/{id}/revision": _revision("evening"),
    "/api/evenings/{id}/file": {"get": {
        "summary": "The evening's file (what `herzla pad` reads and the import takes)",
        "parameters": [_ID],
        "responses": {"200": json_answer(ref("EveningFile"), "The file, as an attachment."),
                      **_COMMON}}},
    "/api/evenings/{id}/deals.csv": {"get": {
        "summary": "The deals as CSV: a row per deal, then the totals", "parameters": [_ID],
        "responses": {"200": {"description": "text/csv, as an attachment"}, **_COMMON}}},
    "/api/tables": {
        "get": {"summary": "The tables kept, the last played first",
                "responses": {"200": {"description": "`{\"tables\": [{\"id\", \"game\", "
                                                     "\"players\", ...}]}`"}, **_COMMON}},
        "post": {"summary": "Sit down at a table against the computer",
                 "requestBody": {"required": True, "content": {"application/json": {
                     "schema": ref("NewTable")}}},
                 "responses": {"201": json_answer(ref("Table"), "The table, the computer's seats "
                                                           "moved up to the person's turn."),
                               **_WRITE}}},
    "/api/tables/{id}": {
        "get": {"summary": "The table", "parameters": [_ID],
                "responses": {"200": _TABLE, **_COMMON}},
        "delete": {"summary": "Delete the table", **_CHANGE,
                   "responses": {"200": {"description": "`{\"deleted\": id}`"}, **_WRITE}}},
    "/api/tables/{id}/play": {"post": {
        "summary": "The person's move (or announcement); the computer's seats move up to the "
                   "person's next turn or the end", **_CHANGE,
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": ref("Move")}}},
        "responses": {"200": _TABLE, **_WRITE}}},
    "/api/tables/{id}/undo": {"post": {
        "summary": "Back to before the person's last move of this deal", **_CHANGE,
        "responses": {"200": _TABLE, **_WRITE}}},
    "/api/tables/{id}/next": {"post": {
        "summary": "The hand over, the next deal (the evening's dealer, contract and stock)",
        **_CHANGE, "responses": {"200": _TABLE, **_WRITE}}},
    "/api/tables/{id}/leave": {"post": {
        "summary": "A person has left: the computer plays their seat from now on (the "
                   "table's creator alone)", **_CHANGE,
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "required": ["seat"], "additionalProperties": False,
            "properties": {"seat": {"type": "integer", "minimum": 0}}}}}},
        "responses": {"200": _TABLE, **_WRITE}}},
    "/api/tables/{id}/seat": {"post": {
        "summary": "A person sits down again in a seat the computer has played since its "
                   "person left: the seat gets a new link, its old key opens nothing (the "
                   "table's creator alone)", **_CHANGE,
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "required": ["seat"], "additionalProperties": False,
            "properties": {"seat": {"type": "integer", "minimum": 0}}}}}},
        "responses": {"200": _TABLE, **_WRITE}}},
    "/api/tables/{id}/name": {"post": {
        "summary": "A person's name, given at their seat's link (with the seat's key)",
        **_CHANGE,
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "required": ["name"], "additionalProperties": False,
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 40}}}}}},
        "responses": {"200": _TABLE, **_WRITE}}},
    "/api/tables/{id}/review": {"get": {
        "summary": "Once the hand is over, the review of the person's cards",
        "parameters": [_ID],
        "responses": {"200": {"description": "What `herzla review --json` answers, or "
                                             "`{\"error\": why}`."},
                      "409": _error("The hand is not over yet."), **_COMMON}}},
    "/api/tables/{id}/evening": {"get": {
        "summary": "The table's evening: the deals finished, the totals, the stock carried",
        "parameters": [_ID],
        "responses": {"200": json_answer(ref("Evening"), "The evening."),
                      "409": _error("The table keeps no evening."), **_COMMON}}},
    "/api/tables/{id}/revision": _revision("table"),
    "/api/tables/{id}/hint": {"get": {
        "summary": "The computer's advice for the person's move, with what it weighed",
        "parameters": [_ID, {"name": "policy", "in": "query", "required": False,
                             "schema": ref("Policy"),
                             "description": "Ask this policy instead of the table's."}],
        "responses": {"200": json_answer(ref("Hint"), "The advice."),
                      "409": _error("It is not the person's turn."),
                      "422": _error("No policy of that name."), **_COMMON}}},
}
