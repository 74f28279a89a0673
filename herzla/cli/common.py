"""Shared pieces of the command line: the one-line error, reading input, common options."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any, NoReturn, TypeVar

import click

from herzla.contracts import Contract, UnknownContract, contract_class, contract_classes
from herzla.options import OptionError, parse_option_assignments

__all__ = ["HerzlaGroup", "UserError", "fail", "game_contract", "option_flag", "parse_options",
           "read_input"]

F = TypeVar("F", bound=Callable[..., Any])


class UserError(click.ClickException):
    """Bad input: printed as one line on standard error, exit code 2."""

    exit_code = 2

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"herzla: error: {self.format_message()}", err=True)


def fail(message: str) -> NoReturn:
    raise UserError(message)


class HerzlaGroup(click.Group):
    """A click group whose usage errors are one line (``herzla: error: ...``) and exit 2."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            return super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.Abort as exc:
            if isinstance(exc.__cause__, KeyboardInterrupt):
                click.echo("herzla: interrupted", err=True)
                sys.exit(130)
            click.echo("herzla: aborted", err=True)
            sys.exit(1)
        except click.UsageError as exc:
            no_args = getattr(click.exceptions, "NoArgsIsHelpError", None)
            if no_args is not None and isinstance(exc, no_args) and exc.ctx is not None:
                click.echo(exc.ctx.get_help())  # bare `herzla`: the help, as --help gives it
                sys.exit(0)
            hint = ""
            if exc.ctx is not None:
                hint = f" (see '{exc.ctx.command_path} --help')"
            click.echo(f"herzla: error: {exc.format_message()}{hint}", err=True)
            sys.exit(2)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)


def read_input(path: str) -> str:
    """The text of a file, or of standard input for ``-``; a missing file is a UserError."""
    if path == "-":
        return sys.stdin.read()
    p = Path(path)
    if not p.exists():
        fail(f"no such file: {path}")
    if p.is_dir():
        fail(f"{path} is a folder, not a file")
    try:
        return p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"cannot read {path}: {exc}")


def option_flag(f: F) -> F:
    """The repeatable ``--option NAME=VALUE`` flag."""
    return click.option(
        "--option", "-o", "option_items", multiple=True, metavar="NAME=VALUE",
        help="A rule option by its name (repeatable; 'herzla rules GAME' lists them), e.g. "
             "-o stock_payout=never.",
    )(f)


def parse_options(items: Sequence[str]) -> dict[str, str]:
    try:
        return parse_option_assignments(items)
    except OptionError as exc:
        fail(str(exc))


def game_contract(game: str, contract_id: str | None) -> type[Contract]:
    """The contract class of ``game`` named ``contract_id`` (None: the game's first)."""
    try:
        if contract_id is None:
            return contract_classes(game)[0]
        return contract_class(game, contract_id)
    except UnknownContract as exc:
        fail(str(exc))
