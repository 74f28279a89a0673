"""What one seat may know when it decides: the *views* an engine hands a policy.

A view holds the seat's own hand, every card played (laid) so far and by whom, the announcements,
the table (contract, options, dealer, stock) and the legal moves; never another seat's cards.
The engines build them (:meth:`TrickView.of`, :meth:`LayoutView.of`, :class:`BidView`) from
their own state, so a policy cannot read the deal; :func:`view_of` makes the view of any hand's
seat to move, and :func:`herzla.players.policy.decide_move` asks a policy for its move on it.

``uniform`` is the move's 32-bit random number from the simulation's seeded stream (the random
policy's choice; any policy may draw its randomness from it, which keeps a run reproducible).

>>> from herzla.contracts import contract_class
>>> from herzla.cards import mask_of, parse_cards
>>> from herzla.tricks import TrickHand
>>> normal = contract_class("herzla", "normal")()
>>> hands = [mask_of(parse_cards(h)) for h in (
...     "CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
...     "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8")]
>>> state = TrickHand(normal, hands, dealer=3)
>>> state.play(parse_cards("C7")[0])
>>> view = TrickView.of(state, uniform=0)
>>> view.seat, [str(c) for c in view.trick], view.winner
(1, ['C7'], 0)
>>> [str(m) for m in view.legal_moves()]
['CK', 'CA']
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar, cast, overload

import attrs

from herzla.cards import SUIT_MASKS, Card, Suit, cards_of
from herzla.contracts import Contract, LayoutContract, TrickContract
from herzla.display import render
from herzla.hand import PASS, Hand, Illegal, Move
from herzla.i18n import _
from herzla.layout import LayoutHand
from herzla.tricks import Trick, TrickHand

T = TypeVar("T")

__all__ = ["BidView", "LayoutView", "TrickView", "as_view", "shown_voids", "trick_view",
           "view_of", "views_of"]


@attrs.frozen(slots=True)
class BidView:
    """A seat's view when it announces: its hand and the announcements before it.

    ``contract`` is the contract played when nobody announces (its game's bidding names the
    others); ``announcements`` are those of the seats before it, from forehand.
    """

    contract: Contract
    seat: int
    hand: int
    dealer: int
    announcements: tuple[str, ...] = ()
    uniform: int = 0

    @property
    def players(self) -> int:
        return self.contract.players

    @property
    def forehand(self) -> bool:
        """Whether the seat leads to the first trick (it announces first)."""
        return self.seat == (self.dealer + 1) % self.contract.players

    @property
    def options(self) -> Mapping[str, Any]:
        return self.contract.opts


@attrs.frozen(slots=True)
class TrickView:
    """A seat's view of a trick deal when it is to play.

    ``tricks`` are the finished tricks (leader, cards, winner), ``trick`` the cards of the trick in
    progress (led by ``leader``), ``winner`` the seat winning it so far (None before the lead),
    ``legal`` the legal cards as a bit set.  ``announcements`` are the bidding's, from forehand
    (empty without bidding), ``declarer`` the contract's.
    """

    contract: TrickContract
    seat: int
    hand: int
    dealer: int
    legal: int
    tricks: tuple[Trick, ...]
    trick: tuple[Card, ...]
    leader: int
    winner: int | None
    uniform: int = 0
    stock: int = 0
    announcements: tuple[str, ...] = ()
    dealt: int = 0  # cards dealt to each seat

    @classmethod
    def of(cls, state: TrickHand, uniform: int = 0, stock: int = 0,
           announcements: tuple[str, ...] = ()) -> TrickView:
        """The view of the seat to play in ``state``."""
        seat = state.turn
        return cls(state.contract, seat, state.hands[seat], state.dealer, state.legal_mask(),
                   tuple(state.tricks), tuple(state.trick), state.leader,
                   state.current_winner(), uniform, stock, announcements, state.tricks_per_hand)

    @property
    def players(self) -> int:
        return self.contract.players

    @property
    def turn(self) -> int:
        """The seat to play: the view's own seat."""
        return self.seat

    @property
    def trick_number(self) -> int:
        return len(self.tricks) + 1

    @property
    def options(self) -> Mapping[str, Any]:
        return self.contract.opts

    def plays(self) -> list[tuple[int, Card]]:
        """Every card played so far, in order, with the seat that played it."""
        out: list[tuple[int, Card]] = []
        n = self.players
        for t in self.tricks:
            out += [((t.leader + i) % n, c) for i, c in enumerate(t.cards)]
        out += [((self.leader + i) % n, c) for i, c in enumerate(self.trick)]
        return out

    def played(self) -> int:
        """The cards played so far, as a bit set."""
        m = 0
        for _seat, c in self.plays():
            m |= c.bit
        return m

    def voids(self) -> list[frozenset[Suit]]:
        """Per seat, the suits it has shown it lacks (by not following them)."""
        return shown_voids(self.tricks, self.trick, self.leader, self.players)

    def follows(self) -> bool:
        """Whether the seat can follow the suit led (False when it leads)."""
        return bool(self.trick) and bool(self.hand & SUIT_MASKS[self.trick[0].suit])

    def legal_moves(self) -> list[Move]:
        """The seat's legal moves: its legal cards, as :meth:`herzla.players.Policy.move`
        chooses among them (as the hand's :meth:`~herzla.hand.Hand.legal_moves`)."""
        return [Move(c) for c in cards_of(self.legal)]

    def problem(self, move: Move, check: Callable[[Card], Illegal | None] | None = None
                ) -> str | None:
        """Why ``move`` may not be played on this view, in words (None: it may); ``check`` is
        the engine's, which names the rule."""
        card = move.card
        if card is not None and self.legal >> card.index & 1:
            return None
        found = check(card) if check is not None and card is not None else None
        return found.message if found is not None else (
            _("seat {seat} may play {cards}").format(
                seat=self.seat, cards=" ".join(map(str, cards_of(self.legal)))))

    def __str__(self) -> str:
        """What the seat sees, drawn as text."""
        return render("View", "text", self) or repr(self)

    def by_kind(self, tricks: Callable[[TrickView], T], layout: Callable[[LayoutView], T]
                ) -> T:
        """Deprecated (gone in 1.0): ``tricks(self)`` (a layout deal's view answers
        ``layout(self)``); a policy writes one :meth:`~herzla.players.Policy.move`."""
        _deprecated("view.by_kind()", "one Policy.move() on view.legal_moves()")
        return tricks(self)


