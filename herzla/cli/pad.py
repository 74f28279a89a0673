"""``herzla pad``: keep an evening's score at the table (the Evening page of the docs).

Each command reads the evening's FILE, changes it through the library
(:class:`herzla.evening.Evening`) and writes it back atomically under a lock
(:func:`herzla.evening.update`): a tally that does not add up, or a deal that does not fit, is
one line on standard error, exit 2, and the file stays as it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import click

from herzla.cli.common import NamedGroup, fail, option_flag, parse_options, tally_flags
from herzla.cli.complete import complete_contract, complete_game
from herzla.cli.formats import EVENING, chosen, format_options, write_output
from herzla.cli.input import open_records
from herzla.contracts import TallyError
from herzla.contracts.tallies import numbers_of
from herzla.counting import read_whole
from herzla.evening import Entry, Evening, EveningError, create, load, update
from herzla.evening.text import deal_line, deal_report, next_line, outcome_lines, totals_line
from herzla.i18n import N_, _, ngettext
from herzla.limits import LimitError
from herzla.quote import quote

__all__ = ["pad"]

class _PadGroup(NamedGroup):
    """The pad's commands, in any case; a misspelt one is answered with the closest names."""

    noun = "pad command"


def _ints(text: str | None, what: str) -> list[int] | None:
    if text is None:
        return None
    try:
        return numbers_of(text, f"--{what}")
    except TallyError as exc:
        fail(str(exc))


def _seats(text: str | None) -> list[str] | None:
    """Seats by name or number, separated by commas (names may hold spaces)."""
    if text is None:
        return None
    parts = [p.strip() for p in (text.split(",") if "," in text else text.split())]
    return [p for p in parts if p]


def _record(path: str) -> dict[str, Any]:
    source = open_records(path)
    doc = source.document
    if source.lines is not None:
        lines = list(source.lines)
        if len(lines) != 1:
            fail(f"--record {path}: give one hand record, not {len(lines)}")
        doc = lines[0][1]
    if not isinstance(doc, dict):
        fail(f"--record {path}: a hand record is a JSON object, not {quote(doc)}")
    return doc


def _tally_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    opts = [
        click.option("--contract", metavar="C", shell_complete=complete_contract,
                     help=N_("The contract (default: the one the partie plays next, or the one "
                          "played when nobody announces).")),
        click.option("--hearts", metavar="N,N,..", help=N_("Hearts captured by each seat.")),
        click.option("--tricks", metavar="N,N,..", help=N_("Tricks won by each seat.")),
        click.option("--captured", multiple=True, metavar="CARDS",
                     help=N_("The cards one seat captured (repeat once per seat, seat 0 first; "
                          "'-' for none). Only the cards that count are needed.")),
        click.option("--last-trick", "last_trick", metavar="SEAT",
                     help=N_("Who won the last trick (a name or a seat number).")),
        click.option("--order", metavar="S,S,..", help=N_("Layout deals: who went out, in order "
                     "(names or seat numbers).")),
        click.option("--declarer", metavar="SEAT", help=N_("Beddl/Mord: who declared it.")),
        click.option("--made", "made_flag", is_flag=True, help=N_("The declarer made it.")),
        click.option("--lost", "lost_flag", is_flag=True, help=N_("The declarer lost it.")),
        click.option("--renege", metavar="SEAT", help=N_("Who reneged, once play went on past it: "
                     "the deal is scored by the table's renege option (herzla rules renege).")),
        click.option("--left", metavar="N,N,..", help=N_("With --renege in a layout deal: the "
                     "cards each seat still held (--order: who was already out).")),
        click.option("--aside", metavar="CARDS", help=N_("With --renege where cards lie aside: "
                     "those cards.")),
        click.option("--record", "record_path", metavar="REC.json|-",
                     help=N_("The deal as a hand record instead of a tally (its seats, dealer "
                          "and stock must fit the evening).")),
    ]
    for opt in reversed(opts):
        fn = opt(fn)
    return fn


