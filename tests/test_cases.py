"""Every worked case (tests/cases, copied from shared/cases) through ``herzla replay - --json``; the
copy herzla ships in docs/examples/cases is the worked case."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from herzla.cli import main
from tests.conftest import load_cases

ROOT = Path(__file__).resolve().parents[1]
SHIPPED_CASES = ROOT / "docs" / "examples" / "cases"


CASES = load_cases()


def test_there_are_cases_of_every_game() -> None:
    games = {c["record"]["game"] for _, c in CASES if isinstance(c["record"], dict)}
    assert games == {"herzla", "herzla-kids", "herzeln", "herzerln"}
    assert len(CASES) >= 64


@pytest.mark.parametrize(("name", "case"), CASES, ids=[n for n, _ in CASES])
def test_case(name: str, case: dict[str, Any], runner: CliRunner) -> None:
    record = case["record"]
    text = record if isinstance(record, str) else json.dumps(record)
    result = runner.invoke(main, ["replay", "-", "--json"], input=text)
    expect = case["expect"]
    if expect.get("malformed"):
        assert result.exit_code == 2, result.output
        assert result.stdout == ""
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("herzla: error: ")
        return
    assert result.stderr == ""
    answer = json.loads(result.stdout)
    illegal = expect.get("illegal")
    assert result.exit_code == (0 if illegal is None else 1)
    for key, want in expect.items():
        if key == "winners":
            # the winners of the finished tricks; a trick in progress comes last, winner null
            got: Any = [t["winner"] for t in answer["tricks"] if t["winner"] is not None]
            assert all(t["winner"] is not None for t in answer["tricks"][:-1])
        elif key == "illegal":
            got = answer["illegal"] and {"index": answer["illegal"]["index"],
                                         "rule": answer["illegal"]["rule"]}
        elif key == "ruling":
            # the ruling's seat, whether it is established, its scores and stock, and (where
            # given) the legal plays as a set
            ruling = answer["ruling"]
            got = ruling and {k: ruling[k] for k in want}
            if want and want.get("legal") is not None:
                assert set(ruling["legal"]) == set(want["legal"]), f"{name}: legal"
                got["legal"] = want["legal"]
        else:
            got = answer[key]
        assert got == want, f"{name}: {key}"
    if answer["illegal"] is not None:
        assert set(answer["illegal"]) == {"index", "seat", "card", "rule", "message"}
    assert set(answer) == {"game", "contract", "players", "complete", "illegal", "tricks",
                           "order", "scores", "stock", "events", "explanation", "ruling"}
    if answer["scores"] is not None:
        assert answer["explanation"], "a scored hand explains its score"


def test_herzeln_partie_of_the_cases(runner: CliRunner) -> None:
    """Cases herzeln-1 .. herzeln-8 form one partie: totals -52, -120, -39, -2; seat 3 wins."""
    records = [c["record"] for n, c in CASES if "herzeln-" in n and n[:2] in
               {"22", "23", "24", "25", "26", "27", "28", "29"}]
    result = runner.invoke(main, ["replay", "-", "--json"], input=json.dumps(records))
    assert result.exit_code == 0, result.output
    sheet = json.loads(result.stdout)
    assert sheet["totals"] == [-52, -120, -39, -2]
    assert sheet["winners"] == [3]
    assert sheet["finished"] is True


def test_herzerln_partie_of_the_cases(runner: CliRunner) -> None:
    """Cases herzerln-1 .. herzerln-6: totals -6, -15, 12, 9; zero-sum; seat 2 wins."""
    records = [c["record"] for n, c in CASES if n[:2] in {"36", "37", "38", "39", "40", "41"}]
    result = runner.invoke(main, ["replay", "-", "--json"], input=json.dumps(records))
    assert result.exit_code == 0, result.output
    sheet = json.loads(result.stdout)
    assert sheet["totals"] == [-6, -15, 12, 9]
    assert sum(sheet["totals"]) == 0
    assert sheet["winners"] == [2]


# -- the copy herzla ships of each worked case ------------------------------------------------
@pytest.mark.parametrize("case", sorted((ROOT / "tests" / "cases").glob("*.json")),
                         ids=lambda p: p.name[:2])
def test_a_shipped_case_is_the_worked_case(case: Path) -> None:
    worked = json.loads(case.read_text(encoding="utf-8"))
    shipped = SHIPPED_CASES / case.name
    if isinstance(worked["record"], str):
        assert shipped.read_text(encoding="utf-8") == worked["record"]
    else:
        assert json.loads(shipped.read_text(encoding="utf-8")) == worked["record"]
    res = CliRunner().invoke(main, ["replay", str(shipped), "--json"])
    expect = worked.get("expect", {})
    if expect.get("malformed"):
        assert res.exit_code == 2
    else:
        assert res.exit_code == (0 if expect.get("illegal") is None else 1), res.output
