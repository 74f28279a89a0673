"""What several test files share: the command line run in this process, the one line its
errors must be, the worked cases' hand records, and a Herzla deal and hand to try things on."""

from __future__ import annotations

import os
import signal
import subprocess
from typing import Any

from click.testing import CliRunner, Result

from herzla.cli import main
from tests.conftest import load_cases

CASE_RECORDS = [c["record"] for _, c in load_cases() if isinstance(c["record"], dict)]
HERZLA = next(c for c in CASE_RECORDS if c["game"] == "herzla" and c["contract"] == "normal")
EIGHT = ["CJ", "CT", "C9", "S9", "S8", "HT", "D9", "D8"]
SCALE = int(os.environ.get("HERZLA_SLOW_SCALE", "1"))


def invoke(*args: str, stdin: str | bytes | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def one_error(result: Result, code: int = 2) -> str:
    assert result.exit_code == code, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("herzla: error: "), lines
    return lines[0]


def two_tricks_to_go() -> dict[str, Any]:
    rec = dict(HERZLA)
    rec["plays"] = list(HERZLA["plays"])[:24]  # two tricks to go: solved at once
    return rec


def at_a_terminal() -> None:
    """A child process's signals as at a terminal, whatever started the tests: Ctrl-C (SIGINT)
    interrupts it (a background job, ``cmd &`` or ``nohup``, starts its children ignoring it).
    Give it as ``preexec_fn`` to a process the test sends SIGINT."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server the test started (``herzla serve``): SIGTERM, a minute to end, then
    SIGKILL; its pipes are read to the end either way."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
