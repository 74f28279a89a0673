"""The table app's store (herzla.web.store, the standard library's sqlite3 only): revisions,
two writers, migrations, files it must refuse.  No web framework needed: in the default set."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from herzla.web.store import (
    MAX_DOCUMENT,
    SCHEMA,
    DocumentTooLarge,
    Kind,
    NotFound,
    StaleRevision,
    Store,
    StoreError,
    default_path,
)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "herzla.db"


def test_documents_keep_their_body_and_grow_a_revision(db: Path) -> None:
    store = Store(db)
    doc = store.create(Kind.EVENING, {"game": "herzla", "players": ["Anna", "Berni"]})
    assert (doc.revision, store.get(Kind.EVENING, doc.id).body) == (
        1, {"game": "herzla", "players": ["Anna", "Berni"]})
    new = store.update(Kind.EVENING, doc.id, {"game": "herzla", "players": ["Anna"]}, 1)
    assert new.revision == 2 and new.created == doc.created and new.updated >= doc.updated
    assert store.get(Kind.EVENING, doc.id).body["players"] == ["Anna"]
    # a table is another kind: its ids are not an evening's
    table = store.create(Kind.TABLE, {"game": "herzeln"})
    with pytest.raises(NotFound):
        store.get(Kind.EVENING, table.id)
    assert [d.id for d in store.list(Kind.TABLE)] == [table.id]
    assert store.count(Kind.EVENING) == 1
    assert new.to_dict() == {"game": "herzla", "players": ["Anna"], "id": doc.id,
                             "revision": 2}


def test_a_stale_write_is_refused_and_changes_nothing(db: Path) -> None:
    store = Store(db)
    doc = store.create(Kind.EVENING, {"deals": []})
    store.update(Kind.EVENING, doc.id, {"deals": [1]}, revision=1)
    with pytest.raises(StaleRevision) as info:
        store.update(Kind.EVENING, doc.id, {"deals": [2]}, revision=1)
    assert info.value.current == 2
    assert str(info.value) == ("this evening was changed meanwhile (revision 2, not 1): "
                               "reload it")
    assert store.get(Kind.EVENING, doc.id).body == {"deals": [1]}
    with pytest.raises(StaleRevision):
        store.delete(Kind.EVENING, doc.id, revision=1)
    store.delete(Kind.EVENING, doc.id, revision=2)
    with pytest.raises(NotFound):
        store.get(Kind.EVENING, doc.id)


def test_a_change_that_fails_writes_nothing(db: Path) -> None:
    store = Store(db)
    doc = store.create(Kind.EVENING, {"deals": [1]})

    def bad(body: dict[str, list[int]]) -> dict[str, list[int]]:
        raise ValueError("a deal that does not add up")

    with pytest.raises(ValueError, match="does not add up"):
        store.modify(Kind.EVENING, doc.id, bad)
    again = store.get(Kind.EVENING, doc.id)
    assert (again.revision, again.body) == (1, {"deals": [1]})


def test_two_connections_with_one_revision_one_wins(db: Path) -> None:
    """Two browsers (two stores: two connections, as two processes have) read revision 1 and
    both write: the second write is refused, the first is kept."""
    first, second = Store(db), Store(db)
    doc = first.create(Kind.EVENING, {"who": None})
    seen = second.get(Kind.EVENING, doc.id)
    first.update(Kind.EVENING, doc.id, {"who": "first"}, revision=seen.revision)
    with pytest.raises(StaleRevision):
        second.update(Kind.EVENING, doc.id, {"who": "second"}, revision=seen.revision)
    assert second.get(Kind.EVENING, doc.id).body == {"who": "first"}


def test_writers_in_threads_lose_nothing(db: Path) -> None:
    """Four threads, each with its own store on the one file, add 25 deals each to one evening
    by read-change-write: all 100 are there, each once, and the revision counts them."""
    doc = Store(db).create(Kind.EVENING, {"deals": []})
    errors: list[BaseException] = []

    def add(who: int) -> None:
        store = Store(db)
        try:
            for k in range(25):
                def change(body: dict[str, Any], k: int = k) -> dict[str, Any]:
                    return {"deals": [*body["deals"], [who, k]]}

                store.modify(Kind.EVENING, doc.id, change)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=add, args=(w,)) for w in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    final = Store(db).get(Kind.EVENING, doc.id)
    assert sorted(map(tuple, final.body["deals"])) == [(w, k) for w in range(4)
                                                       for k in range(25)]
    assert final.revision == 101


def test_the_file_is_in_wal_mode_and_survives_a_reopening(db: Path) -> None:
    doc = Store(db).create(Kind.TABLE, {"seat": 0})
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert Store(db).get(Kind.TABLE, doc.id).body == {"seat": 0}


def test_an_older_schema_is_migrated_keeping_its_documents(db: Path) -> None:
    old = Store(db, upto=1)  # a file as the first schema made it: evenings only
    assert old.version() == 1
    with sqlite3.connect(db) as con:
        names = {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
    assert "evenings" in names and "tables" not in names
    doc = old.create(Kind.EVENING, {"game": "herzla"})
    store = Store(db)
    assert (store.version_found, store.version()) == (1, SCHEMA)
    assert store.get(Kind.EVENING, doc.id).body == {"game": "herzla"}
    assert store.create(Kind.TABLE, {"game": "herzla"}).revision == 1
    assert Store(db).version_found == SCHEMA  # migrated once


def test_a_newer_schema_is_refused_in_one_line(db: Path) -> None:
    Store(db)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE schema_version SET version = ?", (SCHEMA + 1,))
    with pytest.raises(StoreError) as info:
        Store(db)
    message = str(info.value)
    assert "\n" not in message
    assert message == (f"{db} was written by a later herzla (schema version {SCHEMA + 1}; this "
                       f"herzla reads up to {SCHEMA}): upgrade herzla")


def test_files_that_are_not_herzlas_are_refused(tmp_path: Path) -> None:
    text = tmp_path / "notes.db"
    text.write_text("not a database at all, just some words " * 100)
    with pytest.raises(StoreError, match="is not a herzla database"):
        Store(text)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE photos (id INTEGER)")
    with pytest.raises(StoreError, match="but not herzla's"):
        Store(other)
    with pytest.raises(StoreError, match="is a folder"):
        Store(tmp_path)
    blocked = tmp_path / "file"
    blocked.write_text("x")
    with pytest.raises(StoreError, match="cannot make the folder"):
        Store(blocked / "sub" / "herzla.db")


def test_hostile_ids_and_bodies(db: Path) -> None:
    store = Store(db)
    for bad in ("", "x" * 100, "a'; DROP TABLE evenings; --", "../../etc", "\u2028"):
        with pytest.raises(NotFound):
            store.get(Kind.EVENING, bad)
    with pytest.raises(DocumentTooLarge):
        store.create(Kind.EVENING, {"pad": "x" * (MAX_DOCUMENT + 1)})
    with pytest.raises(TypeError):
        store.create(Kind.EVENING, ["not", "an", "object"])  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        store.create(Kind.EVENING, {"nan": float("nan")})
    names = {"players": ["<script>alert(1)</script>", "Zoë \u2028", "\"quoted\""]}
    doc = store.create(Kind.EVENING, names)
    assert store.get(Kind.EVENING, doc.id).body == names
    assert store.count(Kind.EVENING) == 1


def test_the_default_file_is_in_the_users_data_folder(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "herzla" / "herzla.db"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_path() == tmp_path / ".local" / "share" / "herzla" / "herzla.db"


def test_bodies_are_json_text_in_the_file(db: Path) -> None:
    """A person (or another program) reading the file finds the documents as JSON text."""
    doc = Store(db).create(Kind.EVENING, {"game": "herzla", "players": ["Anna"]})
    with sqlite3.connect(db) as con:
        body, revision = con.execute("SELECT body, revision FROM evenings WHERE id = ?",
                                     (doc.id,)).fetchone()
    assert json.loads(body) == {"game": "herzla", "players": ["Anna"]} and revision == 1
