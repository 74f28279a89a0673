"""``herzla simulate``: Monte Carlo simulation of a game, a contract or whole parties.

The command parses its arguments, runs :func:`herzla.simulate`, and prints a table (or
``--json``); optionally a picture of the score histograms (``--plot``) and the first hands as hand
records (``--sample K --sample-out FILE``).
"""

from __future__ import annotations

import json
import secrets
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, BinaryIO, cast

import click

from herzla.cli.common import check_stopped, fail, option_flag, parse_options
from herzla.cli.output import Progress, check_output, open_output
from herzla.quote import quote
from herzla.sim.api import MAX_HANDS, SimulationError, default_jobs, plan_run, run_plan
from herzla.sim.cluster import DEFAULT_TIMEOUT, ClusterError, quiet_logs
from herzla.sim.engine import Engine, batch_declines, engine_of
from herzla.sim.procs import WorkerLost
from herzla.sim.runner import Mode, SimResult
from herzla.sim.stats import DealTally, Histogram, Summary
from herzla.sim.streams import BLOCK

__all__ = ["HANDS", "HandsType", "simulate"]

DEFAULT_HANDS = 10_000


class HandsType(click.ParamType):  # type: ignore[type-arg]
    """A positive whole number written as ``1000000``, ``1e6``, ``1_000_000`` or ``1,000,000``.

    >>> HANDS.convert("1e6", None, None), HANDS.convert("1_000_000", None, None)
    (1000000, 1000000)
    """

    name = "N"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = Decimal(value)
        else:
            text = str(value).strip().replace("_", "").replace(",", "")
            try:
                number = Decimal(text)
            except InvalidOperation:
                self.fail(f"{quote(value)} is not a number (write e.g. 1000000, 1e6 or 1_000_000)",
                          param, ctx)
        if not number.is_finite() or number != number.to_integral_value() or number < 1:
            self.fail(f"{quote(value)} is not a positive whole number", param, ctx)
        if number > MAX_HANDS:
            self.fail(f"{quote(value)} is more than {MAX_HANDS:.0e}", param, ctx)
        return int(number)


HANDS = HandsType()


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


# -- the table --------------------------------------------------------------------------------

def _signed(x: float, decimals: int = 3) -> str:
    return f"{x:+,.{decimals}f}" if x else f"{0:.{decimals}f}"


def _int(x: int) -> str:
    return f"{x:+,d}" if x else "0"


def _unsigned(x: float, decimals: int = 3) -> str:
    return f"{x:,.{decimals}f}"


def _seat_table(summaries: Sequence[Summary], extra_head: str = "",
                extra: Sequence[str] = (), signed: bool = True) -> list[str]:
    """One line per seat: mean, std, 95% CI, min, max (``signed``: scores, with their signs;
    else counts)."""
    num = _signed if signed else _unsigned
    whole = _int if signed else (lambda x: f"{x:,d}")
    lines = [f"{'seat':>4} {'mean':>10} {'std':>9} {'95% CI of the mean':>23} "
             f"{'min':>7} {'max':>7}{extra_head}"]
    for s, st in enumerate(summaries):
        ci = f"{num(st.ci95[0])} .. {num(st.ci95[1])}"
        lines.append(f"{s:>4} {num(st.mean):>10} {st.std:>9,.3f} {ci:>23} "
                     f"{whole(st.min):>7} {whole(st.max):>7}{extra[s] if extra else ''}")
    return lines


def _events_table(events: dict[str, int], total: int, what: str) -> list[str]:
    if not events:
        return ["Events: none"]
    width = max(12, *(len(k) for k in events))
    lines = [f"{'event':<{width}} {what:>12} {'rate':>8}"]
    for name, count in events.items():
        lines.append(f"{name:<{width}} {count:>12,} {count / total:>8.2%}")
    return lines


_STATS_NOTE = "std: the sample standard deviation; 95% CI of the mean: mean ± 1.96·std/√n"

_CHECK_TEXT = {
    "zero-sum": "the players and the stock sum to 0 in every hand",
    "hand-total": "every hand adds up to its contract's fixed total",
    "partie-total": "every partie adds up to its fixed total",
}


