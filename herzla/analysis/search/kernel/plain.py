"""The kernel as plain Python: its modules imported a second time with a stand-in for
:mod:`.jit` that leaves every function Python, numba installed or not.

The kernel's units (:mod:`.units`) and its search (:mod:`.alphabeta`) are written for
:func:`.jit.njit`; here they run as the interpreter reads them, slowly but line for line what
numba compiles, so that the default tests compare the kernel with the pure search without numba
(``tests/test_kernel_plain.py``) and an edit to the kernel is checked where numba is missing.
The copies are kept apart from the compiled modules: importing them leaves ``sys.modules`` and
the kernel package as they were.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["PlainKernel", "plain_kernel"]

_PACKAGE = "herzla.analysis.search.kernel"
#: the kernel's modules that :func:`.jit.njit` decorates, in import order
_MODULES = (f"{_PACKAGE}.jit", f"{_PACKAGE}.units", f"{_PACKAGE}.alphabeta")

_loaded: dict[str, PlainKernel] = {}


def _identity(**_options: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The stand-in for numba's ``njit``: the function as it is written."""
    return lambda f: f


class PlainKernel:
    """The kernel as plain Python: :attr:`search` takes the compiled search's arguments and
    gives its value; :attr:`units` and :attr:`alphabeta` are the plain copies of the modules."""

    def __init__(self, alphabeta: types.ModuleType) -> None:
        self.alphabeta = alphabeta
        self.units: types.ModuleType = alphabeta.units

    def search(self, *args: Any) -> int:
        """:func:`.alphabeta.search` in plain Python.  Its 64-bit words wrap as numba's do
        (numpy's scalars), which numpy would warn of: the warning is left out."""
        with np.errstate(over="ignore"):
            return int(self.alphabeta.search(*args))


def plain_kernel() -> PlainKernel:
    """The kernel imported with every function plain Python (loaded once)."""
    loaded = _loaded.get("kernel")
    if loaded is not None:
        return loaded
    package = importlib.import_module(_PACKAGE)
    saved = {name: sys.modules.pop(name, None) for name in _MODULES}
    attrs = {name: package.__dict__.get(name.rsplit(".", 1)[1]) for name in _MODULES}
    jit = types.ModuleType(_MODULES[0], "numba's njit left out: the functions stay Python")
    jit.njit = _identity  # type: ignore[attr-defined]
    sys.modules[_MODULES[0]] = jit
    try:
        importlib.import_module(_MODULES[1])
        got = importlib.import_module(_MODULES[2])
    finally:
        for name in _MODULES:
            module = saved[name]
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
            short = name.rsplit(".", 1)[1]
            if attrs[name] is None:
                package.__dict__.pop(short, None)
            else:
                setattr(package, short, attrs[name])
    kernel = _loaded["kernel"] = PlainKernel(got)
    return kernel
