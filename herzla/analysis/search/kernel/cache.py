"""The kernel's disk cache, kept in step with every file of the kernel.

numba keys a compiled function's disk cache (``cache=True``) to the function's own file: the
compiled search (:mod:`~herzla.analysis.search.kernel.alphabeta`) holds the code of the units
of :mod:`~herzla.analysis.search.kernel.units`, and both the slots of
:mod:`~herzla.analysis.search.kernel.slots`, and would keep them after those files changed.  So
a digest of all the kernel's files is kept beside numba's cache, and when it differs the cache
of every kernel function is flushed: numba compiles them again, once, and loads them from the
disk from then on.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["STAMP", "drop_stale_caches", "sources_digest"]

#: the file beside numba's cache that holds the digest of the sources it was compiled from
STAMP = "herzla-kernel.digest"


def sources_digest(paths: Sequence[Path]) -> str:
    """A digest of the files ``paths`` (their names and contents, in the order given)."""
    h = hashlib.sha256()
    for path in paths:
        h.update(path.name.encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def drop_stale_caches(dispatchers: Sequence[Any], paths: Sequence[Path]) -> bool:
    """Flush the disk caches of the numba functions ``dispatchers`` (kept in one directory) when
    the files ``paths`` they are compiled from differ from those the caches were written from;
    whether they were flushed.  Nothing happens without numba or without a cache (the stand-in
    of :mod:`~herzla.analysis.search.kernel.jit`; ``cache_path`` None); a cache directory that
    cannot be written keeps numba's own behaviour."""
    caches = [getattr(d, "_cache", None) for d in dispatchers]
    where = {getattr(c, "cache_path", None) for c in caches}
    path = where.pop() if len(where) == 1 else None
    if path is None:
        return False
    stamp = Path(path) / STAMP
    digest = sources_digest(paths)
    try:
        if stamp.read_text() == digest:
            return False
    except OSError:
        pass
    for cache in caches:
        assert cache is not None
        cache.flush()
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        part = stamp.with_name(f"{STAMP}.{os.getpid()}")
        part.write_text(digest)
        part.replace(stamp)
    except OSError:
        pass
    return True
