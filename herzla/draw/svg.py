"""Standalone SVG pictures of the game: a card, a hand, a trick, a whole hand trick by trick, the
rows of a layout deal, a score sheet and the histograms of a simulation.

Every picture is one ``<svg>`` element with a ``viewBox`` and its own size, drawn with shapes and
text in generic font families only (``sans-serif``): no fonts, images or anything else fetched,
so a file opens anywhere and pastes into a forum post or a notebook.  The suits are drawn as
shapes in either faces: ♣ ♠ ♥ ♦ (hearts and diamonds red) or the German acorn, leaf, heart and bell.
With ``standalone=False`` the ``xmlns`` is left out, for SVG inlined in an HTML page.

>>> from herzla.cards import Card, parse_cards
>>> svg = hand_svg(parse_cards("CA CT H9 D7"), Faces.GERMAN, label="seat 0")
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"'), svg.count('class="card"')
(True, 4)
>>> 'Herz 9' in svg, 'Eichel Sau' in svg
(True, True)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence

from herzla.cards import Card, Rank, Suit
from herzla.contracts.words import amount_text, cents, seat_word
from herzla.draw.course import Course, Mark, Row, TrickCard, TrickLine
from herzla.draw.faces import (
    SUIT_COLOURS,
    Faces,
    card_name,
    faces_of,
    labelled_code,
    rank_label,
    suit_name,
)
from herzla.draw.markup import escape
from herzla.draw.text import RULE_ID, mistakes_of
from herzla.i18n import _
from herzla.kinds.tricks import Trick
from herzla.limits import check_drawn
from herzla.records import sort_hand
from herzla.sheets import ScoreSheet
from herzla.sim.stats import Histogram
from herzla.support.words import localized

__all__ = ["CARD_H", "CARD_W", "card_svg", "hand_svg", "histograms_svg", "record_svg",
           "rows_svg", "sheet_svg", "trick_svg"]

#: a card's size at scale 1, in pixels
CARD_W, CARD_H = 56, 80
#: how much of a card shows under the next one in a hand or a row
OVERLAP = 27
FONT = "sans-serif"
INK = "#1a1a1a"
MUTED = "#5f6368"
WIN = "#e0a800"
BAD = "#c62828"
VOID = "#1565c0"


def _attr(**kw: object) -> str:
    return " ".join(f'{k.rstrip("_").replace("_", "-")}="{escape(str(v))}"' for k, v in kw.items())


def _text(x: float, y: float, text: str, size: float = 13, fill: str = INK,
          weight: str = "normal", anchor: str = "start") -> str:
    extra = {}
    if weight != "normal":
        extra["font_weight"] = weight
    if anchor != "start":
        extra["text_anchor"] = anchor
    attrs = _attr(x=_n(x), y=_n(y), font_family=FONT, font_size=_n(size), fill=fill, **extra)
    return f"<text {attrs}>{escape(text)}</text>"


def _n(v: float) -> str:
    """A coordinate, short: ``12`` or ``12.5``."""
    return f"{v:.1f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))


def _root(width: float, height: float, body: Iterable[str], title: str,
          standalone: bool = True) -> str:
    ns = ' xmlns="http://www.w3.org/2000/svg"' if standalone else ""
    w, h = _n(width), _n(height)
    return (f'<svg{ns} viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
            f'font-family="{FONT}"><title>{escape(title)}</title>'
            f'<rect width="{w}" height="{h}" fill="#ffffff"/>' + "".join(body) + "</svg>")


# -- suits: shapes in a 100 x 100 box --------------------------------------------------------

_HEART = ("M50 90C18 66 2 46 8 27C14 8 40 6 50 28C60 6 86 8 92 27C98 46 82 66 50 90Z")
_SPADE = ("M50 4C80 32 98 48 92 66C86 84 64 84 55 70C57 82 62 90 70 96H30C38 90 43 82 45 70"
          "C36 84 14 84 8 66C2 48 20 32 50 4Z")


def _suit_shape(suit: Suit, faces: Faces) -> str:
    fill = SUIT_COLOURS[faces][suit]
    if faces is Faces.FRENCH:
        if suit == Suit.H:
            return f'<path d="{_HEART}" fill="{fill}"/>'
        if suit == Suit.D:
            return f'<path d="M50 2L88 50L50 98L12 50Z" fill="{fill}"/>'
        if suit == Suit.S:
            return f'<path d="{_SPADE}" fill="{fill}"/>'
        return (f'<g fill="{fill}"><circle cx="50" cy="26" r="21"/><circle cx="26" cy="58" r="21"/>'
                f'<circle cx="74" cy="58" r="21"/><path d="M45 50H55L64 97H36Z"/></g>')
    if suit == Suit.H:
        return f'<path d="{_HEART}" fill="{fill}" stroke="#8e0b20" stroke-width="3"/>'
    if suit == Suit.D:  # Schellen: a bell
        return (f'<g stroke="#6d5200" stroke-width="4"><circle cx="50" cy="54" r="38" '
                f'fill="{fill}"/><path d="M14 44H86" fill="none"/>'
                f'<path d="M50 68V92" fill="none"/></g>'
                f'<circle cx="50" cy="68" r="7" fill="#6d5200"/>'
                f'<circle cx="50" cy="12" r="6" fill="{fill}" stroke="#6d5200" stroke-width="3"/>')
    if suit == Suit.S:  # Gras: a leaf
        return (f'<path d="M50 2C86 26 92 64 50 90C8 64 14 26 50 2Z" fill="{fill}" '
                f'stroke="#1b5e20" stroke-width="3"/>'
                f'<path d="M50 10V98M50 40L30 28M50 40L70 28M50 60L28 46M50 60L72 46" '
                f'stroke="#c8e6c9" stroke-width="3" fill="none"/>')
    # Eichel: an acorn
    return (f'<path d="M50 2V20" stroke="#4e2e0e" stroke-width="6"/>'
            f'<ellipse cx="50" cy="64" rx="25" ry="32" fill="#c68a42" stroke="#4e2e0e" '
            f'stroke-width="3"/>'
            f'<path d="M18 50C18 22 82 22 82 50Z" fill="{fill}" stroke="#4e2e0e" '
            f'stroke-width="3"/>'
            f'<path d="M30 34L38 46M44 30L50 46M58 30L62 46M72 36L72 46" stroke="#4e2e0e" '
            f'stroke-width="2"/>')


def _ink(suit: Suit, faces: Faces) -> str:
    """The colour of a suit's writing: its own, but the bells' gold darker, to read on white."""
    return "#9a7400" if faces is Faces.GERMAN and suit == Suit.D else SUIT_COLOURS[faces][suit]


def _pip(suit: Suit, faces: Faces, x: float, y: float, size: float) -> str:
    return (f'<g transform="translate({_n(x)} {_n(y)}) scale({size / 100:.3f})">'
            f'{_suit_shape(suit, faces)}</g>')


# -- a card ----------------------------------------------------------------------------------

def _card(card: Card, faces: Faces, x: float, y: float, scale: float = 1.0,
          marks: Sequence[Mark] = (), note: str = "", game: str | None = None) -> str:
    """One card at (x, y), with a frame for the marks it carries (its name as ``game`` says
    it)."""
    w, h = CARD_W * scale, CARD_H * scale
    colour = _ink(card.suit, faces)
    label = rank_label(card.rank, faces)
    name = f"{card_name(card, faces, game)} ({card.code})"  # the code a user types, beside it
    if note:
        name += f", {note}"
    parts = [f'<g class="card" data-code="{card}">', f"<title>{escape(name)}</title>",
             f'<rect {_attr(x=_n(x + 0.5), y=_n(y + 0.5), width=_n(w - 1), height=_n(h - 1))} '
             f'rx="{_n(5 * scale)}" fill="#ffffff" stroke="#8a8a8a" stroke-width="1"/>']
    fs = 15 * scale
    parts.append(_text(x + 3.5 * scale, y + 16 * scale, label, fs, colour, "bold"))
    parts.append(_pip(card.suit, faces, x + 4 * scale, y + 20 * scale, 13 * scale))
    cx, cy = x + w / 2, y + h / 2
    if card.rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
        parts.append(f'<rect {_attr(x=_n(x + 18 * scale), y=_n(y + 10 * scale))} '
                     f'width="{_n(w - 24 * scale)}" height="{_n(h - 20 * scale)}" '
                     f'rx="{_n(3 * scale)}" fill="{colour}" fill-opacity="0.12"/>')
        parts.append(_text(cx + 6 * scale, cy + 2 * scale, label, 24 * scale, colour, "bold",
                           "middle"))
        parts.append(_pip(card.suit, faces, cx - 3 * scale, cy + 8 * scale, 18 * scale))
    else:
        size = (34 if card.rank == Rank.ACE else 26) * scale
        parts.append(_pip(card.suit, faces, cx - size / 2 + 5 * scale, cy - size / 2 + 4 * scale,
                          size))
    if Mark.WINNER in marks:
        parts.append(f'<rect {_attr(x=_n(x - 1.5), y=_n(y - 1.5), width=_n(w + 3))} '
                     f'height="{_n(h + 3)}" rx="{_n(6 * scale)}" fill="none" stroke="{WIN}" '
                     f'stroke-width="3"/>')
    if Mark.DISCARD in marks:
        parts.append(f'<rect {_attr(x=_n(x + 1), y=_n(y + 1), width=_n(w - 2))} '
                     f'height="{_n(h - 2)}" rx="{_n(5 * scale)}" fill="none" stroke="{VOID}" '
                     f'stroke-width="2" stroke-dasharray="5 3"/>')
    if Mark.ILLEGAL in marks:
        parts.append(f'<path d="M{_n(x + 4)} {_n(y + 4)}L{_n(x + w - 4)} {_n(y + h - 4)}'
                     f'M{_n(x + w - 4)} {_n(y + 4)}L{_n(x + 4)} {_n(y + h - 4)}" '
                     f'stroke="{BAD}" stroke-width="4" stroke-linecap="round"/>')
    parts.append("</g>")
    return "".join(parts)


def card_svg(card: Card, faces: Faces | str = Faces.FRENCH, scale: float = 1.5,
             standalone: bool = True) -> str:
    """One card."""
    f = Faces.parse(faces)
    return _root(CARD_W * scale + 4, CARD_H * scale + 4,
                 [_card(card, f, 2, 2, scale)], f"{card_name(card, f)} ({card.code})",
                 standalone)


def _fan(cards: Sequence[Card], faces: Faces, x: float, y: float, scale: float = 1.0,
         game: str | None = None) -> str:
    return "".join(_card(c, faces, x + i * OVERLAP * scale, y, scale, game=game)
                   for i, c in enumerate(cards))


def _fan_width(count: int, scale: float = 1.0) -> float:
    return (CARD_W + OVERLAP * max(0, count - 1)) * scale if count else 0.0


def hand_svg(cards: Sequence[Card], faces: Faces | str = Faces.FRENCH, label: str | None = None,
             standalone: bool = True) -> str:
    """A hand, its cards overlapping in the order given (sort them with
    :func:`herzla.records.sort_hand`), with an optional label above."""
    f = Faces.parse(faces)
    top = 22 if label else 4
    body = [_text(4, 16, label, 14, INK, "bold")] if label else []
    body.append(_fan(cards, f, 4, top))
    width = max(_fan_width(len(cards)) + 8, 8 * len(label or "") + 8, 40)
    return _root(width, top + CARD_H + 4, body, label or _("a hand"), standalone)


def trick_svg(trick: Trick | TrickLine, players: int, faces: Faces | str = Faces.FRENCH,
              number: int | None = None, standalone: bool = True) -> str:
    """One trick: each seat's card under its seat, the leader marked, the winner framed."""
    f = Faces.parse(faces)
    line = _line_of(trick, players, number or 1)
    col = CARD_W + 16
    seen = line.by_seat()
    head = _("trick {n}").format(n=line.number)
    if line.winner is not None:
        head = _("trick {n}: won by seat {seat}").format(n=line.number, seat=line.winner)
    body = [_text(6, 18, head, 14, INK, "bold")]
    for s in range(players):
        x = 8 + s * col
        lead = s == line.leader
        body.append(_text(x, 40, _("seat {seat} led").format(seat=s) if lead else seat_word(s),
                          12,
                          INK if lead else MUTED, "bold" if lead else "normal"))
        p = seen.get(s)
        if p is not None:
            body.append(_card(p.card, f, x, 48, 1.0, p.marks))
    return _root(max(8 + players * col, 200), 48 + CARD_H + 8, body,
                 _("trick {n}").format(n=line.number), standalone)


