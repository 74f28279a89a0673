"""Benchmark of ``herzla review`` (see benchmarks/README.md).

Whole seeded hands played by the simulator's heuristic player in all seats, each reviewed
(every play solved for the seat that played).  It prints, per hand (medians and worst):

- whole process: ``herzla review FILE --json`` as a fresh process, wall and CPU seconds (its own
  and its workers'), on the pure path (``HERZLA_PURE=1``) and by default (with numba installed,
  the compiled path from 20 cards still to play), and the start-up of ``herzla --version`` for
  scale; the numba cache is warmed by one review first;
- in this process: the CPU seconds of the one solve from the first card for seat 0 that a review
  begins with, and of the review, on each path, and their ratio (a review costs that many
  whole-deal solves);
- the wall time of the reviews on ``--jobs`` processes (whole process).

    python benchmarks/bench_review.py                       # herzla normal, 10 hands
    python benchmarks/bench_review.py --hands 4 --game herzeln --contract no-hearts --jobs 1 2
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bytecode import compile_tree, describe  # this folder: the script's own

from herzla.analysis.review import review
from herzla.analysis.search import compiled
from herzla.analysis.solve import solve
from herzla.cards import cards_of
from herzla.contracts import contract_class
from herzla.sim.reference import play_hand
from herzla.support.streams import seeded_deal

ROOT = Path(__file__).resolve().parents[1]


def hands(game: str, contract_id: str, players: int, count: int) -> list[dict[str, Any]]:
    """``count`` seeded deals played to the end by the heuristic player."""
    contract = contract_class(game, contract_id).default(players)
    out = []
    for seed in range(1, count + 1):
        deal = seeded_deal(contract.pack(), players, contract.hand_size, seed)
        _, plays = play_hand(contract, list(deal), players - 1, [0] * 64, "heuristic")
        out.append({"game": game, "contract": contract_id, "players": players,
                    "dealer": players - 1, "declarer": contract.declarer,
                    "hands": [[str(c) for c in cards_of(h)] for h in deal], "plays": plays})
    return out


def whole_process(args: list[str], pure: bool) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, its workers' included) of ``herzla ARGS`` as a
    fresh process."""
    env = dict(os.environ)
    env.pop("HERZLA_PURE", None)
    if pure:
        env["HERZLA_PURE"] = "1"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "herzla", *args], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def line(label: str, values: list[float]) -> str:
    return f"  {label:<44} median {statistics.median(values):6.3f}, worst {max(values):6.3f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="herzla")
    ap.add_argument("--contract", default="normal")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--hands", type=int, default=10)
    ap.add_argument("--jobs", type=int, nargs="*", default=[1, 2])
    args = ap.parse_args()
    compile_tree(ROOT)
    print(f"herzla review benchmark: Python {platform.python_version()}, "
          f"{platform.platform()}, load average {os.getloadavg()[0]:.2f}; {describe()}")
    records = hands(args.game, args.contract, args.players, args.hands)
    numba = compiled.available()
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for i, rec in enumerate(records):
            path = Path(tmp) / f"hand{i}.json"
            path.write_text(json.dumps(rec))
            files.append(str(path))
        plays = [len(review(rec, start=len(rec["plays"])).steps) for rec in records]
        print(f"{args.game} {args.contract}, {args.players} players, {len(records)} hands of "
              f"{statistics.mean(plays):.1f} plays; seconds per hand:")
        paths = [("pure", True)] + ([("default", False)] if numba else [])
        if numba:
            whole_process(["review", files[0], "--json"], False)  # the numba cache warm
        start = [whole_process(["--version"], False) for _ in range(3)]
        print(line("whole process, herzla --version: wall", [w for w, _ in start]))
        print(line("                                 CPU", [c for _, c in start]))
        for name, pure in paths:
            got = [whole_process(["review", f, "--json"], pure) for f in files]
            print(line(f"whole process, review, {name}: wall", [w for w, _ in got]))
            print(line("                                 CPU", [c for _, c in got]))
        for jobs in args.jobs:
            got = [whole_process(["review", f, "--json", "--jobs", str(jobs)], False)
                   for f in files]
            print(line(f"whole process, review --jobs {jobs}: wall", [w for w, _ in got]))
    first: dict[str, list[float]] = {}
    whole: dict[str, list[float]] = {}
    for name in ("pure", "compiled") if numba else ("pure",):
        if name == "compiled":  # loaded, and its cached code too, before the clock runs
            importlib.import_module(compiled.KERNEL)
            review(records[0])
        for rec in records:
            with compiled.pure() if name == "pure" else contextlib.nullcontext():
                t = time.process_time()
                solve(dict(rec, plays=[]), seat=0)
                first.setdefault(name, []).append(time.process_time() - t)
                t = time.process_time()
                review(rec)
                whole.setdefault(name, []).append(time.process_time() - t)
        print(line(f"this process, {name}: first-card solve, CPU", first[name]))
        print(line("                        review, CPU", whole[name]))
        print(f"  {'review / first solve (medians)':<44} "
              f"{statistics.median(whole[name]) / statistics.median(first[name]):.1f}")


if __name__ == "__main__":
    main()
