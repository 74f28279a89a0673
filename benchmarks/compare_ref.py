"""This source tree against an earlier commit (the previous release, the last main), side by side:
the same commands, alternating, each a fresh process, the ratio of their times.

The earlier commit is written into a temporary folder (``git archive``: the repository gains no
worktree, and a checkout that is someone else's is never touched); each round
runs every case once from each tree, the order of the two trees swapped from round to round, so
that both meet the same load of a shared machine.  For each case it prints the median of the
rounds' ratios (this tree / the earlier one) of CPU time (user + system of the process and its
helpers) and of wall-clock time, with their range (an untimed ``herzla --version`` from each
tree first, so that the fresh copy's bytecode is written before the rounds), and checks
that both trees print the same answer (the JSON less its timings: a seeded run must not
change).

    python benchmarks/compare_ref.py --ref 0495a0a                  # the cases below, 3 rounds
    python benchmarks/compare_ref.py --ref main --rounds 5 --cases simulate
    python benchmarks/compare_ref.py --ref v0.2.0 --fail-above 1.05  # exit 1 on a slowdown
    python benchmarks/compare_ref.py --ref 0495a0a --instructions --hands 5e5  # load-proof
    python benchmarks/compare_ref.py --tree /work/main --cases simulate-ref simulate-ref-random

``--tree PATH`` compares against another source tree instead of a commit (another checkout,
read only: its ``herzla`` package is copied into a temporary folder and run from there).

With ``--instructions`` each case also runs once from each tree under valgrind's cachegrind
(``--cache-sim=no``, one BLAS thread), which counts the instructions the process and its helpers
execute: a figure the load of a shared machine does not change (about 50 times slower than a
run, so give the simulate cases fewer ``--hands``).

The cases:

- ``simulate``: ``herzla simulate herzla --contract normal --policy random --hands 1e7 --seed 1
  --jobs 1 --json`` (``--hands`` changes the number);
- ``simulate-2``: the same with ``--jobs 2``;
- ``simulate-ref``: the reference engine, ``herzla simulate herzla --contract normal --policy
  heuristic --engine reference --hands 4000 --seed 1 --jobs 1 --json`` (``--ref-hands``), what
  every policy without a batch form plays on; ``simulate-ref-random`` the same with ``random``;
- ``solve``: ``herzla solve`` of 120 seeded Beddl and Mord deals worth announcing (those of
  ``bench_solve.py``'s part 1) with ``--json``;
- ``expert``: ``herzla simulate herzla --contract normal --policy expert --hands 3 --seed 1
  --jobs 1 --json`` (every seat the expert player, on the reference engine).

Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: the fields of an answer that are timings, left out when the two answers are compared
TIMINGS = ("elapsed_s", "hands_per_s", "seconds")


def _beddl_mord_deals(path: Path) -> None:
    """Write the Beddl and Mord deals of bench_solve.py's part 1 (from this tree) to ``path``."""
    sys.path.insert(0, str(ROOT))
    from herzla.cards import PACK_32, Card, Rank, Suit, cards_of
    from herzla.support.streams import seeded_deal

    top = sum(Card(s, r).bit for s in Suit for r in (Rank.ACE, Rank.KING, Rank.QUEEN))
    lines = []
    for contract in ("beddl", "mord"):
        found, seed = 0, 0
        while found < 60:
            seed += 1
            hands = seeded_deal(PACK_32, 4, 8, seed)
            for seat in range(4):
                n = (hands[seat] & top).bit_count()
                if (contract == "beddl" and n == 0) or (contract == "mord" and n >= 6):
                    lines.append(json.dumps({
                        "game": "herzla", "contract": contract, "players": 4, "dealer": 3,
                        "declarer": seat, "stock": 0, "options": {},
                        "hands": [[str(c) for c in cards_of(h)] for h in hands], "plays": []}))
                    found += 1
                    break
    path.write_text("\n".join(lines) + "\n")


