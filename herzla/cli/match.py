"""``herzla match GAME --policies A,B[,...]``: a duplicate match between policies
(the Policies page of the docs)."""

from __future__ import annotations

import json
import secrets

import click

from herzla.cli.common import (
    FactOption,
    cluster_timeout_option,
    fail,
    option_flag,
    parse_options,
)
from herzla.cli.simulate import HANDS
from herzla.cli.solve import check_jobs
from herzla.players.registry import split_policies
from herzla.quote import visible
from herzla.sim.api import SimulationError
from herzla.sim.match import MatchResult, match
from herzla.support.cluster import ClusterError
from herzla.support.procs import WorkerLost

__all__ = ["match_command"]

#: deals a match plays unless told
DEFAULT_DEALS = 2000


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


@click.command("match")
@click.argument("game")
@click.option("--policies", required=True, metavar="A,B[,...]",
              help="The policies that play, as --policy names them (random, heuristic, "
                   "pimc[samples=8], ipimc, net, an entry point, package.module:NAME).")
@click.option("--contract", "-c", metavar="C", help="Play only this deal (e.g. normal, mord).")
@click.option("--partie", is_flag=True, cls=FactOption, help="Play whole parties ({parties}).")
@click.option("--players", "-p", type=int, metavar="N",
              help="Number of seats (default: the game's usual).")
@click.option("--deals", "-n", type=HANDS, default=DEFAULT_DEALS, show_default=True,
              help="Seeded deals (parties with --partie), each played in every seating.")
@click.option("--seed", "-s", type=click.IntRange(min=0), metavar="S",
              help="The random seed (default: a fresh one, printed so the match can be "
                   "repeated).")
@click.option("--stock", type=click.IntRange(min=0), metavar="CENTS",
              help="herzla: cents in the stock before each hand (default 0).")
@option_flag
@click.option("--jobs", "-j", type=click.IntRange(min=1), metavar="J",
              help="Processes that play, this one included (default: all the cores this "
                   "process may use). The answer does not depend on it.")
@click.option("--cluster", metavar="ADDRESS",
              help="Play on the workers of the dask scheduler at ADDRESS (tcp://HOST:PORT; "
                   "the Clusters page of the docs): the same answer as a local run.")
@cluster_timeout_option
@click.option("--json", "as_json", is_flag=True,
              help="Answer in JSON (the Command line page of the docs).")
def match_command(game: str, policies: str, contract: str | None, partie: bool,
                  players: int | None, deals: int, seed: int | None, stock: int | None,
                  option_items: tuple[str, ...], jobs: int | None, cluster: str | None,
                  cluster_timeout: float, as_json: bool) -> None:
    """Duplicate match of policies in GAME: every seeded deal is played once in every seating
    of the policies (in seating r seat s plays policy (s + r) mod k), so every policy holds
    every hand; the luck of the cards cancels and what is left is play.

    \b
    Standings: each policy's mean score per hand it played, with --partie its mean partie total
    (cents in herzla, points elsewhere; in herzla-kids penalty points, lower is better) with a
    95% interval over the deals (parties); pairs: the mean per-deal (per-partie) difference of
    two policies with its 95% interval. Every number but elapsed_s is the same for any --jobs
    and on a cluster.

    \b
    Examples:
      herzla match herzla --policies heuristic,random --contract normal --deals 2000
      herzla match herzla --policies pimc,heuristic --contract normal --deals 200 --json
      herzla match herzeln --policies heuristic,random --partie --deals 1000
    """
    check_jobs(jobs, cluster, cluster_timeout)  # as simulate and solve check them
    if seed is None:
        seed = secrets.randbits(32)  # the answer names it, so the match can be repeated
    try:
        res = match(game, split_policies(policies), contract, partie=partie, deals=deals,
                    seed=seed, players=players, options=parse_options(option_items),
                    stock=stock, jobs=jobs, cluster=cluster, cluster_timeout=cluster_timeout)
    except (SimulationError, ClusterError, WorkerLost) as exc:
        fail(_one_line(exc))
    if as_json:
        click.echo(json.dumps(res.to_dict(), indent=1))
        return
    _print_table(res)


def _ci(ci: tuple[float, float] | None) -> str:
    return "(no interval from one deal)" if ci is None else f"[{ci[0]:+.2f}, {ci[1]:+.2f}]"


def seconds(elapsed: float) -> str:
    """A duration for people: ``12.3 s``, and below a second two significant digits
    (``0.045 s``), never ``0.0 s`` for work that took time."""
    return f"{elapsed:.1f} s" if elapsed >= 1 else f"{elapsed:.2g} s"


def _print_table(res: MatchResult) -> None:
    partie = res.mode == "partie"
    what = res.contract or ("whole parties" if partie else "with bidding")
    unit = res.unit + (", lower is better" if res.lowest_wins else "")
    deals, each = ("parties", "partie") if partie else ("deals", "deal")
    _say(f"{res.game} {what}: {res.deals:,} {deals} x {res.seatings} seatings, seed "
         f"{res.seed}, {seconds(res.elapsed)}")
    width = max(len(s.policy) for s in res.standings)
    mean = "mean partie total" if partie else "mean score per hand"
    _say(f"\nStandings ({mean}, {unit}; 95% CI):")
    held = "parties" if partie else "hands"
    for s in res.standings:
        _say(f"  {s.policy:<{width}}  {s.mean:+9.2f}  {_ci(s.ci95)}  {s.hands:,} {held}")
    _say(f"\nPairs (mean per-{each} difference a - b; 95% CI):")
    for p in res.pairs:
        _say(f"  {p.a} - {p.b}: {p.diff:+.2f}  {_ci(p.ci95)}")


def _say(text: str) -> None:
    click.echo(visible(text))  # a plug-in policy's name cannot reach the terminal raw
