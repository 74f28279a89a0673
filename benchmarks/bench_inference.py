"""How well the inference places the cards a seat cannot see, on positions of real play.

``ipimc`` and ``expert`` weigh the deals of the unseen cards by how likely each makes the other
seats' plays under a model of their play (:mod:`herzla.analysis.inference`): the heuristic's
order softened at ``temperature``, and with probability ``doubt`` any legal card alike.  This
measures that model against seats that are not the heuristic:

    python benchmarks/bench_inference.py                        # 40 deals, the models below
    python benchmarks/bench_inference.py --deals 160 --jobs 2 --model 1,0 --model 0.3,0.5

It plays ``--deals`` Herzla normal deals (seeded), ``expert`` at two seats and ``pimc`` at the
other two (both seatings), and keeps every position where an ``expert`` seat had a choice.  At
each, ``--candidates`` deals of the unseen cards are drawn (uniform among those that keep what
the seat knows, the same draws for every model) and weighed by each model; it reports

- *log score*: the mean over the unseen cards of log P(the card's true holder), P the weighed
  share of the deals that put it there (floored at 0.001): a proper score, higher is better; a
  model sure of a wrong place pays for it;
- *placed right*: the mean of those P (uniform weights give the share a blind guess gets);
- *ranks*: how often the other seats played the card the heuristic's order puts k-th among
  their legal cards, by how many legal cards they had (leading or discarding, following), beside
  what the model at temperature 1 (the default) says.
"""

from __future__ import annotations

import argparse
import collections
import math
import multiprocessing
import platform
import random
import time
from collections.abc import Sequence
from typing import cast

import attrs

from herzla.analysis.expert import Expert
from herzla.analysis.inference import constraints, log_likelihoods, play_log_p
from herzla.analysis.pimc import Pimc
from herzla.cards import cards_of
from herzla.contracts import contract_class
from herzla.hand import Move
from herzla.kinds.tricks import TrickHand
from herzla.players.heuristic import heuristic_order
from herzla.players.policy import Policy
from herzla.players.unseen import uniform_deals
from herzla.players.views import LayoutView, TrickView
from herzla.sim.reference import play_hand

Position = tuple[TrickView, list[int]]


@attrs.frozen
class Watched(Policy):
    """``inner``'s cards, keeping each view with a choice in ``seen``."""

    name = "watched"
    inner: Policy = attrs.field(factory=Expert)
    seen: list[TrickView] = attrs.field(factory=list)

    def move(self, view: TrickView | LayoutView) -> Move:
        if isinstance(view, TrickView) and len(cards_of(view.legal)) > 1:
            self.seen.append(view)
        return self.inner.move(view)


def _positions(deal: tuple[int, int]) -> list[Position]:
    """The positions of one seeded deal where an ``expert`` seat had a choice, with the deal."""
    seed, i = deal
    normal = contract_class("herzla", "normal")()
    rng = random.Random(seed * 1_000_003 + i)
    pack = list(normal.pack().cards)
    rng.shuffle(pack)
    hands = [sum(c.bit for c in pack[s * 8:(s + 1) * 8]) for s in range(4)]
    out: list[Position] = []
    for first in (0, 1):
        seats: list[Policy] = [Pimc()] * 4
        watched = [Watched() for _ in range(2)]
        for k, w in enumerate(watched):
            seats[first + 2 * k] = w
        uniforms = [rng.getrandbits(32) for _ in range(64)]
        play_hand(normal, list(hands), i % 4, uniforms, seats)
        out.extend((v, list(hands)) for w in watched for v in w.seen)
    return out


