"""The simulator now against the simulator at an earlier commit, in one run.

Checks out the earlier commit into a temporary git worktree, then runs
``python -m herzla simulate ... --json`` for each case, alternating the two trees (so that a busy
machine slows both alike), and reports each one's median ``hands_per_s`` and their ratio.  It also
checks that the two give the same answer (timing aside, in the keys both have), since a faster
engine that changed the numbers would be a bug.

    python benchmarks/bench_compare.py                       # against 9b8f06e (before the
                                                             # contracts declared their rules)
    python benchmarks/bench_compare.py --rev HEAD~3 --repeat 5 --hands 2e6
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bytecode import compile_tree, describe  # this folder: the script's own

ROOT = Path(__file__).resolve().parents[1]

CASES: dict[str, list[str]] = {
    "herzla normal, random": ["herzla", "--contract", "normal"],
    "herzla normal, heuristic": ["herzla", "--contract", "normal", "--policy", "heuristic"],
    "herzla bidding, heuristic": ["herzla", "--policy", "heuristic"],
    "herzla mord, random": ["herzla", "--contract", "mord"],
    "herzla-kids 5p, random": ["herzla-kids", "--players", "5"],
    "herzeln partie, random": ["herzeln", "--partie", "--hands-per-deal"],
    "herzerln partie, heuristic": ["herzerln", "--partie", "--policy", "heuristic",
                                   "--hands-per-deal"],
}


def run(tree: Path, args: list[str], hands: int) -> dict[str, Any]:
    if "--hands-per-deal" in args:
        args = [a for a in args if a != "--hands-per-deal"]
        hands = max(1, hands // 8)
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-m", "herzla", "simulate", *args, "--hands",
                          str(hands), "--seed", "11", "--jobs", "1", "--json"], cwd=tree,
                         env=env, capture_output=True, text=True, check=True)
    answer: dict[str, Any] = json.loads(out.stdout)
    return answer


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", default="9b8f06e", help="the earlier commit (default 9b8f06e)")
    ap.add_argument("--hands", type=float, default=1e6)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cases", nargs="*", default=list(CASES))
    opts = ap.parse_args()
    hands = int(opts.hands)
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "old"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(old),
                        opts.rev], check=True)
        try:
            for tree in (old, ROOT):
                compile_tree(tree)
            print(f"{describe()}")
            print(f"herzla simulate, {hands:,} hands a run (parties: {hands // 8:,}), --jobs 1, "
                  f"median of {opts.repeat}; earlier = {opts.rev}")
            print(f"{'case':<28} {'earlier h/s':>12} {'now h/s':>12} {'now/earlier':>12} "
                  f"{'same answer':>12}")
            for name in opts.cases:
                args = CASES[name]
                rates: dict[str, list[float]] = {"old": [], "new": []}
                answers: dict[str, dict[str, Any]] = {}
                for _ in range(opts.repeat):
                    for label, tree in (("old", old), ("new", ROOT)):
                        a = run(tree, args, hands)
                        rates[label].append(a.pop("hands_per_s"))
                        a.pop("elapsed_s")
                        answers[label] = a
                o, n = statistics.median(rates["old"]), statistics.median(rates["new"])
                # the keys both answers have (a later answer may add some: "rates")
                shared = answers["old"].keys() & answers["new"].keys()
                same = all(answers["old"][k] == answers["new"][k] for k in shared)
                print(f"{name:<28} {o:>12,.0f} {n:>12,.0f} {n / o:>12.2f} {same!s:>12}")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)],
                           check=False)


if __name__ == "__main__":
    main()
