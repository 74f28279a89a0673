"""Seeded ``herzla simulate --json`` answers (and sample records) stay what they were.

``tests/golden/*.json`` hold the answers of a few seeded runs (every mode, both policies, both
engines, several blocks), written by the simulator before its runner, statistics and start-up
were reworked for speed (main at e1517ea): any change to what a seed gives fails here.  Each file
is ``{"args": [...], "answer": {...}}`` (the answer without ``elapsed_s`` and ``hands_per_s``),
with ``"sample": K, "records": [...]`` where the run also wrote ``--sample K``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from herzla.cli import main

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    obj = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(obj, dict)
    return obj


def answer(args: list[str], tmp_path: Path, sample: int, jobs: str
           ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    extra = []
    out = tmp_path / f"sample-{jobs}.jsonl"
    if sample:
        extra = ["--sample", str(sample), "--sample-out", str(out)]
    result = CliRunner().invoke(main, ["simulate", *args, *extra, "--json", "--no-progress",
                                       "--jobs", jobs])
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    del got["elapsed_s"], got["hands_per_s"]
    records = ([json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
               if sample else [])
    return got, records


def old_keys(got: dict[str, Any]) -> dict[str, Any]:
    """The answer without ``"rates"`` (added later, from the counts the answer holds: checked
    against them here), as the golden files have it."""
    out = dict(got)
    rates = out.pop("rates")
    for name, entry in rates["events"].items():
        assert entry["count"] == got["events"][name]
        assert entry["rate"] == got["event_rates"][name]
        lo, hi = entry["ci95"]
        assert lo <= entry["rate"] <= hi
    for seat, entry in enumerate(rates.get("wins", [])):
        assert entry["count"] == got["wins"][seat] and entry["rate"] == got["win_rates"][seat]
    for name, entry in rates.get("contracts", {}).items():
        assert entry["share"]["count"] == got["contracts"][name]["hands"]
        if "made" in entry:
            assert entry["made"]["count"] == got["contracts"][name]["made"]
            assert entry["made"]["of"] == got["contracts"][name]["hands"]
    return out


def test_there_are_golden_answers() -> None:
    assert len(FILES) >= 5


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_seeded_answer_unchanged(path: Path, tmp_path: Path) -> None:
    gold = load(path)
    sample = int(gold.get("sample", 0))
    got, records = answer(gold["args"], tmp_path, sample, "1")
    assert old_keys(got) == gold["answer"]
    assert records == gold.get("records", [])


@pytest.mark.parametrize("name", ["herzeln-partie", "herzla-bidding-heuristic"])
def test_seeded_answer_unchanged_on_two_workers(name: str, tmp_path: Path) -> None:
    gold = load(GOLDEN / f"{name}.json")
    sample = int(gold.get("sample", 0))
    got, records = answer(gold["args"], tmp_path, sample, "2")
    assert old_keys(got) == gold["answer"]
    assert records == gold.get("records", [])
