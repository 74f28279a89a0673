"""The reference trick engine: the single source of truth for legality and trick winners.

A :class:`TrickHand` holds each seat's cards as a bit set, the trick in progress and the tricks
played.  ``legal_mask()`` is a cheap view of the legal cards; ``play`` and ``undo`` move forward and
back without copying, and ``copy()`` is shallow and fast, for solvers and Monte Carlo players.

>>> from herzla.contracts import contract_class
>>> from herzla.cards import parse_cards, mask_of
>>> c = contract_class("herzla", "normal")()
>>> hands = [mask_of(parse_cards(h)) for h in (
...     "CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
...     "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8")]
>>> h = c.new_hand(hands, dealer=3)
>>> h.turn, [str(x) for x in h.legal_moves()]
(0, ['C7', 'CT', 'CJ', 'CQ', 'S9', 'SQ', 'D9', 'DQ'])
>>> for code in "C7 CA C8 C9".split():
...     done = h.play(Card.from_str(code))
>>> done.winner, h.turn
(1, 1)
>>> [str(x) for x in h.legal_moves()]  # hearts may not be led to trick 2
['CK', 'SK', 'SA', 'D7', 'DK']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, cast

from herzla.cards import SUIT_MASKS, Card, cards_of, hand_mask
from herzla.contracts.base import TrickContract
from herzla.contracts.vocabulary import FOLLOW_SUIT, HAND_OVER, MUST_PLAY_IF_ABLE, NOT_IN_HAND
from herzla.display import render
from herzla.hand import (
    HandNotOver,
    HandScore,
    Illegal,
    Move,
    Outcome,
    Trick,
    as_move,
    record_of,
    refuse,
)
from herzla.i18n import _

if TYPE_CHECKING:
    from herzla.records import Record

__all__ = ["Illegal", "Trick", "TrickHand"]

#: the move of each card, by card index (legal_moves hands these out instead of new ones)
_MOVES = tuple(Move(Card.from_index(i)) for i in range(36))


def _card(move: Move | Card | str) -> Card | None:
    """The card of a move (None for the pass)."""
    if isinstance(move, Card):
        return move
    if isinstance(move, Move):
        return move.card
    return as_move(move).card


class TrickHand:
    """One hand of a trick deal in progress: a :class:`herzla.hand.Hand`.

    ``hands`` holds each seat's cards: bit sets (``mask_of``), card lists (``"CQ CJ ..."``) or
    Cards (a record's ``hands``).  ``contract.new_hand(hands, dealer)`` makes one, and
    ``record.start()`` one for a record.  ``play`` and ``check`` take a :class:`Card`, a card
    code or a :class:`~herzla.hand.Move`.
    """

    __slots__ = (
        "contract", "players", "dealer", "stock", "dealt", "hands", "captured", "won", "trick",
        "leader", "tricks", "over", "_strength", "_per_hand", "_played",
    )

    def __init__(self, contract: TrickContract,
                 hands: Sequence[int | str | Iterable[Card | str]], dealer: int,
                 stock: int = 0) -> None:
        self.contract = contract
        self.players = contract.players
        self.dealer = dealer
        self.stock = stock
        self.hands: list[int] = [hand_mask(h) for h in hands]
        self.dealt: tuple[int, ...] = tuple(self.hands)
        self.captured: list[int] = [0] * self.players
        self.won: list[int] = [0] * self.players
        self.trick: list[Card] = []
        self.leader: int = (dealer + 1) % self.players
        self.tricks: list[Trick] = []
        self.over: bool = False
        self._strength = contract.rank_order().strength
        self._per_hand = min(h.bit_count() for h in self.hands) if self.hands else 0
        self._played: list[Move] = []

    # -- views ------------------------------------------------------------------------------
    @property
    def forehand(self) -> int:
        return (self.dealer + 1) % self.players

    @property
    def turn(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    @property
    def trick_number(self) -> int:
        """1-based number of the trick being played (or about to be)."""
        return len(self.tricks) + 1

    @property
    def tricks_per_hand(self) -> int:
        return self._per_hand

    @property
    def moves(self) -> tuple[Move, ...]:
        """The cards played so far, in order, as moves."""
        return tuple(self._played)

    @property
    def must_pass(self) -> bool:
        """Never: a trick deal has no pass."""
        return False

    @property
    def trick_place(self) -> tuple[int, int]:
        """The trick the next card goes to and its place there, counted from 1."""
        done, at = divmod(len(self._played), self.players)
        return done + 1, at + 1

    def _follow_and_ban(self, seat: int) -> tuple[int, int, tuple[int, str] | None]:
        """(cards the seat holds, cards that follow suit, the contract's ban if it applies)."""
        hand = self.hands[seat]
        if self.trick:
            follow = hand & SUIT_MASKS[self.trick[0].suit]
            if follow:
                return hand, follow, None
            return hand, hand, self.contract.banned(self, seat, False)
        return hand, hand, self.contract.banned(self, seat, True)

    def legal_mask(self) -> int:
        """The legal cards of the seat to play, as a bit set (0 once the hand is over)."""
        if self.over:
            return 0
        _held, legal, ban = self._follow_and_ban(self.turn)
        if ban is not None:
            allowed = legal & ~ban[0]
            if allowed:
                return allowed
        return legal

    def legal_moves(self) -> list[Move]:
        """The legal cards of the seat to play, as moves."""
        return [_MOVES[c.index] for c in cards_of(self.legal_mask())]

    def check(self, card: Move | Card | str) -> Illegal | None:
        """None if ``card`` (a Card, a code or a Move) may be played now, else the rule it
        breaks."""
        played = _card(card)
        if self.over:
            what = _("a pass") if played is None else played
            return Illegal(HAND_OVER.id, _("the hand is over; {what} cannot be played").format(
                what=what))
        seat = self.turn
        if played is None:
            return Illegal(MUST_PLAY_IF_ABLE.id,
                           _("seat {seat} must play a card: a trick deal has no pass").format(
                               seat=seat))
        hand, legal, ban = self._follow_and_ban(seat)
        if not hand >> played.index & 1:
            return Illegal(NOT_IN_HAND.id, _("seat {seat} does not hold {played}").format(
                seat=seat, played=played))
        if not legal >> played.index & 1:
            led = self.trick[0]
            return Illegal(
                FOLLOW_SUIT.id,
                _("seat {seat} must follow suit to {led} ({french}) but played {played}").format(
                    seat=seat, led=led, french=led.suit.french, played=played),
            )
        if ban is not None and ban[0] >> played.index & 1 and legal & ~ban[0]:
            if not self.trick:
                text = _("seat {seat} may not lead {played} to trick {trick_number} while "
                         "holding other cards")
            else:
                text = _("seat {seat} may not discard {played} to trick {trick_number} while "
                         "holding other cards")
            return Illegal(ban[1], text.format(seat=seat, played=played,
                                               trick_number=self.trick_number))
        return None

    # -- moves ------------------------------------------------------------------------------
    def play(self, card: Move | Card | str) -> Trick | None:
        """Play ``card`` (a Card, a code or a Move) for the seat to play.

        Returns the trick when this card completed one.  A card the seat may not play is
        refused with :class:`~herzla.hand.IllegalMove`, naming the rule ``check`` names, and
        the hand stays as it was.
        """
        refuse(self, card, self.check(card))
        return self._play(card)

    def _play(self, card: Move | Card | str) -> Trick | None:
        """:meth:`play` without the check: the engines' own loops, whose cards are legal."""
        if type(card) is not Card:
            played = _card(card)
            if played is None:
                raise ValueError(_("a trick deal has no pass"))
            card = played
        seat = self.turn
        self.hands[seat] &= ~(1 << card.index)
        self.trick.append(card)
        self._played.append(_MOVES[card.index])
        if len(self.trick) < self.players:
            return None
        led = self.trick[0].suit
        best = 0
        st = self._strength
        for i in range(1, self.players):
            c = self.trick[i]
            if c.suit == led and st[c.rank] > st[self.trick[best].rank]:
                best = i
        winner = (self.leader + best) % self.players
        done = Trick(self.leader, tuple(self.trick), winner)
        self.tricks.append(done)
        for c in self.trick:
            self.captured[winner] |= 1 << c.index
        self.won[winner] += 1
        self.trick = []
        self.leader = winner
        if len(self.tricks) >= self._per_hand or self.contract.ends_early(self):
            self.over = True
        return done

    def undo(self) -> Card:
        """Take back the last card played, and return it."""
        if not self.trick:
            if not self.tricks:
                raise IndexError(_("nothing to undo"))
            last = self.tricks.pop()
            assert last.winner is not None  # the engine keeps finished tricks only
            for c in last.cards:
                self.captured[last.winner] &= ~(1 << c.index)
            self.won[last.winner] -= 1
            self.leader = last.leader
            self.trick = list(last.cards)
            self.over = False
        card = self.trick.pop()
        self._played.pop()
        self.hands[self.turn] |= 1 << card.index
        return card

    def copy(self) -> TrickHand:
        new = TrickHand.__new__(TrickHand)
        new.contract = self.contract
        new.players = self.players
        new.dealer = self.dealer
        new.stock = self.stock
        new.dealt = self.dealt
        new.hands = list(self.hands)
        new.captured = list(self.captured)
        new.won = list(self.won)
        new.trick = list(self.trick)
        new.leader = self.leader
        new.tricks = list(self.tricks)
        new.over = self.over
        new._strength = self._strength
        new._per_hand = self._per_hand
        new._played = list(self._played)
        return new

    def current_winner(self) -> int | None:
        """The seat winning the trick in progress so far, or None before the lead."""
        if not self.trick:
            return None
        led = self.trick[0].suit
        st = self._strength
        best = 0
        for i in range(1, len(self.trick)):
            c = self.trick[i]
            if c.suit == led and st[c.rank] > st[self.trick[best].rank]:
                best = i
        return (self.leader + best) % self.players

    def holding(self, seat: int, cards: int) -> TrickHand:
        """A copy in which ``seat`` holds ``cards`` (a bit set) instead of its own cards."""
        new = self.copy()
        new.hands[seat] = cards
        return new

    def outcome(self) -> Outcome:
        return Outcome(
            players=self.players,
            captured=tuple(self.captured),
            tricks=tuple(self.won),
            last_winner=self.tricks[-1].winner if self.tricks else None,
            declarer=self.contract.declarer,
            tricks_played=len(self.tricks),
        )

    def score(self) -> HandScore:
        """The contract's score of the finished hand, with the hand's stock
        (:class:`~herzla.hand.HandNotOver` before the end)."""
        if not self.over:
            raise HandNotOver(_("the hand is not over: {n_tricks} of {per_hand} "
                                "tricks played; score() counts a finished hand (see over)").format(
                n_tricks=len(self.tricks), per_hand=self._per_hand))
        return self.contract.score(self.outcome(), self.stock)

    def __str__(self) -> str:
        """The position drawn as text (the hands, the play so far, whose turn it is)."""
        return render("Hand", "text", self) or object.__repr__(self)

    def record(self) -> Record:
        """The hand so far as a hand record."""
        return cast("Record", record_of(self))

