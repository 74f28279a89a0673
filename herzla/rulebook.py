"""The rule book as data: ``herzla rules [GAME] [TOPIC]`` (placeholder, being written)."""

from __future__ import annotations

import click


@click.command("rules")
@click.argument("game", required=False)
@click.argument("topic", required=False)
def rules_command(game: str | None, topic: str | None) -> None:
    """The rule text, with its source and the option that changes it."""
    raise click.ClickException("rules: not written yet")
