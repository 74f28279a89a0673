"""The hostile round's defects of the library and the command line (issue 32), each with the
input that had it: an evening's cost in its deals, digits that are no numbers, renege tallies
that cannot be, read-only files, outputs over inputs, the stock carried past its limit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from herzla.evening import Evening
from herzla.evening.deal import Deal
from tests.helpers import invoke, one_error


def test_an_evening_is_read_in_time_linear_in_its_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    looked: list[int] = []
    real = Deal.redeal

    def counted(self: Deal) -> bool:
        looked.append(1)
        return bool(real.fget(self))  # type: ignore[attr-defined]

    monkeypatch.setattr(Deal, "redeal", property(counted))
    body = Evening.new("herzla", ["A", "B", "C", "D"]).to_json()
    for n in (100, 400):
        looked.clear()
        body["deals"] = [{"hearts": [0, 3, 5, 0]}] * n
        assert len(Evening.from_json(body).deals) == n
        assert len(looked) <= 3 * n, (n, len(looked))  # a deal looked at a few times, not n


@pytest.mark.parametrize("digit", ["²", "٣", "9" * 5000])
def test_a_digit_that_is_no_number_is_one_line_on_the_command_line(tmp_path: Path,
                                                                   digit: str) -> None:
    evening = tmp_path / "e.json"
    line = one_error(invoke("pad", "new", str(evening), "--game", "herzla", "--players",
                            "A,B,C,D", "--dealer", digit))
    assert "dealer" in line and not evening.exists()
    invoke("pad", "new", str(evening), "--game", "herzla", "--players", "A,B,C,D")
    line = one_error(invoke("pad", "add", str(evening), "--hearts", f"{digit},2,2,2"))
    assert "whole numbers" in line or "too long" in line
    assert one_error(invoke("score", "herzla", "normal", "--hearts", f"0,3,5,{digit}"))
    assert one_error(invoke("score", "herzla", "normal", "--hearts", "0,3,5,0", "--option",
                            f"heart_unit={digit}"))


def test_digits_are_read_as_numbers_only_when_they_are_0_to_9() -> None:
    from herzla.counting import read_whole

    assert [read_whole(t) for t in ("0", "007", " 42\n", "²", "٣", "4²", "", "-1", "1.0")] == \
        [0, 7, 42, None, None, None, None, None, None]
    assert read_whole("-12", signed=True) == -12 and read_whole("9" * 20) is None


def _journal_mode(path: Path) -> str:
    """The journal mode the file says, read from its header (bytes 18 and 19: 2 in WAL mode),
    without opening it as a database."""
    head = path.read_bytes()[:20]
    return "wal" if head[18:20] == b"\x02\x02" else "rollback"


@pytest.mark.parametrize(("version", "said"), [
    ("'two'", '(its schema version is "two", not a whole number from 0)'),
    ("NULL", "(its schema version is null, not a whole number from 0)"),
    ("2.5", "(its schema version is 2.5, not a whole number from 0)"),
    ("-1", "(its schema version is -1, not a whole number from 0)"),
    ("99", "was written by a later herzla (schema version 99; this herzla reads up to"),
])
def test_a_store_it_cannot_read_is_refused_before_anything_changes(tmp_path: Path,
                                                                   version: str,
                                                                   said: str) -> None:
    import sqlite3

    from herzla.web.store import Store, StoreError

    path = tmp_path / "odd.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE schema_version (version)")
    con.execute(f"INSERT INTO schema_version VALUES ({version})")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(StoreError) as info:
        Store(path)
    assert said in str(info.value) and "\n" not in str(info.value)
    assert path.read_bytes() == before and _journal_mode(path) == "rollback"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["odd.db"]


def test_a_foreign_file_is_refused_before_anything_changes(tmp_path: Path) -> None:
    import sqlite3

    from herzla.web.store import Store, StoreError

    path = tmp_path / "photos.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE photos (id INTEGER)")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="but not herzla's"):
        Store(path)
    assert path.read_bytes() == before and _journal_mode(path) == "rollback"
    fresh = tmp_path / "fresh.db"
    Store(fresh)
    assert _journal_mode(fresh) == "wal"  # herzla's own file is in WAL mode


def test_pad_add_refuses_a_read_only_evening(tmp_path: Path) -> None:
    import os
    import stat

    evening = tmp_path / "e.json"
    assert invoke("pad", "new", str(evening), "--game", "herzla", "--players",
                  "A,B,C,D").exit_code == 0
    evening.chmod(0o444)
    before = evening.read_bytes()
    line = one_error(invoke("pad", "add", str(evening), "--hearts", "0,3,5,0"))
    assert line == f"herzla: error: cannot write {evening}: the file is read-only"
    assert evening.read_bytes() == before
    assert stat.S_IMODE(os.stat(evening).st_mode) == 0o444
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e.json"]  # no temporary file left
    line = one_error(invoke("pad", "show", str(tmp_path / "x.json"), "--html", str(evening)))
    assert "read-only" in line


def test_no_command_writes_an_output_over_its_input(tmp_path: Path) -> None:
    evening = tmp_path / "evening.json"
    assert invoke("pad", "new", str(evening), "--game", "herzla", "--players",
                  "A,B,C,D").exit_code == 0
    before = evening.read_bytes()
    line = one_error(invoke("pad", "show", str(evening), "--html", str(evening)))
    assert line == (f"herzla: error: --html {evening} is the evening this command reads: an "
                    f"output is never written over an input (give another file)")
    link = tmp_path / "link.json"
    link.symlink_to(evening)
    assert "--svg" in one_error(invoke("pad", "show", str(evening), "--svg", str(link)))
    assert evening.read_bytes() == before
    record = tmp_path / "hand.json"
    assert invoke("example", "herzla-two-void", "-o", str(record)).exit_code == 0
    hand = record.read_bytes()
    for args in (["show", str(record), "--html", str(record)],
                 ["show", str(record), "--svg", str(tmp_path / "a"), "--html",
                  str(tmp_path / "a")],
                 ["replay", str(record), "--html", str(record)]):
        assert "never written over an input" in one_error(invoke(*args)) or \
            "a file of its own" in one_error(invoke(*args))
    assert record.read_bytes() == hand and not (tmp_path / "a").exists()
    line = one_error(invoke("simulate", "herzla", "--hands", "2", "--sample", "1",
                            "--sample-out", str(tmp_path / "s"), "--plot", str(tmp_path / "s")))
    assert "both name" in line and not (tmp_path / "s").exists()


def test_the_stock_carried_past_the_start_limit_is_read_back(tmp_path: Path) -> None:
    from herzla.limits import MAX_AMOUNT, MAX_STOCK

    evening = tmp_path / "e.json"
    assert invoke("pad", "new", str(evening), "--game", "herzla", "--players", "A,B,C,D",
                  "--stock", str(MAX_AMOUNT)).exit_code == 0
    for _ in range(2):  # deal 2 is dealt with the stock carried past 10**12
        result = invoke("pad", "add", str(evening), "--hearts", "2,2,2,2")
        assert result.exit_code == 0, result.output
    assert f"stock {MAX_AMOUNT + 160}c" in result.stdout
    sample = tmp_path / "s.jsonl"
    result = invoke("simulate", "herzla", "--session", "3", "--hands", "3", "--stock",
                    str(MAX_AMOUNT), "--option", f"heart_unit={MAX_AMOUNT}", "--sample", "3",
                    "--sample-out", str(sample), "--seed", "1")
    assert result.exit_code == 0, result.output
    replayed = invoke("replay", str(sample), "--json")
    assert replayed.exit_code == 0, replayed.output
    assert len(replayed.stdout.splitlines()) == len(sample.read_text().splitlines()) == 9
    assert max(json.loads(line)["stock"] for line in sample.read_text().splitlines()) > \
        MAX_AMOUNT
    # what no evening can carry is still refused in one line
    record = json.loads(sample.read_text().splitlines()[0]) | {"stock": MAX_STOCK + 1}
    (tmp_path / "r.json").write_text(json.dumps(record))
    assert "the stock (cents) must be 0 to" in one_error(invoke("replay",
                                                                str(tmp_path / "r.json")))


@pytest.mark.parametrize(("args", "said"), [
    (["herzeln", "domino", "--renege", "1", "--left", "99,5,5,5"],
     "left: seat 0 cannot have held 99 cards (a hand of herzeln domino with 4 players is 8 "
     "cards)"),
    (["herzerln", "auflegen", "--players", "3", "--renege", "0", "--left", "12,12,12"],
     "left: seat 0 cannot have held 12 cards (a hand of herzerln auflegen with 3 players is 10 "
     "cards)"),
    (["herzeln", "domino", "--renege", "1", "--order", "2", "--left", "3,4,2,1"],
     "left: seat 2 is already out (order), so it held no card, not 2"),
    (["herzeln", "domino", "--renege", "1", "--left", "0,0,0,0"],
     "left: seat 0 is not out yet (order), so it still held a card, not 0"),
    (["herzeln", "domino", "--renege", "1", "--order", "0,2,3", "--left", "0,0,0,0"],
     "left: seat 1 reneged, so it still held a card, not 0"),
])
def test_renege_tallies_that_cannot_be_are_refused_in_one_line(args: list[str],
                                                                said: str) -> None:
    assert one_error(invoke("score", *args)) == f"herzla: error: {said}"


def test_a_renege_tally_that_can_be_is_still_scored() -> None:
    result = invoke("score", "herzeln", "domino", "--renege", "1", "--order", "2", "--left",
                    "3,4,0,1")
    assert result.exit_code == 0, result.output
    assert "Seat 1 reneged and takes the last place" in result.stdout


def test_a_policy_module_in_the_current_folder_is_found(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from herzla.players.registry import clear_caches

    (tmp_path / "my_module_h32.py").write_text(
        "from herzla.players.builtin import RandomPolicy\n\n\n"
        "class Name(RandomPolicy):\n    name = 'mine'\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    clear_caches()
    try:
        result = invoke("simulate", "herzla", "--hands", "4", "--seed", "1", "--policy",
                        "my_module_h32:Name", "--jobs", "1")
        assert result.exit_code == 0, result.output
        line = one_error(invoke("simulate", "herzla", "--hands", "4", "--policy",
                                "no_such_module_h32:Name"))
        assert "current folder" in line and "PYTHONPATH" in line
    finally:
        sys.modules.pop("my_module_h32", None)
        clear_caches()


def test_what_newcomers_tripped_on(tmp_path: Path) -> None:
    evening = tmp_path / "evening.json"
    assert invoke("pad", "new", str(evening), "--game", "herzla", "--players",
                  "Anna,Berni,Carla,Done").exit_code == 0
    for command in ("replay", "show", "solve"):
        assert one_error(invoke(command, str(evening))) == (
            f"herzla: error: {evening} holds an evening (the file of herzla pad), not hand "
            f"records: show it with herzla pad show {evening}")
    assert "did you mean beddl" in one_error(invoke("pad", "add", str(evening), "--contract",
                                                    "bedl", "--declarer", "Anna", "--made"))
    assert one_error(invoke("pad", "add", str(evening), "--contract", "beddl", "--made")) == \
        "herzla: error: deal 1: herzla beddl needs the declarer: give --declarer SEAT"
    assert one_error(invoke("score", "herzla", "beddl", "--made")) == \
        "herzla: error: herzla beddl needs the declarer: give --declarer SEAT"
    one = invoke("simulate", "herzla", "--session", "3", "--hands", "1", "--seed", "1")
    assert one.exit_code == 0 and "3 hands (1 evening of 3 deals) in " in one.stdout
    two = invoke("simulate", "herzla", "--session", "1", "--hands", "2", "--seed", "1")
    assert "2 hands (2 evenings of 1 deal) in " in two.stdout
    single = invoke("simulate", "herzla", "--hands", "1", "--seed", "1")
    assert "\n1 hand in " in single.stdout


def test_the_docs_say_what_newcomers_need() -> None:
    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text()
    assert "herzla serve --host 0.0.0.0" in readme
    evening = (root / "docs" / "evening.md").read_text()
    assert "is refused with one line. Enter the deal without it" not in evening
    assert "ruling on an established renege" in evening
    policies = (root / "docs" / "policies.md").read_text()
    assert "current folder" in policies and "PYTHONPATH" in policies