def cases(hands: str, tmp: Path, ref_hands: str = "4000"
          ) -> dict[str, Callable[[], list[str]]]:
    """Each case's command (arguments after ``python -m herzla``), made when first asked."""
    def simulate(jobs: int) -> Callable[[], list[str]]:
        return lambda: ["simulate", "herzla", "--contract", "normal", "--policy", "random",
                        "--hands", hands, "--seed", "1", "--jobs", str(jobs), "--json"]

    def reference(policy: str) -> Callable[[], list[str]]:
        return lambda: ["simulate", "herzla", "--contract", "normal", "--policy", policy,
                        "--engine", "reference", "--hands", ref_hands, "--seed", "1",
                        "--jobs", "1", "--json"]

    def solve() -> list[str]:
        deals = tmp / "deals.jsonl"
        if not deals.exists():
            _beddl_mord_deals(deals)
        return ["solve", str(deals), "--json"]

    def expert() -> list[str]:
        return ["simulate", "herzla", "--contract", "normal", "--policy", "expert", "--hands",
                "3", "--seed", "1", "--jobs", "1", "--json"]

    return {"simulate": simulate(1), "simulate-2": simulate(2), "solve": solve,
            "simulate-ref": reference("heuristic"), "simulate-ref-random": reference("random"),
            "expert": expert}


