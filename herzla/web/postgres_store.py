"""The store's PostgreSQL backend: the documents of :mod:`herzla.web.documents` in a PostgreSQL
database (psycopg 3 and its connection pool, the ``server`` extra; nothing here knows the web
framework), so that several ``herzla serve`` processes on one or more machines serve the same
evenings and tables.

Each kind of document is a table of the database (its name the kind's value) with the same
columns as in the SQLite file: the id, the revision, the times made and written, the body as
JSON text (kept as text, so that the order of its keys is the order written).  A change reads
its row ``FOR UPDATE``: a second process changing the same document waits for the first one's
commit and then reads what it wrote, so a revision, an idempotency key or a turn is checked
against the newest body whatever process answers.  A creation with a limit locks the kind's
table against other writers for its transaction, so two processes cannot both take the last
place.  Every write commits before its answer leaves: a process killed after answering loses
nothing.

The schema has a version (the table ``schema_version``) and the migration path of
:data:`MIGRATIONS`, run on start under an advisory lock (two processes starting together migrate
once); a database of a newer version, or one holding tables that are not herzla's, is refused
in one line before anything in it changes.  After every write the store sends a notification
(``NOTIFY herzla, 'kind:id:revision'``) that a process's pages may listen for.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from herzla.i18n import _
from herzla.web.documents import Kind, StoreError
from herzla.web.sql_store import SqlStore

__all__ = ["CHANNEL", "INSTALL", "MIGRATIONS", "POOL_SIZE", "SCHEMA", "PostgresStore",
           "is_postgres_url", "shown_url"]

#: the version of the schema this herzla writes: the number of :data:`MIGRATIONS`
SCHEMA = 2

#: the statements that bring a database from version ``i`` to ``i + 1`` (``MIGRATIONS[i]``)
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: the version, the evenings and the tables, the start page's lists last written first
    ("CREATE TABLE schema_version (version INTEGER NOT NULL)",
     "INSERT INTO schema_version VALUES (0)",
     "CREATE TABLE evenings (id TEXT PRIMARY KEY, revision INTEGER NOT NULL, "
     "created DOUBLE PRECISION NOT NULL, updated DOUBLE PRECISION NOT NULL, body TEXT NOT NULL)",
     "CREATE TABLE tables (id TEXT PRIMARY KEY, revision INTEGER NOT NULL, "
     "created DOUBLE PRECISION NOT NULL, updated DOUBLE PRECISION NOT NULL, body TEXT NOT NULL)",
     "CREATE INDEX evenings_updated ON evenings (updated)",
     "CREATE INDEX tables_updated ON tables (updated)"),
    # 2: when each seat's page was last seen at a table (its person away or there)
    ("CREATE TABLE presence (kind TEXT NOT NULL, id TEXT NOT NULL, who TEXT NOT NULL, "
     "seen DOUBLE PRECISION NOT NULL, PRIMARY KEY (kind, id, who))",),
)
assert len(MIGRATIONS) == SCHEMA

#: the connections one process keeps open at most (waitress's threads and the live pages'
#: reads share them)
POOL_SIZE = 8

#: how long a call waits for a connection of the pool, or for another's lock on a row
WAIT_SECONDS = 10.0

#: the channel the store notifies after each write
CHANNEL = "herzla"

#: how to install what this backend needs
INSTALL = "python3 -m pip install 'herzla[server]'"

#: the advisory lock taken while the schema is made or migrated (any fixed number)
_MIGRATION_LOCK = 0x6865727A


def is_postgres_url(db: str) -> bool:
    """Whether ``--db`` names a PostgreSQL database (``postgresql://`` or ``postgres://``)."""
    return db.startswith(("postgresql://", "postgres://"))


def shown_url(url: str) -> str:
    """``url`` as a person may read it: without its password."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        host = parts.netloc.rsplit("@", 1)[1]
        user = parts.username or ""
        return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
    except ValueError:
        return url.split("@", 1)[-1]


def _configure(con: Any) -> None:
    """A new connection of the pool waits at most :data:`WAIT_SECONDS` for a lock, and runs a
    read of one statement on its own (a change opens its transaction: ``BEGIN`` and ``COMMIT``
    are two round trips a read does not need)."""
    con.execute(f"SET lock_timeout = '{int(WAIT_SECONDS)}s'")
    con.commit()
    con.autocommit = True


class PostgresStore(SqlStore):
    """The documents of one PostgreSQL database (``url``: ``postgresql://USER@HOST/DB``, any
    form libpq reads), its schema made and migrated on creation.

    One store keeps a pool of at most ``pool_size`` connections for the threads of a server;
    two stores (two processes) on one database see each other's writes.  Raises
    :class:`StoreError` when psycopg is missing, the database cannot be reached, is not
    herzla's, or has a newer schema.
    """

    MARK = "%s"
    GREATEST = "greatest"
    FOR_UPDATE = " FOR UPDATE"

    def __init__(self, url: str, *, pool_size: int = POOL_SIZE, upto: int = SCHEMA) -> None:
        try:
            import psycopg
            from psycopg_pool import ConnectionPool
        except ImportError:
            raise StoreError(_("a PostgreSQL --db needs the server extra (psycopg 3 and its "
                               "pool): {install}").format(install=INSTALL)) from None
        self.url = url
        self._errors: tuple[type[Exception], ...] = (psycopg.Error,)
        try:  # one connection first: an unreachable server is said at once, not retried
            with psycopg.connect(url, connect_timeout=int(WAIT_SECONDS)) as con:
                self.version_found = self._migrate(con, upto)
        except StoreError:
            raise
        except psycopg.Error as exc:
            raise StoreError(self._unreachable(exc)) from None
        self._pool = ConnectionPool(url, min_size=1, max_size=max(1, pool_size),
                                    timeout=WAIT_SECONDS, open=False, configure=_configure,
                                    kwargs={"connect_timeout": int(WAIT_SECONDS)})
        try:
            self._pool.open(wait=True, timeout=WAIT_SECONDS)
        except Exception as exc:
            self._pool.close()
            raise StoreError(self._unreachable(exc)) from None

    @property
    def where(self) -> str:
        """The database's address, without its password."""
        return shown_url(self.url)

    def close(self) -> None:
        """Close the pool's connections (the store cannot be used after)."""
        self._pool.close()

    def _unreachable(self, exc: BaseException) -> str:
        return _("cannot connect to {where}: {why}").format(where=self.where,
                                                           why=self._why(exc))

    def _why(self, exc: BaseException) -> str:
        text = " ".join(str(exc).split()) or type(exc).__name__
        return text.replace(self.url, self.where)[:300]

    @contextmanager
    def _transaction(self, *, one: bool = False) -> Iterator[Any]:
        """A cursor in one transaction of a pooled connection: committed at the end, rolled
        back on an exception (``one``: for a single statement, which is a transaction of its
        own); a database error is a :class:`StoreError` of one line."""
        try:
            with self._pool.connection() as con, con.cursor() as cur:
                if one:
                    yield cur
                else:
                    with con.transaction():
                        yield cur
        except StoreError:
            raise
        except self._errors as exc:  # the pool's timeout is one of psycopg's errors too
            raise StoreError(f"{self.where}: {self._why(exc)}") from None

    def _found(self, cur: Any) -> int:
        """The database's schema version, read without changing anything."""
        cur.execute("SELECT table_name FROM information_schema.tables "
                    "WHERE table_schema = current_schema()")
        names = {row[0] for row in cur.fetchall()}
        if "schema_version" not in names:
            ours = {"evenings", "tables"}
            if names & ours:
                raise StoreError(_("{where} has tables named {names} but is not herzla's (it "
                                   "has no schema version)").format(
                    where=self.where, names=", ".join(sorted(names & ours))))
            return 0
        cur.execute("SELECT version FROM schema_version LIMIT 2")
        rows = cur.fetchall()
        if len(rows) != 1 or rows[0][0] is None or rows[0][0] < 0:
            raise StoreError(_("{where} is not a herzla database that this herzla can read "
                               "(its schema version is not one whole number from 0)").format(
                where=self.where))
        version = int(rows[0][0])
        if version > SCHEMA:
            raise StoreError(_("{path} was written by a later herzla (schema version "
                               "{version}; this herzla reads up to {schema}): upgrade herzla")
                             .format(path=self.where, version=version, schema=SCHEMA))
        return version

    def _migrate(self, con: Any, upto: int) -> int:
        with con.transaction(), con.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            version = self._found(cur)
            for step in range(version, upto):
                for statement in MIGRATIONS[step]:
                    cur.execute(statement)
            if upto > version:
                cur.execute("UPDATE schema_version SET version = %s", (upto,))
            return version

    def _reading(self) -> AbstractContextManager[Any]:
        return self._transaction(one=True)

    def _writing(self) -> AbstractContextManager[Any]:
        return self._transaction()

    def _one_write(self) -> AbstractContextManager[Any]:
        return self._transaction(one=True)

    def _lock_kind(self, cur: Any, kind: Kind) -> None:
        cur.execute(f"LOCK TABLE {kind.value} IN SHARE ROW EXCLUSIVE MODE")

    def _written(self, cur: Any, kind: Kind, doc_id: str, revision: int) -> None:
        cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{kind.value}:{doc_id}:{revision}"))
