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
from herzla.display import Mime
from herzla.draw.faces import faces_of
from herzla.draw.markup import escape
from herzla.draw.svg import hand_svg, histograms_svg

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
    made = "" if res.made is None else ("made" if res.made else "lost")
    facts = [("seat", res.seat), ("to move", "-" if res.to_move is None else res.to_move),
             ("value", res.value)]
    if made:
        facts.append(("contract", made))
    if res.line:
        facts.append(("line of best play", " ".join(res.line)))
    parts = [table_html(["", ""], facts)]
    if res.plays:
        values = res.plays.values()
        lowest = get_game(res.game).lowest_wins  # penalty points: the fewest are best
        best = (min(values) if lowest else max(values)) if res.made is None else None
        rows = [(card, value, "best" if value == best else "")
                for card, value in res.plays.items()]
        parts.append(table_html(["play", "value", ""], rows))
    return _wrap(f"{res.game} {res.contract}: exact double-dummy value", *parts)


def advice_html(res: AdviceResult) -> str:
    """The bidding advice: the hand, and per choice and way of playing the mean with its 95%
    interval (and the share made), the recommendation marked."""
    plan = res.plan
    cards = res.hand()
    faces = faces_of(plan.contract(plan.choices[0]))
    rows = []
    for choice, ways in res.choices.items():
        for way, e in ways.items():
            made = "" if e.p_made is None else f"{e.p_made:.1%}"
            rows.append((choice + (" (recommended)" if choice == res.recommendation else ""),
                         way.replace("_", " "), f"{e.mean:+.1f}c",
                         f"{e.ci95[0]:+.1f} .. {e.ci95[1]:+.1f}", made))
    return _wrap(f"{plan.game} advice for seat {plan.seat} over {plan.samples:,} deals",
                 hand_svg(cards, faces, label=f"seat {plan.seat}", standalone=False),
                 table_html(["choice", "played", "mean", "95% interval", "made"], rows))


def _summary_rows(summaries: Sequence[Summary]) -> list[tuple[object, ...]]:
    return [(f"seat {s}", f"{x.mean:+.3g}", f"{x.std:.3g}",
             "-" if x.ci95 is None else f"{x.ci95[0]:+.3g} .. {x.ci95[1]:+.3g}", x.min, x.max)
            for s, x in enumerate(summaries)]


def sim_html(res: SimResult) -> str:
    """A simulation: per seat the mean, spread and range, the wins of a partie or an evening,
    and the histograms."""
    p = res.plan
    unit = "cents" if p.stock is not None else "points"
    head = ["seat", "mean", "std", "95% interval", "min", "max"]
    whole = res.partie if res.session is None else res.session.evenings
    if whole is not None:
        pt = whole
        summaries = [h.summary() for h in pt.seats]
        rows = [(*row, f"{w / pt.parties:.1%}" if pt.parties else "")
                for row, w in zip(_summary_rows(summaries), pt.wins, strict=True)]
        table = table_html([*head, "wins"], rows)
        hists = pt.seats
        word = "evening" if res.session is not None else "partie"
        what = f"{p.hands:,} {word}s" + (f" of {p.session:,} deals" if p.session else "")
        xlabel = f"{word} total ({unit})"
        ylabel = f"share of {word}s"
    else:
        assert res.deal is not None
        table = table_html(head, _summary_rows(res.deal.seat_summaries()))
        hists = res.deal.seats
        what = f"{p.hands:,} hands"
        xlabel = f"score per hand ({unit})"
        ylabel = "share of hands"
    spec = p.specs[0]
    name = spec.contract_id if p.mode == "contract" else p.mode
    title = f"{p.game} {name}, {p.players} players, {what}, policy {spec.policy}, seed {p.seed}"
    return _wrap(title, table, histograms_svg(hists, "each seat's scores", xlabel, ylabel,
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