def _entry(contract: str | None, hearts: str | None, tricks: str | None,
           captured: tuple[str, ...], last_trick: str | None, order: str | None,
           declarer: str | None, made_flag: bool, lost_flag: bool, renege: str | None,
           left: str | None, aside: str | None, record_path: str | None) -> Entry:
    if made_flag and lost_flag:
        fail("--made and --lost exclude each other: give one")
    tally: dict[str, Any] = {
        "contract": contract, "hearts": _ints(hearts, "hearts"),
        "tricks": _ints(tricks, "tricks"), "captured": list(captured) or None,
        "last_trick": last_trick, "order": _seats(order), "declarer": declarer,
        "made": True if made_flag else False if lost_flag else None, "renege": renege,
        "left": _ints(left, "left"), "aside": aside,
    }
    given = [k for k, v in tally.items() if v is not None]
    try:
        if record_path is not None:
            if given:
                fail(f"--record gives the whole deal: leave out --{given[0].replace('_', '-')}")
            return Entry.from_json({"record": _record(record_path)})
        if not given:
            fail("give the deal: a tally (--hearts, --tricks, --captured, --order, "
                 "--declarer with --made or --lost, ...) or --record REC.json")
        return Entry.from_json({k: v for k, v in tally.items() if v is not None})
    except EveningError as exc:
        fail(str(exc))


def _change(path: str, how: Callable[[Evening], Evening]) -> Evening:
    """Apply ``how`` to the evening in ``path`` and write it back (one line and exit 2 if the
    change does not fit; the file is then unchanged)."""
    try:
        return update(path, how)
    except EveningError as exc:
        hint = ""
        if exc.needs:
            hint = f": give {tally_flags(exc.needs)}"
        fail(f"{exc}{hint}")
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}")


def _after(e: Evening, first: str | None = None) -> None:
    if first:
        click.echo(first)
    click.echo(totals_line(e))
    click.echo(next_line(e))


def _load(path: str) -> Evening:
    try:
        return load(path)
    except EveningError as exc:
        fail(str(exc))


@click.group("pad", cls=_PadGroup, help=N_(
    """Keep an evening's score: deal after deal, the stock carried, edits that recompute.

    FILE holds the evening (JSON a person can read: the game, the players, the options and the
    deals as entered); every total is recomputed when it is read, and each change is written
    atomically.  Seats are named by the players' names or seat numbers (from 0).

    \b
    Examples:
      herzla pad new evening.json --game herzla --players Anna,Berni,Carla,Done
      herzla pad add evening.json --hearts 0,3,5,0
      herzla pad add evening.json --contract beddl --declarer Carla --made
      herzla pad edit evening.json 1 --hearts 0,4,4,0
      herzla pad show evening.json
      herzla pad settle evening.json
    """))
def pad() -> None:
    """The command group (its help is the group's ``help``)."""


@pad.command("new", help=N_("""Start a new evening in FILE (which must not exist yet)."""))
@click.argument("file")
@click.option("--game", "-g", required=True, shell_complete=complete_game,
              help=N_("The game (herzla, herzeln, ...; any case)."))
@click.option("--players", "-p", "names", required=True, metavar="NAME,NAME,..",
              help=N_("The players' names, seat 0 first, separated by commas."))
@option_flag
@click.option("--stock", type=int, default=0, show_default=True,
              help=N_("herzla: cents in the stock before the first deal."))
@click.option("--dealer", metavar="SEAT",
              help=N_("Who deals first (a name or a seat number; default: the last seat)."))
def new_command(file: str, game: str, names: str, option_items: tuple[str, ...], stock: int,
                dealer: str | None) -> None:
    players = [p for p in (n.strip() for n in names.split(",")) if p]
    try:
        e = Evening.new(game, players, parse_options(option_items), stock, dealer)
        create(e, file)
    except EveningError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {file}: {exc.strerror or exc}")
    click.echo(f"New {e.game} evening in {file}: {', '.join(e.players)}" +
               (f"; stock {e.stock}c" if e.stock is not None else ""))
    click.echo(next_line(e))


@pad.command("add", help=N_(
    """Add the next deal, from a tally (what 'herzla score' takes) or a hand record.

    The dealer, the stock and the deal's place in a partie come from the deals before."""))
@click.argument("file")
@_tally_options
def add_command(file: str, **tally: Any) -> None:
    entry = _entry(**tally)
    e = _change(file, lambda ev: ev.add(entry))
    _after(e, deal_line(e, e.deals[-1]))


