"""The layers import one way, and no module imports itself round a circle: every import of every
module of herzla, read with :mod:`ast`.

cards → hand → contracts/rules → kinds (the engines) → support → records → players → (sim,
analysis, ...) → the public facade → the web app → cli (docs/architecture.md).  Imports inside
functions count as much as those at the top of a module (a lazy import is still a dependency);
only imports under ``if TYPE_CHECKING:`` are left out: they name a type for mypy and never run.
No module is longer than :data:`MAX_LINES` lines.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator, Mapping
from pathlib import Path

from tests import sources as shared

pytestmark = shared.GROUP

ROOT = shared.ROOT

#: the layers, lowest first: a part may import its own modules and those of lower layers
LAYERS: tuple[tuple[str, ...], ...] = (
    # text, the names people type, counting for people, the example records (JSON text),
    # limits, the notebook display registry (a picture over a limit is none) and rule options:
    # no rules yet
    # the language people read (gettext catalogs, numbers and dates), below every text
    ("i18n",),
    # herzla's own base error
    ("errors",),
    ("quote",), ("names",), ("counting",), ("examples",), ("limits",), ("tags",),
    ("display",), ("options",),
    ("cards",),
    # one interface for every hand (moves, tricks, outcomes), and the engines' registry
    ("hand",),
    # the games' declarations, and the rule book written from them
    ("contracts",),
    # the kinds of deal, a package each: its reference engine, its seat's view, its move marks
    # and the Kind the layers above ask (herzla/kinds/)
    ("kinds",),
    ("rulebook",),  # the rule book, written from the declarations (and each kind's words)
    # support code that knows no rule: seeded streams and the deal, moves as records write
    # them, process and cluster maps, files written whole
    ("support",),
    ("records",),
    ("round",),  # one deal in progress: the bidding, the play, the score, what it carries
    ("evening",),  # an evening kept deal by deal; the one reader of a list of records
    ("sheets",),  # a partie, session or match scored from records
    # the policies: what a seat may see, the built-in players, the registry of names
    ("players",),
    # what plays, analyses, adapts and draws hands
    ("sim", "analysis", "openspiel", "rl", "testing", "draw"),
    ("table",),  # a hand against the computer: the policies, the evening, the review
    ("facade",),  # herzla/__init__.py: the public names
    ("web",),  # the table app (herzla serve): the only part that imports the web framework
    ("cli",),
    ("__main__",),  # python -m herzla
)

#: imports between parts of one layer, each allowed on purpose (and never both ways)
SIDEWAYS: dict[str, frozenset[str]] = {
    # the advisor's heuristic column plays the simulator's heuristic policy
    "analysis": frozenset({"sim"}),
    # a simulation's histograms are drawn with the bars of `herzla simulate --plot`
    "draw": frozenset({"sim"}),
    # OpenSpiel's resampler draws hidden hands as the strong player (pimc) samples them
    "openspiel": frozenset({"analysis"}),
}

LAYER_OF = {part: i for i, parts in enumerate(LAYERS) for part in parts}


def part_of(module: str) -> str:
    """The part a dotted module name of herzla belongs to: its first name below ``herzla``."""
    names = module.split(".")
    assert names[0] == "herzla", module
    return "facade" if len(names) == 1 else names[1]


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    names = list(rel.parts)
    if names[-1] == "__init__":
        names.pop()
    return ".".join(names)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk(node: ast.AST, types: bool = False) -> Iterator[ast.AST]:
    """Every node below ``node``, in the order of the source, but those under ``if
    TYPE_CHECKING:`` (``types``: those too)."""
    stack = list(ast.iter_child_nodes(node))[::-1]  # a stack, not nested generators: fast
    while stack:
        child = stack.pop()
        if not types and isinstance(child, ast.If) and _is_type_checking(child):
            stack.extend(child.orelse[::-1])
            continue
        yield child
        stack.extend(list(ast.iter_child_nodes(child))[::-1])


def _parse(path: Path, text: str | None) -> ast.Module:
    # each module of herzla is parsed once a process, for every check that reads it
    return shared.tree_of(path) if text is None else shared.parse(text)


def imports_of(path: Path, text: str | None = None,
               known: frozenset[str] | None = None, types: bool = False
               ) -> Iterator[tuple[int, str]]:
    """(line, module) for each herzla module ``path`` (or ``text`` as if it were that module)
    imports, at any depth (``types``: those under ``if TYPE_CHECKING:`` too).  ``from package
    import name`` imports the module ``package.name`` where there is one (``known``, by default
    herzla's modules), else ``package``."""
    if text is None and known is None:
        return iter(_own_imports(path, types))
    return _imports(path, text, MODULE_NAMES if known is None else known, types)


@functools.cache
def _own_imports(path: Path, types: bool) -> tuple[tuple[int, str], ...]:
    return tuple(_imports(path, None, MODULE_NAMES, types))


def _imports(path: Path, text: str | None, known: frozenset[str], types: bool
             ) -> Iterator[tuple[int, str]]:
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = _parse(path, text)
    for node in _walk(tree, types):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "herzla":
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if target.split(".")[0] != "herzla":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                yield node.lineno, sub if sub in known else target


MODULES = sorted(ROOT.rglob("*.py"))
MODULE_NAMES = frozenset(module_name(path) for path in MODULES)
#: the longest a module of herzla may be (one file, one concept)
MAX_LINES = 700


def module_graph(sources: Mapping[Path, str | None], known: frozenset[str] | None = None,
                 types: bool = False) -> dict[str, set[str]]:
    """Which modules each module of ``sources`` (a path, and its text or None to read it)
    imports, TYPE_CHECKING imports left out (``types``: counted too); a name imported from a
    module is the module."""
    known = MODULE_NAMES if known is None else known
    edges: dict[str, set[str]] = {}
    for path, text in sources.items():
        here = module_name(path)
        out = edges.setdefault(here, set())
        for _, target in imports_of(path, text, known, types):
            while target not in known and "." in target:
                target = target.rpartition(".")[0]
            if target != here:
                out.add(target)
    return edges


def find_cycle(edges: Mapping[str, set[str]]) -> list[str] | None:
    """A circle of imports (its first module again at the end), or None."""
    state: dict[str, int] = {}  # 1: on the path being searched, 2: done
    trail: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        trail.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*trail[trail.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        trail.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def test_every_part_has_a_layer() -> None:
    parts = {part_of(module_name(path)) for path in MODULES}
    assert parts - set(LAYER_OF) == set(), "give each new part of herzla a layer in LAYERS"


def _where(path: Path) -> str:
    return str(path.relative_to(ROOT.parent))


def wrong_imports(path: Path, text: str | None = None) -> list[str]:
    """The imports of ``path`` (or of ``text`` as if it were that module) that do not run one
    way: down the layers, or sideways where :data:`SIDEWAYS` allows it."""
    here = part_of(module_name(path))
    wrong = []
    for line, target in imports_of(path, text):
        there = part_of(target)
        if there == here or LAYER_OF[there] < LAYER_OF[here]:
            continue
        if LAYER_OF[there] == LAYER_OF[here] and there in SIDEWAYS.get(here, ()):
            continue
        wrong.append(f"{_where(path)}:{line}: {here} imports {target} ({there} is not below it)")
    return wrong


def test_imports_run_one_way() -> None:
    # every module in one test (each syntax tree read once a process), each wrong import named
    assert [w for path in MODULES for w in wrong_imports(path)] == []


def test_an_import_upwards_is_named_with_its_module() -> None:
    cards = ROOT / "cards.py"
    assert wrong_imports(cards) == []
    assert wrong_imports(cards, "import herzla.i18n\ndef f():\n    import herzla.sim.api\n") == [
        "herzla/cards.py:3: cards imports herzla.sim.api (sim is not below it)"]


def test_no_cycle_between_parts() -> None:
    edges: dict[str, set[str]] = {}
    for path in MODULES:
        here = part_of(module_name(path))
        for _, target in imports_of(path):
            if (there := part_of(target)) != here:
                edges.setdefault(here, set()).add(there)
    # depth-first search for a back edge
    state: dict[str, int] = {}

    def visit(part: str, trail: list[str]) -> None:
        state[part] = 1
        for nxt in sorted(edges.get(part, ())):
            assert state.get(nxt) != 1, " → ".join([*trail, part, nxt])
            if nxt not in state:
                visit(nxt, [*trail, part])
        state[part] = 2

    for part in sorted(edges):
        if part not in state:
            visit(part, [])


def test_the_reader_sees_lazy_imports() -> None:
    # the check would pass vacuously if function-level imports were missed: the simulator's
    # runner imports the cluster map inside a function
    runner = ROOT / "sim" / "runner.py"
    tree = ast.parse(runner.read_text())
    top = {n.lineno for n in tree.body if isinstance(n, ast.ImportFrom)}
    lazy = [target for line, target in imports_of(runner) if line not in top]
    assert "herzla.support.cluster" in lazy


def test_a_wrong_import_is_caught() -> None:
    # a function of the cards module that imported the simulator, lazily or relatively, and an
    # import under TYPE_CHECKING (left out)
    text = ("from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from herzla.records import Record\n"
            "def f():\n    from herzla.sim.api import simulate\n"
            "    from .analysis import solve\n    import herzla.cli\n")
    found = list(imports_of(ROOT / "cards.py", text))
    assert found == [(5, "herzla.sim.api"), (6, "herzla.analysis.solve"), (7, "herzla.cli")]
    assert all(LAYER_OF[part_of(t)] > LAYER_OF["cards"] for _, t in found)


def test_no_cycle_among_modules() -> None:
    cycle = find_cycle(module_graph(dict.fromkeys(MODULES)))
    assert cycle is None, " → ".join(cycle or ())


def test_no_cycle_among_modules_counting_type_only_imports() -> None:
    # a name imported for mypy alone still ties the two modules: a reader (and a refactoring)
    # must take them together
    cycle = find_cycle(module_graph(dict.fromkeys(MODULES), types=True))
    assert cycle is None, " → ".join(cycle or ())


def test_a_type_only_cycle_is_found() -> None:
    a, b = ROOT / "planted_a.py", ROOT / "planted_b.py"
    texts: dict[Path, str | None] = {
        a: "from herzla import planted_b\n",
        b: "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import herzla.planted_a\n",
    }
    known = MODULE_NAMES | {"herzla.planted_a", "herzla.planted_b"}
    assert find_cycle(module_graph(texts, known)) is None
    assert find_cycle(module_graph(texts, known, types=True)) == [
        "herzla.planted_a", "herzla.planted_b", "herzla.planted_a"]


def string_references(path: Path, text: str | None = None,
                      known: frozenset[str] | None = None) -> Iterator[tuple[int, str]]:
    """(line, module) for each string of ``path``'s code (docstrings left out) that names a
    module of herzla, alone or as an import path (``herzla.analysis.pimc:Pimc``): a dependency
    the imports do not show, kept to the layers as they are."""
    known = MODULE_NAMES if known is None else known
    tree = _parse(path, text)
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                          | ast.AsyncFunctionDef)
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in docs):
            name = node.value.partition(":")[0]
            if name in known and name.startswith("herzla."):
                yield node.lineno, name


