"""Shared pieces of the command line: the one-line error, reading input, common options."""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import signal
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import IO, Any, NoReturn, TextIO, TypeVar

import click

from herzla.cli.complete import complete_option
from herzla.cli.speech import (
    add_lang_option,
    route_click,
    speaking_for,
    swap_help,
    without_lang,
)
from herzla.contracts import (
    Contract,
    PluginWarning,
    UnknownContract,
    contract_class,
    contract_classes,
    games,
    get_game,
)
from herzla.i18n import DEFAULT, N_, UnknownLanguage, _, current, language, ngettext
from herzla.limits import DEFAULT_TIMEOUT, LimitError, check_timeout
from herzla.names import did_you_mean, find_name
from herzla.options import OptionError, parse_option_assignments
from herzla.quote import quote, visible

__all__ = ["FactCommand", "FactOption", "HerzlaGroup", "NameChoice", "NamedGroup", "Terminated",
           "UserError", "check_stopped", "check_wait", "fail", "game_contract", "game_id",
           "help_facts", "note_jobs", "one_line", "several_records", "option_flag", "parse_options",
           "tally_flags"]

F = TypeVar("F", bound=Callable[..., Any])

#: the flag that gives each tally a hand may need (MissingTally.needs, EveningError.needs), as
#: ``herzla score`` and ``herzla pad add`` both spell it
TALLY_FLAGS = {"tricks": "--tricks", "hearts": "--hearts", "captured": "--captured",
               "made": "--made or --lost", "last_winner": "--last-trick",
               "last_trick": "--last-trick", "order": "--order", "aside": "--aside",
               "declarer": "--declarer SEAT"}


def tally_flags(needs: Iterable[str]) -> str:
    """``"--tricks or --hearts"``: the flags that give the tallies ``needs`` names."""
    return _(" or ").join(TALLY_FLAGS.get(n, n) for n in needs)


class UserError(click.ClickException):
    """Bad input: printed as one line on standard error, exit code 2."""

    exit_code = 2

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(error_line(self.format_message()), err=True)


def error_line(message: str) -> str:
    """``herzla: error: MESSAGE``, on one line, in the language of the moment."""
    return _("herzla: error: {message}").format(message=one_line(message))


def several_records(flag: str, record: str, where: str) -> str:
    """The error of a drawing asked of a file with several records, one a line."""
    return _("{flag} draws one hand record or one JSON list of records; {file} holds several "
             "records, one a line ({where} is the second)").format(
        flag=flag, file=record, where=where.rstrip(": "))


def one_line(message: str) -> str:
    """``message`` on one line, whatever a user wrote into it (a file name with a line break):
    each character that does not print is shown escaped, ``\\n``, ``\\u2028``."""
    if message.isprintable():
        return message
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in message)


def fail(message: str) -> NoReturn:
    raise UserError(message)


class NameChoice(click.Choice):  # type: ignore[type-arg]
    """One of a few names, read as every name herzla takes (:mod:`herzla.names`): in any
    case, and a typo answered with the names it may mean."""

    def __init__(self, choices: Sequence[str]) -> None:
        super().__init__(choices, case_sensitive=False)

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        names = [str(c) for c in self.choices]
        found = find_name(value, names)
        if found is None:
            hint = did_you_mean(value, names)
            self.fail(_("{value} is not one of {names}").format(
                value=quote(value), names=", ".join(names))
                + ("; " + hint.strip() if hint else ""), param, ctx)
        return found


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised where the program is, so that it cleans up as on Ctrl-C."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class _Stopped(Exception):
    """An interruption, carried past click (which would print a blank line for it)."""


class _PipeClosed(Exception):
    """Standard output's reader went away (``herzla replay big.jsonl | head -1``), carried past
    click (which would exit 1, the code of an illegal play)."""


#: the signals taken while a command runs; each raised an exception where the program was, but
#: code that swallows every exception (some of Python's C internals, during an import) can
#: lose it, so long-running commands call :func:`check_stopped` between steps to raise it again
_TAKEN: list[int] = []


def _stop(signum: int) -> KeyboardInterrupt:
    return KeyboardInterrupt() if signum == signal.SIGINT else Terminated(signum)


