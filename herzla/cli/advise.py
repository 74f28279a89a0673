"""``herzla advise herzla --hand CARDS``: what Normal, Beddl and Mord are worth to a hand of eight
Herzla cards, under strong play (``net`` at every seat, ``--model`` another), with double dummy and
the heuristic player beside it as bounds (the Analysis page of the docs)."""

from __future__ import annotations

import json
import sys

import click

from herzla.analysis.advice_words import cents_text
from herzla.analysis.advise import (
    DEFAULT_EXACT,
    DEFAULT_MODEL,
    DEFAULT_SAMPLES,
    MAX_SAMPLES,
    AdviceError,
    AdviceResult,
    advise,
)
from herzla.cli.common import (
    FactCommand,
    FactOption,
    check_wait,
    cluster_timeout_option,
    fail,
    game_id,
    note_jobs,
    option_flag,
    parse_options,
)
from herzla.cli.complete import complete_choice, complete_game
from herzla.cli.output import Progress
from herzla.contracts import get_game
from herzla.i18n import N_, _
from herzla.names import did_you_mean, find_name
from herzla.quote import quote, visible
from herzla.support.cluster import ClusterError, quiet_logs
from herzla.support.procs import WorkerLost

__all__ = ["advise_command"]

@click.command("advise", cls=FactCommand, help=N_(
    """What each choice of the game's bidding (the seat declaring) is worth to a hand.

    The choices: {bidders}.  Samples K deals of the unseen cards among the other seats and
    plays every choice on each three ways: with a strong player at every seat (--model, net by
    default), double dummy (every hand open, perfect play; in the normal game the other seats
    play against the seat; on the first --exact-samples deals) and with the heuristic player at
    every seat.  Reports the share of Beddl and Mord made and the mean cents, each with a 95%
    interval, and recommends the choice with the highest mean under strong play, saying why;
    double dummy and the heuristic are the bounds around it.

    \b
    Example:
      herzla advise herzla --hand "CJ CT C9 S9 S8 HT D9 D8" --samples 500
    """))
@click.argument("game", metavar="GAME", shell_complete=complete_game)
@click.option("--hand", required=True, metavar="CARDS",
              help=N_('The hand\'s cards, e.g. "CJ CT C9 S9 S8 HT D9 D8".'))
@click.option("--seat", default="0", show_default=True, metavar="S",
              help=N_("The seat holding the hand (the declarer of Beddl and Mord); 'all': the "
                      "hand weighed in each seat in turn."))
@click.option("--dealer", type=int, metavar="D",
              help=N_("The dealer's seat (default: the last seat; forehand, the seat after it, "
                   "leads)."))
@click.option("--stock", type=click.IntRange(min=0), default=0, show_default=True,
              metavar="CENTS", help=N_("Cents in the stock before the hand."))
@click.option("--samples", type=click.IntRange(min=1, max=MAX_SAMPLES), default=DEFAULT_SAMPLES,
              show_default=True, metavar="K", help=N_("Deals of the unseen cards to sample."))
@click.option("--model", default=DEFAULT_MODEL, show_default=True, metavar="POLICY",
              help=N_("The strong player at every seat the advice rests on: net (the learned "
                   "model, on the batch engine), net[weights=FILE], or expert (the search "
                   "player: stronger, about a second a deal)."))
@click.option("--exact-samples", "exact", type=click.IntRange(min=0, max=MAX_SAMPLES),
              default=DEFAULT_EXACT, show_default=True, metavar="K",
              help=N_("Of the sampled deals, the first K are also searched double dummy (an exact "
                   "search each: the normal game's is slow without the fast extra)."))
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True, metavar="N",
              help=N_("The random seed; the same seed gives the same answer for any --jobs."))
@click.option("--jobs", "-j", type=click.IntRange(min=1), metavar="J",
              help=N_("Worker processes (default: all cores). The answer does not depend on it."))
@click.option("--cluster", metavar="ADDRESS",
              help=N_("Play the samples on the workers of the dask scheduler at ADDRESS "
                   "(tcp://HOST:PORT; needs pip install 'herzla[dask]'; the Clusters page of the "
                   "docs): the "
                   "same answer as on this machine."))
@cluster_timeout_option
@click.option("--only", "only", multiple=True, metavar="CHOICE", shell_complete=complete_choice,
              cls=FactOption,
              help=N_("Weigh only this choice (repeatable; default: every contract of the game's "
                   "bidding: {bidders})."))
@option_flag
@click.option("--json", "as_json", is_flag=True,
              help=N_("Answer in JSON (the Analysis page of the docs)."))
@click.option("--no-progress", is_flag=True,
              help=N_("No progress line (shown on standard error when it is a terminal)."))
def advise_command(game: str, hand: str, seat: str, dealer: int, stock: int, samples: int,
                   model: str, exact: int, seed: int, jobs: int | None, cluster: str | None,
                   cluster_timeout: float, only: tuple[str, ...],
                   option_items: tuple[str, ...], as_json: bool, no_progress: bool) -> None:
    options = parse_options(option_items)
    game = game_id(game)
    seats = _seats(seat, game)
    if only:  # read as every name is: in any case, a typo answered with what it may mean
        bidding = get_game(game).bidding
        only = tuple(find_name(c, bidding) or c for c in only)
        for c in only:
            if c not in bidding:
                fail(f"--only {quote(c)}: the choices are {', '.join(bidding) or 'none'} "
                     f"({did_you_mean(c, bidding)}'herzla rules {game}' lists them)")
    if cluster is not None and jobs is not None:
        fail("--jobs and --cluster exclude each other: with --cluster the cluster's workers "
             "play")
    check_wait(cluster_timeout)
    if cluster is not None:
        quiet_logs()
    note_jobs(jobs)
    results = []
    for s in seats:
        progress = None
        if not no_progress and samples >= 32 and sys.stderr.isatty():
            progress = Progress(samples, "sampled deals", verb="advising")
        try:
            results.append(advise(hand, seat=s, dealer=dealer, stock=stock, samples=samples,
                                  seed=seed, jobs=jobs, progress=progress, options=options,
                                  choices=only or None, cluster=cluster,
                                  cluster_timeout=cluster_timeout, game=game, model=model,
                                  exact=exact))
        except (AdviceError, ClusterError, WorkerLost) as exc:
            fail(" ".join(str(exc).split()))
        finally:
            if progress is not None:
                progress.close()
    if as_json:
        answer = (results[0].to_dict() if len(results) == 1 else
                  {"seats": [r.to_dict() for r in results]})
        click.echo(json.dumps(answer, indent=1))
        return
    for i, res in enumerate(results):
        if i:
            click.echo("")
        _print(res)
    if len(results) > 1:
        click.echo("")
        for res in results:
            click.echo(visible(_("seat {seat}: {choice} ({mean} cents under strong play)").format(
                seat=res.plan.seat, choice=res.recommendation,
                mean=cents_text(res.choices[res.recommendation]["strong"].mean))))


def _seats(text: str, game: str) -> list[int]:
    """The seats ``--seat`` names: one number, or every seat of the game's bidding table."""
    from herzla.contracts import contract_class

    bidding = get_game(game).bidding
    players = contract_class(game, bidding[0]).player_counts[0] if bidding else 4
    if text.strip().lower() in ("all", "alle"):
        return list(range(players))
    try:
        return [int(text)]
    except ValueError:
        fail(_("--seat {text}: a seat is a number (0 to {last}) or 'all'").format(
            text=quote(text), last=players - 1))


def _print(res: AdviceResult) -> None:
    click.echo(visible(res.report()))
