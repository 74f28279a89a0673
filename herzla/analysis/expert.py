"""``expert``: a player that plays for itself against a model of the other seats.

``pimc`` values each sampled deal with the double-dummy solver, that is with every other seat
playing against it.  In a deal where every seat plays for its own score (Herzla's normal game,
the children's Herzla, every Herzeln and Herzerln deal, the layout deals included) nobody does
that: ``expert`` values its moves against a *model* of the other seats instead, each of them
playing for itself.

At each card it plays, it draws the *worlds* (:mod:`herzla.analysis.worlds`): deals of the
unseen cards weighed by how likely each makes the plays seen so far under the softened heuristic
(``ipimc``'s inference; with ``doubt``, any legal card alike that share of the time), every such
deal once they are few enough (late in the hand).  In each world it plays each legal card and
then plays the hand out:

- while more than ``4 * exact`` cards are left to play (the last ``exact`` tricks at four
  players), by a *model* of every seat: its own later cards the learned ``net``'s choice
  (``own``), each other seat the heuristic (or the net, ``model``) *spread*: the card the
  model's order puts ``k``-th with probability proportional to ``exp(-k / spread)``
  (:mod:`herzla.sim.batch.softened`; the inference reads the others' plays the same way at its
  ``temperature``, the play-outs by default twice as wide), so a card is valued against
  what the others may well do rather than against one line of play; every world and card is
  one lane of the batch engine (:mod:`herzla.sim.batch.playouts`), all played in lockstep,
  the lanes of a world with the same draws of the others' play;
- from then on, by max^n search: every seat, in turn, plays the card that
  gives *it* the best score of the rest of the hand, each seat for itself (a tie among a seat's
  cards goes to the one the heuristic prefers, :func:`~herzla.players.heuristic.heuristic_order`,
  which is the model's own choice).

It plays the card of the best weighted mean score (penalty points, lowest best, in the
children's Herzla); among equal means the heuristic's card where it is one of them, else the
first in the heuristic's order.  With ``prior`` above 0 (the default), the learned ``net``'s
estimate of each card's worth (:meth:`herzla.players.net.NetPolicy.scores` in the game's unit,
:meth:`~herzla.players.net.NetPolicy.unit`), ``prior`` times, is added to its mean before
choosing: two estimates of a card's worth, the play-outs' and the one the net learned from many
hands, each with errors of its own.  Before the first card of the deal has been seen by
it there is nothing to infer and the worlds are uniform.

In Beddl and Mord the three defenders are one side: there it plays as ``ipimc`` (the solver's
paranoid values are the right ones), with ``ipimc``'s defaults.

Layout deals (the domino, Auflegen): the same, the unseen cards dealt to the other seats at
random (keeping every pass so far forced) and each legal lay played out by the heuristic's lays.

It announces from its own valuation: for each announcement the bidding allows it (``pass`` and
each declarer's contract), the mean score of ``bids`` deals of the other seats' cards dealt at
random and played out by the heuristic, under the contract that announcement would make it
play (``pass``: the contract played when nobody announces); the best mean, ``pass`` unless a
declarer's contract beats it by ``margin``.

Parameters (``expert[worlds=32,exact=3]``), each with its cost measured by
benchmarks/bench_expert.py (the Policies page of the docs):

``worlds`` (default 768)
    worlds valued at each decision of a trick deal (the weighted draws), each played out after
    every legal card: the fewer, the more often the luck of the draw picks a card the model
    would not (measured against a valuation 12 times as large: about 2.6 cents a hand of
    Herzla's normal game with 48, 0.5 with 768; the Policies page of the docs); the play-outs run in
    lockstep, so 16 times the worlds cost about 2.7 times the CPU.
``candidates`` (default 2048)
    exact deals drawn and weighed before the ``worlds`` are drawn from them by weight (more
    distinct deals for the likelihood to choose from; weighing one costs a count of bits a play).
``lay_worlds`` (default 48)
    the deals of the unseen cards valued at each lay of a layout deal (each played out lay by
    lay, in pure Python).
``enumerate`` (default 120)
    take every deal of the unseen cards, each with its likelihood, when there are at most this
    many (0: always sample).
``exact`` (default 3)
    tricks left (after the card) searched by max^n rather than played out; 3 costs about ten
    times as much at those decisions as 2.
``exact_worlds`` (default 12)
    the worlds valued where it searches by max^n (at most ``worlds``; every world where it
    enumerates).
``temperature`` (default 1.0)
    how far the other seats are taken to play like the heuristic, as for ``ipimc``.
``bids`` (default 24)
    deals played out for each announcement; 0: announce with the bidding heuristic.
``margin`` (default 0.0)
    how much more (in the game's unit) a declarer's contract must be worth than passing.
``spread`` (default 2.0)
    how widely the other seats' play spreads in the play-outs (see above; 0: always the
    model's card).  1.0, the inference's own ``temperature``, was the default until the worlds
    went to 768; with that many, a wider spread costs no more noise, and 2.0 gained about 3
    cents a hand on 1.0 against ``pimc`` on the two seeds it was chosen on (the Policies page of
the docs).
``doubt`` (default 0)
    the share of the other seats' cards the model takes for any legal card alike, in the
    inference and in the play-outs (where ``spread`` is above 0): a seat the heuristic does not
    explain.  Strong players deviate from the heuristic that way (benchmarks/bench_inference.py:
    when they leave the heuristic's card, any other is about as likely), and
    ``temperature=0.3,doubt=0.5`` places the unseen cards better than the default, but it
    played no better against ``pimc`` (the Policies page of the docs), so the default stays 0.
``model`` (default ``heuristic``)
    the model of the other seats' play in the play-outs: ``heuristic`` or ``net`` (the learned
    player, a stronger model at about a quarter more time).
``own`` (default ``net``)
    the model of its own later cards in the play-outs: ``net`` (the learned player, which
    plays as the heuristic where it was not trained) or ``heuristic``; the net costs about 1.3
    times the CPU a decision and gained about 1.5 cents a hand on the heuristic there on two
    tuning seeds (the Policies page of the docs).
``prior`` (default 0)
    how much the learned ``net``'s estimate counts in the choice: it plays the card of the best
    mean plus ``prior`` times the net's estimate of the card in the game's unit (its score
    times the unit the training fitted for the contract), ties to the heuristic's order; 1
    counts it as much as the play-outs.  The means themselves, which the hint and the review's
    ``loss_model`` give, are unchanged.  In a deal the net has no unit for (it was not trained
    there) it is not asked.  It helped while the means came from 48 worlds (the net's estimate
    smoothed their noise); with 768 it no longer does (the Policies page of the docs), so 0: not
asked.
``seed`` (default 0)
    mixed into each decision's generator, seeded from the move's uniform, the seat and the
    moves so far: a seeded match plays the same for any ``--jobs``.

>>> from herzla.contracts import contract_class
>>> from herzla.kinds.tricks import TrickHand
>>> from herzla.players.views import TrickView
>>> normal = contract_class("herzla", "normal")()
>>> state = TrickHand(normal, ["CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
...                            "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8"], dealer=3)
>>> for code in ("C7", "CA", "C8", "C9", "D7"):
...     _ = state.play(code)
>>> str(Expert(worlds=8).move(TrickView.of(state, uniform=5)))
'DT'
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar, cast

import attrs
import numpy as np
import numpy.typing as npt

from herzla.analysis.search.declared import Declared
from herzla.analysis.search.equivalence import group_runs
from herzla.analysis.worlds import layout_worlds, trick_worlds
from herzla.cards import Card, cards_of
from herzla.contracts import Contract, TrickContract, game_of
from herzla.hand import PASS, Move, Outcome
from herzla.i18n import N_, _
from herzla.kinds.layout import LayoutHand
from herzla.kinds.tricks import TrickHand
from herzla.players.announcing import announce, bidding_contracts, resolve
from herzla.players.heuristic import heuristic_lay, heuristic_order, trick_profile
from herzla.players.net import NetPolicy
from herzla.players.policy import Hint, Policy
from herzla.players.views import BidView, LayoutView, TrickView, views_of
from herzla.round import make_contract
from herzla.support.words import decimal

if TYPE_CHECKING:
    from herzla.sim.batch.form import BatchForm

__all__ = ["Expert", "Valuation", "coalition", "maxn", "modelled", "play_out"]


def coalition(contract: Contract) -> bool:
    """Whether the other seats are one side against a declarer (Beddl, Mord): the deals where
    ``expert`` keeps the solver's paranoid values."""
    return contract.declarer is not None


