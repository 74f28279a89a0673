"""The running of an evening: deal after deal scored in its place, the stock, the dealer, the
partie and the totals carried from one to the next (:class:`Run`, the one place that carries
them; :class:`herzla.evening.Evening` and the list reader both use it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from herzla.contracts import Game, Sheet, get_game
from herzla.evening.deal import Deal, score_entry
from herzla.evening.entry import Entry
from herzla.evening.errors import EveningError
from herzla.i18n import _
from herzla.options import resolve_options
from herzla.round import Carry, Place, Seated, Seating

__all__ = ["Run", "Sitting"]


@attrs.frozen(slots=True)
class Sitting(Seated):
    """What an evening is played with: its ``seating`` (:class:`herzla.round.Seating`: the
    game, the number of players, the options given, the stock and the dealer it starts with;
    no one contract), the players' ``names``; ``sheet``: a list of hand records read as a
    score sheet (each partie's first deal dealt by the seat its record names; a record that
    does not score kept unscored)."""

    seating: Seating
    names: tuple[str, ...]
    sheet: bool = False

    @classmethod
    def of(cls, game: str, players: Sequence[str], options: Mapping[str, Any], stock: int,
           dealer: int, sheet: bool = False) -> Sitting:
        """The evening of ``game`` for the ``players`` named, ``dealer`` dealing first."""
        return cls(Seating(game, len(players), dealer, options=options, stock=stock),
                   tuple(players), sheet)

    @property
    def game(self) -> str:
        return self.seating.game

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, by seat."""
        return self.names


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
            raise EveningError(_("the game {game} forms a sheet herzla does not know: "
                                 '"{sheet}" (one of '
                                 "{value})").format(
                game=self.game, sheet=self.spec.sheet,
                value=', '.join(s.value for s in Sheet))) from None


class Run:
    """Deals scored one after the other from a table (and the deals already scored), what
    they carry to the next held as a :class:`herzla.round.Carry`."""

    def __init__(self, table: Sitting, deals: Sequence[Deal] = ()) -> None:
        self.table = table
        self.deals: list[Deal] = list(deals)
        self.kind = table.kind
        self.carry = Carry(table.spec, len(table.players), table.opts, table.dealer,
                           table.stock if table.has_stock else None,
                           (0,) * len(table.players), self.kind is Sheet.MATCH)
        for d in self.deals:
            self.carry = self.carry.after(d.place, d.scores, d.stock, d.redeal)

    @property
    def totals(self) -> tuple[int, ...]:
        return self.carry.totals

    @property
    def stock(self) -> int | None:
        return self.carry.stock

    @property
    def counting(self) -> bool:
        return self.carry.counting

    @property
    def over(self) -> bool:
        """Whether the match is over (a game whose sheet is a match, at its end)."""
        return self.carry.over

    def place(self, dealer: int | None = None) -> Place:
        """Where the next deal stands (``dealer``: a score sheet's record names the dealer of
        a partie's first deal)."""
        return self.carry.place(dealer)

    def push(self, entry: Entry) -> Deal:
        """Score ``entry`` as the next deal and carry on from it."""
        t = self.table
        k = len(self.deals) + 1
        if self.over:
            raise EveningError(_("the match ended with hand {k}; deal {k2} comes after it").format(
                k=k - 1, k2=k))
        named = None
        if t.sheet and entry.record is not None and "dealer" in entry.record_keys:
            named = entry.record.dealer
        place = self.place(named)
        kept, contract, score, result, hearts, from_stock = score_entry(
            t.game, t.players, t.options, place, entry, sheet=t.sheet)
        before = self.carry
        scored = Deal(place, kept, contract, score, result, before.totals, False, hearts,
                      from_stock)
        self.carry = before.after(place, scored.scores, scored.stock, scored.redeal)
        deal = attrs.evolve(scored, totals=self.carry.totals,
                            counted=before.counting and score is not None)
        self.deals.append(deal)
        return deal
