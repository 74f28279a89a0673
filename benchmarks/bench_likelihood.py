"""Weighing the worlds: the likelihood of the plays seen, every deal replayed
(``log_likelihood``, the reference) against every deal read at once (``log_likelihoods``, what
``ipimc`` and ``expert`` use), in one run on the same positions and deals.

    python benchmarks/bench_likelihood.py                 # 60 positions, 128 deals each
    python benchmarks/bench_likelihood.py --positions 20 --deals 512

Positions are Herzla normal hands played by the heuristic to a random card (seeded), seen by
the seat to play; the deals are those ``trick_worlds`` draws there (uniform among the deals that
keep what the seat knows).  The two ways alternate position by position (a busy machine slows
both alike); the answers are checked equal.  CPU time (``time.process_time``), one process.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time

from herzla.analysis.inference import draw_deals, log_likelihood, log_likelihoods
from herzla.contracts import contract_class
from herzla.kinds.tricks import TrickHand
from herzla.players.heuristic import heuristic_card
from herzla.players.views import TrickView


def positions(count: int, seed: int) -> list[TrickView]:
    """``count`` views of Herzla normal hands played by the heuristic to a random card."""
    normal = contract_class("herzla", "normal")()
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pack = list(normal.pack().cards)
        rng.shuffle(pack)
        hands = [sum(c.bit for c in pack[s * 8:(s + 1) * 8]) for s in range(4)]
        state = TrickHand(normal, hands, rng.randrange(4))
        for _ in range(rng.randrange(4, 28)):
            state.play(heuristic_card(state))
        out.append(TrickView.of(state))
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--deals", type=int, default=128, help="deals weighed a position (128)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    views = positions(args.positions, args.seed)
    rng = random.Random(args.seed)
    replayed = read = 0.0
    for view in views:
        deals = draw_deals(view, rng, args.deals)
        t0 = time.process_time()
        slow = [log_likelihood(view, d, 1.0) for d in deals]
        t1 = time.process_time()
        fast = log_likelihoods(view, deals, 1.0)
        t2 = time.process_time()
        if any(abs(a - b) > 1e-9 for a, b in zip(slow, fast, strict=True)):
            sys.exit("the two likelihoods differ")
        replayed += t1 - t0
        read += t2 - t1
    n = len(views)
    print(f"likelihood of the plays: Python {platform.python_version()}, {n} Herzla normal "
          f"positions x {args.deals} deals, seed {args.seed}, "
          f"{time.strftime('%Y-%m-%d %H:%M')}")
    print(f"  every deal replayed   {replayed / n * 1000:8.2f} ms a position")
    print(f"  every deal read once  {read / n * 1000:8.2f} ms a position")
    print(f"  ratio                 {replayed / read:8.1f}x (the same numbers)")


if __name__ == "__main__":
    main()
