"""``herzla.advise``: what Normal, Beddl and Mord are worth to a player holding eight Herzla
cards (or, in any game with bidding, what each contract of its bidding is worth).

The choices are the contracts of the game's bidding (``Game.bidding``: Herzla's normal game, Beddl
and Mord). It samples deals of the unseen cards (24 in Herzla) among the other seats (uniformly;
sample ``i`` is drawn from ``SeedSequence(seed, spawn_key=(i,))`` alone, so the answer is the same
for any number of worker processes) and plays each choice, with the seat as declarer in Beddl and
Mord, on every sampled deal twice: with every hand open and perfect play (the solver,
:mod:`herzla.analysis`; in the normal game the seat's score when the other three play against it),
and with the simulator's heuristic player in all four seats. Where every seat plays for itself
(the normal game) it plays each deal a third time, every seat as ``expert`` models a seat
(:func:`herzla.analysis.expert.modelled`: the heuristic, then max^n over the last ``exact``
tricks with every hand open, each seat for its own score). docs/analysis.md shows an example.

The work is cut into fixed chunks of samples; :func:`play_chunk` maps a chunk to its result, and
results are merged in chunk order, so a chunk may be played anywhere (a worker process here, a
cluster elsewhere) without changing the answer.

>>> res = advise("CJ CT C9 S9 S8 HT D9 D8", samples=4, seed=1, jobs=1)
>>> sorted(res.choices), res.samples
(['beddl', 'mord', 'normal'], 4)
"""

from __future__ import annotations

import contextlib
import functools
import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, cast

import attrs
import numpy as np

from herzla.analysis.expert import Expert, coalition, modelled
from herzla.analysis.search.scoring import BooleanScore, compositions, trick_score
from herzla.analysis.search.trick_search import TrickSearch
from herzla.cards import HEARTS_MASK, Card, CardError, cards_of, parse_card, parse_cards
from herzla.contracts import (
    Outcome,
    TallyError,
    TrickContract,
    UnknownContract,
    contract_class,
    get_game,
)
from herzla.display import render
from herzla.i18n import N_, _, format_number, pgettext
from herzla.limits import LimitError, check_seed, check_stock, check_timeout, whole_number
from herzla.options import OptionError
from herzla.quote import number, quote
from herzla.records import sort_hand
from herzla.sim.reference import play_hand
from herzla.support.cluster import DEFAULT_TIMEOUT, check_cluster
from herzla.support.words import cent_sign
from herzla.support.words import localized as _local
from herzla.tricks import TrickHand

__all__ = ["CHOICES", "MAX_SAMPLES", "AdviceError", "AdvicePlan", "AdviceResult", "SampleSpan",
           "ChunkResult", "Estimate", "advise", "chunks_of", "merge_chunks", "play_chunk",
           "plan_advice", "sample_hands"]

#: the choices of a Herzla player, in the order they are reported (its game's bidding)
CHOICES = get_game("herzla").bidding
#: samples per chunk (fixed: the answer does not depend on it, only the work split does)
CHUNK = 8
KERNEL_SAMPLES = 16
DEFAULT_SAMPLES = 200
#: the most samples one run takes: each is a double-dummy search or three (a tenth of a second
#: to a second), and the answer keeps every sample's cents
MAX_SAMPLES = 1_000_000
_UNIFORMS = [0] * 64  # the heuristic player draws no random numbers
#: the tricks the model column searches by max^n (expert's own default)
MODEL_EXACT = Expert().exact
#: the ways of playing a choice is valued under, in the order they are reported: ``model``
#: only where every seat plays for itself (not Beddl and Mord, whose defenders are one side)
WAYS = ("model", "double_dummy", "heuristic")


class AdviceError(ValueError):
    """Arguments the advisor cannot use, with the problem named in one sentence."""


@attrs.frozen(slots=True)
class AdvicePlan:
    """What to sample: the game, the hand (a bit set), the seats, the stock, the options, the
    seed, and the choices (contract ids of the game's bidding)."""

    hand: int
    seat: int
    dealer: int
    stock: int
    options: Mapping[str, Any]
    seed: int
    samples: int
    choices: tuple[str, ...] = CHOICES
    game: str = "herzla"

    def contract(self, choice: str) -> TrickContract:
        cls = contract_class(self.game, choice)
        players = cls.player_counts[0]
        # the advice's choices are the game's contracts announced before the play: trick deals
        return cast(TrickContract, cls(players, self.options,
                                       self.seat if cls.needs_declarer else None))


