"""``herzla.advise``: what Normal, Beddl and Mord are worth to a player holding eight Herzla
cards (or, in any game with bidding, what each contract of its bidding is worth).

The choices are the contracts of the game's bidding (``Game.bidding``: Herzla's normal game, Beddl
and Mord). It samples deals of the unseen cards (24 in Herzla) among the other seats (uniformly;
sample ``i`` is drawn from ``SeedSequence(seed, spawn_key=(i,))`` alone, so the answer is the same
for any number of worker processes) and values each choice, with the seat as declarer in Beddl
and Mord, three ways (the Analysis page of the docs says what each means for a player):

- ``strong``: every seat played by a strong player (``model``: ``net`` by default, on the batch
  engine, :mod:`herzla.analysis.strong`; ``expert``, the search player, deal by deal): what the
  recommendation rests on;
- ``double_dummy``: every hand open and perfect play (the solver, :mod:`herzla.analysis`; in the
  normal game the seat's score when the other three play against it), on the first ``exact``
  samples (each is an exact search): a bound on the side of the defenders;
- ``heuristic``: the simulator's heuristic player in every seat: a weak table.

The work is cut into fixed chunks of samples; :func:`play_chunk` maps a chunk to its result, and
results are merged in chunk order, so a chunk may be played anywhere (a worker process here, a
cluster elsewhere) without changing the answer.

>>> res = advise("CJ CT C9 S9 S8 HT D9 D8", samples=4, seed=1, jobs=1)
>>> sorted(res.choices), res.samples
(['beddl', 'mord', 'normal'], 4)
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, cast

import attrs
import numpy as np

from herzla.analysis.advice_words import report_lines
from herzla.analysis.estimate import Estimate, difference, score_range
from herzla.analysis.search.scoring import BooleanScore, trick_score
from herzla.analysis.search.trick_search import TrickSearch
from herzla.analysis.strong import played_batch, played_one
from herzla.cards import Card, CardError, cards_of, parse_card, parse_cards
from herzla.contracts import TrickContract, UnknownContract, contract_class, get_game
from herzla.display import render
from herzla.errors import HerzlaError
from herzla.i18n import _, format_number
from herzla.kinds.tricks import TrickHand
from herzla.limits import LimitError, check_seed, check_stock, check_timeout, whole_number
from herzla.options import OptionError
from herzla.players.policy import Policy, PolicyError
from herzla.players.registry import policy_of
from herzla.quote import number, quote
from herzla.records import sort_hand
from herzla.sim.reference import play_hand
from herzla.support.cluster import DEFAULT_TIMEOUT, check_cluster

__all__ = ["CHOICES", "DEFAULT_EXACT", "DEFAULT_MODEL", "MAX_SAMPLES", "AdviceError",
           "AdvicePlan", "AdviceResult", "SampleSpan", "ChunkResult", "Estimate", "advise",
           "chunks_of", "merge_chunks", "play_chunk", "plan_advice", "sample_hands"]

#: the choices of a Herzla player, in the order they are reported (its game's bidding)
CHOICES = get_game("herzla").bidding
#: samples per chunk (fixed: the answer does not depend on it, only the work split does)
CHUNK = 8
KERNEL_SAMPLES = 16
DEFAULT_SAMPLES = 200
#: the samples searched double dummy by default (the first ones): an exact search of the
#: normal game costs a tenth of a second to a second in pure Python, and the bound it gives
#: needs fewer deals than the recommendation
DEFAULT_EXACT = 16
#: the strong player at every seat by default
DEFAULT_MODEL = "net"
#: the most samples one run takes: the answer keeps every sample's cents
MAX_SAMPLES = 1_000_000
_UNIFORMS = [0] * 64  # the heuristic player draws no random numbers
#: the ways of playing a choice is valued under, in the order they are reported
WAYS = ("strong", "double_dummy", "heuristic")


class AdviceError(HerzlaError, ValueError):
    """Arguments the advisor cannot use, with the problem named in one sentence."""


@attrs.frozen(slots=True)
class AdvicePlan:
    """What to sample: the game, the hand (a bit set), the seats, the stock, the options, the
    seed, the choices (contract ids of the game's bidding), the strong player (a policy's
    name, ``net[weights=FILE]`` included) and the samples searched double dummy."""

    hand: int
    seat: int
    dealer: int
    stock: int
    options: Mapping[str, Any]
    seed: int
    samples: int
    choices: tuple[str, ...] = CHOICES
    game: str = "herzla"
    model: str = DEFAULT_MODEL
    exact: int = DEFAULT_EXACT

    def contract(self, choice: str) -> TrickContract:
        cls = contract_class(self.game, choice)
        players = cls.player_counts[0]
        # a question of kind: the advice's choices are the game's contracts announced before
        # the play, trick deals
        return cast(TrickContract, cls(players, self.options,
                                       self.seat if cls.needs_declarer else None))

    def policy(self) -> Policy:
        """The strong player (PolicyError where ``model`` names none)."""
        return policy_of(self.model)

    @property
    def searched(self) -> int:
        """The samples searched double dummy: the first ones."""
        return min(self.exact, self.samples)


@attrs.frozen(slots=True)
class SampleSpan:
    """Samples ``first .. last - 1``."""

    first: int
    last: int


@attrs.frozen(slots=True, eq=False)
class ChunkResult:
    """Per choice and way of playing (``strong``, ``double_dummy``, ``heuristic``): the seat's
    cents on each sample, and whether the contract was made (Beddl, Mord)."""

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


def _uniforms(plan: AdvicePlan, i: int, moves: int = 64) -> list[int]:
    """The move uniforms of sample ``i`` for the strong player (its own generator, apart from
    the deal's)."""
    rng = np.random.default_rng(np.random.SeedSequence(plan.seed, spawn_key=(i, 1)))
    return [int(x) for x in rng.integers(0, 2**32, moves)]


def _add(out: dict[tuple[str, str], list[Any]], key: tuple[str, str], values: Sequence[Any]
         ) -> None:
    out.setdefault(key, []).extend(values)


def play_chunk(plan: AdvicePlan, chunk: SampleSpan) -> ChunkResult:
    """Play one chunk of samples: a module-level function, so it pickles for workers.  The
    strong player plays here only where it has no batch form (:func:`strong_batch` plays it
    on every sample at once)."""
    cents: dict[tuple[str, str], list[int]] = {}
    made: dict[tuple[str, str], list[bool]] = {}
    contracts = {c: plan.contract(c) for c in plan.choices}
    policy = None if _batch_form(plan.model) is not None else plan.policy()
    for i in range(chunk.first, chunk.last):
        hands = sample_hands(plan, i)
        for choice, contract in contracts.items():
            sc = trick_score(contract, plan.stock, hands)
            if policy is not None:
                got, won = played_one(contract, plan.dealer, plan.stock, hands, plan.seat,
                                      policy, _uniforms(plan, i))
                _add(cents, (choice, "strong"), got)
                if won is not None:
                    _add(made, (choice, "strong"), won)
            if i < plan.searched:
                search = TrickSearch(contract, sc, plan.seat)
                value = search.exact(TrickHand(contract, hands, plan.dealer))
                if isinstance(sc, BooleanScore):
                    dd = (sc.made if value else sc.lost)[plan.seat]
                    _add(made, (choice, "double_dummy"), [bool(value)])
                else:
                    dd = value
                _add(cents, (choice, "double_dummy"), [dd])
            state, _ = play_hand(contract, list(hands), plan.dealer, _UNIFORMS, "heuristic")
            score = contract.score(state.outcome(), plan.stock)
            _add(cents, (choice, "heuristic"), [score.scores[plan.seat]])
            if isinstance(sc, BooleanScore):
                _add(made, (choice, "heuristic"), ["contract-made" in score.events])
    return ChunkResult({k: tuple(v) for k, v in cents.items()},
                       {k: tuple(v) for k, v in made.items()})


def _batch_form(model: str) -> Any:
    """The strong player's batch form, or None (it plays deal by deal)."""
    from herzla.sim.batch.named import batch_form_of

    form = batch_form_of(policy_of(model))
    return None if form is None or form.uniforms else form


def strong_batch(plan: AdvicePlan) -> ChunkResult:
    """Every sample played by the strong player at every seat on the batch engine, all at once
    (the same cards as on the reference engine, deal by deal)."""
    form = _batch_form(plan.model)
    assert form is not None
    deals = [sample_hands(plan, i) for i in range(plan.samples)]
    cents: dict[tuple[str, str], tuple[int, ...]] = {}
    made: dict[tuple[str, str], tuple[bool, ...]] = {}
    for choice in plan.choices:
        got, won = played_batch(plan.contract(choice), plan.dealer, plan.stock, deals,
                                plan.seat, form)
        cents[(choice, "strong")] = tuple(got)
        if won is not None:
            made[(choice, "strong")] = tuple(won)
    return ChunkResult(cents, made)


def chunks_of(plan: AdvicePlan, size: int = CHUNK) -> list[SampleSpan]:
    """The samples in chunks: of ``size`` / 2 where they are searched double dummy (the costly
    ones, shared out finely among the processes), of ``size`` * 8 after them."""
    out = []
    a = 0
    while a < plan.samples:
        step = max(1, size // 2) if a < plan.searched else size * 8
        last = min(a + step, plan.samples)
        if a < plan.searched < last:
            last = plan.searched
        out.append(SampleSpan(a, last))
        a = last
    return out


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
class AdviceResult:
    """The answer of :func:`advise`; ``to_dict()`` is the ``herzla advise --json`` object.
    ``margin``: the recommendation's mean under strong play less the next choice's, on the
    same deals, with its 95% interval (None with one choice)."""

    plan: AdvicePlan
    choices: Mapping[str, Mapping[str, Estimate]]
    recommendation: str
    elapsed: float
    margin: tuple[str, float, tuple[float, float]] | None = None

    @property
    def samples(self) -> int:
        return self.plan.samples

    @property
    def basis(self) -> str:
        """The way of playing the recommendation rests on."""
        return "strong"

    def hand(self) -> list[Card]:
        return sort_hand(cards_of(self.plan.hand), self.plan.contract(self.plan.choices[0]))

    def __repr__(self) -> str:
        cards = " ".join(str(c) for c in self.hand())
        means = ", ".join(f"{c} {self.choices[c]['strong'].mean:+.1f}c"
                          for c in self.plan.choices)
        verdict = (f"recommends {self.recommendation}" if len(self.plan.choices) > 1
                   else "nothing to compare")
        return (f"<AdviceResult seat {self.plan.seat} holding {cards}: {means} (strong play by "
                f"{self.plan.model}, {self.plan.samples:,} deals); {verdict}>")

    def report(self) -> str:
        """The table ``herzla advise`` prints (also ``str(result)``)."""
        p = self.plan
        cards = " ".join(str(c) for c in self.hand())
        contracts = {c: p.contract(c) for c in p.choices}
        unseen = (contracts[p.choices[0]].pack().mask & ~p.hand).bit_count()
        return "\n".join(report_lines(
            p.game, p.seat, p.dealer, p.stock, cards, unseen, p.samples, p.seed, p.model,
            contracts, self.choices, self.recommendation, self.margin))

    def __str__(self) -> str:
        return self.report()

    def to_dict(self) -> dict[str, Any]:
        p = self.plan
        out: dict[str, Any] = {
            "hand": [str(c) for c in self.hand()], "seat": p.seat, "dealer": p.dealer,
            "stock": p.stock, "samples": p.samples, "seed": p.seed, "model": p.model,
            "exact_samples": p.searched,
        }
        if p.options:
            out["options"] = dict(p.options)
        out["choices"] = {c: {k: e.to_dict() for k, e in ways.items()}
                          for c, ways in self.choices.items()}
        out["recommendation"] = self.recommendation
        out["basis"] = self.basis
        if self.margin is not None:
            other, diff, (lo, hi) = self.margin
            out["margin"] = {"over": other, "mean": round(diff, 2),
                             "ci95": [round(lo, 2), round(hi, 2)]}
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
                choices: Sequence[str] | None = None, game: str = "herzla",
                model: str = DEFAULT_MODEL, exact: int = DEFAULT_EXACT) -> AdvicePlan:
    """Check the arguments of :func:`advise`; AdviceError names the first problem (a model
    file that is not a model included, before anything is played)."""
    try:
        for what, value in (("seat", seat), ("dealer", dealer), ("stock", stock),
                            ("samples", samples), ("seed", seed), ("exact", exact)):
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
    if not 0 <= exact <= MAX_SAMPLES:
        raise AdviceError(_("exact must be 0 to {max_samples}, not {exact}").format(
            max_samples=format_number(MAX_SAMPLES), exact=number(exact)))
    if not isinstance(model, str):
        raise AdviceError(_("model is a policy's name (\"net\", \"expert\"), not {model}").format(
            model=quote(model)))
    try:
        plan.policy() if model == plan.model else policy_of(model)
    except PolicyError as exc:
        raise AdviceError(_("model: {exc}").format(exc=' '.join(str(exc).split()))) from None
    plan = attrs.evolve(plan, hand=parse_hand(hand, table), dealer=dealer, model=model,
                        exact=exact)
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

    if not compiled.available() or not plan.searched:
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
    if boolean is not None and plan.searched >= KERNEL_SAMPLES:
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
           cluster_timeout: float = DEFAULT_TIMEOUT, game: str = "herzla",
           model: str = DEFAULT_MODEL, exact: int = DEFAULT_EXACT) -> AdviceResult:
    """What Normal, Beddl and Mord (``seat`` declaring) are worth to ``hand`` (8 cards).

    Recommends the choice of the highest mean under strong play: ``model`` (a policy's name:
    ``net`` by default, ``net[weights=FILE]``, ``expert`` the slower search player) at every
    seat; double dummy (on the first ``exact`` samples) and the heuristic are shown beside it.

    ``samples`` deals of the unseen cards, seeded by ``seed``; the same answer for any ``jobs``
    (processes, this one included; None: one per core, and never more than the cores this
    process may use, as in :func:`herzla.simulate`) and whether they run on a dask cluster
    (``cluster``: its scheduler's address; ``herzla.support.cluster``).  ``progress`` is called
    with the samples done.
    ``options`` are herzla's rule options; ``choices`` limits the choices weighed (the
    normal game's double-dummy search is by far the slowest).  Raises :class:`AdviceError`.
    """
    start = time.perf_counter()
    plan = plan_advice(hand, seat, dealer, stock, samples, seed, options, choices, game, model,
                       exact)
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
    if _batch_form(plan.model) is not None:
        results.append(strong_batch(plan))
    merged = merge_chunks(results)
    weighed: dict[str, dict[str, Estimate]] = {}
    for c in plan.choices:
        bounds = score_range(plan.contract(c), plan.seat, plan.stock)
        weighed[c] = {way: Estimate.of(merged.cents[(c, way)], merged.made.get((c, way)), bounds,
                                       plan.model if way == "strong" else None)
                      for way in WAYS if (c, way) in merged.cents}
    order = sorted(plan.choices, key=lambda c: (-weighed[c]["strong"].mean,
                                                plan.choices.index(c)))
    margin = None
    if len(order) > 1:
        best, other = order[0], order[1]
        diff, ci = difference(merged.cents[(best, "strong")], merged.cents[(other, "strong")])
        margin = (other, diff, ci)
    return AdviceResult(plan, weighed, order[0], time.perf_counter() - start, margin)
