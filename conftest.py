"""pytest set-up for the whole tree: the files that need OpenSpiel (the ``openspiel`` extra) and
those that need PettingZoo and Gymnasium (the ``rl`` extra).

Their doctests carry the ``openspiel`` or ``rl`` marker like the tests of
``tests/test_openspiel.py`` and ``tests/test_rl.py``, and without the extra installed they are not
collected at all (``-m "not openspiel"``, ``-m "not rl"`` deselect them when it is installed).
"""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
OPENSPIEL_FILES = ("herzla/openspiel.py", "docs/openspiel.md", "docs/examples/openspiel_mcts.py")

RL_FILES = ("herzla/rl", "docs/rl.md", "docs/examples/rl_tabular.py")

collect_ignore = [] if find_spec("pyspiel") else list(OPENSPIEL_FILES)
if not (find_spec("pettingzoo") and find_spec("gymnasium")):
    collect_ignore += list(RL_FILES)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    needs = {ROOT / name for name in OPENSPIEL_FILES}
    rl = [ROOT / name for name in RL_FILES]
    for item in items:
        if item.path in needs:
            item.add_marker(pytest.mark.openspiel)
        if any(item.path == p or p in item.path.parents for p in rl):
            item.add_marker(pytest.mark.rl)
