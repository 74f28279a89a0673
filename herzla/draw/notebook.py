"""What a notebook (Jupyter, VS Code) shows for herzla's results: small HTML fragments with inline
SVG, behind the ``_repr_html_`` and ``_repr_svg_`` methods of :class:`~herzla.records.Record`,
:class:`~herzla.records.ReplayResult`, :class:`~herzla.sheets.ScoreSheet`,
:class:`~herzla.evening.Evening`,
:class:`~herzla.analysis.solve.SolveResult`, :class:`~herzla.analysis.advise.AdviceResult` and
:class:`~herzla.sim.runner.SimResult`.  Each is an ordinary function of the result, so a page or
a report can use it too.

>>> from herzla.analysis.solve import solve
>>> import json
>>> with open("docs/examples/herzla-two-void-trick6.json", encoding="utf-8") as f:
...     res = solve(json.load(f), seat=2, plays=True)
>>> fragment = solve_html(res)
>>> fragment.startswith("<div class=herzla>"), "<th>value</th>" in fragment
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from herzla.contracts import get_game
from herzla.contracts.words import cent_sign, seat_word
from herzla.display import Mime
from herzla.draw.faces import faces_of
from herzla.draw.markup import escape
from herzla.draw.svg import hand_svg, histograms_svg
from herzla.i18n import _, format_number, ngettext
from herzla.support.words import localized

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from herzla.analysis.advise import AdviceResult
    from herzla.analysis.solve import SolveResult
    from herzla.evening import Evening
    from herzla.records import Record, ReplayResult
    from herzla.sheets import ScoreSheet
    from herzla.sim.runner import SimResult
    from herzla.sim.stats import Summary

__all__ = ["advice_html", "evening_picture", "record_picture", "renderers", "replay_html",
           "sheet_picture", "sim_html", "solve_html", "table_html"]

_STYLE = ("<style>.herzla table{border-collapse:collapse;margin:.3em 0}"
          ".herzla th,.herzla td{padding:.15em .6em;border-bottom:1px solid #ddd;"
          "text-align:right}.herzla th:first-child,.herzla td:first-child{text-align:left}"
          ".herzla svg{max-width:100%;height:auto}</style>")


def table_html(head: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain HTML table, every cell escaped."""
    th = "".join(f"<th>{escape(str(h))}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>"
                   for row in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


def _wrap(title: str, *parts: str) -> str:
    return f"<div class=herzla>{_STYLE}<p><strong>{escape(title)}</strong></p>" + \
        "".join(parts) + "</div>"


def solve_html(res: SolveResult) -> str:
    """The solver's answer: the value, made or lost, the line of best play, and each play's
    value when asked for."""
    made = "" if res.made is None else (_("made") if res.made else _("lost"))
    facts: list[tuple[str, object]] = [
        (_("seat"), seat_word(res.seat)),
        (_("to move"), "-" if res.to_move is None else seat_word(res.to_move)),
        (_("value"), res.value)]
    if made:
        facts.append((_("contract"), made))
    if res.line:
        facts.append((_("line of best play"), " ".join(res.line)))
    parts = [table_html(["", ""], facts)]
    if res.plays:
        values = res.plays.values()
        lowest = get_game(res.game).lowest_wins  # penalty points: the fewest are best
        best = (min(values) if lowest else max(values)) if res.made is None else None
        rows = [(card, value, _("best") if value == best else "")
                for card, value in res.plays.items()]
        parts.append(table_html([_("play"), _("value"), ""], rows))
    return _wrap(_("{game} {contract}: exact double-dummy value").format(
        game=res.game, contract=res.contract), *parts)


def advice_html(res: AdviceResult) -> str:
    """The bidding advice: the hand, and per choice and way of playing the mean with its 95%
    interval (and the share made), the recommendation marked."""
    plan = res.plan
    cards = res.hand()
    faces = faces_of(plan.contract(plan.choices[0]))
    rows = []
    for choice, ways in res.choices.items():
        for way, e in ways.items():
            made = "" if e.p_made is None else localized(f"{e.p_made:.1%}")
            rows.append((choice + (_(" (recommended)") if choice == res.recommendation else ""),
                         way.replace("_", " "), localized(f"{e.mean:+.1f}") + cent_sign(),
                         localized(f"{e.ci95[0]:+.1f} .. {e.ci95[1]:+.1f}"), made))
    title = ngettext("{game} advice for {seat} over {n} deal",
                     "{game} advice for {seat} over {n} deals", plan.samples).format(
        game=plan.game, seat=seat_word(plan.seat), n=format_number(plan.samples))
    return _wrap(title, hand_svg(cards, faces, label=seat_word(plan.seat), standalone=False),
                 table_html([_("choice"), _("played"), _("mean"), _("95% interval"), _("made")],
                            rows))


def _summary_rows(summaries: Sequence[Summary]) -> list[tuple[object, ...]]:
    return [(seat_word(s), localized(f"{x.mean:+.3g}"), localized(f"{x.std:.3g}"),
             "-" if x.ci95 is None else localized(f"{x.ci95[0]:+.3g} .. {x.ci95[1]:+.3g}"),
             localized(str(x.min)), localized(str(x.max)))
            for s, x in enumerate(summaries)]


def sim_html(res: SimResult) -> str:
    """A simulation: per seat the mean, spread and range, the wins of a partie or an evening,
    and the histograms."""
    p = res.plan
    head = [_("seat"), _("mean"), _("std"), _("95% interval"), _("min"), _("max")]
    whole = res.partie if res.session is None else res.session.evenings
    if whole is not None:
        pt = whole
        summaries = [h.summary() for h in pt.seats]
        rows = [(*row, f"{w / pt.parties:.1%}" if pt.parties else "")
                for row, w in zip(_summary_rows(summaries), pt.wins, strict=True)]
        table = table_html([*head, _("wins")], rows)
        hists = pt.seats
        n = format_number(p.hands)
        if res.session is not None:
            what = (ngettext("{n} evening of {deals} deals", "{n} evenings of {deals} deals",
                             p.hands).format(n=n, deals=format_number(p.session or 0))
                    if p.session else ngettext("{n} evening", "{n} evenings", p.hands)
                    .format(n=n))
            xlabel = (_("evening total (cents)") if p.stock is not None
                      else _("evening total (points)"))
            ylabel = _("share of evenings")
        else:
            what = ngettext("{n} partie", "{n} parties", p.hands).format(n=n)
            xlabel = (_("partie total (cents)") if p.stock is not None
                      else _("partie total (points)"))
            ylabel = _("share of parties")
    else:
        assert res.deal is not None
        table = table_html(head, _summary_rows(res.deal.seat_summaries()))
        hists = res.deal.seats
        what = ngettext("{n} hand", "{n} hands", p.hands).format(n=format_number(p.hands))
        xlabel = (_("score per hand (cents)") if p.stock is not None
                  else _("score per hand (points)"))
        ylabel = _("share of hands")
    spec = p.specs[0]
    name = spec.contract_id if p.mode == "contract" else p.mode
    title = _("{game} {name}, {players} players, {what}, policy {policy}, seed {seed}").format(
        game=p.game, name=name, players=p.players, what=what, policy=spec.policy, seed=p.seed)
    return _wrap(title, table, histograms_svg(hists, _("each seat's scores"), xlabel, ylabel,
                                              standalone=False))


def record_picture(record: Record) -> str:
    """A hand record as a picture: every hand, then the play (:func:`record_svg`)."""
    from herzla.draw.course import course
    from herzla.draw.svg import record_svg

    return record_svg(course(record))


def replay_html(result: ReplayResult) -> str:
    """A replayed hand: the hands, the play and the settlement (:func:`hand_html`)."""
    from herzla.draw.course import course
    from herzla.draw.html import hand_html

    return hand_html(course(result.record), level=3)


def sheet_picture(sheet: ScoreSheet) -> str:
    """A score sheet as a picture (:func:`sheet_svg`)."""
    from herzla.draw.svg import sheet_svg

    return sheet_svg(sheet)


def evening_picture(evening: Evening) -> str:
    """An evening's running totals as a picture (:func:`herzla.draw.evening.evening_svg`)."""
    from herzla.draw.evening import evening_svg

    return evening_svg(evening)


def renderers() -> dict[tuple[str, Mime], Callable[[Any], str]]:
    """What each value shows in a notebook, as :mod:`herzla.display` registers it: (the value's
    class name, ``svg`` or ``html``) to the function that draws it."""
    return {
        ("Record", "svg"): record_picture,
        ("ReplayResult", "html"): replay_html,
        ("ScoreSheet", "svg"): sheet_picture,
        ("Evening", "svg"): evening_picture,
        ("SolveResult", "html"): solve_html,
        ("AdviceResult", "html"): advice_html,
        ("SimResult", "html"): sim_html,
    }