def _sign(contract: Contract) -> int:
    return -1 if game_of(contract).lowest_wins else 1


def _scores(st: TrickHand | LayoutHand, sign: int) -> tuple[int, ...]:
    """Each seat's score of the finished deal, the higher the better for it."""
    return _scored(st.contract, st.outcome(), st.stock, sign)


@functools.lru_cache(maxsize=1 << 16)
def _scored(contract: Contract, outcome: Outcome, stock: int, sign: int) -> tuple[int, ...]:
    # the contract's scores without the sentences explaining them (a play-out reads numbers)
    scores = contract.settle(contract.counts(outcome), stock).column(0)[0]
    return tuple(sign * int(s) for s in scores)


def play_out(st: TrickHand, sign: int) -> tuple[int, ...]:
    """Each seat's score (the higher the better) when every seat plays the heuristic from
    ``st`` to the end (``st`` is played on)."""
    while not st.over:
        legal = st.legal_mask()
        # a lone legal card needs no rule of the heuristic's
        st._play(cards_of(legal)[0] if not legal & (legal - 1) else heuristic_order(st)[0])
    return _scores(st, sign)


def maxn(st: TrickHand, sign: int) -> tuple[int, ...]:
    """The max^n value of ``st``: each seat's score when every seat plays, in turn, the card
    best for its own score of the rest of the hand, a tie going to the card the heuristic
    prefers (``st`` is restored).  Equivalent cards (:func:`_runs`) are searched once: the
    same values as trying every card, in about a quarter of the time."""
    if st.over:
        return _scores(st, sign)
    seat = st.turn
    got: dict[Card, tuple[int, ...]] = {}
    for c, same in _runs(st):
        st._play(c)
        got[c] = maxn(st, sign)
        st.undo()
        for twin in same:
            got[twin] = got[c]
    top = max(v[seat] for v in got.values())
    best = [v for v in got.values() if v[seat] == top]
    if len(best) == 1 or all(v == best[0] for v in best):
        return best[0]
    # the seat's cards of its best score leave the others differently: the heuristic's choice
    # (asked only then: ordering the cards costs more than most of the tree below)
    return next(got[c] for c in heuristic_order(st) if got[c][seat] == top)


