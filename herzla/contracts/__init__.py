"""The registry of games and contract classes, fed by the ``herzla.contracts`` entry points.

Every game, herzla's own included, is found through the entry-point group ``herzla.contracts``.
An entry point names a module (its ``GAME``, a :class:`Game`, and its ``CONTRACTS``), a
:class:`Game`, a :class:`Contract` subclass, or a sequence of these.  Contract classes of a game
nobody declares a :class:`Game` for make a plain one; contract classes for an existing game are
added after its own.  ``register`` adds a contract class or a game at run time (for tests and
notebooks).

A plug-in's classes and games are checked as they are taken in
(:mod:`herzla.contracts.checks`): one that fails to load, or that herzla cannot play (a
``declare()`` that raises, impossible ``player_counts``, amounts beyond the limits), is skipped
with one :class:`~herzla.contracts.checks.PluginWarning` naming it and why, and everything else
works; ``register`` raises the :class:`~herzla.contracts.checks.PluginError` instead.

>>> contract_class("herzla", "beddl").title
'Beddl'
>>> [c.id for c in contract_classes("herzerln")]
['tricks', 'hearts', 'jacks', 'red-queens', 'king-of-hearts', 'auflegen']
>>> get_game("herzeln").partie_ids()[-1]
'domino'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from types import ModuleType
from typing import Any

from herzla.contracts.base import (
    Contract,
    DealKind,
    HandScore,
    LayoutContract,
    Outcome,
    TrickContract,
)
from herzla.contracts.bounds import one_line
from herzla.contracts.checks import (
    PluginError,
    PluginWarning,
    check_contract_class,
    check_game,
    named,
    skip,
)
from herzla.contracts.game import Game, Rule, Sheet
from herzla.contracts.plugins import only_builtin
from herzla.contracts.vocabulary import (
    CardValue,
    Counts,
    EarlyEnd,
    LayoutRules,
    LeadBan,
    MissingTally,
    Rows,
    Settlement,
    Stock,
    TallyError,
    TrickRules,
)
from herzla.i18n import N_
from herzla.names import did_you_mean, find_name, read_name
from herzla.options import Option
from herzla.quote import quote

__all__ = [
    "CardValue",
    "Contract",
    "Counts",
    "DealKind",
    "EarlyEnd",
    "Game",
    "Sheet",
    "HandScore",
    "LayoutContract",
    "LayoutRules",
    "LeadBan",
    "MissingTally",
    "Outcome",
    "PluginError",
    "PluginWarning",
    "Rows",
    "Rule",
    "Settlement",
    "Stock",
    "TallyError",
    "TrickContract",
    "TrickRules",
    "UnknownContract",
    "contract_class",
    "contract_classes",
    "game_of",
    "game_options",
    "games",
    "get_game",
    "is_builtin",
    "known_options",
    "register",
    "builtin_only",
]

GROUP = "herzla.contracts"
BUILTIN_MODULES = (
    "herzla.contracts.herzla",
    "herzla.contracts.kids",
    "herzla.contracts.herzeln",
    "herzla.contracts.herzerln",
)


class UnknownContract(LookupError, ValueError):
    """No such game, or no such contract in a game (a wrong argument: a ValueError too)."""


_registry: dict[str, Game] | None = None


def _found_in(obj: Any) -> tuple[list[Game], list[type[Contract]]]:
    """The games and contract classes an entry point's object declares."""
    if isinstance(obj, Game):
        return [obj], []
    if isinstance(obj, type) and issubclass(obj, Game):
        return [obj()], []
    if isinstance(obj, type) and issubclass(obj, Contract):
        return [], [obj]
    if isinstance(obj, ModuleType):
        game = getattr(obj, "GAME", None)
        games_ = [game] if isinstance(game, Game) else []
        contracts = getattr(obj, "CONTRACTS", ())
        return games_, [c for c in contracts if isinstance(c, type) and issubclass(c, Contract)]
    out_g: list[Game] = []
    out_c: list[type[Contract]] = []
    if isinstance(obj, Iterable) and not isinstance(obj, str):
        for item in obj:
            g, c = _found_in(item)
            out_g += g
            out_c += c
    return out_g, out_c


def _plugin_problem(obj: Game | type[Contract]) -> PluginError | None:
    """Why herzla cannot take in a plug-in's game or contract class (None: it can, or it is
    one of herzla's own)."""
    try:
        if isinstance(obj, Game):
            if type(obj).__module__ in BUILTIN_MODULES:
                return None
            for cls in obj.contract_classes():
                if not is_builtin(cls):
                    try:
                        check_contract_class(cls)
                    except PluginError as exc:  # the game goes with its contract
                        raise PluginError(f"the game {obj.id} ({type(obj).__module__})",
                                          str(exc)) from None
            check_game(obj)
        elif not is_builtin(obj):
            check_contract_class(obj)
    except PluginError as exc:
        return exc
    except Exception as exc:  # a check the plug-in's own code failed in some other way
        what = named(obj) if isinstance(obj, type) else f"the game of {type(obj).__module__}"
        return PluginError(what, f"{type(exc).__name__}: {one_line(exc)}")
    return None


def _usable(found_games: list[Game], loose: list[type[Contract]]
            ) -> tuple[list[Game], list[type[Contract]]]:
    """The games and classes herzla can take in; a warning line for each one skipped."""
    games_: list[Game] = []
    classes: list[type[Contract]] = []
    found: list[Game | type[Contract]] = [*found_games, *loose]
    for obj in found:
        problem = _plugin_problem(obj)
        if problem is not None:
            skip(problem.what, problem.why)
        elif isinstance(obj, Game):
            games_.append(obj)
        else:
            classes.append(obj)
    return games_, classes