@contextmanager
def _signals_interrupt() -> Iterator[None]:
    """While the command runs, SIGTERM and SIGHUP interrupt it like Ctrl-C (SIGINT, unless it
    is ignored, as in a background job)."""
    def handler(signum: int, frame: FrameType | None) -> None:
        _TAKEN.append(signum)
        raise _stop(signum)

    _TAKEN.clear()
    old: dict[int, Any] = {}
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        if sig == signal.SIGINT and signal.getsignal(sig) is not signal.default_int_handler:
            continue
        with contextlib.suppress(ValueError, OSError):  # not the main thread
            old[sig] = signal.signal(sig, handler)
    try:
        yield
    finally:
        for number, was in old.items():
            signal.signal(number, was)


def check_stopped() -> None:
    """Raise again the interruption of a signal taken while the command runs, in case its first
    exception was lost (see :data:`_TAKEN`)."""
    if _TAKEN:
        raise _stop(_TAKEN[-1])


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush cannot fail."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass


def help_facts(text: str) -> str:
    """A help text with what the registered games declare written in: ``{games}`` (each game
    and a few words on it: ``herzeln (8 deals ending in the Domino)``), ``{parties}`` (each
    game with a partie and its length: ``herzeln: 8 deals``), ``{bidders}`` (each game with
    bidding and the contracts it chooses between: ``herzla: normal|beddl|mord``) and
    ``{stocked}`` (each game with a stock: ``herzla``)."""
    if "{" not in text:
        return text
    games_: list[str] = []
    parties: list[str] = []
    bidders: list[str] = []
    stocked: list[str] = []
    for game_id in games():
        g = get_game(game_id)
        try:
            short = g.short()
            partie = g.facts()["partie"] if g.partie else ""
        except (LookupError, TypeError, ValueError):  # a plug-in's game that cannot say it
            short, partie = "", ""
        games_.append(f"{g.id} ({short})" if short else g.id)
        if partie:
            parties.append(f"{g.id}: {partie}")
        if g.bidding:
            bidders.append(f"{g.id}: {'|'.join(g.bidding)}")
        if g.has_stock:
            stocked.append(g.id)
    facts = {"games": ", ".join(games_), "parties": ", ".join(parties),
             "bidders": ", ".join(bidders), "stocked": ", ".join(stocked)}
    for name, value in facts.items():
        text = text.replace("{" + name + "}", visible(value))
    return text


class FactOption(click.Option):
    """An option whose help names what the registered games declare (:func:`help_facts`),
    written in when the help is shown."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        template = self.help
        self.help = help_facts(template or "")
        try:
            return super().get_help_record(ctx)
        finally:
            self.help = template


class _FactHelp(click.Command):
    """Help text that names what the registered games declare (:func:`help_facts`)."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        template = self.help
        self.help = help_facts(template or "")
        try:
            super().format_help_text(ctx, formatter)
        finally:
            self.help = template


class FactCommand(_FactHelp):
    """A command whose help names what the registered games declare (:func:`help_facts`)."""


