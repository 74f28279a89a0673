"""``herzla show RECORD|- [--svg FILE] [--html FILE] [--review]``: draw hands as text, or as the
files of the output formats (:mod:`herzla.cli.formats`: SVG, HTML, each ``--NAME FILE``).

RECORD is read exactly as ``herzla replay`` reads it (:mod:`herzla.cli.input`): one record, a JSON
list (a score sheet), or JSON Lines, each drawn as it is read.  The drawings are the library's
(:mod:`herzla.draw`); this module picks the terminal's style (suit symbols when its encoding can
show them, colour only on a terminal and never with ``NO_COLOR``) and writes the files.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import click

from herzla.cli.common import NameChoice, fail, several_records
from herzla.cli.formats import RECORDS, Target, chosen, format_options, write_output
from herzla.cli.input import each_record, open_records
from herzla.contracts import TallyError
from herzla.draw.course import Course, course
from herzla.draw.faces import can_encode
from herzla.draw.text import draw_text
from herzla.i18n import N_, _
from herzla.limits import LimitError, check_drawn
from herzla.quote import visible
from herzla.records import Record, RecordError, read_record
from herzla.sheets import ScoreSheet, score_sheet

__all__ = ["REVIEW_MODULE", "Drawing", "drawing_of", "read_one", "show_command",
           "write_drawings"]

#: the module ``--review`` calls (``review(record).to_dict()``), imported only when asked for
REVIEW_MODULE = "herzla.analysis.review"

Review = Mapping[str, Any]


@attrs.frozen(slots=True, eq=False)
class Drawing:
    """What was read: one hand, or a score sheet with its hands."""

    hands: tuple[Course, ...]
    sheet: ScoreSheet | None = None

    @property
    def illegal(self) -> bool:
        return any(c.illegal is not None for c in self.hands)


def _reviewer() -> Callable[[Record], Review]:
    """``record -> review(record).to_dict()``; a usage error (exit 2) when herzla has no review."""
    if importlib.util.find_spec(REVIEW_MODULE) is None:
        fail(_("--review needs {module}, which this herzla does not have").format(
            module=REVIEW_MODULE))
    try:
        module = importlib.import_module(REVIEW_MODULE)
    except ImportError as exc:
        fail(_("--review: {module} cannot be loaded ({why})").format(module=REVIEW_MODULE,
                                                                      why=exc))

    def run(record: Record) -> Review:
        try:
            answer: Review = module.review(record).to_dict()
        except ValueError as exc:
            fail(str(exc))
        return answer

    return run


def _reviews(d: Drawing, reviewer: Callable[[Record], Review] | None) -> list[Review | None]:
    """The review of each hand (none for a hand with an illegal play: it stops there)."""
    if reviewer is None:
        return [None] * len(d.hands)
    return [reviewer(c.record) if c.illegal is None else None for c in d.hands]


def drawing_of(doc: Any) -> Drawing:
    """The drawing of a parsed document: a record, or a list of records (a score sheet)."""
    if isinstance(doc, list):
        sheet = score_sheet(doc)
        return Drawing(tuple(course(row.result.record) for row in sheet.rows), sheet)
    return Drawing((course(read_record(doc)),))


def _style(colour: str) -> tuple[bool, bool]:
    """(suit symbols, ANSI colour) for standard output."""
    out = sys.stdout
    unicode = can_encode("♣♠♥♦", getattr(out, "encoding", None))
    if colour != "auto":
        return unicode, colour == "always"
    tty = bool(getattr(out, "isatty", lambda: False)())
    return unicode, tty and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def _echo_text(d: Drawing, faces: str, colour: str, reviews: list[Review | None]) -> None:
    unicode, ansi = _style(colour)
    for i, (c, review) in enumerate(zip(d.hands, reviews, strict=True)):
        if d.sheet is not None:
            click.echo(_("Hand {n}").format(n=i + 1))
        click.echo(draw_text(c, faces, unicode, ansi, review), color=ansi)
        click.echo("")
    if d.sheet is not None:
        click.echo(visible(d.sheet.report()))


def write_drawings(d: Drawing, targets: list[Target], faces: str,
                   reviews: list[Review | None]) -> None:
    """Write the file of each format asked for (targets checked by
    :func:`herzla.cli.formats.chosen`), in the registry's order."""
    if d.sheet is not None and targets:
        try:
            check_drawn(len(d.sheet.rows))
        except LimitError as exc:
            fail(str(exc))
    for target in targets:
        fmt = target.format
        text = (fmt.sheet(d.sheet, faces, reviews) if d.sheet is not None
                else fmt.hand(d.hands[0], faces, reviews[0]))
        write_output(target, text, target.output.name)


