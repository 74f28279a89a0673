"""The fixed action space of an environment: one action per card, the lower-end lays, the pass and
the announcements, as far as the table's deals have them.

With ``C`` the cards of the table's packs (:attr:`herzla.rl.table.Table.cards`, by card index):

- actions ``0 .. C-1``: card ``k`` played; in a layout deal laid at the only end it fits, or at
  the upper end (``+``) where it fits both;
- ``C .. 2C-1``, only where a row can turn the corner (the declaration's ``Rows.wrap``, as in the
  Herzeln domino): card ``k`` laid at the lower end (``-``) when it fits both ends;
- then one pass, where a deal has passes (``Contract.has_passes``: a seat that cannot lay
  passes) or is announced (a seat that announces nothing passes);
- then one action per contract the game's bidding announces (``Game.bidding`` after the first).

>>> from herzla.rl.table import EnvTable
>>> actions = Actions(EnvTable.of("herzla"))
>>> actions.size, actions.name(0), actions.name(31), actions.name(32), actions.name(33)
(35, 'C7', 'DA', 'pass', 'beddl')
>>> domino = Actions(EnvTable.of("herzeln", "domino"))
>>> domino.size, domino.name(32), domino.name(64)
(65, 'C7-', 'pass')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from herzla.cards import Card
from herzla.hand import Move
from herzla.kinds.codec import MoveCodec
from herzla.rl.table import EnvTable

__all__ = ["Actions", "as_action"]


class Actions:
    """The action codec of one table (see the module notes)."""

    def __init__(self, table: EnvTable) -> None:
        self.cards: tuple[Card, ...] = table.cards
        n = len(self.cards)
        self._slot = {card.index: k for k, card in enumerate(self.cards)}
        #: the first lower-end action (None: no row turns the corner)
        self.lower: int | None = n if table.has_lower else None
        top = 2 * n if table.has_lower else n
        #: the pass (None: nobody ever passes)
        passes = any(c.has_passes for c in table.contracts())
        self.pass_action: int | None = top if (passes or table.words) else None
        self.words: tuple[str, ...] = table.words
        self.size: int = top + (self.pass_action is not None) + max(0, len(self.words) - 1)
        #: the moves as actions: the codec OpenSpiel's games use too, on the table's cards
        self.codec = MoveCodec(self._slot, self.lower, self.pass_action)

    # -- the play ---------------------------------------------------------------------------
    def of_moves(self, moves: Sequence[Move]) -> dict[int, Move]:
        """The actions of the legal ``moves`` of a hand, each with its move."""
        return self.codec.of_moves(moves)

    def card(self, action: int) -> Card | None:
        """The card an action plays (None for the pass and the announcements)."""
        return self.codec.card(action)

    def slot(self, card: Card) -> int | None:
        """The card's action (None: not a card of the table's packs)."""
        return self._slot.get(card.index)

    # -- the bidding ------------------------------------------------------------------------
    def of_words(self) -> dict[int, str]:
        """The actions of the bidding, each with its word: the pass, then each contract."""
        if not self.words:
            return {}
        assert self.pass_action is not None
        return {self.pass_action + k: word for k, word in enumerate(self.words)}

    # -- names ------------------------------------------------------------------------------
    def name(self, action: int) -> str:
        """An action as text: a card code (``-`` marks the lower end), ``pass`` or a contract
        id announced; ValueError for a number that is no action."""
        card = self.card(action)
        if card is not None:
            return f"{card}-" if self.lower is not None and action >= self.lower else str(card)
        words = self.of_words()
        if action in words:
            return words[action]
        if action == self.pass_action:
            return "pass"
        raise ValueError(f"{action} is not an action (actions are 0 to {self.size - 1})")

    def names(self) -> list[str]:
        """Every action's name, by action."""
        return [self.name(a) for a in range(self.size)]


def as_action(action: Any) -> int:
    """An action given as a whole number (a numpy integer, or an array holding one, too);
    ValueError for anything else."""
    if isinstance(action, np.ndarray) and action.size == 1 and \
            np.issubdtype(action.dtype, np.integer):
        return int(action.reshape(()))
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        what = type(action).__name__
        raise ValueError(f"an action is a whole number, not {'None' if action is None else what}")
    return int(action)
