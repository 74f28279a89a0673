"""``herzla simulate``: Monte Carlo simulation of a game, a contract or whole parties.

The command parses its arguments, runs :func:`herzla.simulate`, and prints a table (or
``--json``); optionally a picture of the score histograms (``--plot``) and the first hands as hand
records (``--sample K --sample-out FILE``).
"""

from __future__ import annotations

import errno
import importlib.util
import json
import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal, InvalidOperation
from typing import Any, BinaryIO, cast

import click

from herzla.cli.common import (
    FactCommand,
    FactOption,
    NameChoice,
    check_stopped,
    check_wait,
    cluster_timeout_option,
    fail,
    note_jobs,
    option_flag,
    parse_options,
)
from herzla.cli.complete import complete_contract, complete_game, complete_policy
from herzla.cli.output import (
    Output,
    Progress,
    check_output,
    keep_apart,
    on_stdout,
    open_output,
)
from herzla.i18n import _
from herzla.quote import quote, visible
from herzla.sim.api import MAX_HANDS, SimulationError, plan_run, play_processes, run_plan
from herzla.sim.engine import Engine, batch_declines, engine_of
from herzla.sim.plan import Mode
from herzla.sim.rows import row_format
from herzla.sim.runner import SimResult
from herzla.sim.stats import DealTally, Histogram
from herzla.support.cluster import ClusterError, quiet_logs
from herzla.support.procs import WorkerLost
from herzla.support.streams import BLOCK

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


def _plot_args(res: SimResult) -> tuple[str, str, str, list[Histogram]]:
    """Title, x label, y label and histograms of the --plot picture."""
    p = res.plan
    spec = p.specs[0]
    unit = "cents" if p.stock is not None else "points"
    if res.session is not None:
        what = spec.contract_id if p.mode is Mode.CONTRACT else "with bidding"
        return (f"{p.game} {what}, evenings of {p.session:,} deals, {p.players} players, "
                f"{p.hands:,} evenings, policy {spec.policy}, seed {p.seed}",
                f"evening total ({unit})", "share of evenings", res.session.evenings.seats)
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


@click.command("simulate", cls=FactCommand)
@click.argument("game", shell_complete=complete_game)
@click.option("--contract", "-c", metavar="C", shell_complete=complete_contract,
              help="Play only this deal, each hand on its own (e.g. normal, mord, no-hearts).")
@click.option("--partie", is_flag=True, cls=FactOption,
              help="Play whole parties ({parties}); --hands counts parties. The default for a "
                   "game with a partie.")
@click.option("--session", type=int, metavar="N", cls=FactOption,
              help="A game with a stock ({stocked}): play whole evenings of N deals, the "
                   "stock carried from deal to deal (from --stock) and the deal passing "
                   "clockwise, each deal's contract --contract C or the bidding's; --hands "
                   "counts evenings, and the seat "
                   "statistics are evening totals, with the stock left at the end.")
@click.option("--players", "-p", type=int, metavar="N",
              help="Number of seats (default: the game's usual).")
@click.option("--hands", "-n", type=HANDS, default=DEFAULT_HANDS, show_default=True,
              help="Hands to play (parties with --partie, evenings with --session): 1000000, "
                   "1e6 or 1_000_000.")
@click.option("--seed", "-s", type=click.IntRange(min=0), metavar="S",
              help="The random seed (default: a fresh one, printed so the run can be repeated).")
@click.option("--policy", default="random", show_default=True, metavar="P|P0,P1,...",
              shell_complete=complete_policy,
              help="How the players choose their cards: random (uniformly among the legal "
                   "ones), heuristic (a sensible player for the contract at hand), pimc (samples "
                   "the unseen cards and solves each sample), ipimc (pimc weighing the samples "
                   "by how likely they make the plays seen), net (a small learned model near "
                   "the heuristic's speed on the batch engine), an entry point of "
                   "herzla.policies or package.module:NAME; with parameters as "
                   "pimc[samples=16]; one for every seat, or one a seat separated by commas "
                   "(the Policies page of the docs).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), metavar="J",
              help="Processes that play, this one included (default: all the cores this "
                   "process may use, the others started once the run proves long enough to "
                   "gain from them); more than the usable cores plays on that many, with a "
                   "note. Results do not depend on it.")
@click.option("--cluster", metavar="ADDRESS",
              help="Play on the workers of the dask scheduler at ADDRESS (tcp://HOST:PORT; "
                   "needs pip install 'herzla[dask]'; the Clusters page of the docs) instead of on "
                   "this "
                   "machine: the same results as a local run.")
@cluster_timeout_option
@click.option("--dealer", type=int, metavar="SEAT",
              help="The dealer's seat (default: the last seat, so seat 0 is forehand).")
@click.option("--declarer", type=int, metavar="SEAT",
              help="herzla beddl/mord: the declarer's seat (default: forehand).")
@click.option("--stock", type=click.IntRange(min=0), metavar="CENTS",
              help="herzla: cents in the stock before each hand, or with --session at the start "
                   "of each evening (default 0).")