def test_strings_name_no_layer_above() -> None:
    wrong = [f"{_where(path)}:{line}: {here} names {target} ({part_of(target)} is not below it)"
             for path in MODULES
             for here in [part_of(module_name(path))]
             for line, target in string_references(path)
             if LAYER_OF[part_of(target)] > LAYER_OF[here]]
    assert wrong == []


def test_a_string_naming_a_layer_above_is_caught() -> None:
    text = ('"""The registry (herzla.analysis.pimc in prose is fine)."""\n'
            'PIMC = "herzla.analysis.pimc:Pimc"\nSELF = "herzla.players.registry"\n'
            'GROUP = "herzla.policies"\n')
    found = list(string_references(ROOT / "players" / "registry.py", text))
    assert found == [(2, "herzla.analysis.pimc"), (3, "herzla.players.registry")]
    assert [t for _, t in found if LAYER_OF[part_of(t)] > LAYER_OF["players"]] == [
        "herzla.analysis.pimc"]


def test_a_planted_cycle_among_modules_is_found() -> None:
    # a imports b inside a function, b imports a name of a: a circle; c imports a for mypy only
    # and a imports c: no circle.  The checker would pass vacuously if it missed either kind.
    a, b, c = (ROOT / f"planted_{x}.py" for x in "abc")
    texts: dict[Path, str | None] = {
        a: "from herzla import planted_c\ndef f():\n    from herzla import planted_b\n",
        b: "from herzla.planted_a import f\n",
        c: "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import herzla.planted_a\n",
    }
    known = MODULE_NAMES | {"herzla.planted_a", "herzla.planted_b", "herzla.planted_c"}
    graph = module_graph(texts, known)
    assert graph == {"herzla.planted_a": {"herzla.planted_b", "herzla.planted_c"},
                     "herzla.planted_b": {"herzla.planted_a"}, "herzla.planted_c": set()}
    assert find_cycle(graph) == ["herzla.planted_a", "herzla.planted_b", "herzla.planted_a"]
    del texts[b]
    assert find_cycle(module_graph(texts, known)) is None
    # and among herzla's own modules
    real = module_graph({**dict.fromkeys(MODULES), a: texts[a], b: "import herzla.planted_a\n"},
                        known)
    assert find_cycle(real) is not None