@attrs.frozen(slots=True)
class SampleSpan:
    """Samples ``first .. last - 1``."""

    first: int
    last: int


@attrs.frozen(slots=True, eq=False)
class ChunkResult:
    """Per choice and way of playing (``model`` where every seat plays for itself,
    ``double_dummy``, ``heuristic``): the seat's cents on each sample, and whether the contract
    was made (Beddl, Mord)."""

    cents: Mapping[tuple[str, str], tuple[int, ...]]
    made: Mapping[tuple[str, str], tuple[bool, ...]]


def sample_hands(plan: AdvicePlan, i: int) -> list[int]:
    """Every seat's hand (bit sets) in sample ``i``: the unseen cards shuffled by the sample's
    own generator and dealt a hand each to the other seats in seat order."""
    table = plan.contract(plan.choices[0])
    size = table.hand_size
    unseen = cards_of(table.pack().mask & ~plan.hand)
    rng = np.random.default_rng(np.random.SeedSequence(plan.seed, spawn_key=(i,)))
    order = rng.permutation(len(unseen))
    hands = [0] * table.players
    k = 0
    for s in range(table.players):
        if s == plan.seat:
            hands[s] = plan.hand
            continue
        for j in order[k:k + size]:
            hands[s] |= unseen[int(j)].bit
        k += size
    return hands


def play_chunk(plan: AdvicePlan, chunk: SampleSpan) -> ChunkResult:
    """Play one chunk of samples: a module-level function, so it pickles for workers."""
    cents: dict[tuple[str, str], list[int]] = {}
    made: dict[tuple[str, str], list[bool]] = {}
    contracts = {c: plan.contract(c) for c in plan.choices}
    for i in range(chunk.first, chunk.last):
        hands = sample_hands(plan, i)
        for choice, contract in contracts.items():
            sc = trick_score(contract, plan.stock, hands)
            search = TrickSearch(contract, sc, plan.seat)
            value = search.exact(TrickHand(contract, hands, plan.dealer))
            if isinstance(sc, BooleanScore):
                dd = (sc.made if value else sc.lost)[plan.seat]
                made.setdefault((choice, "double_dummy"), []).append(bool(value))
            else:
                dd = value
            cents.setdefault((choice, "double_dummy"), []).append(dd)
            state, _ = play_hand(contract, list(hands), plan.dealer, _UNIFORMS, "heuristic")
            score = contract.score(state.outcome(), plan.stock)
            cents.setdefault((choice, "heuristic"), []).append(score.scores[plan.seat])
            if isinstance(sc, BooleanScore):
                made.setdefault((choice, "heuristic"), []).append(
                    "contract-made" in score.events)
            if not coalition(contract):  # every seat for itself: the model plays it too
                st = TrickHand(contract, hands, plan.dealer, plan.stock)
                cents.setdefault((choice, "model"), []).append(
                    modelled(st, MODEL_EXACT)[plan.seat])
    return ChunkResult({k: tuple(v) for k, v in cents.items()},
                       {k: tuple(v) for k, v in made.items()})


def chunks_of(plan: AdvicePlan, size: int = CHUNK) -> list[SampleSpan]:
    return [SampleSpan(a, min(a + size, plan.samples)) for a in range(0, plan.samples, size)]


def merge_chunks(results: Sequence[ChunkResult]) -> ChunkResult:
    """SampleSpan results in chunk order, as one."""
    cents: dict[tuple[str, str], tuple[int, ...]] = {}
    made: dict[tuple[str, str], tuple[bool, ...]] = {}
    for r in results:
        for k, v in r.cents.items():
            cents[k] = cents.get(k, ()) + v
        for k, b in r.made.items():
            made[k] = made.get(k, ()) + b
    return ChunkResult(cents, made)


