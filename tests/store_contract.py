"""The store's contract: what every backend of :class:`herzla.web.documents.DocumentStore`
must do, written against the protocol alone.  A backend's test module imports these tests and
gives the fixture ``new_store``: a function answering a store over one fresh storage, each call
a new handle on the same storage (two servers on one database)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from herzla.web.documents import (
    MAX_DOCUMENT,
    DocumentStore,
    DocumentTooLarge,
    Kind,
    NotFound,
    StaleRevision,
    StoreFull,
)

NewStore = Callable[[], DocumentStore]

__all__ = ["NewStore", "test_a_change_that_fails_writes_nothing",
           "test_a_limit_holds_for_creations_from_two_handles",
           "test_a_stale_write_is_refused_and_changes_nothing",
           "test_documents_keep_their_body_and_grow_a_revision",
           "test_every_backend_is_a_document_store", "test_hostile_ids_and_bodies",
           "test_the_kinds_are_apart_and_listed_last_written_first",
           "test_two_handles_see_each_others_writes", "test_writers_in_threads_lose_nothing",
           "test_presence_is_kept_beside_a_document"]


def test_every_backend_is_a_document_store(new_store: NewStore) -> None:
    store = new_store()
    assert isinstance(store, DocumentStore) and store.where


def test_documents_keep_their_body_and_grow_a_revision(new_store: NewStore) -> None:
    store = new_store()
    body = {"game": "herzla", "players": ["Anna", "Jürgen"], "deals": [{"hearts": [0, 3]}]}
    doc = store.create(Kind.EVENING, body)
    assert doc.revision == 1 and doc.created == doc.updated and doc.body == body
    got = store.get(Kind.EVENING, doc.id)
    assert got == doc and got.to_dict() == {**body, "id": doc.id, "revision": 1}
    changed = store.update(Kind.EVENING, doc.id, {**body, "game": "herzeln"}, revision=1)
    assert changed.revision == 2 and changed.created == doc.created
    assert store.revision(Kind.EVENING, doc.id) == 2
    with pytest.raises(NotFound):
        store.revision(Kind.TABLE, doc.id)
    assert store.get(Kind.EVENING, doc.id).body["game"] == "herzeln"
    store.delete(Kind.EVENING, doc.id, revision=2)
    with pytest.raises(NotFound):
        store.get(Kind.EVENING, doc.id)
    assert store.count(Kind.EVENING) == 0


def test_a_stale_write_is_refused_and_changes_nothing(new_store: NewStore) -> None:
    store = new_store()
    doc = store.create(Kind.TABLE, {"n": 1})
    store.update(Kind.TABLE, doc.id, {"n": 2}, revision=1)
    for write in (lambda: store.update(Kind.TABLE, doc.id, {"n": 3}, revision=1),
                  lambda: store.modify(Kind.TABLE, doc.id, lambda b: {"n": 4}, revision=1),
                  lambda: store.delete(Kind.TABLE, doc.id, revision=1)):
        with pytest.raises(StaleRevision) as info:
            write()
        assert info.value.current == 2 and "changed meanwhile (revision 2, not 1)" in str(
            info.value)
    assert store.get(Kind.TABLE, doc.id).body == {"n": 2}


def test_a_change_that_fails_writes_nothing(new_store: NewStore) -> None:
    store = new_store()
    doc = store.create(Kind.EVENING, {"deals": []})

    def broken(body: Any) -> Any:
        raise ValueError("no such deal")

    with pytest.raises(ValueError, match="no such deal"):
        store.modify(Kind.EVENING, doc.id, broken)
    with pytest.raises(DocumentTooLarge):
        store.modify(Kind.EVENING, doc.id, lambda b: {"big": "x" * MAX_DOCUMENT})
    assert store.get(Kind.EVENING, doc.id) == doc


def test_the_kinds_are_apart_and_listed_last_written_first(new_store: NewStore) -> None:
    store = new_store()
    first = store.create(Kind.EVENING, {"k": 1})
    second = store.create(Kind.EVENING, {"k": 2})
    table = store.create(Kind.TABLE, {"k": 3})
    with pytest.raises(NotFound):
        store.get(Kind.TABLE, first.id)
    store.update(Kind.EVENING, first.id, {"k": 1.5}, revision=1)
    assert [d.id for d in store.list(Kind.EVENING)] == [first.id, second.id]
    assert [d.id for d in store.list(Kind.EVENING, limit=1, offset=1)] == [second.id]
    assert [d.id for d in store.list(Kind.TABLE)] == [table.id]
    assert (store.count(Kind.EVENING), store.count(Kind.TABLE)) == (2, 1)


def test_hostile_ids_and_bodies(new_store: NewStore) -> None:
    store = new_store()
    for bad in ("", "x" * 33, "../etc", "a' OR '1'='1", "\x00", 7):
        with pytest.raises(NotFound):
            store.get(Kind.EVENING, bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        store.create(Kind.EVENING, ["not", "an", "object"])  # type: ignore[arg-type]
    with pytest.raises(DocumentTooLarge):
        store.create(Kind.EVENING, {"big": "x" * MAX_DOCUMENT})
    assert store.count(Kind.EVENING) == 0


def test_two_handles_see_each_others_writes(new_store: NewStore) -> None:
    one, two = new_store(), new_store()
    doc = one.create(Kind.EVENING, {"k": 1})
    assert two.get(Kind.EVENING, doc.id).body == {"k": 1}
    two.update(Kind.EVENING, doc.id, {"k": 2}, revision=1)
    with pytest.raises(StaleRevision):
        one.update(Kind.EVENING, doc.id, {"k": 3}, revision=1)
    assert one.get(Kind.EVENING, doc.id).revision == 2


def test_writers_in_threads_lose_nothing(new_store: NewStore) -> None:
    store = new_store()
    doc = store.create(Kind.EVENING, {"deals": []})

    def add(i: int) -> None:
        for j in range(5):
            def change(body: Any, j: int = j) -> dict[str, Any]:
                return {"deals": [*body["deals"], [i, j]]}

            store.modify(Kind.EVENING, doc.id, change)

    threads = [threading.Thread(target=add, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    got = store.get(Kind.EVENING, doc.id)
    assert got.revision == 21 and len(got.body["deals"]) == 20


def test_a_limit_holds_for_creations_from_two_handles(new_store: NewStore) -> None:
    handles = [new_store(), new_store()]
    made: list[str] = []
    full: list[int] = []

    def create(i: int) -> None:
        try:
            made.append(handles[i % 2].create(Kind.TABLE, {"i": i}, most=3).id)
        except StoreFull as exc:
            full.append(exc.most)

    threads = [threading.Thread(target=create, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(made) == 3 and full == [3] * 7 and handles[0].count(Kind.TABLE) == 3
    with pytest.raises(StoreFull, match="the app keeps at most 3 tables: delete one first"):
        handles[1].create(Kind.TABLE, {}, most=3)


def test_presence_is_kept_beside_a_document(new_store: NewStore) -> None:
    one, two = new_store(), new_store()
    doc = one.create(Kind.TABLE, {"n": 1})
    assert one.seen(Kind.TABLE, doc.id) == {}
    one.touch(Kind.TABLE, doc.id, "seat-0", 100.0)
    two.touch(Kind.TABLE, doc.id, "seat-1", 200.0)
    two.touch(Kind.TABLE, doc.id, "seat-0", 50.0)  # an older sighting changes nothing
    one.touch(Kind.TABLE, doc.id, "seat-1", 300.0)
    assert two.seen(Kind.TABLE, doc.id) == {"seat-0": 100.0, "seat-1": 300.0}
    assert one.seen(Kind.EVENING, doc.id) == {}
    assert one.revision(Kind.TABLE, doc.id) == 1  # never a change of the document
    with pytest.raises(NotFound):
        one.touch(Kind.TABLE, "../x", "seat-0", 1.0)
    one.delete(Kind.TABLE, doc.id)
    assert two.seen(Kind.TABLE, doc.id) == {}
