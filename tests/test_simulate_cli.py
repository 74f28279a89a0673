"""``herzla simulate`` as a user meets it: the --json answer, the table, seeding across processes,
bad arguments, sample records, pictures."""

from __future__ import annotations

import json
import os
import re
import shlex
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from herzla.cli import main
from herzla.contracts import get_game
from herzla.records import Record, replay
from tests.helpers import invoke as run
from tests.helpers import one_error

TIMING = ("elapsed_s", "hands_per_s")


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, ["simulate", *args, "--no-progress"])


def simulate_json(*args: str) -> dict[str, Any]:
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert isinstance(obj, dict)
    return obj


def without_timing(*args: str) -> str:
    obj = simulate_json(*args)
    for key in TIMING:
        assert key in obj
        del obj[key]
    return json.dumps(obj)


def one_error_line(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("herzla: error: ")
    assert result.stdout == ""
    return lines[0]


def check_seat(seat: dict[str, Any], hands: int) -> None:
    assert list(seat) == ["mean", "std", "ci95", "min", "max", "histogram"]
    hist = seat["histogram"]
    keys = [int(k) for k in hist]
    assert keys == sorted(keys)
    assert sum(hist.values()) == hands
    assert seat["min"] == keys[0] and seat["max"] == keys[-1]
    lo, hi = seat["ci95"]
    assert lo <= seat["mean"] <= hi
    mean = sum(int(k) * c for k, c in hist.items()) / hands
    assert seat["mean"] == pytest.approx(mean, abs=1e-6)
    assert seat["std"] >= 0


# -- the --json answer ------------------------------------------------------------------------

def test_json_shape_of_one_contract() -> None:
    out = simulate_json("herzeln", "--contract", "no-hearts", "--hands", "2e3", "--seed", "7",
                        "--jobs", "1")
    spec_keys = ["game", "contract", "players", "hands", "seed", "policy", "seats", "events",
                 "elapsed_s", "hands_per_s"]
    assert all(k in out for k in spec_keys)
    assert "jobs" not in out
    assert (out["game"], out["contract"], out["players"], out["hands"], out["seed"],
            out["policy"]) == ("herzeln", "no-hearts", 4, 2000, 7, "random")
    assert out["mode"] == "contract" and out["dealer"] == 3 and out["declarer"] is None
    assert len(out["seats"]) == 4
    for seat in out["seats"]:
        check_seat(seat, 2000)
        assert seat["min"] >= -33 and seat["max"] == 0
    assert isinstance(out["events"], dict)
    assert out["checks"] == {"hand-total": 0}
    assert out["total"] == {"mean": -33.0, "min": -33, "max": -33, "expected": -33}
    assert out["elapsed_s"] >= 0 and out["hands_per_s"] > 0
    assert out["unit"] == "points" and "stock" not in out
    assert len(out["hearts"]) == 4
    for seat in out["hearts"]:
        check_seat(seat, 2000)
    # no-hearts: -1 a heart but the Ace -11, Ten -10, King -4, Queen -3, Jack -2
    assert out["hearts"][0]["max"] <= 8 and out["hearts"][0]["min"] == 0


def test_json_hearts_of_herzla_normal() -> None:
    out = simulate_json("herzla", "--contract", "normal", "--hands", "3000", "--seed", "2",
                        "--jobs", "1")
    assert list(out).index("hearts") == list(out).index("total") + 1
    hearts = out["hearts"]
    for seat in hearts:
        check_seat(seat, 3000)
        assert 1.8 < seat["mean"] < 2.2 and seat["min"] == 0
    # 8 hearts in every hand: exactly 8 * 3000 over the seats' histograms
    assert sum(int(v) * c for seat in hearts for v, c in seat["histogram"].items()) == 24000
    assert sum(seat["mean"] for seat in hearts) == pytest.approx(8.0, abs=4e-6)
    # one seat took all 8 hearts exactly in the all-hearts and the Schleichermord hands
    alone = out["events"].get("all-hearts", 0) + out["events"].get("schleichermord", 0)
    assert sum(seat["histogram"].get("8", 0) for seat in hearts) == alone


@pytest.mark.parametrize("args", [
    ["herzla"],  # the bidding: Beddl and Mord hands may end early
    ["herzla", "--contract", "beddl"],
    ["herzla", "--contract", "mord", "--declarer", "2"],
    ["herzerln", "--contract", "auflegen"],
    ["herzeln", "--contract", "domino"],
])
def test_no_hearts_key_where_not_counted(args: list[str]) -> None:
    out = simulate_json(*args, "--hands", "200", "--seed", "1")
    assert "hearts" not in out
    result = invoke(*args, "--hands", "200", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "Hearts captured" not in result.stdout


def test_json_of_herzla_with_bidding_and_stock() -> None:
    out = simulate_json("herzla", "--hands", "1500", "--seed", "3", "--stock", "40")
    assert out["mode"] == "bidding" and out["contract"] is None and out["unit"] == "cents"
    assert set(out["contracts"]) == {"normal", "beddl", "mord"}
    assert sum(c["hands"] for c in out["contracts"].values()) == 1500
    assert out["stock"]["start"] == 40 and out["checks"] == {"zero-sum": 0}
    check_seat({k: out["stock"][k] for k in ("mean", "std", "ci95", "min", "max", "histogram")},
               1500)
    for seat in out["seats"]:
        check_seat(seat, 1500)
    assert out["event_rates"] == {k: round(v / 1500, 6) for k, v in out["events"].items()}


def test_json_of_a_partie() -> None:
    out = simulate_json("herzerln", "--hands", "300", "--seed", "5", "--players", "3")
    assert out["mode"] == "partie" and out["contract"] is None and out["hands"] == 300
    deals = get_game("herzerln").contract_classes()
    assert [d["contract"] for d in out["deals"]] == [c.id for c in deals]
    assert all(d["dealer"] == 2 for d in out["deals"])
    for d in out["deals"]:
        for seat in d["seats"]:
            check_seat(seat, 300)
    for seat in out["seats"]:
        check_seat(seat, 300)
    # the hearts captured: per trick deal, not for Auflegen nor for the partie as a whole
    assert "hearts" not in out
    assert ["hearts" in d for d in out["deals"]] == [c.kind == "tricks" for c in deals]
    for d in (d for d in out["deals"] if "hearts" in d):
        assert list(d).index("hearts") == list(d).index("total") + 1
        for seat in d["hearts"]:
            check_seat(seat, 300)
        assert sum(int(v) * c for seat in d["hearts"]
                   for v, c in seat["histogram"].items()) == 8 * 300  # 8 hearts a hand
    assert len(out["wins"]) == 3 and len(out["win_rates"]) == 3
    assert sum(out["wins"]) >= 300 and out["shared_wins"] >= sum(out["wins"]) - 300 > -1
    assert out["checks"] == {"hand-total": 0, "partie-total": 0}


def test_herzeln_partie_dealer_passes_per_deal() -> None:
    out = simulate_json("herzeln", "--hands", "20", "--seed", "1", "--dealer", "1")
    assert [d["dealer"] for d in out["deals"]] == [1, 2, 3, 0, 1, 2, 3, 0]
    out = simulate_json("herzeln", "--hands", "20", "--seed", "1", "--dealer", "1",
                        "-o", "dealer_rotation=per-partie")
    assert [d["dealer"] for d in out["deals"]] == [1] * 8
    assert out["options"] == {"dealer_rotation": "per-partie"}


def test_defaults_per_game() -> None:
    assert simulate_json("herzla-kids", "--hands", "50", "--seed", "1")["contract"] == "normal"
    assert simulate_json("herzeln", "--hands", "5", "--seed", "1")["mode"] == "partie"
    out = simulate_json("herzla", "--contract", "mord", "--hands", "50", "--seed", "1",
                        "--dealer", "0")
    assert out["declarer"] == 1  # forehand
    out = simulate_json("herzla", "--contract", "beddl", "--declarer", "2", "--hands", "50",
                        "--seed", "1", "-o", "contract_stake=50")
    assert out["declarer"] == 2 and out["options"] == {"contract_stake": 50}
    assert {out["seats"][2]["min"], out["seats"][2]["max"]} <= {-150, 150}


@pytest.mark.parametrize("hands", ["1000", "1e3", "1_000", "1,000"])
def test_hands_spellings(hands: str) -> None:
    assert simulate_json("herzla-kids", "--hands", hands, "--seed", "2")["hands"] == 1000


def test_seed_is_drawn_and_reported() -> None:
    out = simulate_json("herzla-kids", "--hands", "10")
    assert isinstance(out["seed"], int) and out["seed"] >= 0


# -- the same results for any --jobs, --batch-size and engine ---------------------------------

@pytest.mark.parametrize("args", [
    ["herzla", "--hands", "1300"],
    ["herzeln", "--partie", "--hands", "700", "--policy", "heuristic"],
])
def test_results_do_not_depend_on_jobs_or_batch_size(args: list[str]) -> None:
    # small random blocks (a testing knob) so that a few hands make several blocks
    common = [*args, "--seed", "21", "--block-size", "256"]
    one = without_timing(*common, "--jobs", "1")
    assert one == without_timing(*common, "--jobs", "2")
    assert one == without_timing(*common, "--jobs", "2", "--batch-size", "600")
    assert one == without_timing(*common, "--jobs", "1", "--batch-size", "1e4")


def test_workers_started_halfway_change_nothing(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    import herzla.sim.runner as runner
    from herzla.support.procs import default_jobs as _default_jobs

    common = ["herzla", "--hands", "1000", "--seed", "5", "--block-size", "128",
              "--sample", "300"]
    one = without_timing(*common, "--jobs", "1", "--sample-out", str(tmp_path / "one.jsonl"))
    # without --jobs, workers start once the run looks long enough: here after two tasks
    monkeypatch.setattr(runner, "START_COST", 0.0)
    result = invoke(*common, "--sample-out", str(tmp_path / "auto.jsonl"))
    assert result.exit_code == 0, result.output
    if _default_jobs() > 1:
        assert "processes)" in result.stdout  # more than one played
    assert without_timing(*common, "--sample-out", str(tmp_path / "auto.jsonl")) == one
    assert ((tmp_path / "one.jsonl").read_text(encoding="utf-8")
            == (tmp_path / "auto.jsonl").read_text(encoding="utf-8"))


def test_engines_agree() -> None:
    common = ["herzerln", "--hands", "60", "--seed", "4", "--jobs", "1"]
    assert (without_timing(*common, "--engine", "reference")
            == without_timing(*common, "--engine", "batch"))


# -- bad arguments: one line, exit 2 ----------------------------------------------------------

@pytest.mark.parametrize(("args", "says"), [
    (["herzla", "--hands", "-5"], "--hands"),
    (["herzla", "--hands", "abc"], "not a number"),
    (["herzla", "--hands", "2.5"], "whole number"),
    (["herzla", "--hands", "0"], "positive"),
    (["herzla", "--hands", "1e400"], "more than"),
    (["nosuchgame"], 'unknown game "nosuchgame"'),
    (["herzla", "--contract", "slam"], '"slam" is not a herzla contract'),
    (["herzla", "--policy", "clever"], 'unknown policy "clever"'),
    (["herzla", "-o", "colour=blue"], 'unknown option "colour"'),
    (["herzla", "-o", "heart_unit=lots"], "heart_unit"),
    (["herzla", "-o", "heart_unit"], "NAME=VALUE"),
    (["herzeln", "-o", "domino_wrap=false"], "domino_wrap"),
    (["herzla", "--partie"], "herzla has no partie"),
    (["herzeln", "--partie", "--contract", "domino"], "a contract and a partie exclude each other"),
    (["herzla", "--declarer", "1"], "a declarer goes with the contract beddl or mord"),
    (["herzla", "--contract", "normal", "--declarer", "1"], "has no declarer"),
    (["herzla", "--contract", "mord", "--declarer", "4"], "not a seat"),
    (["herzla", "--dealer", "-1"], "not a seat"),
    (["herzla", "--players", "5"], "4 players, not 5"),
    (["herzerln", "--players", "2"], "3 or 4 players, not 2"),
    (["herzeln", "--stock", "10"], "herzeln has no stock"),
    (["herzla", "--stock", "-10"], "--stock"),
    (["herzla", "--jobs", "0"], "--jobs"),
    (["herzla", "--seed", "-3"], "--seed"),
    (["herzla", "--sample", "3"], "--sample K and --sample-out FILE go together"),
    (["herzla", "--engine", "fast"], "--engine"),
])
def test_bad_arguments(args: list[str], says: str) -> None:
    line = one_error_line(invoke(*args))
    assert says in line, line


def test_an_engine_refusal_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import herzla.sim.runner as runner

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("the batch engine cannot play the option x=y;\nuse the reference")

    monkeypatch.setattr(runner, "play_block", refuse)
    out = tmp_path / "sample.jsonl"
    line = one_error_line(invoke("herzla", "--hands", "10", "--jobs", "1", "--sample", "5",
                                 "--sample-out", str(out)))
    assert line == "herzla: error: the batch engine cannot play the option x=y; use the reference"
    assert list(tmp_path.iterdir()) == []  # nothing half-written


def test_plot_without_matplotlib(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in list(sys.modules):
        if name == "matplotlib" or name.startswith("matplotlib."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    line = one_error_line(invoke("herzla", "--hands", "10", "--plot", str(tmp_path / "h.png")))
    assert "matplotlib" in line and "herzla[plot]" in line
    assert list(tmp_path.iterdir()) == []


def test_cluster_without_distributed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in list(sys.modules):
        if name.split(".")[0] in ("distributed", "dask"):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    line = one_error_line(invoke("herzla", "--hands", "10", "--cluster", "tcp://127.0.0.1:8786",
                                 "--sample", "2", "--sample-out", str(tmp_path / "s.jsonl")))
    assert line == ("herzla: error: --cluster needs dask.distributed: pip install "
                    "'herzla[dask]'")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow  # a few seconds: the default set stays under a minute
@pytest.mark.parametrize(("name", "says"), [("missing/h.png", "no such folder"),
                                            (".", "is a folder"), ("h.nope", ".nope")])
def test_plot_bad_target(tmp_path: Path, name: str, says: str) -> None:
    if name == "h.nope":
        pytest.importorskip("matplotlib")  # the formats it can write are matplotlib's
    line = one_error_line(invoke("herzla", "--hands", "10", "--plot", str(tmp_path / name)))
    assert says in line


# -- outputs: the table, the sample, the picture ----------------------------------------------

def test_table_of_one_contract() -> None:
    result = invoke("herzla", "--contract", "mord", "--declarer", "0", "--hands", "500",
                    "--seed", "7")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.startswith("herzla mord, declarer seat 0, 4 players, dealer seat 3, forehand "
                           "seat 0\n500 hands, policy random, seed 7, default rules")
    assert "seat       mean       std      95% CI of the mean     min     max" in text
    assert "contract-lost" in text and "Check: the players and the stock sum to 0" in text
    assert "FAILED" not in text and result.stderr == ""


def test_table_of_a_partie() -> None:
    result = invoke("herzeln", "--hands", "40", "--seed", "3")
    assert result.exit_code == 0, result.output
    text = result.stdout
    game = get_game("herzeln")
    deals = game.contract_classes()[: game.partie]
    assert f"herzeln partie of {len(deals)} deals, 4 players" in text and "40 parties" in text
    assert "wins" in text and "Shared wins:" in text
    for i, cls in enumerate(deals, 1):
        assert f"\n{i:>2}  {cls.id} " in text
    assert "partie" in text
    assert f"{40 * len(deals)} hands (40 parties)" in text
    hearts = text.split("Mean hearts captured per deal and seat (the trick deals):\n")[1]
    rows = hearts.split("\n\n")[0].splitlines()
    tricks = [c for c in deals if c.kind == "tricks"]
    assert rows[0].startswith(" #  deal") and len(rows) == 1 + len(tricks)  # and the heading
    assert rows[1].startswith(" 1  no-hearts") and rows[1].endswith("     8.000")
    assert all(c.id not in hearts.split("\n\n")[0] for c in deals if c.kind == "layout")


def test_table_of_hearts_captured() -> None:
    result = invoke("herzla", "--contract", "normal", "--hands", "500", "--seed", "7")
    assert result.exit_code == 0, result.output
    text = result.stdout
    section = text.split("\nHearts captured per hand and seat:\n")[1].split("\n\n")[0]
    lines = section.splitlines()
    assert lines[0] == "seat       mean       std      95% CI of the mean     min     max"
    assert len(lines) == 5
    for seat, line in enumerate(lines[1:]):
        words = line.split()
        assert words[0] == str(seat) and words[4] == ".."
        assert 1.5 < float(words[1]) < 2.5 and "+" not in line  # counts, without signs
        assert words[6:] == ["0", "8"]


def test_table_of_bidding() -> None:
    result = invoke("herzla", "--hands", "400", "--seed", "3")
    assert result.exit_code == 0, result.output
    assert "contract chosen by the bidding" in result.stdout
    for name in ("normal", "beddl", "mord"):
        assert f"\n{name}" in result.stdout


def replay_lines(path: Path) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    for rec in records:
        res = replay(Record.from_json(rec))
        assert res.illegal is None and res.complete and res.scores is not None
    return records


def test_sample_out_replays(tmp_path: Path) -> None:
    path = tmp_path / "hands.jsonl"
    out = simulate_json("herzla", "--hands", "40", "--seed", "5", "--stock", "30",
                        "--sample", "40", "--sample-out", str(path))
    records = replay_lines(path)
    assert len(records) == 40
    # the sample is the hands counted: the replayed scores give the same histograms
    for s, seat in enumerate(out["seats"]):
        counts: dict[str, int] = {}
        for rec in records:
            res = replay(Record.from_json(rec))
            assert res.scores is not None and res.record.stock == 30
            counts[str(res.scores[s])] = counts.get(str(res.scores[s]), 0) + 1
        assert counts == seat["histogram"]
    # through the command line, as a user would check one
    first = path.read_text(encoding="utf-8").splitlines()[0]
    result = CliRunner().invoke(main, ["replay", "-", "--json"], input=first)
    assert result.exit_code == 0 and json.loads(result.stdout)["complete"] is True


def test_sample_out_of_parties(tmp_path: Path) -> None:
    path = tmp_path / "parties.jsonl"
    result = invoke("herzeln", "--hands", "5", "--seed", "2", "--sample", "2",
                    "--sample-out", str(path), "--block-size", "2", "--jobs", "2")
    assert result.exit_code == 0, result.output
    partie = get_game("herzeln").partie_ids()
    size = len(partie)
    assert f"Wrote {2 * size} hand records" in result.stdout
    records = replay_lines(path)
    assert [r["contract"] for r in records[:size]] == partie
    assert [r["dealer"] for r in records[size:]] == [(3 + i) % 4 for i in range(size)]
    # a partie's records make a score sheet that replay accepts
    sheet = CliRunner().invoke(main, ["replay", "-", "--json"],
                               input=json.dumps(records[:size]))
    assert sheet.exit_code == 0, sheet.output
    assert json.loads(sheet.stdout)["finished"] is True


def test_sample_larger_than_the_run(tmp_path: Path) -> None:
    path = tmp_path / "few.jsonl"
    simulate_json("herzerln", "--contract", "auflegen", "--hands", "3", "--seed", "1",
                  "--sample", "10", "--sample-out", str(path))
    assert len(replay_lines(path)) == 3


@pytest.mark.slow  # a few seconds: the default set stays under a minute
def test_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "hist.png"
    result = invoke("herzla-kids", "--players", "5", "--hands", "300", "--seed", "1",
                    "--plot", str(path))
    assert result.exit_code == 0, result.output
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["hist.png"]
    part = tmp_path / "partie.svg"
    assert invoke("herzerln", "--hands", "20", "--seed", "1", "--json",
                  "--plot", str(part)).exit_code == 0
    assert part.read_text(encoding="utf-8").lstrip().startswith("<?xml")


def test_help_names_the_statistics() -> None:
    result = CliRunner().invoke(main, ["simulate", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "sample standard deviation" in text and "1.96" in text
    assert "--block-size" not in text


def test_the_documented_table_is_real_output() -> None:
    """docs/cli.md shows a table under a ``console no-check`` block (not run by test_docs, for
    its timing line): every other line must be what the command prints."""
    from tools.transcripts import ROOT, parse_blocks

    timing = re.compile(r" in [0-9.,]+ s \([0-9,]+ hands/s, ")
    shown = [step for block in parse_blocks(ROOT / "docs" / "cli.md") if not block.check
             for step in block.steps if step.expected and "herzla simulate" in step.command]
    assert shown
    for step in shown:
        args = shlex.split(step.command)[1:]
        result = CliRunner().invoke(main, [*args, "--no-progress"], prog_name="herzla")
        assert result.exit_code == 0, result.output
        got = [line.rstrip() for line in result.stdout.rstrip("\n").split("\n")]
        want = step.expected.split("\n")
        assert [timing.sub(" in T s (R hands/s, ", line) for line in got] == \
            [timing.sub(" in T s (R hands/s, ", line) for line in want], step.where


@pytest.mark.parametrize("args", [
    ["herzla"], ["herzla", "--contract", "mord"], ["herzla-kids", "--players", "5"],
    ["herzeln"], ["herzerln", "--contract", "jacks", "--players", "3"],
])
def test_deal_deals_the_first_simulated_hand(args: list[str], tmp_path: Path) -> None:
    """One deal procedure: ``herzla deal GAME --seed S`` is the first hand that
    ``herzla simulate GAME --seed S`` plays, and so is ``deal_record(..., seed=S)``."""
    from herzla.records import deal_record

    out = tmp_path / "first.jsonl"
    sim = invoke(*args, "--hands", "3", "--seed", "4242", "--sample", "1",
                 "--sample-out", str(out), "--jobs", "1")
    assert sim.exit_code == 0, sim.output
    first = json.loads(out.read_text().splitlines()[0])
    dealt = CliRunner().invoke(main, ["deal", args[0], "--seed", "4242", *args[1:]])
    assert dealt.exit_code == 0, dealt.output
    record = json.loads(dealt.stdout)
    assert record["hands"] == first["hands"]
    lib = deal_record(first["game"], record["contract"], first["players"], seed=4242)
    assert [[str(c) for c in h] for h in lib.hands] == first["hands"]


# -- output files -----------------------------------------------------------------------------
SIM = ["simulate", "herzla", "--hands", "300", "--seed", "2", "--jobs", "1", "--sample", "3"]


def test_sample_out_writes_through_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "real.jsonl"
    target.write_text("old\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    assert run(*SIM, "--sample-out", str(link)).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert len(target.read_text().splitlines()) == 3
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_sample_out_writes_into_a_fifo_and_a_device(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    result = run(*SIM, "--sample-out", str(fifo))
    got, _ = reader.communicate(timeout=30)
    assert result.exit_code == 0 and len(got.decode().splitlines()) == 3
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    before = os.stat("/dev/null")
    assert run(*SIM, "--sample-out", "/dev/null").exit_code == 0
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


@pytest.mark.parametrize("flag", ["--sample-out", "--plot"])
def test_empty_output_names_are_usage_errors(flag: str) -> None:
    args = [*SIM, flag, ""] if flag == "--sample-out" else [*SIM[:-2], flag, ""]
    assert "not an empty one" in one_error(run(*args))


def test_outputs_are_checked_before_any_hand_is_played(tmp_path: Path) -> None:
    line = one_error(run(*SIM[:-2], "--hands", "1e9", "--plot", str(tmp_path / "no" / "x.png")))
    assert "no such folder" in line
    assert "is a folder" in one_error(run(*SIM, "--sample-out", str(tmp_path)))


def test_the_progress_line_shows_within_two_seconds_and_never_on_stdout(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from herzla.cli.output import Progress

    assert Progress.FIRST < 2  # a line within two seconds of the start, however slow a task
    monkeypatch.setattr(Progress, "FIRST", 0.01)
    monkeypatch.setattr(Progress, "EVERY_LOG", 0.01)
    result = CliRunner().invoke(main, ["simulate", "herzla", "--contract", "normal",
                                       "--engine", "reference", "--hands", "300", "--seed", "1",
                                       "--json", "--progress"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["hands"] == 300  # standard output holds the answer only
    lines = result.stderr.splitlines()
    assert lines and all(line.startswith("simulating: ") for line in lines)
    assert "of 300 hands" in lines[0] and "so far" in lines[0]
    # by default not into a log (standard error is no terminal here), nor with --no-progress
    for flag in ([], ["--no-progress"]):
        quiet = CliRunner().invoke(main, ["simulate", "herzla", "--hands", "300", "--seed", "1",
                                          "--engine", "reference", "--json", *flag])
        assert quiet.exit_code == 0 and quiet.stderr == ""


def test_a_progress_line_reports_work_done_inside_one_slow_task(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from herzla.cli.output import Progress

    monkeypatch.setattr(Progress, "FIRST", 0.05)
    monkeypatch.setattr(Progress, "EVERY_LOG", 0.05)
    quick = Progress(6, "hands", terminal=False)
    quick.close()  # a run that ends before the first line shows none
    assert capsys.readouterr().err == ""
    slow = Progress(6, "hands", terminal=False)
    time.sleep(0.3)  # nothing done yet: one task still playing
    slow(3)
    time.sleep(0.3)
    slow.close()
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("simulating:   0%  0 of 6 hands, ")
    assert any(line.startswith("simulating:  50%  3 of 6 hands, ") and "left" in line
               for line in err)
