"""A deal's place in an evening, and what the deals before carry to it (:class:`Carry`): its
dealer, its partie and the contract the partie fixes, the stock, the totals and a match's count,
read from the game's declarations (:class:`herzla.contracts.Game`: ``partie``, the dealer rotation
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

import attrs

from herzla.contracts import Game

__all__ = ["Carry", "Place", "dealer_of", "fixed_contract", "partie_length", "partie_of"]


@attrs.frozen(slots=True)
class Place:
    """Where a deal stands: its number ``k`` (from 1), its dealer, the partie (from 1; None in
    a game without one), the contract the partie fixes (None: the table's choice), the stock
    carried in (None: a game without a stock) and the ``hand`` of its partie (from 0; 0 in a
    game without one).  A redealt deal is played again in its place, so ``k`` counts every
    deal, ``partie`` and ``hand`` only the deals played."""

    k: int
    dealer: int
    partie: int | None
    contract: str | None
    stock: int | None
    hand: int


@attrs.frozen(slots=True)
class Carry:
    """What the deals so far carry to the next: the seats' ``totals``, the ``stock`` (None: a
    game without one), the ``dealers`` of the deals played (a redealt deal is played again in
    its place), how many ``deals`` were scored (redealt ones too), whether the totals still
    ``count`` (a score sheet stops at a deal that does not score), and, for a ``match``, whether
    it is over.  ``first`` deals the first deal; ``opts`` are every option of the game."""

    game: Game
    players: int
    opts: Mapping[str, Any]
    first: int
    stock: int | None
    totals: tuple[int, ...]
    match: bool = False
    dealers: tuple[int, ...] = ()
    deals: int = 0
    counting: bool = True

    @property
    def over(self) -> bool:
        """Whether the match is over (a match, at its end)."""
        if not self.match or not self.deals or not self.counting:
            return False
        return self.game.match_over(self.totals, len(self.dealers), self.opts)

    def place(self, dealer: int | None = None) -> Place:
        """Where the next deal stands (``dealer``: a score sheet's record names the dealer of
        a partie's first deal)."""
        i = len(self.dealers)
        partie, hand = partie_of(self.game, i)
        if dealer is None or hand != 0 or i == 0:
            dealer = dealer_of(self.game, self.first, i, self.dealers, self.players, self.opts)
        return Place(self.deals + 1, dealer, partie if self.game.partie else None,
                     fixed_contract(self.game, i), self.stock, hand)

    def after(self, place: Place, scores: Sequence[int] | None, stock: int | None,
              redeal: bool = False) -> Carry:
        """What carries on once the deal at ``place`` scored ``scores`` (None: it does not
        score, and the totals stop counting), leaving ``stock``; a ``redeal`` is played again
        in its place."""
        counted = self.counting and scores is not None
        totals = self.totals
        if counted:
            assert scores is not None
            totals = tuple(a + b for a, b in zip(totals, scores, strict=True))
        dealers = self.dealers if redeal else (*self.dealers, place.dealer)
        return attrs.evolve(self, stock=stock, totals=totals, dealers=dealers,
                            deals=self.deals + 1, counting=counted)


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
