"""The files the drawing commands write, by registry: each format is one module of this package
(:mod:`.svg`, :mod:`.html`) declaring an :class:`~.base.OutputFormat`, listed once in
:data:`FORMATS`.

Every format listed is an option of the three commands that draw: ``herzla show --NAME FILE``
(a hand, or a list's score sheet), ``herzla replay --NAME FILE`` (the same drawing beside the
answer) and ``herzla pad show --NAME FILE`` (an evening); :func:`format_options` adds the
options, :func:`chosen` checks the files before any work and :func:`write_output` writes one.
A new format is a new module here and its line in :data:`FORMATS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import attrs
import click

from herzla.cli.common import fail
from herzla.cli.formats import html, svg
from herzla.cli.formats.base import EVENING, RECORDS, REPLAY, OutputFormat
from herzla.cli.output import Output, check_output, keep_apart, on_stdout, open_output

__all__ = ["FORMATS", "RECORDS", "REPLAY", "EVENING", "OutputFormat", "Target", "chosen",
           "format_options", "write_output"]

F = TypeVar("F", bound=Callable[..., Any])

#: the formats, in the order their options are listed and their files written
FORMATS: tuple[OutputFormat, ...] = (svg.FORMAT, html.FORMAT)


@attrs.frozen(slots=True)
class Target:
    """A format asked for and the file it writes (checked)."""

    format: OutputFormat
    output: Output


def format_options(subject: str) -> Callable[[F], F]:
    """One ``--NAME FILE`` option per registered format, for a command drawing ``subject``."""
    def decorate(f: F) -> F:
        for fmt in reversed(FORMATS):  # click lists the options in the order applied last
            metavar = fmt.evening_metavar if subject == EVENING else "FILE"
            f = click.option(fmt.flag, fmt.dest, metavar=metavar, help=fmt.help(subject))(f)
        return f
    return decorate


def chosen(values: Mapping[str, Any], *others: tuple[str, Output | None],
           reads: Sequence[tuple[str, str]] = ()) -> tuple[list[Target], bool]:
    """The formats asked for among a command's parameters ``values`` (their files checked, in
    the registry's order, none of them one of the files the command ``reads`` nor another's:
    :func:`~herzla.cli.output.keep_apart`), and whether one of them (or of ``others``, each a
    flag and its file) is standard output, whose answer and messages then go to standard
    error."""
    targets = [Target(fmt, check_output(values[fmt.dest], fmt.flag)) for fmt in FORMATS
               if values.get(fmt.dest) is not None]
    keep_apart(reads, [*((t.format.flag, t.output) for t in targets), *others])
    to_err = on_stdout(*others, *((t.format.flag, t.output) for t in targets))
    return targets, to_err


def write_output(target: Target, text: str, name: str | None = None) -> None:
    """Write one file (atomically: :func:`herzla.cli.output.open_output`); an error names it
    ``name`` (default: as :class:`~herzla.cli.output.Output` shows it)."""
    try:
        with open_output(target.output) as fh:
            fh.write(text)
    except OSError as exc:
        fail(f"cannot write {target.output if name is None else name}: {exc.strerror or exc}")
