"""herzla compiled to bytecode before a whole process is timed, as an installed herzla is.

pip compiles an installed package's modules when it installs it, so a user's ``herzla solve``
reads bytecode.  A source tree run with ``PYTHONDONTWRITEBYTECODE=1`` (some machines and CI
images set it) writes none, so every process would compile each of herzla's modules again from
source: about a quarter of a second on the 2-core machine of these benchmarks, a fifth of a whole
``herzla solve`` of 120 Beddl/Mord deals, and a cost no user pays.  :func:`compile_tree` writes
the bytecode (into the tree's ``__pycache__`` folders, which git ignores) so that the whole
processes measure what an installed herzla does; :func:`describe` says so in a benchmark's
heading.

Not part of the test suite.
"""

from __future__ import annotations

import compileall
import os
from pathlib import Path


def compile_tree(tree: Path) -> bool:
    """Compile the ``herzla`` package of the source tree ``tree`` (quietly, only what is out of
    date); False where some module would not compile (the processes then show why)."""
    return bool(compileall.compile_dir(str(tree / "herzla"), quiet=2, workers=1))


def describe() -> str:
    """A heading's words for how the timed processes import herzla."""
    off = os.environ.get("PYTHONDONTWRITEBYTECODE")
    how = " (PYTHONDONTWRITEBYTECODE is set here)" if off else ""
    return f"herzla's bytecode compiled before the runs, as pip installs it{how}"