class NamedGroup(click.Group):
    """A click group whose commands are read as herzla reads every name (:mod:`herzla.names`):
    in any case (``Replay``), and one that names none is a usage error naming the commands it
    may mean; ``noun`` is what the message calls a command."""

    noun = N_("command")

    def command_name(self, ctx: click.Context, name: str) -> str:
        """The command ``name`` names, in any case (``name`` itself when it names none)."""
        return find_name(name, self.list_commands(ctx)) or name

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command ``cmd_name`` names, in any case."""
        return super().get_command(ctx, self.command_name(ctx, cmd_name))

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        """The command the first argument names (in any case); a usage error naming the
        commands it may mean when it names none."""
        name = args[0]
        command = self.get_command(ctx, name)
        if command is None and not ctx.resilient_parsing and not name.startswith("-"):
            known = self.list_commands(ctx)
            ctx.fail(_("no {noun} {name} ({hint}commands: {known})").format(
                noun=_(self.noun), name=quote(name), hint=did_you_mean(name, known),
                known=", ".join(known)))
        if command is None:
            return super().resolve_command(ctx, args)
        return command.name, command, args[1:]


class HerzlaGroup(_FactHelp, NamedGroup):
    """A click group whose errors are one line (``herzla: error: ...``) and exit 2.

    Ctrl-C, SIGTERM and SIGHUP stop the command (its clean-up runs) with one line and exit
    128 + the signal's number; an answer that cannot be written (a full disk) is one line and
    exit 2; a closed pipe ends the program quietly with exit 0 (its reader wanted no more).
    """

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})
        #: the help texts put into the language of a run, put back when it ends
        self._swapped: list[tuple[object, str, object]] = []

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*self.lazy, *(n for n in super().list_commands(ctx) if n not in self.lazy)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command ``cmd_name`` names, in any case (``Replay``)."""
        cmd_name = self.command_name(ctx, cmd_name)
        where = self.lazy.get(cmd_name)
        if where is None:
            return super().get_command(ctx, cmd_name)
        module, _sep, attr = where.partition(":")
        command: click.Command = getattr(importlib.import_module(module), attr)
        add_lang_option(command)
        if current() != DEFAULT:
            swap_help(command, self._swapped)
        return command

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:  # --help and --version print here
            return super().parse_args(ctx, args)
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                raise _PipeClosed() from exc
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            out = super().invoke(ctx)
            check_stopped()
            return out
        except KeyboardInterrupt as exc:
            raise _Stopped() from exc
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                raise _PipeClosed() from exc
            raise

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        if args is not None or not standalone_mode:  # called from Python: tests, scripts
            return self._main(args, prog_name, complete_var, standalone_mode, **extra)
        try:  # the command line of this process (the herzla command, python -m herzla)
            self._main(None, prog_name, complete_var, True, **extra)
        except SystemExit as exc:
            quick_exit(exc.code)
        quick_exit(0)

    def _main(self, args: Sequence[str] | None, prog_name: str | None,
              complete_var: str | None, standalone_mode: bool, **extra: Any) -> Any:
        """The command in the language its line asks for (``--lang``, else the environment's):
        help, errors and every text for people; put back to the language before after."""
        route_click()
        given = sys.argv[1:] if args is None else list(args)
        if given and not without_lang(given):  # `herzla --lang de`: the help, as bare `herzla`
            args = []
        try:
            code = speaking_for(given)
        except UnknownLanguage as exc:
            if not standalone_mode:
                raise UserError(str(exc)) from exc
            click.echo(error_line(str(exc)), err=True)
            sys.exit(2)
        add_lang_option(self)
        with language(code):
            try:
                swap_help(self, self._swapped)
                return self._run(args, prog_name, complete_var, standalone_mode, **extra)
            finally:
                for obj, attr, old in reversed(self._swapped):
                    setattr(obj, attr, old)
                self._swapped.clear()

    def _run(self, args: Sequence[str] | None, prog_name: str | None,
             complete_var: str | None, standalone_mode: bool, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            with _signals_interrupt(), _plugin_warnings(complete_var):
                try:
                    return super().main(args, prog_name, complete_var, False, **extra)
                finally:
                    sys.stdout.flush()
        except _Stopped as exc:
            cause = exc.__cause__
            if isinstance(cause, Terminated):
                name = signal.Signals(cause.signum).name
                click.echo(_("herzla: stopped by {signal}").format(signal=name), err=True)
                sys.exit(128 + cause.signum)
            click.echo(_("herzla: interrupted"), err=True)
            sys.exit(130)
        except _PipeClosed:  # the reader has all it wanted: success, as for Unix tools
            _silence_stdout()
            sys.exit(0)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.Abort as exc:
            if isinstance(exc.__cause__, KeyboardInterrupt):
                click.echo(_("herzla: interrupted"), err=True)
                sys.exit(130)
            click.echo(_("herzla: aborted"), err=True)
            sys.exit(1)
        except click.UsageError as exc:
            no_args = getattr(click.exceptions, "NoArgsIsHelpError", None)
            if no_args is not None and isinstance(exc, no_args) and exc.ctx is not None:
                click.echo(exc.ctx.get_help())  # bare `herzla`: the help, as --help gives it
                sys.exit(0)
            hint = ""
            if exc.ctx is not None:
                hint = _(" (see '{command} --help')").format(command=exc.ctx.command_path)
            click.echo(error_line(exc.format_message()) + hint, err=True)
            sys.exit(2)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except OSError as exc:  # writing the answer failed
            _silence_stdout()
            if exc.errno == errno.EPIPE:
                sys.exit(0)
            click.echo(error_line(_("cannot write the answer: {why}").format(
                why=exc.strerror or exc)), err=True)
            sys.exit(2)


@contextmanager
def _plugin_warnings(complete_var: str | None) -> Iterator[None]:
    """A plug-in the registry skips (:class:`herzla.contracts.PluginWarning`) is one line on
    standard error, ``herzla: warning: ...``; nothing while the shell asks for completions."""
    completing = bool(os.environ.get(complete_var or "_HERZLA_COMPLETE"))
    with warnings.catch_warnings():
        shown = warnings.showwarning

        def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                 file: TextIO | None = None, line: str | None = None) -> None:
            if not issubclass(category, PluginWarning):
                shown(message, category, filename, lineno, file, line)
            elif not completing:
                click.echo(_("herzla: warning: {message}").format(
                    message=one_line(str(message))), err=True)

        warnings.showwarning = show
        yield


