"""Away and back at a table of people: each person's page is *seen* while it asks for the
table (its poll every second, any page or call with the seat's key), noted in the store beside
the table (:meth:`~herzla.web.documents.DocumentStore.touch`, at most every
:data:`TOUCH_EVERY` seconds from one process, never a change of the table).  A page not seen
for :data:`GRACE` seconds is *away* (a phone asleep, a lost connection, a closed tab): the
others' pages say so, with a countdown of the table's ``away`` seconds (the creator's choice,
default two minutes); once it runs out, the computer plays that seat whenever it is to move
(:func:`herzla.table.actions.stand_in`; its cards are marked in the deal), until the person's
page is seen again, which plays on from the table as it stands.

The computer's moves for an away seat are made by the request that finds them due (any page's
poll at the table), written at the revision read: two processes finding them due at once
write them once.  Nothing here knows the web framework."""

from __future__ import annotations

import threading
import time

from herzla.table import Table, TableError, position
from herzla.table.actions import stand_in
from herzla.web import table_docs
from herzla.web.store import Document, DocumentStore, Kind, StaleRevision, StoreError

__all__ = ["GRACE", "TOUCH_EVERY", "Presence", "catch_up", "presence", "seen_now", "visit",
           "who"]

#: the seconds a page may go unseen before its person counts as away (pages ask every second)
GRACE = 10.0

#: the least seconds between two notes of one page being seen, from one process
TOUCH_EVERY = 3.0

_noted: dict[tuple[str, int], float] = {}
_lock = threading.Lock()

#: what :func:`presence` answers: seat -> (away, the time the computer plays for them or None)
Presence = dict[int, tuple[bool, float | None]]


def who(seat: int) -> str:
    """The name a seat's page is seen under."""
    return f"seat-{seat}"


def seen_now(store: DocumentStore, doc_id: str, seat: int, now: float | None = None) -> None:
    """Note that the page of ``seat`` asked for table ``doc_id`` now (at most every
    :data:`TOUCH_EVERY` seconds from this process)."""
    now = time.time() if now is None else now
    with _lock:
        if now - _noted.get((doc_id, seat), -1e18) < TOUCH_EVERY:
            return
        _noted[(doc_id, seat)] = now
        if len(_noted) > 50_000:  # forget the old notes (a long-running server)
            for key in [k for k, v in _noted.items() if now - v > GRACE]:
                del _noted[key]
    try:
        store.touch(Kind.TABLE, doc_id, who(seat), now)
    except StoreError:  # a sighting is worth no error to the person
        with _lock:
            _noted.pop((doc_id, seat), None)


def presence(table: Table, seen: dict[str, float], now: float | None = None) -> Presence:
    """Each person's seat of ``table``: whether they are away, and when the computer plays for
    them (None: not away, or the table never plays for them).  A seat whose page was never
    seen is not away (its person has not come yet)."""
    now = time.time() if now is None else now
    out: Presence = {}
    for seat in sorted(table.humans):
        last = seen.get(who(seat))
        if last is None or now - last <= GRACE:
            out[seat] = (False, None)
        else:
            out[seat] = (True, last + GRACE + table.away if table.away > 0 else None)
    return out


def catch_up(store: DocumentStore, doc: Document, table: Table,
             now: float | None = None) -> tuple[Document, Table, Presence]:
    """The table after the computer's moves for the away seats that are due (if any is to
    move, or the next deal waits for them alone), with each seat's presence."""
    now = time.time() if now is None else now
    here = presence(table, store.seen(Kind.TABLE, doc.id), now)
    due = frozenset(s for s, (_, at) in here.items() if at is not None and at <= now)
    if not due:
        return doc, table, here
    pos = position(table)
    waiting = table.humans - table.asked
    if not (pos.to_move in due or (pos.over and waiting and waiting <= due)):
        return doc, table, here
    try:
        doc, table = table_docs.act(store, doc.id, lambda t: stand_in(t, due), doc.revision)
    except (StaleRevision, TableError):  # another request did it (or the table moved on)
        doc = store.get(Kind.TABLE, doc.id)
        table = table_docs.read(doc)
    return doc, table, here


def visit(store: DocumentStore, doc: Document, table: Table, seat: int | None, now: float
          ) -> tuple[Document, Table, Presence | None]:
    """A page or call of ``table`` asked by ``seat`` (None: the creator, or a table of one
    person): at a table of people the seat is seen, and the computer plays for who is away too
    long (:func:`catch_up`); the table then, and each person's presence (None: one person)."""
    if not table.of_people:
        return doc, table, None
    if seat is not None:
        seen_now(store, doc.id, seat, now)
    return catch_up(store, doc, table, now)
