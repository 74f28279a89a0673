"""One self-contained HTML page of a hand or a score sheet (``herzla show --html``), and the
fragments the notebook display shows (``_repr_html_``).

The page holds everything it shows, inline: the pictures as SVG, the style as CSS, in generic
font families; it fetches nothing (no URL, no script), so it opens offline, mails and archives
as one file.  It shows the hands, the play trick by trick (or the rows as they grew), the
settlement with the rule behind every amount (each rule id cited with its title and text from
herzla's rule book), and with a review the cost of each mistake.

>>> import json
>>> from herzla.records import read_record
>>> with open("docs/examples/herzla-two-void.json", encoding="utf-8") as f:
...     page = record_page(course(read_record(json.load(f))))
>>> page.startswith("<!DOCTYPE html>"), "http" in page, page.count("<svg")
(True, False, 1)
>>> "herzla/two-void" in page and "Settlement with 2 void players" in page
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from herzla.contracts.words import amount_text, cents, seat_word, tr
from herzla.counting import play_place
from herzla.draw.course import Course, Mark, course
from herzla.draw.faces import Faces, faces_of, labelled, labelled_code
from herzla.draw.markup import escape
from herzla.draw.svg import record_svg, sheet_svg
from herzla.draw.text import RULE_ID, mistakes_of
from herzla.i18n import _, current, format_number, pgettext
from herzla.limits import check_drawn
from herzla.quote import visible
from herzla.rulebook import UnknownTopic, get_rule
from herzla.sheets import ScoreSheet
from herzla.support.words import localized

__all__ = ["CSS", "course", "explanation_html", "hand_html", "record_page", "review_html",
           "rules_html", "sheet_html", "sheet_page"]

CSS = """
body { font-family: sans-serif; color: #1a1a1a; background: #ffffff; margin: 1.5em auto;
       max-width: 1200px; padding: 0 1em; line-height: 1.4; }