def _checks_lines(checks: dict[str, int], unit_name: str) -> list[str]:
    out = []
    for name, bad in checks.items():
        text = _CHECK_TEXT.get(name, name)
        out.append(f"Check: {text}: " + ("ok" if not bad else
                                          f"FAILED in {bad:,} {unit_name}"))
    return out


def _options_text(options: dict[str, Any]) -> str:
    if not options:
        return "default rules"
    return "options " + ", ".join(
        f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items())


def _print_report(res: SimResult) -> None:
    p = res.plan
    spec = p.specs[0]
    n = p.players
    unit = "cents" if p.stock is not None else "points"
    policy = f"policy {spec.policy}"
    out: list[str] = []
    if p.mode is Mode.PARTIE:
        rotation = ("the deal passes clockwise after each deal"
                    if len({s.dealer for s in p.specs}) > 1 else "one dealer for the partie")
        out.append(f"{p.game} partie of {len(p.specs)} deals, {n} players, first dealer seat "
                   f"{spec.dealer} ({rotation})")
        out.append(f"{p.hands:,} parties, {policy}, seed {p.seed}, "
                   f"{_options_text(dict(spec.options))}")
    else:
        what = f"{p.game} {spec.contract_id}" if p.mode is Mode.CONTRACT else (
            f"{p.game}, contract chosen by the bidding each hand")
        decl = f", declarer seat {spec.declarer}" if spec.declarer is not None else ""
        out.append(f"{what}{decl}, {n} players, dealer seat {spec.dealer}, forehand seat "
                   f"{(spec.dealer + 1) % n}")
        stock = f", stock {p.stock}c before each hand" if p.stock is not None else ""
        out.append(f"{p.hands:,} hands, {policy}, seed {p.seed}, "
                   f"{_options_text(dict(spec.options))}{stock}")
    out.append("")

    if res.deal is not None:
        t = res.deal
        out.append(f"Score per hand and seat, in {unit}:")
        out += _seat_table(t.seat_summaries())
        if t.stock is not None:
            st = t.stock.summary()
            if st.min == st.max == p.stock:
                out.append(f"The stock stays at {st.min:,}c.")
            else:
                out.append(f"Stock after the hand: mean {st.mean:,.3f}c, std {st.std:,.3f}, "
                           f"min {st.min:,}c, max {st.max:,}c")
        hearts = t.hearts_summaries()
        if hearts is not None:
            out.append("")
            out.append("Hearts captured per hand and seat:")
            out += _seat_table(hearts, signed=False)
        if t.contracts is not None:
            c = t.contracts
            total = sum(c.hands)
            out.append("")
            out.append(f"{'contract':<12} {'hands':>12} {'rate':>8} {'made':>10} {'lost':>10}")
            for code, name in enumerate(c.names):
                made = f"{c.made[code]:>10,} {c.lost[code]:>10,}" if code else ""
                out.append(f"{name:<12} {c.hands[code]:>12,} {c.hands[code] / total:>8.2%} "
                           f"{made}".rstrip())
        out.append("")
        out += _events_table(t.events_json(), t.hands, "hands")
        out += _checks_lines(res.checks(), "hands")
    else:
        pt = res.partie
        assert pt is not None
        out.append(f"Partie total per seat, in {unit} (equal best totals share the win):")
        wins = [f" {w:>9,} {w / pt.parties:>7.2%}" for w in pt.wins]
        out += _seat_table([h.summary() for h in pt.seats],
                           f" {'wins':>9} {'rate':>7}", wins)
        out.append(f"Shared wins: {pt.shared_wins:,} parties "
                   f"({pt.shared_wins / pt.parties:.2%}) ended in a tie for first place; "
                   f"each tied seat counts a win.")
        out.append("")
        out.append("Mean score per deal and seat:")
        width = max(len(s.contract_id or "") for s in p.specs)
        head = (f"{'#':>2}  {'deal':<{width}} {'dealer':>6}"
                + "".join(f"{'seat ' + str(s):>10}" for s in range(n)) + f"{'total':>10}")
        out.append(head)
        for i, (s, d) in enumerate(zip(p.specs, pt.deals, strict=True)):
            means = [h.summary().mean for h in d.seats]
            tot = d.total.summary().mean
            out.append(f"{i + 1:>2}  {s.contract_id:<{width}} {s.dealer:>6}"
                       + "".join(f"{_signed(m):>10}" for m in means) + f"{_signed(tot):>10}")
        means = [h.summary().mean for h in pt.seats]
        out.append(f"{'':>2}  {'partie':<{width}} {'':>6}"
                   + "".join(f"{_signed(m):>10}" for m in means)
                   + f"{_signed(pt.total.summary().mean):>10}")
        counted = [(i, s, d) for i, (s, d) in enumerate(zip(p.specs, pt.deals, strict=True))
                   if d.hearts_summaries() is not None]
        if counted:
            out.append("")
            out.append("Mean hearts captured per deal and seat (the trick deals):")
            out.append(head)
            for i, s, d in counted:
                per_seat = d.hearts_summaries()
                assert per_seat is not None and d.hearts_total is not None
                out.append(f"{i + 1:>2}  {s.contract_id:<{width}} {s.dealer:>6}"
                           + "".join(f"{_unsigned(x.mean):>10}" for x in per_seat)
                           + f"{_unsigned(d.hearts_total.summary().mean):>10}")
        events = {}
        for s, d in zip(p.specs, pt.deals, strict=True):
            events.update({f"{s.contract_id}: {k}": v for k, v in d.events_json().items()})
        out.append("")
        out += _events_table(events, pt.parties, "parties")
        out += _checks_lines(res.checks(), "hands or parties")
    out.append("")
    played = res.hands_played
    jobs = res.processes
    procs = "1 process" if jobs == 1 else f"{jobs} processes"
    if res.cluster is not None:
        procs = f"{jobs} dask worker{'s' if jobs != 1 else ''} at {res.cluster}"
    what = "hands" if p.mode is not Mode.PARTIE else f"hands ({p.hands:,} parties)"
    out.append(f"{_STATS_NOTE}.")
    out.append(f"{played:,} {what} in {res.elapsed:,.2f} s ({res.hands_per_s:,.0f} hands/s, "
               f"{procs}).")
    click.echo("\n".join(out))


