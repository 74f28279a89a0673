"""The table app's store as an interface: what a backend keeps and answers, whatever it keeps
it in (nothing here knows the web framework or a database).

The store keeps *documents* of a few *kinds* (:class:`Kind`: the evenings, the tables against the
computer).  Each document has an id, a ``revision`` that grows by one with every write, the times
it was made and last written, and its body: a JSON object (an evening is the JSON file format of
the evening; a table its own document), at most :data:`MAX_DOCUMENT` as JSON text.  A write
names the revision it read, and a write from a stale revision is refused
(:class:`StaleRevision`), never written over the newer one; :meth:`DocumentStore.modify` reads,
changes and writes in one transaction, so two processes or two browsers changing one document
lose nothing; :meth:`DocumentStore.create` counts the documents of its kind in the transaction
that inserts, so a limit holds however many servers share the store.  Every problem is a
:class:`StoreError` of one line.

A backend is one module implementing :class:`DocumentStore` (:mod:`herzla.web.sqlite_store`,
the SQLite file, is herzla's; :mod:`herzla.web.store` names it ``Store``; an SQL database's
backend builds on :class:`herzla.web.sql_store.SqlStore`); the contract tests in
``tests/store_contract.py`` check any backend against this page.
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

import attrs

from herzla.i18n import _

__all__ = ["MAX_DOCUMENT", "Document", "DocumentStore", "DocumentTooLarge", "Kind", "NotFound",
           "StaleRevision", "StoreError", "StoreFull", "body_text", "check_revision", "not_found",
           "valid_id"]

#: the largest body of one document, as JSON text (an evening of a thousand deals entered as
#: hand records is about 2 MiB)
MAX_DOCUMENT = 8 * 2**20

_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


class StoreError(Exception):
    """The store cannot be opened or used: one line naming the problem."""


class NotFound(StoreError, LookupError):
    """No document of that kind has that id."""


class StaleRevision(StoreError):
    """A write from a revision that is no longer the document's: ``current`` is its revision
    now."""

    def __init__(self, kind: Kind, current: int, given: int) -> None:
        said = (_("this evening was changed meanwhile (revision %(now)s, not %(given)s): "
                  "reload it") if kind is Kind.EVENING else
                _("this table was changed meanwhile (revision %(now)s, not %(given)s): "
                  "reload it"))
        super().__init__(said % {"now": current, "given": given})
        self.current = current


class DocumentTooLarge(StoreError):
    """A body over :data:`MAX_DOCUMENT` as JSON text."""


class StoreFull(StoreError):
    """A new document when the store keeps ``most`` of its kind already."""

    def __init__(self, kind: Kind, most: int) -> None:
        said = (_("the app keeps at most %(most)s evenings: delete one first")
                if kind is Kind.EVENING else
                _("the app keeps at most %(most)s tables: delete one first"))
        super().__init__(said % {"most": most})
        self.most = most


class Kind(enum.Enum):
    """What a document is; its value is the name of its SQL table."""

    EVENING = "evenings"
    TABLE = "tables"

    @property
    def noun(self) -> str:
        return "evening" if self is Kind.EVENING else "table"


@attrs.frozen(slots=True)
class Document:
    """One stored document: its ``body`` is the JSON object as stored (parsed)."""

    kind: Kind
    id: str
    revision: int
    created: float
    updated: float
    body: Any

    def to_dict(self) -> dict[str, Any]:
        """The body with the document's ``id`` and ``revision`` (what the API answers)."""
        return {**self.body, "id": self.id, "revision": self.revision}


def valid_id(doc_id: object) -> bool:
    """Whether ``doc_id`` can be a document's id (1 to 32 letters, digits, ``-`` or ``_``): any
    other is :class:`NotFound` without a look."""
    return isinstance(doc_id, str) and _ID.fullmatch(doc_id) is not None


def not_found(kind: Kind, doc_id: object) -> NotFound:
    """The error for a document of ``kind`` that has no id ``doc_id``."""
    said = (_("no evening has the id %(id)s") if kind is Kind.EVENING
            else _("no table has the id %(id)s"))
    return NotFound(said % {"id": json.dumps(str(doc_id)[:40])})


def check_revision(doc: Document, revision: int | None) -> None:
    """:class:`StaleRevision` when ``revision`` (the one a writer saw; None: any) is not the
    document's now."""
    if revision is not None and revision != doc.revision:
        raise StaleRevision(doc.kind, doc.revision, revision)


def body_text(kind: Kind, body: Mapping[str, Any]) -> str:
    """``body`` as the JSON text a backend keeps (compact, UTF-8 as it is): TypeError for a
    body that is not an object, :class:`DocumentTooLarge` over :data:`MAX_DOCUMENT`."""
    if not isinstance(body, Mapping):
        raise TypeError(f"a {kind.noun} is a JSON object, not {type(body).__name__}")
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    if len(text.encode("utf-8")) > MAX_DOCUMENT:
        said = (_("the evening is larger than %(mib)s MiB") if kind is Kind.EVENING
                else _("the table is larger than %(mib)s MiB"))
        raise DocumentTooLarge(said % {"mib": MAX_DOCUMENT // 2**20})
    return text


@runtime_checkable
class DocumentStore(Protocol):
    """What every backend of the store answers (each call its own transaction; one store serves
    the threads of a server, and two stores on one storage see each other's writes)."""

    def create(self, kind: Kind, body: Mapping[str, Any], *, most: int | None = None
               ) -> Document:
        """A new document of ``kind`` holding ``body``, at revision 1 with a new id;
        :class:`StoreFull` when ``most`` (not None) documents of ``kind`` are kept already,
        counted in the transaction that inserts."""
        ...

    def get(self, kind: Kind, doc_id: str) -> Document:
        """The document of ``kind`` with id ``doc_id`` (:class:`NotFound` if there is none)."""
        ...

    def revision(self, kind: Kind, doc_id: str) -> int:
        """The document's revision now, without its body (:class:`NotFound` if there is
        none)."""
        ...

    def list(self, kind: Kind, *, limit: int = 100, offset: int = 0) -> list[Document]:
        """Documents of ``kind``, the last written first (ties by id)."""
        ...

    def count(self, kind: Kind) -> int:
        """How many documents of ``kind`` are kept."""
        ...

    def modify(self, kind: Kind, doc_id: str, change: Callable[[Any], Mapping[str, Any]],
               revision: int | None = None) -> Document:
        """Read the document, ``change`` its body and write it, in one transaction (nothing
        written when ``change`` raises); :class:`StaleRevision` when ``revision`` is given and
        is not the document's now."""
        ...

    def update(self, kind: Kind, doc_id: str, body: Mapping[str, Any],
               revision: int) -> Document:
        """Write ``body`` over the document at ``revision`` (:class:`StaleRevision` if it is at
        another one now)."""
        ...

    def delete(self, kind: Kind, doc_id: str, revision: int | None = None) -> None:
        """Remove the document (at ``revision``, if given)."""
        ...

    def touch(self, kind: Kind, doc_id: str, who: str, when: float) -> None:
        """Note that ``who`` (a seat's page) was seen at the document at ``when`` (seconds
        since the epoch): kept beside the document, never changing its revision."""
        ...

    def seen(self, kind: Kind, doc_id: str) -> dict[str, float]:
        """When each ``who`` was last seen at the document (:meth:`touch`)."""
        ...

    @property
    def where(self) -> str:
        """Where the documents are kept, for a person (a file's path, a database's address)."""
        ...
