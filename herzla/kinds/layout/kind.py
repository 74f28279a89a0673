"""The kind of deal played by laying cards out in rows (the domino, Auflegen), as the layers
above the engines ask it (:class:`herzla.kinds.KindOfDeal`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from herzla.cards import Card, Rank
from herzla.hand import Hand, Move
from herzla.i18n import _, ngettext
from herzla.kinds import OnTable, Plane, Replayed
from herzla.kinds.layout.engine import LayoutHand
from herzla.kinds.layout.marks import mark
from herzla.kinds.layout.view import LayoutView

__all__ = ["LAYOUT", "LayoutKind", "row_keys"]

_RANK_OF_CODE = {r.code: r for r in Rank}


def row_keys(contract: Any) -> tuple[int, ...]:
    """The keys of a layout deal's rows (``row_of``'s answers), in order."""
    rows = contract.declaration.rows
    return tuple(sorted({rows.row_of(c) for c in contract.pack().cards}))


class LayoutKind:
    """Deals played by laying cards out in rows: a seat lays a card that fits or passes; seats go
    out in order."""

    name = "layout"
    engine = LayoutHand

    @property
    def words(self) -> str:
        return _("layout deal")

    def view(self, hand: Any, uniform: int, stock: int = 0,
             announcements: tuple[str, ...] = ()) -> LayoutView:
        return LayoutView.of(hand, uniform)

    def written(self, hand: Hand, move: Move) -> str:
        if move.card is None or move.end is None:
            return str(move)
        return mark(cast(LayoutHand, hand), move)

    def shown(self, hand: Hand) -> Replayed:
        order = hand.outcome().out or ()
        lines = []
        if not hand.over:
            lines.append(ngettext("The deal is not complete: {out} of {n} seat is out.",
                                  "The deal is not complete: {out} of {n} seats are out.",
                                  hand.players).format(out=len(order), n=hand.players))
        return Replayed(order=order, lines=tuple(lines))

    def report(self, shown: Replayed) -> list[str]:
        if not shown.order:
            return []
        return [_("  out in order: {seats}").format(seats=" ".join(
            _("seat {seat}").format(seat=s) for s in shown.order))]

    def json(self, shown: Replayed) -> dict[str, Any]:
        return {"tricks": None, "order": list(shown.order or ())}

    def table(self, hand: Hand) -> OnTable:
        engine = cast(LayoutHand, hand)
        keys = row_keys(engine.contract)
        rows: dict[int, list[Card]] = {key: [] for key in keys}
        for _seat, lay, _before in engine.history:
            if lay is not None and lay.card is not None:
                row = rows[engine.contract.declaration.rows.row_of(lay.card)]
                row.insert(0 if lay.end == "-" else len(row), lay.card)
        ends: list[tuple[Rank | None, Rank | None] | None] = []
        for key in keys:
            asked = engine.asked(key)
            ends.append(None if asked is None else
                        (_RANK_OF_CODE.get(asked[0]), _RANK_OF_CODE.get(asked[1])))
        return OnTable(tuple(engine.hands), laid=tuple(engine.laid),
                     rows=tuple(tuple(rows[key]) for key in keys), ends=tuple(ends),
                     out=tuple(engine.order))

    def rows(self, contract: Any) -> tuple[int, ...]:
        return row_keys(contract)

    def planes(self, players: int, cards: int, contracts: Sequence[Any]) -> list[Plane]:
        out: list[Plane] = [("fits", (cards,), 0, 1)]
        if any(c.end_marks for c in contracts):
            out.append(("fits_lower", (cards,), 0, 1))
        return [*out, ("out", (players,), 0, 1)]

    def observe(self, hand: Hand, blocks: Mapping[str, tuple[int, tuple[int, ...]]],
                cards: Sequence[Card], rel: Callable[[int], int], rows: list[tuple[int, int]],
                at: list[int], values: list[float]) -> None:
        state = cast(LayoutHand, hand)
        n = state.players
        if not state.over:
            laid = 0
            for dealt, held in zip(state.dealt, state.hands, strict=True):
                laid |= dealt & ~held
            fits = blocks["fits"][0]
            lower = blocks["fits_lower"][0] if "fits_lower" in blocks else None
            for k, card in enumerate(cards):
                if laid >> card.index & 1:
                    continue
                ends = state.fits(card)
                if ends:
                    at.append(fits + k)
                    values.append(1)
                if lower is not None and len(ends) > 1:
                    at.append(lower + k)
                    values.append(1)
        start = blocks["out"][0]
        for place, s in enumerate(state.outcome().out or ()):
            at.append(start + rel(s))
            values.append((place + 1) / n)


#: the kind (the facade registers it)
LAYOUT = LayoutKind()
