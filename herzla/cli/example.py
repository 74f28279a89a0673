"""``herzla example [NAME] [-o FILE]``: the example hand records that come with herzla
(:mod:`herzla.examples`), listed, or one written out to try a command on."""

from __future__ import annotations

import click

from herzla import examples
from herzla.cli.common import fail
from herzla.cli.output import check_output, on_stdout, open_output
from herzla.contracts import TallyError
from herzla.contracts.words import cent_sign
from herzla.i18n import N_, _, ngettext
from herzla.names import UnknownName, read_name
from herzla.quote import visible
from herzla.records import RecordError, read_record, replay, signed
from herzla.sheets import score_sheet

__all__ = ["describe", "example_command"]


def describe(name: str) -> str:
    """One line on an example: what it holds and how it ends, as ``herzla replay`` finds it."""
    doc = examples.load(name)
    try:
        if isinstance(doc, list):
            sheet = score_sheet(doc)
            unit = cent_sign() if sheet.stock is not None else ""
            totals = " ".join(signed(t) + unit for t in sheet.totals)
            kinds = {"partie": (N_("a {game} partie of {n} hands, finished: totals {totals}"),
                                N_("a {game} partie of {n} hands, not finished: totals "
                                   "{totals}")),
                     "session": (N_("a {game} session of {n} hands, finished: totals {totals}"),
                                 N_("a {game} session of {n} hands, not finished: totals "
                                    "{totals}")),
                     "match": (N_("a {game} match of {n} hands, finished: totals {totals}"),
                               N_("a {game} match of {n} hands, not finished: totals "
                                  "{totals}"))}
            done, open_ = kinds.get(str(sheet.kind), kinds["session"])
            return _(done if sheet.finished else open_).format(
                game=sheet.game, n=len(sheet.rows), totals=totals)
        res = replay(read_record(doc))
    except (RecordError, TallyError) as exc:
        return _("malformed on purpose: {exc}").format(exc=exc)
    r = res.record
    n = len(r.plays)
    what = ngettext("{game} {contract}, {players} players, {n} play",
                    "{game} {contract}, {players} players, {n} plays", n).format(
        game=r.game, contract=r.contract_id, players=r.players, n=n)
    if res.illegal is not None:
        return _("{what}: illegal at play {n} ({rule})").format(
            what=what, n=res.illegal.index + 1, rule=res.illegal.rule)
    if res.scores is None:
        return _("{what}: not complete").format(what=what)
    unit = cent_sign() if r.contract.has_stock else ""
    return _("{what}: scores {scores}").format(
        what=what, scores=" ".join(signed(v) + unit for v in res.scores))


@click.command("example", help=N_(
    """List the example hand records that come with herzla, or write the example NAME.

    Without NAME: each example and what it holds.  With NAME (in any case): the record (or
    the list of records) as JSON, to standard output or to --output FILE, ready for every
    command that reads a record.

    \b
    Examples:
      herzla example
      herzla example herzla-two-void | herzla replay -
      herzla example herzla-two-void -o hand.json && herzla show hand.json
    """))
@click.argument("name", required=False)
@click.option("--output", "-o", metavar="FILE",
              help=N_("Write the example to FILE (written whole or not at all) instead of to "
                   "standard output."))
def example_command(name: str | None, output: str | None) -> None:
    if name is None:
        if output is not None:
            fail(_("--output writes one example: give its NAME ('herzla example' lists them)"))
        width = max(len(n) for n in examples.names())
        for each in examples.names():
            click.echo(visible(f"{each:<{width}}  {describe(each)}"))
        return
    target = check_output(output, "--output") if output is not None else None
    try:
        found = read_name(name, examples.names(), "example")
    except UnknownName as exc:
        fail(str(exc))
    text = examples.text(found)
    if target is None:
        click.echo(text, nl=False)
        return
    try:
        with open_output(target) as fh:
            fh.write(text)
    except OSError as exc:
        fail(_("cannot write {file}: {why}").format(file=target, why=exc.strerror or exc))
    click.echo(_("Wrote the example {name} to {file}.").format(name=found, file=target),
               err=on_stdout(("--output", target)))
