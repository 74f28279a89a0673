"""How the command line writes answers: a hand's result, a score sheet, a score.  The text is
the library's (``ReplayResult.report()``, ``ScoreSheet.report()``,
:func:`herzla.records.score_report`); the command line only prints it, with every character
that does not print shown escaped (:func:`herzla.quote.visible`: a plug-in's title cannot
reach the terminal raw)."""

from __future__ import annotations

import click

from herzla.contracts import Contract, HandScore
from herzla.counting import play_place
from herzla.quote import visible
from herzla.records import IllegalPlay, Record, ReplayResult, score_report, signed
from herzla.sheets import ScoreSheet

__all__ = ["illegal_text", "print_result", "print_score", "print_sheet", "signed"]


def print_result(res: ReplayResult, err: bool = False) -> None:
    click.echo(visible(res.report()), err=err)


def print_sheet(sheet: ScoreSheet, err: bool = False) -> None:
    click.echo(visible(sheet.report()), err=err)


def print_score(contract: Contract, result: HandScore) -> None:
    click.echo(visible(score_report(contract, result)))


def illegal_text(ill: IllegalPlay, rec: Record | None, after: str) -> str:
    """An illegal play as the review and the solver name it, counted from 1 and placed in its
    trick: ``Play 5 (trick 2, 1st card), HK by seat 1, is illegal: ...``."""
    players = rec.players if rec is not None and rec.contract.tricks_per_hand else None
    where = play_place(ill.index, players)
    place, _, rest = where.partition(", ")
    more = f" ({rest})" if rest else ""
    return (f"{place.capitalize()}{more}, {ill.card} by seat {ill.seat}, is illegal: "
            f"{ill.message} (rule {ill.rule}); {after}")