def quick_exit(code: object) -> NoReturn:
    """End this process as ``sys.exit(code)`` would, without the interpreter's tear-down.

    After the command has answered, Python's own exit frees every object one by one and
    collects the garbage (tens of milliseconds after a search, a tenth of a short command's
    time), which the system does at once when the process ends.  So standard output and error
    are flushed, the exit functions (:mod:`atexit`) run, and the process ends with the code.
    Where that could lose anything (another thread still running, a code that is not a number,
    an answer that cannot be flushed), ``sys.exit(code)`` as usual.
    """
    code = 0 if code is None else code
    threads = sys.modules.get("threading")
    if not isinstance(code, int) or (threads is not None and threads.active_count() > 1):
        raise SystemExit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # Python reports it as it always does
        raise SystemExit(code) from None
    import atexit

    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # an exit function wrote what cannot be written
        os._exit(120)
    os._exit(code & 0xFF)


def cluster_timeout_option(f: F) -> F:
    """The ``--cluster-timeout SECONDS`` option of every command that runs on a cluster."""
    return click.option(
        "--cluster-timeout", type=click.FloatRange(min=0, min_open=True),
        default=DEFAULT_TIMEOUT, show_default=True, metavar="SECONDS",
        help=N_("How long to wait for the scheduler and a worker, or for a lost one to come back, "
             "before giving up."))(f)


def option_flag(f: F) -> F:
    """The repeatable ``--option NAME=VALUE`` flag."""
    return click.option(
        "--option", "-o", "option_items", multiple=True, metavar="NAME=VALUE",
        shell_complete=complete_option,
        help=N_("A rule option by its name (repeatable; 'herzla rules GAME' lists them), e.g. "
             "-o stock_payout=never."),
    )(f)


def parse_options(items: Sequence[str]) -> dict[str, str]:
    try:
        return parse_option_assignments(items)
    except OptionError as exc:
        fail(str(exc))


def game_id(game: str) -> str:
    """The id of the game ``game`` names (in any case); a usage error names the games it may
    mean."""
    try:
        return get_game(game).id
    except UnknownContract as exc:
        fail(str(exc))


def game_contract(game: str, contract_id: str | None) -> type[Contract]:
    """The contract class of ``game`` named ``contract_id`` (None: the game's first)."""
    try:
        if contract_id is None:
            return contract_classes(game)[0]
        return contract_class(game, contract_id)
    except UnknownContract as exc:
        fail(str(exc))


def note_jobs(jobs: int | None, on: int | None = None) -> None:
    """A note on standard error when ``--jobs`` asks for more processes than the cores this
    process may use: the run plays on those (:func:`herzla.support.procs.usable_jobs`), or on
    ``on`` processes when the run knows it needs fewer (its summary names the same number)."""
    from herzla.support.procs import usable_jobs

    cores = usable_jobs(None)
    if jobs is not None and jobs > cores:
        playing = cores if on is None else on
        why = "" if playing == cores else ngettext(
            " (the run is {n} task long)", " (the run is {n} tasks long)", playing).format(
                n=playing)
        click.echo(ngettext(
            "herzla: note: --jobs {jobs} is more than the {cores} core this process may use; "
            "playing on {playing}{why}",
            "herzla: note: --jobs {jobs} is more than the {cores} cores this process may use; "
            "playing on {playing}{why}", cores).format(jobs=jobs, cores=cores, playing=playing,
                                                       why=why), err=True)


def check_wait(seconds: float, flag: str = "--cluster-timeout") -> None:
    """A usage error for a wait beyond :data:`herzla.limits.MAX_TIMEOUT` (or infinite, NaN)."""
    try:
        check_timeout(seconds, flag)
    except LimitError as exc:
        fail(str(exc))
