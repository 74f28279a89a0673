"""The checks a contract class and its declaration pass before herzla plays them.

A plug-in is checked when the registry takes it in (:func:`check_contract_class`,
:func:`check_game`): its metadata (``game``, ``id``, ``player_counts``, ``options``), a contract
of it for each number of players with the default options (built inside a guard, so a
``declare()`` that raises is a :class:`PluginError`, not a traceback in every command), and its
declaration against the limits (:mod:`herzla.limits`): every declared amount within
``±MAX_AMOUNT``, what one hand can move at worst within ``MAX_HAND_AMOUNT``, both for the default
options and with the whole-number options at the ends of their ranges.  The registry skips a
class that fails, with one :class:`PluginWarning` line naming it and why.

Every contract checks its own declaration when it is made
(:func:`herzla.contracts.bounds.declaration_problem`).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from herzla.contracts.base import LayoutContract, TrickContract
from herzla.contracts.bounds import DeclarationError, _whole, one_line
from herzla.limits import MAX_PARTIE_AMOUNT, MAX_SEATS
from herzla.options import Option, OptionError

if TYPE_CHECKING:
    from herzla.contracts.base import Contract
    from herzla.contracts.game import Game

__all__ = ["DeclarationError", "PluginError", "PluginWarning", "check_contract_class",
           "check_game", "named", "skip"]

class PluginError(ValueError):
    """A contract class or game herzla cannot use, in one line naming it (``what``) and saying
    why (``why``)."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what}: {why}")
        self.what = what
        self.why = why

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.what, self.why)


class PluginWarning(UserWarning):
    """A plug-in the registry skips (the command line shows it as one ``herzla: warning:``
    line)."""


def skip(what: str, why: str) -> None:
    """Warn, in one line, that the registry skips ``what`` because of ``why``."""
    warnings.warn(f"{what} is skipped: {why}", PluginWarning, stacklevel=3)


# -- a class, on registration --------------------------------------------------------------
def named(cls: type[Contract]) -> str:
    """A contract class as a registry message names it."""
    game, cid = getattr(cls, "game", None), getattr(cls, "id", None)
    key = f"{game}/{cid}" if isinstance(game, str) and isinstance(cid, str) and game and cid \
        else cls.__qualname__
    return f"the contract {key} ({cls.__module__}.{cls.__qualname__})"


def _one_line(exc: BaseException) -> str:
    text = one_line(exc, "...")
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _metadata_problem(cls: type[Contract]) -> str | None:
    for what in ("game", "id"):
        value = getattr(cls, what, None)
        if not isinstance(value, str) or not value:
            return f"the class attribute {what} must be set (text)"
        if not value.isprintable() or any(c.isspace() or c == "/" for c in value):
            return f"the {what} {value!r:.40} holds a space, a slash or a control character"
    if not issubclass(cls, TrickContract | LayoutContract):
        return "a contract class subclasses TrickContract or LayoutContract"
    counts = cls.player_counts
    if not isinstance(counts, tuple) or not counts or not all(_whole(n) for n in counts):
        return f"player_counts must be a tuple of whole numbers, not {counts!r:.40}"
    if len(set(counts)) != len(counts):
        return f"player_counts names a number twice: {counts!r:.40}"
    for n in counts:
        if not 2 <= n <= MAX_SEATS:
            return f"player_counts holds {n}: a table has 2 to {MAX_SEATS} seats"
    options = cls.options
    if not isinstance(options, tuple) or not all(isinstance(o, Option) for o in options):
        return "options must be a tuple of herzla.options.Option"
    names = [o.name for o in options]
    if len(set(names)) != len(names):
        return "options names an option twice"
    for o in options:
        if not isinstance(o.default, bool | int | str):
            return f"the option {o.name} has a default of {type(o.default).__name__}"
        try:
            if o.parse(o.default) != o.default:
                return f"the option {o.name}'s default does not read as itself"
        except OptionError as exc:
            return f"its default is refused: {exc}"
    return None


def _extremes(options: tuple[Option, ...]) -> Iterator[dict[str, int]]:
    """Option values at the ends of the whole-number options' ranges: each alone at its
    lowest and highest, and all at once."""
    ints = [o for o in options if isinstance(o.default, int) and not isinstance(o.default, bool)]
    ends = {o.name: (o.lowest, o.highest) for o in ints}
    for name, (low, high) in ends.items():
        yield {name: low}
        yield {name: high}
    if len(ends) > 1:
        yield {name: low for name, (low, _) in ends.items()}
        yield {name: high for name, (_, high) in ends.items()}


def _shown(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v:,}" if _whole(v) else f"{k}={v}" for k, v in options.items())


def check_contract_class(cls: type[Contract]) -> None:
    """PluginError (one line naming ``cls`` and why) unless herzla can play the class: its
    metadata, a contract for each number of players with the default options, and its
    declaration within the limits with any options (the whole-number options' ends probed)."""
    problem = _metadata_problem(cls)
    if problem:
        raise PluginError(named(cls), problem)
    for n in cls.player_counts:
        declarer = 0 if cls.needs_declarer else None
        try:
            contract = cls(n, None, declarer)
        except Exception as exc:  # the plug-in's own code: any error at all
            why = exc.problem if isinstance(exc, DeclarationError) else _one_line(exc)
            raise PluginError(named(cls), f"with {n} players and the default options: "
                              f"{why}") from None
        if contract.hand_size < 1:
            raise PluginError(named(cls), f"with {n} players its pack of "
                              f"{len(contract.pack())} cards deals nobody a card")
        if getattr(contract.declaration, "early_end", None) is not None \
                and not cls.needs_declarer:
            raise PluginError(named(cls), "an early end needs a declarer "
                              "(needs_declarer = True)")
        for given in _extremes(cls.options):
            try:
                cls(n, given, declarer)
            except DeclarationError as exc:
                raise PluginError(named(cls), f"with {n} players and {_shown(given)}: "
                                  f"{exc.problem}") from None
            except OptionError:  # a combination its check_options refuses
                continue
            except Exception as exc:
                raise PluginError(named(cls), f"with {n} players and {_shown(given)}: "
                                  f"{_one_line(exc)}") from None


def check_game(game: Game) -> None:
    """PluginError (one line) unless herzla can use the plug-in game: an id, a partie and a
    bidding of its own contracts, and what a partie can move at worst within the limit."""
    gid = getattr(game, "id", None)
    if not isinstance(gid, str) or not gid:
        raise PluginError(f"the game {type(game).__name__} ({type(game).__module__})",
                          "the class attribute id must be set")
    what = f"the game {gid} ({type(game).__module__})"
    classes = game.contract_classes()
    ids = [c.id for c in classes]
    if not _whole(game.partie) or not 0 <= game.partie <= len(classes):
        raise PluginError(what, f"its partie of {game.partie!r:.40} deals is not 0 to its "
                          f"{len(classes)} contracts")
    unknown = [b for b in game.bidding if b not in ids]
    if unknown:
        raise PluginError(what, f"its bidding names {unknown[0]!r:.40}, not one of its "
                          f"contracts")
    for cls in classes:
        if cls.game != gid:
            raise PluginError(what, f"it holds {named(cls)} of another game")
    partie = classes[: game.partie]
    for n in sorted({n for c in partie for n in c.player_counts}):
        worst = 0
        for cls in partie:
            if n in cls.player_counts:
                worst += cls.default(n).amount_bound()
        if worst > MAX_PARTIE_AMOUNT:
            raise PluginError(what, f"a partie of {n} players can move {worst:,} at most, "
                              f"beyond the limit of {MAX_PARTIE_AMOUNT:,}")

