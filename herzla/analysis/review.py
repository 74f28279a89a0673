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
play.  In a deal where every seat plays for itself (every deal but Beddl and Mord) each play also
carries ``loss_model``, what it lost against the other seats as ``expert`` models them
(:mod:`herzla.analysis.model_loss`), and each seat's totals the sum of those.

The work: one search per seat (:func:`herzla.analysis.solve.searcher`, the one
:func:`herzla.solve` runs), its transposition table kept from position to position; at each
position the plays in the search's order, the first valued and every next one searched in the
window around the best value so far (valued only when better, or when it is the card played).

>>> import json
>>> rec = json.load(open("docs/examples/herzla-two-void-trick6.json"))
>>> res = review(dict(rec, plays=json.load(open("docs/examples/herzla-two-void.json"))["plays"]),
...              seat=2)
>>> [(p.card, p.best, p.played, p.loss) for p in res.plays if p.loss]
[('HQ', -30, -50, 20)]
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from typing import Any, TypeAlias

import attrs

from herzla.analysis.expert import coalition
from herzla.analysis.model_loss import model_losses
from herzla.analysis.solve import IllegalPlayError, Searcher, SolveError, searcher
from herzla.analysis.solve_many import check_work
from herzla.analysis.steps import Step, walk
from herzla.contracts import TallyError, game_of
from herzla.hand import Hand
from herzla.i18n import _
from herzla.options import OptionError
from herzla.quote import number, quote
from herzla.records import Play, Record, RecordError, read_record, replay
from herzla.support.cluster import DEFAULT_TIMEOUT

__all__ = ["REVIEW_ERRORS", "PlayReview", "ReviewResult", "SeatTotals", "review",
           "review_or_why"]

#: what :func:`review` raises for a hand it cannot review (a malformed record, an illegal play,
#: a seat that is not one, a tally or an option refused)
REVIEW_ERRORS = (SolveError, IllegalPlayError, RecordError, TallyError, OptionError)


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
    loss_model: float | None = None

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
        out = {"index": self.index, "seat": self.seat, "card": self.card, "best": self.best,
               "played": self.played, "loss": self.loss, "best_cards": list(self.best_cards)}
        if self.loss_model is not None:
            out["loss_model"] = self.loss_model
        return out


