"""Who is asking at a table of people: each person's seat has a private key, carried by the link
the table's creator shares (``/tables/{id}?key=KEY``) and by every address that page uses, or
sent to the API as ``Authorization: Bearer KEY``.  A request with a seat's key sees that seat's
hand and plays it, and nothing else; once the seat's person has left (the computer plays it),
the key opens nothing (403), and a person sitting down there again gets a new one; one without
a key, at a table of people, is the table's creator's (who sees the seats' links, no hand, and
decides when the computer takes over a seat).

Where the server's token is in force, a seat's key stands in for it, on its own table's pages
and calls alone (:func:`admits`): a person given a seat's link reaches nothing else of the app.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import attrs
from flask import g, request

from herzla.i18n import _
from herzla.table import Table
from herzla.web.errors import ApiError
from herzla.web.store import Document, DocumentStore, Kind, NotFound, StoreError

__all__ = ["KEY_PARAM", "Viewer", "act_as", "admits", "bearer", "creator_only", "key_given",
           "viewer_of"]

#: the parameter of an address that carries a seat's key
KEY_PARAM = "key"
_TABLE_PATH = re.compile(r"^/(?:api/)?tables/([A-Za-z0-9_-]{1,64})(?:/[a-z]+)?$")


def key_given() -> str | None:
    """The seat key the request carries (``?key=``, else a bearer that is not the server's
    token), or None."""
    key = request.args.get(KEY_PARAM)
    if key is None and not g.get("by_token"):
        key = bearer()
    if key is not None and not 0 < len(key) <= 200:
        raise ApiError(403, _("this seat key is not one of this table's"))
    return key


def admits(store: DocumentStore, path: str) -> bool:
    """True when the request carries the key of a seat of the table ``path`` names (a page
    or call of that table, and nothing else)."""
    found = _TABLE_PATH.match(path)
    key = request.args.get(KEY_PARAM) or bearer()
    if found is None or not key or len(key) > 200:
        return False
    try:
        doc = store.get(Kind.TABLE, found.group(1))
        table = Table.from_json(doc.body)
    except (NotFound, StoreError, ValueError):
        return False
    if table.person_of(key) is None:
        return False
    g.by_key = True
    return True


def bearer() -> str | None:
    """What ``Authorization: Bearer VALUE`` carries (the server's token or a seat's key), or
    None."""
    head = request.headers.get("Authorization", "")
    scheme, _, value = head.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


@attrs.frozen(slots=True)
class Viewer:
    """Who is asking at a table: the ``seat`` whose hand they see and play (None: the table's
    creator, at a table of people), and the ``key`` they came with (None: none)."""

    seat: int | None
    key: str | None = attrs.field(default=None, repr=False)

    @property
    def creator(self) -> bool:
        return self.key is None

    def query(self) -> dict[str, str]:
        """What an address of the table must carry for this viewer (the key)."""
        return {KEY_PARAM: self.key} if self.key is not None else {}


def viewer_of(table: Table) -> Viewer:
    """Who asks at ``table``: the seat of the key the request carries (403 for a key that is
    no seat's of this table), else the creator (a table of people) or the table's one
    person."""
    key = key_given()
    if key is not None:
        person = table.person_of(key)
        if person is None:
            g.wrong_key = True  # counted against the client's tries (herzla.web.limits)
            raise ApiError(403, _("this seat key is not one of this table's: open the link "
                                  "of your own seat"))
        if person.left:
            raise ApiError(403, _("this link no longer opens {name}'s seat: the computer has "
                                  "played it since its person left; ask the table's creator "
                                  "for a new link").format(name=table.players[person.seat]))
        return Viewer(person.seat, key)
    return Viewer(None if table.of_people else table.seat)


def creator_only(viewer: Viewer, what: str) -> None:
    """403 unless the table's creator asks (no seat key); ``what`` says so ("only the table's
    creator may ...")."""
    if not viewer.creator:
        raise ApiError(403, what)


def act_as(doc_id: str, how: Callable[[Table, Viewer], Table], revision: int | None
           ) -> tuple[Document, Table, Viewer]:
    """The table after ``how``, made as the one who asks (:func:`viewer_of`, read again with
    the table each time the action is tried): the table's document, the table and the viewer."""
    from herzla.web import table_docs
    from herzla.web.config import state

    seen: list[Viewer] = []

    def acting(table: Table) -> Table:
        seen[:] = [viewer_of(table)]
        return how(table, seen[0])

    doc, table = table_docs.act(state().store, doc_id, acting, revision)
    return doc, table, seen[0]