def _plot_args(res: SimResult) -> tuple[str, str, str, list[Histogram]]:
    """Title, x label, y label and histograms of the --plot picture."""
    p = res.plan
    spec = p.specs[0]
    unit = "cents" if p.stock is not None else "points"
    if res.partie is not None:
        return (f"{p.game} partie totals, {p.players} players, {p.hands:,} parties, policy "
                f"{spec.policy}, seed {p.seed}", f"partie total ({unit})", "share of parties",
                res.partie.seats)
    assert isinstance(res.deal, DealTally)
    what = spec.contract_id if p.mode is Mode.CONTRACT else "with bidding"
    decl = f", declarer seat {spec.declarer}" if spec.declarer is not None else ""
    return (f"{p.game} {what}{decl}, {p.players} players, {p.hands:,} hands, policy "
            f"{spec.policy}, seed {p.seed}", f"score per hand ({unit})", "share of hands",
            res.deal.seats)


@click.command("simulate")
@click.argument("game")
@click.option("--contract", "-c", metavar="C",
              help="Play only this deal, each hand on its own (e.g. normal, mord, no-hearts).")
@click.option("--partie", is_flag=True,
              help="Play whole parties (herzeln: 8 deals, herzerln: 6 rounds); --hands counts "
                   "parties. The default for herzeln and herzerln.")
@click.option("--players", "-p", type=int, metavar="N",
              help="Number of seats (default: the game's usual).")
@click.option("--hands", "-n", type=HANDS, default=DEFAULT_HANDS, show_default=True,
              help="Hands to play (parties with --partie): 1000000, 1e6 or 1_000_000.")
@click.option("--seed", "-s", type=click.IntRange(min=0), metavar="S",
              help="The random seed (default: a fresh one, printed so the run can be repeated).")
