"""The transcripts of the documentation: the ``console`` blocks of ``docs/*.md`` and the
README, parsed into the commands and the output written under each (``tests/test_docs.py`` runs
them; ``tools/update_docs.py`` writes their output anew).  The format is described in
``tests/test_docs.py``."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import attrs
from click.testing import CliRunner

from herzla.cli import main

__all__ = ["FENCE", "ROOT", "Block", "Step", "all_blocks", "argv_of", "clean", "doc_files",
           "fresh_folder", "parse_blocks"]

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```(?P<info>[^\n`]*)\n(?P<body>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


@attrs.frozen
class Step:
    """One ``$`` line of a transcript and the output written under it."""

    where: str
    command: str
    expected: str


@attrs.frozen
class Block:
    where: str
    check: bool
    steps: tuple[Step, ...]
    fresh: bool = False


def fresh_folder(into: Path) -> Path:
    """``into`` made the folder a ``console tmp`` block runs in: ``docs`` linked into it."""
    (into / "docs").symlink_to(ROOT / "docs", target_is_directory=True)
    return into


def doc_files() -> list[Path]:
    files = sorted((ROOT / "docs").glob("*.md"))
    readme = ROOT / "README.md"
    return [*files, readme] if readme.exists() else files


def clean(text: str) -> str:
    lines = [line.rstrip() for line in text.rstrip("\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def parse_blocks(path: Path) -> list[Block]:
    """The console blocks of one Markdown file."""
    text = path.read_text(encoding="utf-8")
    blocks = []
    for m in FENCE.finditer(text):
        words = m.group("info").split()
        if not words or words[0] != "console":
            continue
        line_no = text.count("\n", 0, m.start()) + 1
        where = f"{path.relative_to(ROOT)}:{line_no}"
        steps: list[Step] = []
        command: str | None = None
        out: list[str] = []
        for i, line in enumerate(m.group("body").split("\n")):
            if line.startswith("$ "):
                if command is not None:
                    steps.append(Step(f"{where}+{i}", command, clean("\n".join(out))))
                command, out = line[2:].strip(), []
            elif command is None:
                if line.strip():
                    raise AssertionError(f"{where}: output before the first '$' command")
            else:
                out.append(line)
        if command is not None:
            steps.append(Step(f"{where}+end", command, clean("\n".join(out))))
        blocks.append(Block(where, "no-check" not in words[1:], tuple(steps),
                            "tmp" in words[1:]))
    return blocks


def all_blocks() -> list[Block]:
    return [b for p in doc_files() for b in parse_blocks(p)]


def argv_of(step: Step) -> tuple[list[str], str | None]:
    """The arguments after ``herzla``, and the standard input from ``< FILE`` if any, or from
    the commands before a ``|`` (each run as the last one is, its standard output piped)."""
    words = shlex.split(step.command)
    assert words and words[0] == "herzla", f"{step.where}: a command must start with 'herzla'"
    stdin = None
    if "|" in words:
        at = len(words) - 1 - words[::-1].index("|")
        before = Step(step.where, shlex.join(words[:at]), "")
        args, given = argv_of(before)
        piped = CliRunner().invoke(main, args, input=given, prog_name="herzla")
        assert piped.exit_code == 0, f"{step.where}: {before.command} failed: {piped.output}"
        rest = words[at + 1:]
        assert rest and rest[0] == "herzla", f"{step.where}: pipe into a 'herzla' command"
        assert "<" not in rest, f"{step.where}: a piped command takes no '< FILE'"
        return rest[1:], piped.stdout
    if "<" in words:
        at = words.index("<")
        assert at == len(words) - 2, f"{step.where}: write '< FILE' at the end"
        stdin = (ROOT / words[-1]).read_text(encoding="utf-8")
        words = words[:at]
    return words[1:], stdin
