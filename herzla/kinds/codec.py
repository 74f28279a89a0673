"""The one action codec of the moves, which OpenSpiel's games and the environments share: a move
as a whole number and back.

Each card has its slot (``slot``: OpenSpiel's is the card's index, an environment's the card's
place among its table's cards); a card laid at the lower end of its row where it fits both ends
(a layout deal whose rows turn the corner: ``D7-``) is ``lower + slot``; the pass is
``pass_action``.  A card that fits one end only, or the upper end, is its slot.

>>> from herzla.cards import Card
>>> from herzla.hand import PASS, Move
>>> codec = MoveCodec({c: c for c in range(36)}, lower=36, pass_action=72)
>>> d7 = Card.from_str("D7")
>>> codec.of_moves([Move(d7, "+"), Move(d7, "-"), PASS]) == {
...     d7.index: Move(d7, "+"), 36 + d7.index: Move(d7, "-"), 72: PASS}
True
>>> str(codec.move(36 + d7.index)), codec.move(72)
('D7-', Move(card=None, end=None))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from herzla.cards import Card
from herzla.hand import PASS, Move

__all__ = ["MoveCodec"]


@attrs.frozen(slots=True)
class MoveCodec:
    """Moves as actions: ``slots`` maps a card's index to its action, ``lower`` is the first
    lower-end action (None: no row turns the corner), ``pass_action`` the pass (None: nobody
    passes)."""

    slots: Mapping[int, int]
    lower: int | None = None
    pass_action: int | None = None
    _cards: dict[int, Card] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_cards", {s: Card.from_index(i) for i, s in self.slots.items()})

    def of_moves(self, moves: Sequence[Move]) -> dict[int, Move]:
        """The actions of the legal ``moves`` of a hand, each with its move."""
        out: dict[int, Move] = {}
        for move in moves:
            card = move.card
            if card is None:
                assert self.pass_action is not None, "a pass where nobody passes"
                out[self.pass_action] = PASS
                continue
            slot = self.slots[card.index]
            if move.end == "-" and self.lower is not None and (slot in out or any(
                    m.card == card and m.end == "+" for m in moves)):
                out[self.lower + slot] = move  # the second end of a card that fits both
            else:
                out[slot] = move
        return out

    def card(self, action: int) -> Card | None:
        """The card an action plays (None for the pass and any other action)."""
        got = self._cards.get(action)
        if got is None and self.lower is not None:
            got = self._cards.get(action - self.lower)
        return got

    def at_lower(self, action: int) -> bool:
        """Whether ``action`` lays its card at the lower end of its row."""
        return (self.lower is not None and action >= self.lower
                and (action - self.lower) in self._cards)

    def move(self, action: int) -> Move | None:
        """The move an action names as records write it (None: no move of the play)."""
        if action == self.pass_action:
            return PASS
        card = self.card(action)
        if card is None:
            return None
        return Move(card, "-" if self.at_lower(action) else None)
