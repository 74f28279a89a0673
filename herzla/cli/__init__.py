"""The ``herzla`` command line: one module per command, each parsing its arguments, calling the
library and rendering the answer (the Command line page of the docs).

Exit codes: 0 success; 1 ``replay`` (or ``solve``) found an illegal play; 2 usage or input error,
reported as one line on standard error.
"""

from __future__ import annotations

import os

# numpy's OpenBLAS starts a pool of threads when numpy is imported (about a third of numpy's
# import on 2 cores: benchmarks/bench_startup.py), which herzla never uses: its matrix products
# are cut into blocks BLAS runs on one thread (herzla.players.netmodel), and its parallel work
# runs in processes.  A command starts none (the user's own setting stands).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import click

from herzla import __version__
from herzla.cli.common import HerzlaGroup
from herzla.i18n import N_

__all__ = ["main"]


#: each command and where it lives; a command's module is imported only when it is used
COMMANDS = {
    "replay": "herzla.cli.replay:replay_command",
    "deal": "herzla.cli.deal:deal",
    "score": "herzla.cli.score:score",
    "rules": "herzla.cli.rules:rules_command",
    "simulate": "herzla.cli.simulate:simulate",
    "solve": "herzla.cli.solve:solve_command",
    "advise": "herzla.cli.advise:advise_command",
    "match": "herzla.cli.match:match_command",
    "review": "herzla.cli.review:review_command",
    "show": "herzla.cli.show:show_command",
    "pad": "herzla.cli.pad:pad",
    "example": "herzla.cli.example:example_command",
    "serve": "herzla.cli.serve:serve_command",
}


@click.group(cls=HerzlaGroup, lazy=COMMANDS,
             context_settings={"help_option_names": ["-h", "--help"]}, help=N_(
    """Rules, simulator and scoring-disputes lookup for Herzla, Herzeln and Herzerln.

    Games: {games}, and any game a plug-in adds.  To try a command on a hand, 'herzla example'
    lists the hand records that come with herzla ('herzla example herzla-two-void | herzla
    show -').
    """))
@click.version_option(__version__, prog_name="herzla")
def main() -> None:
    """The command group (its help is the group's ``help``)."""

