"""Score sheets: a partie, session or match scored from a list of hand records.

What a list forms is the game's :attr:`~herzla.contracts.Game.sheet`:

- a partie (the deals of Herzeln, the rounds of Herzerln) in the game's fixed order, each dealt
  by the seat the game's dealer rotation names;
- a session (Herzla): the stock carried from hand to hand, each player's net balance;
- a match (the children's Herzla): hands until the game's match end.

The winners have the best total (the lowest where the game says so); equal totals share the win.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from herzla.contracts import Game, Sheet, get_game
from herzla.display import render
from herzla.quote import quote
from herzla.records import Record, RecordError, ReplayResult, read_record, replay, signed

__all__ = ["ScoreSheet", "SheetRow", "partie_ids", "score_sheet"]


def partie_ids(game: str) -> list[str]:
    """The contract ids of a game's partie, in order (:meth:`Game.partie_ids`)."""
    g = get_game(game)
    if not g.partie:
        raise RecordError(f"{game} has no partie")
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
        return next((i for i, row in enumerate(self.rows) if row.result.scores is None),
                    len(self.rows))

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
        unit = "c" if self.stock is not None else ""
        out = [f"{self.game} {self.kind}, {n} players"]
        cells = [[signed(v) + unit for v in row.result.scores]
                 for row in self.rows if row.result.scores is not None]
        cells.append([signed(v) + unit for v in self.totals])
        width = max(9, *(len(c) + 1 for row in cells for c in row))
        head = f"{'#':>2}  {'contract':<15}" + "".join(f"{'seat ' + str(s):>{width}}"
                                                       for s in range(n))
        if self.stock is not None:
            head += f"{'stock':>{width}}"
        out.append(head)
        counted = self.counted
        for row in self.rows:
            res = row.result
            if res.scores is None:
                what = (f"illegal at play {res.illegal.index + 1} ({res.illegal.rule})"
                        if res.illegal else "not complete")
                out.append(f"{row.index + 1:>2}  {res.record.contract_id:<15}  {what}")
                continue
            line = f"{row.index + 1:>2}  {res.record.contract_id:<15}" + "".join(
                f"{signed(v) + unit:>{width}}" for v in res.scores)
            if row.stock is not None:
                line += f"{str(row.stock) + 'c':>{width}}"
            if row.index >= counted:  # after the stop: shown, not added up
                line += "  (not counted)"
            out.append(line)
        if counted == 0:  # no hand counted: no totals that look like scores
            out.append(f"{'':>2}  {'total':<15}  none: hand 1 stops the sheet")
        else:
            label = "total" if counted == len(self.rows) else (
                f"total of 1-{counted}" if counted > 1 else "total of 1")
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


def _best(totals: Sequence[int], lowest: bool) -> tuple[int, ...]:
    target = min(totals) if lowest else max(totals)
    return tuple(s for s, t in enumerate(totals) if t == target)


def score_sheet(raw: Sequence[Any]) -> ScoreSheet:
    """Check and score a JSON list of hand records; RecordError names what does not fit."""
    if not isinstance(raw, list) or not raw:
        raise RecordError("a partie or session is a non-empty JSON list of hand records")
    carried: int | None = None
    records: list[Record] = []
    results: list[ReplayResult] = []
    for i, obj in enumerate(raw):
        if carried is not None and isinstance(obj, dict) and "stock" not in obj:
            obj = {**obj, "stock": carried}
        try:
            rec = read_record(obj)
        except RecordError as exc:
            raise RecordError(f"record {i + 1}: {exc}") from None
        if records:
            if (rec.game, rec.players) != (records[0].game, records[0].players):
                raise RecordError(f"record {i + 1} is {rec.game} with {rec.players} players; the "
                                  f"sheet is {records[0].game} with {records[0].players}")
            if rec.contract.opts != records[0].contract.opts:
                raise RecordError(f"record {i + 1} has other options than record 1")
            if carried is not None and rec.stock != carried:
                raise RecordError(f"record {i + 1} says the stock is {rec.stock}c, but the session "
                                  f"carries {carried}c")
        records.append(rec)
        results.append(replay(rec))
        if rec.contract.has_stock:
            carried = results[-1].stock
    game, n = records[0].game, records[0].players
    g: Game = get_game(game)
    opts = records[0].contract.opts
    try:
        kind = Sheet(g.sheet)
    except ValueError:
        raise RecordError(f"the game {game} forms a sheet herzla does not know: {quote(g.sheet)} "
                          f"(one of {', '.join(s.value for s in Sheet)})") from None
    lines: list[str] = []
    if kind is Sheet.PARTIE:
        order = g.partie_ids()
        if len(records) > len(order):
            raise RecordError(f"a {game} partie has {len(order)} deals, not {len(records)}")
        for i, rec in enumerate(records):
            if rec.contract_id != order[i]:
                raise RecordError(f"deal {i + 1} of a {game} partie is {order[i]}, "
                                  f"not {rec.contract_id}")
            want = g.dealer(records[0].dealer, i, n, opts)
            if rec.dealer != want:
                raise RecordError(f"deal {i + 1}: the dealer is seat {want}, not {rec.dealer} "
                                  f"({g.rotation_text(opts)})")
    totals = [0] * n
    rows: list[SheetRow] = []
    stock: int | None = None
    stopped = False
    for i, result in enumerate(results):
        if result.scores is not None and not stopped:
            totals = [t + s for t, s in zip(totals, result.scores, strict=True)]
        else:
            stopped = True
        stock = result.stock
        rows.append(SheetRow(i, result, tuple(totals), stock))
    done = not stopped
    if kind is Sheet.PARTIE:
        finished = done and len(records) == g.partie
    elif kind is Sheet.MATCH:
        finished = False
        for i, row in enumerate(rows):
            if row.result.scores is None:
                break
            if g.match_over(row.totals, i + 1, opts):
                finished = True
                if i + 1 < len(rows):
                    raise RecordError(f"the match ended with hand {i + 1}; record {i + 2} "
                                      f"comes after it")
                break
        lines.append(g.match_text(opts))
    else:
        finished = done
    winners = None
    if finished:
        winners = _best(totals, lowest=g.lowest_wins)
        lines.append(f"Winner{'s' if len(winners) > 1 else ''}: "
                     f"{', '.join(f'seat {s}' for s in winners)} with {totals[winners[0]]}"
                     f"{' (equal totals share the win)' if len(winners) > 1 else ''}.")
    elif stopped:
        stop = next(i for i, r in enumerate(results) if r.scores is None)
        why = "illegal" if results[stop].illegal is not None else "not complete"
        which = ("no hand" if stop == 0 else "hand 1 only" if stop == 1
                 else f"hands 1 to {stop}")
        lines.append(f"The sheet stops at hand {stop + 1}, which is {why}: the totals count "
                     f"{which}.")
    else:
        lines.append(f"The {kind} is not over yet.")
    if stock is not None:
        lines.append(f"Stock at the end: {stock}c; players and stock together sum to "
                     f"{sum(totals) + stock - records[0].stock}c over the session.")
    return ScoreSheet(game, n, kind, tuple(rows), tuple(totals), finished, winners, stock,
                      tuple(lines))