@functools.cache
def _signature(contract: TrickContract) -> tuple[Declared, tuple[int, ...]]:
    """The contract as the searches read it, and per search bit a number for the card's
    signature there (counted classes, lead bans) together with the heuristic's danger classes
    of every seat: two neighbours alike in both are equivalent for max^n, whose ties the
    heuristic breaks."""
    declared = Declared.of(contract)
    danger = [m for s in range(contract.players) for m in trick_profile(contract, s).danger]
    ids: dict[tuple[int, ...], int] = {}
    sig = [ids.setdefault((declared.signature[b], *(m >> declared.card(b) & 1 for m in danger)),
                          len(ids)) for b in range(36)]
    return declared, tuple(sig)


def _runs(st: TrickHand) -> list[tuple[Card, list[Card]]]:
    """The legal cards of the seat to play, one of each run of equivalent ones (the searches'
    :func:`~herzla.analysis.search.equivalence.group_runs`, with :func:`_signature`), with the
    others of its run: playing any card of a run leaves the same values, to every seat, as
    playing its lowest, so max^n searches it once."""
    legal = st.legal_mask()
    if not legal & (legal - 1):
        return [(cards_of(legal)[0], [])]
    declared, sig = _signature(st.contract)
    out = 0
    for h in st.hands:
        out |= h
    for c in st.trick:
        out |= c.bit
    groups = group_runs(sig, declared.bits(st.hands[st.turn]), declared.bits(legal),
                        declared.bits(out), True)
    card = functools.partial(_card_of, declared)
    return [(card(rep), [card(b) for b in run if b != rep]) for rep, run in groups.items()]


def _card_of(declared: Declared, bit: int) -> Card:
    return Card.from_index(declared.card(bit))


def modelled(st: TrickHand, exact: int) -> tuple[int, ...]:
    """Each seat's score, as the contract counts it, when every seat plays from ``st`` as
    ``expert`` models a seat, every hand open: the heuristic while more than the last ``exact``
    tricks' cards are left (at most ``exact`` a seat, as :meth:`Expert.searches`), then max^n,
    each seat for its own score (``st`` is played on)."""
    sign = _sign(st.contract)
    end = min(4, st.players) * exact
    while not st.over and sum(h.bit_count() for h in st.hands) > end:
        legal = st.legal_mask()
        st._play(cards_of(legal)[0] if not legal & (legal - 1) else heuristic_order(st)[0])
    return tuple(sign * v for v in (maxn(st, sign) if exact else play_out(st, sign)))


