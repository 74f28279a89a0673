"""``pimc``: perfect-information Monte Carlo, the strong player.

At each card it plays, the seat deals the cards it has not seen among the other seats (and the
cards lying aside, where the pack is not dealt out) at random, consistently with everything it
has seen: the number of cards each seat still holds, the suits a seat has shown it lacks by not
following, the lead and discard bans (every card played so far must have been legal with the
sampled hands) and the announcements (each other seat's sampled hand must announce what that seat
announced, by the bidding heuristic; a sample that cannot be found so within a bounded number
of tries keeps the other constraints only).  It solves every sampled deal exactly with the
double-dummy solver (:func:`herzla.analysis.solve.solve`, on a hand record of the sampled deal
and the plays so far), which values each legal card as the seat's score with perfect play
after it (in Beddl and Mord: the seat's cents of the contract made or lost; in the children's
Herzla, penalty points, which it minimises), and plays the card with the best mean over the
samples; among equal means, the one whose heuristic play-out on the same samples scores best
(``rollout``), then the heuristic's card where it is one of them, else the lowest.

Parameters (``pimc[samples=16,seed=3]``):

``samples`` (default 8)
    deals sampled at each decision: more plays better and costs proportionally more.
``tricks`` (default 7)
    search only once at most this many tricks are left to play (the trick in progress
    counted); before that, play the heuristic's card.  A Herzla hand searched from its first
    card costs about five times as much as one searched from its second trick, and that ten
    times as much as from its third, so the default leaves the first trick to the heuristic
    (``tricks=8``: search every card).  The Policies page of the docs gives the measured cost.
``rollout`` (default true)
    among cards of equal mean against perfect defence (the solver values a seat's score with all
    the other seats playing against it, which often leaves several cards equal), play the one
    whose heuristic play-out (every seat playing the heuristic after it) scores best on the same
    samples; false: the heuristic's card among them.
``seed`` (default 0)
    mixed into each decision's generator, which is seeded from the move's uniform of the
    simulation's seeded stream, the seat and the number of cards played: the same simulation
    seed gives the same play, whatever the number of processes.

It announces with the bidding heuristic, and lays layout deals (the domino, Auflegen) as the
heuristic does.  It has no batch form: ``--engine batch`` plays it on the reference engine.

>>> from herzla.contracts import contract_class
>>> from herzla.cards import mask_of, parse_cards
>>> from herzla.kinds.tricks import TrickHand
>>> from herzla.players.views import TrickView
>>> normal = contract_class("herzla", "normal")()
>>> hands = [mask_of(parse_cards(h)) for h in (
...     "CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
...     "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8")]
>>> state = TrickHand(normal, hands, dealer=3)
>>> for code in ("C7", "CA", "C8", "C9", "D7"):
...     _ = state.play(parse_cards(code)[0])
>>> str(Pimc(samples=2, tricks=8).move(TrickView.of(state, uniform=5)))  # no heart in it yet
'DA'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

import attrs
import numpy as np

from herzla.cards import Card, cards_of
from herzla.contracts import Contract, contract_class, game_of
from herzla.hand import Move
from herzla.i18n import N_, _
from herzla.kinds.tricks import TrickHand
from herzla.players.announcing import announce
from herzla.players.builtin import explain_heuristic
from herzla.players.heuristic import WHY, heuristic_card, heuristic_move, heuristic_play
from herzla.players.known import constraints
from herzla.players.policy import Hint, Policy
from herzla.players.unseen import uniform_deal
from herzla.players.views import LayoutView, TrickView, trick_view
from herzla.records import Record
from herzla.round import Round
from herzla.support.words import decimal

__all__ = ["Judgement", "Pimc", "announces_as_seen", "bidding_base", "rollout", "sample_hands"]

#: tries at a sample that also fits the announcements before keeping the other constraints only
ANNOUNCEMENT_TRIES = 64
#: tries at a deal that fits the voids and bans before giving up on the bans
DEAL_TRIES = 200


def _generator(view: TrickView, seed: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(
        [view.uniform, seed, view.seat, len(view.plays())]))


def _deal(rng: np.random.Generator, unseen: Sequence[Card], need: Sequence[int],
          forbidden: Sequence[int]) -> list[int] | None:
    """Deal ``unseen`` to the holders (``need`` cards each, none of its ``forbidden`` cards: the
    suits it lacks); the last holder may be the cards aside.  None at a dead end (the caller
    tries again)."""
    order = rng.permutation(len(unseen))
    left = list(need)
    out = [0] * len(need)
    cards = [unseen[int(i)] for i in order]
    # the most constrained cards first: those few holders may take
    cards.sort(key=lambda c: sum(1 for f in forbidden if not f >> c.index & 1))
    for c in cards:
        ok = [h for h in range(len(need)) if left[h] and not forbidden[h] >> c.index & 1]
        if not ok:
            return None
        weights = np.array([left[h] for h in ok], dtype=np.float64)
        h = ok[int(rng.choice(len(ok), p=weights / weights.sum()))]
        out[h] |= c.bit
        left[h] -= 1
    return out


def sample_hands(view: TrickView, rng: np.random.Generator,
                 announcements: bool = True) -> list[int]:
    """One deal (every seat's cards as dealt, bit sets) consistent with what ``view`` has seen:
    the seat's own hand, the cards played and by whom, the voids shown, the bans (every play
    so far legal) and, with ``announcements``, each other seat announcing as it did."""
    plays = view.plays()
    shown = constraints(view, bans=False)  # the voids: a deal's bans are checked on it below
    base = bidding_base(view.contract) if announcements and view.announcements else None

    fallback: list[int] | None = None
    for attempt in range(DEAL_TRIES):
        got = _deal(rng, shown.cards, shown.need, shown.forbidden)
        if got is None:
            continue
        hands = shown.seated(got)
        if not _legal_history(view, hands, plays):
            continue
        if base is None or attempt >= ANNOUNCEMENT_TRIES:
            return hands
        if fallback is None:
            fallback = hands
        if announces_as_seen(view, hands, base):
            return hands
    if fallback is not None:
        return fallback
    # no deal of these tries kept every play legal: a seat that led a banned card held nothing
    # else (the escape), which a random deal seldom gives it; draw exactly among the deals
    # that keep what the seat knows for sure (the true deal is one of them)
    known = constraints(view)
    exact = random.Random(int(rng.integers(1 << 62)))
    return known.seated(uniform_deal(known.cards, known.need, known.forbidden, exact))


def bidding_base(contract: Contract) -> Contract | None:
    """The contract the bidding heuristic announces over in ``contract``'s game (the one
    played when nobody announces, with the same seats and options); None without a bidding."""
    game = game_of(contract)
    if not game.bidding:
        return None
    cls = contract_class(game.id, game.bidding[0])
    return cls(contract.players, contract.opts, None)


def announces_as_seen(view: TrickView, hands: Sequence[int], base: Contract | None) -> bool:
    """Whether every seat but ``view``'s announces on ``hands`` what it announced, by the
    bidding heuristic over ``base`` (:func:`bidding_base`; None: no bidding, always true)."""
    if base is None:
        return True
    n = view.players
    forehand = (view.dealer + 1) % n
    return all(announce(hands[s], base, s == forehand) == view.announcements[(s - forehand) % n]
               for s in range(n) if s != view.seat)


def _legal_history(view: TrickView, hands: list[int], plays: Sequence[tuple[int, Card]]) -> bool:
    if not plays:
        return True
    st = TrickHand(view.contract, hands, view.dealer)
    for _seat, c in plays:
        if st.over or st.check(c) is not None:
            return False
        st._play(c)
    return True


def rollout(view: TrickView, hands: list[int], played: Sequence[Card], card: Card) -> int:
    """The seat's score when ``card`` is played now and every seat plays the heuristic after."""
    st = TrickHand(view.contract, hands, view.dealer)
    for c in played:
        st._play(c)
    st._play(card)
    while not st.over:
        st._play(heuristic_card(st))
    return view.contract.score(st.outcome(), view.stock).scores[view.seat]


