"""Few places ask which kind of deal a hand or a contract is.

Everything above the engines plays, reads and draws a hand through the one hand interface
(:class:`herzla.hand.Hand`, whose ``trick_place`` says where a card falls in a trick, if the deal
has tricks) or what the contract declares (``tallies``, the tallies its scorer reads;
``has_passes``, ``tricks_per_hand``, ``row_rules``, ``end_marks``, ``card_classes``,
``may_end_early``).  Outside the engines, the hand interface and ``herzla/contracts/``, at most
:data:`MOST` places may still ask the kind, directly or by proxy (:data:`PROXY`: a fact read for
the kind it betrays), counted together, each where the answer truly differs (a replay's tricks
or order, a view of tricks or of rows, the searches and the batch kernels that read their own
kind's state, the OpenSpiel table, the RL observation), each with a comment saying why.
"""

from __future__ import annotations

import re
from pathlib import Path

import herzla

ROOT = Path(herzla.__file__).parent

#: a question of kind: an isinstance on an engine, a contract base or a view, or a comparison of
#: a ``kind`` (``Contract.kind``) or a DealKind
KIND_CHECK = re.compile(r"isinstance\([^)]*(TrickHand|LayoutHand|LayoutContract|TrickContract"
                        r"|TrickView|LayoutView)|\.kind is|\.kind ==|DealKind\.")
#: comparisons of a ``kind`` that is not a deal's: an evening's change (add, edit, drop) and its
#: score sheet (a partie, a session, a match)
NOT_A_DEAL = re.compile(r"\.kind (==|is( not)?) (\"(add|edit|drop)\"|Sheet\.)")
#: where the kinds are defined and played
EXEMPT = ("tricks.py", "layout.py", "hand.py", "contracts/")
MOST = 6
#: the words of the comment (or docstring) that says why, just above each question
WHY = "question of kind"


def kind_checks(files: dict[str, str]) -> list[tuple[str, int, str]]:
    """(path, line number, line) of each question of kind in ``files`` (path: text)."""
    out = []
    for path, text in sorted(files.items()):
        if path.startswith(EXEMPT):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if KIND_CHECK.search(line) and not NOT_A_DEAL.search(line):
                out.append((path, number, line.strip()))
    return out


def _herzla_files() -> dict[str, str]:
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
            for p in ROOT.rglob("*.py")}


def test_few_places_ask_the_kind_of_a_deal() -> None:
    files = _herzla_files()
    found = kind_checks(files) + proxies(files)
    assert len(found) <= MOST, "\n".join(f"{p}:{n}: {line}" for p, n, line in found)


def test_each_place_says_why_the_answer_differs() -> None:
    files = _herzla_files()
    for path, number, line in kind_checks(files) + proxies(files):
        above = files[path].splitlines()[max(0, number - 7):number - 1]
        assert any(WHY in text for text in above), f"{path}:{number}: {line}"


def test_the_count_sees_a_question_of_kind() -> None:
    planted = {
        "records.py": "if isinstance(state, TrickHand):\n    pass\n",
        "sim/x.py": "layout = contract.kind is DealKind.LAYOUT\nok = c.kind == 'layout'\n",
        "draw/y.py": "assert isinstance(view, LayoutView)\n",
        "evening/model.py": 'if last.kind == "add":\n    pass\nif run.kind is Sheet.MATCH:\n',
        "contracts/base.py": "if isinstance(self, LayoutContract):\n",
        "tricks.py": "isinstance(contract, TrickContract)\n",
    }
    found = [(p, n) for p, n, _ in kind_checks(planted)]
    assert found == [("draw/y.py", 1), ("records.py", 1), ("sim/x.py", 1), ("sim/x.py", 2)]


#: a question of kind asked by proxy: a fact read for the kind it betrays (the rows there or not,
#: no tricks, a view of rows or tricks), not for what it says
PROXY = re.compile(r"\bis_layout\(|row_rules is (not )?None|(?<!assert )isinstance\([^)]*"
                   r"(TrickRules|LayoutRules)|declaration\.rows.*type: ignore"
                   r"|tricks_per_hand\s*(>|==|!=)\s*0|not [\w.]*tricks_per_hand\b"
                   r"|if [\w.]*tricks_per_hand:")


def proxies(files: dict[str, str]) -> list[tuple[str, int, str]]:
    """(path, line number, line) of each question of kind asked by proxy in ``files``."""
    out = []
    for path, text in sorted(files.items()):
        if path.startswith(EXEMPT):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if PROXY.search(line) and not line.lstrip().startswith("def "):
                out.append((path, number, line.strip()))
    return out


def test_the_count_sees_a_proxy() -> None:
    planted = {
        "web/page.py": "rows = c.row_rules is not None\nif is_layout(c):\n",
        "rl/x.py": "if not isinstance(d, TrickRules):\nassert isinstance(d, TrickRules)\n",
        "draw/z.py": "layout = not contract.tricks_per_hand\nn = c.tricks_per_hand\n",
        "contracts/base.py": "if self.row_rules is None:\n",
        "openspiel/e.py": "def is_layout(rules):\n",
    }
    found = [(p, n) for p, n, _ in proxies(planted)]
    assert found == [("draw/z.py", 1), ("rl/x.py", 1), ("web/page.py", 1), ("web/page.py", 2)]
