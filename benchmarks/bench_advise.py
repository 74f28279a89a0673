"""Benchmark of ``herzla advise`` as a player runs it: the README's example hand, whole processes,
this tree side by side with a baseline tree (the previous main) in one run.

    python benchmarks/bench_advise.py --baseline DIR      # e.g. git archive main | tar -x -C DIR
    python benchmarks/bench_advise.py --baseline DIR --repeat 5 --pure-repeat 1

For each path (the compiled kernel, numba installed: ``HERZLA_PURE=0``; pure Python:
``HERZLA_PURE=1``) it runs ``python -m herzla advise herzla --hand "CT C7 SJ S8 H9 H7 D9 D7"
--samples 200`` (every choice, the default processes) from this tree and from the baseline,
alternating, ``--repeat`` times (``--pure-repeat`` on the pure path), and reports the medians of
the wall time and of the CPU time (the process and its helpers), and each tree's recommendation.
Both trees are compiled to bytecode first, as an installed herzla is (benchmarks/bytecode.py).
Wall time is what a player waits; on a machine other work loads, the CPU time says what the
run itself cost.  Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
from pathlib import Path

from bench_solve import PATH_ENV, check_tree, timed_cpu
from bytecode import compile_tree, describe

ROOT = Path(__file__).resolve().parents[1]
HAND = "CT C7 SJ S8 H9 H7 D9 D7"


def run(tree: Path | None, path: str, samples: int) -> tuple[float, float, dict[str, object]]:
    cmd = [sys.executable, "-m", "herzla", "advise", "herzla", "--hand", HAND, "--samples",
           str(samples), "--json", "--no-progress"]
    wall, cpu, out = timed_cpu(cmd, PATH_ENV[path], tree)
    return wall, cpu, json.loads(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", metavar="DIR", required=True,
                    help="the previous main's source tree")
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pure-repeat", type=int, default=None)
    ap.add_argument("--paths", default="compiled,pure")
    args = ap.parse_args()
    baseline = Path(args.baseline).resolve()
    check_tree(baseline)
    for tree in (ROOT, baseline):
        compile_tree(tree)
    print(f"herzla advise benchmark: Python {platform.python_version()}, "
          f"{platform.platform()}; {describe()}; hand {HAND}, {args.samples} samples, every "
          f"choice, default processes; medians")
    for path in args.paths.split(","):
        repeat = args.repeat if path != "pure" or args.pure_repeat is None else args.pure_repeat
        times: dict[str, list[tuple[float, float]]] = {"this tree": [], "baseline": []}
        answers: dict[str, dict[str, object]] = {}
        for _ in range(repeat):
            for name, tree in (("this tree", None), ("baseline", baseline)):
                wall, cpu, ans = run(tree, path, args.samples)
                times[name].append((wall, cpu))
                answers[name] = ans
        print(f"\n{path} path ({repeat} runs each, alternating):")
        med = {}
        for name, got in times.items():
            wall = statistics.median(w for w, _ in got)
            cpu = statistics.median(c for _, c in got)
            med[name] = (wall, cpu)
            ans = answers[name]
            print(f"  {name:<10} wall {wall:6.2f} s, CPU {cpu:6.2f} s; recommends "
                  f"{ans['recommendation']} (basis: {ans.get('basis', 'heuristic')})")
        (bw, bc), (ow, oc) = med["baseline"], med["this tree"]
        print(f"  this tree against the baseline: {bw / ow:.1f}x the wall time, "
              f"{bc / oc:.1f}x the CPU time")


if __name__ == "__main__":
    main()
