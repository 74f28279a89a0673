"""``herzla solve RECORD|- [--seat S] [--plays] [--json]``: the exact double-dummy value of the
position a hand record reaches (docs/analysis.md)."""

from __future__ import annotations

import json

import click

from herzla.analysis.solve import IllegalPlayError, SolveError, SolveResult, solve
from herzla.cli.common import fail
from herzla.cli.input import each_record, open_records
from herzla.contracts import TallyError
from herzla.records import RecordError

__all__ = ["solve_command"]


@click.command("solve")
@click.argument("record", metavar="RECORD|-")
@click.option("--seat", type=int, metavar="S",
              help="The seat whose score is optimised against the others (needed except in "
                   "Beddl and Mord, where it defaults to the declarer).")
@click.option("--plays", "with_plays", is_flag=True,
              help="Also give the exact value of every legal play of the seat to move.")
@click.option("--json", "as_json", is_flag=True,
              help="Answer in JSON (docs/analysis.md describes it).")
def solve_command(record: str, seat: int | None, with_plays: bool, as_json: bool) -> None:
    """Solve the position a hand record reaches with every hand open (double dummy).

    RECORD is a file, or - for standard input: one hand record, or records one per line (JSON
    Lines, one answer a line).  The record may stop anywhere, mid-trick or before the first
    card.  Beddl and Mord: made or lost when the declarer plays to make it and the defenders
    together to break it.  Every other deal: the best score seat S can guarantee when all the
    others play against it, scored as the contract scores (cents in herzla, points elsewhere;
    in herzla-kids lower is better).  Exit 0, 1 at an illegal play (named as by 'herzla
    replay'), 2 for malformed input.

    \b
    Examples:
      herzla solve docs/examples/herzla-two-void.json --seat 1 --plays
      herzla deal herzla --contract beddl --declarer 0 --seed 3 | herzla solve -
    """
    source = open_records(record)
    many = source.many
    illegal = False
    first = True
    try:
        for where, rec in each_record(source):
            try:
                ans: SolveResult | IllegalPlayError = solve(rec, seat=seat, plays=with_plays)
            except IllegalPlayError as exc:
                ans = exc
            except SolveError as exc:
                hint = " with --seat S" if seat is None and "give the seat" in str(exc) else ""
                fail(f"{where}{exc}{hint}")
            except (RecordError, TallyError) as exc:
                fail(f"{where}{exc}")
            illegal |= isinstance(ans, IllegalPlayError)
            if as_json:
                body = ans.to_dict() if isinstance(ans, SolveResult) else {
                    "illegal": ans.illegal.to_dict()}
                click.echo(json.dumps(body, indent=None if many else 1))
            else:
                if not first:
                    click.echo("")
                _print(ans)
            first = False
    except RecordError as exc:  # a record (or a line of JSON Lines) that cannot be read
        fail(str(exc))
    raise SystemExit(1 if illegal else 0)


def _print(ans: SolveResult | IllegalPlayError) -> None:
    if isinstance(ans, IllegalPlayError):
        ill = ans.illegal
        click.echo(f"Play {ill.index} ({ill.card}) by seat {ill.seat} is illegal: {ill.message} "
                   f"(rule {ill.rule}); there is no position to solve.")
        return
    click.echo(ans.report())