def run(tree: Path, args: list[str]) -> tuple[float, float, str]:
    """One ``python -m herzla ARGS`` process with herzla from ``tree``: its CPU time (with its
    helpers'), its wall time and its output."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "herzla", *args], capture_output=True,
                          text=True, check=True, env=env, cwd=tempfile.gettempdir())
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return cpu, wall, done.stdout


def instructions(tree: Path, args: list[str], tmp: Path) -> int:
    """The instructions one ``python -m herzla ARGS`` process and its helpers execute, counted
    by cachegrind."""
    for old in tmp.glob("cg.*.out"):
        old.unlink()
    env = {**os.environ, "PYTHONPATH": str(tree), "OPENBLAS_NUM_THREADS": "1"}
    subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                    f"--cachegrind-out-file={tmp}/cg.%p.out", sys.executable, "-m", "herzla",
                    *args], capture_output=True, text=True, check=True, env=env,
                   cwd=tempfile.gettempdir())
    total = 0
    for out in tmp.glob("cg.*.out"):
        found = re.search(r"^summary: (\d+)", out.read_text(), re.M)
        total += int(found.group(1)) if found else 0
    return total


def _without_timings(out: str) -> Any:
    """The answer (JSON, or JSON lines) less its timing fields."""
    def strip(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items() if k not in TIMINGS}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v
    try:
        return strip(json.loads(out))
    except json.JSONDecodeError:
        return [strip(json.loads(line)) for line in out.splitlines() if line.strip()]


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    which = ap.add_mutually_exclusive_group(required=True)
    which.add_argument("--ref", help="the earlier commit: a tag, a branch, a hash (git rev-parse)")
    which.add_argument("--tree", type=Path,
                       help="another source tree (read only: its herzla package is copied)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    ap.add_argument("--cases", nargs="+", default=["simulate", "simulate-2", "solve", "expert"])
    ap.add_argument("--hands", default="1e7", help="hands of the simulate cases (default 1e7)")
    ap.add_argument("--ref-hands", default="4000",
                    help="hands of the reference-engine cases (default 4000)")
    ap.add_argument("--fail-above", type=float, metavar="RATIO",
                    help="exit 1 when a case's median CPU-time ratio is above RATIO")
    ap.add_argument("--instructions", action="store_true",
                    help="also count each case's instructions once per tree (valgrind)")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = ap.parse_args()
    if args.instructions and shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
    if args.tree is not None:
        if not (args.tree / "herzla" / "__init__.py").is_file():
            raise SystemExit(f"--tree: {args.tree} holds no herzla package")
        with tempfile.TemporaryDirectory(prefix="herzla-tree-") as tmp_name:
            tmp = Path(tmp_name)
            base = tmp / "tree"
            shutil.copytree(args.tree / "herzla", base / "herzla",
                            ignore=shutil.ignore_patterns("__pycache__"))
            figures = _compare(args, str(args.tree), base, tmp)
        _finish(args, str(args.tree), figures)
        return
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.ref],
                         capture_output=True, text=True)
    if rev.returncode:
        raise SystemExit(f"--ref: git knows no commit {args.ref!r}")
    ref = rev.stdout.strip()
    with tempfile.TemporaryDirectory(prefix="herzla-ref-") as tmp_name:
        tmp = Path(tmp_name)
        base = tmp / f"herzla-{ref}"
        base.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "herzla"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        figures = _compare(args, ref, base, tmp)
    _finish(args, ref, figures)


def _finish(args: argparse.Namespace, ref: str, figures: dict[str, Any]) -> None:
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")
    if args.fail_above is not None:
        slow = [c for c, f in figures["cases"].items() if f["cpu_ratio"] > args.fail_above]
        if slow:
            print(f"slower than {ref} by more than {args.fail_above}x: {', '.join(slow)}")
            raise SystemExit(1)


def _compare(args: argparse.Namespace, ref: str, base: Path, tmp: Path) -> dict[str, Any]:
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True, check=True).stdout.strip()
    print(f"this tree ({ROOT}, HEAD {head}) against {ref}, {args.rounds} rounds, alternating; "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at the start")
    commands = cases(args.hands, tmp, args.ref_hands)
    unknown = [c for c in args.cases if c not in commands]
    if unknown:
        raise SystemExit(f"--cases: no case {unknown[0]!r} (the cases: {', '.join(commands)})")
    trees = {"ref": base, "this": ROOT}
    for tree in trees.values():  # untimed: the fresh copy writes its bytecode here
        run(tree, ["--version"])
    out: dict[str, Any] = {"ref": ref, "head": head, "rounds": args.rounds, "cases": {}}
    for case in args.cases:
        cmd = commands[case]()
        times: dict[str, list[tuple[float, float]]] = {"ref": [], "this": []}
        answers: dict[str, Any] = {}
        for r in range(args.rounds):
            for who in (("ref", "this") if r % 2 == 0 else ("this", "ref")):
                cpu, wall, text = run(trees[who], cmd)
                times[who].append((cpu, wall))
                answers.setdefault(who, _without_timings(text))
        same = answers["ref"] == answers["this"]
        cpu_r = [t[0] / b[0] for t, b in zip(times["this"], times["ref"], strict=True)]
        wall_r = [t[1] / b[1] for t, b in zip(times["this"], times["ref"], strict=True)]
        med = {w: (statistics.median(x[0] for x in times[w]),
                   statistics.median(x[1] for x in times[w])) for w in times}
        print(f"\n{case}: herzla {' '.join(cmd)}")
        print(f"   {ref}: CPU {med['ref'][0]:.2f} s, wall {med['ref'][1]:.2f} s;  this tree: "
              f"CPU {med['this'][0]:.2f} s, wall {med['this'][1]:.2f} s (medians)")
        print(f"   this / {ref}: CPU time {_spread(cpu_r)}, wall time {_spread(wall_r)} "
              f"(median of the rounds' ratios, range); the answers "
              f"{'are the same' if same else 'DIFFER'}")
        out["cases"][case] = {"command": cmd, "ref_s": times["ref"], "this_s": times["this"],
                              "cpu_ratio": statistics.median(cpu_r),
                              "wall_ratio": statistics.median(wall_r), "same_answer": same}
        if args.instructions:
            counts = {who: instructions(trees[who], cmd, tmp) for who in ("ref", "this")}
            print(f"   instructions: {ref} {counts['ref']:.3e}, this tree {counts['this']:.3e}: "
                  f"this / {ref} {counts['this'] / counts['ref']:.3f}")
            out["cases"][case]["instructions"] = counts
    return out


if __name__ == "__main__":
    main()
