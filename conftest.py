"""pytest set-up for the whole tree: the files that need OpenSpiel (the ``openspiel`` extra),
the table app's modules (the ``web`` extra) and those that need PettingZoo and Gymnasium (the
``rl`` extra).

Their doctests carry the ``openspiel``, ``web`` or ``rl`` marker like the tests of
``tests/test_openspiel.py``, ``tests/test_web*.py`` and ``tests/test_rl*.py``, and without the
extra installed they are not collected at all (``-m "not openspiel"`` and the like deselect them
when it is installed).
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
OPENSPIEL_FILES = ("herzla/openspiel", "docs/openspiel.md", "docs/examples/openspiel_mcts.py")
RL_FILES = ("herzla/rl", "docs/rl.md", "docs/examples/rl_tabular.py")

collect_ignore = [] if find_spec("pyspiel") else list(OPENSPIEL_FILES)
if find_spec("flask") is None or find_spec("waitress") is None:
    collect_ignore.append("herzla/web")
if not (find_spec("pettingzoo") and find_spec("gymnasium")):
    collect_ignore += list(RL_FILES)


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """Every test (and doc example) starts in English, and a language it chooses ends with it."""
    from herzla.i18n.state import current_language

    token = current_language.set("en")
    yield
    current_language.reset(token)


def _under(path: str, names: tuple[str, ...]) -> bool:
    """Whether ``path`` (a file's absolute path) is one of ``names`` (below the root) or lies
    in one of them (compared as text: a tree's thousands of items are marked at once)."""
    return any(path == f"{ROOT}/{name}" or path.startswith(f"{ROOT}/{name}/") for name in names)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = str(item.path)
        if _under(path, OPENSPIEL_FILES):
            item.add_marker(pytest.mark.openspiel)
        elif _under(path, ("herzla/web",)):
            item.add_marker(pytest.mark.web)
        elif _under(path, RL_FILES):
            item.add_marker(pytest.mark.rl)