def _record(view: TrickView, hands: list[int]) -> Record:
    """A sampled deal (``hands`` as dealt) with the cards the view has seen played, as a hand
    record (:meth:`herzla.round.Round.record` writes it)."""
    deal = Round(view.contract, hands, view.dealer, view.stock)
    for _seat, card in view.plays():
        deal.play(Move(card))
    return deal.record()


#: the parameters pimc plays with at a table when the solver runs in pure Python
TABLE_PURE = {"samples": 4, "tricks": 6}

#: how pimc chose among the cards, in words (:attr:`Judgement.how`)
HOW = {
    "only": N_("its only legal card"),
    "best": N_("the best mean over the sampled deals"),
    "rollout": N_("of the cards with the best mean, the one whose play-out (every seat then "
                  "playing the heuristic) scores best on the same deals"),
    "heuristic": N_("of the cards still tied, the heuristic's card"),
    "first": N_("of the cards still tied, the first in card order"),
}
#: each way of :data:`HOW` as a player says it to the one it advises (the table app's hint)
SAID = {
    "only": N_("It is your only move."),
    "best": N_("Over the ways the others' cards may lie, it comes out best on average."),
    "rollout": N_("Several cards come out the same; played on, this one does best."),
    "heuristic": N_("Several moves come out the same; this is the one a good player prefers."),
    "first": N_("Several cards come out the same; any of them will do."),
}


