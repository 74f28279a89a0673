"""Exact running statistics of simulated scores.

Everything is aggregated as histograms (score -> number of hands) with Python integers, block by
block, so memory stays flat however many hands are played, the sums never overflow, and the
result does not depend on how the blocks were spread over worker processes: merging histograms
is exact and order-free.  Mean, standard deviation, minimum and maximum follow exactly from a
histogram.

The standard deviation is the *sample* standard deviation (divisor ``n - 1``; 0 for one hand);
the 95% confidence interval of the mean is ``mean ± 1.96·std/√n`` from 30 hands on, Student's t
below (:mod:`herzla.sim.intervals`), and none for a single hand.  A rate's interval is the
Wilson score interval (:func:`rate_entry`).
Floats in the JSON answer are rounded to :data:`DECIMALS` places, so the answer is stable.

>>> h = Histogram()
>>> h.add_values(np.array([-2, 0, 0, 4], dtype=np.int64))
>>> s = h.summary()
>>> s.mean, s.std, s.min, s.max
(0.5, 2.516611, -2, 4)
>>> s.to_dict()["histogram"]
{'-2': 1, '0': 2, '4': 1}
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from herzla.sim.intervals import mean_half_width, wilson

__all__ = [
    "DECIMALS",
    "ContractTally",
    "DealTally",
    "Histogram",
    "PartieTally",
    "SessionTally",
    "Summary",
    "count_rows",
    "exact_sum",
    "rate",
    "rate_entry",
    "rounded",
]

#: decimals of every float in the JSON answer
DECIMALS = 6
#: values spanning fewer than this many integers are counted with a bincount, not a sort
BINCOUNT_SPAN = 1 << 12
#: the most bins one bincount of several columns uses
_TABLE_BINS = 1 << 15


def rounded(x: float) -> float:
    """``x`` rounded to :data:`DECIMALS` places, without a negative zero."""
    return round(x, DECIMALS) + 0.0


def rate(count: int, total: int) -> float:
    return rounded(count / total) if total else 0.0


def rate_entry(count: int, total: int) -> dict[str, Any]:
    """A rate as ``"rates"`` in the JSON answer gives it: the count, what it is out of, the rate
    and its Wilson score 95% interval (None when out of nothing).

    >>> rate_entry(3, 40)
    {'count': 3, 'of': 40, 'rate': 0.075, 'ci95': [0.025836, 0.198645]}
    """
    ci = wilson(count, total)
    return {"count": count, "of": total, "rate": rate(count, total),
            "ci95": None if ci is None else list(ci)}


class Histogram:
    """Counts of integer values; merging two is exact."""

    __slots__ = ("counts",)

    def __init__(self, counts: Mapping[int, int] | None = None) -> None:
        self.counts: Counter[int] = Counter(counts or {})

    def __repr__(self) -> str:
        return f"Histogram({dict(sorted(self.counts.items()))})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Histogram) and self.counts == other.counts

    __hash__ = None  # type: ignore[assignment]

    def add_values(self, values: npt.NDArray[np.int64]) -> None:
        """Count every value of a one-dimensional integer array."""
        if values.size == 0:
            return
        lo, hi = int(values.min()), int(values.max())
        if hi - lo < BINCOUNT_SPAN:  # a narrow range (hearts, most scores): no sort needed
            binned = np.bincount(values - lo)
            nz = np.flatnonzero(binned)
            vals, counts = nz + lo, binned[nz]
        else:
            vals, counts = np.unique(values, return_counts=True)
        self._add_counts(vals, counts)

    def _add_counts(self, vals: npt.NDArray[np.int64], counts: npt.NDArray[np.int64]) -> None:
        mine = self.counts
        for v, c in zip(vals.tolist(), counts.tolist(), strict=True):
            mine[v] += c

    def add(self, value: int, count: int = 1) -> None:
        self.counts[value] += count

    def merge(self, other: Histogram) -> None:
        self.counts.update(other.counts)

    @property
    def n(self) -> int:
        return sum(self.counts.values())

    @property
    def total(self) -> int:
        return sum(v * c for v, c in self.counts.items())

    @property
    def sum_squares(self) -> int:
        return sum(v * v * c for v, c in self.counts.items())

    def percentile(self, pct: int) -> int:
        """The least value at or below which at least ``pct`` percent of the values lie (n must
        be > 0): exact, from the counts.

        >>> Histogram({0: 90, 80: 6, 160: 4}).percentile(95)
        80
        """
        n = self.n
        if n == 0:
            raise ValueError("no values counted")
        seen = 0
        for v in sorted(self.counts):
            seen += self.counts[v]
            if seen * 100 >= pct * n:
                return v
        return max(self.counts)  # not reached: every value seen makes 100%

    def summary(self) -> Summary:
        """Mean, sample std, 95% CI of the mean (None for one value), min, max and the
        histogram (n must be > 0)."""
        n, s, q = self.n, self.total, self.sum_squares
        if n == 0:
            raise ValueError("no values counted")
        mean = s / n  # int / int: correctly rounded
        var = (n * q - s * s) / (n * (n - 1)) if n > 1 else 0.0  # exact numerator
        std = math.sqrt(max(var, 0.0))
        half = mean_half_width(std, n)
        return Summary(
            n=n, mean=rounded(mean), std=rounded(std),
            ci95=None if half is None else (rounded(mean - half), rounded(mean + half)),
            min=min(self.counts), max=max(self.counts),
            histogram=tuple(sorted((v, c) for v, c in self.counts.items() if c)),
        )


def count_rows(hists: Sequence[Histogram], rows: npt.NDArray[np.int64]) -> None:
    """Count row ``j`` of ``rows`` (one row per histogram, one column per hand) into
    ``hists[j]``: one bincount for all the rows where their values span a narrow range (scores,
    hearts), else row by row.  The same counts as :meth:`Histogram.add_values` on each row."""
    k, n = rows.shape
    if k != len(hists):
        raise ValueError(f"{k} rows for {len(hists)} histograms")
    if n == 0:
        return
    lo, hi = int(rows.min()), int(rows.max())
    span = hi - lo + 1
    if span * k > _TABLE_BINS:
        for h, row in zip(hists, rows, strict=True):
            h.add_values(row)
        return
    idx = rows - lo
    if k > 1:
        idx += np.arange(0, span * k, span, dtype=np.int64)[:, None]
    binned = np.bincount(idx.ravel(), minlength=span * k).reshape(k, span)
    for h, counts in zip(hists, binned, strict=True):
        nz = np.flatnonzero(counts)
        h._add_counts(nz + lo, counts[nz])


def _with_total(table: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """(hands x seats) -> (seats + 1) x hands: each seat's row, then each hand's total."""
    n, P = table.shape
    rows = np.empty((P + 1, n), dtype=np.int64)
    rows[:P] = table.T
    np.add.reduce(rows[:P], axis=0, out=rows[P])
    return rows


@attrs.frozen(slots=True)
class Summary:
    """The statistics of one seat (or of the stock, or of a hand's total)."""

    n: int
    mean: float
    std: float
    ci95: tuple[float, float] | None  # None: a single value
    min: int
    max: int
    histogram: tuple[tuple[int, int], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "mean": self.mean, "std": self.std,
            "ci95": None if self.ci95 is None else list(self.ci95),
            "min": self.min, "max": self.max,
            "histogram": {str(v): c for v, c in self.histogram},
        }


def _sorted_counts(c: Mapping[str, int]) -> dict[str, int]:
    return {k: c[k] for k in sorted(c) if c[k]}


def _seat_histograms(self: Any) -> list[Histogram]:
    return [Histogram() for _ in range(self.players)]


@attrs.define(slots=True)
class ContractTally:
    """With bidding: how often each contract (``names``, in code order: the one played when
    nobody announces first) was chosen, made and lost, and by which seat.

    Made and lost are read from the scores: a declarer's contract made leaves exactly one seat
    (the declarer) ahead, one lost exactly one seat behind.
    """

    players: int
    names: tuple[str, ...]
    hands: list[int] = attrs.field(
        default=attrs.Factory(lambda self: [0] * len(self.names), takes_self=True))
    made: list[int] = attrs.field(
        default=attrs.Factory(lambda self: [0] * len(self.names), takes_self=True))
    lost: list[int] = attrs.field(
        default=attrs.Factory(lambda self: [0] * len(self.names), takes_self=True))
    declarers: list[list[int]] = attrs.field(
        default=attrs.Factory(lambda self: [[0] * self.players for _ in self.names],
                              takes_self=True))

    def add(self, codes: npt.NDArray[np.int8], scores: npt.NDArray[np.int64]) -> None:
        for code in range(len(self.names)):
            sel = codes == code
            k = int(sel.sum())
            if not k:
                continue
            self.hands[code] += k
            if code == 0:
                continue
            sc = scores[sel]
            made = (sc > 0).sum(axis=1) == 1
            lost = ~made & ((sc < 0).sum(axis=1) == 1)
            self.made[code] += int(made.sum())
            self.lost[code] += int(lost.sum())
            seat = np.where(made, sc.argmax(axis=1), sc.argmin(axis=1))[made | lost]
            for s, c in zip(*np.unique(seat, return_counts=True), strict=True):
                self.declarers[code][int(s)] += int(c)

    def merge(self, other: ContractTally) -> None:
        for code in range(len(self.names)):
            self.hands[code] += other.hands[code]
            self.made[code] += other.made[code]
            self.lost[code] += other.lost[code]
            for s in range(self.players):
                self.declarers[code][s] += other.declarers[code][s]

    def to_dict(self) -> dict[str, Any]:
        total = sum(self.hands)
        out: dict[str, Any] = {}
        for code, name in enumerate(self.names):
            entry: dict[str, Any] = {"hands": self.hands[code],
                                     "rate": rate(self.hands[code], total)}
            if code:
                entry.update(made=self.made[code], lost=self.lost[code],
                             declarers=list(self.declarers[code]))
            out[name] = entry
        return out


@attrs.define(slots=True)
class DealTally:
    """Everything counted about the hands of one deal type (one random stream).

    ``seats`` are the seats' score histograms, ``total`` the histogram of each hand's sum over the
    seats, ``stock`` that of the stock after each hand (games with a stock), ``events`` the number
    of hands each event happened in, ``checks`` the number of hands that broke an invariant.
    ``hearts`` are the seats' histograms of hearts captured per hand and ``hearts_total`` that of
    each hand's hearts over all seats, where the engine reports hearts (None elsewhere).
    """

    players: int
    contract_names: tuple[str, ...] = ()  # with bidding: the names of the contract codes
    hands: int = 0
    seats: list[Histogram] = attrs.field(default=attrs.Factory(_seat_histograms, takes_self=True))
    total: Histogram = attrs.field(factory=Histogram)
    stock: Histogram | None = None
    events: Counter[str] = attrs.field(factory=Counter)
    checks: Counter[str] = attrs.field(factory=Counter)
    contracts: ContractTally | None = None
    hearts: list[Histogram] | None = None
    hearts_total: Histogram | None = None

    def add(self, scores: npt.NDArray[np.int64], events: Mapping[str, int],
            stock_after: npt.NDArray[np.int64] | None = None,
            start_stock: int | npt.NDArray[np.int64] = 0,
            expected_total: int | None = None,
            contracts: npt.NDArray[np.int8] | None = None,
            hearts: npt.NDArray[np.int64] | None = None) -> None:
        """Count one block's hands (``scores``, and ``hearts`` if given: hands x seats);
        ``start_stock``: the stock before them all, or before each."""
        self.hands += scores.shape[0]
        rows = _with_total(scores)
        count_rows([*self.seats, self.total], rows)
        totals = rows[-1]
        if hearts is not None:
            seats, total = self._hearts()
            count_rows([*seats, total], _with_total(hearts))
        for name, count in events.items():
            self.events[name] += int(count)
        if stock_after is not None:
            if self.stock is None:
                self.stock = Histogram()
            self.stock.add_values(stock_after)
            # every hand is zero-sum over the players and the stock together
            bad = int(np.count_nonzero(totals + (stock_after - start_stock)))
            self.checks["zero-sum"] += bad
        elif expected_total is not None:
            self.checks["hand-total"] += int(np.count_nonzero(totals != expected_total))
        if contracts is not None:
            if self.contracts is None:
                self.contracts = ContractTally(self.players, self.contract_names)
            self.contracts.add(contracts, scores)

    def merge(self, other: DealTally) -> None:
        self.hands += other.hands
        for mine, theirs in zip(self.seats, other.seats, strict=True):
            mine.merge(theirs)
        self.total.merge(other.total)
        if other.stock is not None:
            if self.stock is None:
                self.stock = Histogram()
            self.stock.merge(other.stock)
        self.events.update(other.events)
        self.checks.update(other.checks)
        if other.contracts is not None:
            if self.contracts is None:
                self.contracts = ContractTally(self.players, self.contract_names)
            self.contracts.merge(other.contracts)
        if other.hearts is not None and other.hearts_total is not None:
            seats, total = self._hearts()
            for mine, theirs in zip(seats, other.hearts, strict=True):
                mine.merge(theirs)
            total.merge(other.hearts_total)

    def _hearts(self) -> tuple[list[Histogram], Histogram]:
        if self.hearts is None or self.hearts_total is None:
            self.hearts = _seat_histograms(self)
            self.hearts_total = Histogram()
        return self.hearts, self.hearts_total

    def seat_summaries(self) -> list[Summary]:
        return [h.summary() for h in self.seats]

    def hearts_summaries(self) -> list[Summary] | None:
        """Each seat's hearts captured per hand, if every hand counted reported them, else None."""
        if (self.hearts is None or self.hearts_total is None or not self.hands
                or self.hearts_total.n != self.hands):
            return None
        return [h.summary() for h in self.hearts]

    def events_json(self) -> dict[str, int]:
        return _sorted_counts(self.events)

    def event_rates_json(self) -> dict[str, float]:
        return {k: rate(v, self.hands) for k, v in self.events_json().items()}


@attrs.define(slots=True)
class PartieTally:
    """Whole parties: the seats' partie totals, wins, and a :class:`DealTally` per deal."""

    players: int
    deals: list[DealTally]
    parties: int = 0
    seats: list[Histogram] = attrs.field(default=attrs.Factory(_seat_histograms, takes_self=True))
    total: Histogram = attrs.field(factory=Histogram)
    wins: list[int] = attrs.field(default=attrs.Factory(lambda self: [0] * self.players,
                                                        takes_self=True))
    shared_wins: int = 0
    checks: Counter[str] = attrs.field(factory=Counter)

    def add_totals(self, totals: npt.NDArray[np.int64], expected_total: int | None,
                   lowest_wins: bool = False) -> None:
        """Count one block's partie totals (parties x seats); equal best totals share the win."""
        self.parties += totals.shape[0]
        rows = _with_total(totals)
        count_rows([*self.seats, self.total], rows)
        sums = rows[-1]
        if expected_total is not None:
            self.checks["partie-total"] += int(np.count_nonzero(sums != expected_total))
        best = totals.min(axis=1) if lowest_wins else totals.max(axis=1)
        winners = totals == best[:, None]
        for s, w in enumerate(winners.sum(axis=0).tolist()):
            self.wins[s] += int(w)
        self.shared_wins += int(np.count_nonzero(winners.sum(axis=1) > 1))

    def merge(self, other: PartieTally) -> None:
        self.parties += other.parties
        for mine, theirs in zip(self.seats, other.seats, strict=True):
            mine.merge(theirs)
        self.total.merge(other.total)
        for s in range(self.players):
            self.wins[s] += other.wins[s]
        self.shared_wins += other.shared_wins
        self.checks.update(other.checks)
        for d, t in zip(self.deals, other.deals, strict=True):
            d.merge(t)


def _with_percentiles(h: Histogram) -> dict[str, Any]:
    """A histogram's statistics with its median (``p50``) and 95th percentile (``p95``)."""
    out = h.summary().to_dict()
    hist = out.pop("histogram")
    return {**out, "p50": h.percentile(50), "p95": h.percentile(95), "histogram": hist}


def exact_sum(values: npt.NDArray[np.int64]) -> int:
    """The sum of an integer array, exactly: in int64 while it cannot overflow, else in Python
    ints (a deal's values stay below 2**60, :data:`herzla.limits.MAX_HAND_AMOUNT`; a block's
    sum need not)."""
    if not values.size:
        return 0
    big = max(abs(int(values.max())), abs(int(values.min())))
    if big * values.size < 2**62:
        return int(values.sum())
    return sum(values.tolist())


@attrs.define(slots=True)
class SessionTally:
    """Whole evenings of ``deals`` deals, the stock carried from deal to deal.

    ``hands`` counts every deal of every evening, pooled (scores, the stock after each deal,
    events, the contracts bid, hearts); ``evenings`` the seats' evening totals and the evening's
    winners (the highest balance wins; equal best totals share the win); ``stock_end`` is the
    histogram of the stock left at the end of an evening, ``stock_peak`` that of the highest
    stock of the evening (after any of its deals, or at its start), ``stock_paid`` the number of
    evenings
    in which some deal paid (some of) the stock out, ``stock_sums`` per deal the stock after it
    summed over the evenings, and ``checks`` the evenings that broke an invariant.
    """

    players: int
    deals: int
    hands: DealTally
    evenings: PartieTally
    stock_end: Histogram = attrs.field(factory=Histogram)
    stock_peak: Histogram = attrs.field(factory=Histogram)
    stock_paid: int = 0
    stock_sums: list[int] = attrs.field(
        default=attrs.Factory(lambda self: [0] * self.deals, takes_self=True))
    checks: Counter[str] = attrs.field(factory=Counter)

    @classmethod
    def new(cls, players: int, deals: int, contract_names: tuple[str, ...] = ()
            ) -> SessionTally:
        return cls(players, deals, DealTally(players, contract_names), PartieTally(players, []))

    @property
    def count(self) -> int:
        """The evenings counted."""
        return self.evenings.parties

    def add_deal(self, d: int, scores: npt.NDArray[np.int64], events: Mapping[str, int],
                 stock_before: npt.NDArray[np.int64], stock_after: npt.NDArray[np.int64],
                 contracts: npt.NDArray[np.int8] | None = None,
                 hearts: npt.NDArray[np.int64] | None = None) -> None:
        """Count deal ``d`` (from 0) of a block of evenings (hands x seats)."""
        self.hands.add(scores, events, stock_after=stock_after, start_stock=stock_before,
                       contracts=contracts, hearts=hearts)
        self.stock_sums[d] += exact_sum(stock_after)

    def add_evenings(self, totals: npt.NDArray[np.int64], stock_end: npt.NDArray[np.int64],
                     stock_peak: npt.NDArray[np.int64], paid: npt.NDArray[np.bool_],
                     start: int) -> None:
        """Count a block of whole evenings: each seat's total (evenings x seats), the stock at
        the end, the highest stock of the evening, whether some deal paid the stock out, the
        stock the evenings started with."""
        self.evenings.add_totals(totals, None)
        self.stock_end.add_values(stock_end)
        self.stock_peak.add_values(stock_peak)
        self.stock_paid += int(np.count_nonzero(paid))
        # every evening is zero-sum over the players and the stock together
        bad = totals.sum(axis=1) + (stock_end - start)
        self.checks["evening-zero-sum"] += int(np.count_nonzero(bad))

    def merge(self, other: SessionTally) -> None:
        self.hands.merge(other.hands)
        self.evenings.merge(other.evenings)
        self.stock_end.merge(other.stock_end)
        self.stock_peak.merge(other.stock_peak)
        self.stock_paid += other.stock_paid
        for d in range(self.deals):
            self.stock_sums[d] += other.stock_sums[d]
        self.checks.update(other.checks)

    def stock_means(self) -> list[float]:
        """The mean stock after each deal of the evening, deal 1 first."""
        n = self.count
        return [rounded(s / n) if n else 0.0 for s in self.stock_sums]

    def to_dict(self) -> dict[str, Any]:
        """The ``session`` object of the JSON answer."""
        return {
            "deals": self.deals,
            "stock_end": _with_percentiles(self.stock_end),
            "stock_peak": _with_percentiles(self.stock_peak),
            "stock_paid": rate(self.stock_paid, self.count),
            "stock_paid_evenings": self.stock_paid,
            "stock_by_deal": self.stock_means(),
        }