@functools.singledispatch
def _line_of(trick: Trick | TrickLine, players: int, number: int) -> TrickLine:
    """A trick as a course draws it: a trick of a course as it is (:func:`_line_of_line`), a
    trick as the engine keeps it read (:func:`_line_of_trick`)."""
    raise TypeError(f"not a trick: {trick!r}")


@_line_of.register
def _line_of_line(trick: TrickLine, players: int, number: int) -> TrickLine:
    return trick


@_line_of.register
def _line_of_trick(trick: Trick, players: int, number: int) -> TrickLine:
    cards = []
    for i, card in enumerate(trick.cards):
        seat = (trick.leader + i) % players
        marks = []
        if i and card.suit != trick.cards[0].suit:
            marks.append(Mark.DISCARD)
        if seat == trick.winner:
            marks.append(Mark.WINNER)
        cards.append(TrickCard(seat, card, i, tuple(marks)))
    return TrickLine(number, trick.leader, tuple(cards), trick.winner)


def _rows(rows: Sequence[Row], faces: Faces, per_suit: bool, x: float, y: float,
          game: str | None = None) -> tuple[list[str], float, float]:
    """The rows drawn from (x, y): (parts, width, height)."""
    parts: list[str] = []
    width = 0.0
    for i, row in enumerate(rows):
        top = y + i * (CARD_H + 10)
        label = suit_name(Suit(row.key), faces, game) if per_suit else _("the row")
        parts.append(_text(x, top + CARD_H / 2 + 5, label, 13, MUTED, "bold"))
        parts.append(_fan(row.cards, faces, x + 80, top, game=game))
        width = max(width, 80 + _fan_width(len(row.cards)))
    return parts, width, len(rows) * (CARD_H + 10)


