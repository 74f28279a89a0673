"""A third-party tester against the app's own description: schemathesis (the webtest extra)
runs its four phases (the description's examples, its coverage of every bound, fuzzing, and
stateful runs that follow the links from a new evening or table to the calls taking its id) with
a fixed seed and every check against a real ``herzla serve`` on loopback, and finds nothing
(``pytest -m web``; bounded to a few minutes on 2 cores).  tests/schemathesis.toml names the
calls whose 422 answers a rule JSON Schema cannot say (and why)."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_serve import HAS_WEB, needs_web, serving

if HAS_WEB:
    from herzla.web.openapi import document

pytestmark = [pytest.mark.web, needs_web]

CONFIG = Path(__file__).with_name("schemathesis.toml")
#: the requests each phase makes of one call, at most
EXAMPLES = 20
SEED = 1


def test_schemathesis_finds_nothing(tmp_path: Path) -> None:
    pytest.importorskip("schemathesis")
    proc, base = serving(tmp_path, "st.db")
    try:
        run = subprocess.run(
            [sys.executable, "-c", "from schemathesis.cli import schemathesis; schemathesis()",
             "--config-file", str(CONFIG), "--no-color", "run", f"{base}api/openapi.json",
             "--phases", "examples,coverage,fuzzing,stateful", "--checks", "all",
             "--seed", str(SEED), "--max-examples", str(EXAMPLES), "--workers", "1",
             "--request-timeout", "60"],
            capture_output=True, text=True, cwd=tmp_path, timeout=900, check=False)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
    summary = run.stdout[run.stdout.find("SUMMARY"):]
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-2000:]
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert f"✅ {phase}" in summary, summary
    # every call it selected was tested
    selected = re.search(r"Selected: (\d+)/(\d+)", summary)
    assert selected is not None and selected.group(1) == selected.group(2), summary
    assert f"Tested: {selected.group(1)}\n" in summary, summary
    assert int(selected.group(1)) >= len(document()["paths"]), summary
