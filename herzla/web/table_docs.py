"""The tables against the computer the app keeps (nothing here knows the web framework): each
is a document of the store whose body is the table as :meth:`herzla.table.Table.to_json` keeps
it (the deal, the announcements and moves, the seed of the computer's choices, the evening of
the deals finished), so a restart loses nothing.  An action reads the table, works out the
computer's answer outside the store's lock and writes the new table at the revision it read:
when another browser wrote meanwhile, the write is refused (409) and nothing is lost."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from herzla.i18n import N_, _
from herzla.names import did_you_mean, find_name
from herzla.players.registry import builtin_of, policy_names
from herzla.quote import quote
from herzla.table import Table, TableError, new_table, position
from herzla.web.request_fields import fields_of
from herzla.web.store import Document, DocumentStore, Kind, StaleRevision, StoreFull

__all__ = ["NEW_KEYS", "TableRefused", "act", "answer", "check_policy", "create", "fresh",
           "read"]

#: the keys of a new table's body
NEW_KEYS = ("game", "contract", "players", "seat", "declarer", "opponents", "seed", "options",
            "stock", "dealer", "people", "away")
#: how often an action that no revision was named for is tried again when another write came
#: between its read and its write (another person's card, an ask for the next deal)
TRIES = 8


class TableRefused(TableError):
    """A table too many."""


def check_policy(name: object) -> str:
    """A policy as a request may name it: a built-in or installed policy's name alone (no
    parameters, which could make the computer take minutes a move, and no import path)."""
    names = policy_names()
    found = find_name(name, names) or (builtin_of(name) if isinstance(name, str) else None)
    if found is not None:
        return found
    hint = did_you_mean(name, names).removesuffix(" ")
    said = (_("opponents: {name} is no policy here ({hint}); name a policy: {names}") if hint
            else _("opponents: {name} is no policy here; name a policy: {names}"))
    raise TableError(said.format(name=quote(name), hint=hint, names=", ".join(names)))


#: the tables this process read last, by id: the revision and time they were written at, and
#: the table (immutable), so that the pages, polls and answers of one revision read it (and,
#: through :func:`herzla.table.position`, replay its hand) once
_READ: OrderedDict[str, tuple[tuple[int, float], Table]] = OrderedDict()
_READ_LOCK = threading.Lock()
#: the most tables :data:`_READ` keeps (each with its replayed hand: some tens of kilobytes)
KEEP_READ = 256


def read(doc: Document) -> Table:
    """The table a document holds (TableError: one that this herzla cannot read), to be read
    and drawn, never acted on: the same object for the same revision, read and replayed once
    (several requests may read it at once)."""
    written = (doc.revision, doc.updated)
    with _READ_LOCK:
        known = _READ.get(doc.id)
        if known is not None and known[0] == written:
            _READ.move_to_end(doc.id)
            return known[1]
    return _remember(doc, fresh(doc))


def fresh(doc: Document) -> Table:
    """The table a document holds, read anew for this request alone: an action (or the
    computer's thought, a hint) moves its position on."""
    return Table.from_json(doc.body)


def _remember(doc: Document, table: Table) -> Table:
    with _READ_LOCK:
        _READ[doc.id] = ((doc.revision, doc.updated), table)
        _READ.move_to_end(doc.id)
        while len(_READ) > KEEP_READ:
            _READ.popitem(last=False)
    return table


def answer(doc: Document, table: Table | None = None, seat: int | None = None,
           links: Callable[[int, str], str] | None = None,
           here: Mapping[int, tuple[bool, float | None]] | None = None,
           now: float = 0.0) -> dict[str, Any]:
    """What the API answers for a table (the Table app page of the docs), with its ``id`` and
    ``revision``, to the person in ``seat`` (None: the table's one person, or the creator of a
    table of people, who is also given each person's link: ``links(seat, key)``); ``here``: whether
    each person is away, and when the computer plays for them (:mod:`herzla.web.away`),
    said in each person's entry as ``away`` and ``plays_in`` (seconds from ``now``)."""
    t = table if table is not None else read(doc)
    out = {"id": doc.id, **position(t).to_dict(seat), "revision": doc.revision}
    if t.of_people:
        out["away_after"] = t.away
        for p in out["people"]:
            away, at = (here or {}).get(p["seat"], (False, None))
            p["away"] = away
            p["plays_in"] = None if at is None else max(0, round(at - now))
    if t.of_people and seat is None and links is not None:
        out["seats"] = [{"seat": p.seat, "name": t.players[p.seat], "key": p.key,
                         "url": links(p.seat, p.key), "left": p.left, "named": p.named}
                        for p in t.people]
    return out


def create(store: DocumentStore, body: object, *, most: int) -> tuple[Document, Table]:
    """A new table from ``{"game", "contract"?, "players"?, "seat"?, "declarer"?,
    "opponents"?, "seed"?, "options"?, "stock"?, "dealer"?}`` (TableRefused when the store keeps
    ``most`` tables already)."""
    body = fields_of(body, NEW_KEYS, what=N_("a new table"), error=TableError)
    if not isinstance(body.get("game"), str):
        raise TableError(_('a new table needs its game, as a text: "game": "herzla"'))
    args = {k: v for k, v in body.items() if v is not None}
    args["opponents"] = check_policy(args.get("opponents", "expert"))
    if store.count(Kind.TABLE) >= most:  # before the deal is made (again when stored)
        raise TableRefused(str(StoreFull(Kind.TABLE, most)))
    table = new_table(args.pop("game"), args.pop("contract", None), **args)
    try:
        return store.create(Kind.TABLE, table.to_json(), most=most), table
    except StoreFull as exc:
        raise TableRefused(str(exc)) from None


def act(store: DocumentStore, doc_id: str, how: Callable[[Table], Table],
        revision: int | None) -> tuple[Document, Table]:
    """The table after ``how`` (the person's move, undo, the next deal), written at the
    revision read (StaleRevision when ``revision`` is given and is not the table's, or
    another write came between; with no ``revision`` named, the action is made again on the
    table as it is then, so two people's requests that cross are both answered)."""
    for attempt in range(TRIES):
        doc = store.get(Kind.TABLE, doc_id)
        if revision is not None and revision != doc.revision:
            raise StaleRevision(Kind.TABLE, doc.revision, revision)
        table = how(fresh(doc))
        try:
            done = store.update(Kind.TABLE, doc_id, table.to_json(), doc.revision)
        except StaleRevision:
            if revision is not None or attempt == TRIES - 1:
                raise
            continue
        # the pages of the new revision read this table, its position moved on: no replay
        return done, _remember(done, table)
    raise AssertionError("unreachable")

