"""The documentation site (mkdocs.yml): its pages, the API reference of ``herzla.__all__``,
the help texts that name its pages, and ``help(herzla)``."""

from __future__ import annotations

import ast
import pydoc
import re
from pathlib import Path

import herzla
from tests import sources as shared

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def nav() -> dict[str, str]:
    """The site's pages: their titles in the navigation, to their files."""
    out = {}
    for line in (ROOT / "mkdocs.yml").read_text(encoding="utf-8").splitlines():
        m = re.fullmatch(r"\s*- ([^:]+): (\S+\.md)", line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def test_every_page_of_docs_is_on_the_site() -> None:
    pages = nav()
    assert set(pages.values()) == {p.relative_to(DOCS).as_posix() for p in DOCS.glob("**/*.md")}
    assert all((DOCS / f).is_file() for f in pages.values())


def test_the_reference_holds_every_public_name_with_an_example() -> None:
    """Each name of ``__all__`` in order, its entry drawn from the docstrings and followed by an
    example (a doctest: the page runs with the tests)."""
    text = (DOCS / "reference.md").read_text(encoding="utf-8")
    entries = re.findall(r"^::: herzla\.(\w+)\n\n```python\n>>> ", text, re.M)
    assert entries == list(herzla.__all__)


def _python_strings() -> list[tuple[str, str]]:
    """Every string constant of herzla's modules (help texts, docstrings), with its file."""
    out = []
    for path, tree in shared.trees().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                out.append((f"herzla/{path}", node.value))
    return out


@shared.GROUP
def test_help_texts_name_pages_of_the_site_not_files_the_wheel_lacks() -> None:
    """A file of docs/ is not in the wheel: a text names the page of the site instead, by its
    title in the site's navigation."""
    titles = set(nav())
    named = 0
    for where, text in _python_strings():
        flat = " ".join(text.split())
        assert not re.search(r"docs/[\w-]+\.md", flat), where
        for title in re.findall(r"[Tt]he ([A-Z][\w ]*?) page of the docs", flat):
            assert title in titles, (where, title)
            named += 1
    assert named >= 40


def test_help_herzla_lists_no_private_alias() -> None:
    text = pydoc.plain(pydoc.render_doc(herzla))
    assert not re.findall(r"^\s+_[a-zA-Z]\w*( = |$)", text, re.M)  # dunders aside
    for name in ("simulate", "Card", "deal_record"):
        assert re.search(rf"^\s+(class )?{name}\b", text, re.M), name
