"""``herzla solve RECORD|- [--seat S] [--plays] [--json] [--jobs J | --cluster ADDRESS]``: the
exact double-dummy value of the position a hand record reaches (the Analysis page of the docs)."""

from __future__ import annotations

import functools
import json
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

import click

from herzla.analysis.solve import IllegalPlayError, SolveError, SolveResult
from herzla.analysis.solve_many import solve_each
from herzla.cli.common import check_wait, cluster_timeout_option, fail, note_jobs
from herzla.cli.input import RecordInput, each_record, open_records
from herzla.contracts import TallyError
from herzla.i18n import N_
from herzla.quote import visible
from herzla.records import Record, RecordError
from herzla.support.cluster import ClusterError, quiet_logs
from herzla.support.procs import WorkerLost

__all__ = ["Feed", "check_jobs", "jobs_options", "solve_command"]


#: the help of ``--jobs``, by what solves without it (each sentence whole, for the catalog)
JOBS_HELP = {
    "1, this process alone": N_(
        "Processes that solve, this one included (default: 1, this process alone); more than "
        "the cores this process may use is cut to that many, with a note. Answers do not "
        "depend on it."),
    "all the cores this process may use": N_(
        "Processes that solve, this one included (default: all the cores this process may "
        "use); more than the cores this process may use is cut to that many, with a note. "
        "Answers do not depend on it."),
}


def jobs_options(default: str) -> Callable[[Any], Any]:
    """``--jobs``, ``--cluster`` and ``--cluster-timeout``, as ``simulate`` has them;
    ``default`` says what solves without them."""
    return functools.partial(_jobs_options, default)


def _jobs_options(default: str, fn: Any) -> Any:
    fn = cluster_timeout_option(fn)
    fn = click.option("--cluster", metavar="ADDRESS",
                      help=N_("Solve on the workers of the dask scheduler at ADDRESS "
                              "(tcp://HOST:PORT; needs pip install 'herzla[dask]'; "
                              "the Clusters page of the docs): the same answers as on this "
                              "machine."))(fn)
    return click.option("--jobs", "-j", type=click.IntRange(min=1), metavar="J",
                        help=JOBS_HELP[default])(fn)


def check_jobs(jobs: int | None, cluster: str | None, cluster_timeout: float) -> None:
    """The checks and the note of ``simulate`` for --jobs, --cluster and --cluster-timeout."""
    check_wait(cluster_timeout)
    if cluster is not None and jobs is not None:
        fail("--jobs and --cluster exclude each other: with --cluster the cluster's workers "
             "solve")
    if cluster is not None:
        quiet_logs()
    note_jobs(jobs)


class Feed:
    """The records of RECORD for a solver (read by :func:`herzla.cli.input.each_record`),
    keeping where each one is until its answer is written; a record or line that cannot be
    read ends the feed and is kept for after the answers before it."""

    def __init__(self, source: RecordInput) -> None:
        self.source = source
        self.held: deque[tuple[str, Record]] = deque()
        self.broken: RecordError | None = None

    def __iter__(self) -> Iterator[Record]:
        try:
            for where, rec in each_record(self.source):
                self.held.append((where, rec))
                yield rec
        except RecordError as exc:
            self.broken = exc


@click.command("solve")
@click.argument("record", metavar="RECORD|-")
@click.option("--seat", type=int, metavar="S",
              help="The seat whose score is optimised against the others (needed except in "
                   "Beddl and Mord, where it defaults to the declarer).")
@click.option("--plays", "with_plays", is_flag=True,
              help="Also give the exact value of every legal play of the seat to move.")
@click.option("--json", "as_json", is_flag=True,
              help="Answer in JSON (the Analysis page of the docs describes it).")
@jobs_options("all the cores this process may use")
def solve_command(record: str, seat: int | None, with_plays: bool, as_json: bool,
                  jobs: int | None, cluster: str | None, cluster_timeout: float) -> None:
    """Solve the position a hand record reaches with every hand open (double dummy).

    RECORD is a file, or - for standard input: one hand record, or records one per line (JSON
    Lines, one answer a line, solved on --jobs processes).  The record may stop anywhere,
    mid-trick or before the first card.  Beddl and Mord: made or lost when the declarer plays
    to make it and the defenders together to break it.  Every other deal: the best score seat
    S can guarantee when all the others play against it, scored as the contract scores (cents
    in herzla, points elsewhere; in herzla-kids lower is better).  The text answer shows the
    line of best play trick by trick (layout deals: every lay and pass by seat).  Exit 0, 1 at
    an illegal play (named as by 'herzla replay'), 2 for malformed input.

    \b
    Examples ('herzla example' lists the records that come with herzla):
      herzla example herzla-two-void-trick6 | herzla solve - --seat 2 --plays
      herzla deal herzla --contract beddl --declarer 0 --seed 3 | herzla solve -
    """
    check_jobs(jobs, cluster, cluster_timeout)
    source = open_records(record)
    many = source.many
    feed = Feed(source)
    illegal = False
    first = True
    try:
        for ans in solve_each(feed, seat, with_plays, jobs=jobs, cluster=cluster,
                              cluster_timeout=cluster_timeout):
            where, rec = feed.held.popleft()
            if isinstance(ans, SolveError) and not isinstance(ans, IllegalPlayError):
                hint = " with --seat S" if seat is None and "give the seat" in str(ans) else ""
                fail(f"{where}{ans}{hint}")
            if isinstance(ans, (RecordError, TallyError)):
                fail(f"{where}{ans}")
            illegal |= isinstance(ans, IllegalPlayError)
            if as_json:
                body = ans.to_dict()
                click.echo(json.dumps(body, indent=None if many else 1))
            else:
                if not first:
                    click.echo("")
                _print(ans, rec)
            first = False
    except (SolveError, ClusterError, WorkerLost) as exc:
        fail(" ".join(str(exc).split()))
    if feed.broken is not None:
        fail(str(feed.broken))
    raise SystemExit(1 if illegal else 0)


def _print(ans: SolveResult | IllegalPlayError, rec: Record) -> None:
    if isinstance(ans, IllegalPlayError):
        click.echo("\n".join([*map(visible, ans.lines()),
                               "There is no position to solve after an illegal play."]))
        return
    click.echo(visible(ans.report(rec)))
