"""Benchmark of ``herzla solve`` and ``herzla advise`` (see benchmarks/README.md).

In one run, on the same deals:

1. whole Beddl and Mord deals whose declarer holds a hand worth announcing (Beddl: no Ace, King or
   Ober; Mord: at least six of them), solved from the first card, end to end: one
   ``python -m herzla solve DEALS.jsonl --json`` process against one
   ``python benchmarks/bare_search.py DEALS.jsonl`` process (the bare alpha-beta yardstick); the
   answers must agree; and the same ``herzla solve`` with ``--jobs 1`` (one process: on a
   machine other work loads, its helper's share of the cores is not the solver's to count);
2. what each technique buys: the same deals (and normal-game positions) solved in this process
   with one technique switched off at a time (nodes and seconds), the normal positions on both
   paths (pure Python and the compiled kernel);
3. whole normal deals solved for seat 0, in this process, on both paths: median and worst time
   (wall clock and CPU time)
   (the compiled path's first solve, which loads the kernel, reported apart); and the same deals
   as one ``herzla solve`` process per path (``HERZLA_PURE=1`` for the pure one);
4. ``herzla advise`` on both paths, whole processes, alternating, medians: wall time per sample
   (the pure path may be given fewer samples, ``--pure-samples``); and, alternating with them,
   one ``python benchmarks/bare_normal.py`` process (the bare alpha-beta yardstick doing one
   advise sample's double-dummy work: the normal game's cents for the seat, Beddl and Mord
   made/lost) on the first ``--bare-samples`` of advise's own sampled deals, whose answers must
   agree with herzla's: the ratios of time per sample;
5. with ``--cold``: the compiled path's first run ever (an empty numba cache): advise.

The compiled path needs numba (``pip install 'herzla[fast]'``).

    python benchmarks/bench_solve.py                  # the full run (several minutes)
    python benchmarks/bench_solve.py --quick          # fewer deals, advise with 200 samples
    python benchmarks/bench_solve.py --skip 1,2,3 --advise-samples 200 --pure-samples 20
                                                      # advise against the bare search alone
    python benchmarks/bench_solve.py --skip 2,3,4 --baseline DIR   # part 1, also from DIR
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bytecode import compile_tree, describe  # this folder: the script's own
from compare_bare import wait_idle

from herzla.analysis.search import compiled
from herzla.analysis.search.scoring import trick_score
from herzla.analysis.search.trick_search import Features, TrickSearch
from herzla.analysis.solve import solve
from herzla.cards import PACK_32, Card, Rank, Suit, cards_of, mask_of
from herzla.kinds.tricks import TrickHand
from herzla.records import Record
from herzla.sim.reference import play_hand
from herzla.support.streams import seeded_deal

ROOT = Path(__file__).resolve().parents[1]
TOP = sum(Card(s, r).bit for s in Suit for r in (Rank.ACE, Rank.KING, Rank.QUEEN))
TECHNIQUES = ("equivalence", "table", "relative", "ordering", "bounds", "mtdf")


def worth_bidding(contract: str, count: int) -> list[dict[str, Any]]:
    """Seeded deals in which some seat holds a hand worth announcing ``contract``."""
    out: list[dict[str, Any]] = []
    seed = 0
    while len(out) < count:
        seed += 1
        hands = seeded_deal(PACK_32, 4, 8, seed)
        for seat in range(4):
            top = (hands[seat] & TOP).bit_count()
            if (contract == "beddl" and top == 0) or (contract == "mord" and top >= 6):
                out.append({"game": "herzla", "contract": contract, "players": 4, "dealer": 3,
                            "declarer": seat, "stock": 0, "options": {},
                            "hands": [[str(c) for c in cards_of(h)] for h in hands],
                            "plays": []})
                break
    return out


def timed(cmd: list[str], env: dict[str, str] | None = None, tree: Path | None = None
          ) -> tuple[float, str]:
    """A whole process's wall time and output; with ``tree``, herzla from that source tree
    (PYTHONPATH, run from a folder of no source tree)."""
    wall, _, out = timed_cpu(cmd, env, tree)
    return wall, out


def timed_cpu(cmd: list[str], env: dict[str, str] | None = None, tree: Path | None = None
              ) -> tuple[float, float, str]:
    """A whole process: its wall time, its CPU time (with its helper processes') and its
    output; ``tree`` as for :func:`timed`."""
    if tree is not None:
        env = {**(env or {}), "PYTHONPATH": str(tree)}
    if IDLE:
        wait_idle(IDLE[0], patience=IDLE[1])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=True,
                          cwd=ROOT if tree is None else tempfile.gettempdir(),
                          env={**os.environ, **(env or {})})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, done.stdout


#: with --wait-idle: the idle share to wait for before each whole process, and the most seconds
IDLE: list[float] = []


def check_tree(tree: Path) -> None:
    """Refuse a ``--baseline`` folder from which herzla would not be imported."""
    _, got = timed([sys.executable, "-c", "import herzla; print(herzla.__file__)"], tree=tree)
    if not got.startswith(str(tree)):
        raise SystemExit(f"--baseline: herzla comes from {got.strip()}, not {tree}")


PATHS = ("pure", "compiled")
#: the environment of a whole process on each path
PATH_ENV = {"pure": {"HERZLA_PURE": "1"}, "compiled": {"HERZLA_PURE": "0"}}


@contextlib.contextmanager
def on_path(path: str, small: bool = False) -> Iterator[None]:
    """Searches in this process on ``path``; with ``small``, the compiled path however few
    cards are left."""
    if path == "pure":
        with compiled.pure():
            yield
    elif small:
        with compiled.always():
            yield
    else:
        yield


def end_to_end(deals: list[dict[str, Any]], path: Path, repeat: int,
               baseline: Path | None = None) -> dict[str, Any]:
    """Both whole processes ``repeat`` times, alternating (with ``baseline``, herzla from that
    source tree too, in the same rounds); the medians."""
    path.write_text("".join(json.dumps(d) + "\n" for d in deals), encoding="utf-8")
    solve_cmd = [sys.executable, "-m", "herzla", "solve", str(path), "--json"]
    version_cmd = [sys.executable, "-m", "herzla", "--version"]
    ours_t, bare_t, base_t, start_t, base_start_t = [], [], [], [], []
    ours_c, bare_c, base_c, one_t, one_c, base_one_t, base_one_c = [], [], [], [], [], [], []
    for _ in range(repeat):
        ours, ours_cpu, out = timed_cpu(solve_cmd)
        one, one_cpu, one_out = timed_cpu([*solve_cmd, "--jobs", "1"])
        if [json.loads(line)["value"] for line in one_out.splitlines()] != [
                json.loads(line)["value"] for line in out.splitlines()]:
            raise SystemExit("herzla solve answers differently on one process")
        one_t.append(one)
        one_c.append(one_cpu)
        bare, bare_cpu, bare_out = timed_cpu([sys.executable,
                                              str(ROOT / "benchmarks" / "bare_search.py"),
                                              str(path)])
        made = ["made" if json.loads(line)["made"] else "lost" for line in out.splitlines()]
        if made != bare_out.split():
            raise SystemExit("the solver and the bare search disagree")
        ours_t.append(ours)
        bare_t.append(bare)
        ours_c.append(ours_cpu)
        bare_c.append(bare_cpu)
        start_t.append(timed(version_cmd)[0])
        if baseline is not None:
            base, base_cpu, base_out = timed_cpu(solve_cmd, tree=baseline)
            if [json.loads(line)["made"] for line in base_out.splitlines()] != [
                    m == "made" for m in made]:
                raise SystemExit("the solver and the baseline disagree")
            base_t.append(base)
            base_c.append(base_cpu)
            base_one, base_one_cpu, _ = timed_cpu([*solve_cmd, "--jobs", "1"], tree=baseline)
            base_one_t.append(base_one)
            base_one_c.append(base_one_cpu)
            base_start_t.append(timed(version_cmd, tree=baseline)[0])
    ours, bare = statistics.median(ours_t), statistics.median(bare_t)
    got = {"deals": len(deals), "made": made.count("made"), "solve_s": ours,
           "bare_s": bare, "ratio": bare / ours, "startup_s": statistics.median(start_t),
           "cpu_ratio": statistics.median(bare_c) / statistics.median(ours_c),
           "one_s": statistics.median(one_t),
           "one_ratio": bare / statistics.median(one_t),
           "one_cpu_ratio": statistics.median(bare_c) / statistics.median(one_c),
           "load": os.getloadavg()[0]}
    if baseline is not None:
        base = statistics.median(base_t)
        got.update(baseline_solve_s=base, baseline_ratio=bare / base,
                   baseline_startup_s=statistics.median(base_start_t),
                   baseline_cpu_ratio=statistics.median(bare_c) / statistics.median(base_c),
                   baseline_one_ratio=bare / statistics.median(base_one_t),
                   baseline_one_cpu_ratio=statistics.median(bare_c)
                   / statistics.median(base_one_c))
    return got


def in_process(deals: list[dict[str, Any]], repeat: int) -> dict[str, Any]:
    """The library call ``herzla.solve(record)`` against the bare search's function, each timed
    per deal from the parsed JSON to the answer, summed; the medians of ``repeat`` runs."""
    runs = [_in_process(deals) for _ in range(repeat)]
    ours = statistics.median(r[0] for r in runs)
    bare = statistics.median(r[1] for r in runs)
    return {"solve_s": ours, "bare_s": bare, "ratio": bare / ours}


def _in_process(deals: list[dict[str, Any]]) -> tuple[float, float]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bare_search import card_bit, solve_beddl_mord

    ours = bare = 0.0
    for obj in deals:
        start = time.perf_counter()
        solve(obj)
        mid = time.perf_counter()
        hands = [sum(card_bit(c) for c in h) for h in obj["hands"]]
        solve_beddl_mord(hands, (obj["dealer"] + 1) % 4, obj["declarer"],
                         obj["contract"] == "beddl")
        end = time.perf_counter()
        ours += mid - start
        bare += end - mid
    return ours, bare


def techniques(deals: list[dict[str, Any]], normal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Nodes and seconds with every technique, and with each one switched off (the normal
    positions on both paths; Beddl and Mord have the pure path only)."""
    rows = []
    for name, recs, seat in (("beddl+mord deals", deals, None), ("normal positions", normal, 0)):
        for path in (("pure",) if name.startswith("beddl") else PATHS):
            for off in (None, *TECHNIQUES):
                if name.startswith("beddl") and off == "mtdf":
                    continue  # a made/lost search has no MTD(f)
                nodes = 0
                start = time.perf_counter()
                with on_path(path, small=True):
                    for obj in recs:
                        nodes += _search_nodes(obj, seat, off)
                rows.append({"set": name, "path": path, "off": off or "(all on)",
                             "nodes": nodes, "seconds": time.perf_counter() - start})
    return rows


def _search_nodes(obj: dict[str, Any], seat: int | None, off: str | None) -> int:
    rec = Record.from_json(obj)
    state = rec.start()
    assert isinstance(state, TrickHand)
    for p in rec.plays:
        assert p.card is not None
        state.play(p.card)
    sc = trick_score(rec.contract, 0, [mask_of(h) for h in rec.hands])  # type: ignore[arg-type]
    feats = Features(**({off: False} if off else {}))
    who = rec.declarer if seat is None else seat
    assert who is not None
    ts = TrickSearch(rec.contract, sc, who, 1, feats)  # type: ignore[arg-type]
    ts.exact(state)
    return ts.nodes


def normal_positions(count: int, plays: int) -> list[dict[str, Any]]:
    """Normal deals played ``plays`` cards in by the heuristic player."""
    out = []
    for seed in range(1, count + 1):
        hands = seeded_deal(PACK_32, 4, 8, 1000 + seed)
        rec = Record.from_json({"game": "herzla", "contract": "normal", "players": 4,
                                "hands": [[str(c) for c in cards_of(h)] for h in hands]})
        _, line = play_hand(rec.contract, list(hands), 3, [0] * 64, "heuristic")
        obj = rec.to_json()
        obj["plays"] = line[:plays]
        out.append(obj)
    return out


def normal_deals(count: int, repeat: int) -> dict[str, Any]:
    """Whole normal deals for seat 0 in this process on each path (the compiled path's first
    solve, which imports numba and loads the kernel, apart), medians over ``repeat`` rounds;
    and one whole ``herzla solve`` process per path on the same deals."""
    objs = normal_positions(count, 0)
    out: dict[str, Any] = {"deals": count}
    with on_path("compiled"):
        first = solve(objs[0], seat=0)
    answers: dict[str, list[int]] = {}
    for path in PATHS:
        per_deal: list[list[float]] = [[] for _ in objs]
        cpu_deal: list[list[float]] = [[] for _ in objs]
        for _ in range(repeat):
            with on_path(path):
                got = []
                for i, obj in enumerate(objs):
                    start, cpu = time.perf_counter(), time.process_time()
                    got.append(solve(obj, seat=0).value)
                    per_deal[i].append(time.perf_counter() - start)
                    cpu_deal[i].append(time.process_time() - cpu)
            answers[path] = got
        times = [statistics.median(t) for t in per_deal]
        cpus = [statistics.median(t) for t in cpu_deal]
        out[path] = {"median_s": statistics.median(times), "worst_s": max(times),
                     "mean_s": statistics.fmean(times), "cpu_median_s": statistics.median(cpus),
                     "cpu_worst_s": max(cpus)}
    if answers["pure"] != answers["compiled"] or answers["pure"][0] != first.value:
        raise SystemExit("the two paths disagree")
    with tempfile.TemporaryDirectory() as tmp:
        path_f = Path(tmp) / "normal.jsonl"
        path_f.write_text("".join(json.dumps(o) + "\n" for o in objs), encoding="utf-8")
        one_f = Path(tmp) / "one.jsonl"
        one_f.write_text(json.dumps(objs[0]) + "\n", encoding="utf-8")
        for path in PATHS:
            for key, f in (("process_s", path_f), ("one_process_s", one_f)):
                walls = [timed([sys.executable, "-m", "herzla", "solve", str(f), "--seat", "0",
                                "--json"], PATH_ENV[path])[0] for _ in range(repeat)]
                out[path][key] = statistics.median(walls)
    return out


#: the hand of part 4 (seat 0, dealer 3, seed 1)
ADVISE_HAND = "CT C7 SJ S8 H9 H7 D9 D7"


def bare_samples(count: int, path: Path) -> list[tuple[int, str, str]]:
    """The first ``count`` of advise's sampled deals (``herzla.analysis.advise.sample_hands``)
    written to ``path`` for the bare search, and herzla's double-dummy answers on them (the
    normal game's cents for the seat, Beddl and Mord made or lost)."""
    from herzla.analysis.advise import SampleSpan, plan_advice, play_chunk, sample_hands

    plan = plan_advice(ADVISE_HAND, samples=count, seed=1)
    lines = []
    for i in range(count):
        hands = sample_hands(plan, i)
        lines.append(json.dumps({"hands": [[str(c) for c in cards_of(h)] for h in hands],
                                 "seat": plan.seat, "dealer": plan.dealer}) + "\n")
    path.write_text("".join(lines), encoding="utf-8")
    got = play_chunk(plan, SampleSpan(0, count))
    dd = "double_dummy"
    return [(got.cents[("normal", dd)][i], *("made" if got.made[(c, dd)][i] else "lost"
                                              for c in ("beddl", "mord")))  # type: ignore[misc]
            for i in range(count)]


def bare_run(path: Path, want: list[tuple[int, str, str]]) -> tuple[float, float]:
    """One ``bare_normal.py`` process on the deals at ``path``: its wall and CPU time; its
    answers must be herzla's."""
    wall, cpu, out = timed_cpu([sys.executable, str(ROOT / "benchmarks" / "bare_normal.py"),
                                str(path)])
    got = [(int(a), b, c) for a, b, c in (line.split() for line in out.splitlines())]
    if got != want:
        raise SystemExit(f"advise and the bare search disagree: {got} against {want}")
    return wall, cpu


def advise_run(samples: int, jobs: int, path: str, env: dict[str, str] | None = None
               ) -> dict[str, Any]:
    hand = ADVISE_HAND
    wall, cpu, out = timed_cpu([sys.executable, "-m", "herzla", "advise", "herzla", "--hand",
                                hand, "--samples", str(samples), "--jobs", str(jobs), "--json"],
                               {**PATH_ENV[path], **(env or {})})
    answer = json.loads(out)
    answer.pop("elapsed_s", None)
    return {"samples": samples, "jobs": jobs, "wall_s": wall, "per_sample_s": wall / samples,
            "cpu_s": cpu, "cpu_per_sample_s": cpu / samples, "answer": answer}


def advise_both(samples: int, pure_samples: int, jobs: int, repeat: int,
                bare: int = 0) -> dict[str, Any]:
    """``herzla advise`` on both paths and (``bare`` > 0) the bare search on the first ``bare``
    of the same samples, alternating, ``repeat`` times (after one compiled run that fills the
    numba cache, not counted); medians, and the ratios of time per sample."""
    runs: dict[str, list[dict[str, Any]]] = {p: [] for p in PATHS}
    bare_walls: list[float] = []
    bare_cpus: list[float] = []
    loads = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as tmp:
        deals = Path(tmp) / "samples.jsonl"
        want = bare_samples(bare, deals) if bare else []
        advise_run(min(samples, 16), jobs, "compiled")  # a warm numba cache
        for _ in range(repeat):
            runs["compiled"].append(advise_run(samples, jobs, "compiled"))
            runs["pure"].append(advise_run(pure_samples, jobs, "pure"))
            if bare:
                wall, cpu = bare_run(deals, want)
                bare_walls.append(wall)
                bare_cpus.append(cpu)
            loads.append(os.getloadavg()[0])
    if samples == pure_samples and runs["pure"][0]["answer"] != runs["compiled"][0]["answer"]:
        raise SystemExit("advise answers differ between the paths")
    out: dict[str, Any] = {"jobs": jobs, "repeat": repeat}
    for p in PATHS:
        out[p] = {"samples": runs[p][0]["samples"],
                  "wall_s": statistics.median(r["wall_s"] for r in runs[p]),
                  "per_sample_s": statistics.median(r["per_sample_s"] for r in runs[p]),
                  "cpu_s": statistics.median(r["cpu_s"] for r in runs[p]),
                  "cpu_per_sample_s": statistics.median(r["cpu_per_sample_s"]
                                                        for r in runs[p])}
    out["ratio"] = out["pure"]["per_sample_s"] / out["compiled"]["per_sample_s"]
    out["load"] = [round(x, 2) for x in loads]
    if bare:
        per = statistics.median(bare_walls) / bare
        cpu = statistics.median(bare_cpus) / bare
        out["bare"] = {"samples": bare, "wall_s": statistics.median(bare_walls),
                       "per_sample_s": per, "cpu_per_sample_s": cpu}
        out["bare_ratio"] = {p: per / out[p]["per_sample_s"] for p in PATHS}
        out["bare_cpu_ratio"] = {p: cpu / out[p]["cpu_per_sample_s"] for p in PATHS}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--deals", type=int, help="Beddl deals and Mord deals each (default 60)")
    ap.add_argument("--normal", type=int, help="whole normal deals (default 20)")
    ap.add_argument("--advise-samples", type=int, help="advise samples (default 2000)")
    ap.add_argument("--pure-samples", type=int,
                    help="advise samples on the pure path (default: --advise-samples)")
    ap.add_argument("--bare-samples", type=int, default=8,
                    help="advise samples the bare search of part 4 plays (0: none; default 8)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs of parts 1, 3 and 4 (medians are reported; default 3)")
    ap.add_argument("--cold", action="store_true",
                    help="part 5: the compiled path's first run with an empty numba cache")
    ap.add_argument("--skip", default="", help="parts to leave out, e.g. 2,4")
    ap.add_argument("--baseline", metavar="DIR",
                    help="part 1 also runs herzla solve from this source tree (e.g. "
                         "'git archive main | tar -x -C DIR'), in the same rounds")
    ap.add_argument("--wait-idle", type=float, metavar="SHARE",
                    help="before each whole process, wait (at most a minute) until "
                         "the CPUs were this idle over 2 s, as compare_bare.py does")
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args()
    if args.wait_idle:
        IDLE.extend([args.wait_idle, 60.0])
    baseline = Path(args.baseline).resolve() if args.baseline else None
    if baseline is not None:
        check_tree(baseline)
    for tree in (ROOT, *((baseline,) if baseline is not None else ())):
        compile_tree(tree)
    deals_n = args.deals or (15 if args.quick else 60)
    normal_n = args.normal or (5 if args.quick else 20)
    samples = args.advise_samples or (200 if args.quick else 2000)
    pure_samples = args.pure_samples or samples
    print(f"herzla solve benchmark: Python {platform.python_version()}, "
          f"{platform.platform()}, numba: {'yes' if compiled.available() else 'no'}; "
          f"{describe()}")
    deals = worth_bidding("beddl", deals_n) + worth_bidding("mord", deals_n)
    skip = set(args.skip.split(","))
    e2e: dict[str, Any] = {}
    inp: dict[str, Any] = {}
    if "1" not in skip:
        with tempfile.TemporaryDirectory() as tmp:
            e2e = end_to_end(deals, Path(tmp) / "deals.jsonl", args.repeat, baseline)
        print(f"\n1. {e2e['deals']} Beddl and Mord deals worth announcing ({e2e['made']} made), "
              f"from the first card, whole processes (medians of {args.repeat}):")
        print(f"   herzla solve {e2e['solve_s']:.2f} s, bare search {e2e['bare_s']:.2f} s: "
              f"{e2e['ratio']:.1f}x faster (herzla --version alone: {e2e['startup_s']:.2f} s); "
              f"CPU time (the process and its helpers): {e2e['cpu_ratio']:.1f}x")
        print(f"   herzla solve --jobs 1 (one process) {e2e['one_s']:.2f} s: "
              f"{e2e['one_ratio']:.1f}x; CPU time: {e2e['one_cpu_ratio']:.1f}x "
              f"(load average {e2e['load']:.1f} at the end)")
        if baseline is not None:
            print(f"   baseline ({baseline}): herzla solve {e2e['baseline_solve_s']:.2f} s: "
                  f"{e2e['baseline_ratio']:.1f}x (herzla --version alone: "
                  f"{e2e['baseline_startup_s']:.2f} s); CPU time: "
                  f"{e2e['baseline_cpu_ratio']:.1f}x; --jobs 1: {e2e['baseline_one_ratio']:.1f}x, "
                  f"CPU time {e2e['baseline_one_cpu_ratio']:.1f}x")
        inp = in_process(deals, args.repeat)
        print(f"   in one process, per deal from the record to the answer: "
              f"herzla.analysis.solve {inp['solve_s']:.2f} s, bare search {inp['bare_s']:.2f} s:"
              f" {inp['ratio']:.1f}x")
    rows: list[dict[str, Any]] = []
    if "2" not in skip:
        rows = techniques(deals, normal_positions(4 if args.quick else 8, 12))
        print("\n2. What each technique buys (in this process; one switched off at a time):")
        print(f"   {'set':<18} {'path':<9} {'off':<12} {'nodes':>11} {'seconds':>9}")
        for r in rows:
            print(f"   {r['set']:<18} {r['path']:<9} {r['off']:<12} {r['nodes']:>11,} "
                  f"{r['seconds']:>9.2f}")
    nd: dict[str, Any] = {}
    if "3" not in skip:
        nd = normal_deals(normal_n, args.repeat)
        print(f"\n3. {nd['deals']} whole normal deals for seat 0 (medians of {args.repeat}):")
        for p in PATHS:
            r = nd[p]
            print(f"   {p:<9} in this process: median {r['median_s'] * 1000:.0f} ms, worst "
                  f"{r['worst_s'] * 1000:.0f} ms, mean {r['mean_s'] * 1000:.0f} ms (CPU time: "
                  f"median {r['cpu_median_s'] * 1000:.0f} ms, worst "
                  f"{r['cpu_worst_s'] * 1000:.0f} ms); one 'herzla solve' process for all: "
                  f"{r['process_s']:.2f} s")
        print(f"   one 'herzla solve' process for the first deal alone: pure "
              f"{nd['pure']['one_process_s']:.2f} s, compiled "
              f"{nd['compiled']['one_process_s']:.2f} s (imports numba, loads the kernel)")
        pure, comp = nd["pure"], nd["compiled"]
        print(f"   median ratio pure/compiled: {pure['median_s'] / comp['median_s']:.1f}x "
              f"(CPU time {pure['cpu_median_s'] / comp['cpu_median_s']:.1f}x)")
    adv: dict[str, Any] = {}
    if "4" not in skip:
        adv = advise_both(samples, pure_samples, args.jobs, args.repeat, args.bare_samples)
        print(f"\n4. herzla advise, --jobs {args.jobs}, whole processes (medians of "
              f"{args.repeat}; load average {' '.join(map(str, adv['load']))}):")
        for p in PATHS:
            r = adv[p]
            print(f"   {p:<9} {r['samples']:>6,} samples: {r['wall_s']:.1f} s, "
                  f"{r['per_sample_s'] * 1000:.1f} ms a sample (CPU time of all its processes "
                  f"{r['cpu_s']:.1f} s, {r['cpu_per_sample_s'] * 1000:.1f} ms a sample)")
        print(f"   per sample, pure/compiled: {adv['ratio']:.1f}x")
        if args.bare_samples:
            b = adv["bare"]
            print(f"   bare search (bare_normal.py), the first {b['samples']} of the same samples "
                  f"(answers agree): {b['wall_s']:.1f} s, {b['per_sample_s']:.2f} s a sample "
                  f"(CPU time {b['cpu_per_sample_s']:.2f} s)")
            wr, cr = adv["bare_ratio"], adv["bare_cpu_ratio"]
            print(f"   per sample, bare/advise: compiled {wr['compiled']:.0f}x, pure "
                  f"{wr['pure']:.1f}x (CPU time: compiled {cr['compiled']:.0f}x, pure "
                  f"{cr['pure']:.1f}x)")
    cold: dict[str, Any] = {}
    if args.cold:
        with tempfile.TemporaryDirectory() as tmp:
            cold = advise_run(samples, args.jobs, "compiled", {"NUMBA_CACHE_DIR": tmp})
        cold.pop("answer")
        print(f"\n5. herzla advise, {samples:,} samples, compiled, empty numba cache: "
              f"{cold['wall_s']:.1f} s")
    if args.json:
        Path(args.json).write_text(json.dumps({"end_to_end": e2e, "in_process": inp,
                                               "techniques": rows, "normal": nd,
                                               "advise": adv, "cold": cold}, indent=1))


if __name__ == "__main__":
    main()
