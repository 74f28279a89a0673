"""``herzla simulate --rows FILE``: one row a hand (partie, evening), the same for any number of
processes and either engine, agreeing with the tallies of ``--json``; and the answer loaded into
pandas as docs/cli.md says."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from herzla.cli import main
from herzla.sim.api import simulate
from herzla.sim.rows import row_format


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["simulate", *args, "--no-progress"])


def rows_and_answer(tmp_path: Path, name: str, *args: str) -> tuple[list[dict[str, str]],
                                                                      dict[str, Any], str]:
    out = tmp_path / name
    result = run(*args, "--rows", str(out), "--json")
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text))), json.loads(result.stdout), text


def events_of(row: dict[str, str]) -> list[str]:
    fixed = ("hand", "contract", "declarer", "stock_before", "stock_after")
    return [k for k in row if k not in fixed and not k.startswith(("score_", "win_"))]


@pytest.mark.parametrize("args", [
    ["herzla", "--policy", "heuristic"],  # the bidding
    ["herzla", "--contract", "beddl", "--declarer", "2", "--stock", "40"],
    ["herzla-kids", "--players", "5"],
    ["herzeln", "--contract", "domino"],  # a layout deal
])
def test_one_row_a_hand_agrees_with_the_answer(args: list[str], tmp_path: Path) -> None:
    rows, d, _ = rows_and_answer(tmp_path, "r.csv", *args, "--hands", "700", "--seed", "5",
                                 "--block-size", "256", "--jobs", "1")
    assert [int(r["hand"]) for r in rows] == list(range(700))
    for seat, s in enumerate(d["seats"]):
        values = [int(r[f"score_{seat}"]) for r in rows]
        assert min(values) == s["min"] and max(values) == s["max"]
        assert sum(values) / len(values) == pytest.approx(s["mean"], abs=1e-6)
    names = events_of(rows[0])
    assert names == sorted(d["events"])  # one column per event that happened, sorted
    for name in names:
        assert {r[name] for r in rows} <= {"0", "1"}
        assert sum(int(r[name]) for r in rows) == d["events"][name]
    if "contracts" in d:
        for contract, entry in d["contracts"].items():
            played = [r for r in rows if r["contract"] == contract]
            assert len(played) == entry["hands"]
            # a declarer's contract names its declarer, the normal game none
            assert all((r["declarer"] != "") == ("declarers" in entry) for r in played)
            if "declarers" in entry:
                assert [sum(r["declarer"] == str(s) for r in played)
                        for s in range(d["players"])] == entry["declarers"]
    if d["unit"] == "cents":
        assert all(r["stock_before"] == str(d["stock"]["start"]) for r in rows)
        after = [int(r["stock_after"]) for r in rows]
        assert sum(after) / len(after) == pytest.approx(d["stock"]["mean"], abs=1e-6)
    else:
        assert all(r["stock_before"] == r["stock_after"] == "" for r in rows)


def test_the_same_rows_on_any_number_of_processes_and_either_engine(tmp_path: Path) -> None:
    common = ["herzla", "--hands", "900", "--seed", "11", "--block-size", "128"]
    _, _, one = rows_and_answer(tmp_path, "1.csv", *common, "--jobs", "1")
    _, _, two = rows_and_answer(tmp_path, "2.csv", *common, "--jobs", "2",
                                "--batch-size", "300")
    _, _, ref = rows_and_answer(tmp_path, "ref.csv", *common, "--jobs", "1",
                                "--engine", "reference")
    assert one == two == ref


def test_rows_of_parties_and_evenings(tmp_path: Path) -> None:
    rows, d, _ = rows_and_answer(tmp_path, "p.csv", "herzla-kids", "--players", "4",
                                 "--contract", "normal", "--hands", "5", "--seed", "1")
    assert len(rows) == 5
    rows, d, _ = rows_and_answer(tmp_path, "p.csv", "herzeln", "--hands", "300", "--seed", "2",
                                 "--block-size", "64", "--jobs", "2")
    assert len(rows) == 300 and {r["contract"] for r in rows} == {"partie"}
    for seat in range(4):
        assert sum(int(r[f"win_{seat}"]) for r in rows) == d["wins"][seat]
        assert sum(int(r[f"score_{seat}"]) for r in rows) / 300 == pytest.approx(
            d["seats"][seat]["mean"], abs=1e-6)
    rows, d, _ = rows_and_answer(tmp_path, "e.csv", "herzla", "--session", "6", "--hands",
                                 "200", "--seed", "3", "--stock", "20")
    assert len(rows) == 200 and {r["contract"] for r in rows} == {"evening"}
    assert {r["stock_before"] for r in rows} == {"20"}
    ends = [int(r["stock_after"]) for r in rows]
    assert sum(ends) / 200 == pytest.approx(d["session"]["stock_end"]["mean"], abs=1e-6)
    for name in events_of(rows[0]):  # an evening's column counts its deals with the event
        assert sum(int(r[name]) for r in rows) == d["events"][name]
    for seat in range(4):
        assert sum(int(r[f"win_{seat}"]) for r in rows) == d["wins"][seat]


@pytest.mark.slow  # a few seconds: the default set stays under a minute
def test_the_formats_load_into_pandas_as_they_are(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    common = ["herzla", "--hands", "400", "--seed", "4"]
    for name in ("r.csv", "r.jsonl", "r.ndjson"):
        assert run(*common, "--rows", str(tmp_path / name)).exit_code == 0
    from_csv = pd.read_csv(tmp_path / "r.csv")
    from_jsonl = pd.read_json(tmp_path / "r.jsonl", lines=True)
    assert len(from_csv) == len(from_jsonl) == 400
    assert list(from_csv.columns) == list(from_jsonl.columns)
    assert (from_csv["score_0"] == from_jsonl["score_0"]).all()
    assert (tmp_path / "r.jsonl").read_bytes() == (tmp_path / "r.ndjson").read_bytes()
    pytest.importorskip("pyarrow")
    result = run(*common, "--rows", str(tmp_path / "r.data"), "--rows-format", "parquet")
    assert result.exit_code == 0, result.output
    from_parquet = pd.read_parquet(tmp_path / "r.data")
    assert list(from_parquet.columns) == list(from_csv.columns)
    assert (from_parquet["two-void"] == from_csv["two-void"]).all()


def test_the_json_answer_loads_into_pandas_as_documented() -> None:
    pd = pytest.importorskip("pandas")
    result = run("herzla", "--hands", "3000", "--seed", "8", "--json")
    d = json.loads(result.stdout)
    seats = pd.json_normalize(d["seats"])
    assert list(seats["mean"]) == [s["mean"] for s in d["seats"]]
    events = pd.DataFrame.from_dict(d["rates"]["events"], orient="index")
    assert list(events.columns) == ["count", "of", "rate", "ci95"]
    assert (events["of"] == 3000).all()
    rates = pd.json_normalize(d["rates"]["contracts"]["beddl"])  # share.rate, made.ci95, ...
    assert rates["made.of"][0] == d["contracts"]["beddl"]["hands"]


def test_to_frame_on_a_result_that_kept_its_rows() -> None:
    pytest.importorskip("pandas")
    res = simulate("herzla", "normal", hands=300, seed=2, jobs=1, rows=True)
    frame = res.to_frame()
    assert len(frame) == 300 and frame["score_1"].mean() == pytest.approx(
        res.to_dict()["seats"][1]["mean"], abs=1e-6)
    assert str(frame["declarer"].dtype) == "Int64" and frame["declarer"].isna().all()
    with pytest.raises(ValueError, match="rows=True"):
        simulate("herzla", "normal", hands=3, seed=2, jobs=1).to_frame()


@pytest.mark.parametrize(("args", "message"), [
    (["--rows", "out.txt"], "--rows-format"),
    (["--rows", "-"], "--rows-format"),
    (["--rows-format", "csv"], "goes with --rows"),
    (["--rows", "out.csv", "--rows-format", "xlsx"], "xlsx"),
    (["--rows", "."], "folder"),
    (["--rows", "missing/out.csv"], "no such folder"),
    (["--rows", "same.jsonl", "--sample", "2", "--sample-out", "same.jsonl"], "same.jsonl"),
])
def test_a_bad_rows_file_is_one_line_and_exit_2(args: list[str], message: str,
                                                 tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("herzla", "--hands", "10", "--seed", "1", *args)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing written


def test_rows_on_standard_output_keep_it_to_themselves() -> None:
    result = run("herzla", "--hands", "4", "--seed", "1", "--rows", "-", "--rows-format",
                 "csv", "--json")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].startswith("hand,contract,declarer,score_0")
    assert len(result.stdout.splitlines()) == 5
    assert json.loads(result.stderr)["hands"] == 4  # the answer went to standard error


def test_row_format_from_the_suffix() -> None:
    assert row_format("a.CSV") == "csv" and row_format("a.pq") == "parquet"
    assert row_format("a", "JSONL") == "jsonl"
    with pytest.raises(ValueError, match="csv, jsonl or parquet"):
        row_format("a.xls")
