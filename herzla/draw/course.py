"""The course of a hand, read once from its record for every drawing.

:func:`course` replays a record on the reference engine, as :func:`herzla.records.replay` does,
and keeps what a drawing shows: for a trick deal each trick with each seat's card, the cards that
did not follow suit (the seat showed a void), where a lead ban held a seat back or let it escape,
and the illegal play where it happened; for a layout deal every move (passes included, also the
passes a record leaves out), the rows after each move and the order of going out.

>>> import json
>>> from herzla.records import read_record
>>> with open("docs/examples/herzla-two-void.json", encoding="utf-8") as f:
...     c = course(read_record(json.load(f)))
>>> t = c.tricks[2]
>>> t.number, t.leader, [str(p.card) for p in t.cards], t.winner
(3, 1, ['HK', 'H9', 'H8', 'CT'], 1)
>>> [p.seat for p in t.cards if Mark.DISCARD in p.marks]
[0]
>>> c.tricks[1].notes
('seat 1 holds a heart but may not lead it (heart-lead-ban)',)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from herzla.cards import Card, Suit, cards_of
from herzla.contracts import Contract
from herzla.counting import play_place
from herzla.draw.faces import faces_of, suit_name
from herzla.hand import Hand
from herzla.i18n import DEFAULT, N_, _, current
from herzla.kinds.layout import LayoutHand
from herzla.kinds.tricks import TrickHand
from herzla.records import IllegalPlay, Record, ReplayResult, play_moves, replay

__all__ = ["Course", "LayoutMove", "LayoutRound", "Mark", "Row", "TrickCard", "TrickLine", "course",
           "register_course"]


class Mark(enum.Enum):
    """What a drawing marks on a card played."""

    DISCARD = "discard"  # another suit than the one led: the seat showed a void
    ESCAPE = "escape"  # a banned card, played because the seat held nothing else
    ILLEGAL = "illegal"  # the first illegal play; nothing after it is applied
    WINNER = "winner"  # the card that won the trick


@attrs.frozen(slots=True)
class TrickCard:
    """One card played to a trick: by whom, its index in the record's plays, its marks."""

    seat: int
    card: Card
    index: int
    marks: tuple[Mark, ...] = ()


@attrs.frozen(slots=True)
class TrickLine:
    """One trick as drawn: its number (from 1), leader, cards, winner (None while in progress
    or when it holds the illegal play) and notes (the lead bans that showed)."""

    number: int
    leader: int
    cards: tuple[TrickCard, ...]
    winner: int | None
    notes: tuple[str, ...] = ()

    def by_seat(self) -> dict[int, TrickCard]:
        return {p.seat: p for p in self.cards}


@attrs.frozen(slots=True)
class Row:
    """A layout row: its key (the suit, or 0 for the one row) and its cards, low end first."""

    key: int
    cards: tuple[Card, ...]


@attrs.frozen(slots=True)
class LayoutMove:
    """One move of a layout deal: a card laid (``end`` ``+`` upper, ``-`` lower) or a pass
    (``card`` None); ``out`` when the seat went out with it; ``illegal`` for the illegal one."""

    seat: int
    card: Card | None
    end: str | None
    rows: tuple[Row, ...]
    out: bool = False
    illegal: bool = False


@attrs.frozen(slots=True)
class LayoutRound:
    """The moves of one round of a layout deal (each seat still in, once), and the rows after."""

    number: int
    moves: tuple[LayoutMove, ...]
    rows: tuple[Row, ...]


