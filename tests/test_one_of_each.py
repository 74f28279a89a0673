"""One of each, counted by the syntax tree: one writer of hand records, every shipped policy
writing the one ``Policy.move`` (none the 0.2 ``card``/``lay``), no 0.2 name used inside herzla.

Each count reads every module of ``herzla/`` with :mod:`ast`; each has a planted case that shows
it sees what it counts.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import herzla

ROOT = Path(herzla.__file__).parent

#: the keys a hand record's JSON object is written with: a dict display holding these writes one
RECORD_KEYS = {"game", "contract", "hands", "plays"}
#: the shipped policies: each writes move()
SHIPPED = {"RandomPolicy", "HeuristicPolicy", "NetPolicy", "Pimc", "Expert", "BotPolicy"}
#: the 0.2 names herzla's own code no longer uses (they warn, and go in 1.0)
OLD_NAMES = {"by_kind", "legal_plays", "legal_lays", "decide_card", "decide_lay", "Lay"}


@functools.cache
def _trees() -> dict[str, ast.Module]:
    return {p.relative_to(ROOT).as_posix(): ast.parse(p.read_text(encoding="utf-8"))
            for p in ROOT.rglob("*.py")}


def _functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def record_writers(trees: dict[str, ast.Module]) -> list[str]:
    """Every function that writes a hand record's JSON object: a dict display with the
    record's keys, or a function named ``record_of``."""
    out = []
    for path, tree in sorted(trees.items()):
        for fn in _functions(tree):
            keys = {k.value for d in ast.walk(fn) if isinstance(d, ast.Dict) for k in d.keys
                    if isinstance(k, ast.Constant)}
            keys |= {k.arg for c in ast.walk(fn) if isinstance(c, ast.Call) for k in c.keywords}
            keys |= {s.slice.value for s in ast.walk(fn) if isinstance(s, ast.Subscript)
                     and isinstance(s.ctx, ast.Store) and isinstance(s.slice, ast.Constant)}
            if keys >= RECORD_KEYS or fn.name == "record_of":
                out.append(f"{path}:{fn.name}")
    return out


def policy_methods(trees: dict[str, ast.Module]) -> dict[str, set[str]]:
    """The methods each class named in :data:`SHIPPED` writes (nested classes included)."""
    out: dict[str, set[str]] = {}
    for tree in trees.values():
        for cls in ast.walk(tree):
            if isinstance(cls, ast.ClassDef) and cls.name in SHIPPED:
                out[cls.name] = {f.name for f in cls.body
                                 if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)}
    return out


def old_names(trees: dict[str, ast.Module]) -> list[str]:
    """Each use of a 0.2 name (an attribute read or called, a name imported or read) outside the
    places that define or forward it."""
    allowed = {"players/views.py", "players/policy.py", "layout.py", "tricks.py",
               "__init__.py", "players/__init__.py"}
    out = []
    for path, tree in sorted(trees.items()):
        if path in allowed:
            continue
        for node in ast.walk(tree):
            name = (node.attr if isinstance(node, ast.Attribute) else
                    node.id if isinstance(node, ast.Name) else None)
            if isinstance(node, ast.ImportFrom):
                name = next((a.name for a in node.names if a.name in OLD_NAMES), None)
            if name in OLD_NAMES:
                out.append(f"{path}:{getattr(node, 'lineno', 0)}: {name}")
    return out


def test_one_writer_of_hand_records() -> None:
    # a Record writes itself as it was read (its options as given, its cards in their order)
    assert record_writers(_trees()) == ["hand.py:record_json", "hand.py:record_of",
                                        "records.py:to_json"]


def test_every_shipped_policy_writes_move() -> None:
    methods = policy_methods(_trees())
    assert set(methods) == SHIPPED
    for name, written in methods.items():
        assert "move" in written and not {"card", "lay"} & written, (name, written)


def test_herzla_uses_no_02_name() -> None:
    assert old_names(_trees()) == []


def test_the_counts_see_what_they_count() -> None:
    planted = {
        "a.py": ast.parse("def w(c):\n    return {'game': 1, 'contract': 2, 'hands': [], "
                          "'plays': []}\ndef record_of(h):\n    pass\n"
                          "def n(c):\n    return {'game': 1}\n"
                          "def u(c):\n    out = {'game': 1}\n    out['contract'] = 2\n"
                          "    out.update(hands=[], plays=[])\n"),
        "b.py": ast.parse("class Pimc:\n    def card(self, v):\n        pass\n"
                          "    def move(self, v):\n        pass\n"),
        "c.py": ast.parse("from herzla.kinds.layout import Lay\nx = view.legal_plays\n"
                          "y = v.by_kind(f, g)\n"),
    }
    assert record_writers(planted) == ["a.py:w", "a.py:record_of", "a.py:u"]
    assert policy_methods(planted) == {"Pimc": {"card", "move"}}
    assert old_names(planted) == ["c.py:1: Lay", "c.py:2: legal_plays", "c.py:3: by_kind"]
