"""Benchmark ``expert``'s CPU time per decision in the pure path (numpy, no numba), over whole
Herzla normal hands against the heuristic, for its defaults and for a few of its parameters.

    python benchmarks/bench_expert.py                     # the run of docs/policies.md
    python benchmarks/bench_expert.py --hands 4 --spec 'expert[worlds=48]'

Each of ``--hands`` seeded Herzla normal hands is played twice (``expert, heuristic, expert,
heuristic`` and the other way round: a duplicate match's seatings), every card decision of
``expert`` timed with ``time.process_time`` in this one process; the median, the 95th percentile
and the mean are printed, for each ``--spec`` (default: the defaults and the parameters
docs/policies.md lists the cost of).  Numba's compiler is switched off before herzla is imported
(``NUMBA_DISABLE_JIT=1``), though ``expert`` does not use the solver outside Beddl and Mord.  Not
part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_DISABLE_JIT", "1")

sys.path.insert(0, str(Path(__file__).parent))

from bench_ladder import load, quantiles, timed_hands

from herzla.players import policy_of

SPECS = ("expert", "expert[worlds=12]", "expert[worlds=48]", "expert[enumerate=0]",
         "expert[exact=0]", "expert[exact=3]")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=40, help="Herzla normal hands (40)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--spec", action="append", help="a policy to time (repeatable)")
    args = ap.parse_args(argv)
    print(f"expert CPU per decision: Python {platform.python_version()}, {sys.platform}, "
          f"NUMBA_DISABLE_JIT={os.environ['NUMBA_DISABLE_JIT']}, {args.hands} Herzla normal "
          f"hands x 2 seatings against the heuristic, seed {args.seed}, "
          f"{time.strftime('%Y-%m-%d %H:%M')}, load {load()}")
    for spec in args.spec or SPECS:
        log = timed_hands([policy_of(spec), policy_of("heuristic")], args.hands, args.seed)[0]
        med, p95, mean = quantiles(log)
        print(f"  {spec:<24} {len(log):5d} decisions: median {med * 1000:6.1f} ms, "
              f"95th percentile {p95 * 1000:6.1f} ms, mean {mean * 1000:6.1f} ms "
              f"(load {load()})", flush=True)


if __name__ == "__main__":
    main()
