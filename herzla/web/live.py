"""What keeps the pages of several phones up to date, and what every page loads: the revision
of an evening or a table, read without its body (a page's script, ``static/live.js``, asks for
it every second and fetches the page again when it has grown), and the favicon."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request

from herzla.web.config import state
from herzla.web.store import Kind

__all__ = ["blueprint"]

blueprint = Blueprint("live", __name__)


def _revision(kind: Kind, doc_id: str) -> Response:
    revision = state().store.revision(kind, doc_id)
    tag = f'"{revision}"'
    if request.headers.get("If-None-Match") == tag:
        out = Response(status=304)
    else:
        out = jsonify({"id": doc_id, "revision": revision})
    out.headers["ETag"] = tag
    return out


@blueprint.get("/api/evenings/<doc_id>/revision")
def evening_revision(doc_id: str) -> Response:
    """The evening's revision now: ``{"id", "revision"}`` (the ETag says it too)."""
    return _revision(Kind.EVENING, doc_id)


@blueprint.get("/api/tables/<doc_id>/revision")
def table_revision(doc_id: str) -> Response:
    """The table's revision now: ``{"id", "revision"}`` (the ETag says it too)."""
    return _revision(Kind.TABLE, doc_id)


@blueprint.get("/favicon.ico")
def favicon() -> Response:
    """The icon a browser asks for by itself (the pages name the same one)."""
    return current_app.send_static_file("favicon.svg")