def over_the_longest(sources: Mapping[str, str]) -> list[str]:
    """The modules (path below herzla/: text) longer than :data:`MAX_LINES`, with their
    lengths."""
    return [f"herzla/{path}: {n} lines" for path, text in sources.items()
            if (n := len(text.splitlines())) > MAX_LINES]


def test_no_module_is_over_the_longest() -> None:
    assert over_the_longest(shared.sources()) == []
    assert over_the_longest({"long.py": "x = 1\n" * (MAX_LINES + 1)}) == [
        f"herzla/long.py: {MAX_LINES + 1} lines"]


#: the web framework and its server: only the table app (herzla/web) imports them
WEB_ONLY = frozenset({"flask", "werkzeug", "jinja2", "markupsafe", "waitress", "itsdangerous"})


def _outside_imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, top-level name) of each import of a distribution outside herzla, at any depth."""
    for node in _walk(shared.tree_of(path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            yield node.lineno, node.module.split(".")[0]


#: the modules of the table app that know no web framework (the store, the desk's rulings, the
#: package itself, which the command line imports to say what is missing)
FRAMEWORK_FREE = frozenset({"herzla.web", "herzla.web.store", "herzla.web.documents",
                            "herzla.web.sqlite_store", "herzla.web.postgres_store",
                            "herzla.web.sql_store", "herzla.web.openapi_games",
                            "herzla.web.desk"})


def test_only_the_web_app_imports_the_web_framework() -> None:
    wrong = [f"{_where(path)}:{line}: {name}" for path in MODULES
             if part_of(module_name(path)) != "web" or module_name(path) in FRAMEWORK_FREE
             for line, name in _outside_imports(path) if name in WEB_ONLY]
    assert wrong == []


def test_the_web_app_is_seen_importing_its_framework() -> None:
    names = {name for _, name in _outside_imports(ROOT / "web" / "app.py")}
    assert "flask" in names
