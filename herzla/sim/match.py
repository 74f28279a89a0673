"""Duplicate matches between policies: ``herzla.match(...)``, what ``herzla match`` runs.

Each of ``deals`` seeded deals (hands; with a partie, whole parties) is played once for every
*seating* of the ``k`` policies: in seating ``r`` seat ``s`` plays policy ``(s + r) mod k``, so
over the ``k`` seatings every policy holds every seat, hence every hand dealt, exactly once (with
two policies at four seats: A B A B and B A B A).  A deal's random moves are the same in every
seating, so the luck of the cards cancels and what is left is play.

A policy's value on a deal is its mean score over the seats it held in the seatings of that deal;
its standing is the mean of those values over the deals, with a 95% interval from their spread
(mean ± 1.96·std/√deals), and a pair's difference is the mean per-deal difference of the two
values, with its interval from the per-deal differences.  Everything is added up exactly in whole
numbers, block by block of the simulator's seeded streams, so the answer is the same for any
number of processes and on a cluster.  Where the batch engine plays, a block's deals are dealt
once and played in every seating (:func:`herzla.sim.engine.play_blocks`).

>>> res = match("herzla", ["heuristic", "random"], contract="normal", deals=500, seed=1, jobs=1)
>>> d = res.to_dict()
>>> d["seatings"], [s["policy"] for s in d["standings"]], d["standings"][0]["hands"]
(2, ['heuristic', 'random'], 2000)
>>> d["pairs"][0]["a"], d["pairs"][0]["diff"] > 0
('heuristic', True)
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Generator, Iterator, Mapping, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from herzla.i18n import _
from herzla.limits import LimitError, check_timeout, whole_number
from herzla.players.policy import Policy, PolicyError
from herzla.players.registry import policy_of, spelled
from herzla.quote import number, quote
from herzla.sim.api import MAX_HANDS, SimulationError, check_pickles, plan_run
from herzla.sim.batch import batch_form_of, keep_memory
from herzla.sim.engine import play_blocks
from herzla.sim.plan import Mode, Plan, Task
from herzla.sim.runner import tasks_of
from herzla.sim.stats import exact_sum, rounded
from herzla.support.cluster import DEFAULT_TIMEOUT, check_cluster
from herzla.support.procs import local_map, usable_jobs
from herzla.support.streams import BLOCK

__all__ = ["MATCH_BLOCK", "MAX_POLICIES", "MatchError", "MatchPlan", "MatchResult", "Pair",
           "Standing", "match", "match_result", "plan_match", "play_match_task"]

#: deals per seeded block when some policy has no batch form (slow players: small blocks, so
#: that several processes share even a short match); else the simulator's block
MATCH_BLOCK = 16
#: the most policies one match seats
MAX_POLICIES = 16
Z95 = 1.959963984540054


class MatchError(SimulationError):
    """Arguments a match cannot play, with the problem named in one sentence."""


@attrs.frozen(slots=True)
class MatchPlan:
    """A checked match: one simulation plan per seating (same deals, same seed)."""

    policies: tuple[str, ...]
    seatings: tuple[tuple[int, ...], ...]  # per seating, the policy index of each seat
    plans: tuple[Plan, ...]

    @property
    def first(self) -> Plan:
        return self.plans[0]

    def held(self, j: int) -> int:
        """Seat-hands policy ``j`` plays per deal, over all the seatings."""
        return sum(seating.count(j) for seating in self.seatings)


@attrs.frozen(slots=True, eq=False)
class MatchTally:
    """Exact sums over deals: per policy its total score per deal (``sums``, ``squares``), per
    pair the cross-multiplied per-deal difference (see :func:`play_match_task`)."""

    deals: int
    sums: tuple[int, ...]
    squares: tuple[int, ...]
    pair_sums: tuple[int, ...]
    pair_squares: tuple[int, ...]

    def merge(self, other: MatchTally) -> MatchTally:
        def add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(x + y for x, y in zip(a, b, strict=True))

        return MatchTally(self.deals + other.deals, add(self.sums, other.sums),
                          add(self.squares, other.squares), add(self.pair_sums, other.pair_sums),
                          add(self.pair_squares, other.pair_squares))


def _pairs(k: int) -> list[tuple[int, int]]:
    return [(a, b) for a in range(k) for b in range(a + 1, k)]


def _square_sum(x: npt.NDArray[np.int64]) -> int:
    """The exact sum of squares (in int64 while it cannot overflow, else in Python ints)."""
    top = int(np.abs(x).max()) if len(x) else 0
    if top * top * len(x) < 2**62:
        return int(np.dot(x, x))
    return sum(int(v) * int(v) for v in x)


def play_match_task(mp: MatchPlan, task: Task) -> MatchTally:
    """Play blocks ``task.first .. task.last-1`` in every seating (a module-level function, so it
    pickles for worker processes and cluster workers).

    Per deal, policy ``j`` scores ``S_j``: its scores added up over the seats it held in every
    seating (partie: over the partie's deals); its value is ``S_j / m_j`` (``m_j`` the seats it
    held, :meth:`MatchPlan.held`).  A pair (a, b) adds ``S_a * m_b - S_b * m_a``, the per-deal
    difference times ``m_a * m_b``, so all sums stay whole numbers.  Memory is kept as the
    simulator's runner keeps it (:func:`herzla.sim.batch.keep_memory`).
    """
    keep_memory()
    k = len(mp.policies)
    plan0 = mp.first
    held = [mp.held(j) for j in range(k)]
    sums = [0] * k
    squares = [0] * k
    pairs = _pairs(k)
    psums = [0] * len(pairs)
    psquares = [0] * len(pairs)
    deals = 0
    for b in range(task.first, task.last):
        n = plan0.block_hands(b)
        deals += n
        per = np.zeros((k, n), dtype=np.int64)
        for d in range(len(plan0.specs)):  # the seatings deal the same hands: dealt once
            played = play_blocks([plan.specs[d] for plan in mp.plans], plan0.seed, (d, b), n,
                                 engine=plan0.engine)
            for res, seating in zip(played, mp.seatings, strict=True):
                for s, j in enumerate(seating):
                    per[j] += res.scores[:, s]
        for j in range(k):
            sums[j] += exact_sum(per[j])
            squares[j] += _square_sum(per[j])
        for i, (a, c) in enumerate(pairs):
            diff = per[a] * held[c] - per[c] * held[a]
            psums[i] += exact_sum(diff)
            psquares[i] += _square_sum(diff)
    return MatchTally(deals, tuple(sums), tuple(squares), tuple(psums), tuple(psquares))


@attrs.frozen(slots=True)
class Standing:
    """A policy's mean score per hand, its 95% interval and the hands it played."""

    policy: str
    mean: float
    #: None from a single deal (its spread tells nothing)
    ci95: tuple[float, float] | None
    hands: int

    def to_dict(self) -> dict[str, Any]:
        return {"policy": self.policy, "mean": self.mean,
                "ci95": None if self.ci95 is None else list(self.ci95), "hands": self.hands}


