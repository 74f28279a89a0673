"""How the command line writes answers: a hand's result, a score sheet, a score."""

from __future__ import annotations

import click

from herzla.contracts import HandScore
from herzla.records import ReplayResult
from herzla.sheets import ScoreSheet

__all__ = ["print_result", "print_score", "print_sheet", "signed"]


def signed(v: int) -> str:
    return f"{v:+d}" if v else "0"


def print_result(res: ReplayResult) -> None:
    r = res.record
    unit = "c" if r.contract.has_stock else ""
    decl = f", declarer seat {r.declarer}" if r.declarer is not None else ""
    click.echo(f"{r.game} {r.contract_id}, {r.players} players, dealer seat {r.dealer}, "
               f"forehand seat {r.forehand}{decl}")
    if res.tricks is not None:
        for i, t in enumerate(res.tricks, 1):
            won = "(in progress)" if t.winner is None else f"-> seat {t.winner}"
            click.echo(f"  trick {i}: seat {t.leader} leads {' '.join(map(str, t.cards))} {won}")
    if res.order is not None and res.order:
        click.echo(f"  out in order: {' '.join(f'seat {s}' for s in res.order)}")
    status = "complete" if res.complete else "not complete"
    if res.illegal is not None:
        status = f"illegal play at index {res.illegal.index} ({res.illegal.rule})"
    click.echo(f"Status: {status}")
    if res.scores is not None:
        click.echo("Scores: " + ", ".join(f"seat {s} {signed(v)}{unit}"
                                          for s, v in enumerate(res.scores)))
    if res.stock is not None:
        click.echo(f"Stock: {res.stock}c")
    if res.score is not None and res.score.events:
        click.echo(f"Events: {', '.join(res.score.events)}")
    for line in res.explanation:
        click.echo(f"- {line}")


def print_sheet(sheet: ScoreSheet) -> None:
    n = sheet.players
    unit = "c" if sheet.stock is not None else ""
    click.echo(f"{sheet.game} {sheet.kind}, {n} players")
    cells = [[signed(v) + unit for v in row.result.scores]
             for row in sheet.rows if row.result.scores is not None]
    cells.append([signed(v) + unit for v in sheet.totals])
    width = max(9, *(len(c) + 1 for row in cells for c in row))
    head = f"{'#':>2}  {'contract':<15}" + "".join(f"{'seat ' + str(s):>{width}}"
                                                   for s in range(n))
    if sheet.stock is not None:
        head += f"{'stock':>{width}}"
    click.echo(head)
    for row in sheet.rows:
        res = row.result
        if res.scores is None:
            what = (f"illegal at {res.illegal.index} ({res.illegal.rule})" if res.illegal
                    else "not complete")
            click.echo(f"{row.index + 1:>2}  {res.record.contract_id:<15}  {what}")
            continue
        line = f"{row.index + 1:>2}  {res.record.contract_id:<15}" + "".join(
            f"{signed(v) + unit:>{width}}" for v in res.scores)
        if row.stock is not None:
            line += f"{str(row.stock) + 'c':>{width}}"
        click.echo(line)
    click.echo(f"{'':>2}  {'total':<15}" + "".join(f"{signed(v) + unit:>{width}}"
                                                   for v in sheet.totals))
    for line in sheet.explanation:
        click.echo(f"- {line}")


def print_score(game: str, contract_id: str, n: int, result: HandScore,
                has_stock: bool) -> None:
    unit = "c" if has_stock else ""
    click.echo(f"{game} {contract_id}, {n} players")
    click.echo("Scores: " + ", ".join(f"seat {s} {signed(v)}{unit}"
                                      for s, v in enumerate(result.scores)))
    if has_stock:
        click.echo(f"Stock: {result.stock}c")
    for line in result.explanation:
        click.echo(f"- {line}")
