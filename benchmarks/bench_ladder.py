"""Benchmark the ladder of players side by side: random < heuristic < pimc < ipimc in duplicate
matches of Herzla's normal game and of Herzeln parties, OpenSpiel's Python IS-MCTS at pimc's CPU
time per decision, and every policy's CPU time per decision.

    nice python benchmarks/bench_ladder.py --jobs 2                    # the run of docs/policies.md
    nice python benchmarks/bench_ladder.py --normal-deals 32 --partie-deals 2 --decision-hands 1
    python benchmarks/bench_ladder.py --report                         # what the state file holds

Three parts, in this order:

``decision``
    CPU time (``time.process_time``, this process) of every card decision of each policy, on
    ``--decision-hands`` seeded Herzla normal hands, each played once for every seating of the
    policies (ipimc, pimc, heuristic, random; seat ``s`` of seating ``r`` plays policy
    ``(s + r) mod 4``): the median and the 95th percentile.  Then IS-MCTS is timed at two
    numbers of simulations on the same hands, its simulations set by the straight line through
    the two medians to pimc's median, and timed again at that number (reported as the others).
``normal``
    One duplicate match of Herzla normal, ``--normal-deals`` deals, of ipimc, pimc, IS-MCTS (at
    the simulations the decision part chose, or ``--ismcts-simulations``), the heuristic and
    random play: every pair with its 95% interval.  ``--pair-deals`` adds a match of ipimc and
    pimc alone (twice the deals for the same CPU time: the pair's interval narrows).
``partie``
    One duplicate match of whole Herzeln parties, ``--partie-deals`` parties, of ipimc, pimc,
    the heuristic and random play.

The matches are ``herzla.match``'s, played block by block (16 deals a block) on ``--jobs``
processes; each block's exact sums are written to the state file (``--state``) as it comes
back, so a run stopped part way goes on from there when started again with the same
arguments, and ``--report`` prints the standings of the blocks done so far.  The answer for a
match is the one ``herzla match`` gives with the same deals and seed.  The load average of the
machine is printed as the blocks come in.  Not part of the test suite.

IS-MCTS is ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with random roll-outs, played
through ``herzla.openspiel.bot_policy`` (a seat's view made into an OpenSpiel state whose unseen
cards are drawn to fit it); its UCT constant is ``--ismcts-uct`` times the game's largest
return, and it plays a lone legal card without searching, as pimc does.  It needs the
``openspiel`` extra.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from herzla.cards import Card
from herzla.contracts import TrickContract, contract_class
from herzla.layout import Lay
from herzla.machinery.procs import local_map
from herzla.machinery.streams import block_generator, deal_masks, draw_block
from herzla.players import LayoutView, Policy, TrickView, policy_of
from herzla.players.heuristic import heuristic_lay
from herzla.sim.match import (
    MatchPlan,
    MatchResult,
    MatchTally,
    _result,
    plan_match,
    play_match_task,
)
from herzla.sim.reference import play_hand
from herzla.sim.runner import tasks_of

# -- IS-MCTS as a herzla policy ---------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _game(game: str, params: tuple[tuple[str, Any], ...]) -> Any:
    import pyspiel

    import herzla.openspiel as hos

    return pyspiel.load_game(hos.register(game), dict(params))


@attrs.frozen(slots=True)
class Ismcts(Policy):
    """OpenSpiel's Python IS-MCTS (random roll-outs) for trick deals, through
    ``herzla.openspiel.bot_policy``; a new bot for each decision, seeded from the move's uniform,
    the seat and the cards played (the same play for any number of processes)."""

    name = "ismcts"

    simulations: int = 8
    uct: float = 2.0
    seed: int = 0

    def card(self, view: TrickView) -> Card:
        from open_spiel.python.algorithms import ismcts, mcts

        import herzla.openspiel as hos

        legal = view.legal_plays
        if len(legal) == 1:
            return legal[0]
        c = view.contract
        params: dict[str, Any] = {"contract": c.id, "players": c.players,
                                  "dealer": view.dealer, **c.opts}
        if c.declarer is not None:
            params["declarer"] = c.declarer
        if view.stock:
            params["stock"] = view.stock
        game = _game(c.game, tuple(sorted(params.items())))
        seed = [view.uniform, self.seed, view.seat, len(view.plays())]
        rs = np.random.RandomState(np.random.SeedSequence(seed).generate_state(1))

        def make(g: Any, seat: int) -> Any:
            return ismcts.ISMCTSBot(g, mcts.RandomRolloutEvaluator(1, rs),
                                    self.uct * g.max_utility(), self.simulations,
                                    random_state=rs)

        card: Card = hos.bot_policy(game, make, seed=int(rs.randint(2**31))).card(view)
        return card

    def lay(self, view: LayoutView) -> Lay | None:
        return heuristic_lay(view)


ISMCTS = "bench_ladder:Ismcts"

# -- CPU per decision ---------------------------------------------------------------------------


class Timed(Policy):
    """A policy, with the CPU time of each of its card decisions."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.name = policy.name  # type: ignore[misc]
        self.log: list[float] = []

    def card(self, view: TrickView) -> Card:
        start = time.process_time()
        card = self.policy.card(view)
        self.log.append(time.process_time() - start)
        return card

    def lay(self, view: LayoutView) -> Lay | None:
        return self.policy.lay(view)


