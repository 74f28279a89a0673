"""Every Python example of the documentation passes ``mypy --strict`` (issue 53): the
```` ```python ```` blocks of ``docs/*.md``, ``docs/de/*.md`` and the README, typed as a reader's
own program would be.

A page's doctests (``>>>``) are one program, in the order of the page, as its doctest runs them;
a block without ``>>>`` is a program of its own (a module a reader writes, or the file a
```` ```python file=PATH ```` block shows).  mypy reads them all in one run, with the
project's settings (pyproject.toml) and the plug-in the plug-in page writes on its path
(``tests/plugins``), and takes a while: the slow set runs it (CI does)."""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tools.transcripts import FENCE, ROOT


def doc_pages() -> list[Path]:
    """The pages whose examples are checked: docs/, docs/de/ and the README."""
    return [*sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "de").glob("*.md")),
            ROOT / "README.md"]


def programs(page: Path) -> dict[str, str]:
    """The Python programs of one page, each named as a module: ``docs_api`` for the page's
    doctests, ``docs_plugins_212`` for the block at line 212."""
    text = page.read_text(encoding="utf-8")
    stem = re.sub(r"\W", "_", page.relative_to(ROOT).with_suffix("").as_posix())
    out: dict[str, str] = {}
    doctests: list[str] = []
    parser = doctest.DocTestParser()
    for m in FENCE.finditer(text):
        if m.group("info").split()[:1] != ["python"]:
            continue
        body = m.group("body")
        examples = parser.get_examples(body)
        if examples:
            doctests += [e.source for e in examples]
        else:
            out[f"{stem}_{text.count(chr(10), 0, m.start()) + 1}"] = body
    if doctests:
        out[stem] = "".join(doctests)
    return out


def test_the_programs_are_found() -> None:
    """The reader of the blocks sees doctests and whole programs (the test would pass
    vacuously otherwise)."""
    every = {name: code for page in doc_pages() for name, code in programs(page).items()}
    assert {"docs_reference", "docs_api", "docs_policies", "README"} <= set(every)
    assert "def declare(self) -> TrickRules:" in every["docs_plugins_151"]
    assert every["docs_policies"].count("\n") > 20
    assert not any(">>>" in code for code in every.values())


@pytest.mark.slow
def test_every_python_example_passes_mypy_strict(tmp_path: Path) -> None:
    names = []
    for page in doc_pages():
        for name, code in programs(page).items():
            (tmp_path / f"{name}.py").write_text(code, encoding="utf-8")
            names.append(f"{name}.py")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                           "--config-file", str(ROOT / "pyproject.toml"), *names],
                          cwd=tmp_path, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "MYPYPATH": str(ROOT / "tests" / "plugins")})
    assert done.returncode == 0, done.stdout