@attrs.frozen(slots=True)
class Estimate:
    """One choice under one way of playing: the share made (Beddl, Mord) with its 95% interval
    (Wilson), and the mean of the seat's cents with its 95% interval (mean ± 1.96·s/√n, clipped
    to ``bounds``, the lowest and highest score the seat can have)."""

    p_made: float | None
    p_made_ci95: tuple[float, float] | None
    mean: float
    ci95: tuple[float, float]

    @classmethod
    def of(cls, cents: Sequence[int], made: Sequence[bool] | None,
           bounds: tuple[int, int] | None = None) -> Estimate:
        n = len(cents)
        arr = np.asarray(cents, dtype=np.float64)
        mean = float(arr.mean())
        half = 1.96 * float(arr.std(ddof=1)) / math.sqrt(n) if n > 1 else 0.0
        p = ci = None
        if made is not None:
            k = sum(made)
            p = k / n
            ci = _wilson(k, n)
        low, high = mean - half, mean + half
        if bounds is not None:  # no score lies outside what the seat can score
            low, high = max(low, bounds[0]), min(high, bounds[1])
        return cls(p, ci, mean, (low, high))

    def to_dict(self) -> dict[str, Any]:
        return {
            "p_made": None if self.p_made is None else round(self.p_made, 4),
            "p_made_ci95": None if self.p_made_ci95 is None
            else [round(x, 4) for x in self.p_made_ci95],
            "mean": round(self.mean, 2),
            "ci95": [round(x, 2) for x in self.ci95],
        }


def score_range(contract: TrickContract, seat: int, stock: int) -> tuple[int, int]:
    """The lowest and highest score ``seat`` can have in ``contract``: made and lost when it has
    a declarer, else every split of the hearts (the scores of the Herzla family's contracts)."""
    n = contract.players
    if contract.needs_declarer:
        outcomes = [Outcome(n, declarer=contract.declarer, made=m) for m in (True, False)]
    else:
        hearts = (contract.pack().mask & HEARTS_MASK).bit_count()
        outcomes = [Outcome(n, hearts=split) for split in compositions(hearts, n)]
    scores = []
    for outcome in outcomes:
        with contextlib.suppress(TallyError):
            scores.append(contract.score(outcome, stock).scores[seat])
    return (min(scores), max(scores)) if scores else (-(2**62), 2**62)


def _wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


#: what the row of good players is, as the report says it (where a choice has one)
MODEL = N_("Good players: every seat plays for its own score, as a good player would (by rule "
           "of thumb, then the last tricks worked out with every hand open); with the cards "
           "open, the three others play together against the seat, which no table does.")
#: what the two ways of playing leave out, as the report says it
LIMITS = N_("With the cards open everyone knows too much (the defenders and the declarer play "
            "as if they saw every card); plain play is weak on both sides, so the truth for "
            "good players lies between, nearer neither for sure.")


#: each way's name in the report's rows, in a player's words
WAY_NAMES = {"model": N_("good players"), "double_dummy": N_("cards open"),
             "heuristic": N_("plain play")}


def _cents(x: float) -> str:
    return _local(f"{x:+.1f}" if round(x, 1) else "0.0")


def _pct(x: float) -> str:
    return _local(f"{x:.1%}")


def _row(choice: str, way: str, e: Estimate, width: int) -> str:
    if e.p_made is None or e.p_made_ci95 is None:
        made = f"{'':>6} {'':>13}"
    else:
        lo, hi = e.p_made_ci95
        made = f"{_pct(e.p_made):>6} {f'{_pct(lo)}..{_pct(hi)}':>13}"
    ci = f"{_cents(e.ci95[0])}..{_cents(e.ci95[1])}"
    return f"{choice:<7} {way:<{width}} {made} {_cents(e.mean):>8} {ci:>16}"


