"""What the store's SQL backends share (:mod:`herzla.web.sqlite_store`,
:mod:`herzla.web.postgres_store`; nothing here knows the web framework or a database driver):
the documents' tables, read and written by the same statements.  A backend gives its
connections (a cursor to read with, a cursor in a write transaction), its driver's parameter
mark and the few words where the two dialects differ, and hears of each write (PostgreSQL
notifies the other processes)."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import Any

from herzla.web.documents import (
    Document,
    Kind,
    StoreFull,
    body_text,
    check_revision,
    not_found,
    valid_id,
)

__all__ = ["SqlStore", "document_of"]


def document_of(kind: Kind, row: tuple[Any, ...]) -> Document:
    """The document a row ``id, revision, created, updated, body`` holds."""
    doc_id, revision, created, updated, body = row
    return Document(kind, doc_id, revision, created, updated, json.loads(body))


class SqlStore:
    """The documents of an SQL database, each kind a table (the id, the revision, the times
    made and written, the body as JSON text) and the table ``presence`` of who was seen when.
    Statements are written with ``?`` for their parameters."""

    #: the driver's mark of a parameter
    MARK = "?"
    #: SQL's greater of two values
    GREATEST = "max"
    #: what a read in a write transaction adds so that no other writer changes the row first
    FOR_UPDATE = ""

    def _reading(self) -> AbstractContextManager[Any]:
        """A cursor to read with (a statement is a transaction of its own)."""
        raise NotImplementedError

    def _writing(self) -> AbstractContextManager[Any]:
        """A cursor in a write transaction: committed at the end, rolled back on an exception."""
        raise NotImplementedError

    def _one_write(self) -> AbstractContextManager[Any]:
        """A cursor for a write of one statement."""
        return self._writing()

    def _lock_kind(self, cur: Any, kind: Kind) -> None:
        """Before a creation counts the documents of ``kind``: no other creation until the
        commit (a backend whose write transaction excludes the others has nothing to do)."""

    def _written(self, cur: Any, kind: Kind, doc_id: str, revision: int) -> None:
        """After each write, in its transaction (``revision`` 0: deleted)."""

    def _run(self, cur: Any, sql: str, params: tuple[Any, ...] = ()) -> Any:
        cur.execute(sql.replace("?", self.MARK), params)
        return cur

    def version(self) -> int:
        """The database's schema version now."""
        with self._reading() as cur:
            return int(self._run(cur, "SELECT version FROM schema_version").fetchone()[0])

    def create(self, kind: Kind, body: Mapping[str, Any], *, most: int | None = None
               ) -> Document:
        """A new document of ``kind`` holding ``body``, at revision 1 with a new id;
        :class:`StoreFull` when ``most`` (not None) documents of ``kind`` are kept already,
        counted in the transaction that inserts (two servers cannot both take the last
        place)."""
        text = body_text(kind, body)
        now = time.time()
        with self._writing() as cur:
            if most is not None:
                self._lock_kind(cur, kind)
                if self._run(cur, f"SELECT count(*) FROM {kind.value}").fetchone()[0] >= most:
                    raise StoreFull(kind, most)
            while True:  # an id taken already: draw another
                doc_id = secrets.token_urlsafe(6)
                self._run(cur, f"INSERT INTO {kind.value} VALUES (?, 1, ?, ?, ?) "
                               "ON CONFLICT (id) DO NOTHING", (doc_id, now, now, text))
                if cur.rowcount == 1:
                    self._written(cur, kind, doc_id, 1)
                    return Document(kind, doc_id, 1, now, now, json.loads(text))

    def _read(self, cur: Any, kind: Kind, doc_id: str, *, lock: bool = False) -> Document:
        row = None
        if valid_id(doc_id):
            row = self._run(cur, f"SELECT id, revision, created, updated, body FROM {kind.value} "
                                 "WHERE id = ?" + (self.FOR_UPDATE if lock else ""),
                            (doc_id,)).fetchone()
        if row is None:
            raise not_found(kind, doc_id)
        return document_of(kind, row)

    def get(self, kind: Kind, doc_id: str) -> Document:
        """The document of ``kind`` with id ``doc_id`` (:class:`NotFound` if there is none)."""
        with self._reading() as cur:
            return self._read(cur, kind, doc_id)

    def revision(self, kind: Kind, doc_id: str) -> int:
        """The document's revision now, read without its body (what a page polls to learn
        that another phone changed it; :class:`NotFound` if there is none)."""
        row = None
        with self._reading() as cur:
            if valid_id(doc_id):
                row = self._run(cur, f"SELECT revision FROM {kind.value} WHERE id = ?",
                                (doc_id,)).fetchone()
        if row is None:
            raise not_found(kind, doc_id)
        return int(row[0])

    def list(self, kind: Kind, *, limit: int = 100, offset: int = 0) -> list[Document]:
        """Documents of ``kind``, the last written first."""
        with self._reading() as cur:
            rows = self._run(cur, f"SELECT id, revision, created, updated, body FROM "
                                  f"{kind.value} ORDER BY updated DESC, id LIMIT ? OFFSET ?",
                             (max(0, limit), max(0, offset))).fetchall()
        return [document_of(kind, row) for row in rows]

    def count(self, kind: Kind) -> int:
        with self._reading() as cur:
            return int(self._run(cur, f"SELECT count(*) FROM {kind.value}").fetchone()[0])

    def modify(self, kind: Kind, doc_id: str, change: Callable[[Any], Mapping[str, Any]],
               revision: int | None = None) -> Document:
        """Read the document (no other writer between), ``change`` its body (a function of the
        body read, giving the new one; it may raise, and then nothing is written) and write it,
        in one transaction.  ``revision``: the revision the writer saw; another one now is
        :class:`StaleRevision` (None: whatever it is now)."""
        with self._writing() as cur:
            doc = self._read(cur, kind, doc_id, lock=True)
            check_revision(doc, revision)
            text = body_text(kind, change(doc.body))
            now = max(time.time(), doc.updated)
            self._run(cur, f"UPDATE {kind.value} SET revision = ?, updated = ?, body = ? "
                           "WHERE id = ?", (doc.revision + 1, now, text, doc.id))
            self._written(cur, kind, doc.id, doc.revision + 1)
            return Document(kind, doc.id, doc.revision + 1, doc.created, now, json.loads(text))

    def update(self, kind: Kind, doc_id: str, body: Mapping[str, Any],
               revision: int) -> Document:
        """Write ``body`` over the document at ``revision`` (:class:`StaleRevision` if it is at
        another one now)."""
        return self.modify(kind, doc_id, lambda _: body, revision)

    def delete(self, kind: Kind, doc_id: str, revision: int | None = None) -> None:
        """Remove the document (at ``revision``, if given)."""
        with self._writing() as cur:
            doc = self._read(cur, kind, doc_id, lock=True)
            check_revision(doc, revision)
            self._run(cur, f"DELETE FROM {kind.value} WHERE id = ?", (doc.id,))
            self._run(cur, "DELETE FROM presence WHERE kind = ? AND id = ?", (kind.value, doc.id))
            self._written(cur, kind, doc.id, 0)

    def touch(self, kind: Kind, doc_id: str, who: str, when: float) -> None:
        """Note that ``who`` was seen at the document at ``when`` (its revision unchanged)."""
        if not valid_id(doc_id):
            raise not_found(kind, doc_id)
        with self._one_write() as cur:
            self._run(cur, "INSERT INTO presence VALUES (?, ?, ?, ?) ON CONFLICT (kind, id, who) "
                           f"DO UPDATE SET seen = {self.GREATEST}(presence.seen, excluded.seen)",
                      (kind.value, doc_id, who[:64], when))

    def seen(self, kind: Kind, doc_id: str) -> dict[str, float]:
        """When each ``who`` was last seen at the document."""
        with self._reading() as cur:
            rows = self._run(cur, "SELECT who, seen FROM presence WHERE kind = ? AND id = ?",
                             (kind.value, doc_id)).fetchall()
        return {who: seen for who, seen in rows}
