"""One class per name: no two public classes of herzla share a name (a reader, a traceback or
an import never has to ask which ``Table`` is meant)."""

from __future__ import annotations

import ast
from collections import defaultdict

from tests import sources as shared

pytestmark = shared.GROUP


def public_classes(sources: dict[str, str]) -> dict[str, list[str]]:
    """Each public class name (a class at the top of a module, its name not beginning with
    ``_``) and the modules (paths) that define it."""
    found: dict[str, list[str]] = defaultdict(list)
    for path, text in sources.items():
        for node in shared.parse(text).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                found[node.name].append(path)
    return found


def duplicates(sources: dict[str, str]) -> dict[str, list[str]]:
    return {name: paths for name, paths in public_classes(sources).items() if len(paths) > 1}


SOURCES = {f"herzla/{path}": text for path, text in shared.sources().items()}


def test_no_two_public_classes_share_a_name() -> None:
    assert duplicates(SOURCES) == {}


def test_a_second_class_of_a_name_is_caught() -> None:
    planted = {**SOURCES, "herzla/planted.py": "class Round:\n    pass\nclass _Table:\n    pass\n"}
    assert duplicates(planted) == {"Round": ["herzla/round/play.py", "herzla/planted.py"]}
    assert len(public_classes(SOURCES)) > 100  # the reader sees the package's classes