def rows_svg(rows: Sequence[Row], faces: Faces | str = Faces.FRENCH, per_suit: bool = True,
             standalone: bool = True, game: str | None = None) -> str:
    """The rows of a layout deal (the four suit rows, or the one row), low end on the left;
    ``game`` names the German suits (:func:`herzla.draw.faces.german_suits`)."""
    f = Faces.parse(faces)
    parts, w, h = _rows(rows, f, per_suit, 6, 6, game)
    return _root(max(w + 12, 200), max(h + 6, 40), parts, _("the rows"), standalone)


# -- a whole hand ----------------------------------------------------------------------------

def record_svg(c: Course, faces: Faces | str | None = None, standalone: bool = True,
               review: Mapping[str, object] | None = None) -> str:
    """A whole hand: each seat's hand as dealt, then trick by trick the card each seat played
    (the leader marked, the winner framed in gold, a card that did not follow suit dashed in
    blue, the illegal play crossed out in red), or for a layout deal the rows at the end and the
    order of going out; then the scores and the rule behind each amount."""
    f = faces_of(c.contract, faces)
    r, res = c.record, c.result
    n = r.players
    losses = mistakes_of(review)
    decl = _(", declarer seat {seat}").format(seat=r.declarer) if r.declarer is not None else ""
    title = _("{game} {contract}: {players} players, dealer seat {dealer}, forehand seat "
              "{forehand}{declarer}{stock}{options}").format(
        game=r.game, contract=r.contract_id, players=n, dealer=r.dealer, forehand=r.forehand,
        declarer=decl, stock="", options="")
    parts = [_text(8, 22, title, 16, INK, "bold")]
    hand_w = max(_fan_width(len(h)) for h in r.hands)
    label_w = 120
    row_h = CARD_H + 14
    top: float = 40
    x_play = 8 + label_w + hand_w + 24
    width: float = x_play
    tricks = c.tricks or ()
    col = CARD_W * 0.8 + 14
    small_h = CARD_H * 0.8
    if tricks:
        parts.append(_text(8 + label_w, top + 12, _("hands as dealt"), 12, MUTED))
        for t in tricks:
            x = x_play + (t.number - 1) * col
            parts.append(_text(x + CARD_W * 0.4, top + 12, str(t.number), 12, MUTED, "bold",
                               "middle"))
        top += 20
    else:
        parts.append(_text(8 + label_w, top + 12, _("hands as dealt"), 12, MUTED))
        top += 20
    for seat, hand in enumerate(r.hands):
        y = top + seat * row_h
        roles = ", ".join(_(w) for w in c.roles(seat))
        parts.append(_text(8, y + 30, seat_word(seat), 14, INK, "bold"))
        if roles:
            parts.append(_text(8, y + 48, roles, 12, MUTED))
        parts.append(_fan(sort_hand(hand, r.contract), f, 8 + label_w, y, game=r.contract.game))
    if tricks:
        for t in tricks:
            x = x_play + (t.number - 1) * col
            for p in t.cards:
                y = top + p.seat * row_h + (CARD_H - small_h) / 2
                note = _("led") if p.seat == t.leader else ""
                parts.append(_card(p.card, f, x, y, 0.8, p.marks, note, r.contract.game))
                if p.seat == t.leader:
                    parts.append(f'<path d="M{_n(x - 7)} {_n(y + small_h / 2 - 5)}l6 5l-6 5z" '
                                 f'fill="{INK}"/>')
                loss = losses.get(p.index)
                if loss:
                    parts.append(_text(x + CARD_W * 0.4, y + small_h + 12, f"-{loss}", 11, BAD,
                                       "bold", "middle"))
            won = "…" if t.winner is None else seat_word(t.winner)
            parts.append(_text(x + CARD_W * 0.4, top + n * row_h + 2, won, 12, INK, "bold",
                               "middle"))
        width = x_play + len(tricks) * col
        top += n * row_h + 14
        top = _leftovers(c, f, parts, top, label_w)
        legend = [(WIN, "solid", _("won the trick")),
                  (VOID, "dash", _("did not follow suit (void)")),
                  (BAD, "cross", _("illegal play"))]
        x = 8.0
        for colour, kind, words in legend:
            if kind == "cross":
                parts.append(f'<path d="M{_n(x + 1)} {_n(top + 1)}l12 12m0 -12l-12 12" '
                             f'stroke="{colour}" stroke-width="2.5" stroke-linecap="round"/>')
            else:
                dash = ' stroke-dasharray="4 2"' if kind == "dash" else ""
                parts.append(f'<rect x="{_n(x)}" y="{_n(top)}" width="14" height="14" rx="2" '
                             f'fill="none" stroke="{colour}" stroke-width="2.5"{dash}/>')
            parts.append(_text(x + 20, top + 12, words, 12, MUTED))
            x += 36 + 6 * len(words)
        parts.append(f'<path d="M{_n(x)} {_n(top + 2)}l7 5l-7 5z" fill="{INK}"/>')
        parts.append(_text(x + 12, top + 12, _("led the trick"), 12, MUTED))
        top += 28
    else:
        top += n * row_h + 6
        top = _leftovers(c, f, parts, top, label_w)
        parts.append(_text(8, top + 12, _("the rows"), 14, INK, "bold"))
        rows, w, h = _rows(c.rows, f, c.rows_per_suit, 8, top + 22, c.contract.game)
        parts.extend(rows)
        width = max(width, w + 16)
        top += 22 + h
        order = res.order or ()
        parts.append(_text(8, top + 14, _("out in order: {seats}").format(
            seats=", ".join(seat_word(s) for s in order) or _("nobody yet")), 13))
        top += 24
        if c.moves and c.moves[-1].illegal:
            bad = c.moves[-1]
            what = _("pass") if bad.card is None else str(bad.card)
            parts.append(_text(8, top + 12, _("illegal: seat {seat} {what}").format(
                seat=bad.seat, what=what), 13, BAD, "bold"))
            top += 22
    lines = _result_lines(c, f)
    for i, (line, colour, weight) in enumerate(lines):
        parts.append(_text(8, top + 16 + i * 19, line, 13, colour, weight))
    top += 16 + len(lines) * 19
    width = max(width, 8 + 6.6 * max((len(x[0]) for x in lines), default=0), 420)
    return _root(width + 8, top + 4, parts, title, standalone)


