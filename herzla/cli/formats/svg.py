"""The SVG format: a standalone picture of a hand (trick by trick, or the rows), of a list's
score sheet, of an evening's running totals (``--svg FILE``)."""

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
    from herzla.draw.svg import record_svg

    return record_svg(c, faces, review=review) + "\n"


def _sheet(sheet: ScoreSheet, faces: str, reviews: Sequence[Mapping[str, Any] | None]) -> str:
    from herzla.draw.svg import sheet_svg

    return sheet_svg(sheet) + "\n"


def _evening(e: Evening) -> str:
    from herzla.draw.evening import evening_svg

    return evening_svg(e) + "\n"


FORMAT = OutputFormat(
    name="svg", noun=N_("the picture"),
    records_help=N_("Write the hand (or a list's score sheet) as a standalone SVG picture."),
    replay_help=N_("Also write the hand (or the list's score sheet) as a standalone SVG "
                   "picture, as 'herzla show --svg' draws it (one record or one list)."),
    evening_metavar="PICTURE",
    evening_help=N_("Write the running totals as a standalone SVG picture."),
    hand=_hand, sheet=_sheet, evening=_evening)