@click.option("--policy", default="random", show_default=True, metavar="P|P0,P1,...",
              help="How the players choose their cards: random (uniformly among the legal "
                   "ones), heuristic (a sensible player for the contract at hand), pimc (samples "
                   "the unseen cards and solves each sample), an entry point of "
                   "herzla.policies or package.module:NAME; with parameters as "
                   "pimc[samples=16]; one for every seat, or one a seat separated by commas "
                   "(docs/policies.md).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), metavar="J",
              help="Processes that play, this one included (default: all the cores this "
                   "process may use, the others started once the run proves long enough to "
                   "gain from them); more than the usable cores plays on that many, with a "
                   "note. Results do not depend on it.")
@click.option("--cluster", metavar="ADDRESS",
              help="Play on the workers of the dask scheduler at ADDRESS (tcp://HOST:PORT; "
                   "needs pip install 'herzla[dask]'; docs/cluster.md) instead of on this "
                   "machine: the same results as a local run.")
@click.option("--cluster-timeout", type=click.FloatRange(min=0, min_open=True),
              default=DEFAULT_TIMEOUT, show_default=True, metavar="SECONDS",
              help="How long to wait for the scheduler and a worker, or for a lost one to "
                   "come back, before giving up.")
@click.option("--dealer", type=int, metavar="SEAT",
              help="The dealer's seat (default: the last seat, so seat 0 is forehand).")
@click.option("--declarer", type=int, metavar="SEAT",
              help="herzla beddl/mord: the declarer's seat (default: forehand).")
@click.option("--stock", type=click.IntRange(min=0), metavar="CENTS",
              help="herzla: cents in the stock before each hand (default 0).")
@option_flag
@click.option("--json", "as_json", is_flag=True, help="Answer in JSON (docs/cli.md).")
@click.option("--plot", metavar="FILE.png",
              help="Also draw each seat's score histogram into FILE.png (needs matplotlib: "
                   "pip install 'herzla[plot]').")
@click.option("--sample", type=click.IntRange(min=1), metavar="K",
              help="Write the first K hands (parties) as hand records to --sample-out.")
@click.option("--sample-out", metavar="FILE.jsonl",
              help="Where --sample writes: one hand record per line, for 'herzla replay'.")
@click.option("--batch-size", type=HANDS, metavar="N",
              help=f"Hands per worker task, rounded up to whole blocks of {BLOCK:,} "
                   f"(default: one block). Results do not depend on it.")
@click.option("--engine", type=click.Choice(["auto", "batch", "reference"]), default="auto",
              show_default=True,
              help="The engine: auto (the fast batch engine where it covers the deal and its "
                   "options), or force one (for checks and benchmarks; the same results).")
@click.option("--no-progress", is_flag=True,
              help="No progress line (shown on standard error, when it is a terminal, for runs "
                   "of several blocks).")
@click.option("--block-size", type=HANDS, hidden=True,
              help="Hands per random block (testing only: changes the random streams).")