def read_one(record: str, what: str) -> Drawing:
    """The drawing of RECORD when files are asked for: one record or one list (JSON Lines
    holding one record only)."""
    source = open_records(record)
    if source.lines is None:
        return drawing_of(source.document)
    found: Record | None = None
    for where, rec in each_record(source):
        if found is not None:
            fail(several_records(what, record, where))
        found = rec
    if found is None:
        fail(_("{file} holds no hand record").format(file=record))
    return Drawing((course(found),))


@click.command("show", help=N_(
    """Draw hand records: the hands, the tricks (or the rows), the result and its rules.

    RECORD is a file, or - for standard input, read as 'herzla replay' reads it: one record, a
    JSON list of records (every hand, then the score sheet) or JSON Lines (each drawn as it is
    read).  Without --svg or --html the drawing is printed as text; with them the files are
    written instead (they take one record or one list).  Exit 0 when every play is legal, 1 at
    an illegal play (marked where it happened), 2 for malformed input.

    \b
    Examples ('herzla example' lists the records that come with herzla):
      herzla example herzla-two-void | herzla show -
      herzla example herzla-two-void | herzla show - --review --html hand.html
      herzla example herzeln-partie | herzla show - --svg sheet.svg
    """))
@click.argument("record", metavar="RECORD|-")
@format_options(RECORDS)
@click.option("--review", is_flag=True,
              help=N_("Add what each mistake cost, double dummy (herzla.analysis.review)."))
@click.option("--faces", type=NameChoice(["auto", "french", "german"]), default="auto",
              show_default=True,
              help=N_("The card faces; auto: the faces the game's pack declares."))
@click.option("--color", "colour", type=NameChoice(["auto", "always", "never"]),
              default="auto", show_default=True,
              help=N_("Colour the text: auto colours a terminal only, and never when NO_COLOR is "
                      "set."))
def show_command(record: str, review: bool, faces: str, colour: str, **outputs: str | None
                 ) -> None:
    targets, to_err = chosen(outputs, reads=[("the record", record)])
    reviewer = _reviewer() if review else None
    try:
        if targets:
            d = read_one(record, targets[0].format.flag)
            reviews = _reviews(d, reviewer)
            write_drawings(d, targets, faces, reviews)
            for target in targets:  # on standard error when a file is standard output
                click.echo(_("Wrote {what} to {file}.").format(what=_(target.format.noun),
                                                               file=target.output), err=to_err)
            raise SystemExit(1 if d.illegal else 0)
        source = open_records(record)
        if source.lines is None:
            d = drawing_of(source.document)
            _echo_text(d, faces, colour, _reviews(d, reviewer))
            raise SystemExit(1 if d.illegal or (d.sheet is not None and d.sheet.illegal) else 0)
        illegal = False
        for _where, rec in each_record(source):
            d = Drawing((course(rec),))
            illegal |= d.illegal
            _echo_text(d, faces, colour, _reviews(d, reviewer))
    except (RecordError, TallyError) as exc:
        fail(str(exc))
    raise SystemExit(1 if illegal else 0)
