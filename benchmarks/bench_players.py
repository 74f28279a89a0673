"""Benchmark the built-in players: a ladder of duplicate matches (random < heuristic < pimc),
what a pimc decision costs, and a match's speed per hand against ``simulate``'s.

    nice python benchmarks/bench_players.py                       # the run of docs/policies.md
    nice python benchmarks/bench_players.py --pimc-deals 40 --decision-hands 2   # a quick look
    nice python benchmarks/bench_players.py --only speed --speed-hands 400000   # match vs simulate

Everything runs in this process through the library (``herzla.match``, ``herzla.simulate``);
the ladder's matches use ``--jobs`` processes.  The pimc decision cost is CPU time
(``time.process_time``) per decision, measured in this process on ``--decision-hands`` seeded
Herzla normal hands played by pimc in all four seats, and split into the decisions it searched
and those it left to the heuristic (its first tricks) or that had one legal card.  The speed part
plays, in one process (``jobs=1``), ``--rounds`` rounds of a heuristic-random match of
``--speed-hands / 2`` deals (so ``--speed-hands`` hands over its two seatings) and ``simulate``
of ``--speed-hands`` hands with the same seating, in alternating order after a warm-up, and
reports the medians of each one's hands per CPU second and of the per-round ratios (CPU time:
what the other users of a shared machine take counts less).  Not part of the test suite.
"""

from __future__ import annotations

import argparse
import functools
import platform
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import attrs

from herzla.analysis.pimc import Pimc
from herzla.cards import cards_of
from herzla.contracts import TrickContract, contract_class
from herzla.hand import Move
from herzla.players import LayoutView, TrickView, policy_of
from herzla.sim.api import simulate
from herzla.sim.match import MatchResult, match
from herzla.sim.reference import play_hand
from herzla.support.streams import block_generator, deal_masks, draw_block


@attrs.frozen
class TimedPimc(Pimc):
    """pimc, adding up the CPU time of each decision (searched or not)."""

    log: list[tuple[bool, float]] = attrs.field(factory=list, eq=False)

    def move(self, view: TrickView | LayoutView) -> Move:
        searched = (isinstance(view, TrickView) and len(cards_of(view.legal)) > 1
                    and view.dealt - len(view.tricks) <= self.tricks)
        start = time.process_time()
        move = Pimc.move(self, view)
        self.log.append((searched, time.process_time() - start))
        return move


def decision_cost(text: str, hands: int, seed: int) -> dict[str, Any]:
    base = policy_of(text)
    assert isinstance(base, Pimc)
    timed = TimedPimc(samples=base.samples, tricks=base.tricks, seed=base.seed)
    contract = contract_class("herzla", "normal")()
    assert isinstance(contract, TrickContract)
    pack = [c.index for c in contract.pack().cards]
    cards, uniforms = draw_block(block_generator(seed, (0, 0)), hands, pack, 32)
    for i in range(hands):
        play_hand(contract, deal_masks(cards[i], 4, 8), 3, uniforms[i], timed)
    every = [t for _, t in timed.log]
    searched = [t for s, t in timed.log if s]
    return {"policy": text, "decisions": len(every), "searched": len(searched),
            "mean_s": sum(every) / len(every), "searched_mean_s": sum(searched) / len(searched),
            "max_s": max(every)}


def show(res: MatchResult) -> None:
    d = res.to_dict()
    print(f"  {d['game']} {d['contract'] or d['mode']}, {d['deals']:,} deals x "
          f"{d['seatings']} seatings, seed {d['seed']}: {res.elapsed:.1f} s")
    for s in d["standings"]:
        print(f"    {s['policy']:<12} mean {s['mean']:+8.2f}  95% CI [{s['ci95'][0]:+.2f}, "
              f"{s['ci95'][1]:+.2f}]  {s['hands']:,} hands")
    for p in d["pairs"]:
        print(f"    {p['a']} - {p['b']}: {p['diff']:+.2f}  95% CI [{p['ci95'][0]:+.2f}, "
              f"{p['ci95'][1]:+.2f}]")


#: the seating of the speed comparison: a match of two policies seats them so
SEATING = "heuristic,random,heuristic,random"


def cpu_rate(run: Callable[[], object], hands: int) -> float:
    """Hands per CPU second of ``run()`` (one process: ``jobs=1``)."""
    start = time.process_time()
    run()
    return hands / (time.process_time() - start)


