"""The table app's store: the interface (:mod:`herzla.web.documents`: documents, kinds,
revisions, errors) and herzla's backend, an SQLite file (:mod:`herzla.web.sqlite_store`), which
``Store`` names.  The app takes any :class:`DocumentStore`; a second backend is one new module.

>>> import tempfile, os
>>> store = Store(os.path.join(tempfile.mkdtemp(), "herzla.db"))
>>> isinstance(store, DocumentStore)
True
"""

from __future__ import annotations

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
from herzla.web.sqlite_store import BUSY_SECONDS, MIGRATIONS, SCHEMA, SqliteStore, default_path

__all__ = ["BUSY_SECONDS", "MAX_DOCUMENT", "MIGRATIONS", "SCHEMA", "Document", "DocumentStore",
           "DocumentTooLarge", "Kind", "NotFound", "StaleRevision", "Store", "StoreError",
           "StoreFull", "default_path"]

#: herzla's backend of the store: documents in one SQLite file
Store = SqliteStore
