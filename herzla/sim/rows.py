"""One row a hand (a partie, an evening): what ``herzla simulate --rows FILE`` writes and
``SimResult.to_frame()`` gives.

A task of the runner turns each block it plays into a :class:`RowBlock` (:func:`hand_rows`,
:func:`partie_rows`, :func:`evening_rows`); the runner hands them on in block order, so the rows
are the same whatever the number of processes.  A :class:`RowSpool` keeps them (in a temporary
file, so memory stays flat) and writes them out at the end, when the events that happened, one
column each, are known:

- ``hand``: 0-based, in seed order (with ``--partie`` the partie, with ``--session`` the evening);
- ``contract``: the contract played (``partie`` or ``evening`` for a row of a whole one);
- ``declarer``: the declarer's seat, empty for a contract without one;
- ``score_0`` ... ``score_{n-1}``: the seats' scores (a partie's or an evening's totals);
- ``stock_before``, ``stock_after``: the stock before and after (an evening: at its start and
  end; empty in a game without a stock);
- ``win_0`` ... (parties and evenings): 1 for each seat with the best total (ties share);
- one column per event that happened in the run, sorted: 1 if it happened in the hand, else 0
  (a partie's events are named ``deal/event``, as in ``--json``; an evening's count the deals
  of the evening it happened in).

>>> import sys
>>> from herzla.sim.api import simulate
>>> res = simulate("herzla", "normal", hands=3, seed=1, jobs=1, rows=True)
>>> res.rows.write(sys.stdout, "csv")
hand,contract,declarer,score_0,score_1,score_2,score_3,stock_before,stock_after,one-void,two-void
0,normal,,-60,40,40,-20,0,0,0,1
1,normal,,-20,-20,80,-40,0,0,1,0
2,normal,,40,40,-40,-40,0,0,0,1
"""

from __future__ import annotations

import csv
import io
import json
import pickle
import tempfile
import weakref
from collections.abc import Iterator, Mapping, Sequence
from typing import IO, Any

import attrs
import numpy as np
import numpy.typing as npt

from herzla.i18n import _
from herzla.quote import quote
from herzla.sim.plan import Plan
from herzla.sim.spec import BlockResult

__all__ = ["ROW_FORMATS", "RowBlock", "RowSpool", "evening_rows", "hand_rows", "partie_rows",
           "row_format"]

#: the formats a row file is written in, and the suffixes that choose each
ROW_FORMATS: Mapping[str, tuple[str, ...]] = {
    "csv": (".csv",),
    "jsonl": (".jsonl", ".ndjson"),
    "parquet": (".parquet", ".pq"),
}

Ints = npt.NDArray[np.int64]


@attrs.frozen(slots=True, eq=False)
class RowBlock:
    """Consecutive rows: ``first`` is the first row's ``hand``; ``contract`` each row's
    contract; ``declarer`` each row's declarer (-1: none) or None for none at all; ``scores``
    (rows x seats); ``stock`` (before, after) or None; ``wins`` (rows x seats) or None;
    ``events`` per event its column (0/1, or counts for evenings)."""

    first: int
    contract: tuple[str, ...] | str
    declarer: npt.NDArray[np.int64] | None
    scores: Ints
    stock: tuple[Ints, Ints] | None
    wins: npt.NDArray[np.bool_] | None
    events: Mapping[str, Ints]

    @property
    def size(self) -> int:
        return int(self.scores.shape[0])

    def columns(self, event_names: Sequence[str]) -> dict[str, list[Any]]:
        """Every column as a list of Python values (None where empty), the events in
        ``event_names`` (0 for one this block did not see)."""
        n, P = self.scores.shape
        out: dict[str, list[Any]] = {"hand": list(range(self.first, self.first + n))}
        out["contract"] = ([self.contract] * n if isinstance(self.contract, str)
                           else list(self.contract))
        out["declarer"] = ([None] * n if self.declarer is None else
                           [None if d < 0 else d for d in self.declarer.tolist()])
        for s in range(P):
            out[f"score_{s}"] = self.scores[:, s].tolist()
        if self.stock is None:
            out["stock_before"] = out["stock_after"] = [None] * n
        else:
            out["stock_before"], out["stock_after"] = (x.tolist() for x in self.stock)
        if self.wins is not None:
            for s in range(P):
                out[f"win_{s}"] = self.wins[:, s].astype(np.int64).tolist()
        for name in event_names:
            col = self.events.get(name)
            out[name] = [0] * n if col is None else col.tolist()
        return out


def _events(hits: Mapping[str, npt.NDArray[np.bool_]], prefix: str = "") -> dict[str, Ints]:
    return {prefix + k: v.astype(np.int64) for k, v in hits.items()}


def hand_rows(plan: Plan, first: int, res: BlockResult,
              stock_before: Ints | int | None) -> RowBlock:
    """The rows of a block of single hands (one contract, or the bidding's)."""
    spec = plan.specs[0]
    n = res.scores.shape[0]
    if res.contracts is not None:
        names = plan.contract_names
        contract: tuple[str, ...] | str = tuple(names[c] for c in res.contracts.tolist())
    else:
        contract = spec.contract.id
    declarer = None
    if res.declarers is not None:
        declarer = res.declarers.astype(np.int64)
    elif spec.declarer is not None:
        declarer = np.full(n, spec.declarer, dtype=np.int64)
    stock = None
    if res.stock_after is not None and stock_before is not None:
        stock = (np.broadcast_to(np.asarray(stock_before, dtype=np.int64), (n,)),
                 res.stock_after)
    return RowBlock(first, contract, declarer, res.scores, stock, None, _events(res.hand_events))


