"""Hostile and careless input: never a traceback, never a wrong number, never a clobbered file.

Each class of fault gets a command-line test; hypothesis then throws random bytes, truncations,
type swaps and mutations of valid records at ``replay``, ``score`` and the library's record
reader, where the only outcomes allowed are an answer or the documented error and exit code.
"""

from __future__ import annotations

import copy
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from herzla.cli import main
from herzla.limits import MAX_AMOUNT
from herzla.records import Record, RecordError, deal_record, replay
from tests.conftest import load_cases

CASES = [c["record"] for _, c in load_cases() if isinstance(c["record"], dict)]
SCALE = int(os.environ.get("HERZLA_SLOW_SCALE", "1"))


def invoke(*args: str, stdin: str | bytes | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def one_error(result: Result, code: int = 2) -> str:
    assert result.exit_code == code, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("herzla: error: "), lines
    return lines[0]


def herzla(*args: str, stdin: bytes | None = None, env: dict[str, str] | None = None,
           timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "herzla", *args], input=stdin,
                          capture_output=True, timeout=timeout, check=False,
                          env={**os.environ, **(env or {})})


# -- tracebacks that were ---------------------------------------------------------------------
def test_deeply_nested_json(tmp_path: Path) -> None:
    deep = "[" * 100_000
    assert "nested too deeply" in one_error(invoke("replay", "-", stdin=deep))
    path = tmp_path / "deep.json"
    path.write_text('{"game": ' + deep)
    assert "nested too deeply" in one_error(invoke("replay", str(path)))


def test_a_number_of_too_many_digits_anywhere() -> None:
    rec = json.dumps(CASES[0])
    for spot in ('"dealer": 3', '"stock": 0', '"players": 4'):
        key = spot.split(":")[0]
        bad = rec.replace(spot, f"{key}: {'9' * 5000}") if spot in rec else \
            rec[:-1] + f", {key}: {'9' * 5000}}}"
        assert "too many digits" in one_error(invoke("replay", "-", stdin=bad))
    big = rec.replace('"dealer": 3', '"dealer": ' + "9" * 100)
    line = one_error(invoke("replay", "-", stdin=big))
    assert "a number of 100 digits" in line and "9999999999" not in line


def test_invalid_utf8_on_standard_input_under_a_strict_decoder() -> None:
    out = herzla("replay", "-", stdin=b'\xff\xfe{"game": 1}',
                 env={"PYTHONIOENCODING": "utf-8:strict"})
    assert out.returncode == 2
    assert out.stderr.decode().strip() == \
        "herzla: error: standard input line 1 is not UTF-8 text (byte 0xff at position 0)"


@pytest.mark.parametrize("args", [
    ["--contract", "normal", "--stock", "9223372036854775807"],
    ["--contract", "normal", "--stock", "1" + "0" * 40],
    ["--contract", "normal", "-o", "contract_stake=4611686018427387904"],
    ["--contract", "normal", "-o", "heart_unit=" + "9" * 5000],
    ["--contract", "mord", "-o", "contract_stake=-1"],
    ["--seed", "-1"],
    ["--seed", str(2**64)],
])
def test_amounts_beyond_the_limits_are_refused(args: list[str]) -> None:
    line = one_error(invoke("simulate", "herzla", "--hands", "10", *args))
    assert len(line) < 200


def test_the_limits_agree_across_commands_and_the_library() -> None:
    rec = dict(CASES[0], stock=MAX_AMOUNT + 1)
    with pytest.raises(RecordError, match="1,000,000,000,000"):
        Record.from_json(rec)
    assert "1,000,000,000,000" in one_error(invoke("replay", "-", stdin=json.dumps(rec)))
    assert "1,000,000,000,000" in one_error(
        invoke("score", "herzla", "normal", "--hearts", "0,3,5,0", "--stock", str(MAX_AMOUNT + 1)))
    assert "1,000,000,000,000" in one_error(
        invoke("deal", "herzla", "--seed", "1", "--stock", str(MAX_AMOUNT + 1)))
    ok = invoke("score", "herzla", "normal", "--hearts", "0,3,5,0", "--stock", str(MAX_AMOUNT))
    assert ok.exit_code == 0
    assert "seed" in one_error(invoke("deal", "herzla", "--seed", "-1"))
    with pytest.raises(RecordError, match="seed"):
        deal_record("herzla", "normal", 4, seed=-1)


