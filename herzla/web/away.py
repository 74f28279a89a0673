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

__all__ = ["GRACE", "TOUCH_EVERY", "Presence", "catch_up", "due", "presence", "presence_of",
           "seen_now", "visit", "who"]

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
    return presence_of(table.humans, table.away, seen, now)


def presence_of(humans: frozenset[int], after: int, seen: dict[str, float],
                now: float | None = None) -> Presence:
    """:func:`presence` of a table whose people sit in ``humans`` and may be away ``after``
    seconds."""
    now = time.time() if now is None else now
    out: Presence = {}
    for seat in sorted(humans):
        last = seen.get(who(seat))
        if last is None or now - last <= GRACE:
            out[seat] = (False, None)
        else:
            out[seat] = (True, last + GRACE + after if after > 0 else None)
    return out


def due(here: Presence, now: float) -> frozenset[int]:
    """The seats the computer plays for now."""
    return frozenset(s for s, (_, at) in here.items() if at is not None and at <= now)


def catch_up(store: DocumentStore, doc: Document, table: Table,
             now: float | None = None) -> tuple[Document, Table, Presence]:
    """The table after the computer's moves for the away seats that are due (if any is to
    move, or the next deal waits for them alone), with each seat's presence."""
    now = time.time() if now is None else now
    here = presence(table, store.seen(Kind.TABLE, doc.id), now)
    gone = due(here, now)
    if not gone or not _to_play(doc, table, gone):
        return doc, table, here
    try:
        doc, table = table_docs.act(store, doc.id, lambda t: stand_in(t, gone), doc.revision)
    except (StaleRevision, TableError):  # another request did it (or the table moved on)
        doc = store.get(Kind.TABLE, doc.id)
        table = table_docs.read(doc)
    return doc, table, here


#: the seats a revision of a table waits for (doc id -> its revision, whose move it is or,
#: the hand over, the people not yet asking for the next deal): so the polls of the others
#: while someone is played for replay the hand once a revision, not once a poll
_waits: dict[str, tuple[int, frozenset[int]]] = {}


def _to_play(doc: Document, table: Table, gone: frozenset[int]) -> bool:
    """Whether the table waits for a seat in ``gone`` alone (then the computer plays it)."""
    known = _waits.get(doc.id)
    if known is None or known[0] != doc.revision:
        pos = position(table)
        waiting = (table.humans - table.asked if pos.over
                   else frozenset() if pos.to_move is None else frozenset({pos.to_move}))
        with _lock:
            if len(_waits) > 50_000:
                _waits.clear()
            _waits[doc.id] = known = (doc.revision, waiting)
    return bool(known[1]) and known[1] <= gone


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
