"""``herzla replay RECORD|- [--json]``: validate, replay and score hand records.

One record gets one answer; a list of records is a score sheet; JSON Lines are replayed a line at
a time, each answer written as its record is read (:mod:`herzla.cli.input`), with a progress line
on a terminal.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import click

from herzla.cli.common import fail, several_records
from herzla.cli.formats import REPLAY, Target, chosen, format_options
from herzla.cli.input import each_record, open_records
from herzla.cli.render import print_result, print_sheet
from herzla.contracts import TallyError
from herzla.i18n import N_, _
from herzla.records import RecordError, ReplayResult, replay
from herzla.sheets import score_sheet

__all__ = ["replay_command"]


def _show(res: ReplayResult, as_json: bool, compact: bool, first: bool, err: bool) -> None:
    """One answer, on standard error (``err``) when a file is written to standard output."""
    if as_json:
        click.echo(json.dumps(res.to_dict(), indent=None if compact else 1), err=err)
        return
    if not first:
        click.echo("", err=err)
    print_result(res, err=err)


class _Count:
    """``replaying: N records`` on standard error, when it is a terminal."""

    def __init__(self) -> None:
        self.on = sys.stderr.isatty()
        self.last = time.perf_counter()
        self.shown = False

    def __call__(self, n: int) -> None:
        now = time.perf_counter()
        if self.on and now - self.last >= 0.5:
            self.last = now
            self.shown = True
            click.echo("\r" + _("replaying: {n} records").format(n=f"{n:,}"), nl=False,
                       err=True)

    def close(self) -> None:
        if self.shown:
            click.echo("\r" + " " * 40 + "\r", nl=False, err=True)


def _write_files(targets: list[Target], doc: Any) -> None:
    """The files of ``doc`` (a record or a list), as ``herzla show`` writes them."""
    from herzla.cli.show import drawing_of, write_drawings

    d = drawing_of(doc)
    write_drawings(d, targets, "auto", [None] * len(d.hands))


@click.command("replay", help=N_("""Validate, replay and score a hand record.

    RECORD is a file, or - for standard input.  It holds one hand record (a JSON object), a JSON
    list of records forming one partie, session or match (printed as a score sheet), or hand
    records one per line (JSON Lines, as `herzla simulate --sample-out` writes them), each
    replayed on its own and answered as it is read.  Exit 0 when every play is legal (complete
    or not), 1 at an illegal play, 2 for malformed input (with JSON Lines, the answers before the
    malformed line are written first).

    \b
    Examples ('herzla example' lists the records that come with herzla):
      herzla example herzla-two-void | herzla replay -
      herzla example herzla-session -o session.json && herzla replay session.json --json
      herzla deal herzla --seed 7 | herzla replay -
    """))
@click.argument("record", metavar="RECORD|-")
@click.option("--json", "as_json", is_flag=True,
              help=N_("Answer in JSON (the Hand records page of the docs describes it)."))
@format_options(REPLAY)
def replay_command(record: str, as_json: bool, **outputs: str | None) -> None:
    # a file written to standard output is alone there
    files, err = chosen(outputs, reads=[("the record", record)])
    source = open_records(record)
    illegal = False
    try:
        if source.lines is None:
            doc = source.document
            if files:
                _write_files(files, doc)
            if isinstance(doc, list):
                sheet = score_sheet(doc)
                if as_json:
                    click.echo(json.dumps(sheet.to_dict(), indent=1), err=err)
                else:
                    print_sheet(sheet, err=err)
                raise SystemExit(1 if sheet.illegal else 0)
            _where, rec = next(each_record(source))
            res = replay(rec)
            _show(res, as_json, compact=False, first=True, err=err)
            raise SystemExit(1 if res.illegal is not None else 0)
        held: ReplayResult | None = None  # the first answer, until a second record shows
        first: Any = None
        count = 0
        progress = _Count()
        try:
            for where, rec in each_record(source):
                try:
                    res = replay(rec)
                except RecordError as exc:
                    raise RecordError(f"{where}{exc}") from None
                count += 1
                illegal |= res.illegal is not None
                if count == 1:
                    held, first = res, rec
                    continue
                if files:
                    fail(several_records(files[0].format.flag, record, where))
                if held is not None:
                    _show(held, as_json, compact=True, first=True, err=err)
                    held = None
                _show(res, as_json, compact=True, first=False, err=err)
                progress(count)
        finally:
            progress.close()
            if held is not None:  # one record in all: answered like a single document
                _show(held, as_json, compact=False, first=True, err=err)
        if files and first is not None:
            _write_files(files, first)
    except (RecordError, TallyError) as exc:
        fail(str(exc))
    raise SystemExit(1 if illegal else 0)