def _build(found_games: list[Game], loose: list[type[Contract]]) -> dict[str, Game]:
    table: dict[str, Game] = {}
    for g in found_games:
        table.setdefault(g.id, g)
    extra: dict[str, list[type[Contract]]] = {}
    for cls in loose:
        game = table.get(cls.game)
        if game is not None and cls in game.contract_classes():
            continue
        if cls not in extra.setdefault(cls.game, []):
            extra[cls.game].append(cls)
    for game_id, classes in extra.items():
        if game_id in table:
            table[game_id] = table[game_id].with_contracts(sorted(classes, key=lambda c: c.id))
        else:
            table[game_id] = Game.of(game_id, sorted(classes, key=lambda c: c.id))
    builtin = [importlib.import_module(m).GAME.id for m in BUILTIN_MODULES]
    names = sorted(table, key=lambda g: (builtin.index(g) if g in builtin else len(builtin), g))
    return {g: table[g] for g in names}


def _entry_points() -> list[Any]:
    """The entry points of the group; none when every one there is names herzla's own modules
    (found without loading :mod:`importlib.metadata`, which then is not needed: the built-in
    games are imported below all the same)."""
    if only_builtin(GROUP, BUILTIN_MODULES):
        return []
    from importlib.metadata import entry_points

    return list(entry_points(group=GROUP))


def _load() -> dict[str, Game]:
    global _registry
    if _registry is not None:
        return _registry
    found_games: list[Game] = []
    loose: list[type[Contract]] = []
    found_builtin = False
    for ep in _entry_points():
        try:
            obj = ep.load()
        except Exception as exc:  # a broken plug-in must not break herzla
            skip(f"the contract entry point {ep.name!r}",
                 f"it failed to load: {type(exc).__name__}: {one_line(exc)}")
            continue
        if ep.value.split(":")[0] in BUILTIN_MODULES:
            found_builtin = True
        g, c = _found_in(obj)
        found_games += g
        loose += c
    if not found_builtin:  # running from a source tree that was never installed
        for name in BUILTIN_MODULES:
            g, c = _found_in(importlib.import_module(name))
            found_games += g
            loose += c
    _registry = _build(*_usable(found_games, loose))
    return _registry


def builtin_only() -> Callable[[], None]:
    """Keep herzla's own games alone, as a user without plug-ins has them (the docs'
    transcripts are written so, whatever plug-ins are installed); the function returned puts
    the games found before back."""
    global _registry
    before = _load()
    _registry = {g.id: type(g)() for g in before.values()
                 if type(g).__module__ in BUILTIN_MODULES}

    def restore() -> None:
        global _registry
        _registry = before

    return restore


def register(obj: type[Contract] | Game) -> Any:
    """Add a contract class or a game at run time (usable as a class decorator); PluginError
    (a ValueError, one line) when herzla cannot play it (:mod:`herzla.contracts.checks`)."""
    global _registry
    if not isinstance(obj, Game) and not (isinstance(obj, type) and issubclass(obj, Contract)):
        what = obj.__name__ if isinstance(obj, type) else quote(obj)
        raise TypeError(f"register takes a contract class or a game, not {what}")
    problem = _plugin_problem(obj)
    if problem is not None:
        raise problem
    table = _load()
    games_ = [g for g in table.values()]
    if isinstance(obj, Game):
        games_ = [g for g in games_ if g.id != obj.id] + [obj]
        _registry = _build(games_, [])
    else:
        _registry = _build(games_, [obj])
    return obj


def games() -> list[str]:
    """The ids of every game the registry knows, herzla's own first."""
    return list(_load())


def get_game(game: str) -> Game:
    """The game ``game`` (its id in any case: ``Herzla``); UnknownContract names the games
    there are, and those it may mean."""
    table = _load()
    return table[read_name(game, table, N_("game"), UnknownContract)]


def contract_classes(game: str) -> list[type[Contract]]:
    """The contract classes of a game, in partie order."""
    return list(get_game(game).contract_classes())


def contract_class(game: str, contract_id: str) -> type[Contract]:
    """The contract class of a game and contract id (in any case: ``herzla``, ``Beddl``);
    UnknownContract names what is wrong, and the contracts it may mean."""
    g = get_game(game)
    classes = g.contract_classes()
    ids = [c.id for c in classes]
    found = find_name(contract_id, ids)
    if found is not None:
        return classes[ids.index(found)]
    for cls in classes:  # a name in German (Bettel, Normalspiel)
        if find_name(contract_id, cls.names) is not None:
            return cls
    raise UnknownContract(f"{quote(contract_id)} is not a {g.id} contract "
                          f"({did_you_mean(contract_id, ids)}known: {', '.join(ids)})")


def game_of(contract: Contract | type[Contract]) -> Game:
    """The game a contract belongs to (a plain one for a contract nobody has registered)."""
    cls = contract if isinstance(contract, type) else type(contract)
    table = _load()
    game = table.get(cls.game)
    if game is not None and cls in game.contract_classes():
        return game
    return Game.of(cls.game, [cls])


def game_options(game: str) -> tuple[Option, ...]:
    """The options of a game: those of all its contracts, each once."""
    return get_game(game).options


def is_builtin(cls: type[Contract]) -> bool:
    """Whether a contract class is one of herzla's own."""
    return cls.__module__ in BUILTIN_MODULES


def known_options(cls: type[Contract], options: Mapping[str, Any]) -> dict[str, Any]:
    """The ``options`` (a game's, by name: an evening's, a table's) that the contract class
    ``cls`` knows, the others left out (a game's options serve all its contracts).

    >>> known_options(contract_class("herzla", "beddl"), {"heart_unit": 5, "target": 9})
    {'heart_unit': 5}
    """
    names = {o.name for o in cls.options}
    return {k: v for k, v in options.items() if k in names}
