"""What keeps the pages of several phones up to date, and what every page loads: the revision
of an evening or a table, read without its body (a page's script, ``static/live.js``, asks for
it every second, sending the tag of what it shows as ``If-None-Match``: answered 304 without a
body while nothing changed, else the new tag, and the page is fetched again), and the favicon.

At a table of people the poll is also how a person's page is *seen* (:mod:`herzla.web.away`):
a poll with a seat's key notes that seat as there; the tag names the seats that are away, so
that the others' pages show it (and its countdown) as it happens; and a poll that finds an
away seat due to be played for has the computer play it."""

from __future__ import annotations

import time

from flask import Blueprint, Response, current_app, jsonify, request

from herzla.table import TableError
from herzla.web import away
from herzla.web import table_docs as docs
from herzla.web.config import state
from herzla.web.seat_keys import key_given
from herzla.web.store import Kind

__all__ = ["away_tag", "blueprint"]

blueprint = Blueprint("live", __name__)


def _tagged(doc_id: str, revision: int, tag: str) -> Response:
    quoted = f'"{tag}"'
    if request.headers.get("If-None-Match") == quoted:
        out = Response(status=304)
    else:
        out = jsonify({"id": doc_id, "revision": revision, "tag": tag})
    out.headers["ETag"] = quoted
    return out


def _revision(kind: Kind, doc_id: str) -> Response:
    revision = state().store.revision(kind, doc_id)
    return _tagged(doc_id, revision, str(revision))


#: the seat each key opened, as this process learned it (a key opens one seat of one table)
_SEATS: dict[str, tuple[str, int]] = {}


#: the people of a table as its revision seats them (doc id -> revision, the people's seats,
#: the seconds they may be away), so that a poll while someone is away reads no table
_PEOPLE: dict[str, tuple[int, frozenset[int], int]] = {}


def _seat_of_key(doc_id: str) -> int | None:
    """The seat of the key the poll carries (learned from the table once), or None."""
    key = key_given()
    if key is None:
        return None
    known = _SEATS.get(key)
    if known is not None and known[0] == doc_id:
        return known[1]
    table = docs.read(state().store.get(Kind.TABLE, doc_id))
    person = table.person_of(key)
    if person is None or person.left:
        return None
    if len(_SEATS) > 100_000:
        _SEATS.clear()
    _SEATS[key] = (doc_id, person.seat)
    return person.seat


def away_tag(revision: int, away_seats: list[int]) -> str:
    """The tag of a table page: its revision, and the seats away (``7`` or ``7-away-1.3``)."""
    return f"{revision}-away-{'.'.join(map(str, away_seats))}" if away_seats else str(revision)


@blueprint.get("/api/evenings/<doc_id>/revision")
def evening_revision(doc_id: str) -> Response:
    """The evening's revision now: ``{"id", "revision"}`` (the ETag says it too)."""
    return _revision(Kind.EVENING, doc_id)


@blueprint.get("/api/tables/<doc_id>/revision")
def table_revision(doc_id: str) -> Response:
    """The table's revision now: ``{"id", "revision", "tag"}`` (the ETag is the tag: the
    revision, with the seats whose people are away)."""
    store = state().store
    now = time.time()
    try:
        seat = _seat_of_key(doc_id)
    except TableError:
        seat = None
    if seat is not None:
        away.seen_now(store, doc_id, seat, now)
    seen = store.seen(Kind.TABLE, doc_id)
    stale = sorted(int(w.removeprefix("seat-")) for w, at in seen.items()
                   if now - at > away.GRACE and w.removeprefix("seat-").isdigit())
    if not stale:
        return _revision(Kind.TABLE, doc_id)
    revision = store.revision(Kind.TABLE, doc_id)
    known = _PEOPLE.get(doc_id)
    if known is not None and known[0] == revision:  # the people as this revision seats them
        here = away.presence_of(known[1], known[2], seen, now)
        if not away.due(here, now):  # someone away, nobody to play for: the table unread
            return _tagged(doc_id, revision,
                           away_tag(revision, [s for s, (gone, _) in here.items() if gone]))
    doc = store.get(Kind.TABLE, doc_id)
    try:
        table = docs.read(doc)
        doc, table, here = away.catch_up(store, doc, table, now)
    except TableError:
        return _revision(Kind.TABLE, doc_id)
    if len(_PEOPLE) > 100_000:
        _PEOPLE.clear()
    _PEOPLE[doc_id] = (doc.revision, table.humans, table.away)
    return _tagged(doc_id, doc.revision,
                   away_tag(doc.revision, [s for s, (gone, _) in here.items() if gone]))


#: the web app manifest: the phone's home screen shows the app under this name and icon
MANIFEST = {"name": "herzla", "short_name": "herzla", "start_url": "/", "scope": "/",
            "display": "standalone", "background_color": "#ffffff", "theme_color": "#8b1a1a",
            "description": "The score pad, the disputes desk and the table for Herzla, Herzeln "
                           "and Herzerln",
            "icons": [{"src": f"/static/icon-{n}.png", "sizes": f"{n}x{n}",
                       "type": "image/png", "purpose": "any"} for n in (192, 512)]}


@blueprint.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest (the app installs on a phone's home screen)."""
    out = jsonify(MANIFEST)
    out.mimetype = "application/manifest+json"
    return out


@blueprint.get("/sw.js")
def service_worker() -> Response:
    """The service worker (``static/sw.js``), served at the root so that it may keep the
    pages' last views (its scope is the whole app)."""
    out = current_app.send_static_file("sw.js")
    out.headers["Cache-Control"] = "no-cache"
    out.headers["Service-Worker-Allowed"] = "/"
    return out


@blueprint.get("/favicon.ico")
def favicon() -> Response:
    """The icon a browser asks for by itself (the pages name the same one)."""
    return current_app.send_static_file("favicon.svg")
