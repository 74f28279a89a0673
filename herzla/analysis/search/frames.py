"""Deep recursive searches on a stretch of the frame stack of their own (a CPython speed fix).

CPython (3.11) keeps the frames of Python functions in chunks of memory: a call that does not fit
in the current chunk gets a new chunk, and the return from the first frame of a chunk frees that
chunk again.  A recursive search whose depth keeps crossing the end of a chunk therefore
allocates and frees memory at every crossing.  The solver's searches ran up to twice as slow
depending on nothing but how deep the caller's stack happened to be (benchmarks/README.md).

:func:`on_own_stack` calls a function from a frame too large for any chunk of ordinary size, so
that frame starts a chunk of its own with ample room after it, and a search below it never
crosses a chunk's end (unless it is far deeper than any trick or layout search).  Answers are
unaffected: only where the frames live changes.
"""

from __future__ import annotations

import threading
import types
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["DEEP", "caller", "on_own_stack"]

R = TypeVar("R")

#: unused local variables of the spacer frame: 8 bytes each, so that the frame (about 25 KB)
#: exceeds a default chunk (16 KB) and gets a chunk of 64 KB, leaving about 39 KB for the search
_SLOTS = 3100


def _spacer(f: Callable[..., R], *args: int) -> R:
    return f(*args)


_code = _spacer.__code__
_big = types.FunctionType(
    _code.replace(co_varnames=_code.co_varnames + tuple(f"_unused{i}" for i in range(_SLOTS)),
                  co_nlocals=_code.co_nlocals + _SLOTS),
    _spacer.__globals__, "on_own_stack")


class _Running(threading.local):
    """Per thread: how many calls of :func:`on_own_stack` are running."""

    count = 0


_running = _Running()


def on_own_stack(f: Callable[..., R], *args: Any) -> R:
    """``f(*args)``, called from a frame that starts a chunk of the frame stack of its own.

    >>> on_own_stack(max, 3, 7)
    7
    """
    _running.count += 1
    try:
        return _big(f, *args)  # type: ignore[no-any-return]
    finally:
        _running.count -= 1


#: searches with at least this many tricks to go run on a stretch of their own
DEEP = 4


def _direct(f: Callable[..., R], *args: int) -> R:
    return f(*args)


def caller(tricks_left: int) -> Callable[..., R]:
    """:func:`on_own_stack` for a search of ``tricks_left`` tricks or more than :data:`DEEP`;
    for a shorter one, or one below a running :func:`on_own_stack` (whose stretch has room for
    a whole search: :func:`herzla.analysis.solve.solve` runs its search, its line of best play
    and the values of the plays on one), a plain call, which costs less than setting up a
    stretch (tens of microseconds: a fresh chunk of memory each time).

    >>> caller(1)(max, 3, 7), caller(8)(max, 3, 7)
    (7, 7)
    >>> on_own_stack(caller, 8) is _direct
    True
    """
    return on_own_stack if tricks_left >= DEEP and not _running.count else _direct
