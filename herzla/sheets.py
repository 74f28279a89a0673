"""Score sheets: a partie, session or match scored from a list of hand records, as a view of
the evening the list forms (:func:`herzla.evening.read_session`).

What a list forms is the game's :attr:`~herzla.contracts.Game.sheet`:

- a partie (the deals of Herzeln, the rounds of Herzerln) in the game's fixed order, each dealt
  by the seat the game's dealer rotation names (a list may hold several parties, one after the
  other);
- a session (Herzla): the stock carried from hand to hand, each player's net balance;
- a match (the children's Herzla): hands until the game's match end.

The winners have the best total (the lowest where the game says so); equal totals share the win.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from herzla.contracts import Game, Sheet, get_game
from herzla.counting import play_place
from herzla.display import render
from herzla.evening import Evening, read_session
from herzla.i18n import N_, _, ngettext, pgettext
from herzla.records import RecordError, ReplayResult, signed
from herzla.support.words import cent_sign

__all__ = ["ScoreSheet", "SheetRow", "partie_ids", "score_sheet", "sheet_of"]


#: what a sheet is, and that it is not over, as the text says it
_KINDS = {"partie": N_("partie"), "session": N_("session"), "match": N_("match")}
_NOT_OVER = {"partie": N_("The partie is not over yet."),
             "session": N_("The session is not over yet."),
             "match": N_("The match is not over yet.")}


def partie_ids(game: str) -> list[str]:
    """The contract ids of a game's partie, in order (:meth:`Game.partie_ids`)."""
    g = get_game(game)
    if not g.partie:
        raise RecordError(_("{game} has no partie").format(game=game))
    return g.partie_ids()


@attrs.frozen(slots=True)
class SheetRow:
    """One hand on a score sheet."""

    index: int
    result: ReplayResult
    totals: tuple[int, ...]
    stock: int | None

    def to_dict(self) -> dict[str, Any]:
        r = self.result
        return {
            "index": self.index,
            "contract": r.record.contract_id,
            "dealer": r.record.dealer,
            "declarer": r.record.declarer,
            "complete": r.complete,
            "illegal": r.illegal.to_dict() if r.illegal else None,
            "scores": list(r.scores) if r.scores is not None else None,
            "totals": list(self.totals),
            "stock": self.stock,
            "events": list(r.score.events) if r.score else [],
        }


@attrs.frozen(slots=True)
class ScoreSheet:
    """Running totals per seat over a partie, session or match, and the winner(s) once it ends."""

    game: str
    players: int
    kind: Sheet
    rows: tuple[SheetRow, ...]
    totals: tuple[int, ...]
    finished: bool
    winners: tuple[int, ...] | None
    stock: int | None
    explanation: tuple[str, ...]

    @property
    def illegal(self) -> bool:
        return any(row.result.illegal is not None for row in self.rows)

    @property
    def counted(self) -> int:
        """How many hands the totals count: those before the first incomplete or illegal one."""
        return _first_uncounted([row.result for row in self.rows])

    def __repr__(self) -> str:
        unit = "c" if self.stock is not None else ""
        n = len(self.rows)
        end = ""
        if self.winners is not None:
            end = ", won by " + " and ".join(f"seat {s}" for s in self.winners)
        return (f"<ScoreSheet {self.game} {self.kind}: {n} hand{'' if n == 1 else 's'}, totals "
                + " ".join(signed(v) + unit for v in self.totals) + f"{end}>")

    def report(self) -> str:
        """The score sheet ``herzla replay`` prints for a list of records (also ``str``)."""
        n = self.players
        unit = cent_sign() if self.stock is not None else ""
        out = [ngettext("{game} {kind}, {n} player", "{game} {kind}, {n} players", n).format(
            game=self.game, kind=_(_KINDS.get(str(self.kind), str(self.kind))), n=n)]
        cells = [[signed(v) + unit for v in row.result.scores]
                 for row in self.rows if row.result.scores is not None]
        cells.append([signed(v) + unit for v in self.totals])
        width = max(9, *(len(c) + 1 for row in cells for c in row))
        contract = pgettext("column", "contract")
        seats = [_("seat {seat}").format(seat=s) for s in range(n)]
        head = f"{'#':>2}  {contract:<15}" + "".join(f"{seat:>{width}}" for seat in seats)
        if self.stock is not None:
            stock = pgettext("column", "stock")
            head += f"{stock:>{width}}"
        out.append(head)
        counted = self.counted
        for row in self.rows:
            res = row.result
            if res.scores is None:
                what = (_("illegal at {where} ({rule})").format(
                    where=play_place(res.illegal.index), rule=res.illegal.rule)
                        if res.illegal else _("not complete"))
                out.append(f"{row.index + 1:>2}  {res.record.contract_id:<15}  {what}")
                continue
            line = f"{row.index + 1:>2}  {res.record.contract_id:<15}" + "".join(
                f"{signed(v) + unit:>{width}}" for v in res.scores)
            if row.stock is not None:
                line += f"{str(row.stock) + cent_sign():>{width}}"
            if row.index >= counted:  # after the stop: shown, not added up
                line += _("  (not counted)")
            out.append(line)
        if counted == 0:  # no hand counted: no totals that look like scores
            label = pgettext("row", "total")
            out.append(f"{'':>2}  {label:<15}  " + _("none: hand 1 stops the sheet"))
        else:
            label = pgettext("row", "total") if counted == len(self.rows) else (
                _("total of 1-{counted}").format(counted=counted) if counted > 1
                else _("total of 1"))
            out.append(f"{'':>2}  {label:<15}" + "".join(f"{signed(v) + unit:>{width}}"
                                                         for v in self.totals))
        out += [f"- {line}" for line in self.explanation]
        return "\n".join(out)

    def __str__(self) -> str:
        return self.report()

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "kind": self.kind,
            "finished": self.finished,
            "deals": [row.to_dict() for row in self.rows],
            "totals": list(self.totals),
            "winners": list(self.winners) if self.winners is not None else None,
            "stock": self.stock,
            "explanation": list(self.explanation),
        }

    def _repr_svg_(self) -> str | None:
        """A notebook shows the sheet as a picture (:func:`herzla.draw.svg.sheet_svg`)."""
        return render("ScoreSheet", "svg", self)


