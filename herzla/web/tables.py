"""The JSON API of the tables against the computer under ``/api/tables`` (docs/web.md): a
table made and read, the person's move (or announcement) with the computer's seats moving up to
the person's next turn, undo, a hint and the next deal.  A move that does not fit the table now
(not the person's turn, the hand over) is 409; a move that is no move, 422."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from flask import Blueprint, Response, jsonify, request

from herzla.quote import quote
from herzla.table import Table, TableError, TableStateError, bid, hint, next_deal, play, undo
from herzla.web import table_docs as docs
from herzla.web.api import answered, json_body, revision_given
from herzla.web.config import state
from herzla.web.errors import ApiError
from herzla.web.store import Document, Kind

__all__ = ["LISTED", "blueprint", "move_of"]

blueprint = Blueprint("tables", __name__, url_prefix="/api/tables")

#: the most tables one list answers
LISTED = 200


def _answer(doc: Document, table: Table, status: int = 200) -> Response:
    return answered(docs.answer(doc, table), doc.revision, status)


def refused(exc: TableError) -> ApiError:
    """The API's answer to what a table cannot do: 409 for what does not fit now (and a table
    too many), 422 for a request that is wrong in itself."""
    status = 409 if isinstance(exc, TableStateError | docs.TableRefused) else 422
    return ApiError(status, str(exc))


def _acted(doc_id: str, how: Callable[[Table], Table]) -> Response:
    try:
        doc, table = docs.act(state().store, doc_id, how, revision_given())
    except TableError as exc:
        raise refused(exc) from None
    return _answer(doc, table)


def move_of(body: object) -> Callable[[Table], Table]:
    """The action a body of ``POST /play`` asks for: ``{"card": "HA"}`` (a lay ``"D7"``, with
    its end ``"D7-"`` where both fit; ``"pass"``) or, in the bidding, ``{"bid": "pass"}``."""
    if not isinstance(body, Mapping) or len(body) != 1 or not set(body) <= {"card", "bid"}:
        raise ApiError(422, f"send {{\"card\": \"HA\"}} (or, in the bidding, {{\"bid\": "
                            f"\"pass\"}}), not {quote(body)}")
    if "bid" in body:
        word = body["bid"]
        return lambda t: bid(t, word)
    card = body["card"]
    return lambda t: play(t, card)


@blueprint.get("")
def list_call() -> Response:
    """The tables kept, the last played first."""
    out = []
    for doc in state().store.list(Kind.TABLE, limit=LISTED):
        body = doc.body if isinstance(doc.body, dict) else {}
        out.append({"id": doc.id, "revision": doc.revision, "game": body.get("game"),
                    "players": body.get("players"), "opponents": body.get("opponents"),
                    "updated": doc.updated})
    return jsonify({"tables": out})


@blueprint.post("")
def create_call() -> Response:
    """A new table: ``{"game", "contract"?, "players"?, "seat"?, "declarer"?, "opponents"?,
    "seed"?, "options"?, "stock"?, "dealer"?}``; the computer's seats move up to the person's
    first turn."""
    try:
        doc, table = docs.create(state().store, json_body(), most=state().config.max_tables)
    except TableError as exc:
        raise refused(exc) from None
    out = _answer(doc, table, 201)
    out.headers["Location"] = f"/api/tables/{doc.id}"
    return out


@blueprint.get("/<doc_id>")
def get_call(doc_id: str) -> Response:
    """The table."""
    doc = state().store.get(Kind.TABLE, doc_id)
    try:
        return _answer(doc, docs.read(doc))
    except TableError as exc:
        raise ApiError(422, f"this table cannot be read: {exc}") from None


@blueprint.delete("/<doc_id>")
def delete_call(doc_id: str) -> Response:
    """Remove the table."""
    state().store.delete(Kind.TABLE, doc_id, revision_given())
    return jsonify({"deleted": doc_id})


@blueprint.post("/<doc_id>/play")
def play_call(doc_id: str) -> Response:
    """The person's move (or announcement), then the computer's up to the person's next turn
    or the end of the hand."""
    return _acted(doc_id, move_of(json_body()))


@blueprint.post("/<doc_id>/undo")
def undo_call(doc_id: str) -> Response:
    """The table as before the person's last move (or announcement) of this deal."""
    return _acted(doc_id, undo)


@blueprint.post("/<doc_id>/next")
def next_call(doc_id: str) -> Response:
    """The next deal, once the hand is over (the evening's stock, dealer and contract)."""
    return _acted(doc_id, next_deal)


@blueprint.get("/<doc_id>/hint")
def hint_call(doc_id: str) -> Response:
    """The computer's advice for the person's move: ``{"policy", "card", "bid", "values",
    "measure", "reason"}`` (``?policy=NAME`` asks another policy than the table's)."""
    doc = state().store.get(Kind.TABLE, doc_id)
    asked = request.args.get("policy")
    try:
        table = docs.read(doc)
        got = hint(table, None if asked is None else docs.check_policy(asked))
    except TableError as exc:
        raise refused(exc) from None
    return jsonify(got.to_dict())
