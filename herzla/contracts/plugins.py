"""Whether any distribution declares a plug-in in an entry-point group, found cheaply.

Loading :mod:`importlib.metadata` and asking it for a group's entry points costs a good part of
herzla's start-up (it imports the email and zip machinery).  Most processes have no plug-in at
all, so :func:`only_builtin` first reads the ``entry_points.txt`` of each distribution in the
folders of ``sys.path`` itself, and says True only when it is sure that every entry point of the
group names one of herzla's own modules.  Anything it does not read as simply as that (a zip or
an egg on the path, a finder of distributions other than the standard one, a file it cannot
read) makes it say False, and the caller asks :mod:`importlib.metadata` as before: a plug-in is
always found the same way, and only a process without one takes the short way.

>>> only_builtin("herzla.contracts", ("herzla.contracts.herzla",), paths=[])
True
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence

__all__ = ["only_builtin"]

_META = (".dist-info", ".egg-info")


def _standard_finders() -> bool:
    """Whether the distributions are found only by the standard path finder."""
    for finder in sys.meta_path:
        if not hasattr(finder, "find_distributions"):
            continue
        name = getattr(finder, "__name__", type(finder).__name__)
        if name not in ("PathFinder", "MetadataPathFinder"):
            return False
        if getattr(finder, "__module__", "") not in ("importlib._bootstrap_external",
                                                      "_frozen_importlib_external",
                                                      "importlib.metadata",
                                                      # the backport (distributed loads it): the
                                                      # same folders of sys.path, read alike
                                                      "importlib_metadata"):
            return False
    return True


def _group_modules(text: str, group: str) -> list[str] | None:
    """The modules the entry points of ``group`` name in an ``entry_points.txt``; None when
    the file is not read plainly enough to be sure."""
    out: list[str] = []
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            if not line.endswith("]"):
                return None
            inside = line[1:-1].strip() == group
            continue
        if inside:
            name, eq, value = line.partition("=")
            if not eq or not name.strip():
                return None
            out.append(value.split(":")[0].split("[")[0].strip())
    return out


def only_builtin(group: str, builtin: Sequence[str], paths: Iterable[str] | None = None
                 ) -> bool:
    """True when, for sure, no distribution on ``paths`` (default ``sys.path``) declares an
    entry point of ``group`` naming a module outside ``builtin``; False when one may."""
    if not _standard_finders():
        return False
    allowed = set(builtin)
    for entry in sys.path if paths is None else paths:
        if not isinstance(entry, str):
            return False
        folder = entry or "."
        if not os.path.isdir(folder):
            if os.path.exists(folder):  # a zip (or egg) file: left to importlib.metadata
                return False
            continue
        if folder.lower().endswith(".egg"):
            return False
        try:
            names = os.listdir(folder)
        except OSError:
            return False
        for name in names:
            if not name.lower().endswith(_META):
                continue
            path = os.path.join(folder, name, "entry_points.txt")
            try:
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
            except FileNotFoundError:
                continue
            except (OSError, UnicodeDecodeError):
                if os.path.isdir(os.path.join(folder, name)):
                    return False
                continue  # an .egg-info file (metadata only): no entry points
            if group not in text:
                continue
            modules = _group_modules(text, group)
            if modules is None or not allowed.issuperset(modules):
                return False
    return True