@option_flag
@click.option("--json", "as_json", is_flag=True,
              help="Answer in JSON (the Command line page of the docs).")
@click.option("--plot", metavar="FILE.png",
              help="Also draw each seat's score histogram into FILE.png (needs matplotlib: "
                   "pip install 'herzla[plot]').")
@click.option("--sample", type=click.IntRange(min=1), metavar="K",
              help="Write the first K hands (parties) as hand records to --sample-out.")
@click.option("--sample-out", metavar="FILE.jsonl",
              help="Where --sample writes: one hand record per line, for 'herzla replay'.")
@click.option("--rows", "rows_out", metavar="FILE",
              help="Also write one row a hand (a partie with --partie, an evening with "
                   "--session) to FILE: .csv, .jsonl or .parquet (needs pyarrow); the columns: "
                   "hand, contract, declarer, score_0.., stock_before, stock_after, win_0.. "
                   "and one 0/1 column per event. The same file for a seed whatever --jobs.")
@click.option("--rows-format", type=NameChoice(["csv", "jsonl", "parquet"]), metavar="FORMAT",
              help="The format of --rows (csv, jsonl or parquet), where its suffix does not say "
                   "(or for --rows -).")
@click.option("--batch-size", type=HANDS, metavar="N",
              help=f"Hands per worker task, rounded up to whole blocks of {BLOCK:,} "
                   f"(default: one block). Results do not depend on it.")
@click.option("--engine", type=NameChoice(["auto", "batch", "reference"]),
              default="auto", show_default=True,
              help="The engine: auto (the fast batch engine where it covers the deal and its "
                   "options), or force one (for checks and benchmarks; the same results).")
@click.option("--progress/--no-progress", "show_progress", default=None,
              help="A progress line on standard error for a run that takes more than a second "
                   "(by default only when standard error is a terminal; --progress: also into "
                   "a log, a line every 5 s; --no-progress: never). Never on standard output.")
@click.option("--block-size", type=HANDS, hidden=True,
              help="Hands per random block (testing only: changes the random streams).")
