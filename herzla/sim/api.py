"""The simulator as a library function: ``herzla.simulate(...)``, what ``herzla simulate`` runs.

>>> res = simulate("herzeln", "no-hearts", hands=2000, seed=7, jobs=1)
>>> d = res.to_dict()
>>> d["contract"], d["hands"], d["total"]["expected"], len(d["seats"])
('no-hearts', 2000, -33, 4)
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from herzla.contracts import (
    Contract,
    Game,
    UnknownContract,
    contract_class,
    get_game,
)
from herzla.i18n import _, format_number
from herzla.limits import (
    LimitError,
    check_seed,
    check_session,
    check_stock,
    check_timeout,
    whole_number,
)
from herzla.options import OptionError, given_options, resolve_options
from herzla.players.policy import Policy
from herzla.players.registry import PolicyLike, named_policies, seats_of, spelled
from herzla.quote import number, quote
from herzla.round import dealer_of, make_contract
from herzla.sim.engine import engine_of
from herzla.sim.plan import Mode, Plan
from herzla.sim.rows import RowSpool
from herzla.sim.runner import SimResult, run, task_count
from herzla.sim.spec import DealSpec
from herzla.support.cluster import DEFAULT_TIMEOUT, check_cluster
from herzla.support.procs import default_jobs, usable_jobs
from herzla.support.streams import BLOCK

__all__ = ["CLUSTER_TASK_BLOCKS", "MAX_HANDS", "SimulationError", "check_pickles", "plan_run",
           "play_processes", "run_plan", "simulate"]

#: more hands than a run could play in reasonable time
MAX_HANDS = 10**12


#: hands per task on a cluster (unless ``batch_size`` says otherwise), in blocks: about half a
#: second of play, so that a task's round trip through the scheduler (and the worker's own
#: chatter, which shares its interpreter with the play) costs little; fewer for a run of fewer
#: than 16 such tasks, and a partie's blocks count once per deal
CLUSTER_TASK_BLOCKS = 32


class SimulationError(ValueError):
    """Arguments the simulator cannot play, with the problem named in one sentence."""


def check_pickles(policies: Iterable[Policy], error: type[Exception]) -> None:
    """``error`` naming a policy object that cannot be sent to worker processes (by pickle):
    one whose class is defined inside a function, or that holds what does not pickle."""
    seen: set[int] = set()
    for policy in policies:
        if id(policy) in seen:
            continue
        seen.add(id(policy))
        try:
            pickle.dumps(policy)
        except Exception as exc:
            raise error(_("the policy {policy} cannot be sent to worker processes "
                          "({kind}: {exc}): define its "
                          "class at the top level of a module, or play with jobs=1").format(
                policy=policy.spec(), kind=type(exc).__name__,
                exc=' '.join(str(exc).split()))) from None


def _contract(cls: type[Contract], players: int, options: Mapping[str, Any],
              declarer: int | None) -> Contract:
    try:
        return make_contract(cls.game, cls.id, players, options, declarer)
    except OptionError as exc:
        raise SimulationError(" ".join(str(exc).split())) from None


def _check_types(**given: object) -> None:
    """SimulationError unless every given count, seat and amount is a whole number (or None,
    where the argument may be left out)."""
    try:
        for what, value in given.items():
            if value is not None or what in ("hands", "seed", "sample", "block"):
                whole_number(value, what)
    except LimitError as exc:
        raise SimulationError(str(exc)) from None


def plan_run(game: str, contract: str | None = None, *, hands: int, seed: int,
             players: int | None = None, policy: PolicyLike = "random",
             options: Mapping[str, Any] | None = None, partie: bool = False,
             dealer: int | None = None, declarer: int | None = None, stock: int | None = None,
             sample: int = 0, block: int = BLOCK, engine: str = "auto",
             session: int | None = None) -> Plan:
    """Check the arguments of a simulation and turn them into a :class:`Plan`.

    ``contract`` None: whole parties for a game with a partie, the bidding for a game with
    bidding, else the game's only contract.  ``session``: evenings of that many deals, the
    stock carried from deal to deal (games with a stock), each deal's contract ``contract``
    or the bidding's.  Raises :class:`SimulationError` naming what is wrong.
    """
    _check_types(hands=hands, seed=seed, players=players, dealer=dealer, declarer=declarer,
                 stock=stock, sample=sample, block=block, session=session)
    if not isinstance(partie, bool):
        raise SimulationError(_("partie is true or false, not {partie}").format(
            partie=quote(partie)))
    if not 0 <= sample <= MAX_HANDS:
        raise SimulationError(_("sample must be 0 to {max_hands:.0e}, not {sample}").format(
            max_hands=MAX_HANDS, sample=number(sample)))
    if not 1 <= block <= MAX_HANDS:
        raise SimulationError(_("block must be 1 to {max_hands:.0e}, not {block}").format(
            max_hands=MAX_HANDS, block=number(block)))
    try:
        engine_of(engine)
    except ValueError as exc:
        raise SimulationError(str(exc)) from None
    try:
        g = get_game(game)
    except UnknownContract as exc:
        raise SimulationError(str(exc)) from None
    game = g.id  # as the registry spells it (a name is read in any case)
    classes = g.contract_classes()
    try:
        check_seed(seed)
        if stock is not None:
            check_stock(stock)
        resolved = resolve_options(g.options, options, f" for {game}")
    except (OptionError, LimitError) as exc:
        raise SimulationError(" ".join(str(exc).split())) from None
    given: dict[str, Any] = given_options(g.options, options)  # the given ones, typed
    if not 1 <= hands <= MAX_HANDS:
        raise SimulationError(_("hands must be 1 to {max_hands:.0e}, not {hands}").format(
            max_hands=MAX_HANDS, hands=hands))
    if session is not None:
        _check_session(g.id, session, hands, partie)
    if not isinstance(policy, str | Policy | list | tuple) and not (
            isinstance(policy, type) and issubclass(policy, Policy)):
        raise SimulationError(_('policy is a name ("random", "heuristic,random", '
                                '"pimc[samples=8]"), a herzla.Policy object, or a list of '
                                "them, not {policy}").format(policy=quote(policy)))

    # which deals: one contract, whole parties, or the bidding
    if contract is not None and partie:
        raise SimulationError(_("a contract and a partie exclude each other: choose one"))
    if partie and not g.partie:
        parties = [x for x in _games_with_partie()]
        raise SimulationError(_("{game} has no partie (games with a partie: "
                                "{parties}); choose a contract").format(
            game=game, parties=', '.join(parties)))
    if contract is not None:
        try:
            cls = contract_class(game, contract)
        except UnknownContract as exc:
            raise SimulationError(str(exc)) from None
        mode = Mode.CONTRACT
    elif (partie or g.partie) and session is None:
        mode = Mode.PARTIE
        cls = classes[0]
    elif g.bidding:
        if declarer is not None:
            choices = " or ".join(c.id for c in classes if c.needs_declarer)
            raise SimulationError(_("a declarer goes with the contract {choices}").format(
                choices=choices))
        mode = Mode.BIDDING
        cls = contract_class(game, g.bidding[0])
    elif len(classes) == 1:
        mode = Mode.CONTRACT
        cls = classes[0]
    else:
        raise SimulationError(_("{game}: choose a contract (one of "
                                "{value})").format(
            game=game, value=', '.join(c.id for c in classes)))

    n = players if players is not None else cls.player_counts[0]
    problem = cls.player_count_problem(n)
    if problem:
        raise SimulationError(problem)
    try:
        seats = seats_of(policy, n)
        name = spelled(policy) if isinstance(policy, str) else named_policies(seats)
    except ValueError as exc:
        raise SimulationError(" ".join(str(exc).split())) from None
    if dealer is None:
        dealer = n - 1
    elif not 0 <= dealer < n:
        raise SimulationError(_("dealer {dealer} is not a seat of {n} players "
                                "(seats 0 to {n2})").format(dealer=dealer, n=n, n2=n - 1))
    forehand = (dealer + 1) % n
    fixed_declarer = declarer is not None
    if mode is Mode.CONTRACT and cls.needs_declarer:
        if declarer is None:
            declarer = forehand
        elif not 0 <= declarer < n:
            raise SimulationError(_("declarer {declarer} is not a seat of {n} players "
                                    "(seats 0 to {n2})").format(declarer=declarer, n=n, n2=n - 1))
    elif declarer is not None:
        with_one = [c.id for c in classes if c.needs_declarer]
        raise SimulationError(f"{game} {cls.id} has no declarer"
                              + (" (only " + " and ".join(with_one) + " have)"
                                 if with_one else ""))
    has_stock = cls.has_stock
    if stock is not None and not has_stock:
        raise SimulationError(_("{game} has no stock").format(game=game))
    start_stock = (stock or 0) if has_stock else None
    sample = min(sample, hands)

    if mode is Mode.PARTIE:
        ids = g.partie_ids()
        dealers = [g.dealer(dealer, i, n, resolved) for i in range(len(ids))]
        contracts = [_contract(contract_class(game, c), n, given, None) for c in ids]
        specs = tuple(DealSpec.at(c, d, seats, options=given, policy=name)
                      for c, d in zip(contracts, dealers, strict=True))
        expected = tuple(c.score_total() for c in contracts)
        partie_total = None if None in expected else sum(e for e in expected if e is not None)
        return Plan(game, mode, n, specs, seed, hands, expected, partie_total,
                    lowest_wins=g.lowest_wins, stock=None, sample=sample, block=block,
                    engine=engine)
    chosen = _contract(cls, n, given, declarer if cls.needs_declarer else None)
    if session is not None:
        specs = _session_specs(g, chosen, session, dealer, fixed_declarer, seats, resolved,
                               given, name, mode is Mode.BIDDING, start_stock or 0)
        return Plan(game, mode, n, specs, seed, hands, (None,) * session, None,
                    lowest_wins=g.lowest_wins, stock=start_stock, sample=sample, block=block,
                    engine=engine, contract_names=g.bidding if mode is Mode.BIDDING else (),
                    session=session)
    spec = DealSpec.at(chosen, dealer, seats, mode is Mode.BIDDING, start_stock or 0, given, name)
    return Plan(game, mode, n, (spec,), seed, hands,
                (None if has_stock else chosen.score_total(),), None,
                lowest_wins=g.lowest_wins, stock=start_stock, sample=sample, block=block,
                engine=engine, contract_names=g.bidding if mode is Mode.BIDDING else ())


def _games_with_partie() -> list[str]:
    from herzla.contracts import games

    return [g for g in games() if get_game(g).partie]


def _check_session(game: str, deals: int, hands: int, partie: bool) -> None:
    """SimulationError unless evenings of ``deals`` deals of ``game`` can be played."""
    from herzla.contracts import games

    try:
        check_session(deals)
    except LimitError as exc:
        raise SimulationError(str(exc)) from None
    if partie:
        raise SimulationError(_("a session and a partie exclude each other: choose one"))
    g = get_game(game)
    if not g.has_stock:
        with_stock = [name for name in games() if get_game(name).has_stock]
        instead = (f"simulate whole parties of {game} instead" if g.partie else
                   "simulate its hands on their own (a hand's score does not depend on the "
                   "hands before)")
        raise SimulationError(_("{game} has no stock to carry from deal to deal, which is what "
                                "a session plays (games with a stock: {with_stock}); "
                                "{instead}").format(
            game=game, with_stock=', '.join(with_stock), instead=instead))
    if g.partie:
        raise SimulationError(_("{game} is played in parties, not in a session of single "
                                "deals").format(
            game=game))
    if hands * deals > MAX_HANDS:
        raise SimulationError(_("{hands} evenings of {deals} deals are more than "
                                "{max_hands:.0e} hands").format(
            hands=format_number(hands), deals=format_number(deals), max_hands=MAX_HANDS))


def _session_specs(g: Game, chosen: Contract, deals: int, first: int, fixed_declarer: bool,
                   seats: tuple[Policy, ...], resolved: Mapping[str, Any],
                   given: Mapping[str, Any], policy: str, bid: bool, stock: int
                   ) -> tuple[DealSpec, ...]:
    """The deal streams of an evening: deal ``i`` dealt by the seat the game's rotation names
    (:func:`herzla.round.dealer_of`, as an evening kept at the table has it), its
    contract ``chosen`` (one that needs a declarer: declared by each deal's forehand, unless
    ``fixed_declarer``)."""
    n = chosen.players
    dealers: list[int] = []
    for i in range(deals):
        dealers.append(dealer_of(g, first, i, dealers, n, resolved))
    by_declarer: dict[int, Contract] = {}
    if chosen.declarer is not None:
        by_declarer[chosen.declarer] = chosen

    def contract_of(dealer: int) -> Contract:
        if not chosen.needs_declarer or fixed_declarer:
            return chosen
        forehand = (dealer + 1) % n
        if forehand not in by_declarer:
            by_declarer[forehand] = _contract(type(chosen), n, given, forehand)
        return by_declarer[forehand]

    return tuple(DealSpec.at(contract_of(d), d, seats, bid, stock, given, policy)
                 for d in dealers)


def simulate(game: str, contract: str | None = None, *, hands: int, seed: int,
             players: int | None = None, policy: PolicyLike = "random",
             options: Mapping[str, Any] | None = None, partie: bool = False,
             dealer: int | None = None, declarer: int | None = None, stock: int | None = None,
             jobs: int | None = None, batch_size: int | None = None, engine: str = "auto",
             sample: int = 0, block: int = BLOCK,
             on_records: Callable[[list[dict[str, Any]]], None] | None = None,
             progress: Callable[[int], None] | None = None, cluster: str | None = None,
             cluster_timeout: float = DEFAULT_TIMEOUT, session: int | None = None,
             rows: bool = False) -> SimResult:
    """Simulate ``hands`` seeded hands (parties, with a partie; evenings, with a session) of
    ``game``.

    ``session``: play evenings of that many deals (games with a stock), the stock carried from
    deal to deal (starting at ``stock``), the deal passing round, each deal's contract
    ``contract`` or the bidding's; the seats' statistics describe evening totals and
    ``to_dict()["session"]`` the stock at the end of the evening.

    The answer is the same for a given ``seed`` whatever ``jobs`` (processes that play, this
    one included, at most :func:`default_jobs`; None: all cores, the others started only once
    the run proves long enough to gain from them), ``cluster`` (the address of a dask
    scheduler whose workers play instead: :func:`run_plan`), ``batch_size`` (hands per task, in
    whole blocks) and ``engine`` (``auto``, ``batch`` or ``reference``) are.  ``options`` are
    rule options by name (typed values, or text as on the command line).  ``sample`` hands
    (parties) are handed to ``on_records`` as hand records; ``progress`` is called with the
    hands (parties) done so far.  ``rows``: keep one row a hand (partie, evening) in
    ``result.rows`` (:class:`herzla.sim.rows.RowSpool`; ``result.to_frame()`` gives them to
    pandas), the same whatever ``jobs``.  The result's ``to_dict()`` is the ``--json`` answer of
    ``herzla simulate``.  Raises :class:`SimulationError` (and the errors of :func:`run_plan`).
    """
    plan = plan_run(game, contract, hands=hands, seed=seed, players=players, policy=policy,
                    options=options, partie=partie, dealer=dealer, declarer=declarer,
                    stock=stock, sample=sample, block=block, engine=engine, session=session)
    return run_plan(plan, jobs=jobs, batch_size=batch_size, on_records=on_records,
                    progress=progress, cluster=cluster, cluster_timeout=cluster_timeout,
                    rows=rows)


def _blocks_per_task(plan: Plan, batch_size: int | None, cluster: str | None) -> int:
    if batch_size is None and cluster is not None:
        return max(1, min(CLUSTER_TASK_BLOCKS // plan.deals, plan.blocks // 16))
    return -(-(batch_size or plan.block) // plan.block)


def play_processes(plan: Plan, *, jobs: int | None = None, batch_size: int | None = None
                   ) -> int:
    """How many processes (this one included) :func:`run_plan` plays ``plan`` on, at most:
    ``jobs`` (None: all cores) but no more than :func:`default_jobs` nor the run's tasks.  With
    ``jobs`` given that is exactly the number a run reports (``SimResult.processes``)."""
    want = default_jobs() if jobs is None else jobs
    if want < 1:
        raise SimulationError(_("jobs must be at least 1, not {want}").format(want=want))
    want = usable_jobs(want)
    return max(1, min(want, task_count(plan, _blocks_per_task(plan, batch_size, None))))


def run_plan(plan: Plan, *, jobs: int | None = None, batch_size: int | None = None,
             on_records: Callable[[list[dict[str, Any]]], None] | None = None,
             progress: Callable[[int], None] | None = None, cluster: str | None = None,
             cluster_timeout: float = DEFAULT_TIMEOUT, rows: bool = False) -> SimResult:
    """Run a checked plan (:func:`plan_run`); the rest of :func:`simulate`.

    ``jobs`` above :func:`default_jobs` plays on that many.  With ``cluster`` (``tcp://HOST:PORT``
    of a dask scheduler; needs ``pip install 'herzla[dask]'``) the scheduler's workers play the
    same seeded blocks as dask tasks (:mod:`herzla.support.cluster`), so the answer is the one
    of a local run; ``cluster_timeout`` bounds the wait for the scheduler and a worker.  Raises
    :class:`SimulationError`; :class:`herzla.support.cluster.ClusterError` when the cluster
    cannot be reached or is lost, :class:`herzla.support.procs.WorkerLost` when local worker
    processes keep dying (each a one-line message).
    """
    _check_types(jobs=jobs, batch_size=batch_size)
    if batch_size is not None and not 1 <= batch_size <= MAX_HANDS:
        raise SimulationError(_("batch_size must be 1 to {max_hands:.0e}, not {batch_size}").format(
            max_hands=MAX_HANDS, batch_size=number(batch_size)))
    check_cluster(cluster, SimulationError)
    for what, fn in (("progress", progress), ("on_records", on_records)):
        if fn is not None and not callable(fn):
            raise SimulationError(_("{what} must be a function or None, not {fn}").format(
                what=what, fn=quote(fn)))
    if cluster is not None and jobs is not None:
        raise SimulationError(_("jobs and a cluster exclude each other: the cluster's workers "
                                "play"))
    if not isinstance(rows, bool):
        raise SimulationError(_("rows is true or false, not {rows}").format(rows=quote(rows)))
    spool = None
    if rows:
        plan = attrs.evolve(plan, rows=True)
        spool = RowSpool()
    try:
        check_timeout(cluster_timeout)
    except LimitError as exc:
        raise SimulationError(str(exc)) from None
    adaptive = jobs is None
    per_task = _blocks_per_task(plan, batch_size, cluster)
    workers = play_processes(plan, jobs=jobs, batch_size=batch_size)
    if workers > 1 or cluster is not None:
        check_pickles((p for spec in plan.specs for p in spec.policies), SimulationError)
    try:
        return run(plan, jobs=workers, blocks_per_task=per_task, progress=progress,
                   on_records=on_records, adaptive=adaptive, cluster=cluster,
                   cluster_timeout=cluster_timeout, rows=spool)
    except (ValueError, NotImplementedError) as exc:
        if spool is not None:
            spool.close()
        if isinstance(exc, SimulationError):
            raise
        raise SimulationError(" ".join(str(exc).split()) or type(exc).__name__) from None
