"""What the docs and the answers say is so (issue 23): report() is what the command line
prints, the docs claim no sameness that does not hold, a partie's totals are called what they
are, and a sheet that stops shows no totals that look real."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

import herzla
from herzla.cli import main
from herzla.sheets import score_sheet

ROOT = Path(__file__).parents[1]
EXAMPLES = ROOT / "docs" / "examples"


def doc(name: str) -> str:
    return " ".join((ROOT / name).read_text(encoding="utf-8").split())


def test_solve_report_is_what_the_command_prints() -> None:
    path = EXAMPLES / "herzla-two-void-trick6.json"
    res = CliRunner().invoke(main, ["solve", str(path), "--seat", "2", "--plays"])
    assert res.exit_code == 0, res.output
    answer = herzla.solve(json.loads(path.read_text(encoding="utf-8")), seat=2, plays=True)
    assert answer.report() == res.stdout.rstrip("\n")
    assert str(answer) == answer.report()
    assert "trick 6: seat 2 ST" in answer.report()


def test_analysis_docs_say_what_may_differ() -> None:
    text = doc("docs/analysis.md")
    assert "only `elapsed_s` differs" not in text
    many = text[text.index("### Many positions"):text.index("### How it searches")]
    assert "`nodes`" in many and "`elapsed_s`" in many


def test_openspiel_docs_say_plugin_games_register() -> None:
    text = doc("docs/openspiel.md")
    assert "a plug-in's own game is not" not in text
    assert "A plug-in's game is registered" in text


def test_match_partie_calls_its_totals_partie_totals() -> None:
    res = CliRunner().invoke(main, ["match", "herzeln", "--policies", "heuristic,random",
                                    "--partie", "--deals", "20", "--seed", "1", "--jobs", "1"])
    assert res.exit_code == 0, res.output
    assert "mean score per hand" not in res.stdout
    assert "Standings (mean partie total, points; 95% CI):" in res.stdout
    assert "20 parties x 2 seatings" in res.stdout
    assert "per-partie difference" in res.stdout
    assert not re.search(r"\b0\.0 s\b", res.stdout)


def test_a_partie_stopped_at_its_first_hand_shows_no_totals() -> None:
    partie = json.loads((EXAMPLES / "herzerln-partie.json").read_text(encoding="utf-8"))
    partie[0]["plays"] = [partie[0]["plays"][1], *partie[0]["plays"]]  # not in hand
    sheet = score_sheet(partie)
    assert sheet.counted == 0
    text = sheet.report()
    assert not re.search(r"total\s+0\s+0\s+0\s+0", text)
    assert "total            none: hand 1 stops the sheet" in text
    assert text.count("(not counted)") == 5
    assert "The sheet stops at hand 1, which is illegal: the totals count no hand." in text
    partie = json.loads((EXAMPLES / "herzerln-partie.json").read_text(encoding="utf-8"))
    partie[2]["plays"] = partie[2]["plays"][:-1]  # hand 3 not complete
    text = score_sheet(partie).report()
    assert "total of 1-2" in text and text.count("(not counted)") == 3


def test_the_readme_taste_imports_what_it_uses() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text[text.index("```python"):]
    block = block[:block.index("\n```\n")]
    for m in re.finditer(r"^>>> from \S+ import (.+)$|^>>> import (\S+)$", block, re.M):
        for name in (m.group(1) or m.group(2)).split(","):
            name = name.strip().split(".")[0]
            uses = len(re.findall(rf"\b{re.escape(name)}\b", block))
            assert uses > 1, f"the README imports {name} and does not use it"
    results = [line for line in block.splitlines()[1:] if line and not line.startswith(">>>")]
    assert results and results[-1].strip() not in ("0", "1", "2", "3")
