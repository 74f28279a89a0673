"""The simulation runner: seeded blocks of hands, spread over worker processes, counted exactly.

A run is a :class:`Plan`: one or more deal *streams* (one for a single contract, one per deal of a
partie), each played in fixed blocks of ``block`` hands (:data:`herzla.sim.streams.BLOCK`).  Block
``b`` of stream ``d`` is played by :func:`herzla.sim.engine.play_block` with the key ``(d, b)``, so
in a partie, deal ``d`` of partie ``i`` is hand ``i`` of stream ``d``: all the deals of a partie
are the same hand of their blocks.  Worker tasks take whole blocks (``blocks_per_task`` of them)
and send back exact tallies (:mod:`herzla.sim.stats`), merged in block order; so the results are
the same for any number of workers and any batch size, and memory stays flat: no per-hand array
outlives its block.
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator
from contextlib import closing
from itertools import islice
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from herzla.sim.batch import keep_memory
from herzla.sim.engine import play_block
from herzla.sim.spec import DealSpec
from herzla.sim.stats import DealTally, PartieTally, rate, rounded
from herzla.sim.streams import BLOCK

__all__ = ["MODES", "Plan", "SimResult", "Task", "play_task", "run",
           "task_count", "tasks_of"]

#: ``contract``: one deal type, each hand on its own; ``bidding``: herzla hands whose contract the
#: bidding decides; ``partie``: whole parties, one stream per deal
MODES = ("contract", "bidding", "partie")

@attrs.frozen(slots=True)
class Plan:
    """What to play: the deal streams, how many hands (parties in a partie), the seed, the blocks.

    ``specs`` holds one :class:`DealSpec` per stream; ``expected`` what a hand of each stream adds
    up to over the seats (None: not fixed), ``partie_total`` the same for a whole partie.
    ``sample`` asks for the first hands (parties) as hand records.
    """

    game: str
    mode: str
    players: int
    specs: tuple[DealSpec, ...]
    seed: int
    hands: int
    expected: tuple[int | None, ...] = ()
    partie_total: int | None = None
    lowest_wins: bool = False
    stock: int | None = None  # the stock before each hand, games with a stock
    sample: int = 0
    block: int = BLOCK
    engine: str = "auto"
    contract_names: tuple[str, ...] = ()  # with bidding: the contract of each code

    @property
    def blocks(self) -> int:
        return -(-self.hands // self.block)

    def block_hands(self, b: int) -> int:
        return min(self.block, self.hands - b * self.block)

    def block_records(self, b: int) -> int:
        """How many of block ``b``'s hands belong to the sample."""
        return max(0, min(self.block_hands(b), self.sample - b * self.block))

    @property
    def deals(self) -> int:
        """Hands played per unit counted: 1, or the deals of a partie."""
        return len(self.specs) if self.mode == "partie" else 1


@attrs.frozen(slots=True)
class Task:
    """A worker's share: blocks ``first .. last-1`` of the stream of deal ``deal``."""

    first: int
    last: int
    deal: int = 0


@attrs.frozen(slots=True, eq=False)
class TaskResult:
    """What a worker sends back: the deal's tally, in a partie each block's scores (to add up the
    partie totals), and the task's share of the sample hand records."""

    tally: DealTally
    scores: tuple[npt.NDArray[np.int64], ...]
    records: tuple[dict[str, Any], ...]


def play_task(plan: Plan, task: Task) -> TaskResult:
    """Play one task.  A module-level function, so that it pickles for spawned workers."""
    keep_memory()
    tally = DealTally(plan.players, plan.contract_names)
    scores: list[npt.NDArray[np.int64]] = []
    records: list[dict[str, Any]] = []
    d = task.deal
    for b in range(task.first, task.last):
        n = plan.block_hands(b)
        want = plan.block_records(b)
        res = play_block(plan.specs[d], plan.seed, (d, b), n, want, engine=plan.engine)
        if res.scores.shape != (n, plan.players):
            raise RuntimeError(f"the engine answered {res.scores.shape} scores for "
                               f"{n} hands of {plan.players} players")
        contracts = None
        if plan.mode == "bidding":
            assert res.contracts is not None, "both engines report the contracts bid"
            contracts = res.contracts
        tally.add(res.scores, res.events,
                  stock_after=res.stock_after if plan.stock is not None else None,
                  start_stock=plan.stock or 0,
                  expected_total=plan.expected[d] if plan.expected else None,
                  contracts=contracts, hearts=res.hearts)
        if plan.mode == "partie":
            scores.append(np.asarray(res.scores, dtype=np.int64))
        records += res.records[:want]
    return TaskResult(tally, tuple(scores), tuple(records))


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: about how long starting worker processes takes (spawn: a fresh interpreter importing numpy)
START_COST = 0.5