def simulate(game: str, contract: str | None, partie: bool, players: int | None, hands: int,
             seed: int | None, policy: str, jobs: int | None, cluster: str | None,
             cluster_timeout: float, dealer: int | None,
             declarer: int | None, stock: int | None, option_items: tuple[str, ...],
             as_json: bool, plot: str | None, sample: int | None, sample_out: str | None,
             batch_size: int | None, engine: str, no_progress: bool,
             block_size: int | None) -> None:
    """Monte Carlo simulation of GAME: each seat's mean score, spread, 95% CI, min, max and
    histogram, how often each event happened, and in the trick deals played in full (not Beddl,
    Mord or the bidding) the same statistics of the hearts each seat captured.

    \b
    What is played:
      herzla           hands whose contract the bidding chooses (--contract normal|beddl|mord
                       plays one contract; --declarer SEAT goes with beddl and mord)
      herzla-kids      normal hands
      herzeln/herzerln whole parties (--partie); or --contract C for one deal type
    With --partie the seat statistics describe partie totals, with wins per seat (equal best
    totals share the win) and a breakdown per deal.

    \b
    Statistics: std is the sample standard deviation (n-1); the 95% CI of the mean is
    mean ± 1.96·std/√n. herzla amounts are in cents. For a given --seed every number but the
    timing (elapsed_s, hands_per_s: single hands played per second) is the same whatever
    --jobs, --cluster, --batch-size and --engine are.

    \b
    Examples:
      herzla simulate herzeln --hands 1e5
      herzla simulate herzla --contract mord --declarer 0 --hands 1e6 --json
      herzla simulate herzerln --contract hearts --policy heuristic --plot hearts.png
      herzla simulate herzla --hands 1000 --sample 20 --sample-out hands.jsonl
      herzla simulate herzla --hands 1e9 --cluster tcp://127.0.0.1:8786
    """
    if (sample is None) != (sample_out is None):
        fail("--sample K and --sample-out FILE go together")
    if cluster is not None and jobs is not None:
        fail("--jobs and --cluster exclude each other: with --cluster the cluster's workers "
             "play")
    block = block_size or BLOCK
    if seed is None:
        seed = secrets.randbits(32)
    options = parse_options(option_items)
    try:  # check everything before any hand is played or any file is touched
        plan = plan_run(game, contract, hands=hands, seed=seed, players=players, policy=policy,
                        options=options, partie=partie, dealer=dealer, declarer=declarer,
                        stock=stock, sample=sample or 0, block=block, engine=engine)
    except SimulationError as exc:
        fail(str(exc))
    if engine_of(engine) is Engine.BATCH:
        note = batch_declines(plan.specs[0])
        if note is not None:
            click.echo(f"herzla: note: {note}", err=True)
    plot_format = None
    plot_target = None
    if plot is not None:
        from herzla.sim.plot import PlotUnavailable, check_plot_target

        plot_target = check_output(plot, "--plot")
        try:
            plot_format = check_plot_target(str(plot_target))
        except PlotUnavailable as exc:
            fail(str(exc))
    sample_target = check_output(sample_out, "--sample-out") if sample_out is not None else None

    if cluster is not None:
        quiet_logs()
    if jobs is not None and jobs > default_jobs():
        cores = default_jobs()
        click.echo(f"herzla: note: --jobs {jobs} is more than the {cores} "
                   f"core{'s' if cores != 1 else ''} this process may use; playing on "
                   f"{cores}", err=True)
    progress = None
    if not no_progress and plan.blocks >= 2 and sys.stderr.isatty():
        progress = Progress(plan.hands, "parties" if plan.mode is Mode.PARTIE else "hands")

    def tick(done: int) -> None:  # after each task: the progress line, and a stop not lost
        check_stopped()
        if progress is not None:
            progress(done)

    try:
        with _sample_writer(sample_target) as write_records:
            res = run_plan(plan, jobs=jobs, batch_size=batch_size, on_records=write_records,
                           progress=tick, cluster=cluster, cluster_timeout=cluster_timeout)
    except (SimulationError, ClusterError, WorkerLost) as exc:
        fail(_one_line(exc))
    except OSError as exc:
        fail(f"cannot write {sample_out}: {exc.strerror or _one_line(exc)}" if sample_out
             else _one_line(exc))
    finally:
        if progress is not None:
            progress.close()

    if plot_target is not None and plot_format is not None:
        from herzla.sim.plot import plot_histograms

        title, xlabel, ylabel, hists = _plot_args(res)
        try:
            with open_output(plot_target, binary=True) as fh:
                plot_histograms(cast(BinaryIO, fh), plot_format, hists, title, xlabel, ylabel)
        except OSError as exc:
            fail(f"cannot write {plot}: {exc.strerror or _one_line(exc)}")
    if as_json:
        click.echo(json.dumps(res.to_dict(), indent=1))
        return
    _print_report(res)
    if sample_target is not None:
        k = plan.sample * plan.deals
        click.echo(f"Wrote {k:,} hand records to {sample_target} (check one with 'herzla "
                   f"replay').")
    if plot is not None:
        click.echo(f"Drew the histograms to {plot}.")


@contextmanager
def _sample_writer(target: Path | None) -> Iterator[Any]:
    """A function writing records one per line to ``target`` (atomically), or None."""
    if target is None:
        yield None
        return
    with open_output(target) as fh:
        def write(records: list[dict[str, Any]]) -> None:
            for rec in records:
                fh.write(json.dumps(rec, separators=(", ", ": ")) + "\n")
        yield write