def _deprecated(old: str, new: str) -> None:
    warnings.warn(f"{old} is deprecated and goes in 1.0: {new}", DeprecationWarning,
                  stacklevel=3)


def shown_voids(tricks: Sequence[Trick], trick: Sequence[Card], leader: int, players: int
                ) -> list[frozenset[Suit]]:
    """Per seat, the suits it has shown it lacks by not following them, in the ``tricks``
    played and the ``trick`` in progress (led by ``leader``)."""
    out: list[set[Suit]] = [set() for _ in range(players)]
    for cards, first in [*((t.cards, t.leader) for t in tricks), (trick, leader)]:
        if not cards:
            continue
        led = cards[0].suit
        for i, c in enumerate(cards[1:], start=1):
            if c.suit != led:
                out[(first + i) % players].add(led)
    return [frozenset(s) for s in out]


@attrs.frozen(slots=True)
class LayoutView:
    """A seat's view of a layout deal (the domino, Auflegen) when it is to lay.

    The rows on the table are public: :meth:`fits` tells where a card may go now and
    :meth:`after` the view once the seat has laid a card.  ``history`` holds every turn so far
    (seat, lay or None for a pass); ``counts`` the cards each seat still holds.
    """

    contract: LayoutContract
    seat: int
    hand: int
    dealer: int
    history: tuple[tuple[int, Move | None], ...]
    counts: tuple[int, ...]
    uniform: int = 0
    _board: LayoutHand = attrs.field(default=None, repr=False, eq=False)

    @classmethod
    def of(cls, state: LayoutHand, uniform: int = 0) -> LayoutView:
        """The view of the seat to move in ``state``."""
        seat = state.turn
        return cls(state.contract, seat, state.hands[seat], state.dealer,
                   tuple((s, lay) for s, lay, _ in state.history),
                   tuple(h.bit_count() for h in state.hands), uniform, _board_of(state, seat))

    @property
    def players(self) -> int:
        return self.contract.players

    @property
    def turn(self) -> int:
        return self.seat

    @property
    def rows(self) -> dict[int, tuple[int, int]]:
        """The rows opened so far: row key -> (low, high) positions in the row's sequence."""
        return dict(self._board.rows)

    @property
    def options(self) -> Mapping[str, Any]:
        return self.contract.opts

    def fits(self, card: Card) -> list[str]:
        """The ends (``+``, ``-``) ``card`` may be laid at now."""
        return self._board.fits(card)

    def lays(self) -> list[Move]:
        """The seat's legal lays, each card at each end it fits (empty: it must pass)."""
        return [Move(c, e) for c in cards_of(self.hand) for e in self._board.fits(c)]

    def legal_moves(self) -> list[Move]:
        """The seat's legal moves as :meth:`herzla.players.Policy.move` chooses among them
        (as the hand's :meth:`~herzla.hand.Hand.legal_moves`): each card laid at each end it
        fits, or the pass alone."""
        return self.lays() or [PASS]

    def problem(self, move: Move, check: Callable[[Card], Illegal | None] | None = None
                ) -> str | None:
        """Why ``move`` (a lay or the pass) may not be made on this view (None: it may)."""
        board = self._board
        bad = board.check_pass() if move.card is None else board.check(move.card, move.end)
        return None if bad is None else bad.message

    def __str__(self) -> str:
        """What the seat sees, drawn as text."""
        return render("View", "text", self) or repr(self)

    def by_kind(self, tricks: Callable[[TrickView], T], layout: Callable[[LayoutView], T]
                ) -> T:
        """Deprecated (gone in 1.0): ``layout(self)`` (see :meth:`TrickView.by_kind`)."""
        _deprecated("view.by_kind()", "one Policy.move() on view.legal_moves()")
        return layout(self)

    def after(self, lay: Move) -> LayoutView:
        """The seat's view once it has laid ``lay`` (and before anyone else moves)."""
        assert lay.card is not None  # a lay, not the pass
        board = self._board.copy()
        board._lay(lay.card, lay.end)
        counts = list(self.counts)
        counts[self.seat] -= 1
        return attrs.evolve(self, hand=self.hand & ~lay.card.bit,
                            history=(*self.history, (self.seat, lay)), counts=tuple(counts),
                            board=_board_of(board, self.seat))


