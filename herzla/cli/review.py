"""``herzla review RECORD|- [--seat S] [--json]``: a played hand gone through card by card with
every hand open: what each play cost the seat that made it (the Analysis page of the docs)."""

from __future__ import annotations

import json

import click

from herzla.analysis.review import PlayReview, ReviewResult, review
from herzla.analysis.solve import IllegalPlayError, SolveError, unit_of
from herzla.analysis.steps import Step
from herzla.cli.common import fail
from herzla.cli.input import each_record, open_records
from herzla.cli.solve import check_jobs, jobs_options
from herzla.contracts import TallyError
from herzla.contracts.words import seat_word
from herzla.counting import play_place
from herzla.i18n import N_, _, ngettext
from herzla.quote import visible
from herzla.records import Record, RecordError
from herzla.support.cluster import ClusterError
from herzla.support.procs import WorkerLost
from herzla.support.words import localized

__all__ = ["review_command"]


@click.command("review", help=N_(
    """Go through a played hand card by card with every hand open (double dummy).

    For each play (or only seat S's; in the layout deals every lay and pass) the position
    before it is solved as 'herzla solve --plays' solves it for the seat that played (Beddl and
    Mord: the declarer to make, the defenders to break; every other deal: the seat against all
    the others), and the play's cost is the value of the best play minus the value of the card
    played, from that seat's side (never negative).  The text answer shows the hand trick by
    trick, marks each mistake with its cost and totals each seat.  RECORD is a file or - (JSON
    Lines: one answer a line).  Exit 0, 1 at an illegal play, 2 for malformed input.

    \b
    Examples ('herzla example' lists the records that come with herzla):
      herzla example herzla-two-void | herzla review -
      herzla example herzla-two-void -o hand.json && herzla review hand.json --seat 2 --json
    """))
@click.argument("record", metavar="RECORD|-")
@click.option("--seat", type=int, metavar="S", help=N_("Review only the plays of seat S."))
@click.option("--json", "as_json", is_flag=True,
              help=N_("Answer in JSON (the Analysis page of the docs describes it)."))
@jobs_options("1, this process alone")
def review_command(record: str, seat: int | None, as_json: bool, jobs: int | None,
                   cluster: str | None, cluster_timeout: float) -> None:
    check_jobs(jobs, cluster, cluster_timeout)
    source = open_records(record)
    many = source.many
    illegal = False
    first = True
    try:
        for where, rec in each_record(source):
            try:
                ans: ReviewResult | IllegalPlayError = review(
                    rec, seat=seat, jobs=jobs, cluster=cluster, cluster_timeout=cluster_timeout)
            except IllegalPlayError as exc:
                ans = exc
            except (SolveError, RecordError, TallyError) as exc:
                fail(f"{where}{' '.join(str(exc).split())}")
            illegal |= isinstance(ans, IllegalPlayError)
            if as_json:
                body = ans.to_dict()
                click.echo(json.dumps(body, indent=None if many else 1))
            else:
                if not first:
                    click.echo("")
                click.echo(visible("\n".join(review_text(ans, rec))))
            first = False
    except RecordError as exc:  # a record (or a line of JSON Lines) that cannot be read
        fail(str(exc))
    except (ClusterError, WorkerLost) as exc:
        fail(" ".join(str(exc).split()))
    raise SystemExit(1 if illegal else 0)


def _amount(n: int, unit: str) -> str:
    """``1 cent``, ``10 cents`` (``points``, ``penalty points``), in the run's language."""
    if unit == "cents":
        return ngettext("{n} cent", "{n} cents", n).format(n=n)
    if unit == "penalty points":
        return ngettext("{n} penalty point", "{n} penalty points", n).format(n=n)
    return ngettext("{n} point", "{n} points", n).format(n=n)


def _cost(p: PlayReview, unit: str, players: int | None) -> str:
    where = play_place(p.index, players)
    model = "" if p.loss_model is None else (
        _("against the model {loss}; ").format(loss=_tenths(p.loss_model, unit))
        if p.loss_model else _("against the model nothing; "))
    dd = (_("double dummy {loss}, best was {best}").format(
        loss=_amount(p.loss, unit), best=_(" or ").join(p.best_cards))
        if p.loss else _("double dummy nothing"))
    said = (_("{seat} passed ({where}): cost {model}{dd}") if p.card == "pass" else
            _("{seat} played {card} ({where}): cost {model}{dd}"))
    return said.format(seat=seat_word(p.seat), card=p.card, where=where, model=model, dd=dd)