def test_an_answer_to_a_full_disk() -> None:
    with open("/dev/full", "wb") as full:
        out = subprocess.run([sys.executable, "-m", "herzla", "rules", "herzla"], stdout=full,
                             stderr=subprocess.PIPE, timeout=60, check=False)
    assert out.returncode == 2
    assert out.stderr.decode().strip() == \
        "herzla: error: cannot write the answer: No space left on device"


# -- wrong figures and silent acceptance ------------------------------------------------------
@pytest.mark.parametrize(("args", "says"), [
    (["beddl", "--declarer", "3", "--made", "--tricks", "0,0,0,1"], "Beddl was lost, not made"),
    (["beddl", "--declarer", "3", "--lost", "--tricks", "8,0,0,0"], "Beddl was made, not lost"),
    (["mord", "--declarer", "0", "--made", "--tricks", "7,1,0,0"], "Mord was lost, not made"),
    (["beddl", "--declarer", "1", "--made", "--lost"], "--made and --lost exclude each other"),
    (["normal", "--hearts", "-1,3,3,3"], "fewer than 0 hearts"),
    (["normal", "--hearts", "8,0,0,0"], "Schleichermord"),
    (["normal", "--hearts", "1" + "0" * 25 + ",0,0,0"], "too long"),
])
def test_contradictory_tallies(args: list[str], says: str) -> None:
    assert says in one_error(invoke("score", "herzla", *args))


def test_stock_paid_only_when_something_is_paid() -> None:
    odd = json.loads(invoke("score", "herzla", "normal", "--hearts", "0,4,4,0", "--stock", "1",
                            "--json").stdout)
    assert odd["events"] == ["two-void"] and odd["stock"] == 1
    assert any("does not split into whole cents" in line for line in odd["explanation"])
    paid = json.loads(invoke("score", "herzla", "normal", "--hearts", "0,4,4,0", "--stock", "2",
                             "--json").stdout)
    assert paid["events"] == ["two-void", "stock-paid"] and paid["stock"] == 0


def test_a_key_given_twice_is_malformed() -> None:
    text = json.dumps(CASES[0])
    twice = text[:-1] + ', "dealer": 0}'
    assert 'the key "dealer" appears twice' in one_error(invoke("replay", "-", stdin=twice))
    nested = text.replace('"options": {}', '"options": {"no_void": "pay-stock", '
                                           '"no_void": "no-payment"}')
    if nested != text:
        assert "appears twice" in one_error(invoke("replay", "-", stdin=nested))


def test_a_mark_on_the_opening_jack_has_no_effect() -> None:
    rec = next(c for c in CASES if c["contract"] == "domino" and c["players"] == 4
               and not any(p.endswith(("+", "-")) for p in c["plays"]))
    plain = replay(Record.from_json(rec))
    first = next(i for i, p in enumerate(rec["plays"]) if p != "pass" and p[1] == "J")
    for mark in "+-":
        marked = copy.deepcopy(rec)
        marked["plays"][first] += mark
        again = replay(Record.from_json(marked))
        assert again.illegal == plain.illegal and again.order == plain.order


def test_end_marks_outside_the_domino_are_malformed() -> None:
    rec = next(c for c in CASES if c["contract"] == "auflegen")
    bad = copy.deepcopy(rec)
    bad["plays"][0] += "+"
    assert "end mark" in one_error(invoke("replay", "-", stdin=json.dumps(bad)))
    trick = copy.deepcopy(CASES[0])
    trick["plays"][0] += "-"
    assert "end mark" in one_error(invoke("replay", "-", stdin=json.dumps(trick)))


def test_the_trick_in_progress_comes_last() -> None:
    rec = copy.deepcopy(CASES[0])
    rec["plays"] = rec["plays"][:6]
    answer = json.loads(invoke("replay", "-", "--json", stdin=json.dumps(rec)).stdout)
    assert [t["winner"] is None for t in answer["tricks"]] == [False, True]
    assert answer["tricks"][-1]["cards"] == rec["plays"][4:6]
    text = invoke("replay", "-", stdin=json.dumps(rec)).stdout
    assert f"trick 2: seat 1 leads {' '.join(rec['plays'][4:6])} (in progress)" in text


