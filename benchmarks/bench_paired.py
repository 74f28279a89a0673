"""Variants of a player compared on the same deals against ``pimc``: a paired duplicate.

    python benchmarks/bench_paired.py --seed 1010 --deals 400 expert 'expert[spread=2]'

Each deal of ``--seed`` (Herzla normal, its own seeded stream) is played twice, the first
``SPEC`` at two seats and ``pimc`` at the other two, then the seats swapped; a deal's value is
the mean of the spec's seats less the mean of ``pimc``'s, over both seatings.  Every spec plays
the same deals with the same move uniforms, so where two specs play alike a deal gives both the
same value, and the difference of two specs taken deal by deal leaves out the deals' own luck:
a much narrower interval than two matches compared side by side.  It prints each spec against
``pimc`` and each later spec less the first, deal by deal, with 95% intervals and how many
deals came out equal.  A spec's values are kept in ``--state`` (a JSON file) as they come in,
so a run stopped and started again (or with more specs) plays only what is missing.  Not part
of the test suite.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from herzla.contracts import contract_class
from herzla.players import policy_of
from herzla.sim.reference import play_hand
from herzla.support.procs import local_map
from herzla.support.streams import block_generator, deal_masks, draw_block


def deal_value(args: tuple[str, Any, Any]) -> float:
    """The spec's seats less ``pimc``'s on one deal, the mean over both seatings (cents)."""
    spec, cards, uniforms = args
    contract = contract_class("herzla", "normal")()
    mine, pimc = policy_of(spec), policy_of("pimc")
    total = 0.0
    for seats, own in (([mine, pimc, mine, pimc], (0, 2)), ([pimc, mine, pimc, mine], (1, 3))):
        hand, _ = play_hand(contract, deal_masks(cards, 4, 8), 3, uniforms, seats)
        outcome = hand.outcome()
        scores = contract.settle(contract.counts(outcome), 0).column(0)[0]
        total += sum(scores[s] if s in own else -scores[s] for s in range(4)) / 2
    return total / 2


def interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("specs", nargs="+", help="the players compared, the first the base")
    ap.add_argument("--deals", type=int, default=400, help="Herzla normal deals (400)")
    ap.add_argument("--seed", type=int, default=1010)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--state", type=Path, default=None,
                    help="where the values are kept (default bench_paired.SEED.json)")
    args = ap.parse_args(argv)
    state: Path = args.state or Path(f"bench_paired.{args.seed}.json")
    got: dict[str, list[float]] = json.loads(state.read_text()) if state.exists() else {}
    pack = [c.index for c in contract_class("herzla", "normal")().pack().cards]
    cards, uniforms = draw_block(block_generator(args.seed, (9, 1)), args.deals, pack, 32)
    print(f"paired against pimc: Python {sys.version.split()[0]}, {args.deals} Herzla normal "
          f"deals x 2 seatings, seed {args.seed}, {time.strftime('%Y-%m-%d %H:%M')}", flush=True)
    for spec in args.specs:
        have = got.get(spec, [])
        if len(have) < args.deals:
            start = time.time()
            items = [(spec, cards[i], uniforms[i]) for i in range(len(have), args.deals)]
            got[spec] = have + list(local_map(deal_value, items, args.jobs - 1))
            tmp = state.with_suffix(".tmp")
            tmp.write_text(json.dumps(got))
            tmp.replace(state)
            print(f"  {spec}: {time.time() - start:.0f} s", flush=True)
    base = got[args.specs[0]][:args.deals]
    for spec in args.specs:
        print(f"  {spec:<40} - pimc: {interval(got[spec][:args.deals])}")
    for spec in args.specs[1:]:
        diff = [a - b for a, b in zip(got[spec][:args.deals], base, strict=True)]
        print(f"  {spec:<40} - {args.specs[0]}: {interval(diff)} "
              f"({sum(d == 0 for d in diff)} deals equal)")


if __name__ == "__main__":
    main()