def _board_of(state: LayoutHand, seat: int) -> LayoutHand:
    """A copy of the table with every hand but ``seat``'s emptied (the rows are public)."""
    board = state.copy()
    board.hands = [h if s == seat else 0 for s, h in enumerate(state.hands)]
    board.turn = seat
    board.over = False
    return board


#: where a view made without a uniform draws one: seeded from the system's randomness once
_UNIFORMS = random.Random()


def view_of(hand: Hand, uniform: int | None = None, stock: int = 0,
            announcements: tuple[str, ...] = ()) -> TrickView | LayoutView:
    """The view of the seat to move in ``hand``, whatever the deal (``stock`` and the bidding's
    ``announcements`` matter only in trick deals).  ``uniform`` None (the default) draws the
    move's uniform from a stream seeded from the system's randomness, so that ``random`` plays
    a random card; the engines hand their seeded uniforms instead."""
    if uniform is None:
        uniform = _UNIFORMS.getrandbits(32)
    # the players' one question of kind: a view is read from its engine's own state, a trick
    # deal's view holds its tricks, a layout deal's its rows
    if isinstance(hand, TrickHand):
        return TrickView.of(hand, uniform, stock, announcements)
    return LayoutView.of(cast(LayoutHand, hand), uniform)


def views_of(view: TrickView | LayoutView) -> tuple[TrickView, None] | tuple[None, LayoutView]:
    """``(view, None)`` for a trick deal's view, ``(None, view)`` for a layout deal's: what a
    policy whose rules differ by kind (the heuristic's, ``net``, ``pimc``, ``expert``, the
    OpenSpiel bot, each playing the tricks its own way) asks."""
    # the policies' one question of kind: a policy's rules for the tricks read the tricks, its
    # rules for the rows the rows
    return (view, None) if isinstance(view, TrickView) else (None, view)


def trick_view(view: TrickView | LayoutView) -> TrickView | None:
    """``view`` where it is a trick deal's, else None (:func:`views_of`)."""
    return views_of(view)[0]


#: the views a policy is handed (a hand stands for one: :func:`as_view`)
_VIEWS = (TrickView, LayoutView)


@overload
def as_view(state: TrickView | TrickHand) -> TrickView: ...
@overload
def as_view(state: LayoutView | LayoutHand) -> LayoutView: ...
def as_view(state: TrickView | LayoutView | Hand) -> TrickView | LayoutView:
    """A view as it is; a hand stands for the view of its seat to move (:func:`view_of`)."""
    return state if isinstance(state, _VIEWS) else view_of(state, 0)
