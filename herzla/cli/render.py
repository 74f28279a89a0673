"""How the command line writes answers: a hand's result, a score sheet, a score.  The text is
the library's (``ReplayResult.report()``, ``ScoreSheet.report()``,
:func:`herzla.records.score_report`); the command line only prints it."""

from __future__ import annotations

import click

from herzla.contracts import Contract, HandScore
from herzla.records import ReplayResult, score_report, signed
from herzla.sheets import ScoreSheet

__all__ = ["print_result", "print_score", "print_sheet", "signed"]


def print_result(res: ReplayResult) -> None:
    click.echo(res.report())


def print_sheet(sheet: ScoreSheet) -> None:
    click.echo(sheet.report())


def print_score(contract: Contract, result: HandScore) -> None:
    click.echo(score_report(contract, result))
