"""The ``herzla`` command line: one module per command, each parsing its arguments, calling the
library and rendering the answer (docs/cli.md).

Exit codes: 0 success; 1 ``replay`` (or ``solve``) found an illegal play; 2 usage or input error,
reported as one line on standard error.
"""

from __future__ import annotations

import click

from herzla import __version__
from herzla.cli.advise import advise_command
from herzla.cli.common import HerzlaGroup
from herzla.cli.deal import deal
from herzla.cli.replay import replay_command
from herzla.cli.rules import rules_command
from herzla.cli.score import score
from herzla.cli.simulate import simulate
from herzla.cli.solve import solve_command

__all__ = ["main"]


@click.group(cls=HerzlaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="herzla")
def main() -> None:
    """Rules, simulator and scoring-disputes lookup for Herzla, Herzeln and Herzerln.

    \b
    Games: herzla (Normal, Beddl, Mord), herzla-kids (3-8 players), herzeln (8 deals ending in
    the domino), herzerln (6 rounds ending in Auflegen), and any game a plug-in adds.
    """


for _command in (replay_command, deal, score, rules_command, simulate, solve_command,
                 advise_command):
    main.add_command(_command)
