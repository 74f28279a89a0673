"""Benchmark the ``net`` policy's batch form against the heuristic's: hands a second of
``herzla simulate ... --policy net`` and ``--policy heuristic`` on the batch engine, measured in
pairs in one run (heuristic, then at once net, so that both meet the same load of the machine),
and their ratio (the goal: net at least 1/25 of the heuristic).

Every measurement is a fresh ``python -m herzla simulate ... --json`` process; the rate is its
``hands_per_s`` (worker start-up included, interpreter start-up and imports not).

    nice -n 19 python benchmarks/bench_net.py                    # 2e5 hands, --jobs 2, 3 pairs
    python benchmarks/bench_net.py --hands 2e4 --jobs 1 --repeat 1 --cases herzla/normal

Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

CASES = {
    "herzla/normal": ("herzla", "--contract", "normal"),
    "herzla/bidding": ("herzla",),
    "herzla/mord": ("herzla", "--contract", "mord", "--declarer", "0"),
    "herzla/session20": ("herzla", "--session", "20", "--contract", "normal"),
}


def rate(args: tuple[str, ...], policy: str, hands: str, jobs: int, seed: int) -> float:
    out = subprocess.run([sys.executable, "-m", "herzla", "simulate", *args, "--policy", policy,
                          "--hands", hands, "--jobs", str(jobs), "--seed", str(seed), "--json",
                          "--engine", "batch"], check=True, capture_output=True, text=True)
    return float(json.loads(out.stdout)["hands_per_s"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", default="2e5")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cases", nargs="*", default=["herzla/normal"], choices=sorted(CASES))
    a = ap.parse_args()
    print(f"hands a second on the batch engine, {a.hands} hands, --jobs {a.jobs}, "
          f"{a.repeat} pairs (heuristic, then net):")
    for name in a.cases:
        ratios = []
        for k in range(a.repeat):
            h = rate(CASES[name], "heuristic", a.hands, a.jobs, k + 1)
            n = rate(CASES[name], "net", a.hands, a.jobs, k + 1)
            ratios.append(h / n)
            print(f"  {name:18} heuristic {h:10,.0f}   net {n:9,.0f}   heuristic/net {h / n:5.1f}")
        print(f"  {name:18} median heuristic/net {statistics.median(ratios):.1f} "
              f"(range {min(ratios):.1f} to {max(ratios):.1f}; the goal: at most 25)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
