"""Few functions ask which kind of deal they hold, counted by the syntax tree.

Everything above the engines plays, reads and draws a hand through the one hand interface
(:class:`herzla.hand.Hand`) and the one move (:class:`herzla.hand.Move`), or what the contract
declares.  Outside the kinds' packages (``herzla/kinds/``: each kind's engine, view and
:class:`~herzla.kinds.KindOfDeal`) and ``herzla/contracts/``, at most :data:`MOST` functions may
still ask the kind of a deal, directly
or by proxy (a fact read for the kind it betrays), each because what it does truly differs
there, each with a comment saying so.  A function is counted once however often it asks; code
outside any function counts as its module.

What the count sees (:func:`questions`):

- an ``isinstance`` on a class named ``Trick...`` or ``Layout...`` (an engine, a view, a contract
  base, a declaration's rules), alone, in a tuple or in a union;
- a ``cast`` to such a class (or its name as a string);
- a comparison of a ``.kind`` (``Contract.kind``) or of a ``DealKind`` member, but not of an
  evening's change (``"add"``, ``"edit"``, ``"drop"``) or its sheet (``Sheet.``);
- a dispatch by kind: a call of ``by_kind``;
- a fact read for the kind it betrays: a name or attribute ``has_layout``, ``has_tricks`` or
  ``is_layout``; ``has_passes`` kept in a name (or an attribute) that says ``layout`` or
  ``tricks``; ``row_rules``
  (or a name given it) compared with None; ``tricks_per_hand`` compared with 0 or read as a truth;
  a result's ``tricks`` compared with None.
"""

from __future__ import annotations

import ast
import functools

from tests import sources as shared

pytestmark = shared.GROUP

#: where the kinds are defined and played: each kind's package (its engine, view, marks and
#: :class:`herzla.kinds.KindOfDeal`) and the contracts that declare them
EXEMPT = ("kinds/", "contracts/")
#: the most functions that may ask: a ratchet, lowered as they go (47 when first counted by the
#: syntax tree, 38 before the kinds were packages of their own, 5 since; the aim was 6)
MOST = 5
#: the words of the comment (or docstring) that says why, in or just above each function
WHY = "question of kind"

#: the functions found asking without a comment saying why, when first counted by the syntax
#: tree: a list that may only shrink (a function that no longer asks must leave it); emptied when
#: each kind of deal became a package of its own (``herzla/kinds/``), but for one the count saw
#: later
UNEXPLAINED: set[str] = set()

_KIND_CLASS = ("Trick", "Layout")
_PROXY_NAMES = {"has_layout", "has_tricks", "is_layout"}
_NOT_A_DEAL = {"add", "edit", "drop"}


def _names(node: ast.expr) -> list[str]:
    """The class names an isinstance or cast names: alone, in a tuple, in a union."""
    if isinstance(node, ast.Tuple):
        return [n for e in node.elts for n in _names(e)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _names(node.left) + _names(node.right)
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value.strip("\"'").split(".")[-1]]
    return []


