"""The evening drawn: its running totals as a standalone SVG picture (a line per player, the
stock dashed), and one self-contained HTML page (``herzla pad show --html``): the picture, the
deals with each player's score and the stock, the totals, the settlement or the winners, each
player's statistics and the rules behind the amounts.  Nothing is fetched; every name a person
typed is escaped.

>>> from herzla.evening import Evening
>>> e = Evening.new("herzla", ["Anna", "<b>Berni</b>", "Carla", "Done"])
>>> e = e.add({"hearts": [0, 3, 5, 0]}).add({"hearts": [2, 2, 2, 2]})
>>> svg = evening_svg(e)
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"'), "<b>" in svg, "&lt;b&gt;" in svg
(True, False, True)
>>> page = evening_page(e)
>>> page.startswith("<!DOCTYPE html>"), "http:" in page, "herzla/no-void" in page
(True, False, True)
"""

from __future__ import annotations

from html import escape

from herzla.contracts import get_game
from herzla.contracts.words import amount_text, cent_sign, cents, tr
from herzla.draw.html import CSS, rules_html
from herzla.draw.svg import INK, MUTED, _n, _root, _text
from herzla.evening import MAX_DEALS, Evening
from herzla.evening.text import next_sentence, outcome_lines, stats_line
from herzla.i18n import _, current, format_number, ngettext, pgettext
from herzla.limits import LimitError
from herzla.records import signed

__all__ = ["PALETTE", "evening_html", "evening_page", "evening_svg"]

#: the players' colours, seat 0 first (then round again)
PALETTE = ("#1565c0", "#c62828", "#2e7d32", "#9a7400", "#6a1b9a", "#00838f", "#ef6c00",
           "#5d4037")
STOCK_INK = "#757575"


def _check(e: Evening) -> None:
    if len(e.deals) > MAX_DEALS:
        raise LimitError(_("a picture of an evening draws at most {most} deals, not "
                           "{count}").format(most=MAX_DEALS, count=format_number(len(e.deals))))