@attrs.frozen(slots=True)
class Pair:
    """The mean per-deal difference ``a - b`` and its 95% interval."""

    a: str
    b: str
    diff: float
    #: None from a single deal
    ci95: tuple[float, float] | None

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "diff": self.diff,
                "ci95": None if self.ci95 is None else list(self.ci95)}


def _interval(total: int, squares: int, n: int, scale: int
              ) -> tuple[float, tuple[float, float] | None]:
    """Mean and 95% interval of ``n`` values ``x / scale`` given the sums of ``x`` and ``x**2``
    (no interval from one value)."""
    mean = total / n / scale
    if n < 2:
        return mean, None
    var = (squares - total * total / n) / (n - 1) / (scale * scale)
    half = Z95 * math.sqrt(max(var, 0.0) / n)
    # rounded to the JSON's decimals, but never past the mean itself
    return mean, (min(rounded(mean - half), mean), max(rounded(mean + half), mean))


@attrs.frozen(slots=True)
class MatchResult:
    """The answer of :func:`match`: standings best first, the pairs, how long it took."""

    game: str
    contract: str | None
    mode: str
    deals: int
    seed: int
    seatings: int
    lowest_wins: bool
    unit: str
    standings: tuple[Standing, ...]
    pairs: tuple[Pair, ...]
    elapsed: float
    processes: int = 1

    def to_dict(self) -> dict[str, Any]:
        """The answer of ``herzla match --json`` (the Command line page of the docs): everything
        but ``elapsed_s`` is the same for any ``--jobs``."""
        return {
            "game": self.game, "contract": self.contract, "mode": self.mode,
            "deals": self.deals, "seed": self.seed, "seatings": self.seatings,
            "unit": self.unit, "lower_is_better": self.lowest_wins,
            "standings": [s.to_dict() for s in self.standings],
            "pairs": [p.to_dict() for p in self.pairs],
            "elapsed_s": rounded(self.elapsed),
        }


