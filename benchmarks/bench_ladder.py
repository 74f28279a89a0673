"""Benchmark the ladder of players side by side: random < heuristic < pimc < ipimc < expert in
duplicate matches of Herzla's normal game, the children's Herzla and Herzeln and Herzerln
parties, OpenSpiel's Python IS-MCTS at expert's CPU time per decision, every policy's CPU time
per decision, and a measurement-only ceiling: a seat that sees every card.

    nice python benchmarks/bench_ladder.py --jobs 2                    # the run of docs/policies.md
    nice python benchmarks/bench_ladder.py --normal-deals 32 --partie-deals 2 --decision-hands 1
    python benchmarks/bench_ladder.py --report                         # what the state file holds

Five parts, in this order:

``decision``
    CPU time (``time.process_time``, this process) of every card decision of each policy, on
    ``--decision-hands`` seeded Herzla normal hands, each played once for every seating of the
    policies (expert, ipimc, pimc, heuristic, random; seat ``s`` of seating ``r`` plays policy
    ``(s + r) mod 5``): the median and the 95th percentile.  Then IS-MCTS is timed at two
    numbers of simulations on the same hands, its simulations set by the straight line through
    the two medians to expert's median, and timed again at that number (reported as the others).
``normal``
    One duplicate match of Herzla normal, ``--normal-deals`` deals, of expert, ipimc, pimc,
    IS-MCTS (at the simulations the decision part chose, or ``--ismcts-simulations``), the
    heuristic and random play: every pair with its 95% interval.
``pair``
    With ``--pair-deals``, a match of expert and pimc alone (seed ``--pair-seed``, default
    ``--seed`` + 1).
``kids``
    One duplicate match of the children's Herzla (3 players, its usual number; penalty points:
    lower is better),
    ``--kids-deals`` deals, of expert, ipimc, pimc, the heuristic and random play.
``partie``
    Duplicate matches of whole Herzeln and Herzerln parties, ``--partie-deals`` parties each,
    of expert, ipimc, pimc, the heuristic and random play.
``ceiling``
    ``--ceiling-deals`` Herzla normal deals, each played twice by a seat that sees every card
    (``Ceiling``: expert valuing its cards on the true deal alone; a measurement, never a
    policy users can pick) against the heuristic, and twice by expert against the heuristic,
    in this process's own duplicate loop (the ceiling reads the deal from it): each one's
    margin over the heuristic with its 95% interval, and the share of the ceiling's margin that
    expert reaches.

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

from herzla.analysis.expert import Expert
from herzla.contracts import TrickContract, contract_class
from herzla.hand import Move
from herzla.players import LayoutView, Policy, TrickView, policy_of
from herzla.players.heuristic import heuristic_move
from herzla.sim.match import (
    MatchPlan,
    MatchResult,
    MatchTally,
    match_result,
    plan_match,
    play_match_task,
)
from herzla.sim.plan import Mode
from herzla.sim.reference import play_hand
from herzla.sim.runner import tasks_of
from herzla.support.procs import local_map
from herzla.support.streams import block_generator, deal_masks, draw_block

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

    def move(self, view: TrickView | LayoutView) -> Move:
        from open_spiel.python.algorithms import ismcts, mcts

        import herzla.openspiel as hos

        if not isinstance(view, TrickView):  # a layout deal: as the heuristic lays
            return heuristic_move(view)
        legal = view.legal_moves()
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

        move: Move = hos.bot_policy(game, make, seed=int(rs.randint(2**31))).move(view)
        return move


ISMCTS = "bench_ladder:Ismcts"

# -- the ceiling: a seat that sees every card (a measurement, never a policy to pick) -----------

#: the deal being played, as dealt (the ceiling's loop sets it before each hand)
_TRUE: list[int] = []


@attrs.frozen(slots=True)
class Ceiling(Expert):
    """``expert`` with the true deal as every world: what its way of valuing cards reaches
    when nothing is hidden.  It reads the deal from :data:`_TRUE`, which only this module's
    own duplicate loop (:func:`ceiling_part`) sets: it cannot play in ``herzla match``."""

    name = "ceiling"

    def trick_worlds(self, view: TrickView) -> list[tuple[list[int], int]]:
        assert _TRUE and _TRUE[view.seat] & view.hand == view.hand, "the ceiling's own loop"
        # the true deal in every world expert would draw, each played out with its own draw of
        # the other seats' spread play (one world would value each card on one line of play);
        # where nothing is drawn (max^n, or no spread) every copy has the same value: one world
        draws = self.spread > 0 and not self.searches(view)
        return [(list(_TRUE), 1) for _ in range(self.world_count(view) if draws else 1)]


def margins(policy: str, deals: Sequence[tuple[list[int], Any]],
            against: str = "heuristic") -> list[float]:
    """Per Herzla normal deal, the mean score of ``policy``'s seats minus ``against``'s over the
    seatings ``P A P A`` and ``A P A P`` (a duplicate match's per-deal difference)."""
    contract = contract_class("herzla", "normal")()
    me = Ceiling() if policy == "ceiling" else policy_of(policy)
    other = policy_of(against)
    out = []
    for hands, uniforms in deals:
        _TRUE[:] = hands
        mine = theirs = 0
        for r in range(2):
            seats = [me if (s + r) % 2 == 0 else other for s in range(4)]
            hand, _ = play_hand(contract, list(hands), 3, uniforms, seats)
            scores = hand.score().scores
            mine += sum(scores[s] for s in range(4) if seats[s] is me)
            theirs += sum(scores[s] for s in range(4) if seats[s] is other)
        out.append((mine - theirs) / 4)
    return out


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval (normal approximation)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def ceiling_part(args: argparse.Namespace) -> None:
    contract = contract_class("herzla", "normal")()
    pack = [c.index for c in contract.pack().cards]
    cards, uniforms = draw_block(block_generator(args.seed, (11, 0)), args.ceiling_deals, pack,
                                 32)
    deals = [(deal_masks(cards[i], 4, 8), uniforms[i]) for i in range(args.ceiling_deals)]
    chunks = [deals[i:i + 8] for i in range(0, len(deals), 8)]
    print(f"\nThe ceiling (Herzla normal, {len(deals)} deals x 2 seatings against the heuristic, "
          f"load {load()}):")
    got = {}
    for name in ("ceiling", args.expert):
        play = functools.partial(margins, name)
        parts = list(local_map(play, chunks, args.jobs - 1))
        got[name] = [x for part in parts for x in part]
        mean, lo, hi = mean_interval(got[name])
        print(f"  {short(name):<26} - heuristic: {mean:+.2f}  95% CI [{lo:+.2f}, {hi:+.2f}]",
              flush=True)
    ceiling = statistics.fmean(got["ceiling"])
    expert = statistics.fmean(got[args.expert])
    print(f"  expert reaches {expert / ceiling:.0%} of the ceiling's margin over the heuristic")

# -- CPU per decision ---------------------------------------------------------------------------


class Timed(Policy):
    """A policy, with the CPU time of each of its card decisions."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.name = policy.name  # type: ignore[misc]
        self.log: list[float] = []

    def move(self, view: TrickView | LayoutView) -> Move:
        start = time.process_time()
        move = self.policy.move(view)
        self.log.append(time.process_time() - start)
        return move


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
    names = [args.expert, args.ipimc, args.pimc, "heuristic", "random"]
    print(f"\nCPU per decision (one process, {args.decision_hands} Herzla normal hands x "
          f"{len(names)} seatings, load {load()}):")
    logs = timed_hands([policy_of(n) for n in names], args.decision_hands, args.seed)
    for n, log in zip(names, logs, strict=True):
        show_times(n, log)
    target = quantiles(logs[0])[0]
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
              f"{b * 1000:.1f} ms at {hi}: {sims} simulations for expert's median "
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
    res = match_result(mp, total, saved["elapsed"], jobs)
    show(label, res, saved, mp.first.blocks, len(blocks))
    return res


def show(label: str, res: MatchResult, saved: dict[str, Any], blocks: int, done: int) -> None:
    d = res.to_dict()
    loads = saved["loads"]
    part = "" if done == blocks else f" (PARTIAL: {done} of {blocks} blocks)"
    what = d["contract"] or d["mode"]
    # a partie match deals whole parties: each counts as one, a policy's seats in them as hands
    one, hands = ("partie", "seats") if d["mode"] == Mode.PARTIE else ("deal", "hands")
    deals = one if d["deals"] == 1 else "parties" if one == "partie" else "deals"
    print(f"  {label}: {d['game']} {what}, {d['deals']:,} {deals} x {d['seatings']} seatings, "
          f"seed {d['seed']}{part}: {res.elapsed:.0f} s")
    if loads:
        print(f"    load average (1 min) as the blocks came in: median "
              f"{statistics.median(loads):.1f}, from {min(loads):.1f} to {max(loads):.1f}")
    for s in d["standings"]:
        print(f"    {short(s['policy']):<26} mean {s['mean']:+8.2f}  {interval(s['ci95'])}  "
              f"{s['hands']:,} {hands}")
    for p in d["pairs"]:
        ci = p["ci95"]
        verdict = (f"one {one}: no interval" if ci is None
                   else "excludes 0" if ci[0] > 0 or ci[1] < 0 else "includes 0")
        print(f"    {short(p['a'])} - {short(p['b'])}: {p['diff']:+.2f}  {interval(ci)} "
              f"({verdict})")


def interval(ci: Sequence[float] | None) -> str:
    """A 95% interval as printed (a match of one deal or partie has none)."""
    return "95% CI [n/a]" if ci is None else f"95% CI [{ci[0]:+.2f}, {ci[1]:+.2f}]"


def short(name: str) -> str:
    return name.replace(f"{ISMCTS}[", "ismcts[")


PARTS = ("decision", "normal", "pair", "kids", "partie", "ceiling")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--normal-deals", type=int, default=2000, help="Herzla normal deals (2000)")
    ap.add_argument("--pair-deals", type=int, default=0,
                    help="deals of an extra match of expert and pimc alone (0: none)")
    ap.add_argument("--pair-seed", type=int, default=0,
                    help="the seed of the pair's match (default: --seed + 1)")
    ap.add_argument("--partie-deals", type=int, default=200,
                    help="Herzeln and Herzerln parties, each (200)")
    ap.add_argument("--kids-deals", type=int, default=1000,
                    help="children's Herzla deals (1000)")
    ap.add_argument("--ceiling-deals", type=int, default=400,
                    help="Herzla normal deals of the ceiling and expert (400)")
    ap.add_argument("--decision-hands", type=int, default=4,
                    help="hands timed decision by decision (4)")
    ap.add_argument("--expert", default="expert", help="the expert policy and its parameters")
    ap.add_argument("--ipimc", default="ipimc", help="the ipimc policy and its parameters")
    ap.add_argument("--pimc", default="pimc", help="the pimc policy and its parameters")
    ap.add_argument("--ismcts-simulations", type=int, default=0,
                    help="IS-MCTS simulations a move (default: matched to pimc's median)")
    ap.add_argument("--ismcts-uct", type=float, default=2.0,
                    help="IS-MCTS's UCT constant, times the game's largest return (2)")
    ap.add_argument("--few", action="store_true",
                    help="the children's Herzla and the parties with expert, pimc and the "
                         "heuristic alone (a smaller run)")
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
        names = [args.expert, args.ipimc, args.pimc]
        if sims:
            names.append(f"{ISMCTS}[simulations={sims},uct={args.ismcts_uct}]")
        names += ["heuristic", "random"]
        play_match(state, "ladder", "herzla", names, contract="normal", partie=False,
                   deals=args.normal_deals, seed=args.seed, jobs=args.jobs,
                   report_only=args.report)
    if "pair" in parts and args.pair_deals:
        print("\nHerzla normal, expert and pimc alone (duplicate match):")
        play_match(state, "pair", "herzla", [args.expert, args.pimc], contract="normal",
                   partie=False, deals=args.pair_deals, seed=args.pair_seed or args.seed + 1,
                   jobs=args.jobs, report_only=args.report)
    ladder = ([args.expert, args.ipimc, args.pimc, "heuristic", "random"] if not args.few
              else [args.expert, args.pimc, "heuristic"])
    if "kids" in parts:
        print("\nThe children's Herzla, 3 players (duplicate match; penalty points, lower is "
              "better):")
        play_match(state, "kids", "herzla-kids", ladder, contract=None, partie=False,
                   deals=args.kids_deals, seed=args.seed, jobs=args.jobs,
                   report_only=args.report)
    if "partie" in parts:
        for game in ("herzeln", "herzerln"):
            print(f"\n{game.capitalize()} parties (duplicate match):")
            play_match(state, game, game, ladder, contract=None, partie=True,
                       deals=args.partie_deals, seed=args.seed, jobs=args.jobs,
                       report_only=args.report)
    if "ceiling" in parts and not args.report:
        ceiling_part(args)
    print(f"\nfinished {time.strftime('%Y-%m-%d %H:%M')}, load {load()}")


if __name__ == "__main__":
    main()