@attrs.frozen(slots=True, eq=False)
class Course:
    """Everything a drawing of one hand shows (see the module notes)."""

    record: Record
    result: ReplayResult
    tricks: tuple[TrickLine, ...] | None
    moves: tuple[LayoutMove, ...] | None
    #: the cards of a trick, where the deal is played in tricks (None: move by move)
    trick_size: int | None = None
    #: whether the rows are one per suit (a row's key is its suit), not the one row
    rows_per_suit: bool = False

    @property
    def contract(self) -> Contract:
        return self.record.contract

    def roles(self, seat: int) -> list[str]:
        """What ``seat`` is at this table: ``forehand``, ``dealer``, ``declarer`` (or nothing)."""
        r = self.record
        return [name for name, who in ((N_("forehand"), r.forehand), (N_("dealer"), r.dealer),
                                       (N_("declarer"), r.declarer)) if who == seat]

    @property
    def illegal(self) -> IllegalPlay | None:
        return self.result.illegal

    def place(self, index: int) -> str:
        """Where the play of 0-based ``index`` in the record's plays is, as people count:
        ``play 15, trick 4, 3rd card`` (layout deals: ``play 15``)."""
        return play_place(index, self.trick_size)

    @property
    def rows(self) -> tuple[Row, ...]:
        """The rows at the end (layout deals; empty for trick deals)."""
        return self.moves[-1].rows if self.moves else ()

    def rounds(self) -> tuple[LayoutRound, ...]:
        """The layout moves in rounds: a new round starts when the turn comes round again to
        (or past) the seat that moved first."""
        if not self.moves:
            return ()
        n = self.record.players
        first = self.moves[0].seat
        out: list[LayoutRound] = []
        current: list[LayoutMove] = []
        last = -1
        for move in self.moves:
            pos = (move.seat - first) % n
            if current and pos <= last:
                out.append(LayoutRound(len(out) + 1, tuple(current), current[-1].rows))
                current = []
            current.append(move)
            last = pos
        out.append(LayoutRound(len(out) + 1, tuple(current), current[-1].rows))
        return tuple(out)


def _ban_note(state: TrickHand, seat: int, card: Card, leading: bool,
              ) -> tuple[str | None, bool]:
    """(a note when a ban held the seat back, whether the card escaped a ban)."""
    ban = state.contract.banned(state, seat, leading)
    if ban is None:
        return None, False
    mask, rule = ban
    hand = state.hands[seat]
    if not hand & mask:
        return None, False
    if card.bit & mask:
        said = (_("seat {seat} holds only banned cards and may lead {card} ({rule})") if leading
                else _("seat {seat} holds only banned cards and may discard {card} ({rule})"))
        return said.format(seat=seat, card=card, rule=rule), True
    suits = sorted({c.suit for c in cards_of(hand & mask)}, key=lambda s: s.french)
    if suits == [Suit.H]:
        said = (_("seat {seat} holds a heart but may not lead it ({rule})") if leading
                else _("seat {seat} holds a heart but may not discard it ({rule})"))
    else:
        said = (_("seat {seat} holds a card of {suits} but may not lead it ({rule})") if leading
                else _("seat {seat} holds a card of {suits} but may not discard it ({rule})"))
    return said.format(seat=seat, rule=rule,
                       suits=_suit_names(suits, state.contract)), False


def _suit_names(suits: list[Suit], contract: Contract) -> str:
    """The suits as the pack's faces name them in the current language (English: by their
    French names, as always)."""
    if current() == DEFAULT:
        return ", ".join(s.french for s in suits)
    faces = faces_of(contract)
    return ", ".join(suit_name(s, faces, contract.game) for s in suits)


def _trick_course(record: Record, state: TrickHand) -> tuple[TrickLine, ...]:
    lines: list[TrickLine] = []
    cards: list[TrickCard] = []
    notes: list[str] = []
    for i, play in enumerate(record.plays):
        assert play.card is not None
        seat = state.turn
        card = play.card
        bad = state.check(card)
        marks: list[Mark] = []
        leading = not state.trick
        if bad is None and not leading and card.suit != state.trick[0].suit:
            marks.append(Mark.DISCARD)  # an illegal card shows no void: the seat had the suit
        if bad is None and (leading or Mark.DISCARD in marks):
            note, escaped = _ban_note(state, seat, card, leading)
            if note:
                notes.append(note)
            if escaped:
                marks.append(Mark.ESCAPE)
        if bad is not None:
            marks.append(Mark.ILLEGAL)
            if not state.over:
                cards.append(TrickCard(seat, card, i, tuple(marks)))
            else:
                lines.append(TrickLine(len(lines) + 1, seat, (TrickCard(seat, card, i,
                                                                        tuple(marks)),), None))
            break
        cards.append(TrickCard(seat, card, i, tuple(marks)))
        done = state._play(card)
        if done is not None:
            won = tuple(attrs.evolve(p, marks=(*p.marks, Mark.WINNER)) if p.seat == done.winner
                        else p for p in cards)
            lines.append(TrickLine(len(lines) + 1, done.leader, won, done.winner, tuple(notes)))
            cards, notes = [], []
    if cards:
        lines.append(TrickLine(len(lines) + 1, state.leader, tuple(cards), None, tuple(notes)))
    return tuple(lines)


