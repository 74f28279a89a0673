"""The PostgreSQL backend's own behaviour beyond the store's contract (marked ``server``;
skipped without a server): the schema made and migrated on start, databases it must refuse,
an unreachable server in one line without its password, and ``herzla serve --db URL`` (and
``HERZLA_DB``) choosing it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from herzla.cli import main
from herzla.web.documents import Kind, StoreError
from tests.postgres import fresh_schema

pytestmark = pytest.mark.server


@pytest.fixture
def url() -> Iterator[str]:
    with fresh_schema() as made:
        yield made


def _sql(url: str, *statements: str) -> list[tuple[object, ...]]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as con:
        rows: list[tuple[object, ...]] = []
        for statement in statements:
            cur = con.execute(statement)
            if cur.description is not None:
                rows = cur.fetchall()
        return rows


def test_the_schema_is_made_once_and_kept(url: str) -> None:
    from herzla.web.postgres_store import SCHEMA, PostgresStore

    first = PostgresStore(url)
    assert first.version_found == 0 and first.version() == SCHEMA
    doc = first.create(Kind.EVENING, {"game": "herzla", "b": 1, "a": 2})
    first.close()
    again = PostgresStore(url)  # a restart: nothing migrated, nothing lost
    assert again.version_found == SCHEMA
    got = again.get(Kind.EVENING, doc.id)
    assert list(got.body) == ["game", "b", "a"]  # the body's order as written
    again.close()
    assert _sql(url, "SELECT version FROM schema_version") == [(SCHEMA,)]


def test_each_older_schema_is_migrated_keeping_its_documents(url: str) -> None:
    from herzla.web.postgres_store import SCHEMA, PostgresStore

    for version in range(1, SCHEMA):
        _sql(url, "DROP TABLE IF EXISTS schema_version, evenings, tables, presence")
        old = PostgresStore(url, upto=version)
        doc = old.create(Kind.TABLE, {"kept": version})
        old.close()
        new = PostgresStore(url)
        assert new.version_found == version and new.version() == SCHEMA
        assert new.get(Kind.TABLE, doc.id).body == {"kept": version}
        new.touch(Kind.TABLE, doc.id, "seat-0", 1.0)
        assert new.seen(Kind.TABLE, doc.id) == {"seat-0": 1.0}
        new.close()


def test_an_older_schema_is_migrated_and_starts_racing_migrate_once(url: str) -> None:
    import threading

    from herzla.web.postgres_store import SCHEMA, PostgresStore

    opened: list[PostgresStore] = []
    errors: list[BaseException] = []

    def start() -> None:
        try:
            opened.append(PostgresStore(url, pool_size=1))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == [] and sorted(s.version_found for s in opened) == [0, SCHEMA, SCHEMA, SCHEMA]
    for store in opened:
        store.close()


def test_databases_it_must_not_touch_are_refused_in_one_line(url: str) -> None:
    from herzla.web.postgres_store import SCHEMA, PostgresStore

    _sql(url, "CREATE TABLE evenings (x int)")
    with pytest.raises(StoreError, match="has tables named evenings but is not herzla's"):
        PostgresStore(url)
    _sql(url, "DROP TABLE evenings", "CREATE TABLE schema_version (version INTEGER)",
         "INSERT INTO schema_version VALUES (99)")
    with pytest.raises(StoreError) as info:
        PostgresStore(url)
    assert (f"was written by a later herzla (schema version 99; this herzla reads up to "
            f"{SCHEMA})") in str(info.value) and "\n" not in str(info.value)
    assert _sql(url, "SELECT version FROM schema_version") == [(99,)]  # nothing changed


def test_an_unreachable_server_is_one_line_without_the_password() -> None:
    import socket

    from herzla.web.postgres_store import PostgresStore, shown_url

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    bad = f"postgresql://herzla:secret-word@127.0.0.1:{port}/herzla"
    with pytest.raises(StoreError) as info:
        PostgresStore(bad)
    text = str(info.value)
    assert text.startswith(f"cannot connect to postgresql://herzla:***@127.0.0.1:{port}/herzla")
    assert "secret-word" not in text and "\n" not in text
    assert shown_url("postgresql://u@h/db") == "postgresql://u@h/db"


def test_serve_takes_a_postgres_url_and_herzla_db(url: str, monkeypatch: pytest.MonkeyPatch
                                                  ) -> None:
    from herzla.web import server
    from herzla.web.postgres_store import PostgresStore

    served: list[object] = []

    def serve(app: object, sock: object, *, ready: object = None, **how: object) -> None:
        served.append(app)
        sock.close()  # type: ignore[attr-defined]

    monkeypatch.setattr(server, "serve", serve)
    result = CliRunner().invoke(main, ["serve", "--port", "0", "--db", url])
    assert result.exit_code == 0, result.output
    monkeypatch.setenv("HERZLA_DB", url)
    result = CliRunner().invoke(main, ["serve", "--port", "0"])
    assert result.exit_code == 0, result.output
    stores = [a.extensions["herzla"].store for a in served]  # type: ignore[attr-defined]
    assert len(stores) == 2 and all(isinstance(s, PostgresStore) for s in stores)
    monkeypatch.setenv("HERZLA_DB", "postgresql://nobody:pw@127.0.0.1:1/none")
    result = CliRunner().invoke(main, ["serve", "--port", "0"])
    assert result.exit_code == 2 and result.stderr.startswith(
        "herzla: error: cannot connect to postgresql://nobody:***@127.0.0.1:1/none")
    assert len(result.stderr.splitlines()) == 1
