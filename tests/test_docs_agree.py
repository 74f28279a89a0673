"""What the docs and the answers say is so (issue 23): report() is what the command line
prints (and a result's repr is one short line), the docs claim no sameness that does not hold,
a partie's totals are called what they are, and a sheet that stops shows no totals that look
real."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import herzla
from herzla.cli import main
from herzla.contracts import contract_class
from herzla.contracts.tallies import score_tallies
from herzla.records import Record, replay, score_report
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


# -- short reprs, and the command line's text from the library --------------------------------
def _one_line(obj: object, *words: str) -> None:
    text = repr(obj)
    assert "\n" not in text and len(text) < 200, text
    for word in words:
        assert word in text, text


def test_record_and_replay_result() -> None:
    record = Record.from_json(json.loads((EXAMPLES / "herzla-two-void.json").read_text()))
    _one_line(record, "Record", "herzla normal", "32 plays")
    result = replay(record)
    _one_line(result, "ReplayResult", "complete", "+40c -30c -50c +40c")
    _one_line(result.score, "HandScore", "two-void")
    cli = CliRunner().invoke(main, ["replay", str(EXAMPLES / "herzla-two-void.json")])
    assert cli.stdout == result.report() + "\n" == str(result) + "\n"


def test_score_sheet() -> None:
    path = EXAMPLES / "herzeln-partie.json"
    sheet = score_sheet(json.loads(path.read_text()))
    _one_line(sheet, "ScoreSheet", "herzeln partie", "8 hands", "won by seat")
    cli = CliRunner().invoke(main, ["replay", str(path)])
    assert cli.stdout == sheet.report() + "\n" == str(sheet) + "\n"


def test_score_report() -> None:
    contract = contract_class("herzla", "normal")()
    result = score_tallies(contract, hearts=[0, 3, 5, 0], stock=80)
    cli = CliRunner().invoke(main, ["score", "herzla", "normal", "--hearts", "0,3,5,0",
                                    "--stock", "80"])
    assert cli.stdout == score_report(contract, result) + "\n"


def test_sim_result() -> None:
    res = herzla.simulate("herzla", "normal", hands=2000, seed=5, jobs=1)
    _one_line(res, "SimResult", "herzla normal", "2,000 hands", "seed 5")
    assert str(res) == res.report()
    cli = CliRunner().invoke(main, ["simulate", "herzla", "--contract", "normal", "--hands",
                                    "2000", "--seed", "5", "--jobs", "1", "--no-progress"])
    # all but the last line (how long it took) is the same text
    assert cli.stdout.splitlines()[:-1] == res.report().splitlines()[:-1]
    assert "Score per hand and seat" in res.report()


def test_solve_result() -> None:
    path = EXAMPLES / "herzla-two-void-trick6.json"
    res = herzla.solve(json.loads(path.read_text()), seat=2, plays=True)
    _one_line(res, "SolveResult", "seat 2 -30 cents")
    cli = CliRunner().invoke(main, ["solve", str(path), "--seat", "2", "--plays"])
    assert str(res) == res.report()
    # the same text, but for the count of positions searched (the search's caches); given the
    # record solved, the line is written trick by trick as the command line writes it
    record = herzla.records.read_record(json.loads(path.read_text()))
    assert cli.stdout.splitlines()[:-1] == res.report(record).splitlines()[:-1]
    assert "Each play of seat 2: ST -30, HQ -50, DT -30" in res.report()
    assert "  trick 6: seat 2 ST, seat 3 SJ, seat 0 SQ, seat 1 SK; seat 1 wins" in \
        res.report(record).splitlines()


@pytest.mark.slow
def test_advice_result() -> None:
    hand = "CT C7 SJ S8 H9 H7 D9 D7"
    res = herzla.advise(hand, samples=4, seed=3, jobs=1)
    _one_line(res, "AdviceResult", "recommends")
    cli = CliRunner().invoke(main, ["advise", "herzla", "--hand", hand, "--samples", "4",
                                    "--seed", "3", "--jobs", "1", "--no-progress"])
    assert cli.exit_code == 0, cli.output
    assert cli.stdout == res.report() + "\n" == str(res) + "\n"
