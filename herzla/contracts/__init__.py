"""The contract registry, fed by the ``herzla.contracts`` entry points.

Every contract, herzla's own included, is found through the entry-point group
``herzla.contracts``.  An entry point names a :class:`Contract` subclass, or a module or sequence
holding several (a module's ``CONTRACTS``).  ``register`` adds one at run time (for tests and
notebooks).

>>> get_contract("herzla", "beddl").title
'Beddl'
>>> [c.id for c in contracts_of("herzerln")]
['tricks', 'hearts', 'jacks', 'red-queens', 'king-of-hearts', 'auflegen']
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Iterable
from importlib.metadata import entry_points
from types import ModuleType
from typing import Any

from herzla.contracts.base import (
    Contract,
    HandScore,
    LayoutContract,
    Outcome,
    TallyError,
    TrickContract,
)
from herzla.options import Option

__all__ = [
    "Contract",
    "HandScore",
    "LayoutContract",
    "Outcome",
    "TallyError",
    "TrickContract",
    "UnknownContract",
    "contracts_of",
    "games",
    "get_contract",
    "game_options",
    "register",
]

GROUP = "herzla.contracts"
BUILTIN_MODULES = (
    "herzla.contracts.herzla",
    "herzla.contracts.kids",
    "herzla.contracts.herzeln",
    "herzla.contracts.herzerln",
)


class UnknownContract(LookupError):
    """No such game, or no such contract in a game."""


_registry: dict[str, dict[str, type[Contract]]] | None = None


def _contracts_in(obj: Any) -> list[type[Contract]]:
    if isinstance(obj, type) and issubclass(obj, Contract):
        return [obj]
    if isinstance(obj, ModuleType):
        obj = getattr(obj, "CONTRACTS", ())
    if isinstance(obj, Iterable):
        return [c for c in obj if isinstance(c, type) and issubclass(c, Contract)]
    return []


def _add(table: dict[str, dict[str, type[Contract]]], cls: type[Contract]) -> None:
    if not cls.game or not cls.id:
        raise TypeError(f"{cls.__name__} must set the class attributes game and id")
    table.setdefault(cls.game, {})[cls.id] = cls


def _load() -> dict[str, dict[str, type[Contract]]]:
    global _registry
    if _registry is not None:
        return _registry
    table: dict[str, dict[str, type[Contract]]] = {}
    found_builtin = False
    for ep in entry_points(group=GROUP):
        try:
            obj = ep.load()
        except Exception as exc:  # a broken plug-in must not break herzla
            warnings.warn(f"herzla: contract entry point {ep.name!r} failed to load: {exc}",
                          stacklevel=2)
            continue
        if ep.value.split(":")[0] in BUILTIN_MODULES:
            found_builtin = True
        for cls in _contracts_in(obj):
            _add(table, cls)
    if not found_builtin:  # running from a source tree that was never installed
        for name in BUILTIN_MODULES:
            for cls in _contracts_in(importlib.import_module(name)):
                table.setdefault(cls.game, {}).setdefault(cls.id, cls)
    builtin_games = ["herzla", "herzla-kids", "herzeln", "herzerln"]
    names = sorted(table, key=lambda g: (builtin_games.index(g) if g in builtin_games
                                         else len(builtin_games), g))
    _registry = {g: _ordered(g, table[g]) for g in names}
    return _registry


def _ordered(game: str, cs: dict[str, type[Contract]]) -> dict[str, type[Contract]]:
    """Built-in contracts in their partie order first, then the others by id."""
    order: list[str] = []
    for name in BUILTIN_MODULES:
        mod = importlib.import_module(name)
        order += [c.id for c in getattr(mod, "CONTRACTS", ()) if c.game == game]
    ranked = sorted(cs, key=lambda i: (order.index(i) if i in order else len(order), i))
    return {i: cs[i] for i in ranked}


def register(cls: type[Contract]) -> type[Contract]:
    """Add a contract class at run time (usable as a class decorator)."""
    table = _load()
    _add(table, cls)
    return cls


def games() -> list[str]:
    return list(_load())


def contracts_of(game: str) -> list[type[Contract]]:
    table = _load()
    if game not in table:
        raise UnknownContract(f"unknown game {game!r} (known: {', '.join(table)})")
    return list(table[game].values())


def get_contract(game: str, contract: str) -> type[Contract]:
    """The contract class for a game and contract id; UnknownContract names what is wrong."""
    table = _load()
    if game not in table:
        raise UnknownContract(f"unknown game {game!r} (known: {', '.join(table)})")
    cs = table[game]
    if contract not in cs:
        raise UnknownContract(
            f"{contract!r} is not a {game} contract (known: {', '.join(cs)})"
        )
    return cs[contract]


def game_options(game: str) -> tuple[Option, ...]:
    """The options of a game: those of all its contracts, each once."""
    seen: dict[str, Option] = {}
    for cls in contracts_of(game):
        for o in cls.options:
            seen.setdefault(o.name, o)
    return tuple(seen.values())