def _results(plan: Plan, tasks: Iterator[Task], count: int, workers: int, adaptive: bool,
             used: list[int]) -> Generator[TaskResult, None, None]:
    """Each task's result, in task order; at most two tasks per worker in flight.

    ``adaptive``: play tasks in this process while the rest of the run looks too short to be
    worth starting workers for.  ``used`` receives the number of processes that played.
    """
    used[:] = [1]
    if workers > 1 and adaptive:
        # the first task pays for warming up: judge by the latest one, from the second on
        for done, task in enumerate(tasks, 1):
            start = time.perf_counter()
            yield play_task(plan, task)
            latest = time.perf_counter() - start
            if done >= 2 and latest * (count - done) > 4 * START_COST:
                break
        else:
            return
    if workers <= 1:
        for task in tasks:
            yield play_task(plan, task)
        return
    used[:] = [workers]
    ctx = multiprocessing.get_context("spawn")
    pool = ctx.Pool(workers, initializer=_ignore_sigint)
    ok = False
    try:
        pending = deque(pool.apply_async(play_task, (plan, t))
                        for t in islice(tasks, 2 * workers))
        while pending:
            out = pending.popleft().get()
            nxt = next(tasks, None)
            if nxt is not None:
                pending.append(pool.apply_async(play_task, (plan, nxt)))
            yield out
        ok = True
    finally:
        if ok:
            pool.close()
            pool.join()
        else:
            pool.terminate()


@attrs.frozen(slots=True)
class SimResult:
    """The counted outcome of a run, and how long it took."""

    plan: Plan
    deal: DealTally | None
    partie: PartieTally | None
    elapsed: float
    processes: int = 1  # that played the hands (not part of the answer: it changes nothing)

    @property
    def hands_played(self) -> int:
        """Single hands played (in a partie: parties times deals)."""
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
        if self.partie is not None:
            for d in self.partie.deals:
                for k, v in d.checks.items():
                    out[k] = out.get(k, 0) + v
            out.update(self.partie.checks)
        return {k: out[k] for k in sorted(out)}

    def to_dict(self) -> dict[str, Any]:
        """The answer of ``herzla simulate --json`` (docs/cli.md describes every key): everything
        but ``elapsed_s`` and ``hands_per_s`` is the same for any ``--jobs``."""
        p = self.plan
        spec = p.specs[0]
        out: dict[str, Any] = {
            "game": p.game,
            "contract": spec.contract_id if p.mode == "contract" else None,
            "mode": p.mode,
            "players": p.players,
            "hands": p.hands,
            "seed": p.seed,
            "policy": spec.policy,
            "dealer": spec.dealer,
            "declarer": spec.declarer,
            "options": dict(spec.options),
            "unit": "cents" if p.stock is not None else "points",
        }
        if self.deal is not None:
            t = self.deal
            out["seats"] = [s.to_dict() for s in t.seat_summaries()]
            out["total"] = _total_json(t, p.expected[0] if p.expected else None)
            out.update(_hearts_json(t))
            out["events"] = t.events_json()
            out["event_rates"] = t.event_rates_json()
            out["checks"] = self.checks()
            if t.stock is not None:
                out["stock"] = {"start": p.stock, **t.stock.summary().to_dict()}
            if t.contracts is not None:
                out["contracts"] = t.contracts.to_dict()
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
            out["wins"] = list(pt.wins)
            out["win_rates"] = [rate(w, pt.parties) for w in pt.wins]
            out["shared_wins"] = pt.shared_wins
            out["deals"] = [
                {"deal": i + 1, "contract": spec_d.contract_id, "dealer": spec_d.dealer,
                 "seats": [s.to_dict() for s in d.seat_summaries()],
                 "total": _total_json(d, p.expected[i] if p.expected else None),
                 **_hearts_json(d),
                 "events": d.events_json(), "event_rates": d.event_rates_json()}
                for i, (spec_d, d) in enumerate(zip(p.specs, pt.deals, strict=True))
            ]
        out["elapsed_s"] = rounded(self.elapsed)
        out["hands_per_s"] = round(self.hands_per_s, 1)
        return out


