"""The drawing of a hand for a terminal (``herzla show``): the hands, the tricks as a table (or
the rows as they grew and the order of going out), and the result with the rule behind it.

Plain text by default; ``unicode`` draws the French suits as ♣ ♠ ♥ ♦ (the German faces are
written with their suits abbreviated, ``Sch-O`` for the Schellen Ober, in ASCII); ``colour`` adds
ANSI colours (hearts and diamonds red, the German suits in their colours, the winning card bold).
Beside every card stands the code a user types (``Sch-O (DQ)``, :func:`herzla.draw.faces.labelled`)
unless the card is written in its code's letters (French faces without symbols, as below); the
rows of a layout deal are written in codes.  Plays are counted from 1, as people count them.

>>> import json
>>> from herzla.draw.course import course
>>> from herzla.records import read_record
>>> with open("docs/examples/herzla-incomplete.json", encoding="utf-8") as f:
...     rec = read_record(json.load(f))
>>> print(draw_text(course(rec), faces="french", unicode=False))
herzla normal: 4 players, dealer seat 3, forehand seat 0, stock 0c
<BLANKLINE>
Hands
  seat 0 (forehand)  C Q J 10 7   S Q 9    H -        D Q 9
  seat 1             C A K        S A K    H K 7      D K 7
  seat 2             C 8          S 10 7   H A Q 9    D A 10
  seat 3 (dealer)    C 9          S J 8    H J 10 8   D J 8
<BLANKLINE>
Tricks
  trick  lead    seat 0  seat 1  seat 2  seat 3  won by
      1  seat 0  C7      CA      C8      C9      seat 1
      2  seat 1  S9      SA      S7      S8      seat 1
         - seat 1 holds a heart but may not lead it (heart-lead-ban)
      3  seat 1          HK      H9              ...
<BLANKLINE>
Result: not complete
  stock 0c
  - The hand is not complete: 2 of 8 tricks played.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from herzla.cards import Card, Suit
from herzla.contracts.words import amount_text, cents, seat_word
from herzla.draw.course import Course, LayoutMove, Mark, Row
from herzla.draw.faces import (
    Faces,
    code_spelled,
    faces_of,
    labelled,
    labelled_code,
    legend,
    rank_label,
    suit_label,
)
from herzla.i18n import _
from herzla.quote import visible
from herzla.records import sort_hand
from herzla.support.words import localized

__all__ = ["RULE_ID", "draw_text", "mistakes_of"]

#: a rule id as explanations cite it: ``rule herzla/two-void``
RULE_ID = re.compile(r"\b(?:rule|Regel) ([a-z0-9-]+/[a-z0-9-]+|[a-z0-9-]+)")

_RESET = "\x1b[0m"
_SUIT_ANSI = {Faces.FRENCH: ("", "", "\x1b[31m", "\x1b[31m"),
              Faces.GERMAN: ("\x1b[33m", "\x1b[32m", "\x1b[31m", "\x1b[93m")}


class _Style:
    def __init__(self, faces: Faces, unicode: bool, colour: bool, game: str) -> None:
        self.faces, self.unicode, self.colour, self.game = faces, unicode, colour, game

    def card(self, card: Card, marks: Sequence[Mark] = ()) -> tuple[str, str]:
        """(the plain text, the text as printed) of a card with its marks: its label, the
        code to type beside it, the marks after both (``Ei-10 (CT)*``)."""
        text = labelled(card, self.faces, self.unicode)
        if Mark.DISCARD in marks:
            text += "*"
        if Mark.ILLEGAL in marks:
            text += "!"
        if not self.colour:
            return text, text
        code = _SUIT_ANSI[self.faces][card.suit]
        if Mark.WINNER in marks:
            code += "\x1b[1m"
        if Mark.ILLEGAL in marks:
            code += "\x1b[7m"
        return text, f"{code}{text}{_RESET}" if code else text

    def named(self, code: object) -> str:
        """A card a review or an illegal play names by its code, as this drawing writes
        cards (:func:`herzla.draw.faces.labelled_code`)."""
        return labelled_code(code, self.faces, self.unicode)

    def suit(self, suit: Suit) -> str:
        label = suit_label(suit, self.faces, self.unicode, self.game)
        code = _SUIT_ANSI[self.faces][suit] if self.colour else ""
        return f"{code}{label}{_RESET}" if code else label

    def bold(self, text: str) -> str:
        return f"\x1b[1m{text}{_RESET}" if self.colour else text


def _cell(pair: tuple[str, str], width: int) -> str:
    plain, shown = pair
    return shown + " " * max(0, width - len(plain))


def _hand_lines(hands: Sequence[Sequence[Card]], style: _Style) -> list[list[str]]:
    """Each hand by suit (C S H D), high card first; the suits in aligned columns, and under
    them the cards' codes (unless the cards are written in their codes' letters)."""
    cols: list[list[tuple[str, str]]] = []
    codes: list[list[tuple[str, str]]] = []
    for cards in hands:
        row, code_row = [], []
        for suit in Suit:
            ranks = " ".join(rank_label(c.rank, style.faces, style.unicode)
                             for c in cards if c.suit == suit)
            label = suit_label(suit, style.faces, style.unicode, style.game)
            row.append((f"{label} {ranks or '-'}", f"{style.suit(suit)} {ranks or '-'}"))
            typed = " ".join(c.code for c in cards if c.suit == suit)
            code_row.append((f"({typed})", f"({typed})") if typed else ("", ""))
        cols.append(row)
        codes.append(code_row)
    with_codes = not code_spelled(style.faces, style.unicode)
    both = [*cols, *codes] if with_codes else cols
    widths = [max(len(row[k][0]) for row in both) + 3 for k in range(4)]
    out = []
    for row, code_row in zip(cols, codes, strict=True):
        lines = [row, code_row] if with_codes else [row]
        out.append(["".join(_cell(x, w) for x, w in zip(r, widths, strict=True)).rstrip()
                    for r in lines])
    return out


def _header(c: Course) -> str:
    r = c.record
    decl = _(", declarer seat {seat}").format(seat=r.declarer) if r.declarer is not None else ""
    stock = _(", stock {amount}").format(amount=cents(r.stock)) if r.contract.has_stock else ""
    opts = ""
    if r.options:
        opts = _(", options {options}").format(
            options=" ".join(f"{k}={v}" for k, v in sorted(r.options.items())))
    return _("{game} {contract}: {players} players, dealer seat {dealer}, forehand seat "
             "{forehand}{declarer}{stock}{options}").format(
        game=r.game, contract=r.contract_id, players=r.players, dealer=r.dealer,
        forehand=r.forehand, declarer=decl, stock=stock, options=opts)


def _tag_lines(tags: Mapping[str, str]) -> list[str]:
    """The record's tags under its header, a value's further lines indented."""
    return [f"  {key}: " + visible(value).replace("\n", "\n    ") for key, value in tags.items()]


def _tricks(c: Course, style: _Style, losses: Mapping[int, int]) -> list[str]:
    n = c.record.players
    cells: list[list[tuple[str, str]]] = []
    for t in c.tricks or ():
        seen = t.by_seat()
        row = []
        for s in range(n):
            p = seen.get(s)
            if p is None:
                row.append(("", ""))
                continue
            plain, shown = style.card(p.card, p.marks)
            loss = losses.get(p.index)
            if loss:
                plain, shown = plain + f" -{loss}", shown + f" -{loss}"
            row.append((plain, shown))
        cells.append(row)
    seat0 = len(seat_word(0))
    width = max([seat0, *(len(x[0]) for row in cells for x in row)]) + 2
    tw, lw = max(5, len(_("trick"))), max(len(_("lead")), seat0) + 2
    out = [f"  {_('trick'):<{tw}}  {_('lead'):<{lw}}"
           + "".join(f"{seat_word(s):<{width}}" for s in range(n)) + _("won by")]
    for t, row in zip(c.tricks or (), cells, strict=True):
        won = seat_word(t.winner) if t.winner is not None else "..."
        out.append(f"  {t.number:>{tw}}  {seat_word(t.leader):<{lw}}"
                   + "".join(_cell(x, width) for x in row) + won)
        out.extend(f"  {'':<{tw}}  - {visible(note)}" for note in t.notes)
    return [line.rstrip() for line in out]


def _row_text(row: Row) -> str:
    """A row in the codes a user types, low end first."""
    return " ".join(card.code for card in row.cards)


def _move_text(m: LayoutMove, style: _Style, ends: bool) -> tuple[str, str]:
    if m.card is None:
        word = _("pass")
        return (word + "!", word + "!") if m.illegal else (word, word)
    marks = (Mark.ILLEGAL,) if m.illegal else ()
    plain, shown = style.card(m.card, marks)
    if ends and m.end == "-":
        plain, shown = plain + " " + _("low"), shown + " " + _("low")
    if m.out:
        plain, shown = plain + " " + _("out"), shown + " " + _("out")
    return plain, shown


def _trick_lines(c: Course, style: _Style, losses: Mapping[int, int]) -> list[str]:
    res = c.result
    lines = [_("Tricks")]
    lines.extend(_tricks(c, style, losses) if c.tricks else [_("  no card played yet")])
    if any(Mark.DISCARD in p.marks for t in c.tricks or () for p in t.cards):
        lines.append(_("  * did not follow suit: the seat showed a void in the suit led"))
    if res.illegal is not None:
        kind = _("a renege") if res.ruling is not None else _("illegal")
        lines.append(f"  ! {kind}: {visible(res.illegal.message)}")
    return lines


def _moves(c: Course, style: _Style, losses: Mapping[int, int]) -> list[str]:
    return [_("Rows"), *(_layout(c, style) if c.moves else [_("  no card laid yet")])]


def _layout(c: Course, style: _Style) -> list[str]:
    n = c.record.players
    ends = c.contract.end_marks
    rounds = c.rounds()
    cells = [[_move_text(m, style, ends) for m in r.moves] for r in rounds]
    width = max([len(seat_word(0)), *(len(x[0]) for row in cells for x in row)]) + 2
    rw = max(5, len(_("round")))
    out = [f"  {_('round'):<{rw}}  " + "".join(f"{seat_word(s):<{width}}" for s in range(n))
           + _("rows after (codes)")]
    for r, row in zip(rounds, cells, strict=True):
        by_seat = {m.seat: x for m, x in zip(r.moves, row, strict=True)}
        line = f"  {r.number:>{rw}}  " + "".join(_cell(by_seat.get(s, ("", "")), width)
                                                 for s in range(n))
        rows = "  ".join(_row_text(w) for w in r.rows)
        out.append((line + rows).rstrip())
    if ends:
        out.append(_("  low: laid at the lower end of its row (the rows turn the corner, so a "
                     "card may fit either end)"))
    order = c.result.order or ()
    out.append("")
    out.append(_("Out in order: {seats}").format(
        seats=", ".join(seat_word(s) for s in order) or _("nobody yet")))
    return out


#: a question of kind: a trick deal's plays are drawn trick by trick, any other deal's move by move
#: in rounds (with its rows, where it lays them out)
_PLAYS: dict[str, Callable[[Course, _Style, Mapping[int, int]], list[str]]] = {
    "tricks": _trick_lines}


def mistakes_of(review: Mapping[str, Any] | None) -> dict[int, int]:
    """The loss of each play with one (by its index in the record's plays), from the
    ``to_dict()`` of a review."""
    if not review:
        return {}
    return {int(p["index"]): int(p["loss"]) for p in review.get("plays", [])
            if p.get("loss")}


def draw_text(c: Course, faces: str | Faces | None = None, unicode: bool = True,
              colour: bool = False, review: Mapping[str, Any] | None = None) -> str:
    """The text drawing of a hand (see the module notes); ``review`` is the ``to_dict()`` of a
    review of the hand, whose losses are written after the cards that lost them."""
    f = faces_of(c.contract, faces)
    style = _Style(f, unicode, colour, c.contract.game)
    r, res = c.record, c.result
    losses = mistakes_of(review)
    lines = [visible(_header(c)), *_tag_lines(r.tags), "", _("Hands")]
    names = [seat_word(seat) + (f" ({', '.join(_(w) for w in c.roles(seat))})"
                                if c.roles(seat) else "") for seat in range(r.players)]
    left = r.leftovers()
    if left:
        names.append(_("not dealt"))
    width = max(len(x) for x in names) + 2
    drawn = _hand_lines([sort_hand(h, r.contract) for h in [*r.hands, left][:len(names)]],
                        style)
    for name, hand in zip(names, drawn, strict=True):
        lines.append(f"  {name:<{width}}{hand[0]}")
        lines.extend(f"  {'':<{width}}{more}".rstrip() for more in hand[1:])
    lines.extend(f"  {line}" for line in legend(f, unicode, c.contract.game))
    lines.append("")
    lines.extend(_PLAYS.get(str(c.contract.kind), _moves)(c, style, losses))
    lines.append("")
    status = _("complete") if res.complete else _("not complete")
    if res.illegal is not None:
        bad = res.illegal
        status = _("illegal: {card} by seat {seat} at {place} ({rule})").format(
            card=style.named(bad.card), seat=bad.seat, place=c.place(bad.index), rule=bad.rule)
    lines.append(_("Result: {status}").format(status=visible(status)))
    stocked = r.contract.has_stock
    if res.scores is not None:
        lines.append("  " + "   ".join(f"{seat_word(s)} {amount_text(v, stocked)}"
                                       for s, v in enumerate(res.scores)))
    if res.stock is not None:
        lines.append("  " + _("stock {amount}").format(amount=cents(res.stock)))
    if res.score is not None and res.score.events:
        lines.append("  " + _("events: {events}").format(
            events=visible(", ".join(res.score.events))))
    lines.extend(f"  - {visible(line)}" for line in res.explanation)
    ruling = res.ruling
    if ruling is not None:
        what = (_("established, option renege={option}").format(option=ruling.option)
                if ruling.established else _("corrected, no penalty"))
        lines.append(_("Ruling: a renege by seat {seat}, {what}").format(seat=ruling.seat,
                                                                         what=what))
        if ruling.scores is not None:
            lines.append("  " + "   ".join(f"{seat_word(s)} {amount_text(v, stocked)}"
                                           for s, v in enumerate(ruling.scores)))
        if ruling.stock is not None:
            lines.append("  " + _("stock {amount}").format(amount=cents(ruling.stock)))
        lines.extend(f"  - {visible(line)}" for line in ruling.explanation)
    if review is not None:
        lines.append("")
        lines.extend(_review_lines(c, review, style))
    return "\n".join(lines)


def _review_lines(c: Course, review: Mapping[str, Any], style: _Style) -> list[str]:
    out = [_("Review (double dummy: what each mistake cost)")]
    bad = [p for p in review.get("plays", []) if p.get("loss")]
    if not bad:
        out.append(_("  no mistakes: every play kept the best value"))
    for p in bad:
        best = _(" or ").join(style.named(x) for x in p.get("best_cards", []))
        out.append("  " + _("{place}: seat {seat} played {card}, value {played}; best {best}, "
                            "value {value}: cost {loss}").format(
            place=c.place(int(p["index"])), seat=p["seat"], card=style.named(p["card"]),
            played=localized(str(p["played"])), best=best, value=localized(str(p["best"])),
            loss=localized(str(p["loss"]))))
    seats = review.get("seats", {})
    if seats:
        out.append("  " + "   ".join(
            _("seat {seat}: {mistakes} of {plays} plays, cost {loss}").format(
                seat=s, mistakes=v.get("mistakes", 0), plays=v.get("plays", 0),
                loss=v.get("loss", 0))
            for s, v in sorted(seats.items(), key=lambda kv: int(kv[0]))))
    return out