def _winners(totals: Ints, lowest_wins: bool) -> npt.NDArray[np.bool_]:
    best = totals.min(axis=1) if lowest_wins else totals.max(axis=1)
    out: npt.NDArray[np.bool_] = totals == best[:, None]
    return out


def partie_rows(plan: Plan, first: int, results: Sequence[BlockResult],
                totals: Ints) -> RowBlock:
    """The rows of a block of whole parties: each deal's events named ``deal/event``."""
    events: dict[str, Ints] = {}
    for spec, res in zip(plan.specs, results, strict=True):
        events.update(_events(res.hand_events, f"{spec.contract_id}/"))
    return RowBlock(first, "partie", None, totals, None, _winners(totals, plan.lowest_wins),
                    events)


def evening_rows(plan: Plan, first: int, results: Sequence[BlockResult], totals: Ints,
                 start: int, end: Ints) -> RowBlock:
    """The rows of a block of whole evenings: each event's column counts the deals of the
    evening it happened in."""
    n = totals.shape[0]
    events: dict[str, Ints] = {}
    for res in results:
        for name, hit in res.hand_events.items():
            events[name] = events.get(name, np.zeros(n, dtype=np.int64)) + hit
    return RowBlock(first, "evening", None, totals,
                    (np.full(n, start, dtype=np.int64), end), _winners(totals, False), events)


def row_format(name: str, given: str | None = None) -> str:
    """The format of a row file: ``given`` (csv, jsonl or parquet), else the one its suffix
    names; ValueError naming the choices."""
    if given is not None:
        fmt = given.lower()
        if fmt not in ROW_FORMATS:
            raise ValueError(_("unknown row format {given} (csv, jsonl or parquet)").format(
                given=quote(given)))
        return fmt
    lower = name.lower()
    for fmt, suffixes in ROW_FORMATS.items():
        if lower.endswith(suffixes):
            return fmt
    known = ", ".join(s for suffixes in ROW_FORMATS.values() for s in suffixes)
    raise ValueError(_("no suffix that names a format ({known}): the format is csv, jsonl or "
                       "parquet").format(known=known))


class RowSpool:
    """The rows of a run, kept in a temporary file as they come (block order), written out at
    the end in one of :data:`ROW_FORMATS`."""

    def __init__(self) -> None:
        self._file: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())
        # closed when the spool goes, if nobody closed it (a result dropped by its reader)
        self._closer = weakref.finalize(self, self._file.close)
        self._blocks = 0
        self.rows = 0
        self._events: set[str] = set()
        self._players = 0

    def add(self, block: RowBlock) -> None:
        """Keep ``block``, the rows after those kept so far."""
        if block.first != self.rows:
            raise ValueError(f"rows from {block.first} after {self.rows} rows")
        pickle.dump(block, self._file, protocol=pickle.HIGHEST_PROTOCOL)
        self._blocks += 1
        self.rows += block.size
        self._events.update(block.events)
        self._players = block.scores.shape[1]

    @property
    def event_names(self) -> list[str]:
        """The events that happened in some row, one column each, sorted."""
        return sorted(self._events)

    def blocks(self) -> Iterator[RowBlock]:
        self._file.flush()
        self._file.seek(0)
        for _block in range(self._blocks):
            block = pickle.load(self._file)
            assert isinstance(block, RowBlock)
            yield block
        self._file.seek(0, io.SEEK_END)

    def column_names(self) -> list[str]:
        """The columns, in order."""
        for block in self.blocks():
            return list(block.columns(self.event_names))
        return ["hand", "contract", "declarer"]

    def dicts(self) -> Iterator[dict[str, Any]]:
        """Every row as a dict (column -> value, None where empty)."""
        names = self.event_names
        for block in self.blocks():
            cols = block.columns(names)
            keys = list(cols)
            for values in zip(*cols.values(), strict=True):
                yield dict(zip(keys, values, strict=True))

    def write(self, fh: IO[Any], fmt: str) -> None:
        """Write every row to ``fh`` in ``fmt``: csv and jsonl to a text file, parquet to a
        binary one (needs pyarrow: ImportError names the package)."""
        if fmt == "csv":
            out = csv.writer(fh, lineterminator="\n")
            out.writerow(self.column_names())
            names = self.event_names
            for block in self.blocks():
                cols = block.columns(names)
                out.writerows(zip(*cols.values(), strict=True))
        elif fmt == "jsonl":
            for row in self.dicts():
                fh.write(json.dumps(row, separators=(",", ":")) + "\n")
        elif fmt == "parquet":
            self._write_parquet(fh)
        else:
            raise ValueError(f"unknown row format {fmt!r}")

    def _write_parquet(self, fh: IO[bytes]) -> None:
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise ImportError(_("writing Parquet needs pyarrow: pip install pyarrow (or write "
                                ".csv or .jsonl)")) from None
        names = self.event_names
        writer = None
        schema = None
        for block in self.blocks():
            cols = block.columns(names)
            if schema is None:
                schema = pa.schema([(k, pa.string() if k == "contract" else pa.int64())
                                    for k in cols])
                writer = pq.ParquetWriter(fh, schema)
            assert writer is not None
            writer.write_table(pa.table(cols, schema=schema))
        if writer is None:
            return
        writer.close()

    def to_frame(self) -> Any:
        """The rows as a pandas DataFrame (needs pandas: ImportError names the package)."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError(_("a DataFrame needs pandas: pip install pandas")) from None
        names = self.event_names
        parts = [pd.DataFrame(block.columns(names)) for block in self.blocks()]
        frame = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
        for col in ("declarer", "stock_before", "stock_after"):
            if col in frame:
                frame[col] = frame[col].astype("Int64")
        return frame

    def close(self) -> None:
        self._closer()
