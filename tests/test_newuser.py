"""What a new user tripped on (issue 14): each case fails without its fix."""

from __future__ import annotations

import pydoc
import re

import pytest
from click.testing import CliRunner

import herzla
from herzla.cli import main


# -- the package namespace --------------------------------------------------------------------
def test_dir_lists_the_lazy_names() -> None:
    names = dir(herzla)
    for name in ("simulate", "solve", "advise", "SimResult", "SolveResult", "AdviceResult"):
        assert name in names
    assert "Any" not in names and "TYPE_CHECKING" not in names
    assert not hasattr(herzla, "Any") and not hasattr(herzla, "TYPE_CHECKING")


def test_help_shows_the_lazy_functions() -> None:
    text = pydoc.render_doc(herzla, renderer=pydoc.plaintext)
    for name in ("simulate", "solve", "advise"):
        assert f"{name}(" in text


# -- simulate --jobs: the note and the summary agree -------------------------------------------
@pytest.mark.parametrize("hands", ["1000", "300000"])
def test_jobs_note_agrees_with_summary(hands: str) -> None:
    from herzla.sim.api import default_jobs

    res = CliRunner().invoke(main, ["simulate", "herzla", "--hands", hands, "--seed", "1",
                                    "--jobs", "1000", "--no-progress"])
    assert res.exit_code == 0, res.output
    note = re.search(r"playing on (\d+)", res.stderr)
    summary = re.search(r"(\d+) process(?:es)?\)", res.stdout)
    assert note is not None and summary is not None
    assert note.group(1) == summary.group(1)
    assert 1 <= int(summary.group(1)) <= default_jobs()