def plan_match(game: str, policies: Sequence[str | Policy], contract: str | None = None, *,
               partie: bool = False, deals: int, seed: int, players: int | None = None,
               options: Mapping[str, Any] | None = None, stock: int | None = None,
               engine: str = "auto") -> MatchPlan:
    """Check a match's arguments; MatchError names what is wrong."""
    if isinstance(policies, str | bytes) or not isinstance(policies, Sequence) or not all(
            isinstance(p, str | Policy) for p in policies):
        raise MatchError(_('policies is a list of policies, each a name ("random", '
                           '"pimc[samples=8]", ...) or a herzla.Policy object, not '
                           "{policies}").format(policies=quote(policies)))
    try:
        whole_number(deals, "deals")
    except LimitError as exc:
        raise MatchError(str(exc)) from None
    if not 1 <= deals <= MAX_HANDS:
        raise MatchError(_("deals must be 1 to {max_hands:.0e}, not {deals}").format(
            max_hands=MAX_HANDS, deals=number(deals)))
    names = tuple(spelled(p.strip()) if isinstance(p, str) else p.spec() for p in policies)
    if not 2 <= len(names) <= MAX_POLICIES:
        raise MatchError(_("a match needs 2 to {max_policies} policies, not {n_names}").format(
            max_policies=MAX_POLICIES, n_names=len(names)))
    if len(set(names)) != len(names):
        raise MatchError(_("a match needs different policies (each named once)"))
    try:  # each name read once: the objects go through the plans and the specs
        objects = tuple(policy_of(p) if isinstance(p, str) else p for p in policies)
        batch = all(batch_form_of(p) is not None for p in objects)
    except PolicyError as exc:
        raise MatchError(str(exc)) from None
    k = len(names)
    try:
        probe = plan_run(game, contract, hands=deals, seed=seed, players=players,
                         policy=objects[0], options=options, partie=partie, stock=stock,
                         engine=engine)
    except SimulationError as exc:
        raise MatchError(str(exc)) from None
    n = probe.players
    seatings = tuple(tuple((s + r) % k for s in range(n)) for r in range(k))
    block = BLOCK if batch else MATCH_BLOCK
    plans = []
    for seating in seatings:
        try:
            plans.append(plan_run(game, contract, hands=deals, seed=seed, players=players,
                                  policy=[objects[j] for j in seating], options=options,
                                  partie=partie, stock=stock, engine=engine, block=block))
        except SimulationError as exc:
            raise MatchError(str(exc)) from None
    return MatchPlan(names, seatings, tuple(plans))


def _results(mp: MatchPlan, tasks: Iterator[Task], workers: int, cluster: str | None,
             cluster_timeout: float) -> Generator[MatchTally, None, None]:
    play = functools.partial(play_match_task, mp)
    if cluster is not None:
        from herzla.support.cluster import cluster_map

        yield from cluster_map(play, tasks, cluster, timeout=cluster_timeout)
    elif workers <= 1:
        for task in tasks:
            yield play(task)
    else:
        yield from local_map(play, tasks, workers - 1)