def speed(hands: int, rounds: int, seed: int) -> dict[str, Any]:
    """A match against ``simulate`` with its seating (and with one policy alone), round by
    round in alternating order: the medians of hands per CPU second and of the ratios."""
    deals = hands // 2

    def run_match(n: int = deals) -> MatchResult:
        return match("herzla", ["heuristic", "random"], contract="normal", deals=n, seed=seed,
                     jobs=1)

    def run_sim(policy: str, n: int = 2 * deals) -> object:
        return simulate("herzla", "normal", hands=n, seed=seed, jobs=1, policy=policy)

    run_match(deals // 10)  # warm-up: imports, caches, the allocator
    run_sim(SEATING, deals // 5)
    runs: dict[str, Callable[[], object]] = {"match": run_match}
    for policy in (SEATING, "heuristic", "random"):
        runs[policy] = functools.partial(run_sim, policy)
    rates: dict[str, list[float]] = {k: [] for k in runs}
    for r in range(rounds):
        for name in (list(runs) if r % 2 == 0 else list(reversed(runs))):
            rates[name].append(cpu_rate(runs[name], 2 * deals))
    ratios = {k: [m / s for m, s in zip(rates["match"], v, strict=True)]
              for k, v in rates.items() if k != "match"}
    return {"hands": 2 * deals, "rounds": rounds,
            "rate": {k: statistics.median(v) for k, v in rates.items()},
            "ratio": {k: statistics.median(v) for k, v in ratios.items()},
            "spread": {k: (min(v), max(v)) for k, v in ratios.items()}}


PARTS = ("ladder", "decision", "speed")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=2000, help="heuristic vs random (2000)")
    ap.add_argument("--pimc-deals", type=int, default=400, help="pimc vs heuristic (400)")
    ap.add_argument("--pimc", default="pimc", help="the pimc policy and its parameters")
    ap.add_argument("--decision-hands", type=int, default=6,
                    help="hands timed decision by decision (6)")
    ap.add_argument("--speed-hands", type=int, default=400_000,
                    help="hands of the match/simulate speed comparison (400000)")
    ap.add_argument("--rounds", type=int, default=5,
                    help="rounds of the speed comparison, medians reported (5)")
    ap.add_argument("--only", choices=PARTS, action="append",
                    help="run only this part (repeatable; default all)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    parts = set(args.only or PARTS)
    print(f"herzla players benchmark: Python {platform.python_version()}, {sys.platform}, "
          f"jobs {args.jobs}, seed {args.seed}")

    if "ladder" in parts:
        print("\nLadder (duplicate matches, Herzla normal):")
        show(match("herzla", ["heuristic", "random"], contract="normal", deals=args.deals,
                   seed=args.seed, jobs=args.jobs))
        show(match("herzla", [args.pimc, "heuristic"], contract="normal",
                   deals=args.pimc_deals, seed=args.seed, jobs=args.jobs))

    if "decision" in parts:
        print(f"\npimc decision cost (CPU, one process, {args.decision_hands} hands, 4 pimc "
              f"seats):")
        c = decision_cost(args.pimc, args.decision_hands, args.seed)
        print(f"  {c['policy']}: {c['decisions']} decisions, {c['searched']} searched; mean "
              f"{c['mean_s']:.3f} s a decision ({c['searched_mean_s']:.3f} s a searched one), "
              f"slowest {c['max_s']:.2f} s")

    if "speed" in parts:
        sp = speed(args.speed_hands, args.rounds, args.seed)
        print(f"\nMatch vs simulate, hands per CPU second (heuristic and random, batch forms, "
              f"1 job; {sp['hands']:,} hands each, medians of {sp['rounds']} rounds):")
        print(f"  match heuristic,random ({sp['hands'] // 2:,} deals x 2 seatings): "
              f"{sp['rate']['match']:,.0f} hands/s")
        for policy, ratio in sp["ratio"].items():
            low, high = sp["spread"][policy]
            print(f"  simulate --policy {policy}: {sp['rate'][policy]:,.0f} hands/s; "
                  f"match/simulate {ratio:.2f} (rounds {low:.2f} to {high:.2f})")


if __name__ == "__main__":
    main()
