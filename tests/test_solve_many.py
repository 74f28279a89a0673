""":func:`herzla.solve_many` and ``herzla solve`` on many records: the answers of
:func:`herzla.solve`, in input order, for any number of processes; and the readable text
answer (the line of best play trick by trick, by seat)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import herzla
from herzla.analysis.solve import IllegalPlayError, SolveError, SolveResult, solve
from herzla.analysis.solve_many import solve_each, solve_many
from herzla.cli import main
from herzla.records import RecordError
from herzla.support.procs import default_jobs

pytestmark = pytest.mark.usefixtures("builtin_registry")

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
TWO_VOID = json.loads((EXAMPLES / "herzla-two-void.json").read_text())
DOMINO = json.loads((EXAMPLES / "herzeln-3p-domino.json").read_text())
ILLEGAL = json.loads((EXAMPLES / "herzerln-heart-free.json").read_text())


def positions() -> list[dict[str, Any]]:
    return [dict(TWO_VOID, plays=TWO_VOID["plays"][:k]) for k in range(10, 33, 2)]


def without_time(results: list[SolveResult]) -> list[dict[str, Any]]:
    out = []
    for r in results:
        d = r.to_dict()
        del d["elapsed_s"]
        out.append(d)
    return out


def test_the_answers_of_solve_in_order_for_any_jobs() -> None:
    objs = positions()
    want = without_time([solve(o, seat=1, plays=True) for o in objs])
    for jobs in (1, 2):
        assert without_time(solve_many(objs, seat=1, plays=True, jobs=jobs)) == want
    assert herzla.solve_many is solve_many


def test_a_seat_per_record() -> None:
    objs = positions()
    seats = [k % 4 for k in range(len(objs))]
    got = solve_many(objs, seat=seats, jobs=2)
    assert [r.seat for r in got] == seats
    assert [r.value for r in got] == [solve(o, seat=s).value for o, s in zip(objs, seats,
                                                                              strict=True)]
    with pytest.raises(SolveError, match="one seat for every record"):
        solve_many(objs, seat=seats[:-1])


def test_each_record_is_answered_by_its_own_error() -> None:
    objs: list[Any] = [positions()[0], ILLEGAL, {"game": "herzla"}, dict(TWO_VOID, plays=[]),
                       positions()[1], 7]
    for jobs in (1, 2):
        got = list(solve_each(objs, seat=None, jobs=jobs))
        assert isinstance(got[1], IllegalPlayError)
        assert got[1].illegal.rule == "heart-free-first-trick"
        assert isinstance(got[2], RecordError) and "contract" in str(got[2])
        assert isinstance(got[3], SolveError) and "give the seat" in str(got[3])
        assert isinstance(got[0], SolveError) and isinstance(got[4], SolveError)
        assert isinstance(got[5], RecordError) and "JSON object" in str(got[5])
    with pytest.raises(IllegalPlayError):
        solve_many([ILLEGAL, positions()[0]], seat=0)


def test_records_are_read_as_the_work_goes() -> None:
    """An endless stream: the first answers come without the stream being read to its end."""
    stream = (dict(TWO_VOID, plays=TWO_VOID["plays"][:28 + k % 4]) for k in itertools.count())
    for jobs in (1, 2):
        gen = solve_each(stream, seat=0, jobs=jobs)
        got = list(itertools.islice(gen, 6))
        gen.close()
        assert all(isinstance(r, SolveResult) for r in got)


def test_arguments_are_named() -> None:
    for kwargs, says in (({"jobs": 1.5}, "jobs must be a whole number"),
                         ({"jobs": True}, "jobs must be a whole number"),
                         ({"cluster": 5}, "address of a dask scheduler"),
                         ({"cluster_timeout": float("inf")}, "at most 86,400"),
                         ({"seat": 1.0}, "a list of one seat per record")):
        with pytest.raises(SolveError, match=says):
            solve_many(positions(), **kwargs)
    with pytest.raises(SolveError, match="records are a list"):
        solve_many("herzla", seat=0)  # type: ignore[arg-type]


def test_jobs_are_checked() -> None:
    with pytest.raises(SolveError, match="at least 1"):
        solve_many(positions(), seat=0, jobs=0)
    with pytest.raises(SolveError, match="exclude"):
        solve_many(positions(), seat=0, jobs=2, cluster="tcp://127.0.0.1:1")
    # more than the cores: solved on the cores, the same answers
    assert len(solve_many(positions()[-2:], seat=0, jobs=default_jobs() + 3)) == 2


# -- herzla solve on many records ----------------------------------------------------------------

def _lines(objs: list[Any]) -> str:
    return "\n".join(json.dumps(o) for o in objs) + "\n"


def test_json_lines_the_same_for_any_jobs(runner: CliRunner) -> None:
    text = _lines(positions())
    outs = []
    for jobs in ("1", "2"):
        res = runner.invoke(main, ["solve", "-", "--seat", "2", "--json", "--jobs", jobs],
                            input=text)
        assert res.exit_code == 0, res.output
        answers = [json.loads(x) for x in res.output.splitlines()]
        for a in answers:
            del a["elapsed_s"]
        outs.append(answers)
    assert outs[0] == outs[1] and len(outs[0]) == len(positions())


def test_jobs_options_as_simulate_checks_them(runner: CliRunner) -> None:
    path = str(EXAMPLES / "herzla-two-void-trick6.json")
    for args in (["--jobs", "0"], ["--jobs", "2", "--cluster", "tcp://127.0.0.1:1"],
                 ["--cluster-timeout", "0"], ["--cluster-timeout", "inf"],
                 ["--cluster-timeout", "nan", "--cluster", "tcp://127.0.0.1:1"]):
        res = runner.invoke(main, ["solve", path, "--seat", "2", *args])
        assert res.exit_code == 2, (args, res.output)
        assert "Traceback" not in res.output
    many = default_jobs() + 1
    res = runner.invoke(main, ["solve", path, "--seat", "2", "--jobs", str(many)])
    assert res.exit_code == 0
    assert res.stderr.startswith(f"herzla: note: --jobs {many} is more than the")


def test_errors_keep_their_lines_and_order(runner: CliRunner) -> None:
    good = positions()[-1]
    res = runner.invoke(main, ["solve", "-", "--seat", "0", "--json", "--jobs", "2"],
                        input=_lines([good, ILLEGAL, good]))
    assert res.exit_code == 1
    answers = [json.loads(x) for x in res.stdout.splitlines()]
    assert "illegal" in answers[1] and answers[0] == answers[2] | {
        "elapsed_s": answers[0]["elapsed_s"]}
    res = runner.invoke(main, ["solve", "-", "--seat", "0", "--json", "--jobs", "2"],
                        input=_lines([good, {"game": "herzla"}, good]))
    assert res.exit_code == 2 and len(res.stdout.splitlines()) == 1
    assert res.stderr.strip().splitlines() == [
        'herzla: error: line 2: the hand record has no "contract"']
    res = runner.invoke(main, ["solve", "-", "--seat", "0", "--json", "--jobs", "2"],
                        input=_lines([good, good]) + "{broken\n")
    assert res.exit_code == 2 and len(res.stdout.splitlines()) == 2
    assert "line 3" in res.stderr


# -- the readable answer --------------------------------------------------------------------------

def test_the_line_trick_by_trick(runner: CliRunner) -> None:
    res = runner.invoke(main, ["solve", str(EXAMPLES / "herzla-two-void-trick6.json"),
                               "--seat", "2", "--plays"])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[2:6] == [
        "Best play:",
        "  trick 6: seat 2 ST, seat 3 SJ, seat 0 SQ, seat 1 SK; seat 1 wins",
        "  trick 7: seat 1 DK, seat 2 DT, seat 3 DJ, seat 0 DQ; seat 1 wins",
        "  trick 8: seat 1 CK, seat 2 HQ, seat 3 HT, seat 0 CQ; seat 1 wins",
    ]
    assert "Each play of seat 2: ST -30, HQ -50, DT -30" in res.output


def test_mid_trick_and_whose_score_the_plays_are(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(dict(TWO_VOID, plays=TWO_VOID["plays"][:18])))
    res = runner.invoke(main, ["solve", str(path), "--seat", "1", "--plays"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[3].startswith("  trick 5 (seat 2 HA, seat 3 HJ played): seat 0 ")
    assert lines[3].endswith("; seat 2 wins")
    each = next(x for x in lines if x.startswith("Each play"))
    assert each.startswith("Each play of seat 0, valued in seat 1's cents: ")


def test_the_layout_line_by_seat(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "d.json"
    path.write_text(json.dumps(dict(DOMINO, plays=DOMINO["plays"][:10])))
    res = runner.invoke(main, ["solve", str(path), "--seat", "0"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    line = solve(dict(DOMINO, plays=DOMINO["plays"][:10]), seat=0).line
    body = lines[lines.index("Best play:") + 1:-1]
    moves = [m for row in body for m in row.strip().split(", ")]
    assert [m.split()[2] for m in moves] == list(line)
    assert moves[0].startswith("seat 1 ")  # seat 1 is to move after the tenth play
    assert sum(1 for m in moves if m.endswith("(out)")) == 2


def _long_first(marker: Path, plays: bool, item: tuple[Any, int | None]) -> object:
    """A stand-in for one record's solve: record 0 lasts until record 100 has been solved
    (or gives up after a while), every other one is over at once."""
    import time

    index, _seat = item
    if index == 0:
        for _ in range(400):
            if marker.exists():
                return "waited"
            time.sleep(0.05)
        return "starved"
    if index == 100:
        marker.touch()
    return index


def test_this_process_keeps_solving_while_a_helper_works_on_a_long_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Record 0 goes to the helper, and this process solves the records after it meanwhile,
    far enough ahead to reach record 100 (a made Beddl can take as long as a hundred others)."""
    import functools

    from herzla.analysis import solve_many as module
    from herzla.support.procs import start_method

    if start_method() != "fork" or default_jobs() < 2:
        pytest.skip("the stand-in solve reaches a helper only when one is forked")
    monkeypatch.setattr(module, "_solve_one", functools.partial(_long_first, tmp_path / "m"))
    got = list(solve_each(list(range(150)), jobs=2))  # type: ignore[arg-type]
    assert got == ["waited", *range(1, 150)]