def _total_json(t: DealTally, expected: int | None) -> dict[str, Any]:
    s = t.total.summary()
    return {"mean": s.mean, "min": s.min, "max": s.max, "expected": expected}


def _hearts_json(t: DealTally) -> dict[str, Any]:
    """``{"hearts": [per seat]}`` where the engine counted the hearts captured, else nothing."""
    hearts = t.hearts_summaries()
    return {} if hearts is None else {"hearts": [s.to_dict() for s in hearts]}


def tasks_of(plan: Plan, blocks_per_task: int) -> Iterator[Task]:
    """The worker tasks, in the order they are merged: runs of ``blocks_per_task`` blocks, and in
    a partie each run once per deal."""
    k = max(1, blocks_per_task)
    for b in range(0, plan.blocks, k):
        for d in range(len(plan.specs)):
            yield Task(b, min(b + k, plan.blocks), d)


def task_count(plan: Plan, blocks_per_task: int) -> int:
    return -(-plan.blocks // max(1, blocks_per_task)) * len(plan.specs)


def run(plan: Plan, jobs: int = 1, blocks_per_task: int = 1,
        progress: Callable[[int], None] | None = None,
        on_records: Callable[[list[dict[str, Any]]], None] | None = None,
        adaptive: bool = False) -> SimResult:
    """Play ``plan`` on ``jobs`` worker processes (in this process for one job or one task).

    ``adaptive``: start the workers only once the first tasks show that the run is long enough
    to gain from them (else the whole run stays in this process).

    ``progress(units_done)`` is called after each task (units: hands, or parties), and
    ``on_records(records)`` with the sample hand records in order as they come (in a partie,
    partie by partie, each partie's deals in order).  An engine's ValueError (a contract, option
    or policy it cannot play) propagates.
    """
    if plan.hands < 1:
        raise ValueError("a run needs at least one hand")
    start = time.perf_counter()
    deals = len(plan.specs)
    deal: DealTally | None = None
    partie = (PartieTally(plan.players, [DealTally(plan.players, plan.contract_names)
                                         for _ in plan.specs])
              if plan.mode == "partie" else None)
    totals: list[npt.NDArray[np.int64]] = []
    records: list[tuple[dict[str, Any], ...]] = []
    done = 0  # hands played, over all deals
    count = task_count(plan, blocks_per_task)
    used: list[int] = [1]
    results = _results(plan, tasks_of(plan, blocks_per_task), count, min(jobs, count),
                       adaptive, used)
    with closing(results):
        for task, res in zip(tasks_of(plan, blocks_per_task), results, strict=True):
            done += sum(plan.block_hands(b) for b in range(task.first, task.last))
            if partie is None:
                if deal is None:
                    deal = res.tally
                else:
                    deal.merge(res.tally)
                if res.records and on_records is not None:
                    on_records(list(res.records))
            else:
                partie.deals[task.deal].merge(res.tally)
                if task.deal == 0:
                    totals = [np.zeros_like(sc) for sc in res.scores]
                    records = []
                for acc, sc in zip(totals, res.scores, strict=True):
                    acc += sc
                records.append(res.records)
                if task.deal == deals - 1:  # every deal of these blocks is in: the partie totals
                    for acc in totals:
                        partie.add_totals(acc, plan.partie_total, plan.lowest_wins)
                    if on_records is not None and records[0]:
                        on_records([records[d][i] for i in range(len(records[0]))
                                    for d in range(deals) if i < len(records[d])])
                    totals, records = [], []
            if progress is not None:
                progress(done // deals)
    return SimResult(plan, deal, partie, time.perf_counter() - start, used[0])