h1 { font-size: 1.5em; margin: 0 0 .3em; }
h2 { font-size: 1.25em; margin: 1.6em 0 .4em; border-bottom: 1px solid #d0d0d0; }
h3 { font-size: 1.05em; margin: 1.2em 0 .3em; }
.meta { color: #5f6368; margin: 0 0 1em; }
figure { margin: .5em 0; overflow-x: auto; }
svg { max-width: 100%; height: auto; }
table { border-collapse: collapse; margin: .4em 0 1em; font-variant-numeric: tabular-nums; }
th, td { padding: .2em .7em; border-bottom: 1px solid #e3e3e3; text-align: left;
         white-space: nowrap; }
td.grow { white-space: normal; }
td span { white-space: nowrap; }
th { color: #5f6368; font-weight: 600; }
td.num { text-align: right; }
tr.total td { font-weight: 700; border-top: 2px solid #424242; }
td.win { background: #c8e6c9; }
.red { color: #c8102e; } .black { color: #1a1a1a; }
.s0 { color: #7a4a1c; } .s1 { color: #2e7d32; } .s2 { color: #c8102e; } .s3 { color: #866500; }
.won { font-weight: 700; text-decoration: underline; text-decoration-color: #e0a800;
       text-decoration-thickness: 3px; }
.void { outline: 2px dashed #1565c0; outline-offset: 1px; }
.illegal { background: #c62828; color: #ffffff; padding: 0 .2em; }
.loss { color: #c62828; font-weight: 700; }
.note { color: #5f6368; font-size: .92em; }
code { background: #f3f4f6; padding: 0 .25em; border-radius: 3px; }
dl.rules dt { font-weight: 700; margin-top: .5em; }
dl.rules dd { margin: 0 0 0 1.2em; color: #333333; }
ul.explain li { margin: .15em 0; }
"""


def _card_html(card_text: str, suit: int, faces: Faces, marks: Sequence[Mark] = ()) -> str:
    cls = [f"s{suit}" if faces is Faces.GERMAN else ("red" if suit in (2, 3) else "black")]
    if Mark.WINNER in marks:
        cls.append("won")
    if Mark.DISCARD in marks:
        cls.append("void")
    if Mark.ILLEGAL in marks:
        cls.append("illegal")
    return f'<span class="{" ".join(cls)}">{escape(card_text)}</span>'


def _cite(line: str) -> str:
    """A sentence with its rule ids as code."""
    out, last = [], 0
    for m in RULE_ID.finditer(line):
        out.append(escape(line[last:m.start(1)]))
        out.append(f"<code>{escape(m.group(1))}</code>")
        last = m.end(1)
    out.append(escape(line[last:]))
    return "".join(out)


def rules_html(lines: Sequence[str]) -> str:
    """The rule-book entries the sentences cite (by id), each with its title and text."""
    seen: list[str] = []
    for line in lines:
        for m in RULE_ID.finditer(line):
            if m.group(1) not in seen:
                seen.append(m.group(1))
    items = []
    for rule_id in seen:
        try:
            rule = get_rule(rule_id)
        except UnknownTopic:
            continue  # an illegal-play rule id (heart-lead-ban): named in the sentence itself
        items.append(f"<dt><code>{escape(rule.id)}</code> {escape(rule.title)}</dt>"
                     f"<dd>{escape(rule.text)}</dd>")
    if not items:
        return ""
    return "<h3>" + _("The rules cited") + '</h3><dl class="rules">' + "".join(items) + "</dl>"


def explanation_html(lines: Sequence[str]) -> str:
    """Sentences that explain a score, as a list with their rule ids as code, then the rules
    they cite (:func:`rules_html`)."""
    return ('<ul class="explain">' + "".join(f"<li>{_cite(x)}</li>" for x in lines) + "</ul>"
            + rules_html(lines))


def _seats_head(c: Course) -> tuple[int, str]:
    """The seats, and the header cells that name them."""
    n = c.record.players
    return n, "".join(f"<th>{seat_word(s)}</th>" for s in range(n))


def _trick_table(c: Course, faces: Faces, losses: Mapping[int, int]) -> tuple[str, str]:
    n, head = _seats_head(c)
    rows = []
    for t in c.tricks or ():
        seen = t.by_seat()
        cells = []
        for s in range(n):
            p = seen.get(s)
            if p is None:
                cells.append("<td></td>")
                continue
            text = labelled(p.card, faces) + (", " + _("led") if s == t.leader else "")
            loss = losses.get(p.index)
            extra = f' <span class="loss">&minus;{loss}</span>' if loss else ""
            cells.append(f"<td>{_card_html(text, int(p.card.suit), faces, p.marks)}"
                         f"{extra}</td>")
        won = seat_word(t.winner) if t.winner is not None else "&hellip;"
        notes = "".join(f'<div class="note">{escape(x)}</div>' for x in t.notes)
        rows.append(f"<tr><td class=num>{t.number}</td><td>{seat_word(t.leader)}</td>"
                    f"{''.join(cells)}<td class=grow>{won}{notes}</td></tr>")
    return _("Trick by trick"), (
        f"<table><tr><th>{_('trick')}</th><th>{_('lead')}</th>{head}"
        f"<th>{_('won by')}</th></tr>" + "".join(rows) + "</table>"
        '<p class="note">' + _("Underlined in gold: the card that won the trick; dashed "
                               "in blue: a card that did not follow suit (the seat "
                               "showed a void); on red: the illegal play.") + "</p>")


def _moves_table(c: Course, faces: Faces, losses: Mapping[int, int]) -> tuple[str, str]:
    n, head = _seats_head(c)
    rows = []
    # each cell names its seat (data-who), so that a narrow page may set a round's moves one
    # after the other, each with its seat's name, instead of in columns
    after = _("the rows after the round")
    for r in c.rounds():
        by_seat = {m.seat: m for m in r.moves}
        cells = []
        for s in range(n):
            m = by_seat.get(s)
            who = f'data-who="{seat_word(s)}"'
            if m is None:
                cells.append("<td></td>")
                continue
            marks = (Mark.ILLEGAL,) if m.illegal else ()
            if m.card is None:
                word = _("pass")
                cells.append(f"<td {who}>"
                             f"{f'<span class=illegal>{word}</span>' if m.illegal else word}</td>")
                continue
            ends = c.contract.end_marks
            mark = ((" " + _("(low end)") if ends and m.end == "-" else "")
                    + (" &mdash; " + _("out") if m.out else ""))
            laid = _card_html(labelled(m.card, faces), int(m.card.suit), faces, marks)
            cells.append(f"<td {who}>{laid}{mark}</td>")
        grown = " &nbsp; ".join(" ".join(_card_html(labelled(x, faces), int(x.suit), faces)
                                         for x in row.cards) for row in r.rows)
        rows.append(f'<tr><td class=num data-who="{_("round")}">{r.number}</td>{"".join(cells)}'
                    f'<td class=grow data-who="{after}">{grown}</td></tr>')
    order = c.result.order or ()
    out = _("Out in order: {seats}").format(
        seats=", ".join(seat_word(s) for s in order) or _("nobody yet"))
    return _("The rows as they grew"), (
        f'<table class="rounds"><tr><th>{_("round")}</th>{head}<th>{after}</th></tr>'
        + "".join(rows)
        + f"</table><p>{out}.</p>")


#: a question of kind: a trick deal's plays are a table of its tricks, any other deal's a table of
#: its rounds of moves (with its rows, where it lays them out)
_PLAYS: dict[str, Callable[[Course, Faces, Mapping[int, int]], tuple[str, str]]] = {
    "tricks": _trick_table}


def _settlement(c: Course, faces: Faces) -> str:
    res, r = c.result, c.record
    stocked = r.contract.has_stock
    parts = ["<h3>" + _("Settlement") + "</h3>"]
    if res.illegal is not None:
        bad = res.illegal
        parts.append("<p>" + _("{illegal} by seat {seat} at {place}, rule {rule}: {why}.").format(
            illegal='<span class="illegal">' + escape(_("Illegal: {card}").format(
                card=labelled_code(bad.card, faces))) + "</span>",
            seat=bad.seat, place=escape(c.place(bad.index)),
            rule=f"<code>{escape(bad.rule)}</code>", why=escape(bad.message)) + "</p>")
    if res.scores is not None:
        cells = "".join(f"<td class=num>{amount_text(v, stocked)}</td>" for v in res.scores)
        head = "".join(f"<th>{seat_word(s)}</th>" for s in range(r.players))
        parts.append(f"<table><tr>{head}</tr><tr>{cells}</tr></table>")
    elif res.ruling is not None and res.ruling.established and res.ruling.scores is not None:
        # the renege ended the hand: the ruling below scores it, so the hand is not "incomplete"
        parts.append("<p>" + _("The play stops at the renege: the hand is scored by the ruling "
                               "below.") + "</p>")
    else:
        parts.append("<p>" + (_("No scores: the hand is not complete (an illegal play stops "
                                "it).") if res.illegal else
                              _("No scores: the hand is not complete.")) + "</p>")
    facts = []
    if res.stock is not None:
        facts.append(_("stock {amount}").format(amount=cents(res.stock)))
    if res.score is not None and res.score.events:
        facts.append(_("events: {events}").format(
            events=", ".join(escape(e) for e in res.score.events)))
    if facts:
        parts.append(f"<p>{'; '.join(facts)}</p>")
    parts.append(explanation_html(res.explanation))
    ruling = res.ruling
    if ruling is not None:
        what = (_("established, option renege={option}").format(option=escape(ruling.option))
                if ruling.established else _("corrected, no penalty"))
        parts.append("<h3>" + _("Ruling: a renege by seat {seat}, {what}").format(
            seat=ruling.seat, what=what) + "</h3>")
        if ruling.scores is not None:
            cells = "".join(f"<td class=num>{amount_text(v, stocked)}</td>"
                            for v in ruling.scores)
            head = "".join(f"<th>{seat_word(s)}</th>" for s in range(r.players))
            parts.append(f"<table><tr>{head}</tr><tr>{cells}</tr></table>")
        if ruling.stock is not None:
            parts.append("<p>" + _("stock {amount}").format(amount=cents(ruling.stock)) + "</p>")
        parts.append(explanation_html(ruling.explanation))
    return "".join(parts)


def review_html(review: Mapping[str, Any], c: Course | None = None,
                faces: Faces | str | None = None) -> str:
    """The review of a hand (the ``to_dict()`` of :func:`herzla.analysis.review.review`): each
    mistake with what it cost, and each seat's count; with the hand's course ``c`` each play
    is placed in its trick and each card written as the drawing writes it, its code beside."""
    f = faces_of(c.contract, faces) if c is not None else Faces.parse(faces or "french")

    def where(index: int) -> str:
        return c.place(index) if c is not None else play_place(index)

    def card(text: object) -> str:
        return escape(labelled_code(text, f))

    parts = []
    priced = [p for p in review.get("plays", []) if "loss_model" in p]
    if priced:
        # where every seat plays for itself, the price at a real table leads
        lost = [p for p in priced if p["loss_model"] > 0]
        parts.append("<h3>" + _("Review: what each play lost against the model") + "</h3><p>"
                     + _("Against the model: what a play lost with the other seats each playing "
                         "for itself (as the expert player models them), over the deals the "
                         "seat could think likely. Double dummy, below: what it lost with every "
                         "hand open and every other seat playing against it.") + "</p>")
        if lost:
            parts.append(_head(pgettext("review", "play"), pgettext("review", "seat"),
                               pgettext("review", "card"), pgettext("review", "lost"))
                         + "".join(f"<tr><td>{escape(where(int(p['index'])))}</td>"
                                   f"<td>{seat_word(int(p['seat']))}</td><td>{card(p['card'])}</td>"
                                   f"<td class='num loss'>"
                                   f"{format_number(float(p['loss_model']), 1)}</td>"
                                   f"</tr>" for p in lost) + "</table>")
        else:
            parts.append("<p>" + _("Nothing lost: every play was the model's best.") + "</p>")
    plays = [p for p in review.get("plays", []) if p.get("loss")]
    parts.append("<h3>" + _("Review: what each mistake cost (double dummy)") + "</h3>")
    if plays:
        rows = "".join(
            f"<tr><td>{escape(where(int(p['index'])))}</td><td>{seat_word(int(p['seat']))}</td>"
            f"<td>{card(p['card'])}</td><td class=num>{localized(str(p['played']))}</td>"
            f"<td>{_(' or ').join(card(x) for x in p.get('best_cards', []))}</td>"
            f"<td class=num>{localized(str(p['best']))}</td>"
            f"<td class='num loss'>{localized(str(p['loss']))}</td></tr>" for p in plays)
        parts.append(_head(pgettext("review", "play"), pgettext("review", "seat"),
                           pgettext("review", "card"), pgettext("review", "its value"),
                           pgettext("review", "best cards"), pgettext("review", "best value"),
                           pgettext("review", "cost")) + rows + "</table>")
    else:
        parts.append("<p>" + _("No mistakes: every play kept the best value.") + "</p>")
    seats = review.get("seats") or {}
    if seats:
        model = any("loss_model" in v for v in seats.values())

        def against(v: Mapping[str, Any]) -> str:
            return (f"<td class=num>{format_number(float(v.get('loss_model', 0)), 1)}</td>"
                    if model else "")

        rows = "".join(f"<tr><td>{seat_word(int(s))}</td>"
                       f"<td class=num>{int(v.get('plays', 0))}</td>"
                       f"{against(v)}<td class=num>{int(v.get('mistakes', 0))}</td>"
                       f"<td class=num>{escape(str(v.get('loss', 0)))}</td></tr>"
                       for s, v in sorted(seats.items(), key=lambda kv: int(kv[0])))
        heads = [pgettext("review", "seat"), pgettext("review", "plays"),
                 *([pgettext("review", "lost against the model")] if model else []),
                 pgettext("review", "double-dummy mistakes"), pgettext("review", "their cost")]
        parts.append(_head(*heads) + rows + "</table>")
    return "".join(parts)


def _head(*names: str) -> str:
    """A table's start and its row of column heads."""
    return "<table><tr>" + "".join(f"<th>{escape(n)}</th>" for n in names) + "</tr>"


def _heading(c: Course) -> tuple[str, str]:
    r = c.record
    decl = _(", declarer seat {seat}").format(seat=r.declarer) if r.declarer is not None else ""
    stock = (_(", stock {amount} before the hand").format(amount=cents(r.stock))
             if r.contract.has_stock else "")
    opts = ""
    if r.options:
        opts = _("; options {options}").format(
            options=", ".join(f"{k}={v}" for k, v in sorted(r.options.items())))
    return (f"{r.game} {r.contract_id}",
            _("{title}: {rules}. {players} players, dealer seat {dealer}, forehand seat "
              "{forehand}{declarer}{stock}{options}.").format(
                title=tr(r.contract.title), rules=r.contract.describe(), players=r.players,
                dealer=r.dealer, forehand=r.forehand, declarer=decl, stock=stock, options=opts))


def hand_html(c: Course, faces: Faces | str | None = None,
              review: Mapping[str, Any] | None = None, level: int = 2,
              title: str | None = None) -> str:
    """A hand as an HTML fragment: a heading (``title``, default the game and contract; "" for
    none), the picture (hands and play), the play as a table, the settlement with its rules,
    and the review if given."""
    f = faces_of(c.contract, faces)
    name, meta = _heading(c)
    name = name if title is None else title
    what, plays = _PLAYS.get(str(c.contract.kind), _moves_table)(c, f, mistakes_of(review))
    head = f"<h{level}>{escape(name)}</h{level}>" if name else ""
    tags = "".join(f"<dt>{escape(k)}</dt><dd>{escape(visible(v))}</dd>"
                   for k, v in c.record.tags.items())
    return (f"<section>{head}<p class=meta>{escape(meta)}</p>"
            f"{f'<dl class=tags>{tags}</dl>' if tags else ''}"
            f"<figure>{record_svg(c, f, standalone=False, review=review)}</figure>"
            f"<h3>{what}</h3>{plays}"
            f"{_settlement(c, f)}{review_html(review, c, f) if review is not None else ''}"
            "</section>")


def sheet_html(sheet: ScoreSheet) -> str:
    """A score sheet as an HTML fragment: its picture and its explanation."""
    return (f"<figure>{sheet_svg(sheet, standalone=False)}</figure>"
            '<ul class="explain">' + "".join(f"<li>{_cite(x)}</li>" for x in sheet.explanation)
            + "</ul>")


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html>\n<html lang=\"{current()}\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
            f"{body}<p class=note>" + _("Drawn by herzla.") + "</p></body></html>\n")


def record_page(c: Course, faces: Faces | str | None = None,
                review: Mapping[str, Any] | None = None) -> str:
    """The page of one hand (see the module notes)."""
    name, _ = _heading(c)
    return _page(name, f"<h1>{escape(name)}</h1>" + hand_html(c, faces, review, title=""))


def sheet_page(sheet: ScoreSheet, faces: Faces | str | None = None,
               reviews: Sequence[Mapping[str, Any] | None] | None = None) -> str:
    """The page of a partie, session or match: the score sheet, then every hand (at most
    :data:`herzla.limits.MAX_DRAWN_HANDS`, :class:`herzla.limits.LimitError`)."""
    check_drawn(len(sheet.rows))
    title = _("{game} {kind}, {players} players").format(game=sheet.game, kind=sheet.kind,
                                                         players=sheet.players)
    parts = [f"<h1>{escape(title)}</h1>", sheet_html(sheet)]
    for i, row in enumerate(sheet.rows):
        review = reviews[i] if reviews is not None and i < len(reviews) else None
        rec = row.result.record
        parts.append(hand_html(course(rec), faces, review, level=2,
                               title=_("Hand {n}: {game} {contract}").format(
                                   n=i + 1, game=rec.game, contract=rec.contract_id)))
    return _page(title, "".join(parts))