def timed_hands(policies: Sequence[Policy], hands: int, seed: int) -> list[list[float]]:
    """Each policy's decision times over ``hands`` seeded Herzla normal hands, each hand played
    once for every seating of the policies."""
    contract = contract_class("herzla", "normal")()
    assert isinstance(contract, TrickContract)
    pack = [c.index for c in contract.pack().cards]
    cards, uniforms = draw_block(block_generator(seed, (9, 0)), hands, pack, 32)
    timed = [Timed(p) for p in policies]
    k = len(timed)
    for i in range(hands):
        for r in range(k):
            seats = [timed[(s + r) % k] for s in range(4)]
            play_hand(contract, deal_masks(cards[i], 4, 8), 3, uniforms[i], seats)
    return [t.log for t in timed]


def quantiles(log: Sequence[float]) -> tuple[float, float, float]:
    """Median, 95th percentile and mean."""
    ordered = sorted(log)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return statistics.median(ordered), p95, statistics.fmean(ordered)


def show_times(label: str, log: Sequence[float]) -> None:
    med, p95, mean = quantiles(log)
    print(f"  {label:<34} {len(log):5d} decisions: median {med * 1000:7.1f} ms, "
          f"95th percentile {p95 * 1000:7.1f} ms, mean {mean * 1000:7.1f} ms")


def decision_part(args: argparse.Namespace) -> int:
    names = [args.ipimc, args.pimc, "heuristic", "random"]
    print(f"\nCPU per decision (one process, {args.decision_hands} Herzla normal hands x "
          f"{len(names)} seatings, load {load()}):")
    logs = timed_hands([policy_of(n) for n in names], args.decision_hands, args.seed)
    for n, log in zip(names, logs, strict=True):
        show_times(n, log)
    target = quantiles(logs[1])[0]
    if args.ismcts_simulations:
        sims = args.ismcts_simulations
    else:
        lo, hi = 2, 16
        probe = timed_hands([Ismcts(simulations=lo, uct=args.ismcts_uct),
                             Ismcts(simulations=hi, uct=args.ismcts_uct)], 1, args.seed + 1)
        a, b = (quantiles(p)[0] for p in probe)
        per = max((b - a) / (hi - lo), 1e-6)
        sims = max(1, round(lo + (target - a) / per))
        print(f"  IS-MCTS probes (1 hand): median {a * 1000:.1f} ms at {lo} simulations, "
              f"{b * 1000:.1f} ms at {hi}: {sims} simulations for pimc's median "
              f"{target * 1000:.1f} ms")
    spec = f"{ISMCTS}[simulations={sims},uct={args.ismcts_uct}]"
    [log] = timed_hands([policy_of(spec)], args.decision_hands, args.seed)
    show_times(f"ismcts[simulations={sims}]", log)
    return sims


# -- matches, block by block, resumable -------------------------------------------------------


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def _tally_json(t: MatchTally) -> dict[str, Any]:
    return attrs.asdict(t)


def _tally_of(d: dict[str, Any]) -> MatchTally:
    return MatchTally(d["deals"], *(tuple(d[k]) for k in
                                    ("sums", "squares", "pair_sums", "pair_squares")))