@attrs.frozen(slots=True)
class Judgement:
    """What pimc weighed for one card (:meth:`Pimc.judge`).

    ``card``: the card it plays; ``how``: which of its rules chose it (a key of :data:`HOW`,
    or ``early`` where it plays the heuristic's card before searching, ``heuristic`` then
    naming the heuristic's rule); ``means``: each legal card's mean over the ``samples``
    sampled deals of the seat's score with perfect play after it (in the solver's unit,
    :func:`herzla.analysis.solve.unit_of`; empty where it did not search); ``rollouts``: where
    several cards tie on the mean, each such card's mean score when every seat plays the
    heuristic after it.
    """

    card: Card
    how: str
    means: dict[str, float] = attrs.field(factory=dict)
    rollouts: dict[str, float] = attrs.field(factory=dict)
    samples: int = 0
    heuristic: str | None = None

    def hint(self, view: TrickView) -> Hint:
        """The judgement as a :class:`~herzla.players.policy.Hint`."""
        if self.how == "early":
            assert self.heuristic is not None
            left = view.dealt - len(view.tricks)
            return Hint(Move(self.card), reason=_(
                "with {left} tricks to play it does not search yet and plays as the "
                "heuristic: {why}").format(left=left, why=_(WHY[self.heuristic])))
        if not self.means:
            return Hint(Move(self.card), reason=_(HOW[self.how]))
        from herzla.analysis.solve import unit_of

        unit = unit_of(view.contract.game, view.contract.id)
        measure = _("each legal card's mean, over {samples} deals of the unseen cards sampled "
                    "to fit what the seat has seen, of its score ({unit}) with perfect play "
                    "after the card").format(samples=self.samples, unit=_(unit))
        reason = _(HOW[self.how])
        if self.rollouts:
            # no card named: a page shows the cards in its own faces, beside the values
            ranked = sorted(self.rollouts.values(), reverse=not game_of(view.contract).lowest_wins)
            reason += (_(" (its play-out {first}, the next {second})").format(
                first=decimal(ranked[0]), second=decimal(ranked[1]))
                if len(ranked) > 1 else "")
        return Hint(Move(self.card), self.means, measure, reason)


