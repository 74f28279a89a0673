"""The HTML format: one self-contained page (inline SVG and CSS, nothing fetched) of a hand, of a
list's hands and score sheet, of an evening (``--html FILE``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from herzla.cli.formats.base import OutputFormat
from herzla.i18n import N_

if TYPE_CHECKING:
    from herzla.draw.course import Course
    from herzla.evening import Evening
    from herzla.sheets import ScoreSheet

__all__ = ["FORMAT"]


def _hand(c: Course, faces: str, review: Mapping[str, Any] | None) -> str:
    from herzla.draw.html import record_page

    return record_page(c, faces, review)


def _sheet(sheet: ScoreSheet, faces: str, reviews: Sequence[Mapping[str, Any] | None]) -> str:
    from herzla.draw.html import sheet_page

    return sheet_page(sheet, faces, reviews)


def _evening(e: Evening) -> str:
    from herzla.draw.evening import evening_page

    return evening_page(e)


FORMAT = OutputFormat(
    name="html", noun=N_("the page"),
    records_help=N_("Write one self-contained HTML page: the hands, the play trick by trick, "
                    "the settlement with its rules (nothing in it is fetched)."),
    replay_help=N_("Also write the hand (or the sheet) as one self-contained HTML page, as "
                   "'herzla show --html' draws it (one record or one list)."),
    evening_metavar="PAGE",
    evening_help=N_("Write the evening as one self-contained HTML page."),
    hand=_hand, sheet=_sheet, evening=_evening)
