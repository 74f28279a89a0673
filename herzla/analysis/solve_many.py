"""``herzla.analysis.solve_many``: many positions solved at once, here or on worker processes or a
dask cluster, answered in the order they were given.

Each record is solved by :func:`herzla.solve` on its own (a search of its own), so an answer
does not depend on where it was searched nor on how many processes share the work: only
``elapsed_s`` differs.  :func:`solve_each` answers as it goes (a record that cannot be solved
is answered by the error :func:`herzla.solve` raises for it, and the next ones go on);
:func:`solve_many` answers a list and raises the first error.

>>> import json
>>> rec = json.load(open("docs/examples/herzla-two-void.json"))
>>> res = solve_many([dict(rec, plays=rec["plays"][:k]) for k in (20, 24)], seat=2, jobs=1)
>>> [r.value for r in res]
[-30, -50]
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from typing import Any, TypeAlias

from herzla.analysis.solve import SolveError, SolveResult, solve
from herzla.contracts import TallyError
from herzla.i18n import _
from herzla.limits import LimitError, check_timeout
from herzla.quote import quote
from herzla.records import Record, RecordError
from herzla.support.cluster import DEFAULT_TIMEOUT, check_cluster

__all__ = ["SolveFailure", "check_work", "solve_each", "solve_many"]

#: what solve raises for a record it cannot answer (an illegal play is a SolveError)
SolveFailure: TypeAlias = SolveError | RecordError | TallyError
#: a record to solve: a Record or its JSON object
RecordLike: TypeAlias = Record | Mapping[str, Any]
#: how many records past the one whose answer is due this process may solve while a helper
#: works on that one: one deal can take as long as a hundred others (a made Beddl proves every
#: defence), and a short window left this process waiting for it with nothing to do
WINDOW = 256


def _solve_one(plays: bool, item: tuple[RecordLike, int | None]) -> SolveResult | SolveFailure:
    """One record's answer, or the error :func:`solve` raises for it (module level: it pickles
    for worker processes)."""
    record, seat = item
    try:
        return solve(record, seat=seat, plays=plays)
    except (SolveError, RecordError, TallyError) as exc:
        return exc


def check_work(jobs: object, cluster: object, cluster_timeout: object) -> int:
    """The processes to use (this one included; at most the usable cores), after checking
    ``jobs``, ``cluster`` and ``cluster_timeout``; SolveError names a wrong one."""
    from herzla.support.procs import usable_jobs

    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int)):
        raise SolveError(_("jobs must be a whole number, not {jobs}").format(jobs=quote(jobs)))
    check_cluster(cluster, SolveError)
    if cluster is not None and jobs is not None:
        raise SolveError(_("jobs and cluster exclude each other: a cluster's workers solve"))
    if jobs is not None and jobs < 1:
        raise SolveError(_("jobs must be at least 1, not {jobs}").format(jobs=jobs))
    try:
        check_timeout(cluster_timeout)  # type: ignore[arg-type]
    except LimitError as exc:
        raise SolveError(str(exc)) from None
    return usable_jobs(jobs)


def solve_each(records: Iterable[RecordLike], seat: int | Sequence[int | None] | None = None,
               plays: bool = False, *, jobs: int | None = None, cluster: str | None = None,
               cluster_timeout: float = DEFAULT_TIMEOUT
               ) -> Generator[SolveResult | SolveFailure, None, None]:
    """Each record's :func:`herzla.solve` answer, in the order of ``records``, as it comes.

    ``records`` is read as the work goes (at most :data:`WINDOW` ahead of the answers: a long
    stream is not held in memory), each record on its own; the records of one session (a JSON
    list whose later records carry the stock) are read by
    :func:`herzla.evening.read_session` first: ``read_session(doc).records()`` gives each with
    the stock it carries, as ``herzla solve`` of a list does.  ``seat``: one seat for every
    record, or a sequence of one seat per record.
    ``plays`` as in :func:`herzla.solve`.  ``jobs``: processes that solve, this one included
    (None: every core this process may use; more is cut to that many); ``cluster``:
    the address of a dask scheduler whose workers solve instead (``pip install 'herzla[dask]'``),
    ``cluster_timeout`` bounding the wait for it.  A record that cannot be solved is answered
    by the exception :func:`herzla.solve` raises for it (not raised).  Raises SolveError for bad
    ``jobs``; :class:`herzla.support.cluster.ClusterError` or
    :class:`herzla.support.procs.WorkerLost` when the cluster or the worker processes are
    lost.
    """
    procs = check_work(jobs, cluster, cluster_timeout)  # now, not at the first answer
    if isinstance(records, str | bytes | Mapping) or not isinstance(records, Iterable):
        raise SolveError(_("records are a list or an iterable of hand records, not "
                           "{records}").format(records=quote(records)))
    if seat is None or isinstance(seat, int):
        items: Iterable[tuple[RecordLike, int | None]] = ((r, seat) for r in records)
        count = len(records) if isinstance(records, Sequence) else None
    else:
        if isinstance(seat, str | bytes) or not isinstance(seat, Sequence):
            raise SolveError(_("seat must be a whole number, or a list of one seat per record, "
                               "not {seat}").format(seat=quote(seat)))
        if not isinstance(records, Sequence) or len(records) != len(seat):
            raise SolveError(_("give one seat for every record, or one seat for all"))
        items = list(zip(records, seat, strict=True))
        count = len(records)
    return _answers(functools.partial(_solve_one, plays), items, count, procs, cluster,
                    cluster_timeout)


def _answers(fn: Callable[[tuple[RecordLike, int | None]], SolveResult | SolveFailure],
             items: Iterable[tuple[RecordLike, int | None]], count: int | None, procs: int,
             cluster: str | None, cluster_timeout: float
             ) -> Generator[SolveResult | SolveFailure, None, None]:
    if cluster is not None:
        from herzla.support.cluster import cluster_map

        yield from cluster_map(fn, items, cluster, timeout=cluster_timeout)
        return
    if count is not None:
        procs = min(procs, count)
    if procs <= 1:
        yield from map(fn, items)
        return
    from herzla.support.procs import local_map

    yield from local_map(fn, items, procs - 1, window=WINDOW)


def solve_many(records: Iterable[RecordLike], seat: int | Sequence[int | None] | None = None,
               plays: bool = False, *, jobs: int | None = None, cluster: str | None = None,
               cluster_timeout: float = DEFAULT_TIMEOUT) -> list[SolveResult]:
    """:func:`herzla.solve` of every record, in their order: the same answers for any ``jobs``
    and on a ``cluster`` (the arguments are those of :func:`solve_each`).  Raises the error
    :func:`herzla.solve` raises for the first record it cannot solve."""
    out: list[SolveResult] = []
    for ans in solve_each(records, seat, plays, jobs=jobs, cluster=cluster,
                          cluster_timeout=cluster_timeout):
        if not isinstance(ans, SolveResult):
            raise ans
        out.append(ans)
    return out
