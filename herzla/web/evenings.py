"""The score pad's JSON API under ``/api/evenings`` (the Table app page of the docs): an evening
made, read, changed deal by deal (each change recomputes every deal after it), undone, exported and
imported.  A change may name the revision it was made from (the header ``If-Match: N`` or
``?revision=N``); one from a stale revision is 409 and changes nothing."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, Response, jsonify, request

from herzla.evening import Evening, EveningError
from herzla.i18n import _
from herzla.web import evening_docs as docs
from herzla.web.api import answered, json_body, revision_given
from herzla.web.config import state
from herzla.web.errors import ApiError
from herzla.web.store import Document, Kind, StaleRevision

__all__ = ["LISTED", "blueprint", "downloaded"]

blueprint = Blueprint("evenings", __name__, url_prefix="/api/evenings")

#: the most evenings one list answers
LISTED = 200


class NoSuchDeal(EveningError):
    """A deal number the evening does not have (404)."""


def _answer(doc: Document, evening: Evening, status: int = 200) -> Response:
    return answered(docs.answer(doc, evening), doc.revision, status)


def _changed(doc_id: str, how: Callable[[Evening], Evening], key: str | None = None
             ) -> Response:
    config = state().config
    try:
        doc, evening = docs.change(state().store, doc_id, how, revision_given(),
                                   deals=config.max_deals, key=key)
    except (docs.AlreadyEntered, StaleRevision):
        doc, evening = _read(doc_id)
        if key is None or docs.entered_as(doc, key) is None:
            raise
        # the same call again (from the revision it changed, too): nothing added
        out = _answer(doc, evening)
        out.headers["Idempotent-Replayed"] = "true"
        return out
    except NoSuchDeal as exc:
        raise ApiError(404, str(exc)) from None
    except docs.Refused as exc:
        raise ApiError(409, str(exc)) from None
    except EveningError as exc:
        raise ApiError(422, str(exc)) from None
    return _answer(doc, evening)


def _deal(k: int) -> Callable[[Evening], int]:
    def check(e: Evening) -> int:
        if not 1 <= k <= len(e.entries):
            has = (_("deals 1 to {last}").format(last=len(e.entries)) if e.entries
                   else _("no deal yet"))
            raise NoSuchDeal(_("the evening has no deal {k} (it has {has})").format(k=k, has=has))
        return k
    return check


@blueprint.get("")
def list_call() -> Response:
    """The evenings kept, the last changed first: each one's id, game, players and deals."""
    out = []
    for doc in state().store.list(Kind.EVENING, limit=LISTED):
        body = doc.body if isinstance(doc.body, dict) else {}
        deals = body.get("deals")
        out.append({"id": doc.id, "revision": doc.revision, "game": body.get("game"),
                    "players": body.get("players"),
                    "deals": len(deals) if isinstance(deals, list) else 0,
                    "updated": doc.updated})
    return jsonify({"evenings": out})


def _created(make: Callable[[object], tuple[Document, Evening]]) -> Response:
    """201 with the new evening and its address, from ``make`` of the request's JSON body."""
    try:
        doc, evening = make(json_body())
    except docs.Refused as exc:
        raise ApiError(409, str(exc)) from None
    except EveningError as exc:
        raise ApiError(422, str(exc)) from None
    out = _answer(doc, evening, 201)
    out.headers["Location"] = f"/api/evenings/{doc.id}"
    return out


@blueprint.post("")
def create_call() -> Response:
    """A new evening: ``{"game", "players", "options"?, "stock"?, "dealer"?}``."""
    config = state().config
    return _created(lambda body: docs.create(state().store, body, most=config.max_evenings))


@blueprint.post("/import")
def import_call() -> Response:
    """A new evening from an evening's file (what the export answers, or ``herzla pad``
    writes)."""
    config = state().config
    return _created(lambda body: docs.import_file(state().store, body, most=config.max_evenings,
                                                  deals=config.max_deals))


def _read(doc_id: str) -> tuple[Document, Evening]:
    doc = state().store.get(Kind.EVENING, doc_id)
    try:
        return doc, docs.read(doc)
    except EveningError as exc:
        raise ApiError(422, _("this evening cannot be read: {why}").format(why=exc)) from None


@blueprint.get("/<doc:doc_id>")
def get_call(doc_id: str) -> Response:
    """The evening, every total recomputed."""
    return _answer(*_read(doc_id))


@blueprint.delete("/<doc:doc_id>")
def delete_call(doc_id: str) -> Response:
    """Remove the evening (at the revision given, if one is)."""
    state().store.delete(Kind.EVENING, doc_id, revision_given())
    return jsonify({"deleted": doc_id})


@blueprint.post("/<doc:doc_id>/deals")
def add_call(doc_id: str) -> Response:
    """The next deal: a tally (as ``/api/score`` takes it, less the game and players) or
    ``{"record": ...}``.  With the header ``Idempotency-Key: KEY`` (8 to 64 characters, one per
    deal), the same call sent again adds nothing and answers the evening as it stands."""
    entry = json_body()
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 8 <= len(key) <= 64:
        raise ApiError(422, _("Idempotency-Key: give 8 to 64 characters, one key per deal"))
    return _changed(doc_id, lambda e: e.add(entry), key)


@blueprint.put("/<doc:doc_id>/deals/<int:k>")
def edit_call(doc_id: str, k: int) -> Response:
    """Deal ``k`` (from 1) replaced; every deal after it recomputed."""
    entry = json_body()
    return _changed(doc_id, lambda e: e.edit(_deal(k)(e), entry))


@blueprint.delete("/<doc:doc_id>/deals/<int:k>")
def drop_call(doc_id: str, k: int) -> Response:
    """Deal ``k`` removed; every deal after it recomputed."""
    return _changed(doc_id, lambda e: e.drop(_deal(k)(e)))


@blueprint.post("/<doc:doc_id>/undo")
def undo_call(doc_id: str) -> Response:
    """The last change (an add, edit or drop) taken back."""
    return _changed(doc_id, _undone)


def _undone(evening: Evening) -> Evening:
    """``evening`` before its last change (409 when there is none: the call does not fit the
    evening now)."""
    if not evening.history:
        raise ApiError(409, _("there is no change to take back"))
    return evening.undo()


def downloaded(text: str, mimetype: str, name: str) -> Response:
    """``text`` as a file to save, named ``name``."""
    out = Response(text, mimetype=mimetype)
    out.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return out


@blueprint.get("/<doc:doc_id>/file")
def file_call(doc_id: str) -> Response:
    """The evening's file (JSON, what ``herzla pad`` reads and the import takes)."""
    doc, evening = _read(doc_id)
    return downloaded(docs.file_text(evening), "application/json",
                      f"herzla-evening-{doc.id}.json")


@blueprint.get("/<doc:doc_id>/deals.csv")
def csv_call(doc_id: str) -> Response:
    """The deals as CSV (a row per deal, then the totals)."""
    doc, evening = _read(doc_id)
    return downloaded(docs.csv_of(evening), "text/csv", f"herzla-evening-{doc.id}.csv")