def _tenths(x: float, unit: str) -> str:
    return _("{amount} {unit}").format(amount=localized(f"{x:.1f}"), unit=_(unit))


#: the one sentence that tells the two prices apart, where both are shown
BOTH = N_("Two prices: 'against the model' is what a play lost with the other seats each "
          "playing for itself as the expert player models them, over the deals the seat could "
          "think likely; 'double dummy' is what it lost with every hand open and every other "
          "seat playing against it.")


def review_text(ans: ReviewResult | IllegalPlayError, rec: Record | None = None) -> list[str]:
    """The text answer: the hand trick by trick (layout deals: every lay and pass by seat),
    each mistake marked with its cost and place, the totals of each seat reviewed."""
    if isinstance(ans, IllegalPlayError):
        return [*map(visible, ans.lines()),
                _("There is nothing to review after an illegal play.")]
    res = ans
    unit = unit_of(res.game, res.contract)
    whom = _("every seat") if res.seat is None else seat_word(res.seat)
    if res.declarer is not None:
        head = (_("{game} {contract}, {players} players, {seat} declares: the plays of {whom}, "
                  "against the model and double dummy ({unit}, {better} is better)")
                if res.priced else
                _("{game} {contract}, {players} players, {seat} declares: the plays of {whom}, "
                  "double dummy ({unit}, {better} is better)"))
    else:
        head = (_("{game} {contract}, {players} players: the plays of {whom}, against the model "
                  "and double dummy ({unit}, {better} is better)") if res.priced else
                _("{game} {contract}, {players} players: the plays of {whom}, double dummy "
                  "({unit}, {better} is better)"))
    better = _("lower") if res.lower_is_better else _("higher")
    out = [head.format(game=res.game, contract=res.contract, players=res.players,
                       seat=seat_word(res.declarer) if res.declarer is not None else "",
                       whom=whom, unit=_(unit), better=better)]
    if not res.steps:
        out.append(_("No card has been played: there is nothing to review."))
        return out
    costs = {p.index: p for p in res.plays}
    marks = {i: p for i, p in costs.items() if p.loss > 0 or (p.loss_model or 0) > 0}
    if res.priced:
        out.append(_(BOTH))
    players = res.players if res.steps[0].trick is not None else None

    def shown(s: Step) -> str:
        text = f"{seat_word(s.seat)} {s.play}" + (" " + _("(out)") if s.out else "")
        return text + ("*" if s.index in marks else "")

    if res.steps[0].trick is not None:
        for trick in sorted({s.trick for s in res.steps if s.trick is not None}):
            cards = [s for s in res.steps if s.trick == trick]
            line = _("trick {n}: {cards}").format(n=trick,
                                                  cards=", ".join(shown(s) for s in cards))
            if cards[-1].winner is not None:
                line += _("; {seat} wins").format(seat=seat_word(cards[-1].winner))
            out.append(line)
            out.extend("  * " + _cost(marks[s.index], unit, players) for s in cards
                       if s.index in marks)
    else:
        rounds: list[list[Step]] = []
        last = None
        for s in res.steps:
            if last is None or s.seat <= last:
                rounds.append([])
            rounds[-1].append(s)
            last = s.seat
        for r in rounds:
            out.append(", ".join(shown(s) for s in r))
            out.extend("  * " + _cost(marks[s.index], unit, players) for s in r
                       if s.index in marks)
    out.append("")
    for who, t in res.seats.items():
        mistakes = _("no mistake") if not t.mistakes else ngettext(
            "{n} mistake costing {loss}", "{n} mistakes costing {loss}", t.mistakes).format(
            n=t.mistakes, loss=_amount(t.loss, unit))
        model = "" if t.loss_model is None else (
            " " + _("against the model {loss} lost;").format(loss=_tenths(t.loss_model, unit)))
        dd = (" " + _("double dummy {mistakes}").format(mistakes=mistakes)
              if t.loss_model is not None else f" {mistakes}")
        out.append(ngettext("{seat}: {n} play reviewed,", "{seat}: {n} plays reviewed,",
                            t.plays).format(seat=seat_word(who), n=t.plays) + f"{model}{dd}")
    return out
