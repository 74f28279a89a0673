"""``herzla simulate`` against a bare numpy loop (``bare_loop.py``): hands per second of random
Herzla hands (``--contract normal``), ``--jobs 1`` and ``--jobs 2``, in one run.

Each round runs, one after the other, each in a fresh process: the bare loop, then
``herzla simulate herzla --contract normal --hands N --jobs J --json`` for each ``--jobs``, and,
with ``--baseline DIR``, the same commands from another source tree (e.g. an older version
unpacked with ``git archive``), so that every engine meets the same load; the table gives the
median over the rounds.  Two rates per run:

- ``hands/s``: the run's own rate (the bare loop's timed loop; ``hands_per_s`` of ``--json``:
  the simulation, worker start-up included, interpreter start-up and imports not);
- ``wall hands/s``: hands divided by the whole process's wall-clock time.

    python benchmarks/compare_bare.py                      # 1e7 hands, 3 rounds
    python benchmarks/compare_bare.py --hands 2e6 --rounds 5 --baseline /tmp/herzla-main
    python benchmarks/compare_bare.py --wait-idle 0.9        # on a shared machine

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
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bytecode import compile_tree, describe  # this folder: the script's own

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Runs:
    name: str
    rates: list[float] = field(default_factory=list)
    walls: list[float] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return statistics.median(self.rates)

    @property
    def wall(self) -> float:
        return statistics.median(self.walls)


def _cpu_times() -> tuple[int, int]:
    """(idle, total) jiffies of all CPUs since boot (Linux)."""
    with open("/proc/stat", encoding="ascii") as fh:
        fields = [int(x) for x in fh.readline().split()[1:]]
    return fields[3] + fields[4], sum(fields)


def wait_idle(share: float, seconds: float = 2.0, patience: float = 900.0) -> None:
    """Wait until the CPUs were at least ``share`` idle over ``seconds`` (other work done),
    for at most ``patience`` seconds."""
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        idle0, total0 = _cpu_times()
        time.sleep(seconds)
        idle1, total1 = _cpu_times()
        if total1 > total0 and (idle1 - idle0) / (total1 - total0) >= share:
            return
    print(f"  (the machine stayed busy for {patience:.0f} s: measuring anyway)", flush=True)


IDLE: list[float] = []  # the idle share to wait for before each run (--wait-idle)


def timed(cmd: list[str], env: dict[str, str]) -> tuple[dict[str, float], float]:
    if IDLE:
        wait_idle(IDLE[0])
    # from a folder of no source tree, so that PYTHONPATH decides which herzla runs
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env,
                          cwd=tempfile.gettempdir())
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr}")
    answer: dict[str, float] = json.loads(proc.stdout)
    return answer, wall


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=float, default=1e7, help="hands per run (default 1e7)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--baseline", metavar="DIR",
                    help="also run herzla from this source tree (e.g. the previous version)")
    ap.add_argument("--json", metavar="FILE", help="also write every run as JSON")
    ap.add_argument("--wait-idle", type=float, metavar="SHARE",
                    help="before each run, wait until the CPUs were this idle over 2 s "
                         "(e.g. 0.9: nothing else running), so shared machines measure less "
                         "of the others' work (Linux)")
    args = ap.parse_args(argv)
    if args.wait_idle:
        IDLE.append(args.wait_idle)
    n = int(args.hands)

    trees = {"herzla": ROOT}
    if args.baseline:
        trees["baseline"] = Path(args.baseline).resolve()
    for tree in trees.values():
        compile_tree(tree)
    runs: dict[str, Runs] = {"bare loop": Runs("bare loop")}
    print(f"Python {platform.python_version()}, {os.cpu_count()} CPUs, {platform.platform()}; "
          f"{n:,} random herzla normal hands per run, {args.rounds} rounds; {describe()}")
    for r in range(args.rounds):
        answer, wall = timed([sys.executable, str(ROOT / "benchmarks" / "bare_loop.py"),
                              "--hands", str(n), "--seed", str(r + 1), "--json"],
                             dict(os.environ))
        runs["bare loop"].rates.append(answer["hands_per_s"])
        runs["bare loop"].walls.append(n / wall)
        for label, tree in trees.items():
            env = {**os.environ, "PYTHONPATH": str(tree)}
            check = subprocess.run([sys.executable, "-c", "import herzla; print(herzla.__file__)"],
                                   capture_output=True, text=True, env=env,
                                   cwd=tempfile.gettempdir())
            if not check.stdout.startswith(str(tree)):
                raise SystemExit(f"{label}: herzla comes from {check.stdout.strip()}, not {tree}")
            for jobs in args.jobs:
                name = f"{label} --jobs {jobs}"
                answer, wall = timed([sys.executable, "-m", "herzla", "simulate", "herzla",
                                      "--contract", "normal", "--hands", str(n), "--seed",
                                      str(r + 1), "--jobs", str(jobs), "--json",
                                      "--no-progress"], env)
                runs.setdefault(name, Runs(name)).rates.append(answer["hands_per_s"])
                runs[name].walls.append(n / wall)
        print(f"  round {r + 1}: " + ", ".join(f"{k} {v.rates[-1]:,.0f}"
                                                for k, v in runs.items()), flush=True)

    bare = runs["bare loop"]
    print(f"\n{'':<22} {'hands/s':>11} {'/ bare':>7} {'wall hands/s':>13} {'/ bare':>7}")
    for name, rr in runs.items():
        print(f"{name:<22} {rr.rate:>11,.0f} {rr.rate / bare.rate:>7.2f} {rr.wall:>13,.0f} "
              f"{rr.wall / bare.wall:>7.2f}")
    print("(medians over the rounds; '/ bare': divided by the bare loop's median)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({k: {"hands_per_s": v.rates, "wall_hands_per_s": v.walls}
                       for k, v in runs.items()}, fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
