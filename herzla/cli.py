"""The ``herzla`` command line: replay, deal, score, rules and simulate (spec/cli.md).

Exit codes: 0 success; 1 ``replay`` found an illegal play; 2 usage or input error, reported as one
line on standard error.
"""

from __future__ import annotations

import json
from typing import Any

import click

from herzla import __version__
from herzla.cards import CardError, parse_cards
from herzla.clitools import HerzlaGroup, fail, option_flag, parse_options, read_input
from herzla.contracts import UnknownContract, contracts_of, get_contract
from herzla.contracts.base import HandScore, TallyError
from herzla.options import OptionError
from herzla.records import Record, RecordError, ReplayResult, deal_record, load_json_text, replay
from herzla.rulebook import rules_command
from herzla.scoring import ScoreSheet, score_sheet
from herzla.sim.command import simulate
from herzla.tally import score_tallies

__all__ = ["main"]


@click.group(cls=HerzlaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="herzla")
def main() -> None:
    """Rules, simulator and scoring-disputes lookup for Herzla, Herzeln and Herzerln.

    \b
    Games: herzla (Normal, Beddl, Mord), herzla-kids (3-8 players), herzeln (8 deals ending in
    the domino), herzerln (6 rounds ending in Auflegen), and any game a plug-in adds.
    """


def _signed(v: int) -> str:
    return f"{v:+d}" if v else "0"


def _print_result(res: ReplayResult) -> None:
    r = res.record
    unit = "c" if r.rules.has_stock else ""
    decl = f", declarer seat {r.declarer}" if r.declarer is not None else ""
    click.echo(f"{r.game} {r.contract}, {r.players} players, dealer seat {r.dealer}, forehand "
               f"seat {r.forehand}{decl}")
    if res.tricks is not None:
        for i, t in enumerate(res.tricks, 1):
            click.echo(f"  trick {i}: seat {t.leader} leads {' '.join(map(str, t.cards))} "
                       f"-> seat {t.winner}")
    if res.order is not None and res.order:
        click.echo(f"  out in order: {' '.join(f'seat {s}' for s in res.order)}")
    status = "complete" if res.complete else "not complete"
    if res.illegal is not None:
        status = f"illegal play at index {res.illegal.index} ({res.illegal.rule})"
    click.echo(f"Status: {status}")
    if res.scores is not None:
        click.echo("Scores: " + ", ".join(f"seat {s} {_signed(v)}{unit}"
                                          for s, v in enumerate(res.scores)))
    if res.stock is not None:
        click.echo(f"Stock: {res.stock}c")
    if res.score is not None and res.score.events:
        click.echo(f"Events: {', '.join(res.score.events)}")
    for line in res.explanation:
        click.echo(f"- {line}")


def _print_sheet(sheet: ScoreSheet) -> None:
    n = sheet.players
    unit = "c" if sheet.stock is not None else ""
    click.echo(f"{sheet.game} {sheet.kind}, {n} players")
    head = f"{'#':>2}  {'contract':<15}" + "".join(f"{'seat ' + str(s):>9}" for s in range(n))
    if sheet.stock is not None:
        head += f"{'stock':>9}"
    click.echo(head)
    for row in sheet.rows:
        res = row.result
        if res.scores is None:
            what = (f"illegal at {res.illegal.index} ({res.illegal.rule})" if res.illegal
                    else "not complete")
            click.echo(f"{row.index + 1:>2}  {res.record.contract:<15}  {what}")
            continue
        line = f"{row.index + 1:>2}  {res.record.contract:<15}" + "".join(
            f"{_signed(v) + unit:>9}" for v in res.scores)
        if row.stock is not None:
            line += f"{str(row.stock) + 'c':>9}"
        click.echo(line)
    click.echo(f"{'':>2}  {'total':<15}" + "".join(f"{_signed(v) + unit:>9}"
                                                   for v in sheet.totals))
    for line in sheet.explanation:
        click.echo(f"- {line}")


@main.command()
@click.argument("record", metavar="RECORD|-")
@click.option("--json", "as_json", is_flag=True, help="Answer in JSON (spec/hand-record.md).")
def replay_cmd(record: str, as_json: bool) -> None:
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
                click.echo(json.dumps(sheet.to_json(), indent=1))
            else:
                _print_sheet(sheet)
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
            click.echo(json.dumps(res.to_json(), indent=None if len(results) > 1 else 1))
        else:
            if i:
                click.echo("")
            _print_result(res)
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


replay_cmd.name = "replay"


def _game_contract(game: str, contract: str | None) -> type[Any]:
    try:
        if contract is None:
            return contracts_of(game)[0]
        return get_contract(game, contract)
    except UnknownContract as exc:
        fail(str(exc))


