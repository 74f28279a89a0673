"""The language the command line speaks: ``--lang de|en`` on every command, else the
environment as gettext reads it; the commands' help and click's own words (``Usage:``,
``Options:``, ``Error: ...``) in that language, from herzla's catalog.

The choice is read from the arguments before click parses them, so that the help, a usage
error and every text of the command come in one language; the ``--lang`` option each command
lists (:func:`add_lang_option`) only shows it in the help.  Exit codes, JSON, card codes and
files never change with the language.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Sequence
from typing import Any

import click

from herzla.i18n import (
    DEFAULT,
    N_,
    UnknownLanguage,
    _,
    current,
    language_from_env,
    ngettext,
    read_language,
)

__all__ = ["CLICK_PLURALS", "CLICK_TEXTS", "add_lang_option", "lang_in_args", "route_click",
           "speaking_for", "swap_help", "without_lang"]

#: the flag, as a person types it
FLAG = "--lang"
LANG_HELP = N_("The language of the text for people: de or en (default: the environment's, "
               "LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else English).")

#: click's own words that a person reads (click looks them up in herzla's catalog: route_click)
CLICK_TEXTS = (
    N_("Usage:"), N_("Options"), N_("Commands"), N_("Show this message and exit."),
    N_("Show the version and exit."), N_("%(prog)s, version %(version)s"),
    N_("Error: {message}"), N_("Try '{command} {option}' for help."),
    N_("Invalid value: {message}"), N_("Invalid value for {param_hint}: {message}"),
    N_("Missing argument"), N_("Missing option"), N_("Missing parameter"),
    N_("Missing {param_type}"), N_("Missing parameter: {param_name}"),
    N_("No such option {name!r}."), N_("No such command {name!r}."), N_("Missing command."),
    N_("Aborted!"), N_("default: {default}"), N_("required"), N_("(dynamic)"), N_("env var: {var}"),
    N_("deprecated"), N_("Option {name!r} does not take a value."),
    N_("Argument {name!r} takes {nargs} values."), N_("Choose from:\n\t{choices}"),
    N_("{value!r} is not a valid {number_type}."), N_("{value} is not in the range {range}."),
    N_("{value!r} is not a valid boolean. Recognized values: {states}"),
    N_("file"), N_("directory"), N_("path"), N_("{name} {filename!r} does not exist."),
    N_("{name} {filename!r} is a file."), N_("{name} {filename!r} is a directory."),
    N_("{name} {filename!r} is not readable."), N_("{name} {filename!r} is not writable."),
    N_("Could not open file {filename!r}: {message}"), N_("unknown error"),
)

#: click's words that have a plural, each as a function of the count
CLICK_PLURALS: tuple[Callable[[int], str], ...] = (
    lambda n: ngettext("Got unexpected extra argument ({args})",
                       "Got unexpected extra arguments ({args})", n),
    lambda n: ngettext("Did you mean {possibility}?",
                       "(Did you mean one of: {possibilities}?)", n),
    lambda n: ngettext("Option {name!r} requires an argument.",
                       "Option {name!r} requires {nargs} arguments.", n),
    lambda n: ngettext("{value!r} is not {choice}.", "{value!r} is not one of {choices}.", n),
    lambda n: ngettext("{value!r} does not match the format {format}.",
                       "{value!r} does not match the formats {formats}.", n),
)

_CLICK_MODULES = ("core", "decorators", "exceptions", "formatting", "parser", "types",
                  "termui", "utils", "shell_completion")


def route_click() -> None:
    """Let click look its words up in herzla's catalog, in the language of the moment (click
    calls gettext in the default domain, where no catalog of its own is installed)."""
    for name in _CLICK_MODULES:
        module = importlib.import_module(f"click.{name}")
        if hasattr(module, "_"):
            setattr(module, "_", _)  # noqa: B010 (click's module, not ours)
        if hasattr(module, "ngettext"):
            setattr(module, "ngettext", ngettext)  # noqa: B010


def lang_in_args(args: Sequence[str]) -> str | None:
    """The value given to ``--lang`` in ``args`` (the last one; before a ``--``), or None."""
    found = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == FLAG and i + 1 < len(args):
            found = args[i + 1]
        elif arg.startswith(FLAG + "="):
            found = arg[len(FLAG) + 1:]
    return found


def without_lang(args: Sequence[str]) -> list[str]:
    """``args`` without the ``--lang`` flags (before a ``--``)."""
    out: list[str] = []
    skip = False
    for i, arg in enumerate(args):
        if arg == "--" or "--" in args[:i]:
            out.append(arg)
        elif skip:
            skip = False
        elif arg == FLAG and i + 1 < len(args):
            skip = True
        elif not arg.startswith(FLAG + "="):
            out.append(arg)
    return out


def speaking_for(args: Sequence[str]) -> str:
    """The language a command line asks for: ``--lang``, else the environment's.
    UnknownLanguage for a ``--lang`` herzla has no catalog for."""
    given = lang_in_args(args)
    if given is None:
        return language_from_env()
    return read_language(given)


def add_lang_option(command: click.Command) -> None:
    """Give ``command`` (and each command of a group) the ``--lang`` option, once."""
    if not any(p.name == "lang" for p in command.params):
        command.params.append(click.Option([FLAG, "lang"], metavar="de|en", expose_value=False,
                                           help=LANG_HELP, callback=_check_lang))
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            add_lang_option(sub)


def _check_lang(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    if value is not None:
        try:
            read_language(value)
        except UnknownLanguage as exc:
            raise click.BadParameter(str(exc)) from exc


_HELPS = ("help", "short_help", "epilog")
#: the names in usage lines and beside options (click's ``[OPTIONS]``, ``INTEGER``; herzla's
#: ``GAME``, ``SEAT``): each capitalised word is looked up here
_NAMED = re.compile(r"[A-Z][A-Z_]*[A-Z]")


#: the capitalised words of usage lines and metavars, as click and herzla write them
METAVAR_WORDS = (
    N_("OPTIONS"), N_("COMMAND"), N_("ARGS"), N_("INTEGER"), N_("FLOAT"), N_("TEXT"), N_("GAME"),
    N_("CONTRACT"), N_("CARDS"), N_("SEAT"), N_("NAME"), N_("VALUE"), N_("RECORD"), N_("REC"),
    N_("FILE"), N_("TOPIC"), N_("PICTURE"), N_("PAGE"), N_("ADDRESS"), N_("SECONDS"),
    N_("CENTS"), N_("POLICY"), N_("CHOICE"), N_("TOKEN"), N_("URL"), N_("BOOLEAN"),
)


def metavar_words() -> dict[str, str]:
    """The capitalised words of usage lines and metavars, in the current language."""
    return {word: _(word) for word in METAVAR_WORDS}


def _named(text: str, words: dict[str, str]) -> str:
    """``text`` (a metavar, ``[OPTIONS]``) with its capitalised words in the current
    language."""
    return _NAMED.sub(lambda m: words.get(m.group(), m.group()), text)


def _swap_metavars(command: click.Command, swapped: list[tuple[object, str, object]]) -> None:
    """The usage line's and the options' names (metavars) of ``command`` in the current
    language, each swapped one recorded in ``swapped``."""
    words = metavar_words()
    ctx = click.Context(command)
    for obj, attr in ((command, "options_metavar"), (command, "subcommand_metavar")):
        old = getattr(obj, attr, None)
        if isinstance(old, str) and _named(old, words) != old:
            swapped.append((obj, attr, old))
            setattr(obj, attr, _named(old, words))
    for param in command.params:
        if isinstance(param, click.Option) and (param.is_flag or param.count):
            continue
        shown = param.make_metavar(ctx)
        if _named(shown, words) != shown:
            swapped.append((param, "metavar", param.metavar))
            param.metavar = _named(shown, words)


def swap_help(command: click.Command, swapped: list[tuple[object, str, object]]) -> None:
    """Put the help of ``command`` (and of its subcommands, options and arguments) into the
    current language, each text replaced recorded in ``swapped`` (to put back)."""
    if current() != DEFAULT:
        _swap(command, swapped, set())


def _swap(command: click.Command, swapped: list[tuple[object, str, object]],
          seen: set[int]) -> None:
    if id(command) in seen:
        return
    seen.add(id(command))
    cached = getattr(command, "_help_option", None)  # click makes it once, in one language
    if cached is None:
        swapped.append((command, "_help_option", None))  # made anew in this language
    items: list[object] = [command, *command.params, *([cached] if cached is not None else [])]
    for obj in items:
        for attr in _HELPS:
            old = getattr(obj, attr, None)
            if isinstance(old, str) and old:
                new = _(old)
                if new != old:
                    swapped.append((obj, attr, old))
                    setattr(obj, attr, new)
    _swap_metavars(command, swapped)
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            _swap(sub, swapped, seen)
