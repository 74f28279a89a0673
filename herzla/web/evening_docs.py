"""The evenings the app keeps (nothing here knows the web framework): each is a document of the
store whose body is the evening's file (:meth:`herzla.evening.Evening.to_json`, what ``herzla pad``
writes), changed through :meth:`DocumentStore.modify` (:mod:`herzla.web.documents`) so that
a change from a stale revision is refused and two browsers lose nothing.  The answers are the
evening as ``herzla pad show --json`` writes it, with the document's ``id`` and ``revision``.

Beside the file, the body keeps under :data:`APP` what only the app knows of the evening: the
one-time keys of the deal forms already entered (``keys``: key to the deal it made, the last
:data:`KEPT_KEYS`), so that a form sent twice adds its deal once; and what the pad says of the
evening (:class:`About`): its ``name``, whether the table plays for ``money`` (amounts in euros
as well as cents), whether it is ``closed`` (no change until reopened) or ``archived`` (listed
apart on the start page), and whether it was ``imported`` from a file.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import attrs

from herzla.evening import Evening, EveningError
from herzla.evening.export import deals_csv
from herzla.evening.storage import dumps
from herzla.i18n import N_, _, format_date
from herzla.web.request_fields import fields_of
from herzla.web.store import Document, DocumentStore, Kind, StoreFull

__all__ = ["About", "AlreadyEntered", "Closed", "Refused", "about", "answer", "app_part", "change",
           "create", "csv_of", "entered_as", "file_text", "import_file", "read", "set_about"]

#: the keys a new evening's body may have
NEW_KEYS = ("game", "players", "options", "stock", "dealer")

#: the key of a document's body under which the app keeps its own part (not the file's)
APP = "app"
#: how many deal forms' keys an evening remembers
KEPT_KEYS = 200


class Refused(EveningError):
    """A request the app refuses for its limits (an evening too many, a deal too many)."""


class Closed(Refused):
    """A change of a closed evening."""


#: the longest name of an evening, in characters
MAX_NAME = 60


@attrs.frozen(slots=True)
class About:
    """What the pad says of an evening beside its deals: its ``name`` (None: not named), the
    ``date`` it was started (``2 Dec 2026``), and its flags."""

    name: str | None
    date: str
    money: bool = False
    closed: bool = False
    archived: bool = False
    imported: bool = False


def about(doc: Document) -> About:
    """What the app keeps of the evening ``doc`` beside its file."""
    part = app_part(doc)
    name = part.get("name")
    day = datetime.datetime.fromtimestamp(doc.created)
    return About(name if isinstance(name, str) and name else None,
                 format_date(day.date()),
                 *(part.get(flag) is True for flag in ("money", "closed", "archived",
                                                       "imported")))


def name_of(text: object) -> str | None:
    """An evening's name as typed (None: none given); EveningError when it is too long."""
    name = " ".join(str(text or "").split())
    if len(name) > MAX_NAME:
        raise EveningError(_("an evening's name has at most {most} characters, not {count}")
                           .format(most=MAX_NAME, count=len(name)))
    return name or None


def set_about(store: DocumentStore, doc_id: str, revision: int | None,
              **changes: object) -> Document:
    """The evening's name or flags changed (``name=``, ``money=``, ``closed=``,
    ``archived=``), its deals untouched."""
    unknown = set(changes) - {"name", "money", "closed", "archived"}
    assert not unknown, unknown

    def apply(body: Any) -> dict[str, Any]:
        part = dict(body.get(APP) or {})
        part.update(changes)
        return {**body, APP: {k: v for k, v in part.items() if v not in (None, False)}}

    return store.modify(Kind.EVENING, doc_id, apply, revision)


class AlreadyEntered(EveningError):
    """A deal form whose one-time key has made a deal already: ``k`` is that deal."""

    def __init__(self, k: int) -> None:
        super().__init__(_("this deal was entered already, as deal {k}: it is not entered twice")
                         .format(k=k))
        self.k = k


def _file_part(body: Any) -> Any:
    return {k: v for k, v in body.items() if k != APP} if isinstance(body, dict) else body


def app_part(doc: Document) -> dict[str, Any]:
    """What the app keeps of the evening beside its file (empty for one it keeps nothing of)."""
    part = doc.body.get(APP) if isinstance(doc.body, dict) else None
    return dict(part) if isinstance(part, dict) else {}


def entered_as(doc: Document, key: str | None) -> int | None:
    """The deal that the form with one-time ``key`` made, or None (not sent yet)."""
    keys = app_part(doc).get("keys")
    k = keys.get(key) if key and isinstance(keys, dict) else None
    return k if isinstance(k, int) else None