def _first_uncounted(results: Sequence[ReplayResult]) -> int:
    """The index of the first result that is incomplete or illegal (none: their number): how
    many hands a sheet's totals count."""
    return next((i for i, r in enumerate(results) if r.scores is None), len(results))


def score_sheet(raw: Sequence[Any]) -> ScoreSheet:
    """Check and score a JSON list of hand records; RecordError names what does not fit.

    The list is read by :func:`herzla.evening.read_session`, the one reader of lists, and the
    sheet is a view of the evening it forms (:func:`sheet_of`)."""
    return sheet_of(read_session(raw))


def sheet_of(evening: Evening) -> ScoreSheet:
    """The score sheet of an evening of hand records (as :func:`herzla.evening.read_session`
    reads a list): a row per record, the totals, the winners once it is finished."""
    if not evening.deals or any(d.result is None for d in evening.deals):
        raise RecordError(_("a score sheet shows hand records; this evening has deals entered "
                            "as tallies (herzla pad show draws those)"))
    g: Game = get_game(evening.game)
    table = evening.table()
    kind = table.kind
    rows = tuple(SheetRow(d.k - 1, d.result, d.totals, d.stock) for d in evening.deals
                 if d.result is not None)
    finished = evening.finished
    names = evening.winners()
    winners = None if names is None else tuple(evening.players.index(p) for p in names)
    totals = evening.totals
    lines: list[str] = []
    if kind is Sheet.MATCH:
        lines.append(g.match_text(table.opts))
    stopped = not evening.deals[-1].counted
    if winners is not None:
        seats = ", ".join(_("seat {seat}").format(seat=s) for s in winners)
        if len(winners) > 1:
            text = _("Winners: {names} with {total} (equal totals share the win).")
        else:
            text = _("Winner: {names} with {total}.")
        lines.append(text.format(names=seats, total=totals[winners[0]]))
    elif stopped:
        results = [row.result for row in rows]
        stop = _first_uncounted(results)
        why = _("illegal") if results[stop].illegal is not None else _("not complete")
        which = (_("no hand") if stop == 0 else _("hand 1 only") if stop == 1
                 else _("hands 1 to {stop}").format(stop=stop))
        lines.append(_("The sheet stops at hand {hand}, which is {why}: the totals count "
                       "{which}.").format(hand=stop + 1, why=why, which=which))
    else:
        lines.append(_(_NOT_OVER.get(str(kind), _NOT_OVER["match"])))
    stock = evening.stock
    if stock is not None:
        lines.append(_("Stock at the end: {stock}c; players and stock together sum to {sum}c "
                       "over the session.").format(
            stock=stock, sum=sum(totals) + stock - evening.start_stock))
    return ScoreSheet(evening.game, len(evening.players), kind, rows, totals, finished,
                      winners, stock, tuple(lines))
