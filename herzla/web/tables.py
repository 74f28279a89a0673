"""The JSON API of the tables against the computer under ``/api/tables`` (the Table app page of the
docs): a table made and read, the person's move (or announcement) with the computer's seats moving
up to the person's next turn, undo, a hint and the next deal.  A move that does not fit the table
now (not the person's turn, the hand over) is 409; a move that is no move, 422."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from contextlib import suppress
from urllib.parse import urlencode, urlsplit

from flask import Blueprint, Response, g, jsonify, request, url_for

from herzla.i18n import _
from herzla.quote import quote
from herzla.table import (
    Table,
    TableError,
    TableStateError,
    bid,
    hint,
    leave,
    next_deal,
    play,
    review_for,
    undo,
)
from herzla.table.people import name_seat, seat_again
from herzla.web import away
from herzla.web import table_docs as docs
from herzla.web.api import answered, json_body, revision_given
from herzla.web.config import state
from herzla.web.errors import ApiError
from herzla.web.seat_keys import KEY_PARAM, Viewer, act_as, creator_only, key_given, viewer_of
from herzla.web.store import Document, Kind

__all__ = ["LISTED", "blueprint", "move_of"]

blueprint = Blueprint("tables", __name__, url_prefix="/api/tables")

#: the most tables one list answers
LISTED = 200


def link(doc_id: str, seat: int, key: str) -> str:
    """The private link of a person's seat: the table's page with the seat's key, at the
    address phones open (the one ``herzla serve`` printed, less its token), else at the
    address this request came to."""
    path = url_for("table_pages.table_page", doc_id=doc_id) + "?" + urlencode({KEY_PARAM: key})
    shared = state().config.url
    if shared:
        head = urlsplit(shared)
        return f"{head.scheme}://{head.netloc}{path}"
    return request.host_url.rstrip("/") + path


def _answer(doc: Document, table: Table, status: int = 200,
            viewer: Viewer | None = None) -> Response:
    who = viewer if viewer is not None else viewer_of(table)
    now = time.time()
    doc, table, here = away.visit(state().store, doc, table, who.seat, now)
    body = docs.answer(doc, table, who.seat, lambda s, k: link(doc.id, s, k), here, now)
    return answered(body, doc.revision, status)


def refused(exc: TableError) -> ApiError:
    """The API's answer to what a table cannot do: 409 for what does not fit now (and a table
    too many), 422 for a request that is wrong in itself."""
    status = 409 if isinstance(exc, TableStateError | docs.TableRefused) else 422
    return ApiError(status, str(exc))


def _acted(doc_id: str, how: Callable[[Table, Viewer], Table]) -> Response:
    try:
        doc, table, viewer = act_as(doc_id, how, revision_given())
    except TableError as exc:
        raise refused(exc) from None
    return _answer(doc, table, viewer=viewer)


def move_of(body: object) -> Callable[[Table, int | None], Table]:
    """The action a body of ``POST /play`` asks for: ``{"card": "HA"}`` (a lay ``"D7"``, with
    its end ``"D7-"`` where both fit; ``"pass"``) or, in the bidding, ``{"bid": "pass"}``."""
    if not isinstance(body, Mapping) or len(body) != 1 or not set(body) <= {"card", "bid"}:
        raise ApiError(422, _('send {"card": "HA"} (or, in the bidding, {"bid": "pass"}), '
                              'not %(body)s') % {"body": quote(body)})
    if "bid" in body:
        word = body["bid"]
        return lambda t, seat: bid(t, word, seat)
    card = body["card"]
    return lambda t, seat: play(t, card, seat)


@blueprint.get("")
def list_call() -> Response:
    """The tables kept, the last played first."""
    out = []
    if g.get("by_key") or key_given() is not None:
        raise ApiError(403, _("a seat's key opens its own table alone"))
    for doc in state().store.list(Kind.TABLE, limit=LISTED):
        body = doc.body if isinstance(doc.body, dict) else {}
        out.append({"id": doc.id, "revision": doc.revision, "game": body.get("game"),
                    "players": body.get("players"), "opponents": body.get("opponents"),
                    "updated": doc.updated})
    return jsonify({"tables": out})


@blueprint.post("")
def create_call() -> Response:
    """A new table: ``{"game", "contract"?, "players"?, "seat"?, "declarer"?, "opponents"?,
    "seed"?, "options"?, "stock"?, "dealer"?, "people"?}``; the computer's seats move up to
    the person's first turn.  A table of people (``"people": [seats]``) answers its creator
    each person's private link (``"seats"``)."""
    try:
        doc, table = docs.create(state().store, json_body(), most=state().config.max_tables)
    except TableError as exc:
        raise refused(exc) from None
    out = _answer(doc, table, 201, Viewer(None if table.of_people else table.seat))
    out.headers["Location"] = f"/api/tables/{doc.id}"
    return out


@blueprint.get("/<doc_id>")
def get_call(doc_id: str) -> Response:
    """The table."""
    doc = state().store.get(Kind.TABLE, doc_id)
    try:
        table = docs.read(doc)
    except TableError as exc:
        raise ApiError(422, _("this table cannot be read: %(why)s") % {"why": exc}) from None
    return _answer(doc, table)


