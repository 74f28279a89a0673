"""Start-up of herzla against numpy's, side by side in one run.

Three whole processes, run in turn ``--repeat`` times (so that a busy machine slows each alike),
each timed from start to exit:

- ``python -c "import numpy"`` (the yardstick: herzla's one heavy run-time dependency);
- ``python -c "import herzla"``;
- ``python -m herzla score herzla normal --hearts 0,3,5,0 --stock 80`` (the disputes desk: a
  command at the table wants its answer at once).

It prints each one's median wall time and the ratios of the medians to numpy's, with the range
of the ratios of the rounds (each round's herzla time over its numpy time).  The aims: ``import
herzla`` at most 1.2x, ``herzla score ...`` at most 1.5x.

    python benchmarks/bench_startup.py                # 15 rounds
    python benchmarks/bench_startup.py --repeat 40 --json startup.json

Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bytecode import compile_tree, describe  # this folder: the script's own

ROOT = Path(__file__).resolve().parents[1]

CASES: dict[str, list[str]] = {
    "import numpy": ["-c", "import numpy"],
    "import herzla": ["-c", "import herzla"],
    "herzla score": ["-m", "herzla", "score", "herzla", "normal", "--hearts", "0,3,5,0",
                     "--stock", "80"],
}
#: the most each may take, in times numpy's import
AIMS = {"import herzla": 1.2, "herzla score": 1.5}


def timed(args: list[str]) -> float:
    """The wall time of a fresh ``python ARGS`` process, which must succeed."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=15, help="rounds (default 15)")
    ap.add_argument("--json", metavar="FILE", help="also write the times as JSON")
    opts = ap.parse_args(argv)
    compile_tree(ROOT)
    for args in CASES.values():  # warm the file cache
        timed(args)
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for _ in range(max(1, opts.repeat)):
        for name, args in CASES.items():
            times[name].append(timed(args))
    print(f"herzla start-up: Python {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"{platform.platform()}; {describe()}; {opts.repeat} rounds")
    base = statistics.median(times["import numpy"])
    out: dict[str, dict[str, float | list[float]]] = {}
    print(f"{'process':<16} {'median s':>9} {'x numpy':>8} {'rounds':>15} {'aim':>6}")
    for name, ts in times.items():
        med = statistics.median(ts)
        rounds = sorted(t / n for t, n in zip(ts, times["import numpy"], strict=True))
        aim = AIMS.get(name)
        span = f"{rounds[0]:.2f}..{rounds[-1]:.2f}"
        print(f"{name:<16} {med:>9.3f} {med / base:>8.2f} {span:>15} "
              f"{'' if aim is None else f'{aim:.1f}x':>6}")
        out[name] = {"median_s": med, "ratio": med / base, "times": ts}
    if opts.json:
        Path(opts.json).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