@attrs.frozen(slots=True)
class Pimc(Policy):
    """Sample the unseen cards, solve each sample exactly, play the best mean card."""

    name = "pimc"
    level: ClassVar[str | None] = "strong"

    samples: int = attrs.field(default=8)
    tricks: int = attrs.field(default=7)
    rollout: bool = attrs.field(default=True)
    seed: int = attrs.field(default=0)

    @tricks.validator
    def _check_tricks(self, _attr: object, value: int) -> None:
        if value < 0:
            raise ValueError(_("tricks must be 0 or more, not {value}").format(value=value))

    @samples.validator
    def _check_samples(self, _attr: object, value: int) -> None:
        if not 1 <= value <= 10_000:
            raise ValueError(_("samples must be 1 to 10000, not {value}").format(value=value))

    @seed.validator
    def _check_seed(self, _attr: object, value: int) -> None:
        if value < 0:
            raise ValueError(_("seed must be 0 or more, not {value}").format(value=value))

    def move(self, view: TrickView | LayoutView) -> Move:
        tricks = trick_view(view)  # pimc searches the tricks; the rows it lays as the heuristic
        return heuristic_move(view) if tricks is None else Move(self.judge(tricks).card)

    def judge(self, view: TrickView) -> Judgement:
        """The card and what it weighed: each legal card's mean over the samples, and the
        play-outs where the means tie (:class:`Judgement`)."""
        legal = cards_of(view.legal)
        if len(legal) == 1:
            return Judgement(legal[0], "only")
        if view.dealt - len(view.tricks) > self.tricks:
            card, why = heuristic_play(view)
            return Judgement(card, "early", heuristic=why)
        return self.best(view, self.deals(view, _generator(view, self.seed)))

    def deals(self, view: TrickView, rng: np.random.Generator) -> list[tuple[list[int], int]]:
        """The deals to solve, each with its weight (how many of the samples it stands for):
        here ``samples`` deals drawn by :func:`sample_hands`, each once.  A subclass may draw
        them otherwise (``ipimc`` weighs them by the plays seen)."""
        return [(sample_hands(view, rng), 1) for _ in range(self.samples)]

    def best(self, view: TrickView, deals: Sequence[tuple[list[int], int]]) -> Judgement:
        """The card of the best weighted mean over ``deals`` (see the module notes), with the
        means and play-outs it weighed."""
        from herzla.analysis.solve import solve

        legal = cards_of(view.legal)
        sign = -1 if game_of(view.contract).lowest_wins else 1
        totals = dict.fromkeys((str(c) for c in legal), 0)
        count = sum(weight for _, weight in deals)
        for hands, weight in deals:
            res = solve(_record(view, hands), seat=view.seat, plays=True)
            assert res.plays is not None
            for code, value in res.plays.items():
                totals[code] += weight * sign * value
        means = {code: sign * total / count for code, total in totals.items()}
        best = max(totals.values())
        top = [c for c in legal if totals[str(c)] == best]
        rollouts: dict[str, float] = {}
        if len(top) > 1 and self.rollout:
            # equal against perfect defence: the card whose heuristic play-out scores best
            played = [card for _, card in view.plays()]
            out = {c: sum(weight * sign * rollout(view, hands, played, c)
                          for hands, weight in deals)
                   for c in top}
            rollouts = {str(c): sign * v / count for c, v in out.items()}
            most = max(out.values())
            top = [c for c in top if out[c] == most]
        fallback = heuristic_card(view)
        card = fallback if fallback in top else top[0]
        how = "best" if len(top) == 1 and not rollouts else "rollout" if len(top) == 1 else (
            "heuristic" if card == fallback else "first")
        return Judgement(card, how, means, rollouts, count)

    def explain(self, view: TrickView | LayoutView) -> Hint:
        """The card with each legal card's mean over the sampled deals (``values``), or, where
        it plays as the heuristic does (layout deals, the first tricks), the heuristic's rule."""
        tricks = trick_view(view)
        return explain_heuristic(view) if tricks is None else self.judge(tricks).hint(tricks)

    def at_table(self) -> Pimc:
        """At a table, with its parameters left at their defaults: as it is where the compiled
        solver runs; in pure Python (no numba) :data:`TABLE_PURE`, which answers a person in
        well under a second where the defaults may take a few (benchmarks/bench_table.py
        measures it)."""
        from herzla.analysis.search import compiled

        if self != Pimc() or compiled.available():
            return self
        return attrs.evolve(self, samples=TABLE_PURE["samples"], tricks=TABLE_PURE["tricks"])