# -- output files -----------------------------------------------------------------------------
SIM = ["simulate", "herzla", "--hands", "300", "--seed", "2", "--jobs", "1", "--sample", "3"]


def test_sample_out_writes_through_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "real.jsonl"
    target.write_text("old\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    assert invoke(*SIM, "--sample-out", str(link)).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert len(target.read_text().splitlines()) == 3
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_sample_out_writes_into_a_fifo_and_a_device(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    result = invoke(*SIM, "--sample-out", str(fifo))
    got, _ = reader.communicate(timeout=30)
    assert result.exit_code == 0 and len(got.decode().splitlines()) == 3
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    before = os.stat("/dev/null")
    assert invoke(*SIM, "--sample-out", "/dev/null").exit_code == 0
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


@pytest.mark.parametrize("flag", ["--sample-out", "--plot"])
def test_empty_output_names_are_usage_errors(flag: str) -> None:
    args = [*SIM, flag, ""] if flag == "--sample-out" else [*SIM[:-2], flag, ""]
    assert "not an empty one" in one_error(invoke(*args))


def test_outputs_are_checked_before_any_hand_is_played(tmp_path: Path) -> None:
    line = one_error(invoke(*SIM[:-2], "--hands", "1e9", "--plot", str(tmp_path / "no" / "x.png")))
    assert "no such folder" in line
    assert "is a folder" in one_error(invoke(*SIM, "--sample-out", str(tmp_path)))


def test_sigterm_leaves_no_partial_file(tmp_path: Path) -> None:
    out = tmp_path / "hands.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "herzla", "simulate", "herzla", "--hands",
                             "1e9", "--jobs", "1", "--seed", "1", "--sample", "2",
                             "--sample-out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 30
    while time.time() < deadline and not any(p.name.endswith(".tmp") for p in
                                             tmp_path.iterdir()):
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + signal.SIGTERM
    assert err.decode().strip() == "herzla: stopped by SIGTERM"
    assert list(tmp_path.iterdir()) == []


# -- large inputs and messages ----------------------------------------------------------------
def test_json_lines_are_answered_as_they_come_until_a_bad_line(tmp_path: Path) -> None:
    good = json.dumps(CASES[0])
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join([good, good, "{", good]) + "\n")
    result = invoke("replay", str(path), "--json")
    assert result.exit_code == 2
    assert len(result.stdout.splitlines()) == 2
    assert result.stderr.startswith("herzla: error: line 3: not valid JSON")


def test_a_huge_single_document_has_a_limit(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    import herzla.cli.input as reader

    monkeypatch.setattr(reader, "MAX_DOCUMENT", 1000)
    path = tmp_path / "big.json"
    path.write_text(json.dumps([CASES[0]] * 3, indent=1))
    assert "larger than" in one_error(invoke("replay", str(path)))


@pytest.mark.parametrize(("stdin", "says"), [
    ('{"game": "herzla', "not valid JSON: Unterminated string starting at line 1 column 10"),
    ("", "not valid JSON: Expecting value at line 1 column 1"),
])
def test_json_messages_read_well(stdin: str, says: str) -> None:
    assert one_error(invoke("replay", "-", stdin=stdin)) == f"herzla: error: {says}"


def test_messages_quote_what_was_written_not_python() -> None:
    rec = copy.deepcopy(CASES[0])
    rec["hands"][0][0] = None
    assert one_error(invoke("replay", "-", stdin=json.dumps(rec))).endswith(
        "hands[0]: null is not a card code")
    rec = dict(CASES[0], dealer=True)
    assert one_error(invoke("replay", "-", stdin=json.dumps(rec))).endswith(
        "dealer must be a whole number, not true")
    assert "give a file name" in one_error(invoke("replay", ""))


def test_score_sheet_columns_stay_apart() -> None:
    rec = dict(CASES[0], options={"heart_unit": 10**9})
    out = invoke("replay", "-", stdin=json.dumps([rec]))
    assert out.exit_code == 0
    total = next(line for line in out.stdout.splitlines() if line.strip().startswith("total"))
    assert all(len(cell) > 1 for cell in total.split())


# -- fuzzing ----------------------------------------------------------------------------------
def _mutate(draw: st.DrawFn) -> Any:
    rec: Any = copy.deepcopy(draw(st.sampled_from(CASES)))
    scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30),
                        st.floats(allow_nan=False), st.text(max_size=8))
    values = st.recursive(scalars, lambda c: st.lists(c, max_size=3)
                          | st.dictionaries(st.text(max_size=5), c, max_size=3), max_leaves=6)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["key", "drop", "play", "hand", "swap"]))
        if kind == "key":
            rec[draw(st.sampled_from([*list(rec), "extra"]))] = draw(values)
        elif kind == "drop" and rec:
            rec.pop(draw(st.sampled_from(list(rec))))
        elif kind == "play" and isinstance(rec.get("plays"), list) and rec["plays"]:
            i = draw(st.integers(0, len(rec["plays"]) - 1))
            rec["plays"][i] = draw(st.one_of(values, st.sampled_from(
                ["pass", "HA+", "h10", "XX", "C7-", "♥A", ""])))
        elif kind == "hand" and isinstance(rec.get("hands"), list) and rec["hands"]:
            seat = draw(st.integers(0, len(rec["hands"]) - 1))
            rec["hands"][seat] = draw(values)
        elif kind == "swap" and isinstance(rec.get("plays"), list):
            rec["plays"] = list(reversed(rec["plays"]))
    return rec