@attrs.frozen(slots=True)
class AdviceResult:
    """The answer of :func:`advise`; ``to_dict()`` is the ``herzla advise --json`` object."""

    plan: AdvicePlan
    choices: Mapping[str, Mapping[str, Estimate]]
    recommendation: str
    elapsed: float

    @property
    def samples(self) -> int:
        return self.plan.samples

    def hand(self) -> list[Card]:
        return sort_hand(cards_of(self.plan.hand), self.plan.contract(self.plan.choices[0]))

    def __repr__(self) -> str:
        cards = " ".join(str(c) for c in self.hand())
        means = ", ".join(f"{c} {_cents(self.choices[c]['heuristic'].mean)}c"
                          for c in self.plan.choices)
        verdict = (f"recommends {self.recommendation}" if len(self.plan.choices) > 1
                   else "nothing to compare")
        return (f"<AdviceResult seat {self.plan.seat} holding {cards}: {means} (heuristic, "
                f"{self.plan.samples:,} deals); {verdict}>")

    def report(self) -> str:
        """The table ``herzla advise`` prints (also ``str(result)``)."""
        p = self.plan
        cards = " ".join(str(c) for c in self.hand())
        unseen = (p.contract(p.choices[0]).pack().mask & ~p.hand).bit_count()
        names = {way: _(name) for way, name in WAY_NAMES.items()}
        width = max(13, *(len(n) for n in names.values()))
        ci95 = pgettext("column", "95% CI")
        choice, play = pgettext("column", "choice"), pgettext("column", "play")
        made, cents = pgettext("column", "made"), pgettext("column", "cents")
        out = [_("{game}, seat {seat} holds {cards}; dealer seat {dealer}, stock {stock}").format(
                   game=p.game, seat=p.seat, cards=cards, dealer=p.dealer,
                   stock=f"{p.stock}{cent_sign()}"),
               _("{samples} sampled deals of the {unseen} unseen cards, seed {seed}").format(
                   samples=format_number(p.samples), unseen=unseen, seed=p.seed),
               "",
               f"{choice:<7} {play:<{width}} {made:>6} {ci95:>13} {cents:>8} {ci95:>16}"]
        for c in p.choices:
            for way in WAYS:
                if way in self.choices[c]:
                    out.append(_row(c, names[way], self.choices[c][way], width))
        best = self.choices[self.recommendation]["heuristic"]
        out.append("")
        if len(p.choices) == 1:
            if best.p_made is None:
                text = _("Only {choice} was weighed: {cents} cents under plain play; there was "
                         "nothing to compare it with.")
            else:
                text = _("Only {choice} was weighed: {cents} cents under plain play, made in "
                         "{made} of the deals; there was nothing to compare it with.")
            out.append(text.format(choice=self.recommendation, cents=_cents(best.mean),
                                   made=_pct(best.p_made or 0.0)))
        else:
            out.append(_("Recommendation: {choice} (the highest mean under plain play, {cents} "
                         "cents).").format(choice=self.recommendation, cents=_cents(best.mean)))
        if any("model" in ways for ways in self.choices.values()):
            out.append(_(MODEL))
        out.append(_(LIMITS))
        return "\n".join(out)

    def __str__(self) -> str:
        return self.report()

    def to_dict(self) -> dict[str, Any]:
        p = self.plan
        out: dict[str, Any] = {
            "hand": [str(c) for c in self.hand()], "seat": p.seat, "dealer": p.dealer,
            "stock": p.stock, "samples": p.samples, "seed": p.seed,
        }
        if p.options:
            out["options"] = dict(p.options)
        out["choices"] = {c: {k: e.to_dict() for k, e in ways.items()}
                          for c, ways in self.choices.items()}
        out["recommendation"] = self.recommendation
        out["elapsed_s"] = round(self.elapsed, 3)
        return out

    def _repr_html_(self) -> str | None:
        """A notebook shows the hand and each choice's estimates as a table."""
        return render("AdviceResult", "html", self)


def parse_hand(hand: str | Sequence[str] | Sequence[Card], table: TrickContract) -> int:
    """A hand of ``table`` (its pack, its hand size) as a bit set; AdviceError names a bad
    card."""
    texts: list[Any]
    if isinstance(hand, str):
        try:
            texts = list(parse_cards(hand))
        except CardError as exc:
            raise AdviceError(str(exc)) from None
    elif isinstance(hand, Sequence) and not isinstance(hand, bytes | bytearray):
        texts = list(hand)
    else:
        raise AdviceError(_('a hand is its cards, as text ("CJ CT C9") or a list of card '
                            "codes or Cards, not {hand}").format(hand=quote(hand)))
    cards: list[Card] = []
    for item in texts:
        if isinstance(item, Card):
            cards.append(item)
            continue
        if not isinstance(item, str):
            raise AdviceError(_("{item} is not a card: a hand is a list of card codes "
                                "or Cards").format(item=quote(item)))
        try:
            cards.append(parse_card(item))
        except CardError as exc:
            raise AdviceError(str(exc)) from None
    pack = table.pack()
    mask = 0
    for c in cards:
        if c not in pack:
            raise AdviceError(_("{c} is not in the {name} pack of {game}").format(
                c=c, name=pack.name, game=table.game))
        if mask & c.bit:
            raise AdviceError(_("{c} appears twice in the hand").format(c=c))
        mask |= c.bit
    if len(cards) != table.hand_size:
        raise AdviceError(_("a {game} hand holds {hand_size} cards, not {n_cards}").format(
            game=table.game, hand_size=table.hand_size, n_cards=len(cards)))
    return mask