def _scores(pos: Position, rng: random.Random, candidates: int,
            models: Sequence[tuple[float, float]]) -> list[tuple[float, float]] | None:
    """(log score, placed right) of each model at one position."""
    view, true = pos
    unseen = constraints(view)
    if not unseen.cards:
        return None
    got = uniform_deals(unseen.cards, unseen.need, unseen.forbidden, rng, candidates)
    deals = [unseen.seated(g) for g in got]
    holder = {c: next(s for s in range(view.players) if true[s] >> c.index & 1)
              for c in unseen.cards}
    out = []
    for temperature, doubt in models:
        logs = log_likelihoods(view, deals, temperature, doubt)
        top = max(logs)
        w = [math.exp(x - top) for x in logs]
        total = sum(w)
        ps = [sum(x for x, d in zip(w, deals, strict=True) if d[holder[c]] >> c.index & 1)
              / total for c in unseen.cards]
        out.append((sum(math.log(max(p, 1e-3)) for p in ps) / len(ps), sum(ps) / len(ps)))
    return out


def _ranks(positions: Sequence[Position]) -> dict[tuple[int, bool], collections.Counter[int]]:
    """How often the other seats played the heuristic's k-th card, by (legal cards, whether
    they followed suit), each seat's play counted once (from the last position seen of its
    hand): the hand replayed on the true deal, as :func:`log_likelihood` replays it."""
    last: dict[tuple[tuple[int, ...], int], Position] = {}
    for view, true in positions:
        key = (tuple(true), view.seat)
        if key not in last or len(view.plays()) > len(last[key][0].plays()):
            last[key] = (view, true)
    out: dict[tuple[int, bool], collections.Counter[int]] = collections.defaultdict(
        collections.Counter)
    for view, true in last.values():
        hand = cast(TrickHand, view.contract.new_hand(list(true), view.dealer, view.stock))
        for s, c in view.plays():
            legal = hand.legal_mask().bit_count()
            if s != view.seat and legal > 1:
                follows = bool(hand.trick) and c.suit == hand.trick[0].suit
                out[(legal, follows)][heuristic_order(hand).index(c)] += 1
            hand.play(c)
    return out


def _model(text: str) -> tuple[float, float]:
    temperature, doubt = (float(x) for x in text.split(","))
    return temperature, doubt


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--candidates", type=int, default=256)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--model", action="append", default=[],
                    help="TEMPERATURE,DOUBT (repeatable; default: 1,0 0.3,0.5 1000,0)")
    args = ap.parse_args(argv)
    models = [_model(m) for m in args.model] or [(1.0, 0.0), (0.3, 0.5), (1000.0, 0.0)]
    deals = [(args.seed, i) for i in range(args.deals)]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            found = pool.map(_positions, deals)
    else:
        found = [_positions(d) for d in deals]
    positions = [p for ps in found for p in ps]
    rng = random.Random(args.seed)
    sums = [[0.0, 0.0] for _ in models]
    n = 0
    for pos in positions:
        got = _scores(pos, rng, args.candidates, models)
        if got is None:
            continue
        n += 1
        for acc, (score, right) in zip(sums, got, strict=True):
            acc[0] += score
            acc[1] += right
    print(f"inference against expert and pimc: Python {platform.python_version()}, "
          f"{args.deals} Herzla normal deals x 2 seatings, seed {args.seed}, {n} positions, "
          f"{args.candidates} deals weighed each, {time.strftime('%Y-%m-%d %H:%M')}")
    for (temperature, doubt), (score, right) in zip(models, sums, strict=True):
        print(f"  temperature {temperature:<7g} doubt {doubt:<4g}  log score {score / n:+.4f}"
              f"   placed right {right / n:.4f}")
    print("  the other seats' plays: share of the heuristic's k-th card (k = 0, 1, ...)")
    for (m, follows), counts in sorted(_ranks(positions).items()):
        total = sum(counts.values())
        seen = " ".join(f"{counts[k] / total:.2f}" for k in range(m))
        model = " ".join(f"{math.exp(play_log_p(k, m, 1.0)):.2f}" for k in range(m))
        how = "following" if follows else "leading or discarding"
        print(f"    {m} legal, {how:<21} {total:5d} plays: {seen}   (model: {model})")


if __name__ == "__main__":
    main()
