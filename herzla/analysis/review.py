"""``herzla.analysis.review``: a played hand gone through card by card, as a teacher or a disputes
referee would, with every hand open.

For each play (every lay and every pass in the layout deals, those a record leaves out
included) the position before it is solved for the seat that played, exactly as
:func:`herzla.solve` solves it with ``plays=True``: in Beddl and Mord the declarer plays to
make the contract and the defenders to break it, the values being the playing seat's own
score; in every other deal the seat that played against all the others.  ``best`` is the
value of the position (the best of its plays for that seat), ``played`` the value of the card
played, ``loss`` what the play cost (``best - played``; in the deals where lower is better,
``played - best``), never negative; a play with ``loss > 0`` is a mistake under double-dummy
play.

>>> import json
>>> rec = json.load(open("docs/examples/herzla-two-void-trick6.json"))
>>> res = review(dict(rec, plays=json.load(open("docs/examples/herzla-two-void.json"))["plays"]),
...              seat=2)
>>> [(p.card, p.best, p.played, p.loss) for p in res.plays if p.loss]
[('HQ', -30, -50, 20)]
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import attrs

from herzla.analysis.lines import Step, walk
from herzla.analysis.many import check_work, solve_many
from herzla.analysis.solve import IllegalPlayError, SolveError
from herzla.contracts import game_of
from herzla.machinery.cluster import DEFAULT_TIMEOUT
from herzla.quote import quote
from herzla.records import Record, read_record, replay, start_state

__all__ = ["PlayReview", "ReviewResult", "SeatTotals", "review"]


@attrs.frozen(slots=True)
class PlayReview:
    """One play reviewed: ``step`` says which (its index, seat, card, trick), ``best`` the value
    of the position before it for the seat that played, ``played`` the value of the card played,
    ``loss`` their difference (never negative), ``best_cards`` every play that reaches
    ``best``."""

    step: Step
    best: int
    played: int
    loss: int
    best_cards: tuple[str, ...]

    @property
    def index(self) -> int:
        return self.step.index

    @property
    def seat(self) -> int:
        return self.step.seat

    @property
    def card(self) -> str:
        return self.step.play

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "seat": self.seat, "card": self.card, "best": self.best,
                "played": self.played, "loss": self.loss, "best_cards": list(self.best_cards)}


@attrs.frozen(slots=True)
class SeatTotals:
    """A seat's plays reviewed, how many were mistakes (loss above 0) and their summed loss."""

    plays: int
    mistakes: int
    loss: int

    def to_dict(self) -> dict[str, int]:
        return {"plays": self.plays, "mistakes": self.mistakes, "loss": self.loss}


@attrs.frozen(slots=True)
class ReviewResult:
    """The answer of :func:`review`; ``to_dict()`` is the ``herzla review --json`` object.

    ``steps``: every play of the record (passes written in), reviewed or not; ``plays``: the
    plays reviewed (all, or seat ``seat``'s); ``seats``: the totals of each seat reviewed;
    ``declarer``: the declarer's seat in Beddl and Mord."""

    game: str
    contract: str
    players: int
    seat: int | None
    steps: tuple[Step, ...]
    plays: tuple[PlayReview, ...]
    elapsed: float
    lower_is_better: bool = False
    declarer: int | None = None

    @property
    def seats(self) -> dict[int, SeatTotals]:
        seats = range(self.players) if self.seat is None else [self.seat]
        out = {}
        for s in seats:
            mine = [p for p in self.plays if p.seat == s]
            out[s] = SeatTotals(len(mine), sum(1 for p in mine if p.loss > 0),
                                sum(p.loss for p in mine))
        return out

    def mistakes(self) -> list[PlayReview]:
        return [p for p in self.plays if p.loss > 0]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game, "contract": self.contract, "players": self.players,
            "plays": [p.to_dict() for p in self.plays],
            "seats": {str(s): t.to_dict() for s, t in self.seats.items()},
            "elapsed_s": round(self.elapsed, 3),
        }


def review(record: Record | Mapping[str, Any], seat: int | None = None, *, start: int = 0,
           jobs: int | None = None, cluster: str | None = None,
           cluster_timeout: float = DEFAULT_TIMEOUT) -> ReviewResult:
    """Review every play of ``record`` (or only seat ``seat``'s; ``start``: only the plays from
    that index on, passes counted, e.g. the end of a hand).

    The positions are solved by :func:`herzla.analysis.many.solve_many`: in this process
    (``jobs`` None or 1), on ``jobs`` processes (this one included) or on the workers of the
    dask scheduler at ``cluster``, with the same answer.  Raises
    :class:`herzla.records.RecordError` for a malformed record, :class:`IllegalPlayError` for
    an illegal play (before any search) and :class:`SolveError` for a seat that is not one.
    """
    began = time.perf_counter()
    rec = read_record(record)
    for name, value in (("seat", seat), ("start", start)):
        if (value is not None or name == "start") and (
                isinstance(value, bool) or not isinstance(value, int)):
            raise SolveError(f"{name} must be a whole number, not {quote(value)}")
    if jobs is None and cluster is None:
        jobs = 1
    check_work(jobs, cluster, cluster_timeout)
    result = replay(rec)
    if result.illegal is not None:
        raise IllegalPlayError(result.illegal)
    if seat is not None and not 0 <= seat < rec.players:
        raise SolveError(f"seat {seat} is not a seat of {rec.players} players "
                         f"(seats 0 to {rec.players - 1})")
    steps, plays = walk(start_state(rec), rec.plays)
    chosen = [s for s in steps if (seat is None or s.seat == seat) and s.index >= start]
    positions = [attrs.evolve(rec, plays=tuple(plays[:s.index])) for s in chosen]
    answers = solve_many(positions, [s.seat for s in chosen], plays=True, jobs=jobs,
                         cluster=cluster, cluster_timeout=cluster_timeout)
    lower = game_of(rec.contract).lowest_wins
    sign = -1 if lower else 1
    reviewed = []
    for step, ans in zip(chosen, answers, strict=True):
        assert ans.plays is not None and step.play in ans.plays, (step, ans)
        values = ans.plays
        best = sign * max(sign * v for v in values.values())
        played = values[step.play]
        reviewed.append(PlayReview(step, best, played, sign * (best - played),
                                   tuple(k for k, v in values.items() if v == best)))
    return ReviewResult(rec.game, rec.contract_id, rec.players, seat, tuple(steps),
                        tuple(reviewed), time.perf_counter() - began, lower, rec.declarer)
