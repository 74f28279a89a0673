"""One of each, counted by the syntax tree: one writer of hand records, every shipped policy
writing the one ``Policy.move`` (none the 0.2 ``card``/``lay``), no 0.2 name used inside herzla,
and no side doors: tools/ and benchmarks/ use herzla's public names and nothing from tests/.

Each count reads every module of ``herzla/`` with :mod:`ast`; each has a planted case that shows
it sees what it counts.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import herzla
from tests import sources as shared

pytestmark = shared.GROUP

ROOT = Path(herzla.__file__).parent
#: the repository: tools/ and benchmarks/ beside the package
REPO = Path(__file__).resolve().parents[1]

#: the keys a hand record's JSON object is written with: a dict display holding these writes one
RECORD_KEYS = {"game", "contract", "hands", "plays"}
#: the shipped policies: each writes move()
SHIPPED = {"RandomPolicy", "HeuristicPolicy", "NetPolicy", "Pimc", "Expert", "BotPolicy"}
#: the setups of a table, each holding the one seating value (:class:`herzla.round.Seating`)
SETUPS = {"DealSpec": "sim/spec.py", "Sitting": "evening/run.py", "Setup": "openspiel/setup.py",
          "EnvTable": "rl/table.py", "Table": "table/model.py"}
#: what a seating holds: a class declaring four of these itself declares a seating of its own
SEATING_FIELDS = {"game", "contract", "players", "dealer", "declarer", "stock", "options"}
#: the classes that rightly hold four of them: the seating, a hand record and an evening's
#: entry (what was played, as written), the deal in play at a table (its dealer and stock), the
#: advice's plan (the position asked about) and a review's answer (the record reviewed)
OWN_FIELDS = {"round/seating.py:Seating", "records.py:Record", "evening/entry.py:Entry",
              "table/model.py:TableDeal", "analysis/advise.py:AdvicePlan",
              "analysis/review.py:ReviewResult"}
#: the 0.2 names gone in 1.0 (``by_kind`` still warns: it goes with the kinds' packages)
OLD_NAMES = {"by_kind", "legal_plays", "legal_lays", "decide_card", "decide_lay", "Lay"}


@functools.cache
def _trees() -> dict[str, ast.Module]:
    return shared.trees()


def _functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def record_writers(trees: dict[str, ast.Module]) -> list[str]:
    """Every function that writes a hand record's JSON object: a dict display with the
    record's keys, or a function named ``record_of``."""
    out = []
    for path, tree in sorted(trees.items()):
        for fn in _functions(tree):
            keys: set[object] = set()
            for node in ast.walk(fn):  # one walk a function: the three ways of writing a key
                if isinstance(node, ast.Dict):
                    keys.update(k.value for k in node.keys if isinstance(k, ast.Constant))
                elif isinstance(node, ast.Call):
                    keys.update(k.arg for k in node.keywords)
                elif (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store)
                      and isinstance(node.slice, ast.Constant)):
                    keys.add(node.slice.value)
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


def _fields(cls: ast.ClassDef) -> set[str]:
    """The names a class body declares with an annotation (its attrs fields)."""
    return {n.target.id for n in cls.body
            if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}


def seatings(trees: dict[str, ast.Module]) -> list[str]:
    """Each class that declares four of a seating's fields itself."""
    return [f"{path}:{cls.name}" for path, tree in sorted(trees.items())
            for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef)
            and len(_fields(cls) & SEATING_FIELDS) >= 4]


def holds_seating(trees: dict[str, ast.Module]) -> dict[str, bool]:
    """For each class of :data:`SETUPS`: whether it holds a field ``seating: Seating``."""
    out = {}
    for name, path in SETUPS.items():
        cls = next(c for c in ast.walk(trees[path]) if isinstance(c, ast.ClassDef)
                   and c.name == name)
        out[name] = any(isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
                        and n.target.id == "seating" and ast.unparse(n.annotation) == "Seating"
                        for n in cls.body)
    return out


def contract_makers(trees: dict[str, ast.Module]) -> list[str]:
    """Each function that makes a contract from its id itself: it calls what
    ``contract_class(...)`` or a table of classes (``classes[cid]``) answers at once, or it is
    named ``make_rules`` or ``make_contract``."""
    out = []
    for path, tree in sorted(trees.items()):
        for fn in _functions(tree):
            made = fn.name in ("make_rules", "make_contract") or any(
                isinstance(c, ast.Call) and (
                    (isinstance(c.func, ast.Call) and isinstance(c.func.func, ast.Name)
                    and c.func.func.id == "contract_class")
                    or (isinstance(c.func, ast.Subscript) and isinstance(c.func.value, ast.Name)
                    and c.func.value.id == "classes"))
                for c in ast.walk(fn))
            if made:
                out.append(f"{path}:{fn.name}")
    return out


