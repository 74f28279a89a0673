"""herzla's own modules as the architecture guards read them (``test_layers.py``,
``test_kinds.py``, ``test_class_names.py``, ``test_one_of_each.py``, ``test_site.py``,
``test_round.py``): each module read and parsed once a process, however many guards read it.

The trees are shared between the guards: a guard walks them and never changes them.  A text
the guards plant (a made-up module) is parsed as it comes, and once.  The guards' tests carry
the mark :data:`GROUP`, so that pytest-xdist runs them in one process, which parses herzla once
(pyproject's addopts: ``--dist loadgroup``).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

import herzla

__all__ = ["GROUP", "ROOT", "parse", "sources", "tree_of", "trees"]

#: the package's folder, herzla/
ROOT = Path(herzla.__file__).parent

#: the mark of every test that reads herzla's syntax trees: one worker runs them all
GROUP = pytest.mark.xdist_group("herzla-sources")


@functools.cache
def sources() -> dict[str, str]:
    """Every module of herzla, sorted: its path below herzla/ (``sim/api.py``) to its text."""
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(ROOT.rglob("*.py"))}


@functools.cache
def parse(text: str) -> ast.Module:
    """``text`` parsed: once a process for each text, whoever asks."""
    return ast.parse(text)


def trees() -> dict[str, ast.Module]:
    """Every module of herzla (its path below herzla/) parsed, sorted as :func:`sources`."""
    return {path: parse(text) for path, text in sources().items()}


def tree_of(path: Path) -> ast.Module:
    """The module of herzla at ``path`` (an absolute path below herzla/) parsed."""
    return parse(sources()[path.relative_to(ROOT).as_posix()])