@attrs.frozen(slots=True)
class Valuation:
    """What ``expert`` weighed for one move (:meth:`Expert.value`): ``move`` its choice; ``means``
    each legal move's weighted mean score (the game's unit, as the game counts it) against the
    model, by the move as a record writes it; ``worlds`` how many distinct worlds it weighed;
    ``best_in`` in how many of them ``move`` does as well as any other move; ``how`` which of
    its rules chose (a key of :data:`HOW`)."""

    move: Move
    means: dict[str, float]
    worlds: int
    best_in: int = 0
    how: str = "best"


def _measure(view: TrickView | LayoutView, val: Valuation) -> str:
    from herzla.analysis.solve import unit_of

    unit = unit_of(view.contract.game, view.contract.id)
    return _("each legal move's mean score ({unit}) over {worlds} likely deals of the cards you "
             "cannot see, every seat then playing for itself").format(unit=_(unit),
                                                                      worlds=val.worlds)


def _mean(x: float) -> str:
    """A mean as the reasons write it: ``+6.5`` (``+6,5`` in German)."""
    return decimal(x)


def _reason(view: TrickView | LayoutView, val: Valuation) -> str:
    """Why, in a player's words (no card named: the page shows the cards in its own faces)."""
    if val.how == "coalition":
        return _(HOW["coalition"])
    lower = game_of(view.contract).lowest_wins
    mine = val.means[str(val.move)]
    rest = [v for k, v in val.means.items() if k != str(val.move)]
    nxt = (min if lower else max)(rest)
    if val.how == "prior":
        top = (min if lower else max)(val.means.values())
        if mine == top:
            text = (_("of the moves that do fewest on average ({mine}), the one the learned "
                      "player, taught on many hands like this, rates highest") if lower else
                    _("of the moves that do best on average ({mine}), the one the learned "
                      "player, taught on many hands like this, rates highest"))
            return text.format(mine=_mean(mine))
        text = (_("it is {gap} behind the move that does fewest on average ({mine} against "
                  "{top}), and the learned player, taught on many hands like this, rates it "
                  "higher by more than that") if lower else
                _("it is {gap} behind the move that does best on average ({mine} against "
                  "{top}), and the learned player, taught on many hands like this, rates it "
                  "higher by more than that"))
        gap = decimal(abs(top - mine), sign=False)
        return text.format(gap=gap, mine=_mean(mine), top=_mean(top))
    if val.worlds <= 1:
        return (_("it scores fewest on the deal it sees") if lower else
                _("it scores best on the deal it sees"))
    text = (_("it does as well as any other move in {best_in} of the {worlds} likely deals, "
              "and fewest on average ({mine}, the next best {next})") if lower else
            _("it does as well as any other move in {best_in} of the {worlds} likely deals, "
              "and best on average ({mine}, the next best {next})"))
    why = text.format(best_in=val.best_in, worlds=val.worlds, mine=_mean(mine),
                      next=_mean(nxt))
    if val.how == "heuristic":
        why += _("; of the moves as good, the one a plain player would make")
    return why


#: the models of the other seats' play ``expert`` plays its worlds out with (``model``): the
#: policy each names (its batch form plays the lanes)
MODELS = ("heuristic", "net")


@functools.cache
def _model_form(model: str) -> BatchForm:
    from herzla.players.registry import policy_of
    from herzla.sim.batch import batch_form_of

    form = batch_form_of(policy_of(model))
    assert form is not None, model
    return form


_K = TypeVar("_K")


def _best_of(order: Sequence[_K], values: dict[_K, float]) -> list[_K]:
    """The keys of the best value (within rounding), in ``order``."""
    best = max(values.values())
    return [k for k in order if values[k] >= best - 1e-9 * max(1, abs(best))]


#: the learned player whose estimate ``prior`` adds to the means
_NET = NetPolicy()


#: which of expert's rules chose its move (:attr:`Valuation.how`)
HOW = {
    "only": N_("its only legal move"),
    "best": N_("the best score on average, against how the others are likely to play"),
    "heuristic": N_("of the moves equally good on average, the one a plain player would make"),
    "prior": N_("the best on average, with the learned player's feel for hands like this "
                "added"),
    "coalition": N_("the others play together against this seat here, so it plays against "
                    "them as one side"),
}
#: each way of :data:`HOW` as a player says it to the one it advises (the table app's hint)
SAID = {
    "only": N_("It is your only move."),
    "best": N_("Over the ways the others' cards may lie, it comes out best on average."),
    "heuristic": N_("Several moves come out the same; this is the one a good player prefers."),
    "prior": N_("Over the ways the others' cards may lie it comes out best, with what the "
                "computer learned from many hands."),
    "coalition": N_("Here the others play together against one: against them it comes out "
                    "best."),
}