def read(doc: Document) -> Evening:
    """The evening a document holds (EveningError: one that this herzla cannot read)."""
    return Evening.from_json(_file_part(doc.body))


def answer(doc: Document, evening: Evening | None = None) -> dict[str, Any]:
    """What the API answers for an evening: ``herzla pad show --json`` with the document's
    ``id`` and ``revision`` (the revision to send back with a change)."""
    e = evening if evening is not None else read(doc)
    return {"id": doc.id, **e.to_dict(), "revision": doc.revision}


def _stored(store: DocumentStore, body: dict[str, Any], most: int) -> Document:
    """The new evening's document (``body``) stored, unless the store keeps ``most`` already
    (checked in the transaction that inserts it)."""
    try:
        return store.create(Kind.EVENING, body, most=most)
    except StoreFull as exc:
        raise Refused(str(exc)) from None


def create(store: DocumentStore, body: object, *, most: int, name: str | None = None,
           money: bool = False) -> tuple[Document, Evening]:
    """A new evening from ``{"game", "players", "options"?, "stock"?, "dealer"?}`` (Refused
    when the store holds ``most`` evenings already), named ``name``, for ``money`` or not."""
    body = fields_of(body, NEW_KEYS, what=N_("a new evening"), error=EveningError)
    for key in ("game", "players"):
        if key not in body:
            raise EveningError(_("a new evening needs its {key}").format(key=key))
    stock = body.get("stock")
    evening = Evening.new(body["game"], body["players"], body.get("options"),
                          0 if stock is None else stock, body.get("dealer"))
    part = {k: v for k, v in (("name", name), ("money", money)) if v}
    return _stored(store, {**evening.to_json(), **({APP: part} if part else {})}, most), evening


def import_file(store: DocumentStore, obj: object, *, most: int, deals: int
                ) -> tuple[Document, Evening]:
    """A new evening from an evening's file (what :func:`file_text` exports, or ``herzla pad``
    writes): Refused over ``most`` evenings, or for more than ``deals`` deals, both before
    a deal is read (a file's deals are scored in time linear in their number)."""
    raw = obj.get("deals") if isinstance(obj, dict) else None
    if isinstance(raw, list) and len(raw) > deals:
        raise Refused(_("the evening has {count} deals; the app keeps at most {most} an evening")
                      .format(count=len(raw), most=deals))
    if store.count(Kind.EVENING) >= most:  # before the file is read (again when stored)
        raise Refused(str(StoreFull(Kind.EVENING, most)))
    evening = Evening.from_json(obj)
    return _stored(store, {**evening.to_json(), APP: {"imported": True}}, most), evening


def change(store: DocumentStore, doc_id: str, how: Callable[[Evening], Evening],
           revision: int | None, *, deals: int, key: str | None = None
           ) -> tuple[Document, Evening]:
    """The evening changed by ``how`` (add, edit, drop, undo) in one transaction of the store:
    refused (:class:`~herzla.web.store.StaleRevision`) when ``revision`` is not the
    document's now, Refused when it would hold more than ``deals`` deals, AlreadyEntered when
    the one-time ``key`` of the form has made a change already, and nothing written when
    ``how`` raises."""
    made: list[Evening] = []

    def apply(body: Any) -> dict[str, Any]:
        before = Evening.from_json(_file_part(body))
        part = dict(body.get(APP) or {}) if isinstance(body, dict) else {}
        keys = dict(part.get("keys") or {})
        if key and isinstance(keys.get(key), int):
            raise AlreadyEntered(keys[key])
        if part.get("closed") is True:
            raise Closed(_("this evening is closed: reopen it (This evening, on its pad) to "
                           "change it"))
        after = how(before)
        if len(after.entries) > max(deals, len(before.entries)):
            raise Refused(_("an evening here holds at most {most} deals").format(most=deals))
        made.append(after)
        if key:
            keys[key] = len(after.entries)
            part["keys"] = dict(list(keys.items())[-KEPT_KEYS:])
        return {**after.to_json(), APP: part} if part else after.to_json()

    doc = store.modify(Kind.EVENING, doc_id, apply, revision)
    return doc, made[0]


def file_text(evening: Evening) -> str:
    """The evening's file, as ``herzla pad`` writes it (one deal a line)."""
    return dumps(evening)


def csv_of(evening: Evening) -> str:
    """The deals as CSV, in the language of the request (:func:`herzla.evening.export.deals_csv`:
    German with ``;``, a decimal comma and a byte-order mark)."""
    return deals_csv(evening)
