"""The running of an evening: deal after deal scored in its place, the stock, the dealer, the
partie and the totals carried from one to the next (:class:`Run`, the one place that carries
them; :class:`herzla.evening.Evening` and the list reader both use it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from herzla.contracts import Game, Sheet, get_game
from herzla.evening.deal import Deal, Place, score_entry
from herzla.evening.entry import Entry
from herzla.evening.errors import EveningError
from herzla.evening.place import dealer_of, fixed_contract, partie_of
from herzla.options import resolve_options

__all__ = ["Run", "Table"]


@attrs.frozen(slots=True)
class Table:
    """What an evening is played with: the game, the players, the options given, the stock and
    the dealer it starts with; ``sheet``: a list of hand records read as a score sheet (each
    partie's first deal dealt by the seat its record names; a record that does not score kept
    unscored)."""

    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any]
    stock: int
    dealer: int
    sheet: bool = False

    @property
    def spec(self) -> Game:
        return get_game(self.game)

    @property
    def opts(self) -> dict[str, Any]:
        """Every option of the game: the given ones, and the defaults."""
        return resolve_options(self.spec.options, self.options)

    @property
    def has_stock(self) -> bool:
        return self.spec.has_stock

    @property
    def kind(self) -> Sheet:
        try:
            return Sheet(self.spec.sheet)
        except ValueError:
            raise EveningError(f"the game {self.game} forms a sheet herzla does not know: "
                               f"\"{self.spec.sheet}\" (one of "
                               f"{', '.join(s.value for s in Sheet)})") from None


class Run:
    """Deals scored one after the other from a table (and the deals already scored)."""

    def __init__(self, table: Table, deals: Sequence[Deal] = ()) -> None:
        self.table = table
        self.deals: list[Deal] = list(deals)
        n = len(table.players)
        last = self.deals[-1] if self.deals else None
        self.totals: tuple[int, ...] = last.totals if last is not None else (0,) * n
        self.stock: int | None = (last.stock if last is not None
                                  else table.stock if table.has_stock else None)
        self.counting = last is None or last.counted
        self.kind = table.kind
        # the deals that count as played (a redealt one is played again in its place) and
        # their dealers, kept as deals are pushed: a push costs the same at deal 10 and 10,000
        self.played: list[Deal] = [d for d in self.deals if not d.redeal]
        self.dealers: list[int] = [d.dealer for d in self.played]

    @property
    def over(self) -> bool:
        """Whether the match is over (a game whose sheet is a match, at its end)."""
        t = self.table
        if self.kind is not Sheet.MATCH or not self.deals or not self.counting:
            return False
        return t.spec.match_over(self.totals, len(self.played), t.opts)

    def place(self, dealer: int | None = None) -> Place:
        """Where the next deal stands (``dealer``: a score sheet's record names the dealer of
        a partie's first deal)."""
        t = self.table
        i = len(self.played)
        partie, hand = partie_of(t.spec, i)
        if dealer is None or hand != 0 or i == 0:
            dealer = dealer_of(t.spec, t.dealer, i, self.dealers, len(t.players), t.opts)
        return Place(len(self.deals) + 1, dealer, partie if t.spec.partie else None,
                     fixed_contract(t.spec, i), self.stock, hand)

    def push(self, entry: Entry) -> Deal:
        """Score ``entry`` as the next deal and carry on from it."""
        t = self.table
        k = len(self.deals) + 1
        if self.over:
            raise EveningError(f"the match ended with hand {k - 1}; deal {k} comes after it")
        named = None
        if t.sheet and entry.record is not None and "dealer" in entry.record_keys:
            named = entry.record.dealer
        place = self.place(named)
        kept, contract, score, result, hearts, from_stock = score_entry(
            t.game, t.players, t.options, place, entry, sheet=t.sheet)
        counted = self.counting and score is not None
        if counted:
            assert score is not None
            self.totals = tuple(a + b for a, b in zip(self.totals, score.scores, strict=True))
        else:
            self.counting = False
        deal = Deal(place, kept, contract, score, result, self.totals, counted, hearts,
                    from_stock)
        self.deals.append(deal)
        if not deal.redeal:
            self.played.append(deal)
            self.dealers.append(deal.dealer)
        self.stock = deal.stock
        return deal
