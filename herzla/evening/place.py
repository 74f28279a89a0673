"""A deal's place in an evening: its dealer, its partie and the contract the partie fixes, read
from the game's declarations (:class:`herzla.contracts.Game`: ``partie``, the dealer rotation
``Game.dealer``, ``bidding``), never from a table of games.

- A game with a partie (Herzeln: 8 deals, Herzerln: 6 rounds) plays parties one after the
  other: deal ``k`` is hand ``(k - 1) % partie`` of its partie, with that hand's contract, dealt
  by the seat the game's rotation names from the partie's first dealer (``dealer_rotation``;
  Herzerln: one dealer for the partie).
- A game without one (Herzla, the children's game) plays each hand on its own, as a partie of
  one hand.
- After a partie's last hand the deal passes clockwise, to the seat after its last dealer (the
  deal and the play go clockwise in every game of the family).

>>> from herzla.contracts import get_game
>>> g = get_game("herzeln")
>>> [dealer_of(g, 3, i, [3, 0], 4, {}) for i in range(3)]
[3, 0, 1]
>>> [dealer_of(get_game("herzerln"), 3, i, [3] * i, 4, {}) for i in (0, 5, 6)]
[3, 3, 0]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from herzla.contracts import Game

__all__ = ["dealer_of", "fixed_contract", "partie_length", "partie_of"]


def partie_length(game: Game) -> int:
    """How many hands form a partie: the game's ``partie``, or 1 for a game without one."""
    return game.partie or 1


def partie_of(game: Game, index: int) -> tuple[int, int]:
    """(partie from 1, hand of the partie from 0) of the ``index``-th deal (from 0)."""
    length = partie_length(game)
    return index // length + 1, index % length


def dealer_of(game: Game, first: int, index: int, dealers: Sequence[int], players: int,
              opts: Mapping[str, Any]) -> int:
    """The dealer of deal ``index`` (from 0) of an evening whose first deal is dealt by
    ``first``, ``dealers`` being the dealers of the deals before (at least those of its
    partie's first deal and the deal before it)."""
    _, hand = partie_of(game, index)
    if index == 0:
        return first
    if hand == 0:
        return (dealers[index - 1] + 1) % players
    return game.dealer(dealers[index - hand], hand, players, opts)


def fixed_contract(game: Game, index: int) -> str | None:
    """The contract the evening's ``index``-th deal (from 0) must be: the partie's hand, or a
    game's only contract when it has no bidding; None when the table chooses (the bidding)."""
    if game.partie:
        return game.partie_ids()[partie_of(game, index)[1]]
    classes = game.contract_classes()
    if not game.bidding and len(classes) == 1:
        return classes[0].id
    return None
