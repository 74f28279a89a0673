"""An estimate from sampled deals, as ``herzla advise`` reports it: a mean with its 95% interval
and, for a contract that is made or lost, the share made with its 95% interval.

Every interval contains its estimate: the mean's ``mean ± 1.96·s/√n`` is clipped to the lowest and
highest score the seat can have (:func:`score_range`), never past the mean itself, and the share's
Wilson interval is held around the share (it contains it in exact arithmetic; the clip only undoes
rounding).

>>> e = Estimate.of([240, 240], None, (-70, 80))
>>> e.mean, e.ci95
(240.0, (240.0, 240.0))
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from herzla.analysis.search.scoring import compositions
from herzla.cards import HEARTS_MASK
from herzla.contracts import Outcome, TallyError, TrickContract
from herzla.sim.intervals import Z95
from herzla.sim.intervals import wilson as rate_interval

__all__ = ["Z95", "Estimate", "difference", "score_range", "wilson"]

def _held(low: float, x: float, high: float) -> tuple[float, float]:
    """``(low, high)`` widened, where need be, to hold ``x``."""
    return min(low, x), max(high, x)


def wilson(k: int, n: int) -> tuple[float, float]:
    """The Wilson interval of ``k`` made in ``n`` (n >= 1), as the simulator gives a rate's
    (:func:`herzla.sim.intervals.wilson`), holding ``k / n``."""
    ci = rate_interval(k, n)
    assert ci is not None  # n >= 1
    return _held(ci[0], k / n, ci[1])


def difference(a: Sequence[int], b: Sequence[int]) -> tuple[float, tuple[float, float]]:
    """The mean of ``a[i] - b[i]`` (the same deals) and its 95% interval."""
    d = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    mean = float(d.mean())
    half = Z95 * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else 0.0
    return mean, _held(mean - half, mean, mean + half)


@attrs.frozen(slots=True)
class Estimate:
    """One choice under one way of playing: the share made (Beddl, Mord) with its 95% interval
    (Wilson), and the mean of the seat's cents with its 95% interval (mean ± 1.96·s/√n, clipped
    to ``bounds``, the lowest and highest score the seat can have); ``samples``: the deals it
    rests on; ``by``: the player at every seat (the strong player's name), if any."""

    p_made: float | None
    p_made_ci95: tuple[float, float] | None
    mean: float
    ci95: tuple[float, float]
    samples: int = 0
    by: str | None = None

    @classmethod
    def of(cls, cents: Sequence[int], made: Sequence[bool] | None,
           bounds: tuple[int, int] | None = None, by: str | None = None) -> Estimate:
        n = len(cents)
        arr = np.asarray(cents, dtype=np.float64)
        mean = float(arr.mean())
        half = Z95 * float(arr.std(ddof=1)) / math.sqrt(n) if n > 1 else 0.0
        p = ci = None
        if made is not None:
            k = sum(made)
            p = k / n
            ci = wilson(k, n)
        low, high = mean - half, mean + half
        if bounds is not None:  # no score lies outside what the seat can score
            low, high = max(low, bounds[0]), min(high, bounds[1])
        return cls(p, ci, mean, _held(low, mean, high), n, by)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {} if self.by is None else {"by": self.by}
        out.update({
            "p_made": None if self.p_made is None else round(self.p_made, 4),
            "p_made_ci95": None if self.p_made_ci95 is None
            else [round(x, 4) for x in self.p_made_ci95],
            "mean": round(self.mean, 2),
            "ci95": [round(x, 2) for x in self.ci95],
            "samples": self.samples,
        })
        return out


def _tricks_of(contract: TrickContract, hearts: tuple[int, ...]) -> list[tuple[int, ...] | None]:
    """The tricks a tally may need beside the hearts: none; where one seat captured every heart,
    that seat winning every trick, or every trick but one (won by each other seat in turn)."""
    n, size = contract.players, contract.hand_size
    out: list[tuple[int, ...] | None] = [None]
    total = sum(hearts)
    for w in range(n):
        if total and hearts[w] == total:
            out.append(tuple(size if s == w else 0 for s in range(n)))
            out.extend(tuple(size - 1 if s == w else int(s == o) for s in range(n))
                       for o in range(n) if o != w)
    return out


def score_range(contract: TrickContract, seat: int, stock: int) -> tuple[int, int]:
    """The lowest and highest score ``seat`` can have in ``contract``: made and lost when it has
    a declarer, else every split of the hearts (the scores of the Herzla family's contracts; a
    seat capturing every heart with every trick or without)."""
    n = contract.players
    if contract.needs_declarer:
        outcomes = [Outcome(n, declarer=contract.declarer, made=m) for m in (True, False)]
    else:
        hearts = (contract.pack().mask & HEARTS_MASK).bit_count()
        outcomes = [Outcome(n, hearts=split, tricks=tricks)
                    for split in compositions(hearts, n)
                    for tricks in _tricks_of(contract, split)]
    scores = []
    for outcome in outcomes:
        with contextlib.suppress(TallyError):
            scores.append(contract.score(outcome, stock).scores[seat])
    return (min(scores), max(scores)) if scores else (-(2**62), 2**62)