def _of_kind(names: list[str]) -> bool:
    return any(n.lstrip("_").startswith(_KIND_CLASS) for n in names)


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _is_zero(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value == 0 and node.value is not False


def _numpy_kind(node: ast.expr) -> bool:
    """``dtype.kind``: numpy's letter of an array's type, no kind of deal."""
    return isinstance(node, ast.Attribute) and (
        (isinstance(node.value, ast.Name) and node.value.id == "dtype")
        or (isinstance(node.value, ast.Attribute) and node.value.attr == "dtype"))


def _attr(node: ast.AST) -> str | None:
    return node.attr if isinstance(node, ast.Attribute) else None


def _asks(node: ast.AST, rows_names: set[str]) -> bool:
    """Whether ``node`` (itself, not its children) asks the kind of a deal."""
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else _attr(func)
        if name == "isinstance" and len(node.args) == 2:
            return _of_kind(_names(node.args[1]))
        if name == "cast" and node.args:
            return _of_kind(_names(node.args[0]))
        return name == "by_kind"
    if isinstance(node, ast.Compare):
        sides = [node.left, *node.comparators]
        if any(_attr(s) == "kind" and not _numpy_kind(s) for s in sides) or any(
                isinstance(s, ast.Attribute) and isinstance(s.value, ast.Name)
                and s.value.id == "DealKind" for s in sides):
            others = [s for s in sides if _attr(s) != "kind"]
            return not any((isinstance(s, ast.Constant) and s.value in _NOT_A_DEAL)
                           or (isinstance(s, ast.Attribute) and isinstance(s.value, ast.Name)
                               and s.value.id == "Sheet") for s in others)
        if any(_is_none(s) for s in sides) and any(
                _attr(s) in ("row_rules", "tricks") or (isinstance(s, ast.Name)
                                                        and s.id in rows_names)
                for s in sides):
            return True
        return any(_attr(s) == "tricks_per_hand" for s in sides) and any(
            _is_zero(s) for s in sides)
    if isinstance(node, ast.Attribute | ast.Name) and isinstance(node.ctx, ast.Load):
        name = node.attr if isinstance(node, ast.Attribute) else node.id
        return name in _PROXY_NAMES
    if isinstance(node, ast.FunctionDef) and node.name in _PROXY_NAMES:
        return True
    if isinstance(node, ast.Assign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        named = [t.id if isinstance(t, ast.Name) else t.attr for t in targets
                 if isinstance(t, ast.Name | ast.Attribute)]
        reads = {_attr(n) for n in ast.walk(node.value)} if node.value is not None else set()
        return "has_passes" in reads and any("layout" in n or "tricks" in n for n in named)
    if isinstance(node, ast.If | ast.IfExp | ast.While | ast.BoolOp | ast.UnaryOp):
        tests = [node.test] if isinstance(node, ast.If | ast.IfExp | ast.While) else (
            node.values if isinstance(node, ast.BoolOp) else
            [node.operand] if isinstance(node.op, ast.Not) else [])
        return any(_attr(t) == "tricks_per_hand" for t in tests)
    return False


@functools.cache  # each module is asked once a process, however many tests count it
def questions(path: str, text: str) -> list[tuple[str, int, str]]:
    """(path, line, function) of each function of one module that asks the kind of a deal
    (``<module>`` for code outside any function), once a function, at its first question."""
    tree = shared.parse(text)
    found: dict[str, int] = {}

    def visit(node: ast.AST, where: str, rows_names: set[str]) -> None:
        for child in ast.iter_child_nodes(node):
            inner, names = where, rows_names
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                if not isinstance(child, ast.Lambda):
                    inner = f"{where}.{child.name}" if where != "<module>" else child.name
                    names = {t.id for n in ast.walk(child) if isinstance(n, ast.Assign)
                             and _attr(n.value) == "row_rules"
                             for t in n.targets if isinstance(t, ast.Name)}
            elif isinstance(child, ast.ClassDef):
                inner = child.name if where == "<module>" else f"{where}.{child.name}"
            if _asks(child, rows_names):
                found.setdefault(inner, getattr(child, "lineno", 0))
            visit(child, inner, names)

    visit(tree, "<module>", set())
    return [(path, line, where) for where, line in sorted(found.items(), key=lambda x: x[1])]


def kind_questions(files: dict[str, str]) -> list[tuple[str, int, str]]:
    """Every function of ``files`` (path relative to herzla/: text) outside :data:`EXEMPT`
    that asks the kind of a deal."""
    out = []
    for path, text in sorted(files.items()):
        if not path.startswith(EXEMPT):
            out += questions(path, text)
    return out


def _herzla_files() -> dict[str, str]:
    return shared.sources()


def test_few_functions_ask_the_kind_of_a_deal() -> None:
    found = kind_questions(_herzla_files())
    assert len(found) <= MOST, "\n".join(f"{p}:{n}: {f}" for p, n, f in found)


def test_each_function_says_why_the_answer_differs() -> None:
    files = _herzla_files()
    found = kind_questions(files)
    for path, number, where in found:
        lines = files[path].splitlines()
        above = lines[max(0, number - 8):number]
        assert any(WHY in text for text in above) or f"{path}:{where}" in UNEXPLAINED, (
            f"{path}:{number}: {where}")
    assert {f"{p}:{w}" for p, _, w in found} >= UNEXPLAINED, "a function left: drop it"


def test_the_count_sees_each_question_and_proxy() -> None:
    planted = {
        "records.py": "def a(state):\n    if isinstance(state, TrickHand):\n        pass\n"
                      "    return isinstance(state, (int, LayoutView))\n",
        "sim/x.py": "def b(contract):\n    return contract.kind is DealKind.LAYOUT\n"
                    "def c(c):\n    return c.kind == 'layout'\n",
        "draw/y.py": "def d(view):\n    return view.by_kind(f, g)\n"
                     "def e(h):\n    return cast('LayoutHand', h)\n"
                     "def f(h):\n    return cast(TrickHand | None, h)\n",
        "evening/model.py": 'def g(last, run):\n    if last.kind == "add":\n        pass\n'
                            "    return run.kind is Sheet.MATCH\n",
        "contracts/base.py": "def h(self):\n    return isinstance(self, LayoutContract)\n",
        "kinds/tricks/engine.py":
            "def i(contract):\n    return isinstance(contract, TrickContract)\n",
        "openspiel/e.py": "def has_layout(game):\n    return True\n"
                          "def j(rules):\n    rows = rules.row_rules\n    if rows is None:\n"
                          "        return 1\n"
                          "def k(result):\n    return result.tricks is not None\n",
        "rl/t.py": "def l(rules):\n    layout = rules.has_passes\n    return layout\n"
                   "def l2(self, rules):\n    self.layout = rules.has_passes\n"
                   "def m(rules):\n    passes = rules.has_passes\n    return passes\n"
                   "def n(c):\n    return not c.tricks_per_hand\n"
                   "def o(c):\n    return c.tricks_per_hand == 0\n"
                   "def p(c):\n    return c.tricks_per_hand * 2\n"
                   "def q(x):\n    return x.has_tricks\n",
        "web/z.py": "SHOWN = isinstance(X, TrickView)\n",
    }
    found = [(p, f) for p, _, f in kind_questions(planted)]
    assert found == [("draw/y.py", "d"), ("draw/y.py", "e"), ("draw/y.py", "f"),
                     ("openspiel/e.py", "has_layout"), ("openspiel/e.py", "j"),
                     ("openspiel/e.py", "k"), ("records.py", "a"),
                     ("rl/t.py", "l"), ("rl/t.py", "l2"), ("rl/t.py", "n"), ("rl/t.py", "o"),
                     ("rl/t.py", "q"),
                     ("sim/x.py", "b"), ("sim/x.py", "c"), ("web/z.py", "<module>")]
