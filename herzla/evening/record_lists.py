"""The one reader of a list of hand records (a partie, a session, a match): every command and
library function that takes a JSON list of records (``replay``, ``show``, ``solve``,
``review``, the score sheets) reads it here, so they all read it alike.

The list is read as an evening of record entries: the records must agree on the game, the
number of players and the options; the stock is carried from record to record (a record after
the first may leave ``stock`` out, and one that gives it must give the stock carried); a
partie's deals come in its order, each dealt by the seat its rotation names; a match ends where
the game says.  Where a record says who dealt a partie's first deal (in a game without a
partie: each hand), it stands.  People count the records from 1, as the messages do.

>>> read_session([])
Traceback (most recent call last):
...
herzla.evening.errors.EveningError: a partie or session is a non-empty JSON list of hand records
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from herzla.evening.entry import Entry
from herzla.evening.errors import EveningError
from herzla.evening.model import Evening
from herzla.evening.run import Run, Sitting
from herzla.i18n import _
from herzla.options import OptionError, resolve_options
from herzla.records import Record

__all__ = ["read_session"]


def read_session(raw: Sequence[Any]) -> Evening:
    """The evening a JSON list of hand records (parsed JSON objects, or :class:`Record`) forms:
    its :attr:`~herzla.evening.Evening.deals` score each record with the stock carried in, and
    :meth:`~herzla.evening.Evening.records` gives them back as they were scored.
    EveningError (a :class:`~herzla.records.RecordError`) names the first record that does not
    fit."""
    if isinstance(raw, str | bytes) or not isinstance(raw, Sequence) or not raw:
        raise EveningError(_("a partie or session is a non-empty JSON list of hand records"))
    run: Run | None = None
    first: Record | None = None
    for i, obj in enumerate(raw):
        k = i + 1
        try:
            entry = Entry.of_record(obj)
        except EveningError as exc:
            raise EveningError(_("record {k}: {value}").format(
                k=k, value=str(exc).removeprefix('record: '))) from None
        assert entry.record is not None
        rec = entry.record
        if first is None:
            first = rec
            n = rec.players
            table = Sitting.of(rec.game, tuple(f"seat {s}" for s in range(n)),
                               dict(rec.options), rec.stock if rec.contract.has_stock else 0,
                               rec.dealer, sheet=True)
            run = Run(table)
        assert run is not None
        if (rec.game, rec.players) != (first.game, first.players):
            raise EveningError(_("record {k} is {game} with {players} players; the "
                                 "sheet is {game2} with {players2}").format(
                k=k, game=rec.game, players=rec.players, game2=first.game, players2=first.players))
        try:
            same = rec.contract.opts == resolve_options(type(rec.contract).options,
                                                        first.options)
        except OptionError:
            same = False
        if not same:
            raise EveningError(_("record {k} has other options than record 1").format(k=k))
        if run.stock is not None and entry.stock is not None and entry.stock != run.stock:
            raise EveningError(_("record {k} says the stock is {stock}c, but the session "
                                 "carries {stock2}c").format(
                k=k, stock=entry.stock, stock2=run.stock))
        # a record says who dealt it, whether or not it wrote the dealer (the last seat)
        entry = Entry(record=rec, record_keys=entry.record_keys | {"dealer"})
        run.push(entry)
    assert run is not None and first is not None
    t = run.table
    return Evening._made(t.game, t.players, t.options, t.stock, t.dealer,
                         [d.entry for d in run.deals], (), 0, True, run.deals)
