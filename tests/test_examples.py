"""The example records come with the package (issue 23): ``herzla example`` lists and writes
them, so that every ``--help`` example works outside a checkout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from herzla import examples
from herzla.cli import COMMANDS, main

ROOT = Path(__file__).parents[1]
DOCS = ROOT / "docs" / "examples"
PACKAGED = ROOT / "herzla" / "examples"


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin, prog_name="herzla")


def test_the_packaged_examples_are_the_docs_examples() -> None:
    """One set of examples, kept once: each file the docs name is a link to the package's."""
    packaged = sorted(p.name for p in PACKAGED.glob("*.json"))
    assert packaged == sorted(p.name for p in DOCS.glob("*.json"))
    for name in packaged:
        assert (DOCS / name).is_symlink(), name
        assert (DOCS / name).resolve() == (PACKAGED / name).resolve(), name
    assert examples.names() == sorted(n.removesuffix(".json") for n in packaged)


def test_listing_has_a_line_each() -> None:
    res = run("example")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert [line.split()[0] for line in lines] == examples.names()
    two_void = next(x for x in lines if x.startswith("herzla-two-void "))
    assert two_void.split(None, 1)[1] == ("herzla normal, 4 players, 32 plays: scores +40c -30c "
                                          "-50c +40c")
    assert any("malformed on purpose" in x for x in lines)


@pytest.mark.parametrize("name", examples.names())
def test_each_example_is_written_as_its_file(name: str) -> None:
    res = run("example", name.upper())
    assert res.exit_code == 0, res.output
    assert res.stdout == (DOCS / f"{name}.json").read_text(encoding="utf-8")
    json.loads(res.stdout)


def test_an_example_pipes_into_every_record_command() -> None:
    record = run("example", "herzla-two-void").stdout
    trick6 = run("example", "herzla-two-void-trick6").stdout
    for args, stdin in ((["replay", "-"], record), (["show", "-"], record),
                        (["review", "-"], trick6), (["solve", "-", "--seat", "2"], trick6)):
        res = run(*args, stdin=stdin)
        assert res.exit_code == 0, (args, res.output)


def test_a_typo_gets_a_suggestion() -> None:
    res = run("example", "herzla-to-void")
    assert res.exit_code == 2 and res.stdout == ""
    assert res.stderr.startswith('herzla: error: unknown example "herzla-to-void" (did you mean '
                                 "herzla-two-void")


def test_output_file(tmp_path: Path) -> None:
    target = tmp_path / "hand.json"
    target.write_text("old", encoding="utf-8")
    res = run("example", "kids-match", "-o", str(target))
    assert res.exit_code == 0, res.output
    assert target.read_text(encoding="utf-8") == (DOCS / "kids-match.json").read_text(
        encoding="utf-8")
    assert res.stdout == f"Wrote the example kids-match to {target}.\n"
    assert list(tmp_path.iterdir()) == [target]  # no temporary file left beside it
    res = run("example", "kids-match", "-o", "-")
    assert json.loads(res.stdout)[0]["game"] == "herzla-kids"
    assert res.stderr == "Wrote the example kids-match to standard output.\n"
    res = run("example", "kids-match", "-o", str(tmp_path / "no" / "such.json"))
    assert res.exit_code == 2 and "no such folder" in res.stderr
    res = run("example", "-o", str(target))
    assert res.exit_code == 2 and "give its NAME" in res.stderr


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_no_help_names_a_checkout_path(command: str) -> None:
    res = run(command, "--help")
    assert res.exit_code == 0
    assert "docs/examples" not in res.stdout


def test_record_help_examples_use_herzla_example() -> None:
    for command in ("replay", "show", "solve", "review"):
        assert "herzla example " in run(command, "--help").stdout, command