def plan_advice(hand: str | Sequence[str] | Sequence[Card], seat: int = 0,
                dealer: int | None = None, stock: int = 0, samples: int = DEFAULT_SAMPLES,
                seed: int = 1,
                options: Mapping[str, Any] | None = None,
                choices: Sequence[str] | None = None, game: str = "herzla") -> AdvicePlan:
    """Check the arguments of :func:`advise`; AdviceError names the first problem."""
    try:
        for what, value in (("seat", seat), ("dealer", dealer), ("stock", stock),
                            ("samples", samples), ("seed", seed)):
            if value is not None or what != "dealer":
                whole_number(value, what)
    except LimitError as exc:
        raise AdviceError(str(exc)) from None
    if options is not None and not isinstance(options, Mapping):
        raise AdviceError(_("options are a mapping of option names to values, not "
                            "{options}").format(options=quote(options)))
    if isinstance(choices, str) or not (choices is None or isinstance(choices, Sequence)):
        raise AdviceError(_('choices are a list of contract ids (e.g. ["beddl"]), not '
                            "{choices}").format(choices=quote(choices)))
    try:
        bidding = get_game(game).bidding
    except UnknownContract as exc:
        raise AdviceError(str(exc)) from None
    if not bidding:
        raise AdviceError(_("advise weighs the contracts a player may announce; {game} has no "
                            "bidding").format(game=game))
    wanted = tuple(bidding) if choices is None else tuple(choices)
    unknown = [quote(c) for c in wanted if c not in bidding]
    if unknown or not wanted:
        raise AdviceError(_("choices are {bidding}, not {value}").format(
            bidding=', '.join(bidding), value=', '.join(unknown) or 'none'))
    n = contract_class(game, next(c for c in bidding if c in wanted)).player_counts[0]
    if not 0 <= seat < n:  # before a contract takes the seat as its declarer
        raise AdviceError(_("seat {seat} is not a seat of {n} players (seats 0 to {n2})").format(
            seat=seat, n=n, n2=n - 1))
    try:
        check_stock(stock)
        check_seed(seed)
        plan = AdvicePlan(0, seat, 0, stock, dict(options or {}), seed, samples,
                          tuple(c for c in bidding if c in wanted), game)
        table = plan.contract(plan.choices[0])
    except (LimitError, OptionError) as exc:
        raise AdviceError(" ".join(str(exc).split())) from None
    n = table.players
    dealer = n - 1 if dealer is None else dealer
    for name, v in (("seat", seat), ("dealer", dealer)):
        if not 0 <= v < n:
            raise AdviceError(_("{name} {v} is not a seat of {n} players (seats 0 to {n2})").format(
                name=name, v=v, n=n, n2=n - 1))
    if not 1 <= samples <= MAX_SAMPLES:
        raise AdviceError(_("samples must be 1 to {max_samples}, not {samples}").format(
            max_samples=format_number(MAX_SAMPLES), samples=number(samples)))
    plan = attrs.evolve(plan, hand=parse_hand(hand, table), dealer=dealer)
    try:
        for c in plan.choices:
            plan.contract(c)
    except OptionError as exc:
        raise AdviceError(" ".join(str(exc).split())) from None
    return plan


