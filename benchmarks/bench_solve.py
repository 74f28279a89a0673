"""Benchmark of ``herzla solve`` and ``herzla advise`` (see benchmarks/README.md).

In one run, on the same deals:

1. whole Beddl and Mord deals whose declarer holds a hand worth announcing (Beddl: no Ace, King or
   Ober; Mord: at least six of them), solved from the first card, end to end: one
   ``python -m herzla solve DEALS.jsonl --json`` process against one
   ``python benchmarks/bare_search.py DEALS.jsonl`` process (the bare alpha-beta yardstick); the
   answers must agree;
2. what each technique buys: the same deals (and normal-game positions) solved in this process
   with one technique switched off at a time (nodes and seconds);
3. whole normal deals solved for seat 0: median and worst time;
4. ``herzla advise`` with 2,000 samples: wall time.

    python benchmarks/bench_solve.py                  # the full run (several minutes)
    python benchmarks/bench_solve.py --quick          # fewer deals, advise with 200 samples
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from herzla.analysis.scoring import trick_score
from herzla.analysis.solve import solve
from herzla.analysis.tricks import Features, TrickSearch
from herzla.cards import PACK_32, Rank, cards_of, mask_of
from herzla.machinery.streams import seeded_deal
from herzla.records import Record, start_state
from herzla.sim.reference import play_hand
from herzla.tricks import TrickHand

ROOT = Path(__file__).resolve().parents[1]
TOP = sum(1 << (s * 9 + r) for s in range(4) for r in (Rank.ACE, Rank.KING, Rank.QUEEN))
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


def timed(cmd: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=ROOT)
    return time.perf_counter() - start, done.stdout


def end_to_end(deals: list[dict[str, Any]], path: Path, repeat: int) -> dict[str, Any]:
    """Both whole processes ``repeat`` times, alternating; the medians."""
    path.write_text("".join(json.dumps(d) + "\n" for d in deals), encoding="utf-8")
    ours_t, bare_t = [], []
    for _ in range(repeat):
        ours, out = timed([sys.executable, "-m", "herzla", "solve", str(path), "--json"])
        bare, bare_out = timed([sys.executable, str(ROOT / "benchmarks" / "bare_search.py"),
                                str(path)])
        made = ["made" if json.loads(line)["made"] else "lost" for line in out.splitlines()]
        if made != bare_out.split():
            raise SystemExit("the solver and the bare search disagree")
        ours_t.append(ours)
        bare_t.append(bare)
    ours, bare = statistics.median(ours_t), statistics.median(bare_t)
    start_t = [timed([sys.executable, "-m", "herzla", "--version"])[0] for _ in range(repeat)]
    return {"deals": len(deals), "made": made.count("made"), "solve_s": ours,
            "bare_s": bare, "ratio": bare / ours, "startup_s": statistics.median(start_t)}


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
    """Nodes and seconds with every technique, and with each one switched off."""
    rows = []
    for name, recs, seat in (("beddl+mord deals", deals, None), ("normal positions", normal, 0)):
        for off in (None, *TECHNIQUES):
            if name.startswith("beddl") and off == "mtdf":
                continue  # a made/lost search has no MTD(f)
            nodes = 0
            start = time.perf_counter()
            for obj in recs:
                rec = Record.from_json(obj)
                state = start_state(rec)
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
                nodes += ts.nodes
            rows.append({"set": name, "off": off or "(all on)", "nodes": nodes,
                         "seconds": time.perf_counter() - start})
    return rows


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


def normal_deals(count: int) -> dict[str, Any]:
    times = []
    for obj in normal_positions(count, 0):
        start = time.perf_counter()
        solve(obj, seat=0)
        times.append(time.perf_counter() - start)
    return {"deals": count, "median_s": statistics.median(times), "worst_s": max(times),
            "mean_s": statistics.fmean(times)}


def advise_run(samples: int, jobs: int) -> dict[str, Any]:
    hand = "CT C7 SJ S8 H9 H7 D9 D7"
    wall, out = timed([sys.executable, "-m", "herzla", "advise", "herzla", "--hand", hand,
                       "--samples", str(samples), "--jobs", str(jobs), "--json"])
    return {"samples": samples, "jobs": jobs, "wall_s": wall,
            "elapsed_s": json.loads(out)["elapsed_s"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--deals", type=int, help="Beddl deals and Mord deals each (default 60)")
    ap.add_argument("--normal", type=int, help="whole normal deals (default 20)")
    ap.add_argument("--advise-samples", type=int, help="advise samples (default 2000)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs of part 1 (medians are reported; default 3)")
    ap.add_argument("--skip", default="", help="parts to leave out, e.g. 2,4")
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args()
    deals_n = args.deals or (15 if args.quick else 60)
    normal_n = args.normal or (5 if args.quick else 20)
    samples = args.advise_samples or (200 if args.quick else 2000)
    print(f"herzla solve benchmark: Python {platform.python_version()}, "
          f"{platform.platform()}")
    deals = worth_bidding("beddl", deals_n) + worth_bidding("mord", deals_n)
    skip = set(args.skip.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        e2e = end_to_end(deals, Path(tmp) / "deals.jsonl", args.repeat)
    print(f"\n1. {e2e['deals']} Beddl and Mord deals worth announcing ({e2e['made']} made), "
          f"from the first card, whole processes (medians of {args.repeat}):")
    print(f"   herzla solve {e2e['solve_s']:.2f} s, bare search {e2e['bare_s']:.2f} s: "
          f"{e2e['ratio']:.1f}x faster (herzla --version alone: {e2e['startup_s']:.2f} s)")
    inp = in_process(deals, args.repeat)
    print(f"   in one process, per deal from the record to the answer: herzla.analysis.solve "
          f"{inp['solve_s']:.2f} s, bare search {inp['bare_s']:.2f} s: {inp['ratio']:.1f}x")
    rows: list[dict[str, Any]] = []
    if "2" not in skip:
        rows = techniques(deals, normal_positions(4 if args.quick else 8, 12))
        print("\n2. What each technique buys (in this process; one switched off at a time):")
        print(f"   {'set':<18} {'off':<12} {'nodes':>11} {'seconds':>9}")
        for r in rows:
            print(f"   {r['set']:<18} {r['off']:<12} {r['nodes']:>11,} {r['seconds']:>9.2f}")
    nd = normal_deals(normal_n)
    print(f"\n3. {nd['deals']} whole normal deals for seat 0: median {nd['median_s']:.2f} s, "
          f"worst {nd['worst_s']:.2f} s, mean {nd['mean_s']:.2f} s")
    adv: dict[str, Any] = {}
    if "4" not in skip:
        adv = advise_run(samples, args.jobs)
        print(f"\n4. herzla advise, {adv['samples']:,} samples, --jobs {adv['jobs']}: "
              f"{adv['wall_s']:.1f} s")
    if args.json:
        Path(args.json).write_text(json.dumps({"end_to_end": e2e, "in_process": inp,
                                               "techniques": rows, "normal": nd,
                                               "advise": adv}, indent=1))


if __name__ == "__main__":
    main()
