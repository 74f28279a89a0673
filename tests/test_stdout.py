"""An output file on standard output has it to itself (issue 23): the picture, the page or the
records parse, and every message and answer goes to standard error then."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from herzla.cli import main

EXAMPLES = Path(__file__).parents[1] / "docs" / "examples"
TWO_VOID = str(EXAMPLES / "herzla-two-void.json")
SESSION = str(EXAMPLES / "herzla-session.json")


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), prog_name="herzla")


def is_page(text: str) -> bool:
    return text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>") and \
        text.count("<!DOCTYPE") == 1


@pytest.mark.parametrize("target", ["-", "/dev/stdout"])
@pytest.mark.parametrize("record", [TWO_VOID, SESSION])
def test_show_svg_on_stdout_is_the_picture_alone(target: str, record: str) -> None:
    res = run("show", record, "--svg", target)
    assert res.exit_code == 0, res.output
    root = ET.fromstring(res.stdout)  # the picture parses: nothing else is in the stream
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    where = "standard output" if target == "-" else target
    assert res.stderr.strip() == f"Wrote the picture to {where}."


def test_show_html_on_stdout_is_the_page_alone() -> None:
    res = run("show", TWO_VOID, "--html", "-")
    assert res.exit_code == 0, res.output
    assert is_page(res.stdout)
    assert res.stderr.strip() == "Wrote the page to standard output."


def test_show_a_file_beside_stdout_keeps_the_message_on_stdout(tmp_path: Path) -> None:
    res = run("show", TWO_VOID, "--svg", str(tmp_path / "a.svg"))
    assert res.exit_code == 0 and res.stdout == f"Wrote the picture to {tmp_path / 'a.svg'}.\n"


def test_two_outputs_on_stdout_are_refused(tmp_path: Path) -> None:
    res = run("show", TWO_VOID, "--svg", "-", "--html", "/dev/stdout")
    assert res.exit_code == 2 and res.stdout == ""
    assert "--svg and --html cannot both write to standard output" in res.stderr
    res = run("simulate", "herzla", "-n", "10", "--seed", "1", "--sample", "2", "--sample-out",
              "-", "--plot", "-")
    assert res.exit_code == 2 and res.stdout == ""
    assert "--sample-out and --plot cannot both write to standard output" in res.stderr


@pytest.mark.parametrize("record", [TWO_VOID, SESSION])
def test_replay_html_on_stdout_sends_the_answer_to_stderr(record: str) -> None:
    res = run("replay", record, "--html", "-")
    assert res.exit_code == 0, res.output
    assert is_page(res.stdout)
    assert "Scores:" in res.stderr or "total" in res.stderr
    plain = run("replay", record)
    assert res.stderr == plain.stdout  # the same answer, on the other stream


def test_replay_json_and_html_on_stdout() -> None:
    res = run("replay", TWO_VOID, "--json", "--html", "-")
    assert res.exit_code == 0, res.output
    assert is_page(res.stdout)
    assert json.loads(res.stderr)["scores"] == [40, -30, -50, 40]


def test_replay_json_alone_parses() -> None:
    res = run("replay", TWO_VOID, "--json")
    assert res.exit_code == 0 and json.loads(res.stdout)["complete"] is True
    assert res.stderr == ""


def test_simulate_sample_on_stdout_are_records_alone() -> None:
    res = run("simulate", "herzla", "-n", "20", "--seed", "1", "--jobs", "1", "--sample", "3",
              "--sample-out", "-", "--json")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert len(lines) == 3 and all(json.loads(x)["game"] == "herzla" for x in lines)
    assert json.loads(res.stderr)["hands"] == 20


def test_rules_json_parses() -> None:
    res = run("rules", "herzla", "beddl", "--json")
    assert res.exit_code == 0 and json.loads(res.stdout)["game"] == "herzla"


@pytest.mark.parametrize("args", [
    ["deal", "herzla", "--seed", "1"],
    ["score", "herzla", "normal", "--hearts", "0,3,5,0", "--json"],
    ["solve", str(EXAMPLES / "herzla-two-void-trick6.json"), "--seat", "2", "--json",
     "--jobs", "1"],
    ["review", str(EXAMPLES / "herzla-two-void-trick6.json"), "--json"],
    ["match", "herzla", "--policies", "random,heuristic", "--contract", "normal", "--deals",
     "4", "--seed", "1", "--jobs", "1", "--json"],
    ["simulate", "herzla", "-n", "20", "--seed", "1", "--jobs", "1", "--json"],
    ["example", "herzla-session"],
])
def test_every_json_answer_is_standard_output_alone(args: list[str]) -> None:
    res = run(*args)
    assert res.exit_code == 0, res.output
    json.loads(res.stdout)
    assert all(line.startswith("herzla: note: ") for line in res.stderr.splitlines())


# -- a closed pipe, a full disk ---------------------------------------------------------------
def test_an_answer_to_a_full_disk() -> None:
    with open("/dev/full", "wb") as full:
        out = subprocess.run([sys.executable, "-m", "herzla", "rules", "herzla"], stdout=full,
                             stderr=subprocess.PIPE, timeout=60, check=False)
    assert out.returncode == 2
    assert out.stderr.decode().strip() == \
        "herzla: error: cannot write the answer: No space left on device"