def _leftovers(c: Course, faces: Faces, parts: list[str], top: float, label_w: float) -> float:
    """The cards dealt to nobody (the children's Herzla), as a row; the new top."""
    left = c.record.leftovers()
    if not left:
        return top
    parts.append(_text(8, top + 30, _("not dealt"), 14, MUTED, "bold"))
    parts.append(_fan(sort_hand(left, c.contract), faces, 8 + label_w, top,
                      game=c.contract.game))
    return top + CARD_H + 14


def _result_lines(c: Course, faces: Faces) -> list[tuple[str, str, str]]:
    res = c.result
    out: list[tuple[str, str, str]] = []
    if res.illegal is not None:
        bad = res.illegal
        out.append((_("Illegal: {card} by seat {seat} at {place} ({rule})").format(
            card=labelled_code(bad.card, faces), seat=bad.seat, place=c.place(bad.index),
            rule=bad.rule), BAD, "bold"))
    elif res.scores is not None:
        out.append((_("Scores: {scores}").format(scores=", ".join(
            f"{seat_word(s)} {amount_text(v, c.contract.has_stock)}"
            for s, v in enumerate(res.scores))), INK, "bold"))
    else:
        out.append((_("Not complete"), INK, "bold"))
    for line in res.explanation:
        out.append((line, MUTED if RULE_ID.search(line) is None else INK, "normal"))
    return out