@pad.command("edit", help=N_("""Replace deal K (from 1); every deal after it is scored again."""))
@click.argument("file")
@click.argument("k", type=int)
@_tally_options
def edit_command(file: str, k: int, **tally: Any) -> None:
    entry = _entry(**tally)
    e = _change(file, lambda ev: ev.edit(k, entry))
    later = len(e.deals) - k
    again = " " + ngettext("({n} deal after it scored again)",
                           "({n} deals after it scored again)", later).format(n=later) \
        if later else ""
    _after(e, deal_line(e, e.deals[k - 1]) + again)


@pad.command("drop", help=N_("""Remove deal K (from 1); every deal after it is scored again."""))
@click.argument("file")
@click.argument("k", type=int)
def drop_command(file: str, k: int) -> None:
    e = _change(file, lambda ev: ev.drop(k))
    later = len(e.deals) - k + 1
    _after(e, (ngettext("Dropped deal {k}; {n} deal after it scored again.",
                        "Dropped deal {k}; {n} deals after it scored again.", later)
               if later else _("Dropped deal {k}.")).format(k=k, n=later))


@pad.command("undo", help=N_("""Take back the last change (add, edit or drop)."""))
@click.argument("file")
def undo_command(file: str) -> None:
    taken: list[str] = []

    def undo(ev: Evening) -> Evening:
        if ev.history:
            taken.append(ev.history[-1].describe())
        return ev.undo()

    e = _change(file, undo)
    _after(e, _("Took back: {what}.").format(what=taken[0]))


@pad.command("show", help=N_(
    """The evening: every deal (with its kind: two void, schleichermord, all hearts, renege,
    ...), the totals and the stock, what comes next, the settlement or the winners, and each
    player's statistics. With K, deal K alone explained: what was entered and every amount
    with its rule."""))
@click.argument("file")
@click.argument("deal", required=False, metavar="[K]")
@click.option("--json", "as_json", is_flag=True,
              help=N_("Answer in JSON (the Evening page of the docs)."))
@format_options(EVENING)
def show_command(file: str, deal: str | None, as_json: bool, **outputs: str | None) -> None:
    if deal is not None:
        _show_deal(file, deal, as_json, any(v is not None for v in outputs.values()))
        return
    # a picture or page alone on standard output
    targets, to_err = chosen(outputs, reads=[("the evening", file)])
    e = _load(file)
    if targets:
        try:
            for target in targets:
                write_output(target, target.format.evening(e))
        except LimitError as exc:
            fail(str(exc))
        for target in targets:  # beside --json, on standard error: stdout is the JSON
            click.echo(f"Wrote {target.format.noun} to {target.output}.", err=to_err or as_json)
        if not as_json:
            return
    if as_json:
        click.echo(json.dumps(e.to_dict(), indent=1, ensure_ascii=False), err=to_err)
        return
    click.echo(e.report())


def _show_deal(file: str, deal: str, as_json: bool, output: bool) -> None:
    """``herzla pad show FILE K``: deal K explained."""
    if output:
        fail("--html and --svg show the whole evening: give them without a deal number")
    k = read_whole(deal, digits=9)
    if k is None:
        fail(f"K is a deal's number (1, 2, ...), not {quote(deal)}")
    e = _load(file)
    try:
        text = deal_report(e, k)
    except EveningError as exc:
        fail(str(exc))
    if as_json:
        click.echo(json.dumps(e.deals[k - 1].to_dict(), indent=1, ensure_ascii=False))
        return
    click.echo(text)


@pad.command("settle", help=N_(
    """Who pays whom, in as few payments as possible (a game played for money; the stock stays
    on the table); the winners in the other games."""))
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help=N_("Answer in JSON."))
def settle_command(file: str, as_json: bool) -> None:
    e = _load(file)
    money = e.stock is not None
    if as_json:
        if money:
            body: dict[str, Any] = {"settlement": [p.to_dict() for p in e.settlement()],
                                    "totals": list(e.totals), "stock": e.stock}
        else:
            winners = e.winners()
            body = {"winners": list(winners) if winners is not None else None,
                    "totals": list(e.totals)}
        click.echo(json.dumps(body, indent=1, ensure_ascii=False))
        return
    click.echo(totals_line(e))
    for line in outcome_lines(e):
        click.echo(line)
