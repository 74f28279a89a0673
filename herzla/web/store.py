"""The table app's store: the interface (:mod:`herzla.web.documents`: documents, kinds,
revisions, errors) and herzla's backends, an SQLite file (:mod:`herzla.web.sqlite_store`, which
``Store`` names) and a PostgreSQL database (:mod:`herzla.web.postgres_store`, the ``server``
extra); :func:`open_store` opens the one ``--db`` names.  The app takes any
:class:`DocumentStore`; another backend is one new module.

>>> import tempfile, os
>>> store = Store(os.path.join(tempfile.mkdtemp(), "herzla.db"))
>>> isinstance(store, DocumentStore)
True
"""

from __future__ import annotations

import os

from herzla.web.documents import (
    MAX_DOCUMENT,
    Document,
    DocumentStore,
    DocumentTooLarge,
    Kind,
    NotFound,
    StaleRevision,
    StoreError,
    StoreFull,
)
from herzla.web.postgres_store import PostgresStore, is_postgres_url
from herzla.web.sqlite_store import BUSY_SECONDS, MIGRATIONS, SCHEMA, SqliteStore, default_path

__all__ = ["BUSY_SECONDS", "MAX_DOCUMENT", "MIGRATIONS", "SCHEMA", "Document", "DocumentStore",
           "DocumentTooLarge", "Kind", "NotFound", "StaleRevision", "Store", "StoreError",
           "StoreFull", "default_path", "open_store"]

#: herzla's backend of the store: documents in one SQLite file
Store = SqliteStore


def open_store(db: str | os.PathLike[str] | None) -> DocumentStore:
    """The store ``--db`` names: a PostgreSQL database for a ``postgresql://`` (or
    ``postgres://``) URL, else the SQLite file at that path (None: :func:`default_path`); made
    and migrated if need be (:class:`StoreError` when it cannot be)."""
    if db is None:
        return SqliteStore(default_path())
    if isinstance(db, str) and is_postgres_url(db):
        return PostgresStore(db)
    return SqliteStore(db)
