"""How long a person waits at a table against the computer: the table app's answers through
Flask's test client (no network), per policy: each ``POST /api/tables/{id}/play`` (the person's
card, then the computer's seats up to the person's next turn), each ``GET .../hint``, and the
last answer of a hand, which also reviews the person's cards.

    python benchmarks/bench_table.py                    # heuristic and pimc, 3 deals a game
    HERZLA_PURE=1 python benchmarks/bench_table.py      # the same without the compiled solver
    python benchmarks/bench_table.py --deals 6 --policies pimc --json table.json

The compiled solver is warmed up first, as ``herzla serve`` does when it starts.  Needs the web
extra.  Times are wall seconds of this process (median, 95th percentile, slowest).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

#: the tables played: trick deals of every game (the layout deals' computer is the heuristic's)
TABLES = ({"game": "herzla", "contract": "normal"}, {"game": "herzeln", "contract": "no-queens"},
          {"game": "herzerln", "contract": "hearts", "players": 3},
          {"game": "herzla-kids", "players": 4})


def _summary(xs: list[float]) -> dict[str, float]:
    s = sorted(xs)
    return {"n": len(s), "median": statistics.median(s), "p95": s[min(len(s) - 1,
                                                                     int(0.95 * len(s)))],
            "max": s[-1]}


def run(policy: str, deals: int) -> dict[str, dict[str, float]]:
    from herzla.web.app import create_app
    from herzla.web.store import Store

    client = create_app(Store(Path(tempfile.mkdtemp()) / "bench.db")).test_client()
    plays: list[float] = []
    hints: list[float] = []
    lasts: list[float] = []
    for seed in range(deals):
        for body in TABLES:
            t: Any = client.post("/api/tables", json={**body, "seed": seed, "seat": seed % 3,
                                                      "opponents": policy}).get_json()
            while not t["over"]:
                began = time.perf_counter()
                advice = client.get(f"/api/tables/{t['id']}/hint").get_json()
                hints.append(time.perf_counter() - began)
                began = time.perf_counter()
                t = client.post(f"/api/tables/{t['id']}/play",
                                json={"card": advice["card"]}).get_json()
                (lasts if t["over"] else plays).append(time.perf_counter() - began)
    return {"play": _summary(plays), "hint": _summary(hints), "last": _summary(lasts)}


def main() -> None:
    ask = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ask.add_argument("--deals", type=int, default=3, help="deals of each table (default 3)")
    ask.add_argument("--policies", nargs="+", default=["heuristic", "pimc"])
    ask.add_argument("--json", metavar="FILE")
    args = ask.parse_args()
    from herzla.analysis.warmup import warm_up

    began = time.perf_counter()
    how = warm_up()
    print(f"table app benchmark: Python {platform.python_version()}, {os.cpu_count()} CPUs; "
          f"solver {how} (warm-up {time.perf_counter() - began:.1f} s)")
    out: dict[str, Any] = {"solver": how}
    for policy in args.policies:
        got = run(policy, args.deals)
        out[policy] = got
        for what, s in got.items():
            print(f"  {policy:<10} {what:<5} n={s['n']:<4} median {s['median']:.3f} s  "
                  f"p95 {s['p95']:.3f} s  slowest {s['max']:.3f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
