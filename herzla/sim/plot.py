"""``herzla simulate --plot``: one histogram per seat, drawn with matplotlib (the ``plot`` extra).

matplotlib is imported only here and only when a picture is asked for; it draws on the Agg
canvas directly, so no window opens and no global backend is changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any, BinaryIO

from herzla.i18n import _
from herzla.sim.stats import Histogram

__all__ = ["PlotUnavailable", "bars", "bin_width", "check_plot_target", "plot_histograms"]

INSTALL_HINT = "pip install 'herzla[plot]'"


class PlotUnavailable(RuntimeError):
    """matplotlib is missing, or cannot write the picture asked for."""


def _matplotlib() -> tuple[Any, Any]:
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotUnavailable(_("--plot needs matplotlib, which is not installed "
                                "({install_hint})").format(install_hint=INSTALL_HINT)) from None
    return Figure, FigureCanvasAgg


def check_plot_target(path: str) -> str:
    """Check, before any hand is played, that matplotlib is there and can write ``path``.

    Returns the picture format (from the file's suffix: png, svg, pdf, ...).
    """
    figure, canvas = _matplotlib()
    fmt = Path(path).suffix.lstrip(".").lower() or "png"
    supported = canvas(figure()).get_supported_filetypes()
    if fmt not in supported:
        raise PlotUnavailable(_("--plot {path}: cannot write .{fmt} pictures (use one of "
                                "{value})").format(
            path=path, fmt=fmt, value=', '.join('.' + k for k in sorted(supported))))
    folder = Path(path).resolve().parent
    if not folder.is_dir():
        raise PlotUnavailable(_("--plot {path}: no such folder {folder}").format(
            path=path, folder=folder))
    return fmt


def bin_width(seats: Sequence[Histogram], most: int = 60) -> int:
    """One bin width for every seat: 1 (a bar per score) unless that makes over ``most`` bars."""
    values = {v for h in seats for v, c in h.counts.items() if c}
    if len(values) <= most:
        return 1
    return _nice_width((max(values) - min(values) + 1) / most)


def bars(hist: Histogram, width: int = 1) -> tuple[list[float], list[float], float]:
    """Bar positions, shares and bar width: a bar per score, or per bin of ``width`` scores.

    >>> bars(Histogram({0: 1, 10: 3}))
    ([0.0, 10.0], [0.25, 0.75], 8.0)
    >>> bars(Histogram({0: 1, 3: 1, 10: 2}), 5)
    ([2.0, 12.0], [0.5, 0.5], 4.5)
    """
    total = hist.n
    values = sorted(v for v, c in hist.counts.items() if c)
    if width == 1:
        gaps = [b - a for a, b in pairwise(values)]
        return ([float(v) for v in values], [hist.counts[v] / total for v in values],
                0.8 * min(gaps) if gaps else 0.8)
    shares: dict[int, int] = {}
    for v in values:
        k = v // width  # bins aligned on multiples of the width
        shares[k] = shares.get(k, 0) + hist.counts[v]
    return ([k * width + (width - 1) / 2 for k in sorted(shares)],
            [shares[k] / total for k in sorted(shares)], 0.9 * width)


def _nice_width(least: float) -> int:
    """The smallest of 1, 2, 5, 10, 20, 25, 50, 100, ... that is at least ``least``."""
    scale = 1
    while True:
        steps = (1, 2, 5) if scale == 1 else (scale, 2 * scale, scale * 5 // 2, 5 * scale)
        for w in steps:
            if w >= least:
                return w
        scale *= 10


def plot_histograms(out: BinaryIO, fmt: str, seats: Sequence[Histogram], title: str,
                    xlabel: str, ylabel: str = "share of hands") -> None:
    """Draw one bar chart per seat (share of hands per score, the mean marked) into ``out``."""
    figure, canvas = _matplotlib()
    n = len(seats)
    cols = min(n, 4)
    rows = -(-n // cols)
    fig = figure(figsize=(3.6 * cols, 2.9 * rows + 0.6), layout="constrained")
    canvas(fig)
    axes = fig.subplots(rows, cols, sharex=True, sharey=True, squeeze=False)
    binned = bin_width(seats)
    for s, hist in enumerate(seats):
        ax = axes[s // cols][s % cols]
        xs, shares, width = bars(hist, binned)
        ax.bar(xs, shares, width=width, color="#b03030", edgecolor="none")
        summary = hist.summary()
        ax.axvline(summary.mean, color="#202020", linewidth=1, linestyle="--")
        ax.set_title(f"seat {s}: mean {summary.mean:.3g}, std {summary.std:.3g}", fontsize=9)
        ax.grid(axis="y", alpha=0.3)
        if s + cols >= n:  # nothing drawn below: label the scores
            ax.set_xlabel(xlabel, fontsize=8)
            ax.tick_params(labelbottom=True)
        if s % cols == 0:
            ax.set_ylabel(ylabel, fontsize=8)
        ax.tick_params(labelsize=7)
    for k in range(n, rows * cols):
        axes[k // cols][k % cols].set_visible(False)
    fig.suptitle(title, fontsize=10)
    fig.savefig(out, format=fmt, dpi=110)