# -- a score sheet ---------------------------------------------------------------------------

def sheet_svg(sheet: ScoreSheet, standalone: bool = True) -> str:
    """A score sheet: one line per hand with each seat's score, the running totals, the
    winners' totals on green.  At most :data:`herzla.limits.MAX_DRAWN_HANDS` hands
    (:class:`herzla.limits.LimitError`)."""
    check_drawn(len(sheet.rows))
    n = sheet.players
    stocked = sheet.stock is not None
    col, first, second, row_h = 78, 36, 130, 24
    has_stock = sheet.stock is not None
    width: float = first + second + col * (n + (1 if has_stock else 0)) + 16
    title = _("{game} {kind}, {players} players").format(game=sheet.game, kind=sheet.kind,
                                                         players=n)
    parts = [_text(8, 22, title, 16, INK, "bold")]
    y = 48
    heads = ["#", _("contract"), *(seat_word(s) for s in range(n))] + (
        [_("stock")] if has_stock else [])
    xs = [8.0, 8.0 + first] + [8 + first + second + col * (i + 1) - 8 for i in range(len(heads))]
    for i, head in enumerate(heads):
        parts.append(_text(xs[i], y, head, 13, MUTED, "bold", "end" if i >= 2 else "start"))
    parts.append(f'<path d="M8 {y + 7}H{width - 8}" stroke="#9e9e9e"/>')
    for row in sheet.rows:
        y += row_h
        res = row.result
        if row.index % 2:
            parts.append(f'<rect x="4" y="{y - 16}" width="{width - 8}" height="{row_h}" '
                         f'fill="#f3f4f6"/>')
        parts.append(_text(xs[0], y, str(row.index + 1), 13))
        parts.append(_text(xs[1], y, res.record.contract_id, 13))
        if res.scores is None:
            what = (_("illegal play {n} ({rule})").format(n=res.illegal.index + 1,
                                                          rule=res.illegal.rule)
                    if res.illegal else _("not complete"))
            parts.append(_text(xs[2] - col + 8, y, what, 13, BAD if res.illegal else MUTED))
            continue
        ink = INK if row.index < sheet.counted else MUTED  # after the stop: not added up
        for s, v in enumerate(res.scores):
            parts.append(_text(xs[2 + s], y, amount_text(v, stocked), 13, ink, "normal", "end"))
        if has_stock and row.stock is not None:
            parts.append(_text(xs[2 + n], y, cents(row.stock), 13, MUTED, "normal", "end"))
    y += 10
    parts.append(f'<path d="M8 {y}H{width - 8}" stroke="#424242" stroke-width="1.5"/>')
    y += row_h - 4
    counted = sheet.counted
    label = _("total") if counted == len(sheet.rows) else (
        _("total of 1-{n}").format(n=counted) if counted > 1 else _("total of 1"))
    parts.append(_text(xs[1], y, label if counted else _("total: no hand counted"), 13, INK,
                       "bold"))
    for s, v in enumerate(sheet.totals if counted else ()):
        if sheet.winners and s in sheet.winners:
            parts.append(f'<rect x="{xs[2 + s] - col + 14}" y="{y - 16}" width="{col - 10}" '
                         f'height="{row_h - 2}" rx="4" fill="#c8e6c9"/>')
        parts.append(_text(xs[2 + s], y, amount_text(v, stocked), 13, INK, "bold", "end"))
    for line in sheet.explanation:
        y += 20
        parts.append(_text(8, y, line, 13, MUTED))
    width = max(width, 16 + 6.6 * max((len(x) for x in sheet.explanation), default=0))
    return _root(width, y + 12, parts, title, standalone)