@main.command()
@click.argument("game")
@click.option("--seed", type=int, required=True, help="The seed of the shuffle.")
@click.option("--contract", "-c", help="The contract id (default: the game's first).")
@click.option("--players", "-p", type=int, help="Number of seats (default: the game's usual).")
@click.option("--dealer", type=int, help="The dealer's seat (default: the last seat).")
@click.option("--declarer", type=int, help="The declarer's seat for beddl and mord "
              "(default: forehand).")
@click.option("--stock", type=int, default=0, show_default=True,
              help="herzla: cents in the stock before the hand.")
@option_flag
def deal(game: str, seed: int, contract: str | None, players: int | None, dealer: int | None,
         declarer: int | None, stock: int, option_items: tuple[str, ...]) -> None:
    """Print a seeded deal of GAME as a hand record without plays."""
    cls = _game_contract(game, contract)
    n = players if players is not None else cls.player_counts[0]
    try:
        rec = deal_record(game, cls.id, n, seed, dealer=dealer, declarer=declarer, stock=stock,
                          options=parse_options(option_items))
    except (RecordError, OptionError) as exc:
        fail(str(exc))
    click.echo(json.dumps(rec.to_json(), indent=1))


def _ints(text: str | None, what: str) -> list[int] | None:
    if text is None:
        return None
    try:
        return [int(p) for p in text.replace(",", " ").split()]
    except ValueError:
        fail(f"--{what} {text!r}: write whole numbers, one per seat, e.g. 2,3,1,2")


@main.command()
@click.argument("game")
@click.argument("contract")
@click.option("--players", "-p", type=int, help="Number of seats (default: the game's usual).")
@click.option("--tricks", metavar="N,N,..", help="Tricks won by each seat, seat 0 first.")
@click.option("--hearts", metavar="N,N,..", help="Hearts captured by each seat.")
@click.option("--captured", multiple=True, metavar="CARDS",
              help="The cards one seat captured (repeat once per seat, seat 0 first; '-' for "
                   "none). Only the cards that count are needed.")
@click.option("--last-trick", "last_trick", type=int, metavar="SEAT",
              help="The seat that won the last trick.")
@click.option("--order", metavar="S,S,..", help="Layout deals: the seats in the order they went "
              "out.")
@click.option("--declarer", type=int, help="herzla beddl/mord: the declarer's seat.")
@click.option("--made/--lost", "made", default=None, help="herzla beddl/mord: the contract was "
              "made or lost (instead of --tricks).")
@click.option("--stock", type=int, default=0, show_default=True,
              help="herzla: cents in the stock before the hand.")
@option_flag
@click.option("--json", "as_json", is_flag=True, help="Answer in JSON.")
def score(game: str, contract: str, players: int | None, tricks: str | None,
          hearts: str | None, captured: tuple[str, ...], last_trick: int | None,
          order: str | None, declarer: int | None, made: bool | None, stock: int,
          option_items: tuple[str, ...], as_json: bool) -> None:
    """The score of a hand from what each seat took, itemised with the rule behind each amount.

    \b
    Examples:
      herzla score herzla normal --hearts 0,3,5,0 --stock 80
      herzla score herzla beddl --declarer 3 --lost
      herzla score herzeln no-hearts --captured "HA H7" --captured HT --captured "HK HQ HJ" \\
          --captured "H9 H8"
      herzla score herzerln auflegen --order 2,3,0,1
    """
    cls = _game_contract(game, contract)
    n = players if players is not None else cls.player_counts[0]
    try:
        rules = cls(n, parse_options(option_items),
                    declarer if cls.needs_declarer else None)
        if declarer is not None and not cls.needs_declarer:
            fail(f"{game} {contract} has no declarer")
        cards = None
        if captured:
            cards = [[] if c.strip() in ("-", "") else parse_cards(c) for c in captured]
        result = score_tallies(
            rules, tricks=_ints(tricks, "tricks"), hearts=_ints(hearts, "hearts"),
            captured=cards, last_winner=last_trick, order=_ints(order, "order"), made=made,
            stock=stock)
    except (OptionError, TallyError, CardError) as exc:
        fail(str(exc))
    _print_score(rules.game, rules.id, n, result, as_json, rules.has_stock)


def _print_score(game: str, contract: str, n: int, result: HandScore, as_json: bool,
                 has_stock: bool) -> None:
    if as_json:
        click.echo(json.dumps({
            "game": game, "contract": contract, "players": n,
            "scores": list(result.scores), "stock": result.stock if has_stock else None,
            "events": list(result.events), "explanation": list(result.explanation),
        }, indent=1))
        return
    unit = "c" if has_stock else ""
    click.echo(f"{game} {contract}, {n} players")
    click.echo("Scores: " + ", ".join(f"seat {s} {_signed(v)}{unit}"
                                      for s, v in enumerate(result.scores)))
    if has_stock:
        click.echo(f"Stock: {result.stock}c")
    for line in result.explanation:
        click.echo(f"- {line}")


main.add_command(rules_command)
main.add_command(simulate)