def _rows_of(grown: Mapping[int, list[Card]]) -> tuple[Row, ...]:
    return tuple(Row(k, tuple(grown[k])) for k in sorted(grown))


def _layout_course(record: Record, state: LayoutHand, result: ReplayResult,
                   ) -> tuple[LayoutMove, ...]:
    play_moves(state, record.plays)
    grown: dict[int, list[Card]] = {}
    moves: list[LayoutMove] = []
    rows = state.contract.declaration.rows
    out_seats: set[int] = set()
    hands = [set(h) for h in record.hands]
    for seat, lay, before in state.history:
        if lay is None or lay.card is None:
            moves.append(LayoutMove(seat, None, None, _rows_of(grown)))
            continue
        key = rows.row_of(lay.card)
        if before is None:
            grown[key] = [lay.card]
        elif lay.end == "-":
            grown[key].insert(0, lay.card)
        else:
            grown[key].append(lay.card)
        hands[seat].discard(lay.card)
        went_out = not hands[seat] and seat not in out_seats
        if went_out:
            out_seats.add(seat)
        moves.append(LayoutMove(seat, lay.card, lay.end, _rows_of(grown), out=went_out))
    bad = result.illegal
    if bad is not None:
        play = record.plays[bad.index]
        moves.append(LayoutMove(bad.seat, play.card, play.end, _rows_of(grown), illegal=True))
    return tuple(moves)


def _moves_course(record: Record, result: ReplayResult, state: Hand) -> Course:
    """Any other kind of deal, move by move: each move with its seat, and whether it went out."""
    moves: list[LayoutMove] = []
    held = [set(h) for h in record.hands]
    gone: set[int] = set()
    for move in record.plays[:len(record.plays) if result.illegal is None
                             else result.illegal.index]:
        seat = state.turn
        state._play(move)
        if move.card is not None:
            held[seat].discard(move.card)
        out = not held[seat] and seat not in gone
        if out:
            gone.add(seat)
        moves.append(LayoutMove(seat, move.card, move.end, (), out=out))
    bad = result.illegal
    if bad is not None:
        play = record.plays[bad.index]
        moves.append(LayoutMove(bad.seat, play.card, play.end, (), illegal=True))
    return Course(record, result, None, tuple(moves))


def _tricks_course(record: Record, result: ReplayResult, state: TrickHand) -> Course:
    return Course(record, result, _trick_course(record, state), None, trick_size=record.players)


def _rows_course(record: Record, result: ReplayResult, state: LayoutHand) -> Course:
    rows = state.contract.declaration.rows
    return Course(record, result, None, _layout_course(record, state, result),
                  rows_per_suit=rows.per_suit)


#: a question of kind: each kind of deal's course is read from its engine's own state, a trick
#: deal's trick by trick, a layout deal's move by move along its rows; any other kind of deal is
#: drawn move by move (:func:`register_course` gives it a course of its own)
_COURSES: dict[str, Callable[[Record, ReplayResult, Any], Course]] = {
    "tricks": _tricks_course, "layout": _rows_course}


def register_course(kind: str, course: Callable[[Record, ReplayResult, Hand], Course]) -> None:
    """The course of the deals of ``kind`` (a contract's ``kind``), for a kind of deal of its
    own."""
    _COURSES[kind] = course


def course(record: Record) -> Course:
    """The course of ``record``'s hand (see the module notes)."""
    result = replay(record)
    make = _COURSES.get(str(record.contract.kind), _moves_course)
    return make(record, result, record.start())
