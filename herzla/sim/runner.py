"""The simulation runner: seeded blocks of hands, spread over worker processes, counted exactly.

A run is a :class:`~herzla.sim.plan.Plan`: one or more deal *streams* (one for a single
contract, one per deal of a partie), each played in fixed blocks of ``block`` hands
(:data:`herzla.support.streams.BLOCK`).  Block ``b`` of stream ``d`` is played by
:func:`herzla.sim.engine.play_block` with the key ``(d, b)``, so in a partie, deal ``d`` of
partie ``i`` is hand ``i`` of stream ``d``: all the deals of a partie are the same hand of their
blocks.  An evening of a session is played the same way, one stream per deal of the evening: hand
``i`` of block ``b`` of every stream is deal after deal of one evening, a lane of the block that
carries its stock from deal to deal (each deal's stock after is the next one's stock before),
so deal 1 of an evening is the hand a run of single hands plays with the same seed.  Tasks take
whole blocks (``blocks_per_task`` of them; in a partie, those blocks of
every deal, so a task adds up its own partie totals) and send back exact tallies
(:mod:`herzla.sim.stats`), merged in block order; so the results are the same for any number of
processes, on this machine (:mod:`herzla.support.procs`) or on a dask cluster
(:mod:`herzla.support.cluster`), and any batch size, and memory stays flat: no per-hand array
outlives its block.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import closing
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from herzla.display import render
from herzla.i18n import _
from herzla.sim.batch import keep_memory
from herzla.sim.engine import Engine, engine_for, play_block, play_block_on
from herzla.sim.plan import MODES, Mode, Plan, Task
from herzla.sim.rates import rates_json
from herzla.sim.report import report
from herzla.sim.rows import RowBlock, RowSpool, evening_rows, hand_rows, partie_rows
from herzla.sim.stats import DealTally, PartieTally, SessionTally, rate, rounded
from herzla.support.cluster import DEFAULT_TIMEOUT
from herzla.support.procs import local_map, start_method

__all__ = ["MODES", "Mode", "Plan", "SimResult", "Task", "play_task", "run",
           "task_count", "tasks_of"]


@attrs.frozen(slots=True, eq=False)
class TaskResult:
    """What a task sends back: its tally (a partie's, with its deals', in a partie; the
    evenings', in a session) and its share of the sample hand records (in a partie, partie by
    partie, each partie's deals in order; in a session, evening by evening)."""

    tally: DealTally | PartieTally | SessionTally
    records: tuple[dict[str, Any], ...]
    rows: tuple[RowBlock, ...] = ()  # with ``plan.rows``: a block of rows per block played


def _interleaved(per_deal: list[tuple[dict[str, Any], ...]]) -> list[dict[str, Any]]:
    """Records given deal by deal (each a tuple over the parties or evenings of a block) in the
    order of the parties or evenings, each one's deals in order."""
    return [per_deal[d][i] for i in range(len(per_deal[0]))
            for d in range(len(per_deal)) if i < len(per_deal[d])]


def _engines(plan: Plan) -> list[Engine]:
    """The engine of each deal stream of ``plan``, asked once for the deals whose contract,
    bidding and policies are those of the deal before (a session's deals differ in their
    dealer only), not once a block."""
    out: list[Engine] = []
    for d, spec in enumerate(plan.specs):
        before = plan.specs[d - 1] if d else None
        if before is not None and (before.contract, before.bid, before.policies) == (
                spec.contract, spec.bid, spec.policies):
            out.append(out[-1])
        else:
            out.append(engine_for(spec, plan.engine))
    return out


def _play_evenings(plan: Plan, task: Task) -> TaskResult:
    """Play a task of whole evenings: in each block, deal after deal of every evening (a lane
    of the block), the stock after one deal being the stock before the next."""
    P = plan.players
    tally = SessionTally.new(P, plan.session, plan.contract_names)
    start = plan.stock or 0
    records: list[dict[str, Any]] = []
    rows: list[RowBlock] = []
    engines = _engines(plan)
    for b in range(task.first, task.last):
        n = plan.block_hands(b)
        want = plan.block_records(b)
        stock = np.full(n, start, dtype=np.int64)
        totals = np.zeros((n, P), dtype=np.int64)
        paid = np.zeros(n, dtype=np.bool_)
        peak = stock.copy()
        block_records: list[tuple[dict[str, Any], ...]] = []
        results = []
        for d, spec in enumerate(plan.specs):
            res = play_block_on(engines[d], spec, plan.seed, (d, b), n, want, stock)
            results.append(res)
            if res.scores.shape != (n, P) or res.stock_after is None:
                raise RuntimeError(f"the engine answered {res.scores.shape} scores for "
                                   f"{n} hands of {P} players, or no stock")
            tally.add_deal(d, res.scores, res.events, stock, res.stock_after,
                           res.contracts if plan.mode is Mode.BIDDING else None, res.hearts)
            paid |= res.stock_after < stock
            np.maximum(peak, res.stock_after, out=peak)
            totals += res.scores
            stock = res.stock_after
            block_records.append(res.records[:want])
        tally.add_evenings(totals, stock, peak, paid, start)
        records += _interleaved(block_records)
        if plan.rows:
            rows.append(evening_rows(plan, b * plan.block, results, totals, start, stock))
    return TaskResult(tally, tuple(records), tuple(rows))


def play_task(plan: Plan, task: Task) -> TaskResult:
    """Play one task.  A module-level function, so that it pickles for worker processes and
    cluster workers (whose memory it keeps, see :func:`herzla.sim.batch.keep_memory`)."""
    keep_memory()
    if plan.session:
        return _play_evenings(plan, task)
    deals = len(plan.specs)
    tallies = [DealTally(plan.players, plan.contract_names) for _ in plan.specs]
    partie = PartieTally(plan.players, tallies) if plan.mode is Mode.PARTIE else None
    records: list[dict[str, Any]] = []
    rows: list[RowBlock] = []
    for b in range(task.first, task.last):
        n = plan.block_hands(b)
        want = plan.block_records(b)
        totals: npt.NDArray[np.int64] | None = None
        block_records: list[tuple[dict[str, Any], ...]] = []
        results = []
        for d in range(deals):
            res = play_block(plan.specs[d], plan.seed, (d, b), n, want, engine=plan.engine)
            results.append(res)
            if res.scores.shape != (n, plan.players):
                raise RuntimeError(f"the engine answered {res.scores.shape} scores for "
                                   f"{n} hands of {plan.players} players")
            contracts = None
            if plan.mode is Mode.BIDDING:
                assert res.contracts is not None, "both engines report the contracts bid"
                contracts = res.contracts
            tallies[d].add(res.scores, res.events,
                           stock_after=res.stock_after if plan.stock is not None else None,
                           start_stock=plan.stock or 0,
                           expected_total=plan.expected[d] if plan.expected else None,
                           contracts=contracts, hearts=res.hearts)
            if partie is not None:
                scores = np.asarray(res.scores, dtype=np.int64)
                totals = scores.copy() if totals is None else totals + scores
            block_records.append(res.records[:want])
        if partie is not None:
            assert totals is not None
            partie.add_totals(totals, plan.partie_total, plan.lowest_wins)
            if plan.rows:
                rows.append(partie_rows(plan, b * plan.block, results, totals))
        elif plan.rows:
            rows.append(hand_rows(plan, b * plan.block, results[0], plan.stock))
        records += _interleaved(block_records)
    return TaskResult(partie if partie is not None else tallies[0], tuple(records), tuple(rows))


#: about how long forking a worker process takes (seconds); ten times as long without fork (a
#: fresh interpreter importing numpy and herzla: a fork server's, or spawn)
START_COST = 0.05


def _results(plan: Plan, tasks: Iterator[Task], count: int, workers: int, adaptive: bool,
             used: list[int], cluster: str | None = None,
             cluster_timeout: float = DEFAULT_TIMEOUT) -> Generator[TaskResult, None, None]:
    """Each task's result, in task order: on the cluster at ``cluster``, or on this process and
    ``workers - 1`` worker processes.

    ``adaptive``: play tasks in this process while the rest of the run looks too short to be
    worth starting workers for.  ``used`` receives the number of processes (cluster workers)
    that played.
    """
    play = functools.partial(play_task, plan)
    if cluster is not None:
        from herzla.support.cluster import cluster_map

        def connected(n: int) -> None:
            used[:] = [n]

        yield from cluster_map(play, tasks, cluster, timeout=cluster_timeout,
                               on_connect=connected)
        return
    used[:] = [1]
    if workers > 1 and adaptive:
        # the first task pays for warming up: judge by the latest one, from the second on
        for done, task in enumerate(tasks, 1):
            start = time.perf_counter()
            yield play(task)
            latest = time.perf_counter() - start
            cost = START_COST * (workers - 1) * (1 if start_method() == "fork" else 10)
            if done >= 2 and latest * (count - done) > 4 * cost:
                break
        else:
            return
    if workers <= 1:
        for task in tasks:
            yield play(task)
        return
    used[:] = [workers]
    yield from local_map(play, tasks, workers - 1)


@attrs.frozen(slots=True)
class SimResult:
    """The counted outcome of a run, and how long it took."""

    plan: Plan
    deal: DealTally | None
    partie: PartieTally | None
    elapsed: float
    processes: int = 1  # that played the hands (not part of the answer: it changes nothing)
    cluster: str | None = None  # the scheduler whose workers played (processes: its workers)
    session: SessionTally | None = None  # evenings (``deal`` and ``partie`` are None)
    rows: RowSpool | None = None  # one row a hand (partie, evening), where the run kept them

    @property
    def hands_played(self) -> int:
        """Single hands played (in a partie: parties times deals; in a session: evenings
        times deals)."""
        return self.plan.hands * self.plan.deals

    @property
    def hands_per_s(self) -> float:
        return self.hands_played / self.elapsed if self.elapsed > 0 else 0.0

    def checks(self) -> dict[str, int]:
        """Invariant checks (the fixed totals of the rules): the number of hands (parties) that
        broke each."""
        out: dict[str, int] = {}
        if self.deal is not None:
            out.update(self.deal.checks)
        if self.session is not None:
            out.update(self.session.hands.checks)
            out.update(self.session.checks)
        if self.partie is not None:
            for d in self.partie.deals:
                for k, v in d.checks.items():
                    out[k] = out.get(k, 0) + v
            out.update(self.partie.checks)
        return {k: out[k] for k in sorted(out)}

    def __repr__(self) -> str:
        p = self.plan
        what = (f"{p.game} {p.specs[0].contract_id}" if p.mode is Mode.CONTRACT else
                f"{p.game} partie" if p.mode is Mode.PARTIE else f"{p.game}, bidding")
        if p.session:
            what += f", evenings of {p.session} deals"
        unit = "c" if p.stock is not None else ""
        if self.deal is not None:
            means = [s.mean for s in self.deal.seat_summaries()]
        else:
            tally = self.session.evenings if self.session is not None else self.partie
            assert tally is not None
            means = [h.summary().mean for h in tally.seats]
        count = f"{p.hands:,} {p.unit}"
        return (f"<SimResult {what}: {count}, seed {p.seed}, mean per seat "
                + " ".join(f"{m:+.2f}{unit}" for m in means) + ">")

    def report(self) -> str:
        """The table ``herzla simulate`` prints (also ``str(result)``)."""
        return report(self)

    def __str__(self) -> str:
        return self.report()

    def to_dict(self) -> dict[str, Any]:
        """The answer of ``herzla simulate --json`` (the Command line page of the docs describes
        every key): everything but ``elapsed_s`` and ``hands_per_s`` is the same for any
        ``--jobs``."""
        p = self.plan
        spec = p.specs[0]
        out: dict[str, Any] = {
            "game": p.game,
            "contract": spec.contract_id if p.mode is Mode.CONTRACT else None,
            "mode": str(p.mode),
            "players": p.players,
            "hands": p.hands,
            "seed": p.seed,
            "policy": spec.policy,
            "dealer": spec.dealer,
            "declarer": spec.declarer,
            "options": dict(spec.options),
            "unit": "cents" if p.stock is not None else "points",
        }
        ev = self.session
        if self.deal is not None or ev is not None:
            t = self.deal if ev is None else ev.hands
            assert t is not None
            if ev is None:
                out["seats"] = [s.to_dict() for s in t.seat_summaries()]
                out["total"] = _total_json(t, p.expected[0] if p.expected else None)
            else:  # evening totals
                out["seats"] = [h.summary().to_dict() for h in ev.evenings.seats]
                s = ev.evenings.total.summary()
                out["total"] = {"mean": s.mean, "min": s.min, "max": s.max, "expected": None}
            out.update(_hearts_json(t))
            out["events"] = t.events_json()
            out["event_rates"] = t.event_rates_json()
            out["checks"] = self.checks()
            if t.stock is not None:
                out["stock"] = {"start": p.stock, **t.stock.summary().to_dict()}
            if t.contracts is not None:
                out["contracts"] = t.contracts.to_dict()
            if ev is not None:
                out.update(_wins_json(ev.evenings))
                out["session"] = ev.to_dict()
        else:
            assert self.partie is not None
            pt = self.partie
            out["seats"] = [h.summary().to_dict() for h in pt.seats]
            s = pt.total.summary()
            out["total"] = {"mean": s.mean, "min": s.min, "max": s.max,
                            "expected": p.partie_total}
            events: dict[str, int] = {}
            for spec_d, d in zip(p.specs, pt.deals, strict=True):
                for k, v in d.events_json().items():
                    events[f"{spec_d.contract_id}/{k}"] = v
            out["events"] = {k: events[k] for k in sorted(events)}
            out["event_rates"] = {k: rate(v, pt.parties) for k, v in out["events"].items()}
            out["checks"] = self.checks()
            out.update(_wins_json(pt))
            out["deals"] = [
                {"deal": i + 1, "contract": spec_d.contract_id, "dealer": spec_d.dealer,
                 "seats": [s.to_dict() for s in d.seat_summaries()],
                 "total": _total_json(d, p.expected[i] if p.expected else None),
                 **_hearts_json(d),
                 "events": d.events_json(), "event_rates": d.event_rates_json()}
                for i, (spec_d, d) in enumerate(zip(p.specs, pt.deals, strict=True))
            ]
        out["rates"] = rates_json(p, self.deal, self.partie, self.session)
        out["elapsed_s"] = rounded(self.elapsed)
        out["hands_per_s"] = round(self.hands_per_s, 1)
        return out

    def to_frame(self) -> Any:
        """One row a hand (partie, evening) as a pandas DataFrame, for a run that kept them
        (``simulate(..., rows=True)``; the columns: :mod:`herzla.sim.rows`).  Needs pandas;
        ValueError for a run that kept no rows.

        >>> from herzla.sim.api import simulate
        >>> frame = simulate("herzeln", "no-hearts", hands=500, seed=7, jobs=1,
        ...                  rows=True).to_frame()  # doctest: +SKIP
        >>> frame["score_0"].mean()  # doctest: +SKIP
        -8.286
        """
        if self.rows is None:
            raise ValueError("this run kept no rows: simulate(..., rows=True) keeps them")
        return self.rows.to_frame()

    def _repr_html_(self) -> str | None:
        """A notebook shows each seat's statistics and the histograms."""
        return render("SimResult", "html", self)


def _wins_json(pt: PartieTally) -> dict[str, Any]:
    """Each seat's wins of the parties (evenings), their rates and the shared wins."""
    return {"wins": list(pt.wins), "win_rates": [rate(w, pt.parties) for w in pt.wins],
            "shared_wins": pt.shared_wins}


def _total_json(t: DealTally, expected: int | None) -> dict[str, Any]:
    s = t.total.summary()
    return {"mean": s.mean, "min": s.min, "max": s.max, "expected": expected}


def _hearts_json(t: DealTally) -> dict[str, Any]:
    """``{"hearts": [per seat]}`` where the engine counted the hearts captured, else nothing."""
    hearts = t.hearts_summaries()
    return {} if hearts is None else {"hearts": [s.to_dict() for s in hearts]}


def tasks_of(plan: Plan, blocks_per_task: int) -> Iterator[Task]:
    """The tasks, in the order they are merged: runs of ``blocks_per_task`` blocks."""
    k = max(1, blocks_per_task)
    for b in range(0, plan.blocks, k):
        yield Task(b, min(b + k, plan.blocks))


def task_count(plan: Plan, blocks_per_task: int) -> int:
    return -(-plan.blocks // max(1, blocks_per_task))


def run(plan: Plan, jobs: int = 1, blocks_per_task: int = 1,
        progress: Callable[[int], None] | None = None,
        on_records: Callable[[list[dict[str, Any]]], None] | None = None,
        adaptive: bool = False, cluster: str | None = None,
        cluster_timeout: float = DEFAULT_TIMEOUT, rows: RowSpool | None = None) -> SimResult:
    """Play ``plan`` on ``jobs`` processes (this one and ``jobs - 1`` workers), or on the
    workers of the dask scheduler at ``cluster`` (:mod:`herzla.support.cluster`).

    ``adaptive``: start the workers only once the first tasks show that the run is long enough
    to gain from them (else the whole run stays in this process).

    ``progress(units_done)`` is called after each task (units: hands, parties or evenings),
    and ``on_records(records)`` with the sample hand records in order as they come (in a
    partie, partie by partie, each partie's deals in order; in a session, evening by
    evening).  ``rows`` (with ``plan.rows``) receives one row a hand, partie or evening, in
    order (:mod:`herzla.sim.rows`).  An engine's ValueError (a contract, option
    or policy it cannot play) propagates; so do :class:`herzla.support.cluster.ClusterError` and
    :class:`herzla.support.procs.WorkerLost`.
    """
    if plan.hands < 1:
        raise ValueError(_("a run needs at least one hand"))
    start = time.perf_counter()
    deal: DealTally | None = None
    partie: PartieTally | None = None
    session: SessionTally | None = None
    done = 0  # hands (parties) counted
    count = task_count(plan, blocks_per_task)
    used: list[int] = [1]
    results = _results(plan, tasks_of(plan, blocks_per_task), count, min(jobs, count),
                       adaptive, used, cluster, cluster_timeout)
    with closing(results):
        for task, res in zip(tasks_of(plan, blocks_per_task), results, strict=True):
            done += sum(plan.block_hands(b) for b in range(task.first, task.last))
            if isinstance(res.tally, SessionTally):
                if session is None:
                    session = res.tally
                else:
                    session.merge(res.tally)
            elif isinstance(res.tally, PartieTally):
                if partie is None:
                    partie = res.tally
                else:
                    partie.merge(res.tally)
            elif deal is None:
                deal = res.tally
            else:
                deal.merge(res.tally)
            if res.records and on_records is not None:
                on_records(list(res.records))
            if rows is not None:
                for block in res.rows:
                    rows.add(block)
            if progress is not None:
                progress(done)
    return SimResult(plan, deal, partie, time.perf_counter() - start, used[0], cluster,
                     session, rows)
