"""The store's SQLite backend: the documents of :mod:`herzla.web.documents` in one SQLite file
(the standard library's :mod:`sqlite3`; nothing here knows the web framework).

Each kind of document is a table of the file (its name the kind's value): the id, the revision,
the times made and written, the body as JSON text.  A write takes the file's write lock at once
(``BEGIN IMMEDIATE``), so a read inside it sees what the write will change.  The file is in WAL
mode (readers never wait for a writer) and every connection waits up to :data:`BUSY_SECONDS`
for another's write.

The schema has a version (the table ``schema_version``) and a migration path: a file of an
older version is brought up to :data:`SCHEMA` when it is opened, and a file of a newer version
(written by a later herzla) is refused in one line, as is a file that is not herzla's, before
anything in it changes.

>>> import tempfile, os
>>> from herzla.web.documents import Kind
>>> store = SqliteStore(os.path.join(tempfile.mkdtemp(), "herzla.db"))
>>> doc = store.create(Kind.EVENING, {"game": "herzla"})
>>> doc.revision, store.get(Kind.EVENING, doc.id).body
(1, {'game': 'herzla'})
>>> store.update(Kind.EVENING, doc.id, {"game": "herzeln"}, revision=1).revision
2
>>> from herzla.web.documents import StaleRevision
>>> try:
...     store.update(Kind.EVENING, doc.id, {"game": "herzerln"}, revision=1)
... except StaleRevision as exc:
...     print(exc)
this evening was changed meanwhile (revision 2, not 1): reload it
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path

from herzla.i18n import _, ngettext
from herzla.web.documents import StoreError
from herzla.web.sql_store import SqlStore

__all__ = ["BUSY_SECONDS", "MIGRATIONS", "SCHEMA", "SqliteStore", "default_path"]

#: the version of the schema this herzla writes: the number of :data:`MIGRATIONS`
SCHEMA = 3

#: the statements that bring a file from version ``i`` to ``i + 1`` (``MIGRATIONS[i]``); a new
#: version appends its statements here, and a test migrates a file of each older version
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: the version, and the evenings (the score pad)
    ("CREATE TABLE schema_version (version INTEGER NOT NULL)",
     "INSERT INTO schema_version VALUES (0)",
     "CREATE TABLE evenings (id TEXT PRIMARY KEY, revision INTEGER NOT NULL, "
     "created REAL NOT NULL, updated REAL NOT NULL, body TEXT NOT NULL)"),
    # 2: the tables against the computer, and the start page's lists in the order last written
    ("CREATE TABLE tables (id TEXT PRIMARY KEY, revision INTEGER NOT NULL, "
     "created REAL NOT NULL, updated REAL NOT NULL, body TEXT NOT NULL)",
     "CREATE INDEX evenings_updated ON evenings (updated)",
     "CREATE INDEX tables_updated ON tables (updated)"),
    # 3: when each seat's page was last seen at a table (its person away or there)
    ("CREATE TABLE presence (kind TEXT NOT NULL, id TEXT NOT NULL, who TEXT NOT NULL, "
     "seen REAL NOT NULL, PRIMARY KEY (kind, id, who))",),
)
assert len(MIGRATIONS) == SCHEMA

#: how long a connection waits for another connection's write before giving up
BUSY_SECONDS = 10.0


def default_path() -> Path:
    """The store's file when ``--db`` is not given: ``herzla/herzla.db`` in the user's data
    folder (``$XDG_DATA_HOME``, else ``~/.local/share``; on Windows ``%LOCALAPPDATA%``, on
    macOS ``~/Library/Application Support``)."""
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        xdg = os.environ.get("XDG_DATA_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / "herzla" / "herzla.db"


class SqliteStore(SqlStore):
    """The documents of one SQLite file, opened (made and migrated if need be) on creation.

    Every call opens its own connection, so one store serves the threads of a server; two
    stores (two processes) on one file see each other's writes.  Raises :class:`StoreError`
    when the file cannot be opened, is not herzla's, or has a newer schema.
    """

    def __init__(self, path: str | os.PathLike[str], *, upto: int = SCHEMA) -> None:
        self.path = Path(path)
        if self.path.is_dir():
            raise StoreError(_("{path} is a folder, not a database file").format(path=self.path))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(_("cannot make the folder {path}: {why}").format(
                path=self.path.parent, why=exc.strerror or exc)) from None
        self.version_found = self._migrate(upto)

    @property
    def where(self) -> str:
        """The file's path."""
        return str(self.path)

    @contextlib.contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        try:
            con = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(_("cannot open {path}: {exc}").format(path=self.path,
                                                                   exc=exc)) from None
        try:
            yield con
        except sqlite3.DatabaseError as exc:
            if "not a database" in str(exc) or "malformed" in str(exc):
                raise StoreError(_("{path} is not a herzla database (SQLite says: {exc})")
                                 .format(path=self.path, exc=exc)) from None
            if isinstance(exc, sqlite3.OperationalError):
                raise StoreError(f"{self.path}: {exc}") from None
            raise
        finally:
            con.close()

    @contextlib.contextmanager
    def _reading(self) -> Iterator[sqlite3.Cursor]:
        with self._connection() as con:
            yield con.cursor()

    @contextlib.contextmanager
    def _writing(self) -> Iterator[sqlite3.Cursor]:
        """A cursor in a write transaction (taken at once, so a read inside it sees what the
        write will change, and no other writer comes between): committed at the end, rolled
        back on an exception."""
        with self._connection() as con:
            con.execute("BEGIN IMMEDIATE")
            try:
                yield con.cursor()
            except BaseException:
                con.execute("ROLLBACK")
                raise
            con.execute("COMMIT")

    def _found(self, con: sqlite3.Connection | sqlite3.Cursor) -> int:
        """The file's schema version, read without changing anything: StoreError for a file
        that is not herzla's, whose version is not a whole number, or is a later one."""
        names = {r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "schema_version" not in names:
            if names:
                raise StoreError(_("{path} is an SQLite database, but not herzla's (it has "
                                   "no schema version)").format(path=self.path))
            return 0
        rows = con.execute("SELECT version FROM schema_version LIMIT 2").fetchall()
        version = rows[0][0] if len(rows) == 1 else None
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            held = (ngettext("{n} row", "{n} rows", len(rows)).format(n=len(rows))
                    if len(rows) != 1
                    else json.dumps(version if not isinstance(version, bytes) else "bytes"))
            raise StoreError(_("{path} is not a herzla database that this herzla can read "
                               "(its schema version is {held}, not a whole number from 0)")
                             .format(path=self.path, held=held))
        if version > SCHEMA:
            raise StoreError(_("{path} was written by a later herzla (schema version "
                               "{version}; this herzla reads up to {schema}): upgrade herzla")
                             .format(path=self.path, version=version, schema=SCHEMA))
        return version

    def _migrate(self, upto: int) -> int:
        # a file that is refused is refused before anything in it changes (its journal mode
        # too); the version is read again in the transaction that migrates
        with self._connection() as con:
            self._found(con)
            con.execute("PRAGMA journal_mode=WAL")
        with self._writing() as con:
            version = self._found(con)
            for step in range(version, upto):
                for statement in MIGRATIONS[step]:
                    con.execute(statement)
            if upto > version:
                con.execute("UPDATE schema_version SET version = ?", (upto,))
            return version
