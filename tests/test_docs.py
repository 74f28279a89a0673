"""The command-line examples of the documentation run as tests.

Every fenced block whose info string starts with ``console`` in ``docs/*.md`` and ``README.md``
is a transcript: lines starting with ``$ herzla`` are commands, the lines after each command
(up to the next ``$``) are its exact output (standard output and error as a terminal shows them;
trailing spaces and trailing blank lines are not compared).  The commands run in-process through
click's ``CliRunner``, from the repository root, so example files are named like
``docs/examples/herzla-two-void.json``.

- ``$ herzla ... < FILE`` feeds FILE to standard input (for ``herzla replay -``), and
  ``$ herzla A | herzla B`` the standard output of ``herzla A``.
- ``$ echo $?`` prints the exit code of the command before it.  A command that exits non-zero must
  be followed by ``$ echo $?``, so no example fails silently.
- A block opened with ```` ```console no-check ```` is not run (``herzla simulate`` examples, whose
  numbers depend on the engine and the machine); its commands are still parsed by the real
  command, so an option the command does not have, or a value of the wrong kind, fails the test.
- A block opened with ```` ```console tmp ```` runs in a fresh empty folder holding only a link
  ``docs`` to the documentation (so ``docs/examples/...`` are still found): the files its
  commands write (``herzla pad new evening.json``) go nowhere, and it starts from nothing.

Python examples are ``>>>`` doctests, collected by pytest itself (``--doctest-glob=*.md``); a
```` ```python file=PATH ```` block must show the file PATH exactly.

Claims of how long something takes stand next to how they were measured, and the README's
``herzla advise`` examples are short enough to run as written.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from herzla.analysis.advise import DEFAULT_EXACT
from herzla.cli import main
from tools.transcripts import (
    FENCE,
    ROOT,
    Block,
    all_blocks,
    argv_of,
    clean,
    doc_files,
    fresh_folder,
    parse_blocks,
)

BLOCKS = all_blocks()


pytestmark = pytest.mark.usefixtures("builtin_registry")


def test_the_docs_have_console_examples() -> None:
    names = {b.where.split(":")[0] for b in BLOCKS}
    for name in ("docs/herzla.md", "docs/herzla-kids.md", "docs/herzeln.md", "docs/herzerln.md",
                 "docs/hand-records.md", "docs/cli.md"):
        assert name in names, f"{name} has no console example"


def _heavy(block: Block) -> bool:
    """A transcript that samples and solves many deals (``herzla advise``): the slow set runs
    it; the default set checks that it parses (:func:`test_unchecked_examples_parse`)."""
    return any(step.command.startswith("herzla advise") for step in block.steps)


@pytest.mark.parametrize("block", [
    pytest.param(b, id=b.where, marks=[pytest.mark.slow] if _heavy(b) else [])
    for b in BLOCKS if b.check])
def test_console_example(block: Block, monkeypatch: pytest.MonkeyPatch,
                         tmp_path: Path) -> None:
    monkeypatch.chdir(fresh_folder(tmp_path) if block.fresh else ROOT)
    runner = CliRunner()
    last: int | None = None
    for step in block.steps:
        if step.command == "echo $?":
            assert last is not None, f"{step.where}: 'echo $?' needs a command before it"
            assert step.expected == str(last), (
                f"{step.where}: exit code {last}, the example says {step.expected}")
            last = None
            continue
        assert last in (None, 0), f"{step.where}: the command before exited {last}; " \
                                  f"follow it with '$ echo $?'"
        args, stdin = argv_of(step)
        result = runner.invoke(main, args, input=stdin, prog_name="herzla")
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        got = clean(result.output)
        assert got == step.expected, (
            f"{step.where}: $ {step.command}\n--- expected\n{step.expected}\n--- got\n{got}")
        last = result.exit_code
    assert last in (None, 0), f"{block.where}: the last command exited {last}; " \
                              f"follow it with '$ echo $?'"


@pytest.mark.parametrize("block", [b for b in BLOCKS if not b.check or _heavy(b)],
                         ids=lambda b: b.where)
def test_unchecked_examples_parse(block: Block) -> None:
    """``no-check`` commands are not run (nor, in the default set, the heavy ones), but the real
    command must accept their arguments."""
    for step in block.steps:
        if step.command == "echo $?":
            continue
        args, _ = argv_of(step)
        assert args, f"{step.where}: no command"
        with click.Context(main, info_name="herzla") as ctx:
            cmd = main.get_command(ctx, args[0])
        assert cmd is not None, f"{step.where}: no command {args[0]!r}"
        try:
            cmd.make_context(args[0], list(args[1:]))
        except click.UsageError as exc:
            raise AssertionError(f"{step.where}: $ {step.command}: {exc}") from None


def test_file_blocks_match_their_files() -> None:
    """A block opened with ```` ```python file=PATH ```` shows PATH exactly as it is."""
    seen = 0
    for path in doc_files():
        for m in FENCE.finditer(path.read_text(encoding="utf-8")):
            named = [w.partition("=")[2] for w in m.group("info").split() if w.startswith("file=")]
            if named:
                seen += 1
                shown = (ROOT / named[0]).read_text(encoding="utf-8")
                assert m.group("body") == shown, f"{path.name}: the block of {named[0]} differs"
    assert seen


def test_the_transcript_parser() -> None:
    path = ROOT / "docs" / "cli.md"
    if not path.exists():
        pytest.skip("no docs/cli.md")
    blocks = parse_blocks(path)
    assert all(s.command for b in blocks for s in b.steps)


def sh_commands() -> list[tuple[str, str]]:
    """Every ``herzla`` command in the README's ``sh`` blocks: (where, command line)."""
    path = ROOT / "README.md"
    text = path.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        if m.group("info").split()[:1] != ["sh"]:
            continue
        line_no = text.count("\n", 0, m.start()) + 1
        for i, line in enumerate(m.group("body").splitlines(), 1):
            for part in line.split("&&"):
                words = shlex.split(part, comments=True)
                if words and words[0] == "herzla":
                    out.append((f"README.md:{line_no + i}", part.split("#")[0].strip()))
    return out


#: README commands that play many hands or solve many deals: run in the slow set only (the
#: default set checks that they parse)
HEAVY = ("herzla simulate", "herzla advise", "herzla match")


#: README commands that serve until they are stopped (``herzla serve``): they are parsed, and
#: tests/test_serve.py runs a server
SERVES = ("herzla serve",)


def _readme_params() -> list[Any]:
    return [pytest.param(where, command, id=where,
                         marks=[pytest.mark.slow] if command.startswith(HEAVY) else [])
            for where, command in sh_commands() if not command.startswith(SERVES)]


def test_the_readme_starts_the_table_app() -> None:
    assert any(command.startswith(SERVES) for _, command in sh_commands())


@pytest.mark.parametrize(("where", "command"), sh_commands(), ids=[w for w, _ in sh_commands()])
def test_readme_commands_parse(where: str, command: str) -> None:
    """Every README command is accepted by the real command (quick; the heavy ones run in the
    slow set)."""
    words = shlex.split(command)
    if ">" in words:
        words = words[:words.index(">")]
    for piped in _pipeline(words):
        assert piped[0] == "herzla", f"{where}: $ {command}: pipe into a herzla command"
        with click.Context(main, info_name="herzla") as ctx:
            cmd = main.get_command(ctx, piped[1])
        assert cmd is not None, f"{where}: no command {piped[1]!r}"
        try:
            cmd.make_context(piped[1], piped[2:])
        except click.UsageError as exc:
            raise AssertionError(f"{where}: $ {command}: {exc}") from None


def _pipeline(words: list[str]) -> list[list[str]]:
    """The commands of ``A | B | ...``."""
    out: list[list[str]] = [[]]
    for word in words:
        if word == "|":
            out.append([])
        else:
            out[-1].append(word)
    return out


@pytest.mark.parametrize(("where", "command"), _readme_params())
def test_readme_commands_run(where: str, command: str, tmp_path: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's commands work as shown (from a folder holding the repository's docs and
    tests, where ``> FILE`` writes FILE)."""
    for name in ("docs", "tests"):
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    words = shlex.split(command)
    target = None
    if ">" in words:
        at = words.index(">")
        target, words = words[at + 1], words[:at]
    stdin = None
    for piped in _pipeline(words):
        result = CliRunner().invoke(main, piped[1:], input=stdin, prog_name="herzla")
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        assert result.exit_code == 0, f"{where}: $ {command}\n{result.output}"
        stdin = result.stdout
    if target is not None:
        (tmp_path / target).write_text(result.stdout, encoding="utf-8")


# -- timing claims stand next to how they were measured ---------------------------------------
TIMING = re.compile(r"\b(?:about|around|roughly|under|in)\s+(?:a|an|half a|\d[\d.,]*)\s+"
                    r"(?:million|seconds?|minutes?|hours?)\b", re.IGNORECASE)


def _paragraphs() -> list[tuple[str, str]]:
    out = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for para in path.read_text(encoding="utf-8").split("\n\n"):
            out.append((path.name, para))
    return out


def test_timing_claims_say_how_they_were_measured() -> None:
    unmeasured = [(name, claim) for name, para in _paragraphs() for claim in TIMING.findall(para)
                  if "measured" not in para and "benchmarks" not in para]
    assert not unmeasured


def test_readme_advise_examples_are_short() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith("herzla advise"):
            samples = int(re.search(r"--samples (\d+)", line).group(1))  # type: ignore[union-attr]
            exact = re.search(r"--exact-samples (\d+)", line)
            searched = min(samples, int(exact.group(1)) if exact else DEFAULT_EXACT)
            weighs_normal = "--only" not in line or "--only normal" in line
            # pure Python (no numba in the README's install): a made/lost exact search costs
            # tens of milliseconds, a normal-game one hundreds; strong play and the heuristic
            # a millisecond or so a sample
            assert samples <= 400, line
            assert searched <= (DEFAULT_EXACT if weighs_normal else 100), line
