"""A lay as a hand record writes it: its end mark only where the card fits both ends of its row.

>>> from herzla.contracts import contract_class
>>> from herzla.kinds.layout.engine import LayoutHand
>>> from herzla.support.streams import seeded_deal
>>> domino = contract_class("herzeln", "domino")()
>>> state = LayoutHand(domino, seeded_deal(domino.pack(), 4, domino.hand_size, 1), 0)
>>> while not state.lays():
...     state.pass_turn()
>>> [mark(state, lay) for lay in state.lays()]  # an opening lay fits one end: no mark
['CJ', 'HJ', 'DJ']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from herzla.cards import Card
from herzla.hand import Move

__all__ = ["mark"]


class _Rows(Protocol):
    """What :func:`mark` reads of a position: the ends a card fits (a LayoutHand, or a seat's
    view of one)."""

    def fits(self, card: Card) -> Sequence[str]: ...


def mark(state: _Rows, lay: Move) -> str:
    """A lay as a hand record writes it: with its end mark only where the card fits both ends."""
    if lay.card is None:
        return str(lay)
    return f"{lay.card}{lay.end or '+'}" if len(state.fits(lay.card)) > 1 else str(lay.card)

