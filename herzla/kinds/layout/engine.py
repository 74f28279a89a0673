"""The reference layout engine: the Herzeln domino and the Herzerln Auflegen.

Cards are laid in the rows the contract declares (:class:`herzla.contracts.vocabulary.Rows`):
each grows from an opening Jack by the next rank up or down the sequence; with ``wrap`` the
sequence is a cycle (the domino's Aces "turn the corner").  A seat that can lay a card must;
otherwise it passes.  Seats go out in order; the deal ends when one seat is left, which takes last
place.  The rule ids of illegal moves are those of the hand-record format (the Hand records page of
the docs).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, cast

from herzla.cards import Card, as_card, cards_of, hand_mask
from herzla.contracts.base import LayoutContract
from herzla.contracts.vocabulary import (
    HAND_OVER,
    MUST_OPEN_WITH_HEART_JACK,
    MUST_OPEN_WITH_JACK,
    MUST_PLAY_IF_ABLE,
    NOT_ADJACENT,
    NOT_IN_HAND,
)
from herzla.display import render
from herzla.hand import (
    PASS,
    HandNotOver,
    HandScore,
    Illegal,
    Move,
    Outcome,
    as_move,
    record_of,
    refuse,
)
from herzla.i18n import _

if TYPE_CHECKING:
    from herzla.records import Record

__all__ = ["LayoutHand"]


class LayoutHand:
    """One layout deal in progress.

    A :class:`herzla.hand.Hand`: ``hands`` as for :class:`herzla.kinds.tricks.TrickHand` (bit sets,
    card lists or Cards); ``contract.new_hand(hands, dealer)`` makes one, and ``record.start()``
    one for a record.  ``play`` and ``check`` take a :class:`~herzla.hand.Move` (or a card, a
    code, ``"pass"``); ``lay`` and ``pass_turn`` are the two kinds of move.
    """

    __slots__ = (
        "contract", "players", "dealer", "stock", "dealt", "hands", "rows", "turn", "order",
        "over", "history", "laid", "_written", "_rows", "_seq_pos", "_seq", "_wrap", "_first",
        "_open_pos",
    )

    def __init__(self, contract: LayoutContract,
                 hands: Sequence[int | str | Iterable[Card | str]], dealer: int,
                 stock: int = 0) -> None:
        self.contract = contract
        self.players = contract.players
        self.dealer = dealer
        self.stock = stock
        self.hands: list[int] = [hand_mask(h) for h in hands]
        self.dealt: tuple[int, ...] = tuple(self.hands)
        self._written: list[Move] = []
        self.rows: dict[int, tuple[int, int]] = {}
        self.order: list[int] = []
        self.over = False
        self.history: list[tuple[int, Move | None, tuple[int, int] | None]] = []
        self.laid: list[Card] = []
        rows = contract.declaration.rows
        self._rows = rows
        self._seq = rows.sequence
        self._seq_pos = {r: i for i, r in enumerate(self._seq)}
        self._wrap = rows.wrap
        self._first = rows.first
        self._open_pos = self._seq_pos[rows.opening]
        self.turn = (dealer + 1) % self.players
        if self._first is not None:
            for seat, h in enumerate(self.hands):
                if h >> self._first.index & 1:
                    self.turn = seat

    # -- views ------------------------------------------------------------------------------
    def fits(self, card: Card) -> list[str]:
        """The ends (``+``, ``-``) of its row that ``card`` may be laid at now."""
        if self._first is not None and not self.laid:
            return ["+"] if card == self._first else []
        key = self._rows.row_of(card)
        row = self.rows.get(key)
        if row is None:
            return ["+"] if card.rank == self._rows.opening else []
        low, high = row
        n = len(self._seq)
        pos = self._seq_pos.get(card.rank)
        if pos is None:
            return []
        out = []
        if (self._wrap or high + 1 < n) and (high + 1) % n == pos:
            out.append("+")
        if (self._wrap or low - 1 >= 0) and (low - 1) % n == pos:
            out.append("-")
        return out

    def asked(self, key: int) -> tuple[str, str] | None:
        """The ranks the (upper, lower) ends of a row ask for ('' where the row ends), or None."""
        row = self.rows.get(key)
        if row is None:
            return None
        low, high = row
        n = len(self._seq)
        up = self._seq[(high + 1) % n].code if self._wrap or high + 1 < n else ""
        down = self._seq[(low - 1) % n].code if self._wrap or low - 1 >= 0 else ""
        return up, down

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves so far as a hand record writes them: a lay marked with its end only where
        the card fitted both ends, and each pass."""
        return tuple(self._written)

    def lays(self) -> list[Move]:
        """Every lay the seat to move may make (empty: it must pass), each with its end."""
        if self.over:
            return []
        return [Move(c, e) for c in cards_of(self.hands[self.turn]) for e in self.fits(c)]

    def legal_moves(self) -> list[Move]:
        """Every legal move: the lays (each with its end), or the pass when there is none."""
        if self.over:
            return []
        return self.lays() or [PASS]

    def can_lay(self) -> bool:
        if self.over:
            return False
        return any(self.fits(c) for c in cards_of(self.hands[self.turn]))

    @property
    def must_pass(self) -> bool:
        """True when the seat to move cannot lay a card and passes (``check(PASS) is None``)."""
        return not self.over and not self.can_lay()

    @property
    def trick_place(self) -> None:
        """None: a layout deal has no tricks."""
        return None

    def check(self, card: Move | Card | str, end: str | None = None) -> Illegal | None:
        """None if ``card`` may be played now, else the rule it breaks: a Move (a lay or the
        pass), or a Card or a code laid at ``end`` (default: the upper end where both fit)."""
        if not isinstance(card, Card):
            move = as_move(card)
            if move.card is None:
                return self.check_pass()
            card, end = move.card, move.end if end is None else end
        if self.over:
            return Illegal(HAND_OVER.id, _("the deal is over; {card} cannot be laid").format(
                card=card))
        seat = self.turn
        if not self.hands[seat] >> card.index & 1:
            return Illegal(NOT_IN_HAND.id, _("seat {seat} does not hold {card}").format(
                seat=seat, card=card))
        if self._first is not None and not self.laid and card != self._first:
            return Illegal(MUST_OPEN_WITH_HEART_JACK.id,
                           _("seat {seat} holds {first} and must open with it, not {card}").format(
                               seat=seat, first=self._first, card=card))
        key = self._rows.row_of(card)
        if key not in self.rows:
            if card.rank != self._rows.opening:
                return Illegal(MUST_OPEN_WITH_JACK.id, _("{card} cannot be laid before a "
                                                        "{french} opens its row").format(
                    card=card, french=self._rows.opening.french))
            return None  # a card that opens a row has no end: a mark on it means nothing
        ends = self.fits(card)
        if not ends or (end is not None and end not in ends):
            asked = self.asked(key)
            where = ""
            if asked is not None:
                up, down = asked
                where = _(" (the row asks for {up} above and {down} below)").format(
                    up=up or _("nothing"), down=down or _("nothing"))
            at = {"+": _(" at the upper end"), "-": _(" at the lower end")}.get(end or "", "")
            return Illegal(NOT_ADJACENT.id, _("{card} does not fit{at}{where}").format(
                card=card, at=at, where=where))
        return None

    def check_pass(self) -> Illegal | None:
        if self.over:
            return Illegal(HAND_OVER.id, _("the deal is over; there is nothing to pass"))
        moves = self.lays()
        if moves:
            cards = " ".join(sorted({str(m.card) for m in moves}))
            return Illegal(MUST_PLAY_IF_ABLE.id,
                           _("seat {turn} passed but can lay {cards}").format(
                               turn=self.turn, cards=cards))
        return None

    # -- moves ------------------------------------------------------------------------------
    def play(self, move: Move | Card | str) -> None:
        """Make ``move`` (a lay, the pass, or a card or code laid at the end it fits) for the
        seat to move.  A move the seat may not make is refused with
        :class:`~herzla.hand.IllegalMove`, naming the rule ``check`` names, and the deal stays
        as it was."""
        refuse(self, move, self.check(move))
        self._play(move)

    def _play(self, move: Move | Card | str) -> None:
        """:meth:`play` without the check: the engines' own loops, whose moves are legal."""
        if not isinstance(move, Card):
            move = as_move(move)
            if move.card is None:
                self._pass_turn()
                return
            self._lay(move.card, move.end)
            return
        self._lay(move)

    def lay(self, card: Card | str, end: str | None = None) -> None:
        """Lay ``card`` (a Card or a code) for the seat to move, at ``end`` (default: the upper
        end where both fit); refused as :meth:`play` refuses."""
        card = card if isinstance(card, Card) else as_card(card)
        refuse(self, Move(card, end), self.check(card, end))
        self._lay(card, end)

    def pass_turn(self) -> None:
        """The seat to move passes; refused (``must-play-if-able``) when it can lay a card."""
        refuse(self, PASS, self.check_pass())
        self._pass_turn()

    def _lay(self, card: Card | str, end: str | None = None) -> None:
        if not isinstance(card, Card):
            card = as_card(card)
        seat = self.turn
        ends = self.fits(card)
        side = end if end is not None else (ends[0] if ends else "+")
        self._written.append(Move(card, side) if len(ends) > 1 else Move(card))
        key = self._rows.row_of(card)
        before = self.rows.get(key)
        if before is None:
            pos = self._seq_pos[card.rank]
            self.rows[key] = (pos, pos)
        else:
            low, high = before
            self.rows[key] = (low, high + 1) if side == "+" else (low - 1, high)
        self.hands[seat] &= ~(1 << card.index)
        self.laid.append(card)
        self.history.append((seat, Move(card, side), before))
        if not self.hands[seat]:
            self.order.append(seat)
            if len(self.order) == self.players - 1:
                self.order.extend(s for s in range(self.players) if s not in self.order)
                self.over = True
                return
        self._advance()

    def _pass_turn(self) -> None:
        self.history.append((self.turn, None, None))
        self._written.append(PASS)
        self._advance()

    def _advance(self) -> None:
        seat = self.turn
        for _step in range(self.players):
            seat = (seat + 1) % self.players
            if seat not in self.order:
                break
        self.turn = seat

    def undo(self) -> Move:
        """Take back the last move (a lay or a pass), and return it as it was written."""
        seat, lay, before = self.history.pop()
        written = self._written.pop()
        if lay is not None and lay.card is not None:
            key = self._rows.row_of(lay.card)
            if before is None:
                del self.rows[key]
            else:
                self.rows[key] = before
            self.hands[seat] |= 1 << lay.card.index
            self.laid.pop()
            if self.over:
                self.over = False
                del self.order[-2:]
            elif seat in self.order:
                self.order.remove(seat)
        self.turn = seat
        return written

    def copy(self) -> LayoutHand:
        new = LayoutHand.__new__(LayoutHand)
        for name in LayoutHand.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands = list(self.hands)
        new.rows = dict(self.rows)
        new.order = list(self.order)
        new.history = list(self.history)
        new.laid = list(self.laid)
        new._written = list(self._written)
        return new

    def holding(self, seat: int, cards: int) -> LayoutHand:
        """A copy in which ``seat`` holds ``cards`` (a bit set) instead of its own cards."""
        new = self.copy()
        new.hands[seat] = cards
        return new

    def outcome(self) -> Outcome:
        return Outcome(players=self.players, order=tuple(self.order) if self.over else None,
                       out=tuple(self.order))

    def score(self) -> HandScore:
        """The contract's score of the finished deal (:class:`~herzla.hand.HandNotOver`
        before the end)."""
        if not self.over:
            raise HandNotOver(_("the deal is not over: {n_order} of {players} "
                                "seats out; score() counts a finished deal (see over)").format(
                n_order=len(self.order), players=self.players))
        return self.contract.score(self.outcome(), self.stock)

    def __str__(self) -> str:
        """The position drawn as text (the hands, the play so far, whose turn it is)."""
        return render("Hand", "text", self) or object.__repr__(self)

    def record(self) -> Record:
        """The deal so far as a hand record."""
        return cast("Record", record_of(self))

