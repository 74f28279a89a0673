"""The statistics docs/cli.md gives twice, under the heuristic's play and under ``net``'s: what
Beddl and Mord are worth to the declarer, how often Schleichermord happens, the stock at the end
of an evening, the Herzeln partie per seat.  Each runs ``herzla simulate ... --json`` on the
batch engine with the same seed for both policies (so both see the same cards) and prints a
markdown table.

    nice -n 19 python benchmarks/strong_stats.py                  # 2e5 hands a question
    python benchmarks/strong_stats.py --hands 2e4 --seed 5

Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from typing import Any

POLICIES = ("heuristic", "net")


def simulate(args: list[str], policy: str, hands: str, seed: int, jobs: int) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-m", "herzla", "simulate", *args, "--policy", policy,
                          "--hands", hands, "--seed", str(seed), "--jobs", str(jobs), "--json"],
                         check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def ci(stat: dict[str, Any], scale: float = 1.0) -> str:
    lo, hi = stat["ci95"]
    return f"{stat['mean'] * scale:+.1f} ({lo * scale:+.1f} to {hi * scale:+.1f})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", default="2e5")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    rows: list[tuple[str, list[str]]] = []

    def per(policy_rows: list[str], name: str) -> None:
        rows.append((name, policy_rows))

    bid = {p: simulate(["herzla"], p, a.hands, a.seed, a.jobs) for p in POLICIES}
    for c in ("beddl", "mord"):
        cells = []
        for p in POLICIES:
            k = bid[p]["contracts"][c]
            made, lost, n = k["made"], k["lost"], k["hands"]
            # made: the three defenders pay the declarer the stake (80c); lost: the reverse
            cells.append(f"{n} announced, {made / n:.1%} made, {240 * (made - lost) / n:+.0f}c "
                         f"a hand to the declarer" if n else "never announced")
        per(cells, f"{c.title()} where the bidding heuristic announces it ({a.hands} hands)")
    for c in ("beddl", "mord"):
        res = {p: simulate(["herzla", "--contract", c, "--declarer", "0"], p, a.hands, a.seed,
                           a.jobs) for p in POLICIES}
        per([ci(res[p]["seats"][0]) + f", made {res[p]['event_rates'].get('contract-made', 0):.1%}"
             for p in POLICIES], f"{c.title()} on any hand: the declarer's cents a hand")
    normal = {p: simulate(["herzla", "--contract", "normal"], p, a.hands, a.seed, a.jobs)
              for p in POLICIES}
    for ev in ("schleichermord", "two-void", "one-void", "no-void", "all-hearts"):
        per([f"{normal[p]['event_rates'].get(ev, 0):.2%}" for p in POLICIES],
            f"normal game: {ev}")
    evenings = str(max(1, int(float(a.hands)) // 20))
    ses = {p: simulate(["herzla", "--session", "20", "--contract", "normal"], p, evenings,
                       a.seed, a.jobs) for p in POLICIES}
    per([ci(ses[p]["session"]["stock_end"]) + "c" for p in POLICIES],
        f"the stock at the end of an evening of 20 normal games ({evenings} evenings)")
    parties = str(max(1, int(float(a.hands)) // 8))
    her = {p: simulate(["herzeln", "--partie"], p, parties, a.seed, a.jobs) for p in POLICIES}
    for s in range(4):
        per([ci(her[p]["seats"][s]) + f", wins {her[p]['win_rates'][s]:.1%}" for p in POLICIES],
            f"Herzeln partie, seat {s} ({parties} parties)")
    print("| question | " + " | ".join(POLICIES) + " |")
    print("|---|" + "---|" * len(POLICIES))
    for name, cells in rows:
        print(f"| {name} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
