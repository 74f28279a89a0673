"""``herzla replay RECORD|- [--json]``: validate, replay and score hand records."""

from __future__ import annotations

import json
from typing import Any

import click

from herzla.cli.common import fail, read_input
from herzla.cli.render import print_result, print_sheet
from herzla.contracts import TallyError
from herzla.records import Record, RecordError, load_json_text, replay
from herzla.sheets import score_sheet

__all__ = ["replay_command"]


@click.command("replay")
@click.argument("record", metavar="RECORD|-")
@click.option("--json", "as_json", is_flag=True,
              help="Answer in JSON (docs/hand-records.md describes it).")
def replay_command(record: str, as_json: bool) -> None:
    """Validate, replay and score a hand record.

    RECORD is a file, or - for standard input.  It holds one hand record (a JSON object), a JSON
    list of records forming one partie, session or match (printed as a score sheet), or hand
    records one per line (JSON Lines, as `herzla simulate --sample-out` writes them), each
    replayed on its own.  Exit 0 when every play is legal (complete or not), 1 at an illegal
    play, 2 for malformed input.
    """
    text = read_input(record)
    try:
        try:
            objs = [load_json_text(text)]
        except RecordError:
            objs = _json_lines(text)
        if len(objs) == 1 and isinstance(objs[0], list):
            sheet = score_sheet(objs[0])
            if as_json:
                click.echo(json.dumps(sheet.to_dict(), indent=1))
            else:
                print_sheet(sheet)
            raise SystemExit(1 if sheet.illegal else 0)
        results = []
        for i, obj in enumerate(objs):
            try:
                results.append(replay(Record.from_json(obj)))
            except RecordError as exc:
                raise RecordError(f"line {i + 1}: {exc}" if len(objs) > 1 else str(exc)) from None
    except (RecordError, TallyError) as exc:
        fail(str(exc))
    for i, res in enumerate(results):
        if as_json:
            click.echo(json.dumps(res.to_dict(), indent=None if len(results) > 1 else 1))
        else:
            if i:
                click.echo("")
            print_result(res)
    raise SystemExit(1 if any(r.illegal is not None for r in results) else 0)


def _json_lines(text: str) -> list[Any]:
    """Records one per line; if the text is not JSON Lines either, the JSON error stands."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 2:
        load_json_text(text)  # raises the JSON error of the whole text
    out = []
    for i, line in enumerate(lines):
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            load_json_text(text)
            raise RecordError(f"line {i + 1} is not valid JSON") from None
    return out