def evening_svg(e: Evening, standalone: bool = True, *, narrow: bool = False) -> str:
    """The running totals: each player's total after every deal (from 0 before the first),
    and for a game with a stock the stock dashed; the legend names the players, beside the
    plot or (``narrow``: for a phone's screen, 380 wide) under it."""
    _check(e)
    n = len(e.players)
    unit = cent_sign() if get_game(e.game).has_stock else ""
    series = [[0] + [d.totals[s] for d in e.deals] for s in range(n)]
    stock = ([e.start_stock] + [d.stock or 0 for d in e.deals]) if e.stock is not None else None
    values = [v for line in series for v in line] + (stock or [])
    lo, hi = min(values), max(values)
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    left, top, plot_w, plot_h = (56.0, 40.0, 310.0, 200.0) if narrow else (64.0, 40.0, 520.0,
                                                                           220.0)
    rows = [(p, PALETTE[s % len(PALETTE)], f"{p} {amount_text(e.totals[s], bool(unit))}", False)
            for s, p in enumerate(e.players)]
    if stock is not None:
        rows.append(("stock", STOCK_INK, _("stock {amount}").format(amount=cents(stock[-1])),
                     True))
    legend_w = 30 + 7.4 * max(len(label) for _, _, label, _ in rows)
    width = left + plot_w + 14 if narrow else left + plot_w + 24 + legend_w
    steps = max(len(e.deals), 1)

    def x(i: int) -> float:
        return left + plot_w * i / steps

    def y(v: float) -> float:
        return top + plot_h * (hi - v) / (hi - lo)

    title = _("{game} evening: running totals").format(game=e.game)
    parts = [_text(8, 22, title, 16, INK, "bold"),
             f'<rect x="{_n(left)}" y="{_n(top)}" width="{_n(plot_w)}" height="{_n(plot_h)}" '
             f'fill="#fafafa" stroke="#d0d0d0"/>']
    if lo < 0 < hi:
        parts.append(f'<path d="M{_n(left)} {_n(y(0))}H{_n(left + plot_w)}" stroke="#9e9e9e"/>')
    for v in sorted({lo, hi, 0} if lo < 0 < hi else {lo, hi}):
        parts.append(_text(left - 6, y(v) + 4, signed(v) + unit, 11, MUTED, "normal", "end"))
    every = max(1, -(-len(e.deals) // 20))
    for i in range(0, len(e.deals) + 1, every):
        parts.append(_text(x(i), top + plot_h + 16, str(i), 11, MUTED, "normal", "middle"))
    parts.append(_text(left + plot_w / 2, top + plot_h + 34, pgettext("axis", "deal"), 12, MUTED,
                       "normal", "middle"))

    def line(points: list[int], ink: str, dashed: bool = False) -> str:
        d = "M" + " L".join(f"{_n(x(i))} {_n(y(v))}" for i, v in enumerate(points))
        dash = ' stroke-dasharray="5 4"' if dashed else ""
        return f'<path d="{d}" fill="none" stroke="{ink}" stroke-width="2"{dash}/>'

    legend_x, legend_y = (8.0, top + plot_h + 50) if narrow else (left + plot_w + 24, top + 10)
    if stock is not None:
        parts.append(line(stock, STOCK_INK, dashed=True))
    for s in range(n):
        ink = PALETTE[s % len(PALETTE)]
        parts.append(line(series[s], ink))
        if len(e.deals) <= 60:
            parts += [f'<circle cx="{_n(x(i))}" cy="{_n(y(v))}" r="2.5" fill="{ink}"/>'
                      for i, v in enumerate(series[s])]
    for j, (_name, ink, label, dashed) in enumerate(rows):
        ly = legend_y + 20 * j
        dash = ' stroke-dasharray="5 4"' if dashed else ""
        parts.append(f'<path d="M{_n(legend_x)} {_n(ly)}H{_n(legend_x + 16)}" stroke="{ink}" '
                     f'stroke-width="2"{dash}/>')
        parts.append(_text(legend_x + 22, ly + 4, label, 12, INK))
    height = (legend_y + 20 * len(rows) - 6 if narrow else
              max(top + plot_h + 44, top + 20 * len(rows) + 10))
    return _root(width, height, parts, title, standalone)


def _row(cells: list[str], cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return f"<tr{attr}>" + "".join(cells) + "</tr>"


def evening_html(e: Evening) -> str:
    """The evening as an HTML fragment (see the module notes)."""
    _check(e)
    stocked = get_game(e.game).has_stock
    has_stock = e.stock is not None
    winners = set(e.winners() or ())
    head = ["#", _("dealer"), _("contract"), *e.players] + ([_("stock")] if has_stock else [])
    rows = [_row([f"<th>{escape(h)}</th>" for h in head])]
    for d in e.deals:
        contract = d.contract.id
        if d.declarer is not None:
            contract += f" ({e.players[d.declarer]})"
        cells = [f'<td class="num">{d.k}</td>', f"<td>{escape(e.players[d.dealer])}</td>",
                 f"<td>{escape(contract)}</td>"]
        if d.scores is None:
            cells.append(f'<td colspan="{len(e.players)}">' + _("not scored") + "</td>")
        else:
            cells += [f'<td class="num">{amount_text(v, stocked)}</td>' for v in d.scores]
        if has_stock:
            cells.append(f'<td class="num">{cents(d.stock or 0)}</td>')
        rows.append(_row(cells))
    total = ["<td></td><td></td><td>" + _("total") + "</td>"] + [
        f'<td class="num{" win" if p in winners else ""}">{amount_text(t, stocked)}</td>'
        for p, t in zip(e.players, e.totals, strict=True)]
    if has_stock:
        total.append(f'<td class="num">{cents(e.stock or 0)}</td>')
    rows.append(_row(total, "total"))
    parts = [f"<figure>{evening_svg(e, standalone=False)}</figure>",
             "<h2>" + _("Deals") + "</h2><table>" + "".join(rows) + "</table>",
             f"<p>{escape(next_sentence(e))}.</p>"]
    outcome = outcome_lines(e)
    if outcome:
        what = _("Settlement") if has_stock else _("Winners")
        parts.append(f"<h2>{what}</h2><ul>" + "".join(f"<li>{escape(x)}</li>" for x in outcome)
                     + "</ul>")
    if e.deals:
        parts.append("<h2>" + _("Statistics") + "</h2><ul>" + "".join(
            f"<li>{escape(stats_line(e, s))}</li>" for s in e.statistics()) + "</ul>")
        explained = []
        for d in e.deals:
            if d.explanation:
                summary = _("Deal {k}: {contract}").format(k=d.k, contract=tr(d.contract.title))
                explained.append(f"<details><summary>{escape(summary)}"
                                 f"</summary><ul class=\"explain\">" + "".join(
                                     f"<li>{escape(x)}</li>" for x in d.explanation)
                                 + "</ul></details>")
        parts.append("<h2>" + _("Each deal explained") + "</h2>" + "".join(explained))
        parts.append(rules_html([x for d in e.deals for x in d.explanation]))
    return "".join(parts)


def evening_page(e: Evening) -> str:
    """The evening's page (see the module notes)."""
    title = _("{game} evening: {players}").format(game=e.game, players=", ".join(e.players))
    opts = ", ".join(f"{k}={v}" for k, v in e.options.items())
    meta = ngettext("{n} deal", "{n} deals", len(e.deals)).format(n=len(e.deals)) + (
        _("; options {options}").format(options=opts) if opts else "") + (
        _("; the stock started at {amount}").format(amount=cents(e.start_stock))
        if e.stock is not None else "")
    return (f"<!DOCTYPE html>\n<html lang=\"{current()}\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
            f"<h1>{escape(title)}</h1><p class=\"meta\">{escape(meta)}</p>"
            f"{evening_html(e)}<p class=note>" + _("Drawn by herzla.") + "</p></body></html>\n")