@attrs.frozen(slots=True)
class SeatTotals:
    """A seat's plays reviewed, how many were mistakes (loss above 0) and their summed loss;
    where every seat plays for itself, ``loss_model`` their summed loss against the model."""

    plays: int
    mistakes: int
    loss: int
    loss_model: float | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"plays": self.plays, "mistakes": self.mistakes,
                               "loss": self.loss}
        if self.loss_model is not None:
            out["loss_model"] = self.loss_model
        return out


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
    #: whether the plays carry ``loss_model`` (a deal where every seat plays for itself)
    priced: bool = False

    @property
    def seats(self) -> dict[int, SeatTotals]:
        seats = range(self.players) if self.seat is None else [self.seat]
        out = {}
        for s in seats:
            mine = [p for p in self.plays if p.seat == s]
            model = [p.loss_model for p in mine if p.loss_model is not None]
            priced = self.priced and len(model) == len(mine)
            out[s] = SeatTotals(len(mine), sum(1 for p in mine if p.loss > 0),
                                sum(p.loss for p in mine),
                                round(sum(model), 1) if priced else None)
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

    Each seat's positions are searched by one search (:func:`_judge_seat`): in this process
    (``jobs`` None or 1), on ``jobs`` processes (this one included; a seat each) or on the
    workers of the dask scheduler at ``cluster``, with the same answer.  Raises
    :class:`herzla.records.RecordError` for a malformed record, :class:`IllegalPlayError` for
    an illegal play (before any search) and :class:`SolveError` for a seat that is not one.
    """
    began = time.perf_counter()
    rec = read_record(record)
    for name, value in (("seat", seat), ("start", start)):
        if (value is not None or name == "start") and (
                isinstance(value, bool) or not isinstance(value, int)):
            raise SolveError(_("{name} must be a whole number, not {value}").format(
                name=name, value=quote(value)))
    if not 0 <= start <= len(rec.plays):
        raise SolveError(_("start must be 0 to {n_plays} (the plays of the record), not "
                           "{start}").format(n_plays=len(rec.plays), start=number(start)))
    if jobs is None and cluster is None:
        jobs = 1
    procs = check_work(jobs, cluster, cluster_timeout)
    result = replay(rec)
    if result.illegal is not None:
        raise IllegalPlayError(result.illegal, result.ruling)
    if seat is not None and not 0 <= seat < rec.players:
        raise SolveError(_("seat {seat} is not a seat of {players} players "
                           "(seats 0 to {players2})").format(
            seat=seat, players=rec.players, players2=rec.players - 1))
    steps, plays = walk(rec.start(), rec.plays)
    chosen = [s for s in steps if (seat is None or s.seat == seat) and s.index >= start]
    work = [(rec, tuple(plays), s, tuple(x for x in chosen if x.seat == s))
            for s in sorted({x.seat for x in chosen})]
    judged: dict[int, tuple[int, int, tuple[str, ...]]] = {}
    for got in _spread(work, procs, cluster, cluster_timeout):
        judged.update(got)
    lower = game_of(rec.contract).lowest_wins
    sign = -1 if lower else 1
    priced = not coalition(rec.contract)
    model = model_losses(rec, plays, chosen) if priced else {}
    reviewed = []
    for step in chosen:
        best, played, best_cards = judged[step.index]
        reviewed.append(PlayReview(step, best, played, sign * (best - played), best_cards,
                                   model.get(step.index)))
    return ReviewResult(rec.game, rec.contract_id, rec.players, seat, tuple(steps),
                        tuple(reviewed), time.perf_counter() - began, lower, rec.declarer,
                        priced)


def review_or_why(record: Record | Mapping[str, Any], seat: int | None = None
                  ) -> dict[str, Any] | str:
    """The review of ``record`` (only seat ``seat``'s plays, if given) as
    :meth:`ReviewResult.to_dict` writes it, or the one line why there is none."""
    try:
        return review(record, seat=seat).to_dict()
    except REVIEW_ERRORS as exc:
        return " ".join(str(exc).split())


#: one seat's share of a review: the record, its plays with every pass written, the seat and
#: its steps to review
_Work: TypeAlias = tuple[Record, tuple[Play, ...], int, tuple[Step, ...]]
#: a step's index -> the value of the best play, of the card played, and the best plays
_Judged: TypeAlias = dict[int, tuple[int, int, tuple[str, ...]]]


def _spread(work: list[_Work], procs: int, cluster: str | None,
            cluster_timeout: float) -> Iterator[_Judged]:
    """Each seat's share judged: here, on ``procs`` processes (:func:`check_work`'s count) or
    on the cluster (one seat a task: the same answers anywhere)."""
    if cluster is not None:
        from herzla.support.cluster import cluster_map

        return cluster_map(_judge_seat, work, cluster, timeout=cluster_timeout)
    procs = min(procs, len(work))
    if procs <= 1:
        return map(_judge_seat, work)
    from herzla.support.procs import local_map

    return local_map(_judge_seat, work, procs - 1)


def _judge_seat(work: _Work) -> _Judged:
    """The plays of one seat judged by one search (its table shared from position to position:
    the positions of a hand share most of what follows them).  Each position is the one
    :func:`herzla.solve` solves for that seat, and the values are those its ``plays`` gives."""
    rec, plays, seat, steps = work
    search = searcher(rec, seat)
    wanted = {s.index: s for s in steps}
    state = rec.start()
    out: _Judged = {}
    guess = 0
    for index, play in enumerate(plays[:steps[-1].index + 1]):
        step = wanted.get(index)
        if step is not None:
            best, played, guess, best_cards = _judge(search, state, step.play, guess)
            out[index] = (best, played, best_cards)
        state._play(play)
    return out


def _judge(search: Searcher, state: Hand, play: str, guess: int
           ) -> tuple[int, int, int, tuple[str, ...]]:
    """The score of the best play of ``state``, of ``play``, the search value of ``play`` (a
    guess at the value of the seat's next position) and the best plays.

    The plays are gone through in the search's order: the first is valued (MTD(f) from
    ``guess``), each next one searched in the window just around the best value so far, which
    says whether it is worse, as good or better (then it is valued); the card played is valued
    unless it is as good as the best.  A made/lost search values every play (two values may
    score alike there)."""
    sgn = 1 if search.maxing(state) else -1
    best: int | None = None
    raw: int | None = None
    valued: list[tuple[list[str], int]] = []
    for labels, after in search.children(state):
        if best is None or search.boolean:
            value = search.exact(after, guess if best is None else best)
        else:
            value = search.value(after, best - 1, best + 1)
            if (value - best) * sgn > 0 or (value != best and play in labels):
                value = search.exact(after, value)  # better, or the card played: its value
            elif value != best:
                value = best - sgn  # worse than the best: by how much does not matter
        if play in labels:
            raw = value
        if best is None or (value - best) * sgn > 0:
            best = value
        valued.append((labels, value))
    assert raw is not None and best is not None, (play, state)
    top = search.score(best)
    tops = [x for labels, value in valued if search.score(value) == top for x in labels]
    return top, search.score(raw), raw, tuple(search.in_order(tops))