def _load_kernel(plan: AdvicePlan) -> None:
    """Load the compiled kernel here before the helper processes fork, so that they inherit it
    (numba imported, the kernel loaded from the disk cache) instead of each loading it again:
    one search of sample 0 on the compiled path (numba installed; a choice that is no made/lost
    contract).  Its value is thrown away (the chunk of sample 0 finds it again), so the answer is
    the same."""
    from herzla.analysis.search import compiled

    if not compiled.available():
        return
    hands = sample_hands(plan, 0)
    boolean = None
    for choice in plan.choices:
        contract = plan.contract(choice)
        sc = trick_score(contract, plan.stock, hands)
        if not isinstance(sc, BooleanScore):
            TrickSearch(contract, sc, plan.seat).exact(TrickHand(contract, hands, plan.dealer))
            return
        boolean = boolean or (contract, sc)
    if boolean is not None and plan.samples >= KERNEL_SAMPLES:
        contract, sc = boolean
        with compiled.always():
            TrickSearch(contract, sc, plan.seat).exact(TrickHand(contract, hands, plan.dealer))


def _results(plan: AdvicePlan, chunks: list[SampleSpan], jobs: int, cluster: str | None,
             cluster_timeout: float) -> Iterator[ChunkResult]:
    """Each chunk's result, in chunk order: in this process, on ``jobs`` local processes (this
    one included), or on the dask cluster at ``cluster``."""
    play = functools.partial(play_chunk, plan)
    if cluster is not None:
        from herzla.support.cluster import cluster_map

        yield from cluster_map(play, chunks, cluster, timeout=cluster_timeout)
        return
    if jobs <= 1 or len(chunks) <= 1:
        yield from map(play, chunks)
        return
    from herzla.support.procs import local_map

    _load_kernel(plan)
    yield from local_map(play, chunks, min(jobs, len(chunks)) - 1)


def advise(hand: str | Sequence[str] | Sequence[Card], seat: int = 0, dealer: int | None = None,
           stock: int = 0, samples: int = DEFAULT_SAMPLES, seed: int = 1,
           jobs: int | None = None, progress: Callable[[int], None] | None = None,
           options: Mapping[str, Any] | None = None,
           choices: Sequence[str] | None = None, cluster: str | None = None,
           cluster_timeout: float = DEFAULT_TIMEOUT, game: str = "herzla") -> AdviceResult:
    """What Normal, Beddl and Mord (``seat`` declaring) are worth to ``hand`` (8 cards).

    ``samples`` deals of the unseen cards, seeded by ``seed``; the same answer for any ``jobs``
    (processes, this one included; None: one per core, and never more than the cores this
    process may use, as in :func:`herzla.simulate`) and whether they run on a dask cluster
    (``cluster``: its scheduler's address; ``herzla.support.cluster``).  ``progress`` is called
    with the samples done.
    ``options`` are herzla's rule options; ``choices`` limits the choices weighed (the
    normal game's double-dummy search is by far the slowest).  Raises :class:`AdviceError`.
    """
    start = time.perf_counter()
    plan = plan_advice(hand, seat, dealer, stock, samples, seed, options, choices, game)
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int)):
        raise AdviceError(_("jobs must be a whole number, not {jobs}").format(jobs=quote(jobs)))
    check_cluster(cluster, AdviceError)
    if progress is not None and not callable(progress):
        raise AdviceError(_("progress must be a function or None, not {progress}").format(
            progress=quote(progress)))
    if jobs is not None and jobs < 1:
        raise AdviceError(_("jobs must be at least 1, not {jobs}").format(jobs=jobs))
    if cluster is not None and jobs is not None:
        raise AdviceError(_("jobs and cluster exclude each other: a cluster's workers play"))
    try:
        check_timeout(cluster_timeout)
    except LimitError as exc:
        raise AdviceError(str(exc)) from None
    from herzla.support.procs import usable_jobs

    jobs = usable_jobs(jobs)
    chunks = chunks_of(plan)
    done = 0
    results = []
    for ch, res in zip(chunks, _results(plan, chunks, jobs, cluster, cluster_timeout),
                       strict=True):
        results.append(res)
        done += ch.last - ch.first
        if progress is not None:
            progress(done)
    merged = merge_chunks(results)
    weighed: dict[str, dict[str, Estimate]] = {}
    for c in plan.choices:
        bounds = score_range(plan.contract(c), plan.seat, plan.stock)
        weighed[c] = {way: Estimate.of(merged.cents[(c, way)], merged.made.get((c, way)), bounds)
                      for way in WAYS if (c, way) in merged.cents}
    best = max(plan.choices,
               key=lambda c: (weighed[c]["heuristic"].mean, -plan.choices.index(c)))
    return AdviceResult(plan, weighed, best, time.perf_counter() - start)
