"""Regenerate the outputs of the checked ``console`` examples in ``docs/*.md`` and ``README.md``.

The examples are the transcripts that ``tests/test_docs.py`` runs (read its docstring): this
script uses the same parser and runs each command the same way (in-process with click's
``CliRunner``, from the repository root, with herzla's own games only), then writes what the
command prints now under it.  The commands are kept as they are; every ``$ echo $?`` line is
rewritten with the exit code of the command before it, and one is added after a command that
exits non-zero without it.  ``no-check`` blocks and everything outside the console blocks are
left alone.

    python tools/update_docs.py            # rewrite the files, list the blocks that changed
    python tools/update_docs.py --check    # change nothing; exit 1 if some block is stale
    python tools/update_docs.py docs/herzla.md   # only these files

Read the diff afterwards (``git diff docs README.md``): a changed *number* is a finding, not an
update.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from click.testing import CliRunner  # noqa: E402

from herzla import contracts as registry  # noqa: E402
from herzla.cli import main  # noqa: E402
from tools.transcripts import (  # noqa: E402
    FENCE,
    Step,
    argv_of,
    clean,
    doc_files,
    fresh_folder,
    parse_blocks,
)

ECHO = "echo $?"


def builtin_registry() -> None:
    """Only herzla's own games, as the tests' ``builtin_registry`` fixture has them."""
    registry.builtin_only()


def run(step: Step) -> tuple[str, int]:
    """What a command prints (cleaned as the tests compare it) and its exit code."""
    args, stdin = argv_of(step)
    result = CliRunner().invoke(main, args, input=stdin, prog_name="herzla")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise RuntimeError(f"{step.where}: $ {step.command} raised "
                           f"{type(result.exception).__name__}: {result.exception}"
                           ) from result.exception
    return clean(result.output), result.exit_code


def transcript(steps: tuple[Step, ...], fresh: bool = False) -> str:
    """The body of a console block, its outputs as the commands print them now (``fresh``: run
    in a fresh folder, as a ``console tmp`` block is)."""
    if fresh:
        with tempfile.TemporaryDirectory() as folder:
            os.chdir(fresh_folder(Path(folder)))
            try:
                return transcript(steps)
            finally:
                os.chdir(ROOT)
    lines: list[str] = []
    last: int | None = None
    for step in steps:
        if step.command == ECHO:
            if last is not None:
                lines += [f"$ {ECHO}", str(last)]
            last = None
            continue
        if last not in (None, 0):  # a failing command not followed by echo $?
            lines += [f"$ {ECHO}", str(last)]
        out, last = run(step)
        lines.append(f"$ {step.command}")
        if out:
            lines += out.split("\n")
    if last not in (None, 0):
        lines += [f"$ {ECHO}", str(last)]
    return "\n".join(lines) + "\n"


def regenerate(path: Path) -> tuple[str, list[str]]:
    """One file's text with its checked console blocks regenerated, and the places (file:line)
    of the blocks that changed."""
    text = path.read_text(encoding="utf-8")
    blocks = iter(parse_blocks(path))
    changed: list[str] = []
    out: list[str] = []
    at = 0
    for m in FENCE.finditer(text):
        words = m.group("info").split()
        if not words or words[0] != "console":
            continue
        block = next(blocks)
        if not block.check:
            continue
        body = transcript(block.steps, block.fresh)
        if body != m.group("body"):
            changed.append(block.where)
            out += [text[at:m.start("body")], body]
            at = m.end("body")
    out.append(text[at:])
    return "".join(out), changed


def main_(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path,
                        help="Markdown files (default: docs/*.md and README.md)")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if some block's output is stale")
    opts = parser.parse_args(argv)
    files = [p.resolve() for p in opts.files] or doc_files()
    os.chdir(ROOT)  # the examples name their files from the repository root
    builtin_registry()
    stale: list[str] = []
    for path in files:
        new, changed = regenerate(path)
        stale += changed
        if changed and not opts.check:
            path.write_text(new, encoding="utf-8")
    verb = "stale" if opts.check else "rewritten"
    for where in stale:
        print(f"{verb}: {where}")
    print(f"{len(stale)} block(s) {verb}", file=sys.stderr)
    return 1 if opts.check and stale else 0


if __name__ == "__main__":
    sys.exit(main_())
