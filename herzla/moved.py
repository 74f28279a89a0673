"""The modules that moved since herzla 0.2, still importable by their old paths.

:data:`MOVED` maps each old path to the module it is now; :func:`install` (called once by
``herzla/__init__.py``) lets ``import`` find a moved module by its old name, so code written
against 0.2 keeps working: the old name gives the very same module (its classes, its errors),
loaded when first imported, never a copy.  A package's old name covers its modules too
(``herzla.machinery.cluster`` is ``herzla.support.cluster``).  Type checkers know only the new
paths: write those in new code.

>>> import importlib
>>> from herzla.contracts import tallies
>>> importlib.import_module("herzla.tally") is tallies
True
>>> from herzla.support.cluster import ClusterError
>>> importlib.import_module("herzla.machinery.cluster").ClusterError is ClusterError
True
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

__all__ = ["MOVED", "install", "now_of"]

#: old module path: where it is now
MOVED = {
    # herzla 0.2's shared machinery: a package named for what it is (support code that knows
    # no rule of the game), not for the engines it might be taken for
    "herzla.machinery": "herzla.support",
    # the scorer from tallies, beside the contracts whose scoring it feeds
    "herzla.tally": "herzla.contracts.tallies",
    # the services of the analysis, named for what they do
    "herzla.analysis.many": "herzla.analysis.solve_many",
    "herzla.analysis.lines": "herzla.analysis.steps",
}


def now_of(name: str) -> str | None:
    """Where the module ``name`` is now if it moved (a moved package's modules too), else
    None."""
    for old, new in MOVED.items():
        if name == old or name.startswith(old + "."):
            return new + name[len(old):]
    return None


class _Loader(importlib.abc.Loader):
    """Gives the module at its new path for its old name."""

    def __init__(self, module: ModuleType) -> None:
        self.module = module
        self.spec = module.__spec__

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return self.module

    def exec_module(self, module: ModuleType) -> None:
        # the import system gave the module the old name's spec: it keeps its own
        module.__spec__ = self.spec


class _Finder(importlib.abc.MetaPathFinder):
    """Finds a moved module by its old name."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        new = now_of(fullname)
        if new is None:
            return None
        module = importlib.import_module(new)
        return importlib.machinery.ModuleSpec(fullname, _Loader(module),
                                              is_package=hasattr(module, "__path__"))


_FINDER = _Finder()


def install() -> None:
    """Let the old paths import (once).  The finder goes first: the path finder would find a
    moved package's modules again under the old name, as copies."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
