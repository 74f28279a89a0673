"""Benchmark ``expert``'s CPU time per decision in the pure path (numpy, no numba) as a match
spends it, beside the heuristic's, in one run.

    python benchmarks/bench_expert.py                     # the run of docs/policies.md
    python benchmarks/bench_expert.py --deals 4 --spec 'expert[worlds=48]'

For each ``--spec`` (default: the defaults and the parameters docs/policies.md lists the cost
of) and for ``heuristic``, it plays a duplicate match of ``--deals`` seeded Herzla normal deals
against the heuristic (``herzla.match(..., engine="reference", jobs=1)``: the spec in two seats,
the heuristic itself against ``net``;
both seatings, every cost of a match paid: views, the policy's own caches, the settling), and the
same match with ``random`` in the spec's seats; the process's CPU time of the first less the
second, over the spec's decisions (8 a seat a deal a seating), is what one decision costs in a
match.  The match's own cost (dealing, the heuristic's seats, the views of the random seats) is
in both and drops out.  A spec's own per-``card()`` times (``time.process_time`` around each
call) are printed beside it, as the earlier version of this benchmark measured.  Numba's
compiler is switched off before herzla is imported (``NUMBA_DISABLE_JIT=1``,
``HERZLA_PURE=1``).  Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_DISABLE_JIT", "1")
os.environ.setdefault("HERZLA_PURE", "1")

sys.path.insert(0, str(Path(__file__).parent))

from bench_ladder import load, quantiles, timed_hands

from herzla.players import policy_of
from herzla.sim.match import match

SPECS = ("expert", "expert[worlds=12]", "expert[worlds=48]", "expert[enumerate=0]",
         "expert[exact=0]", "expert[exact=3]")
#: the player whose seats the spec's are compared with: it costs next to nothing a decision
NOTHING = "random"


def match_cpu(spec: str, against: str, deals: int, seed: int) -> float:
    """The CPU time of a duplicate match of ``spec`` against ``against`` in this process."""
    start = time.process_time()
    match("herzla", [spec, against], "normal", deals=deals, seed=seed, jobs=1,
          engine="reference")
    return time.process_time() - start


def per_decision(spec: str, deals: int, seed: int) -> tuple[float, int]:
    """What one of ``spec``'s decisions costs in a match (seconds), and its decisions: against
    the heuristic (the heuristic itself against ``net``)."""
    against = "net" if spec == "heuristic" else "heuristic"
    decisions = deals * 2 * 2 * 8  # deals x seatings x the spec's seats x cards
    spent = match_cpu(spec, against, deals, seed) - match_cpu(NOTHING, against, deals, seed)
    return spent / decisions, decisions


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", "--hands", dest="deals", type=int, default=20,
                    help="Herzla normal deals (20; --hands: the name before)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--spec", action="append", help="a policy to time (repeatable)")
    ap.add_argument("--no-calls", action="store_true",
                    help="leave out the per-card() times")
    args = ap.parse_args(argv)
    print(f"CPU per decision as a match spends it: Python {platform.python_version()}, "
          f"{sys.platform}, NUMBA_DISABLE_JIT={os.environ['NUMBA_DISABLE_JIT']}, "
          f"HERZLA_PURE={os.environ['HERZLA_PURE']}, {args.deals} Herzla normal deals x 2 "
          f"seatings against the heuristic, less the same with {NOTHING} in the spec's seats, "
          f"seed {args.seed}, {time.strftime('%Y-%m-%d %H:%M')}, load {load()}")
    match_cpu("heuristic", "net", 1, args.seed)  # imports and first-use caches, paid by neither
    for spec in ("heuristic", *(args.spec or SPECS)):
        each, n = per_decision(spec, args.deals, args.seed)
        calls = ""
        if not args.no_calls and spec != "heuristic":
            log = timed_hands([policy_of(spec), policy_of("heuristic")], args.deals,
                              args.seed)[0]
            med, p95, mean = quantiles(log)
            calls = (f"; card() alone: median {med * 1000:.1f} ms, 95th percentile "
                     f"{p95 * 1000:.1f} ms, mean {mean * 1000:.1f} ms")
        print(f"  {spec:<24} {n:5d} decisions: {each * 1000:7.2f} ms a decision in a match"
              f"{calls} (load {load()})", flush=True)


if __name__ == "__main__":
    main()