def _within(name: str, low: float, high: float | None
            ) -> Callable[[object, object, float], None]:
    """An attrs validator: ``name`` from ``low`` to ``high`` (None: no bound), else one line
    saying so."""
    def check(_self: object, _attr: object, value: float) -> None:
        if not (value >= low and (high is None or value <= high)):  # NaN is in no range
            bound = "or more" if high is None else f"to {high:g}"
            raise ValueError(_("{name} must be {low:g} {bound}, not {value}").format(
                name=name, low=low, bound=bound, value=value))
    return check


def _a_model(name: str) -> Callable[[object, object, str], None]:
    """An attrs validator: ``name`` one of :data:`MODELS`, else one line saying so."""
    def check(_self: object, _attr: object, value: str) -> None:
        if value not in MODELS:
            raise ValueError(_("{name} must be one of {models}, not {value!r}").format(
                name=name, models=', '.join(MODELS), value=value))
    return check


@attrs.frozen(slots=True)
class Expert(Policy):
    """Values each legal move against a model of the other seats, each playing for itself
    (see the module notes)."""

    name = "expert"
    level = N_("expert")

    worlds: int = attrs.field(default=768, validator=_within("worlds", 1, 10_000))
    candidates: int = attrs.field(default=2048, validator=_within("candidates", 1, 100_000))
    lay_worlds: int = attrs.field(default=48, validator=_within("lay_worlds", 1, 10_000))
    enumerate: int = attrs.field(default=120, validator=_within("enumerate", 0, 100_000))
    exact: int = attrs.field(default=3, validator=_within("exact", 0, 4))
    exact_worlds: int = attrs.field(default=12, validator=_within("exact_worlds", 1, 10_000))
    temperature: float = attrs.field(default=1.0,
                                     validator=_within("temperature", 0.01, 1000))
    bids: int = attrs.field(default=24, validator=_within("bids", 0, 10_000))
    margin: float = attrs.field(default=0.0, validator=_within("margin", 0, None))
    seed: int = attrs.field(default=0, validator=_within("seed", 0, None))
    model: str = attrs.field(default="heuristic", validator=_a_model("model"))
    spread: float = attrs.field(default=2.0, validator=_within("spread", 0, 1000))
    doubt: float = attrs.field(default=0.0, validator=_within("doubt", 0, 0.99))
    prior: float = attrs.field(default=0.0, validator=_within("prior", 0, 100))
    own: str = attrs.field(default="net", validator=_a_model("own"))

    # -- the random stream of a decision ----------------------------------------------------
    def _rng(self, uniform: int, seat: int, moves: int, what: int = 0) -> random.Random:
        # what: 0 a card or a lay, 1 an announcement
        seq = np.random.SeedSequence([uniform, self.seed, seat, moves, what])
        return random.Random(int(seq.generate_state(2, np.uint64)[0]))

    def move(self, view: TrickView | LayoutView) -> Move:
        return self.valuation(view).move

    def valuation(self, view: TrickView | LayoutView) -> Valuation:
        """The move and what it weighed, whatever the deal (:meth:`value`,
        :meth:`value_lay`)."""
        tricks, rows = views_of(view)  # the tricks valued by search, the rows by play-outs
        if tricks is not None:
            return self.value(tricks)
        assert rows is not None
        return self.value_lay(rows)

    def explain(self, view: TrickView | LayoutView) -> Hint:
        """The move with each legal move's mean score against the model (``values``)."""
        val = self.valuation(view)
        if not val.means:
            return Hint(val.move, reason=_(HOW[val.how]))
        return Hint(val.move, val.means, _measure(view, val), _reason(view, val))

    def value(self, view: TrickView) -> Valuation:
        """The card and what it weighed (:class:`Valuation`)."""
        legal = cards_of(view.legal)
        if len(legal) == 1:
            return Valuation(Move(legal[0]), {}, 0, how="only")
        contract = view.contract
        if coalition(contract):
            from herzla.analysis.ipimc import Ipimc

            judged = Ipimc(seed=self.seed).judge(view)
            return Valuation(Move(judged.card), dict(judged.means), judged.samples,
                             how="coalition")
        return self._choose(view, legal, self.trick_worlds(view))

    def searches(self, view: TrickView) -> bool:
        """Whether the view's cards are valued by max^n rather than by play-outs: once at most
        ``exact`` cards a seat and ``4 * exact`` cards in all are left to play (the last
        ``exact`` tricks at three or four players; the tree grows with the seats' cards, not
        the tricks: at three players twelve cards are four a seat, ten times the tree of three
        a seat at four)."""
        left = view.dealt * view.players - len(view.plays())
        return left <= min(4, view.players) * self.exact

    def trick_worlds(self, view: TrickView) -> list[tuple[list[int], int]]:
        """The worlds it values a trick view's cards in: (every seat's cards as dealt,
        weight), :func:`herzla.analysis.worlds.trick_worlds` with its parameters (where it
        searches, ``exact_worlds`` of them)."""
        rng = self._rng(view.uniform, view.seat, len(view.plays()))
        return trick_worlds(view, rng, self.world_count(view), self.candidates,
                            self.temperature, self.enumerate, self.doubt)

    def world_count(self, view: TrickView) -> int:
        """How many worlds it draws to value a trick view's cards: ``worlds``, or
        ``exact_worlds`` of them where it searches by max^n (:meth:`searches`)."""
        return min(self.worlds, self.exact_worlds) if self.searches(view) else self.worlds

    def _choose(self, view: TrickView, legal: Sequence[Card],
                worlds: Sequence[tuple[list[int], int]]) -> Valuation:
        contract = view.contract
        sign = _sign(contract)
        seat = view.seat
        plays = [c for _, c in view.plays()]
        search = self.searches(view)
        totals = dict.fromkeys(legal, 0.0)
        wins = dict.fromkeys(legal, 0)
        weight = 0
        played = self._play_outs(view, legal, worlds) if not search else None
        for w, (hands, times) in enumerate(worlds):
            got = {}
            if played is not None:
                for i, c in enumerate(legal):
                    got[c] = sign * int(played[w * len(legal) + i, seat])
                    totals[c] += times * got[c]
            else:
                st = TrickHand(contract, hands, view.dealer, view.stock)
                for c in plays:
                    st._play(c)
                for c in legal:
                    s = st.copy()
                    s._play(c)
                    got[c] = maxn(s, sign)[seat]
                    totals[c] += times * got[c]
            top = max(got.values())
            for c in legal:
                if got[c] == top:
                    wins[c] += 1
            weight += times
        order = heuristic_order(view)
        lean = self.leaning(view)
        # the net's estimate, in the totals' scale (a mean times the weight)
        score = totals if lean is None else {c: totals[c] + weight * self.prior * lean[c]
                                             for c in legal}
        top_cards = _best_of(order, score)
        card = top_cards[0]
        how = "best" if len(top_cards) == 1 else "heuristic"
        if lean is not None and card != _best_of(order, totals)[0]:
            how = "prior"  # the net's preference chose, not the means alone
        means = {str(c): sign * totals[c] / weight for c in legal}
        return Valuation(Move(card), means, len(worlds), wins[card], how)

    def leaning(self, view: TrickView) -> dict[Card, float] | None:
        """The learned ``net``'s estimate of each legal card's worth in the game's unit (the
        higher the better), which ``prior`` times is added to its mean; None where ``prior``
        is 0 or the net has no unit for the contract."""
        if self.prior == 0:
            return None
        unit = _NET.unit(view)
        scores = None if unit is None else _NET.scores(view)
        if unit is None or scores is None:
            return None
        return {c: unit * v for c, v in scores.items()}

    def _play_outs(self, view: TrickView, legal: Sequence[Card],
                   worlds: Sequence[tuple[list[int], int]]) -> npt.NDArray[np.int64]:
        """Every world played out after each legal card, on the batch engine, every seat by
        the model: (worlds x legal cards, seats) scores as the contract counts them, lane
        ``w * len(legal) + i`` the world ``w`` after ``legal[i]``."""
        from herzla.sim.batch.playouts import play_outs

        deals = [hands for hands, _ in worlds for _c in legal]
        then = [c for _ in worlds for c in legal]
        forms, uniforms = self.play_forms(view, len(worlds))
        if uniforms is not None:  # the lanes of a world share its draws
            uniforms = np.repeat(uniforms, len(legal), axis=1)
        return play_outs(view.contract, view.dealer, view.stock, deals,
                         [c for _, c in view.plays()], then, forms, uniforms)

    def play_forms(self, view: TrickView, worlds: int
                   ) -> tuple[list[BatchForm], npt.NDArray[np.float64] | None]:
        """Each seat's batch form in the play-outs of ``view``'s decision, and their uniforms
        (moves, worlds) where the other seats' play is spread: its own seat ``own``, every
        other seat ``model`` softened at ``spread``, any legal card alike a ``doubt`` of the
        time (:class:`herzla.sim.batch.softened.Softened`)."""
        from herzla.sim.batch.softened import Softened

        model: BatchForm = _model_form(self.model)
        others = model if self.spread == 0 else Softened(model, self.spread, self.doubt)
        forms = [others] * view.players
        forms[view.seat] = _model_form(self.own)
        if self.spread == 0:
            return forms, None
        rng = self._rng(view.uniform, view.seat, len(view.plays()), 2)
        gen = np.random.default_rng(rng.getrandbits(64))
        return forms, gen.random((view.dealt * view.players, worlds))

    # -- layout deals -----------------------------------------------------------------------
    def value_lay(self, view: LayoutView) -> Valuation:
        """The lay (or the pass) and what it weighed."""
        moves = view.lays()
        if not moves:
            return Valuation(PASS, {}, 0, how="only")
        if len(moves) == 1:
            return Valuation(moves[0], {}, 0, how="only")
        sign = _sign(view.contract)
        rng = self._rng(view.uniform, view.seat, len(view.history))
        worlds = layout_worlds(view, rng, self.lay_worlds)
        totals = dict.fromkeys(range(len(moves)), 0.0)
        for hand, times in worlds:
            for i, mv in enumerate(moves):
                s = hand.copy()
                s._play(mv)
                while not s.over:
                    s._play(heuristic_lay(s) or PASS)
                totals[i] += times * _scores(s, sign)[view.seat]
        fallback = heuristic_lay(view)
        top = _best_of(list(totals), totals)
        pick = next((i for i in top if moves[i] == fallback), top[0])
        weight = sum(t for _, t in worlds)
        means = {str(mv): sign * totals[i] / weight for i, mv in enumerate(moves)}
        return Valuation(moves[pick], means, len(worlds),
                         how="best" if len(top) == 1 else "heuristic")

    # -- announcing -------------------------------------------------------------------------
    def announce(self, view: BidView) -> str:
        """The announcement of the best mean play-out score (see the module notes)."""
        base = view.contract
        heuristic = announce(view.hand, base, view.forehand)
        classes = bidding_contracts(base)
        if self.bids == 0 or len(classes) < 2:
            return heuristic
        rng = self._rng(view.uniform, view.seat, len(view.announcements), 1)
        sign = _sign(base)
        n = view.players
        forehand = (view.dealer + 1) % n
        options = ["pass", *(cls.id for cls in classes[1:])]
        totals = dict.fromkeys(options, 0.0)
        unseen = [c for c in base.pack().cards if not view.hand >> c.index & 1]
        per = view.hand.bit_count()
        for _bid in range(self.bids):
            rng.shuffle(unseen)
            hands = [0] * n
            others = [s for s in range(n) if s != view.seat]
            at = 0
            for s in others:
                for c in unseen[at:at + per]:
                    hands[s] |= c.bit
                at += per
            hands[view.seat] = view.hand
            words = [announce(hands[s], base, s == forehand) for s in range(n)]
            for word in options:
                said = [words[(forehand + i) % n] for i in range(n)]
                said[(view.seat - forehand) % n] = word
                for i, w in enumerate(view.announcements):
                    said[i] = w
                cid, declarer = resolve(said, view.dealer, base)
                contract = make_contract(base.game, cid, n, base.opts, declarer)
                # a question of kind: a bidding's contracts are trick deals (a declarer wins
                # or avoids tricks), which the heuristic plays out on the trick engine
                st = cast(TrickHand, contract.new_hand(hands, view.dealer))
                totals[word] += play_out(st, sign)[view.seat]
        return max(options, key=lambda w: (totals[w] - (self.margin * self.bids
                                                         if w != "pass" else 0), w == "pass"))

    def at_table(self) -> Expert:
        """At a table: as it is (a decision costs well under a second in pure Python)."""
        return self
