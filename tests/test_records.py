"""Hand records as herzla reads them: one reader behind every command and function
(:func:`herzla.records.read_record`), and what it refuses, in one line naming the problem (JSON
nested too deeply, a number of too many digits, bytes that are not UTF-8, a key given twice, an
end mark outside the domino, a list where a record belongs); JSON Lines answered as they come;
and hypothesis throwing random bytes, truncations, type swaps and mutations of valid records at
the reader, ``replay`` and ``solve``, where the only outcomes allowed are an answer or the
documented error and exit code."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from herzla.records import Record, RecordError, read_record, replay
from tests.helpers import CASE_RECORDS, HERZLA, SCALE, invoke, one_error, two_tricks_to_go

ROOT = Path(__file__).resolve().parents[1]


# -- what the reader refuses, in one line -----------------------------------------------------
def test_deeply_nested_json(tmp_path: Path) -> None:
    deep = "[" * 100_000
    assert "nested too deeply" in one_error(invoke("replay", "-", stdin=deep))
    path = tmp_path / "deep.json"
    path.write_text('{"game": ' + deep)
    assert "nested too deeply" in one_error(invoke("replay", str(path)))


def test_a_number_of_too_many_digits_anywhere() -> None:
    rec = json.dumps(CASE_RECORDS[0])
    for spot in ('"dealer": 3', '"stock": 0', '"players": 4'):
        key = spot.split(":")[0]
        bad = rec.replace(spot, f"{key}: {'9' * 5000}") if spot in rec else \
            rec[:-1] + f", {key}: {'9' * 5000}}}"
        assert "too many digits" in one_error(invoke("replay", "-", stdin=bad))
    big = rec.replace('"dealer": 3', '"dealer": ' + "9" * 100)
    line = one_error(invoke("replay", "-", stdin=big))
    assert "a number of 100 digits" in line and "9999999999" not in line


def herzla(*args: str, stdin: bytes | None = None, env: dict[str, str] | None = None,
           timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "herzla", *args], input=stdin,
                          capture_output=True, timeout=timeout, check=False,
                          env={**os.environ, **(env or {})})


def test_invalid_utf8_on_standard_input_under_a_strict_decoder() -> None:
    out = herzla("replay", "-", stdin=b'\xff\xfe{"game": 1}',
                 env={"PYTHONIOENCODING": "utf-8:strict"})
    assert out.returncode == 2
    assert out.stderr.decode().strip() == \
        "herzla: error: standard input line 1 is not UTF-8 text (byte 0xff at position 0)"


def test_a_key_given_twice_is_malformed() -> None:
    text = json.dumps(CASE_RECORDS[0])
    twice = text[:-1] + ', "dealer": 0}'
    assert 'the key "dealer" appears twice' in one_error(invoke("replay", "-", stdin=twice))
    nested = text.replace('"options": {}', '"options": {"no_void": "pay-stock", '
                                           '"no_void": "no-payment"}')
    if nested != text:
        assert "appears twice" in one_error(invoke("replay", "-", stdin=nested))


def test_end_marks_outside_the_domino_are_malformed() -> None:
    rec = next(c for c in CASE_RECORDS if c["contract"] == "auflegen")
    bad = copy.deepcopy(rec)
    bad["plays"][0] += "+"
    assert "end mark" in one_error(invoke("replay", "-", stdin=json.dumps(bad)))
    trick = copy.deepcopy(CASE_RECORDS[0])
    trick["plays"][0] += "-"
    assert "end mark" in one_error(invoke("replay", "-", stdin=json.dumps(trick)))


def test_a_huge_single_document_has_a_limit(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    import herzla.cli.input as reader

    monkeypatch.setattr(reader, "MAX_DOCUMENT", 1000)
    path = tmp_path / "big.json"
    path.write_text(json.dumps([CASE_RECORDS[0]] * 3, indent=1))
    assert "larger than" in one_error(invoke("replay", str(path)))


@pytest.mark.parametrize(("stdin", "says"), [
    ('{"game": "herzla', "not valid JSON: Unterminated string starting at line 1 column 10"),
    ("", "not valid JSON: Expecting value at line 1 column 1"),
])
def test_json_messages_read_well(stdin: str, says: str) -> None:
    assert one_error(invoke("replay", "-", stdin=stdin)) == f"herzla: error: {says}"


def test_messages_quote_what_was_written_not_python() -> None:
    rec = copy.deepcopy(CASE_RECORDS[0])
    rec["hands"][0][0] = None
    assert one_error(invoke("replay", "-", stdin=json.dumps(rec))).endswith(
        "hands[0]: null is not a card code")
    rec = dict(CASE_RECORDS[0], dealer=True)
    assert one_error(invoke("replay", "-", stdin=json.dumps(rec))).endswith(
        "dealer must be a whole number, not true")
    assert "give a file name" in one_error(invoke("replay", ""))


# -- one reader for every command and function ------------------------------------------------
def _pairs(rec: dict[str, Any], **extra: Any) -> list[list[Any]]:
    """A record as a list of [key, value] pairs, with ``extra`` keys given a second time."""
    return [[k, v] for k, v in rec.items()] + [[k, v] for k, v in extra.items()]


@pytest.mark.parametrize("command", ["solve", "replay"])
def test_a_list_of_key_value_pairs_is_not_a_record(command: str) -> None:
    pairs = json.dumps(_pairs(HERZLA, stock=170))
    lines = json.dumps(HERZLA) + "\n" + pairs + "\n"
    line = one_error(invoke(command, "-", "--seat", "0", stdin=lines) if command == "solve"
                     else invoke(command, "-", stdin=lines))
    assert line == "herzla: error: line 2: a hand record must be a JSON object, not a list"
    whole = invoke(command, "-", *(["--seat", "0"] if command == "solve" else []), stdin=pairs)
    assert "a hand record must be a JSON object, not a list" in one_error(whole)


def test_the_library_reads_records_in_one_place() -> None:
    from herzla import solve

    pairs = _pairs(HERZLA, stock=170)
    for call in (lambda: solve(pairs, seat=0),  # type: ignore[arg-type]
                 lambda: replay(pairs),  # type: ignore[arg-type]
                 lambda: read_record(pairs)):
        with pytest.raises(RecordError, match="must be a JSON object, not a list"):
            call()
    rec = read_record(HERZLA)
    assert read_record(rec) is rec
    assert replay(HERZLA) == replay(rec)
    assert solve(HERZLA, seat=0).value == solve(rec, seat=0).value


def test_no_module_reads_a_record_but_the_reader() -> None:
    """``Record.from_json`` is called by ``read_record`` alone; everything else goes through
    ``read_record`` (so a new reader cannot skip its checks).  The evening's own readers
    (``Entry.from_json``, ``Evening.from_json``) and the table's (``Table.from_json``,
    ``Deal.from_json``, ``Person.from_json``) read no record themselves."""
    calls = []
    for path in sorted((ROOT / "herzla").rglob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"(?<!Entry\.)(?<!Evening\.)(?<!Table\.)(?<!Deal\.)(?<!Person\.)"
                         r"\bfrom_json\(", line) and \
                    "def from_json" not in line:
                calls.append(f"{path.relative_to(ROOT)}:{n}")
    assert len(calls) == 1 and calls[0].startswith("herzla/records.py:"), calls


@pytest.mark.parametrize("line", ["null", "[1, 2]", '"abc"', "42", "true"])
@pytest.mark.parametrize("command", ["solve", "replay"])
def test_json_lines_that_are_not_objects(command: str, line: str) -> None:
    stdin = json.dumps(HERZLA) + "\n" + line + "\n"
    seat = ["--seat", "0"] if command == "solve" else []
    result = invoke(command, "-", *seat, stdin=stdin)
    assert "line 2: a hand record must be a JSON object, not" in one_error(result)


@pytest.mark.parametrize("doc", ["null", "42", '"abc"', "true"])
def test_a_document_that_is_not_a_record(doc: str) -> None:
    for args in (["solve", "-", "--seat", "0"], ["replay", "-"]):
        assert "a hand record must be a JSON object, not" in one_error(invoke(*args, stdin=doc))


def test_solve_a_list_names_the_record() -> None:
    line = one_error(invoke("solve", "-", "--seat", "0", stdin=json.dumps([HERZLA, None])))
    assert line == "herzla: error: record 2: a hand record must be a JSON object, not null"


def test_echo_null_into_solve_in_a_real_process() -> None:
    out = subprocess.run([sys.executable, "-m", "herzla", "solve", "-", "--seat", "0"],
                         input=b"null\n", capture_output=True, timeout=60, check=False)
    assert out.returncode == 2
    assert out.stderr.decode().strip() == \
        "herzla: error: a hand record must be a JSON object, not null"


# -- JSON Lines, end marks and the trick in progress ------------------------------------------
def test_json_lines_are_answered_as_they_come_until_a_bad_line(tmp_path: Path) -> None:
    good = json.dumps(CASE_RECORDS[0])
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join([good, good, "{", good]) + "\n")
    result = invoke("replay", str(path), "--json")
    assert result.exit_code == 2
    assert len(result.stdout.splitlines()) == 2
    assert result.stderr.startswith("herzla: error: line 3: not valid JSON")


def test_a_mark_on_the_opening_jack_has_no_effect() -> None:
    rec = next(c for c in CASE_RECORDS if c["contract"] == "domino" and c["players"] == 4
               and not any(p.endswith(("+", "-")) for p in c["plays"]))
    plain = replay(Record.from_json(rec))
    first = next(i for i, p in enumerate(rec["plays"]) if p != "pass" and p[1] == "J")
    for mark in "+-":
        marked = copy.deepcopy(rec)
        marked["plays"][first] += mark
        again = replay(Record.from_json(marked))
        assert again.illegal == plain.illegal and again.order == plain.order


def test_the_trick_in_progress_comes_last() -> None:
    rec = copy.deepcopy(CASE_RECORDS[0])
    rec["plays"] = rec["plays"][:6]
    answer = json.loads(invoke("replay", "-", "--json", stdin=json.dumps(rec)).stdout)
    assert [t["winner"] is None for t in answer["tricks"]] == [False, True]
    assert answer["tricks"][-1]["cards"] == rec["plays"][4:6]
    text = invoke("replay", "-", stdin=json.dumps(rec)).stdout
    assert f"trick 2: seat 1 leads {' '.join(rec['plays'][4:6])} (in progress)" in text


# -- fuzzing ----------------------------------------------------------------------------------
def _mutate(draw: st.DrawFn) -> Any:
    rec: Any = copy.deepcopy(draw(st.sampled_from(CASE_RECORDS)))
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


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=6),
                     lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c,
                                                                         max_size=3),
                     max_leaves=6)


@settings(max_examples=40 * SCALE, deadline=None)
@given(value=_JSON, command=st.sampled_from(["solve", "replay"]))
def test_fuzz_a_json_lines_line_in_solve_and_replay(value: Any, command: str) -> None:
    """Whatever JSON a second line holds, both commands read it by the same reader: a record
    answered, or one line naming the problem (exit 2)."""
    stdin = json.dumps(two_tricks_to_go()) + "\n" + json.dumps(value) + "\n"
    seat = ["--seat", "0"] if command == "solve" else []
    result = invoke(command, "-", *seat, stdin=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1, 2), result.output
    if result.exit_code == 2:
        assert one_error(result).startswith("herzla: error: line 2: ")