def json_writers(trees: dict[str, ast.Module]) -> list[str]:
    """Each function outside herzla/hand.py that writes a record's JSON itself (calls
    ``record_json``) instead of asking a round (or a hand) for its record."""
    return [f"{path}:{fn.name}" for path, tree in sorted(trees.items()) if path != "hand.py"
            for fn in _functions(tree) if any(
                isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
                and c.func.id == "record_json" for c in ast.walk(fn))]


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def side_doors(trees: dict[str, ast.Module]) -> list[str]:
    """Each way round herzla's public surface: an import from tests/, a private name imported
    (or a module of a private path), a private attribute read of anything but ``self``/``cls``."""
    out = []
    for path, tree in sorted(trees.items()):
        seen: list[tuple[int, str]] = []
        for node in ast.walk(tree):
            found: list[str] = []
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                found += [f"from {module}"] if module.split(".")[0] == "tests" else []
                found += [f"{module}.{a.name}" for a in node.names if _private(a.name)]
                found += [module] if any(map(_private, module.split("."))) else []
            elif isinstance(node, ast.Import):
                found += [a.name for a in node.names if a.name.split(".")[0] == "tests"
                          or any(map(_private, a.name.split(".")))]
            elif isinstance(node, ast.Attribute) and _private(node.attr) and not (
                    isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(ast.unparse(node))
            seen += [(node.lineno, what) for what in found]  # type: ignore[attr-defined]
        out += [f"{path}:{line}: {what}" for line, what in sorted(seen)]
    return out


def _outside() -> dict[str, ast.Module]:
    """The scripts of tools/ and benchmarks/."""
    return {p.relative_to(REPO).as_posix(): ast.parse(p.read_text(encoding="utf-8"))
            for folder in ("tools", "benchmarks") for p in (REPO / folder).rglob("*.py")}


def test_one_writer_of_hand_records() -> None:
    # a Record writes itself as it was read (its options as given, its cards in their order)
    assert record_writers(_trees()) == ["hand.py:record_json", "hand.py:record_of",
                                        "records.py:to_json"]


def test_one_seating_value_held_by_the_five_setups() -> None:
    trees = _trees()
    assert holds_seating(trees) == dict.fromkeys(SETUPS, True)
    # before: the five setups and these each declared the fields (Sitting, rl's Seating,
    # OpenSpiel's Setup, Table, and the seating-less ones kept in OWN_FIELDS)
    assert set(seatings(trees)) == OWN_FIELDS


def test_one_way_to_make_a_contract_from_its_id() -> None:
    # before: round/play.py, sim/reference.py, openspiel/engine.py (make_rules),
    # analysis/expert.py and rl/table.py each made one their own way
    assert contract_makers(_trees()) == ["round/seating.py:make_contract"]


def test_records_of_a_deal_in_play_are_the_rounds() -> None:
    # before: OpenSpiel's episode, a table's position and pimc's samples wrote their own
    # JSON too; left: a blank deal (below the rounds) and the simulator's sample hands (whose
    # layout plays leave the passes implied, as the batch engine writes them)
    assert json_writers(_trees()) == ["records.py:deal_record", "sim/spec.py:sample_record"]


def test_every_shipped_policy_writes_move() -> None:
    methods = policy_methods(_trees())
    assert set(methods) == SHIPPED
    for name, written in methods.items():
        assert "move" in written and not {"card", "lay"} & written, (name, written)


def test_herzla_uses_no_02_name() -> None:
    assert old_names(_trees()) == []


def test_tools_and_benchmarks_use_no_side_door() -> None:
    scripts = _outside()
    assert len(scripts) > 20  # both folders read
    assert side_doors(scripts) == []


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
    doors = {"t.py": ast.parse("from tests.people_load import call\nimport tests.helpers\n"
                               "from herzla.sim.match import _result\n"
                               "from herzla.contracts import registry\nregistry._load()\n"
                               "self._x = 1\nfrom herzla._private import y\n")}
    assert side_doors(doors) == ["t.py:1: from tests.people_load", "t.py:2: tests.helpers",
                                 "t.py:3: herzla.sim.match._result", "t.py:5: registry._load",
                                 "t.py:7: herzla._private"]
    setups = {"s.py": ast.parse("class DealSpec:\n    seating: Seating\n"
                                "class Sitting:\n    game: str\n    players: int\n"
                                "    dealer: int\n    stock: int\n"
                                "def f(g, c):\n    return contract_class(g, c)(4)\n"
                                "def h(cid):\n    return classes[cid](4, {}, None)\n"
                                "def k(c):\n    x = contract_class(g, c)\n"
                                "    return record_json(c, 0, 0, [], [])\n")}
    assert seatings(setups) == ["s.py:Sitting"]
    assert contract_makers(setups) == ["s.py:f", "s.py:h"]
    assert json_writers(setups) == ["s.py:k"]
    found = {c.name: c for c in ast.walk(setups["s.py"]) if isinstance(c, ast.ClassDef)}
    assert [name for name, cls in found.items()
            if "seating" in _fields(cls)] == ["DealSpec"]