# -- histograms ------------------------------------------------------------------------------

def histograms_svg(seats: Sequence[Histogram], title: str, xlabel: str,
                   ylabel: str | None = None, standalone: bool = True) -> str:
    """One bar chart per seat (the share of hands per score, the mean dashed), side by side in
    rows of up to four: the picture of ``herzla simulate --plot``, without matplotlib."""
    from herzla.sim.plot import bars, bin_width

    n = len(seats)
    cols = min(n, 4) or 1
    pw, ph = 230, 150
    width = 16 + cols * (pw + 16)
    rows = -(-n // cols)
    ylabel = _("share of hands") if ylabel is None else ylabel
    parts = [_text(8, 20, title, 14, INK, "bold")]
    binned = bin_width(seats)
    lo = min((v for h in seats for v, c in h.counts.items() if c), default=0)
    hi = max((v for h in seats for v, c in h.counts.items() if c), default=1)
    if hi == lo:
        lo, hi = lo - 1, hi + 1
    top_share: float = max((max(bars(h, binned)[1], default=0.0) for h in seats if h.n),
                           default=1.0)
    top_share = top_share or 1.0
    for s, hist in enumerate(seats):
        ox = 16 + (s % cols) * (pw + 16)
        oy = 36 + (s // cols) * (ph + 46)
        plot_w, plot_h = pw - 10, ph - 34
        parts.append(f'<rect x="{ox}" y="{oy + 22}" width="{pw - 10}" height="{plot_h}" '
                     f'fill="#fafafa" stroke="#d0d0d0"/>')
        if not hist.n:
            parts.append(_text(ox, oy + 14, _("{seat}: no hands").format(seat=seat_word(s)),
                               12, MUTED))
            continue
        summary = hist.summary()
        parts.append(_text(ox, oy + 14, _("{seat}: mean {mean}, std {std}").format(
            seat=seat_word(s), mean=localized(f"{summary.mean:.3g}"),
            std=localized(f"{summary.std:.3g}")), 12, INK, "bold"))
        xs, shares, bar_w = bars(hist, binned)

        def sx(v: float, ox: float = ox, plot_w: float = plot_w) -> float:
            return ox + 6 + (v - lo + 0.5) / (hi - lo + 1) * (plot_w - 12)

        scale_w = (plot_w - 12) / (hi - lo + 1)
        for v, share in zip(xs, shares, strict=True):
            bh = share / top_share * (plot_h - 6)
            bw = max(1.0, bar_w * scale_w)
            parts.append(f'<rect x="{sx(v) - bw / 2:.1f}" y="{oy + 22 + plot_h - bh:.1f}" '
                         f'width="{bw:.1f}" height="{bh:.1f}" fill="#b03030"/>')
        mx = sx(summary.mean)
        parts.append(f'<path d="M{mx:.1f} {oy + 22}V{oy + 22 + plot_h}" stroke="{INK}" '
                     f'stroke-dasharray="4 3"/>')
        parts.append(_text(ox, oy + 22 + plot_h + 14, str(lo), 11, MUTED))
        parts.append(_text(ox + plot_w, oy + 22 + plot_h + 14, str(hi), 11, MUTED, "normal",
                           "end"))
    y = 36 + rows * (ph + 46) - 8
    parts.append(_text(16, y, _("x: {xlabel}; bar height: {ylabel} (tallest {top}); dashed: "
                                "the mean").format(xlabel=xlabel, ylabel=ylabel,
                                                   top=localized(f"{top_share:.1%}")),
                       12, MUTED))
    return _root(max(width, 420), y + 10, parts, title, standalone)
