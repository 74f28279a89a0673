"""The batch engine's memory: freed arrays kept by glibc for reuse (:func:`keep_memory`)."""

from __future__ import annotations

import ctypes
import os
import sys

__all__ = ["keep_memory"]

def keep_memory() -> None:
    """Ask glibc to keep freed memory for reuse rather than give it back to the system.

    The batch engine frees and allocates the same large arrays chunk after chunk; returned
    memory comes back as fresh pages, one page fault each, which costs about a third of the
    run time.  This sets ``M_TRIM_THRESHOLD`` and ``M_MMAP_THRESHOLD`` for the whole process
    (its memory then stays at its peak), so the library never calls it on its own: the
    simulator's runner does, in its own processes, unless the environment sets
    ``HERZLA_KEEP_MEMORY=0``.  Elsewhere than glibc it does nothing.
    """
    global _KEPT
    if _KEPT:
        return
    _KEPT = True
    if sys.platform != "linux" or os.environ.get("HERZLA_KEEP_MEMORY", "1") == "0":
        return
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return
    mallopt(-1, 1 << 30)  # M_TRIM_THRESHOLD
    mallopt(-3, 1 << 26)  # M_MMAP_THRESHOLD


_KEPT = False
