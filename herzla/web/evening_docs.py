"""The evenings the app keeps (nothing here knows the web framework): each is a document of the
store whose body is the evening's file (:meth:`herzla.evening.Evening.to_json`, what ``herzla pad``
writes), changed through :meth:`DocumentStore.modify` (:mod:`herzla.web.documents`) so that a
change from a stale revision is refused and two browsers lose nothing.  The answers are the
evening as ``herzla pad show --json`` writes it, with the document's ``id`` and ``revision``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

from herzla.evening import Evening, EveningError
from herzla.evening.storage import dumps
from herzla.web.bodies import fields_of
from herzla.web.store import Document, DocumentStore, Kind, StoreFull

__all__ = ["Refused", "answer", "change", "create", "csv_of", "file_text", "import_file", "read"]

#: the keys a new evening's body may have
NEW_KEYS = ("game", "players", "options", "stock", "dealer")


class Refused(EveningError):
    """A request the app refuses for its limits (an evening too many, a deal too many)."""


def read(doc: Document) -> Evening:
    """The evening a document holds (EveningError: one that this herzla cannot read)."""
    return Evening.from_json(doc.body)


def answer(doc: Document, evening: Evening | None = None) -> dict[str, Any]:
    """What the API answers for an evening: ``herzla pad show --json`` with the document's
    ``id`` and ``revision`` (the revision to send back with a change)."""
    e = evening if evening is not None else read(doc)
    return {"id": doc.id, **e.to_dict(), "revision": doc.revision}


def _stored(store: DocumentStore, evening: Evening, most: int) -> Document:
    """The new evening stored, unless the store keeps ``most`` already (checked in the
    transaction that inserts it)."""
    try:
        return store.create(Kind.EVENING, evening.to_json(), most=most)
    except StoreFull as exc:
        raise Refused(str(exc)) from None


def create(store: DocumentStore, body: object, *, most: int) -> tuple[Document, Evening]:
    """A new evening from ``{"game", "players", "options"?, "stock"?, "dealer"?}`` (Refused
    when the store holds ``most`` evenings already)."""
    body = fields_of(body, NEW_KEYS, what="a new evening", error=EveningError)
    for key in ("game", "players"):
        if key not in body:
            raise EveningError(f"a new evening needs its {key}")
    stock = body.get("stock")
    evening = Evening.new(body["game"], body["players"], body.get("options"),
                          0 if stock is None else stock, body.get("dealer"))
    return _stored(store, evening, most), evening


def import_file(store: DocumentStore, obj: object, *, most: int, deals: int
                ) -> tuple[Document, Evening]:
    """A new evening from an evening's file (what :func:`file_text` exports, or ``herzla pad``
    writes): Refused over ``most`` evenings, or for more than ``deals`` deals, both before
    a deal is read (a file's deals are scored in time linear in their number)."""
    raw = obj.get("deals") if isinstance(obj, dict) else None
    if isinstance(raw, list) and len(raw) > deals:
        raise Refused(f"the evening has {len(raw)} deals; the app keeps at most {deals} an "
                      f"evening")
    if store.count(Kind.EVENING) >= most:  # before the file is read (again when stored)
        raise Refused(str(StoreFull(Kind.EVENING, most)))
    evening = Evening.from_json(obj)
    return _stored(store, evening, most), evening


def change(store: DocumentStore, doc_id: str, how: Callable[[Evening], Evening],
           revision: int | None, *, deals: int) -> tuple[Document, Evening]:
    """The evening changed by ``how`` (add, edit, drop, undo) in one transaction of the store:
    refused (:class:`~herzla.web.store.StaleRevision`) when ``revision`` is not the
    document's now, Refused when it would hold more than ``deals`` deals, and nothing
    written when ``how`` raises."""
    made: list[Evening] = []

    def apply(body: Any) -> dict[str, Any]:
        before = Evening.from_json(body)
        after = how(before)
        if len(after.entries) > max(deals, len(before.entries)):
            raise Refused(f"an evening here holds at most {deals} deals")
        made.append(after)
        return after.to_json()

    doc = store.modify(Kind.EVENING, doc_id, apply, revision)
    return doc, made[0]


def file_text(evening: Evening) -> str:
    """The evening's file, as ``herzla pad`` writes it (one deal a line)."""
    return dumps(evening)


def _cell(text: str) -> str:
    """A text a person typed, kept from being read as a formula by a spreadsheet."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def csv_of(evening: Evening) -> str:
    """The deals as CSV: a row per deal (its number, partie, dealer, contract, declarer,
    each player's score, the stock after it), then the totals."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    names = [_cell(p) for p in evening.players]
    has_stock = evening.stock is not None
    w.writerow(["deal", "partie", "dealer", "contract", "declarer", *names,
                *(["stock"] if has_stock else [])])
    for d in evening.deals:
        declarer = "" if d.declarer is None else _cell(evening.players[d.declarer])
        scores = list(d.scores) if d.scores is not None else [""] * len(names)
        w.writerow([d.k, d.place.partie or "", _cell(evening.players[d.dealer]),
                    d.contract.id, declarer, *scores, *([d.stock] if has_stock else [])])
    w.writerow(["total", "", "", "", "", *evening.totals,
                *([evening.stock] if has_stock else [])])
    return out.getvalue()
