"""``herzla simulate`` (placeholder, being written)."""

from __future__ import annotations

import click


@click.command("simulate")
@click.argument("game")
def simulate(game: str) -> None:
    """Monte Carlo simulation of GAME."""
    raise click.ClickException("simulate: not written yet")
