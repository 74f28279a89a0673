"""Benchmark ``herzla simulate``: hands per second of the batch and the reference engine, and peak
memory against the number of hands.

Every measurement runs the command line end to end in a fresh process
(``python -m herzla simulate ... --json``) and reads ``hands_per_s`` from its answer (the time
the simulation took, worker start-up included; interpreter start-up and imports excluded); the
wall-clock rate of the whole process is printed beside it.  Peak memory is the ``ru_maxrss`` of
the child process (the largest of it and its workers).

    python benchmarks/bench_sim.py            # the full run (about five minutes on 2 cores)
    python benchmarks/bench_sim.py --quick    # a smaller run (about a minute)
    python benchmarks/bench_sim.py --json results.json
    python benchmarks/bench_sim.py --cases herzla/normal herzla/session20 --repeat 5

Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from bytecode import compile_tree, describe  # this folder: the script's own

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Case:
    """One simulated deal type: its name, the simulate arguments, and hands per unit counted."""

    name: str
    args: tuple[str, ...]
    deals: int = 1  # a partie counts as this many hands


CASES = (
    Case("herzla normal", ("herzla", "--contract", "normal")),
    Case("herzla bidding", ("herzla",)),
    Case("herzla mord", ("herzla", "--contract", "mord", "--declarer", "0")),
    Case("herzla-kids 5p", ("herzla-kids", "--players", "5")),
    Case("herzeln partie", ("herzeln", "--partie"), 8),
    Case("herzerln partie", ("herzerln", "--partie"), 6),
    # evenings of 20 normal games, the stock carried from deal to deal (against herzla normal)
    Case("herzla session20", ("herzla", "--session", "20", "--contract", "normal"), 20),
)
POLICIES = ("random", "heuristic")


@dataclass
class Measure:
    case: str
    policy: str
    engine: str
    jobs: int
    hands: int
    hands_per_s: float
    wall_hands_per_s: float
    peak_rss_mb: float


def simulate(case: Case, policy: str, engine: str, jobs: int, hands: int,
             seed: int = 1) -> Measure:
    """Run one ``herzla simulate`` in a child process and measure it."""
    units = max(1, hands // case.deals)
    cmd = [sys.executable, "-m", "herzla", "simulate", *case.args, "--policy", policy,
           "--engine", engine, "--jobs", str(jobs), "--hands", str(units), "--seed", str(seed),
           "--json", "--no-progress"]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    assert proc.stdout is not None and proc.stderr is not None
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{err}")
    answer: dict[str, Any] = json.loads(out)
    played = units * case.deals
    # ru_maxrss is in KiB on Linux, in bytes on macOS
    rss = usage.ru_maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)
    return Measure(case.name, policy, engine, jobs, played, float(answer["hands_per_s"]),
                   played / wall, rss)


def best_of(repeat: int, case: Case, policy: str, engine: str, jobs: int,
            hands: int) -> Measure:
    """The fastest of ``repeat`` runs (the others were slowed by whatever else ran)."""
    runs = [simulate(case, policy, engine, jobs, hands) for _ in range(max(1, repeat))]
    return max(runs, key=lambda m: m.hands_per_s)


def session_ratios(hands: int, jobs: list[int], repeat: int) -> list[dict[str, Any]]:
    """Evenings against single hands, measured in pairs: ``repeat`` times a run of single hands
    (``--contract normal``) and at once a run of evenings (``--session 20``) of as many hands,
    so that both meet the same load of the machine; the ratios of the pairs' hands per second,
    their median and range."""
    single = next(c for c in CASES if c.name == "herzla normal")
    evening = next(c for c in CASES if c.name == "herzla session20")
    print("\nevenings (--session 20 --contract normal) / single hands (--contract normal), batch "
          f"engine, hands per second, {repeat} pairs of runs one after the other:")
    out = []
    for policy in POLICIES:
        for j in jobs:
            ratios = []
            for _ in range(repeat):
                one = simulate(single, policy, "batch", j, hands)
                many = simulate(evening, policy, "batch", j, hands)
                ratios.append(many.hands_per_s / one.hands_per_s)
            ratios.sort()
            median = ratios[len(ratios) // 2]
            print(f"  {policy:<10} jobs {j}: median {median:.2f}x (from {ratios[0]:.2f}x to "
                  f"{ratios[-1]:.2f}x)")
            out.append({"policy": policy, "jobs": j, "ratios": ratios, "median": median})
    return out


def fmt_rate(x: float) -> str:
    return f"{x:>12,.0f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller runs (a quick look)")
    ap.add_argument("--hands", type=float, help="hands per batch-engine run "
                    "(default 2,000,000; --quick 200,000)")
    ap.add_argument("--ref-hands", type=float, help="hands per reference-engine run "
                    "(default 4,000; --quick 800)")
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2],
                    help="worker processes to try for the batch engine (default: 1 2)")
    ap.add_argument("--cases", nargs="+", choices=[c.name.split()[0] + "/" + c.name.split()[1]
                                                   for c in CASES],
                    help="only these cases (e.g. herzla/normal herzeln/partie)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="run each measurement this many times and keep the fastest "
                         "(default 1; a busy machine wants 3 or more)")
    ap.add_argument("--no-memory", action="store_true", help="skip the peak-memory runs")
    ap.add_argument("--memory-hands", type=float, nargs=2, metavar=("SMALL", "LARGE"),
                    help="hands of the two memory runs (default 1e6 1e7; --quick 1e5 1e6)")
    ap.add_argument("--json", metavar="FILE", help="also write the measurements as JSON")
    args = ap.parse_args(argv)

    hands = int(args.hands or (200_000 if args.quick else 2_000_000))
    ref_hands = int(args.ref_hands or (800 if args.quick else 4_000))
    mem = [int(x) for x in (args.memory_hands or ((1e5, 1e6) if args.quick else (1e6, 1e7)))]
    cases = [c for c in CASES
             if not args.cases or c.name.replace(" ", "/") in args.cases]

    compile_tree(ROOT)
    print(f"herzla simulate benchmark: Python {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, {platform.platform()}; {describe()}")
    print(f"batch engine: {hands:,} hands per run; reference engine: {ref_hands:,} hands "
          f"per run (parties count their deals)\n")
    head = (f"{'case':<16} {'policy':<10} {'engine':<10} {'jobs':>4} {'hands':>10} "
            f"{'hands/s':>12} {'wall hands/s':>12} {'peak MB':>8}")
    print(head)
    print("-" * len(head))
    measures: list[Measure] = []
    ratios: list[tuple[str, str, float]] = []
    for case in cases:
        for policy in POLICIES:
            ref = best_of(args.repeat, case, policy, "reference", 1, ref_hands)
            rows = [ref] + [best_of(args.repeat, case, policy, "batch", j, hands)
                            for j in args.jobs]
            for m in rows:
                print(f"{m.case:<16} {m.policy:<10} {m.engine:<10} {m.jobs:>4} {m.hands:>10,} "
                      f"{fmt_rate(m.hands_per_s)} {fmt_rate(m.wall_hands_per_s)} "
                      f"{m.peak_rss_mb:>8.0f}")
            measures += rows
            one = next((m for m in rows[1:] if m.jobs == 1), rows[1])
            ratios.append((case.name, policy, one.hands_per_s / ref.hands_per_s))
    print("\nbatch engine (jobs 1) / reference engine, hands per second:")
    for name, policy, ratio in ratios:
        print(f"  {name:<16} {policy:<10} {ratio:>8,.0f}x")

    names = {c.name for c in cases}
    pairs: list[dict[str, Any]] = []
    if {"herzla normal", "herzla session20"} <= names:
        pairs = session_ratios(hands, args.jobs, max(3, args.repeat))

    memory: list[Measure] = []
    if not args.no_memory:
        print("\npeak memory (ru_maxrss of the child), herzla normal, policy random:")
        normal = CASES[0]
        for jobs in (1, 2):
            for n in mem:
                m = simulate(normal, "random", "auto", jobs, n)
                memory.append(m)
                print(f"  {n:>12,} hands, jobs {jobs}: {m.peak_rss_mb:>6.0f} MB "
                      f"({m.hands_per_s:,.0f} hands/s)")
        for jobs in (1, 2):
            small, large = [m for m in memory if m.jobs == jobs]
            print(f"  jobs {jobs}: {large.hands // small.hands}x the hands, "
                  f"{large.peak_rss_mb / small.peak_rss_mb:.2f}x the peak memory")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"runs": [asdict(m) for m in measures],
                       "ratios": [{"case": c, "policy": p, "batch_over_reference": r}
                                  for c, p, r in ratios],
                       "memory": [asdict(m) for m in memory],
                       "session_over_single": pairs}, fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
