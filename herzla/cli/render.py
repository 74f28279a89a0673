"""How the command line writes answers: a hand's result, a score sheet, a score.  The text is
the library's (``ReplayResult.report()``, ``ScoreSheet.report()``,
:func:`herzla.records.score_report`); the command line only prints it, with every character
that does not print shown escaped (:func:`herzla.quote.visible`: a plug-in's title cannot
reach the terminal raw)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from herzla.contracts import Contract, HandScore
from herzla.quote import visible
from herzla.records import ReplayResult, score_report, signed

if TYPE_CHECKING:  # `herzla score` loads no evening, no round and no sheet
    from herzla.sheets import ScoreSheet

__all__ = ["print_result", "print_score", "print_sheet", "signed"]


def print_result(res: ReplayResult, err: bool = False) -> None:
    click.echo(visible(res.report()), err=err)


def print_sheet(sheet: ScoreSheet, err: bool = False) -> None:
    click.echo(visible(sheet.report()), err=err)


def print_score(contract: Contract, result: HandScore) -> None:
    click.echo(visible(score_report(contract, result)))
