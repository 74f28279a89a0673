"""A seat's view of a layout deal (the domino, Auflegen) when it is to lay: its hand, the
rows on the table (public), every turn so far and the cards each seat still holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from herzla.cards import Card, cards_of
from herzla.contracts import LayoutContract
from herzla.display import render
from herzla.hand import PASS, Illegal, Move
from herzla.kinds.layout.engine import LayoutHand

__all__ = ["LayoutView"]


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