@blueprint.delete("/<doc_id>")
def delete_call(doc_id: str) -> Response:
    """Remove the table (at a table of people, its creator alone)."""
    doc = state().store.get(Kind.TABLE, doc_id)
    with suppress(TableError):  # a table this herzla cannot read may be removed
        creator_only(viewer_of(docs.read(doc)),
                     _("only the table's creator may remove the table"))
    state().store.delete(Kind.TABLE, doc_id, revision_given())
    return jsonify({"deleted": doc_id})


@blueprint.post("/<doc_id>/play")
def play_call(doc_id: str) -> Response:
    """The person's move (or announcement), then the computer's up to the person's next turn
    or the end of the hand."""
    move = move_of(json_body())
    return _acted(doc_id, lambda t, v: move(t, v.seat))


@blueprint.post("/<doc_id>/undo")
def undo_call(doc_id: str) -> Response:
    """The table as before the person's last move (or announcement) of this deal."""
    return _acted(doc_id, lambda t, v: undo(t, v.seat))


@blueprint.post("/<doc_id>/next")
def next_call(doc_id: str) -> Response:
    """The next deal, once the hand is over (the evening's stock, dealer and contract); at a
    table of people, the person asks for it, and it is dealt once every person has."""
    return _acted(doc_id, lambda t, v: next_deal(t, v.seat))


def _creators(doc_id: str, what: str, action: Callable[[Table, int], Table]) -> Response:
    """The creator's ``action`` on the seat the body names (``{"seat": K}``)."""
    body = json_body()
    if not isinstance(body, Mapping) or set(body) != {"seat"}:
        raise ApiError(422, _('send {"seat": 1}, not %(body)s') % {"body": quote(body)})

    def acting(table: Table, viewer: Viewer) -> Table:
        creator_only(viewer, what)
        return action(table, body["seat"])

    return _acted(doc_id, acting)


@blueprint.post("/<doc_id>/leave")
def leave_call(doc_id: str) -> Response:
    """``{"seat": K}``: the person in seat K has left, and the computer plays the seat from
    now on (the table's creator alone decides this)."""
    return _creators(doc_id, _("only the table's creator may give a person's seat to the "
                               "computer"), leave)


@blueprint.post("/<doc_id>/seat")
def seat_call(doc_id: str) -> Response:
    """``{"seat": K}``: a person sits down again in seat K, which the computer has played since
    its person left; the seat gets a new link (its old key opens nothing).  The table's creator
    alone decides this."""
    return _creators(doc_id, _("only the table's creator may give a seat to a person"),
                     seat_again)


@blueprint.post("/<doc_id>/name")
def name_call(doc_id: str) -> Response:
    """``{"name": "Anna"}`` with a seat's key: the person in that seat is called so from now
    on (every page, drawing, review, hint and the table's evening)."""
    body = json_body()
    if not isinstance(body, Mapping) or set(body) != {"name"}:
        raise ApiError(422, _('send {"name": "Anna"}, not %(body)s') % {"body": quote(body)})
    return _acted(doc_id, lambda t, v: named_as(t, v, body["name"]))


def named_as(table: Table, viewer: Viewer, name: object) -> Table:
    """``table`` with the seat of ``viewer`` called ``name`` (403 for the creator, who has no
    seat of their own: each person names themselves at their link)."""
    if viewer.seat is None or viewer.key is None:
        raise ApiError(403, _("each person gives their name at their own seat's link"))
    return name_seat(table, viewer.seat, name)


@blueprint.get("/<doc_id>/evening")
def evening_call(doc_id: str) -> Response:
    """The table's evening, the deals finished (``herzla pad show --json``'s answer: each
    deal's record, the totals, the stock carried, the settlement); 409 for a table that plays
    one deal of a partie again and again, without an evening."""
    doc = state().store.get(Kind.TABLE, doc_id)
    try:
        table = docs.read(doc)
        viewer_of(table)
    except TableError as exc:
        raise refused(exc) from None
    if table.evening is None:
        raise ApiError(409, _("this table plays one deal again and again: it keeps no "
                              "evening"))
    return jsonify({"id": doc_id, **table.evening.to_dict()})


@blueprint.get("/<doc_id>/review")
def review_call(doc_id: str) -> Response:
    """The review of the person's cards once the hand is over (``herzla review --json``'s
    answer, or ``{"error": why}``); at a table of one person it is also in the table."""
    doc = state().store.get(Kind.TABLE, doc_id)
    try:
        table = docs.fresh(doc)  # the review's search is this request's own
        who = viewer_of(table)
        if who.seat is None:
            raise ApiError(409, _("the creator has no cards: open a seat's link for its "
                                  "review"))
        got = table.deal.review if not table.of_people and table.deal.review is not None \
            else review_for(table, who.seat)
    except TableError as exc:
        raise refused(exc) from None
    return jsonify(dict(got))


@blueprint.get("/<doc_id>/hint")
def hint_call(doc_id: str) -> Response:
    """The computer's advice for the person's move: ``{"policy", "card", "bid", "values",
    "measure", "reason"}`` (``?policy=NAME`` asks another policy than the table's)."""
    doc = state().store.get(Kind.TABLE, doc_id)
    asked = request.args.get("policy")
    try:
        table = docs.fresh(doc)  # the computer's thought is this request's own
        got = hint(table, None if asked is None else docs.check_policy(asked),
                   viewer_of(table).seat)
    except TableError as exc:
        raise refused(exc) from None
    return jsonify(got.to_dict())