class State:
    """The state file: per match (by its arguments), the tally of each block done."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.data: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}

    def match(self, key: str) -> dict[str, Any]:
        out: dict[str, Any] = self.data.setdefault(key, {"blocks": {}, "elapsed": 0.0,
                                                         "loads": []})
        return out

    def save(self) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.data))
        tmp.replace(self.path)


def play_match(state: State, label: str, game: str, policies: Sequence[str], *,
               contract: str | None, partie: bool, deals: int, seed: int, jobs: int,
               report_only: bool) -> MatchResult | None:
    mp: MatchPlan = plan_match(game, list(policies), contract, partie=partie, deals=deals,
                               seed=seed)
    key = json.dumps([game, contract, partie, deals, seed, list(policies)])
    saved = state.match(key)
    blocks: dict[str, Any] = saved["blocks"]
    todo = [t for t in tasks_of(mp.first, 1) if str(t.first) not in blocks]
    if todo and not report_only:
        print(f"  {label}: {len(todo)} of {mp.first.blocks} blocks to play "
              f"(load {load()})", file=sys.stderr, flush=True)
        start = time.perf_counter()
        base = saved["elapsed"]
        play = functools.partial(play_match_task, mp)
        results = local_map(play, todo, jobs - 1)
        for n, (task, tally) in enumerate(zip(todo, results, strict=True), 1):
            blocks[str(task.first)] = _tally_json(tally)
            saved["elapsed"] = base + time.perf_counter() - start
            saved["loads"].append(os.getloadavg()[0])
            state.save()
            if n % max(1, len(todo) // 20) == 0 or n == len(todo):
                print(f"    {label}: {n}/{len(todo)} blocks, {saved['elapsed']:.0f} s, "
                      f"load {load()}", file=sys.stderr, flush=True)
    if not blocks:
        print(f"  {label}: nothing played yet")
        return None
    tallies = [_tally_of(t) for t in blocks.values()]
    total = functools.reduce(MatchTally.merge, tallies)
    res = _result(mp, total, saved["elapsed"], jobs)
    show(label, res, saved, mp.first.blocks, len(blocks))
    return res


def show(label: str, res: MatchResult, saved: dict[str, Any], blocks: int, done: int) -> None:
    d = res.to_dict()
    loads = saved["loads"]
    part = "" if done == blocks else f" (PARTIAL: {done} of {blocks} blocks)"
    what = d["contract"] or d["mode"]
    print(f"  {label}: {d['game']} {what}, {d['deals']:,} deals x {d['seatings']} seatings, "
          f"seed {d['seed']}{part}: {res.elapsed:.0f} s")
    if loads:
        print(f"    load average (1 min) as the blocks came in: median "
              f"{statistics.median(loads):.1f}, from {min(loads):.1f} to {max(loads):.1f}")
    for s in d["standings"]:
        print(f"    {short(s['policy']):<26} mean {s['mean']:+8.2f}  95% CI [{s['ci95'][0]:+.2f}, "
              f"{s['ci95'][1]:+.2f}]  {s['hands']:,} hands")
    for p in d["pairs"]:
        lo, hi = p["ci95"]
        verdict = "excludes 0" if lo > 0 or hi < 0 else "includes 0"
        print(f"    {short(p['a'])} - {short(p['b'])}: {p['diff']:+.2f}  95% CI [{lo:+.2f}, "
              f"{hi:+.2f}] ({verdict})")


def short(name: str) -> str:
    return name.replace(f"{ISMCTS}[", "ismcts[")


PARTS = ("decision", "normal", "partie")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--normal-deals", type=int, default=2000, help="Herzla normal deals (2000)")
    ap.add_argument("--pair-deals", type=int, default=0,
                    help="deals of an extra match of ipimc and pimc alone (0: none)")
    ap.add_argument("--partie-deals", type=int, default=200, help="Herzeln parties (200)")
    ap.add_argument("--decision-hands", type=int, default=4,
                    help="hands timed decision by decision (4)")
    ap.add_argument("--ipimc", default="ipimc", help="the ipimc policy and its parameters")
    ap.add_argument("--pimc", default="pimc", help="the pimc policy and its parameters")
    ap.add_argument("--ismcts-simulations", type=int, default=0,
                    help="IS-MCTS simulations a move (default: matched to pimc's median)")
    ap.add_argument("--ismcts-uct", type=float, default=2.0,
                    help="IS-MCTS's UCT constant, times the game's largest return (2)")
    ap.add_argument("--only", choices=PARTS, action="append",
                    help="run only this part (repeatable; default all)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--state", type=Path, default=Path("bench_ladder.state.json"),
                    help="the blocks done so far (bench_ladder.state.json)")
    ap.add_argument("--report", action="store_true",
                    help="print what the state file holds; play nothing")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).parent))  # the workers find bench_ladder:Ismcts
    parts = set(args.only or PARTS)
    if args.report:
        parts.discard("decision")
    state = State(args.state)
    print(f"herzla ladder benchmark: Python {platform.python_version()}, {sys.platform}, "
          f"{os.cpu_count()} cores, jobs {args.jobs}, seed {args.seed}, "
          f"{time.strftime('%Y-%m-%d %H:%M')}, load {load()}")

    sims = args.ismcts_simulations
    if "decision" in parts:
        sims = decision_part(args)
        state.data["ismcts_simulations"] = sims
        state.save()
    sims = sims or state.data.get("ismcts_simulations", 0)
    if "normal" in parts:
        print("\nHerzla normal (duplicate matches):")
        names = [args.ipimc, args.pimc]
        if sims:
            names.append(f"{ISMCTS}[simulations={sims},uct={args.ismcts_uct}]")
        names += ["heuristic", "random"]
        play_match(state, "ladder", "herzla", names, contract="normal", partie=False,
                   deals=args.normal_deals, seed=args.seed, jobs=args.jobs,
                   report_only=args.report)
        if args.pair_deals:
            play_match(state, "pair", "herzla", [args.ipimc, args.pimc], contract="normal",
                       partie=False, deals=args.pair_deals, seed=args.seed + 1, jobs=args.jobs,
                       report_only=args.report)
    if "partie" in parts:
        print("\nHerzeln parties (duplicate match):")
        play_match(state, "partie", "herzeln", [args.ipimc, args.pimc, "heuristic", "random"],
                   contract=None, partie=True, deals=args.partie_deals, seed=args.seed,
                   jobs=args.jobs, report_only=args.report)
    print(f"\nfinished {time.strftime('%Y-%m-%d %H:%M')}, load {load()}")


if __name__ == "__main__":
    main()
