"""How much of ``expert``'s play the luck of its draws decides: each spec's choices on the same
positions, priced by a valuation many times as large.

    python benchmarks/bench_worlds.py                      # the run of docs/policies.md
    python benchmarks/bench_worlds.py --deals 20 --spec 'expert[worlds=96]'

It plays ``--deals`` seeded Herzla normal deals, ``expert`` (``--player``) at two seats and
``pimc`` at the other two, both seatings, and keeps every position where ``expert`` had a choice.
At each it values the legal cards ``--target-reps`` times with ``--target`` (seeds 1001, 1002,
...: independent of every spec's own draws) and takes the mean as the *target*: the model's
value of each card, its sampling noise cut down.  Each ``--spec`` chooses a card on the same
position; its *regret* is the target's best less the target's value of that card (cents).  The
mean regret per decision is shown for the first trick, the rest of the play-outs and the max^n
tricks, then summed per hand a seat played (cents a hand), with each spec's mean CPU per
valuation.  The target's own noise is independent of the specs', so the differences between
specs are unbiased; a regret is in the model's own terms (the other seats played as ``expert``
models them), not a match's: a duplicate match says what it is worth at the table.  Not part of
the test suite.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).parent))

from bench_ladder import load

from herzla.analysis.expert import Expert
from herzla.cards import cards_of
from herzla.contracts import contract_class
from herzla.hand import Move
from herzla.players import LayoutView, Policy, TrickView, policy_of
from herzla.sim.reference import play_hand
from herzla.support.procs import local_map
from herzla.support.streams import block_generator, deal_masks, draw_block

PHASES = ("trick 1", "tricks 2+", "max^n")


class _Kept(Policy):
    """A policy that keeps the views where it had a choice."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.name = policy.name  # type: ignore[misc]
        self.kept: list[TrickView] = []

    def move(self, view: TrickView | LayoutView) -> Move:
        if isinstance(view, TrickView) and len(cards_of(view.legal)) > 1:
            self.kept.append(view)
        return self.policy.move(view)


def positions(args: tuple[str, Any, Any]) -> list[TrickView]:
    """The views of one deal (its cards and move uniforms) where ``player`` had a choice (both
    seatings)."""
    player, cards, uniforms = args
    contract = contract_class("herzla", "normal")()
    kept, pimc = _Kept(policy_of(player)), policy_of("pimc")
    for seats in ([kept, pimc, kept, pimc], [pimc, kept, pimc, kept]):
        play_hand(contract, deal_masks(cards, 4, 8), 3, uniforms, seats)
    return kept.kept


def priced(args: tuple[TrickView, str, int, Sequence[str]]
           ) -> tuple[str, list[float], list[float]]:
    """(phase, each spec's regret, each spec's CPU seconds) at one position."""
    view, target, reps, specs = args
    legal = [str(c) for c in cards_of(view.legal)]
    base = policy_of(target)
    assert isinstance(base, Expert)
    means = [attrs.evolve(base, seed=1000 + k).value(view).means for k in range(1, reps + 1)]
    value = {c: statistics.fmean(m[c] for m in means) for c in legal}
    best = max(value.values())
    regret, cpu = [], []
    for spec in specs:
        p = policy_of(spec)
        assert isinstance(p, Expert)
        start = time.process_time()
        move = p.value(view).move
        cpu.append(time.process_time() - start)
        regret.append(best - value[str(move)])
    phase = (PHASES[2] if Expert().searches(view) else
             PHASES[0] if view.trick_number == 1 else PHASES[1])
    return phase, regret, cpu


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=120, help="Herzla normal deals (120)")
    ap.add_argument("--seed", type=int, default=1013)
    ap.add_argument("--player", default="expert", help="who plays the positions (expert)")
    ap.add_argument("--target", default="expert", help="the valuation repeated (expert)")
    ap.add_argument("--target-reps", type=int, default=4)
    ap.add_argument("--spec", action="append", help="an expert to price (repeatable)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    specs = args.spec or ["expert[worlds=48,candidates=128,prior=1,own=heuristic]",
                          "expert[worlds=48,candidates=128]", "expert[worlds=192,candidates=512]",
                          "expert[prior=1]", "expert"]
    print(f"expert's choices priced by {args.target_reps} x {args.target}: Python "
          f"{platform.python_version()}, {args.deals} Herzla normal deals x 2 seatings with "
          f"{args.player} and pimc, seed {args.seed}, {time.strftime('%Y-%m-%d %H:%M')}, "
          f"load {load()}", flush=True)
    pack = [c.index for c in contract_class("herzla", "normal")().pack().cards]
    cards, uniforms = draw_block(block_generator(args.seed, (9, 0)), args.deals, pack, 32)
    views = [v for got in local_map(positions, [(args.player, cards[i], uniforms[i])
                                                for i in range(args.deals)], args.jobs - 1)
             for v in got]
    rows = list(local_map(priced, [(v, args.target, args.target_reps, specs) for v in views],
                          args.jobs - 1))
    hands = args.deals * 2 * 2
    counts = {ph: sum(r[0] == ph for r in rows) for ph in PHASES}
    print(f"  {len(rows)} positions ({', '.join(f'{counts[p]} {p}' for p in PHASES)}), "
          f"{hands} hands of expert; mean regret a decision (cents), in all a hand, CPU a "
          f"valuation (load {load()})")
    print(f"  {'spec':<44}" + "".join(f"{p:>10}" for p in PHASES) + f"{'a hand':>9}{'CPU':>10}")
    for j, spec in enumerate(specs):
        by = [statistics.fmean([r[1][j] for r in rows if r[0] == p] or [0.0]) for p in PHASES]
        total = sum(r[1][j] for r in rows) / hands
        cpu = statistics.fmean(r[2][j] for r in rows)
        print(f"  {spec:<44}" + "".join(f"{x:10.3f}" for x in by)
              + f"{total:9.2f}{cpu * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