def match(game: str, policies: Sequence[str | Policy], contract: str | None = None, *,
          partie: bool = False, deals: int = 2000, seed: int, players: int | None = None,
          options: Mapping[str, Any] | None = None, stock: int | None = None,
          jobs: int | None = None, cluster: str | None = None,
          cluster_timeout: float = DEFAULT_TIMEOUT, engine: str = "auto") -> MatchResult:
    """Play a duplicate match of ``policies`` (names as ``--policy`` takes them, or
    :class:`~herzla.players.Policy` objects, which must pickle as for :func:`herzla.simulate`)
    over ``deals``
    seeded deals of ``game`` (``contract``, whole parties with ``partie``, or what the game
    plays by default, as :func:`herzla.simulate`).

    The answer is the same for any ``jobs`` (processes, this one included; default all cores)
    and on the dask ``cluster`` at that address.  Raises :class:`MatchError` (a
    SimulationError) naming bad arguments.
    """
    mp = plan_match(game, policies, contract, partie=partie, deals=deals, seed=seed,
                    players=players, options=options, stock=stock, engine=engine)
    check_cluster(cluster, MatchError)
    if cluster is not None and jobs is not None:
        raise MatchError(_("jobs and a cluster exclude each other: the cluster's workers play"))
    try:
        if jobs is not None:
            whole_number(jobs, "jobs")
        check_timeout(cluster_timeout)
    except LimitError as exc:
        raise MatchError(str(exc)) from None
    if jobs is not None and jobs < 1:
        raise MatchError(_("jobs must be at least 1, not {jobs}").format(jobs=jobs))
    first = mp.first
    workers = max(1, min(usable_jobs(jobs), first.blocks))
    if workers > 1 or cluster is not None:
        check_pickles((p for plan in mp.plans for spec in plan.specs for p in spec.policies),
                      MatchError)
    start = time.perf_counter()
    tally: MatchTally | None = None
    try:
        for part in _results(mp, tasks_of(first, 1), workers, cluster, cluster_timeout):
            tally = part if tally is None else tally.merge(part)
    except (ValueError, NotImplementedError) as exc:
        if isinstance(exc, SimulationError):
            raise
        raise MatchError(" ".join(str(exc).split()) or type(exc).__name__) from None
    assert tally is not None
    return match_result(mp, tally, time.perf_counter() - start, 1 if cluster else workers)


def match_result(mp: MatchPlan, tally: MatchTally, elapsed: float, processes: int
                 ) -> MatchResult:
    """The result of the match ``mp`` from its deals' ``tally`` (played in ``elapsed`` seconds
    on ``processes`` processes): what :func:`match` answers, from tallies kept elsewhere too
    (a benchmark that plays its blocks over several runs)."""
    first = mp.first
    k = len(mp.policies)
    n = tally.deals
    held = [mp.held(j) for j in range(k)]
    stand: list[Standing] = []
    for j, name in enumerate(mp.policies):
        mean, ci = _interval(tally.sums[j], tally.squares[j], n, held[j])
        stand.append(Standing(name, rounded(mean), ci, n * held[j]))
    sign = 1 if first.lowest_wins else -1
    order = sorted(range(k), key=lambda j: (sign * stand[j].mean, j))
    pairs: list[Pair] = []
    index = {p: i for i, p in enumerate(_pairs(k))}
    for x in range(k):
        for y in range(x + 1, k):
            a, b = order[x], order[y]
            i = index[(min(a, b), max(a, b))]
            mean, ci = _interval(tally.pair_sums[i], tally.pair_squares[i], n,
                                 held[a] * held[b])
            if a > b:  # the sums hold b - a
                mean, ci = -mean, None if ci is None else (-ci[1], -ci[0])
            pairs.append(Pair(mp.policies[a], mp.policies[b], rounded(mean),
                              None if ci is None else (rounded(ci[0]), rounded(ci[1]))))
    spec = first.specs[0]
    return MatchResult(first.game, spec.contract_id if first.mode is Mode.CONTRACT else None,
                       str(first.mode), n, first.seed, len(mp.seatings), first.lowest_wins,
                       "cents" if first.stock is not None else "points",
                       tuple(stand[j] for j in order), tuple(pairs), elapsed, processes)
