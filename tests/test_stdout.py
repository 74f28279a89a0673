"""An output file on standard output has it to itself (issue 23): the picture, the page or the
records parse, and every message and answer goes to standard error then.  Records sent to
standard output or error, or to a descriptor the shell opened, arrive whole and keep out of the
answer; a pipe its reader has closed ends a command quietly, a full disk is one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from herzla.cli import main
from tests.helpers import EIGHT, HERZLA

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
    pytest.param(["review", str(EXAMPLES / "herzla-two-void-trick6.json"), "--json"],
                 marks=pytest.mark.slow),
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


# -- records to standard output, standard error or a descriptor the shell opened --------------
SAMPLE = f"{sys.executable} -m herzla simulate herzla --hands 300 --seed 2 --jobs 1 --sample 3"


def _shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, text=True,
                          timeout=120, check=False)


def _records_in(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


@pytest.mark.parametrize("name", ["/dev/stdout", pytest.param("/dev/fd/1", marks=pytest.mark.slow),
                                  "/proc/self/fd/1", pytest.param("link", marks=pytest.mark.slow)])
def test_sample_out_to_standard_output_appended_by_the_shell(tmp_path: Path, name: str) -> None:
    (tmp_path / "link").symlink_to("/dev/stdout")
    out = tmp_path / "out.txt"
    out.write_text("kept\n")
    done = _shell(f"{SAMPLE} --sample-out {name} >> out.txt", tmp_path)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert text.startswith("kept\n")
    assert len(_records_in(text)) == 3
    assert "Wrote 3 hand records" in done.stderr  # the answer keeps out of the records
    assert (tmp_path / "link").is_symlink()


def test_sample_out_to_standard_error_appended_by_the_shell(tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    log.write_text("kept\n")
    done = _shell(f"{SAMPLE} --sample-out /dev/stderr 2>> log.txt", tmp_path)
    assert done.returncode == 0
    text = log.read_text()
    assert text.startswith("kept\n") and len(_records_in(text)) == 3
    assert "Wrote 3 hand records to /dev/stderr" in done.stdout


def test_sample_out_into_a_pipe_the_shell_opened(tmp_path: Path) -> None:
    done = _shell(f"{SAMPLE} --sample-out >(cat > piped.txt) > answer.txt; wait", tmp_path)
    assert done.returncode == 0, done.stderr
    for _ in range(100):  # the process substitution may finish after the command
        if len(_records_in((tmp_path / "piped.txt").read_text())) == 3:
            break
        time.sleep(0.1)
    assert len(_records_in((tmp_path / "piped.txt").read_text())) == 3
    assert "Wrote 3 hand records" in (tmp_path / "answer.txt").read_text()


def test_sample_out_dash_is_standard_output(tmp_path: Path) -> None:
    done = _shell(f"{SAMPLE} --sample-out - | {sys.executable} -m herzla replay - --json",
                  tmp_path)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 3 and all(a["game"] == "herzla" for a in answers)
    assert "Wrote 3 hand records to standard output" in done.stderr
    assert list(tmp_path.iterdir()) == []  # no file named "-"


def test_sample_out_to_a_closed_descriptor(tmp_path: Path) -> None:
    done = _shell(f"{SAMPLE} --sample-out /dev/fd/7", tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == \
        "herzla: error: --sample-out /dev/fd/7: file descriptor 7 is not open"


# -- a closed pipe, a full disk ---------------------------------------------------------------
def _into_a_closed_pipe(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """Run herzla with standard output a pipe nobody reads any more (as ``| head -1`` leaves
    it once head is done): its every write fails with EPIPE."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([sys.executable, "-m", "herzla", *args], stdout=write,
                              stderr=subprocess.PIPE, input=stdin, timeout=300, check=False)
    finally:
        os.close(write)


def _slow(*args: str) -> Any:
    return pytest.param(list(args), marks=pytest.mark.slow)


@pytest.mark.parametrize("args", [
    ["replay", TWO_VOID], _slow("replay", TWO_VOID, "--json"), _slow("replay", SESSION),
    ["replay", "-"], _slow("solve", TWO_VOID, "--seat", "0"),
    ["solve", "-", "--seat", "0", "--json"],
    ["rules", "herzla"], _slow("rules", "herzla", "--json"), _slow("deal", "herzla", "--seed", "1"),
    _slow("score", "herzla", "normal", "--hearts", "0,3,5,0"),
    _slow("simulate", "herzla", "--hands", "100", "--seed", "1", "--jobs", "1"),
    ["simulate", "herzla", "--hands", "100", "--seed", "1", "--jobs", "1", "--sample", "5",
     "--sample-out", "-"],
    _slow("advise", "herzla", "--hand", " ".join(EIGHT), "--samples", "1", "--jobs", "1",
          "--only", "beddl"),
    ["--help"], _slow("--version"), _slow("replay", "--help"),
])
def test_a_closed_pipe_ends_quietly_with_success(args: list[str]) -> None:
    lines = "\n".join([json.dumps(HERZLA)] * 50).encode()
    out = _into_a_closed_pipe(*args, stdin=lines)
    assert out.returncode == 0, out.stderr
    assert out.stderr == b""


def test_an_answer_to_a_full_disk() -> None:
    with open("/dev/full", "wb") as full:
        out = subprocess.run([sys.executable, "-m", "herzla", "rules", "herzla"], stdout=full,
                             stderr=subprocess.PIPE, timeout=60, check=False)
    assert out.returncode == 2
    assert out.stderr.decode().strip() == \
        "herzla: error: cannot write the answer: No space left on device"