@st.composite
def _records(draw: st.DrawFn) -> Any:
    return _mutate(draw)


@settings(max_examples=150 * SCALE, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(rec=_records())
def test_fuzz_the_record_reader(rec: Any) -> None:
    try:
        result = replay(Record.from_json(rec))
    except RecordError:
        return
    assert result.complete in (True, False)


@settings(max_examples=60 * SCALE, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(rec=_records(), cut=st.integers(0, 400), as_json=st.booleans())
def test_fuzz_replay(rec: Any, cut: int, as_json: bool) -> None:
    text = json.dumps(rec)
    for stdin in (text, text[:cut]):
        result = invoke("replay", "-", *(["--json"] if as_json else []), stdin=stdin)
        assert result.exit_code in (0, 1, 2), result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        if result.exit_code == 2:
            one_error(result)


@settings(max_examples=60 * SCALE, deadline=None)
@given(data=st.binary(max_size=300))
def test_fuzz_replay_with_random_bytes(data: bytes) -> None:
    result = invoke("replay", "-", stdin=data)
    assert result.exit_code in (0, 1, 2)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    if result.exit_code == 2:
        one_error(result)


_TALLY = st.one_of(st.none(), st.text(alphabet="0123456789,- x", max_size=12),
                   st.lists(st.integers(-3, 12), min_size=0, max_size=5).map(
                       lambda xs: ",".join(map(str, xs))))


@settings(max_examples=80 * SCALE, deadline=None)
@given(contract=st.sampled_from([("herzla", "normal"), ("herzla", "beddl"), ("herzla", "mord"),
                                 ("herzeln", "no-hearts"), ("herzeln", "domino"),
                                 ("herzeln", "last-trick"), ("herzerln", "jacks"),
                                 ("herzla-kids", "normal")]),
       tricks=_TALLY, hearts=_TALLY, order=_TALLY, captured=st.lists(
           st.sampled_from(["HA HT", "-", "QQ", "DQ HQ", "", "HK"]), max_size=4),
       made=st.sampled_from([[], ["--made"], ["--lost"]]),
       declarer=st.sampled_from([[], ["--declarer", "2"], ["--declarer", "9"]]),
       last=st.sampled_from([[], ["--last-trick", "1"], ["--last-trick", "-4"]]),
       stock=st.sampled_from([[], ["--stock", "80"], ["--stock", "-1"]]))
def test_fuzz_score(contract: tuple[str, str], tricks: str | None, hearts: str | None,
                    order: str | None, captured: list[str], made: list[str],
                    declarer: list[str], last: list[str], stock: list[str]) -> None:
    args = ["score", *contract, *made, *declarer, *last, *stock]
    for flag, value in (("--tricks", tricks), ("--hearts", hearts), ("--order", order)):
        if value is not None:
            args += [flag, value]
    for c in captured:
        args += ["--captured", c]
    result = invoke(*args)
    assert result.exit_code in (0, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    if result.exit_code == 2:
        one_error(result)
    else:
        assert "Scores:" in result.stdout
