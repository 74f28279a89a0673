"""pytest set-up for the whole tree: the files that need OpenSpiel (the ``openspiel`` extra)
and the table app's modules (the ``web`` extra).

Their doctests carry the ``openspiel`` (``web``) marker like the tests of
``tests/test_openspiel.py`` (``tests/test_web*.py``), and without open_spiel (Flask) installed
they are not collected at all (``-m "not openspiel"`` deselects them when it is installed).
"""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
OPENSPIEL_FILES = ("herzla/openspiel", "docs/openspiel.md", "docs/examples/openspiel_mcts.py")

WEB = ROOT / "herzla" / "web"

collect_ignore = [] if find_spec("pyspiel") else list(OPENSPIEL_FILES)
if find_spec("flask") is None or find_spec("waitress") is None:
    collect_ignore.append("herzla/web")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    needs = [ROOT / name for name in OPENSPIEL_FILES]
    for item in items:
        if any(item.path == path or path in item.path.parents for path in needs):
            item.add_marker(pytest.mark.openspiel)
        elif item.path.is_relative_to(WEB):
            item.add_marker(pytest.mark.web)