def simulate(game: str, contract: str | None, partie: bool, session: int | None,
             players: int | None, hands: int,
             seed: int | None, policy: str, jobs: int | None, cluster: str | None,
             cluster_timeout: float, dealer: int | None,
             declarer: int | None, stock: int | None, option_items: tuple[str, ...],
             as_json: bool, plot: str | None, sample: int | None, sample_out: str | None,
             rows_out: str | None, rows_format: str | None, batch_size: int | None,
             engine: str, show_progress: bool | None,
             block_size: int | None) -> None:
    """Monte Carlo simulation of GAME: each seat's mean score, spread, 95% CI, min, max and
    histogram, how often each event happened, and in the trick deals played in full (not Beddl,
    Mord or the bidding) the same statistics of the hearts each seat captured (the text report
    shows them for a deal whose contract scores hearts, and for every deal of a partie).

    What is played: in a game with bidding ({bidders}), hands whose contract the bidding
    chooses (--contract C plays one contract; --declarer SEAT goes with a declarer's
    contract); in a game with a partie ({parties}), whole parties (--partie), or --contract C
    for one deal type; in a game of one contract, its hands. With --partie the seat statistics
    describe partie totals, with wins per seat (equal best totals share the win) and a
    breakdown per deal. With --session N ({stocked}) whole evenings of N deals are played, the
    stock carried from deal to deal: the seat statistics describe evening totals, and the
    stock left at the end of the evening is counted.

    \b
    Statistics: std is the sample standard deviation (n-1); the 95% CI of the mean is
    mean ± 1.96·std/√n (Student's t instead of 1.96 below 30 values, no interval for one);
    every rate (events, contracts chosen, made and lost, wins) has its Wilson score 95%
    interval, in the table and in --json's "rates". herzla amounts are in cents. For a given
    --seed every number but the timing (elapsed_s, hands_per_s: single hands played per
    second) is the same whatever --jobs, --cluster, --batch-size and --engine are.

    \b
    Examples:
      herzla simulate herzeln --hands 1e5
      herzla simulate herzla --contract mord --declarer 0 --hands 1e6 --json
      herzla simulate herzerln --contract hearts --policy heuristic --plot hearts.png
      herzla simulate herzla --session 20 --policy heuristic --hands 1e4
      herzla simulate herzla --hands 1000 --sample 20 --sample-out hands.jsonl
      herzla simulate herzla --hands 1e5 --rows hands.csv
      herzla simulate herzla --hands 1e9 --cluster tcp://127.0.0.1:8786
    """
    if (sample is None) != (sample_out is None):
        fail("--sample K and --sample-out FILE go together")
    if cluster is not None and jobs is not None:
        fail("--jobs and --cluster exclude each other: with --cluster the cluster's workers "
             "play")
    check_wait(cluster_timeout)
    block = block_size or BLOCK
    if seed is None:
        seed = secrets.randbits(32)
    options = parse_options(option_items)
    try:  # check everything before any hand is played or any file is touched
        plan = plan_run(game, contract, hands=hands, seed=seed, players=players, policy=policy,
                        options=options, partie=partie, dealer=dealer, declarer=declarer,
                        stock=stock, sample=sample or 0, block=block, engine=engine,
                        session=session)
    except SimulationError as exc:
        fail(str(exc))
    if engine_of(engine) is Engine.BATCH:
        note = batch_declines(plan.specs[0])
        if note is not None:
            click.echo(f"herzla: note: {note}", err=True)
    plot_format = None
    plot_target = check_output(plot, "--plot") if plot is not None else None
    sample_target = check_output(sample_out, "--sample-out") if sample_out is not None else None
    rows_target, row_fmt = _rows_target(rows_out, rows_format)
    # an output file on standard output keeps it to itself: the answer goes to standard error
    keep_apart([], [("--sample-out", sample_target), ("--plot", plot_target),
                    ("--rows", rows_target)])
    err = on_stdout(("--sample-out", sample_target), ("--plot", plot_target),
                    ("--rows", rows_target))
    if plot_target is not None:
        from herzla.sim.plot import PlotUnavailable, check_plot_target

        try:
            plot_format = check_plot_target(str(plot_target.path))
        except PlotUnavailable as exc:
            fail(str(exc))

    if cluster is not None:
        quiet_logs()
    note_jobs(jobs, play_processes(plan, jobs=jobs, batch_size=batch_size)
              if cluster is None else None)
    progress = None
    if show_progress or (show_progress is None and sys.stderr.isatty()):
        progress = Progress(plan.hands, plan.unit)

    def tick(done: int) -> None:  # after each task: the progress line, and a stop not lost
        check_stopped()
        if progress is not None:
            progress(done)

    try:
        with _sample_writer(sample_target) as write_records:
            res = run_plan(plan, jobs=jobs, batch_size=batch_size, on_records=write_records,
                           progress=tick, cluster=cluster, cluster_timeout=cluster_timeout,
                           rows=rows_target is not None)
    except (SimulationError, ClusterError, WorkerLost) as exc:
        fail(_one_line(exc))
    except OSError as exc:
        if exc.errno == errno.EPIPE:  # --sample-out -, read by a reader that stopped
            raise
        fail(f"cannot write {sample_target}: {exc.strerror or _one_line(exc)}" if sample_target
             else _one_line(exc))
    finally:
        if progress is not None:
            progress.close()

    if rows_target is not None and row_fmt is not None and res.rows is not None:
        try:
            with open_output(rows_target, binary=row_fmt == "parquet") as fh:
                res.rows.write(fh, row_fmt)
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                raise
            fail(f"cannot write {rows_target}: {exc.strerror or _one_line(exc)}")
        finally:
            res.rows.close()
    if plot_target is not None and plot_format is not None:
        from herzla.sim.plot import plot_histograms

        title, xlabel, ylabel, hists = _plot_args(res)
        try:
            with open_output(plot_target, binary=True) as fh:
                plot_histograms(cast(BinaryIO, fh), plot_format, hists, title, xlabel, ylabel)
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                raise
            fail(f"cannot write {plot_target}: {exc.strerror or _one_line(exc)}")
    if as_json:
        click.echo(json.dumps(res.to_dict(), indent=1), err=err)
        return
    click.echo(visible(res.report()), err=err)
    if sample_target is not None:
        k = plan.sample * plan.deals
        click.echo(f"Wrote {k:,} hand records to {sample_target} (check one with 'herzla "
                   f"replay').", err=err)
    if plot is not None:
        click.echo(f"Drew the histograms to {plot_target}.", err=err)
    if rows_target is not None and res.rows is not None:
        click.echo(_("Wrote {rows} rows ({unit}) to {file}.").format(
            rows=f"{res.rows.rows:,}", unit=plan.unit, file=rows_target), err=err)


def _rows_target(name: str | None, given: str | None) -> tuple[Output | None, str | None]:
    """The file ``--rows`` writes and its format, checked before any hand is played."""
    if name is None:
        if given is not None:
            fail(_("--rows-format goes with --rows FILE"))
        return None, None
    target = check_output(name, "--rows")
    try:
        fmt = row_format(name, given)
    except ValueError as exc:
        fail(_("--rows {name}: {problem}; give it with --rows-format").format(name=name,
                                                                              problem=exc))
    if fmt == "parquet" and importlib.util.find_spec("pyarrow") is None:
        fail(_("--rows {name}: writing Parquet needs pyarrow (pip install pyarrow); or write "
               ".csv or .jsonl").format(name=name))
    return target, fmt


@contextmanager
def _sample_writer(target: Output | None) -> Iterator[Any]:
    """A function writing records one per line to ``target`` (atomically), or None."""
    if target is None:
        yield None
        return
    with open_output(target) as fh:
        def write(records: list[dict[str, Any]]) -> None:
            for rec in records:
                fh.write(json.dumps(rec, separators=(", ", ": ")) + "\n")
        yield write
