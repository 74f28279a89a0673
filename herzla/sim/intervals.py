"""95% intervals: of a mean (normal from 30 values on, Student's t below) and of a rate (the
Wilson score interval), as the simulator reports them.

>>> round(mean_half_width(std=2.0, n=4), 6)  # Student's t, 3 degrees of freedom
3.182446
>>> mean_half_width(std=2.0, n=1) is None  # one value says nothing about the spread
True
>>> wilson(0, 10)
(0.0, 0.27754)
>>> wilson(5, 10)
(0.23659, 0.76341)
"""

from __future__ import annotations

import math

__all__ = ["T_FROM", "Z95", "mean_half_width", "t95", "wilson"]

#: the normal quantile of a two-sided 95% interval
Z95 = 1.96
#: from this many values on, a mean's interval uses :data:`Z95`; below, Student's t
T_FROM = 30
#: Student's t, the 97.5% quantile, by degrees of freedom 1 .. T_FROM - 1
_T975 = (12.7062047, 4.3026527, 3.1824463, 2.7764451, 2.5705818, 2.4469119, 2.3646243,
         2.3060041, 2.2621572, 2.2281389, 2.2009852, 2.1788128, 2.1603687, 2.1447867,
         2.1314495, 2.1199053, 2.1098156, 2.1009220, 2.0930241, 2.0859634, 2.0796138,
         2.0738731, 2.0686576, 2.0638986, 2.0595386, 2.0555294, 2.0518305, 2.0484071,
         2.0452296)

#: decimals of the interval bounds given back
_DECIMALS = 6


def t95(n: int) -> float:
    """The multiplier of ``std/√n`` in a 95% interval of the mean of ``n`` values (n >= 2):
    Student's t with ``n - 1`` degrees of freedom below :data:`T_FROM` values, else 1.96."""
    if n < 2:
        raise ValueError(f"an interval of a mean needs at least 2 values, not {n}")
    return _T975[n - 2] if n < T_FROM else Z95


def mean_half_width(std: float, n: int) -> float | None:
    """Half the width of the 95% interval of a mean of ``n`` values with sample standard
    deviation ``std``; None for a single value (no interval, rather than one of zero width)."""
    if n < 2:
        return None
    return t95(n) * std / math.sqrt(n)


def wilson(count: int, of: int) -> tuple[float, float] | None:
    """The Wilson score 95% interval of the rate ``count / of`` (None when ``of`` is 0): never
    below 0 or above 1, and not of zero width at 0 or 1 as the normal approximation is."""
    if of <= 0:
        return None
    if not 0 <= count <= of:
        raise ValueError(f"{count} of {of} is not a rate")
    z2 = Z95 * Z95
    p = count / of
    scale = 1 + z2 / of
    centre = (p + z2 / (2 * of)) / scale
    half = Z95 / scale * math.sqrt(p * (1 - p) / of + z2 / (4 * of * of))
    lo = 0.0 if count == 0 else max(0.0, centre - half)
    hi = 1.0 if count == of else min(1.0, centre + half)
    return round(lo, _DECIMALS) + 0.0, round(hi, _DECIMALS) + 0.0
