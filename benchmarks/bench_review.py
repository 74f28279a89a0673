"""Benchmark of ``herzla review`` (see benchmarks/README.md).

Whole seeded hands played by the simulator's heuristic player in all seats, each reviewed
(every play solved for the seat that played) in this process, and on the same hands, the one
solve from the first card for seat 0 that a review begins with.  It prints the CPU seconds
per hand of each and their ratio (a review costs that many whole-deal solves), and the wall time
of the reviews on ``--jobs`` processes.

    python benchmarks/bench_review.py                       # herzla normal, 10 hands
    python benchmarks/bench_review.py --hands 4 --game herzeln --contract no-hearts --jobs 1 2
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from typing import Any

from herzla.analysis.review import review
from herzla.analysis.solve import solve
from herzla.cards import cards_of
from herzla.contracts import contract_class
from herzla.machinery.streams import seeded_deal
from herzla.sim.reference import play_hand


def hands(game: str, contract_id: str, players: int, count: int) -> list[dict[str, Any]]:
    """``count`` seeded deals played to the end by the heuristic player."""
    cls = contract_class(game, contract_id)
    contract = cls(players, {}, 0 if cls.needs_declarer else None)
    out = []
    for seed in range(1, count + 1):
        deal = seeded_deal(contract.pack(), players, contract.hand_size, seed)
        _, plays = play_hand(contract, list(deal), players - 1, [0] * 64, "heuristic")
        out.append({"game": game, "contract": contract_id, "players": players,
                    "dealer": players - 1, "declarer": 0 if cls.needs_declarer else None,
                    "hands": [[str(c) for c in cards_of(h)] for h in deal], "plays": plays})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="herzla")
    ap.add_argument("--contract", default="normal")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--hands", type=int, default=10)
    ap.add_argument("--jobs", type=int, nargs="*", default=[1, 2])
    args = ap.parse_args()
    print(f"herzla review benchmark: Python {platform.python_version()}, "
          f"{platform.platform()}")
    records = hands(args.game, args.contract, args.players, args.hands)
    first, whole, plays = [], [], []
    for rec in records:
        t = time.process_time()
        solve(dict(rec, plays=[]), seat=0)
        first.append(time.process_time() - t)
        t = time.process_time()
        res = review(rec)
        whole.append(time.process_time() - t)
        plays.append(len(res.plays))
    print(f"{args.game} {args.contract}, {args.players} players, {len(records)} hands of "
          f"{statistics.mean(plays):.1f} plays, CPU seconds per hand (this process):")
    print(f"  solve from the first card, seat 0: median {statistics.median(first):.3f}, "
          f"worst {max(first):.3f}")
    print(f"  review of the whole hand:          median {statistics.median(whole):.3f}, "
          f"worst {max(whole):.3f}")
    ratio = statistics.median(whole) / statistics.median(first)
    print(f"  review / first solve (medians):     {ratio:.1f}")
    for jobs in args.jobs:
        t = time.perf_counter()
        for rec in records:
            review(rec, jobs=jobs)
        print(f"  wall seconds per review, --jobs {jobs}: "
              f"{(time.perf_counter() - t) / len(records):.3f}")


if __name__ == "__main__":
    main()
