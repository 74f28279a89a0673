"""The command line as a user meets it: replay, deal, score, help and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from herzla.cli import main
from tests.conftest import CASES
from tests.helpers import CASE_RECORDS, invoke, one_error

ROOT = Path(__file__).resolve().parents[1]


def record_text(name: str) -> str:
    return json.dumps(json.loads((CASES / f"{name}.json").read_text())["record"])


def one_error_line(result: object) -> str:
    from click.testing import Result
    assert isinstance(result, Result)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("herzla: error: ")
    return lines[0]


def test_help_of_every_command(runner: CliRunner) -> None:
    out = runner.invoke(main, ["--help"])
    assert out.exit_code == 0
    bare = runner.invoke(main, [])
    assert bare.exit_code == 0 and bare.output == out.output
    for cmd in ("replay", "deal", "score", "rules", "simulate"):
        assert cmd in out.output
        sub = runner.invoke(main, [cmd, "--help"], prog_name="herzla")
        assert sub.exit_code == 0 and "Usage: herzla " + cmd in sub.output


def test_replay_human_output(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(record_text("02-herzla-one-void-stock-paid"))
    out = runner.invoke(main, ["replay", str(path)])
    assert out.exit_code == 0
    assert "trick 1: seat 0 leads C7 CA C8 C9 -> seat 1" in out.output
    assert "Scores: seat 0 +160c, seat 1 -30c, seat 2 -30c, seat 3 -20c" in out.output
    assert "Stock: 0c" in out.output
    assert "collects the stock of 80c (rule herzla/stock-payout)" in out.output


def test_replay_illegal_exits_1_and_says_why(runner: CliRunner) -> None:
    out = runner.invoke(main, ["replay", "-"], input=record_text("13-herzla-heart-lead-ban"))
    assert out.exit_code == 1
    assert "illegal play 5 (trick 2, 1st card), rule heart-lead-ban" in out.output
    assert "seat 1 may not lead HK to trick 2" in out.output


def test_replay_layout_output(runner: CliRunner) -> None:
    out = runner.invoke(main, ["replay", "-"], input=record_text("41-herzerln-6-auflegen"))
    assert out.exit_code == 0
    assert "out in order: seat 2 seat 3 seat 0 seat 1" in out.output
    assert "Seat 2 went out first: +20" in out.output


def test_replay_score_sheet(runner: CliRunner) -> None:
    names = ["36-herzerln-1-tricks", "37-herzerln-2-hearts", "38-herzerln-3-jacks"]
    text = "[" + ",".join(record_text(n) for n in names) + "]"
    out = runner.invoke(main, ["replay", "-"], input=text)
    assert out.exit_code == 0, out.output
    assert "herzerln partie, 4 players" in out.output
    assert "The partie is not over yet." in out.output
    wrong_order = "[" + ",".join(record_text(n) for n in reversed(names)) + "]"
    line = one_error_line(runner.invoke(main, ["replay", "-"], input=wrong_order))
    assert "deal 1 of a herzerln partie is tricks, not jacks" in line


def test_herzla_session_carries_the_stock(runner: CliRunner) -> None:
    grows = json.loads(record_text("05-herzla-no-void-stock-grows"))  # 80c -> 160c
    split = json.loads(record_text("03-herzla-two-void-stock-split"))  # 160c -> 0c
    grows["stock"] = 80
    del split["stock"]
    out = runner.invoke(main, ["replay", "-", "--json"], input=json.dumps([grows, split]))
    assert out.exit_code == 0, out.output
    sheet = json.loads(out.stdout)
    assert [d["stock"] for d in sheet["deals"]] == [160, 0]
    assert sheet["totals"] == [100, -50, -70, 100]
    assert sheet["stock"] == 0 and sum(sheet["totals"]) + 0 - 80 == 0
    split["stock"] = 80
    line = one_error_line(runner.invoke(main, ["replay", "-"], input=json.dumps([grows, split])))
    assert "record 2 says the stock is 80c, but the session carries 160c" in line


def test_deal_is_seeded_and_replays(runner: CliRunner) -> None:
    a = runner.invoke(main, ["deal", "herzerln", "--seed", "11", "-p", "3"])
    b = runner.invoke(main, ["deal", "herzerln", "--seed", "11", "-p", "3"])
    c = runner.invoke(main, ["deal", "herzerln", "--seed", "12", "-p", "3"])
    assert a.exit_code == 0 and a.output == b.output != c.output
    rec = json.loads(a.output)
    assert rec["contract"] == "tricks" and [len(h) for h in rec["hands"]] == [10, 10, 10]
    back = runner.invoke(main, ["replay", "-", "--json"], input=a.output)
    assert back.exit_code == 0 and json.loads(back.output)["complete"] is False
    mord = runner.invoke(main, ["deal", "herzla", "--seed", "1", "-c", "mord", "--declarer", "2"])
    assert json.loads(mord.output)["declarer"] == 2


@pytest.mark.parametrize(("name", "mutate", "message"), [
    ("unknown card", lambda r: r["hands"][0].__setitem__(0, "HX"), '"HX" is not a card code'),
    ("duplicate", lambda r: r["hands"][1].__setitem__(0, r["hands"][0][0]),
     "CQ is dealt to seats 0 and 1"),
    ("hand size", lambda r: r["hands"][2].pop(), "seat 2 holds 7 cards; herzla with 4 players"),
    ("contract", lambda r: r.__setitem__("contract", "misere"), '"misere" is not a herzla'),
    ("game", lambda r: r.__setitem__("game", "skat"), 'unknown game "skat"'),
    ("players", lambda r: r.__setitem__("players", 5), "played by 4 players, not 5"),
    ("declarer", lambda r: r.__setitem__("declarer", 1), "herzla normal has no declarer"),
    ("beddl", lambda r: r.__setitem__("contract", "beddl"), "herzla beddl needs a declarer"),
    ("stock", lambda r: r.__setitem__("stock", -5),
     "must be 0 to 576,460,752,303,423,488 (what an evening of 10,000 deals can carry), not -5"),
    ("play", lambda r: r["plays"].__setitem__(3, "pass"), '"pass" exists only in the layout'),
    ("play code", lambda r: r["plays"].__setitem__(3, "C1"), 'plays[3]: "C1" is not a card'),
    ("option", lambda r: r.__setitem__("options", {"x": 1}), 'unknown option "x" for herzla'),
    ("key", lambda r: r.__setitem__("note", 1), 'unknown key "note"'),
])
def test_malformed_records(runner: CliRunner, name: str, mutate: object,
                           message: str) -> None:
    rec = json.loads(record_text("01-herzla-two-void"))
    assert callable(mutate)
    mutate(rec)
    line = one_error_line(runner.invoke(main, ["replay", "-", "--json"], input=json.dumps(rec)))
    assert message in line


def test_replay_json_lines(runner: CliRunner) -> None:
    lines = "\n".join([record_text("01-herzla-two-void"), record_text("13-herzla-heart-lead-ban"),
                       record_text("41-herzerln-6-auflegen")])
    out = runner.invoke(main, ["replay", "-", "--json"], input=lines)
    assert out.exit_code == 1
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert [a["illegal"] is None for a in answers] == [True, False, True]
    bad = lines + "\n" + "{}"
    assert 'line 4: the hand record has no "game"' in one_error_line(
        runner.invoke(main, ["replay", "-"], input=bad))


def test_bad_json_and_missing_file(runner: CliRunner) -> None:
    assert "not valid JSON" in one_error_line(runner.invoke(main, ["replay", "-"], input="{"))
    assert "no such file: nope.json" in one_error_line(runner.invoke(main, ["replay",
                                                                           "nope.json"]))
    assert "must be a JSON object" in one_error_line(
        runner.invoke(main, ["replay", "-"], input="[1]"))


def test_usage_errors_are_one_line(runner: CliRunner) -> None:
    one_error_line(runner.invoke(main, ["deal", "herzla"]))  # --seed missing
    one_error_line(runner.invoke(main, ["deal", "herzla", "--seed", "x"]))
    one_error_line(runner.invoke(main, ["deal", "herzla", "--seed", "1", "-c", "solo"]))
    one_error_line(runner.invoke(main, ["frobnicate"]))
    line = one_error_line(runner.invoke(main, ["deal", "herzla", "--seed", "1", "-o", "x"]))
    assert "write NAME=VALUE" in line


# -- the scoring-disputes lookup: five made-up disputes, checked by hand against RULES.md ----

def score(runner: CliRunner, *args: str) -> dict[str, object]:
    out = runner.invoke(main, ["score", *args, "--json"])
    assert out.exit_code == 0, out.output
    answer = json.loads(out.stdout)
    assert isinstance(answer, dict)
    return answer


def test_dispute_two_void_with_stock(runner: CliRunner) -> None:
    """Seats 1 and 2 took 3 and 5 hearts, 90c in the stock: 0 and 3 split 80c and 90c."""
    a = score(runner, "herzla", "normal", "--hearts", "0,3,5,0", "--stock", "90")
    assert a["scores"] == [85, -30, -50, 85] and a["stock"] == 0


def test_dispute_schleichermord_needs_all_tricks(runner: CliRunner) -> None:
    """Seat 2 took all 8 tricks unannounced: +240, others -80; the stock is untouched (§1)."""
    a = score(runner, "herzla", "normal", "--tricks", "0,0,8,0", "--hearts", "0,0,8,0",
              "--stock", "40")
    assert a["scores"] == [-80, -80, 240, -80] and a["stock"] == 40
    assert a["events"] == ["schleichermord"]
    b = score(runner, "herzla", "normal", "--tricks", "1,0,7,0", "--hearts", "0,0,8,0")
    assert b["scores"] == [0, 0, -80, 0] and b["stock"] == 80  # all hearts, not all tricks


def test_schleichermord_from_tricks_alone(runner: CliRunner) -> None:
    a = score(runner, "herzla", "normal", "--tricks", "8,0,0,0")
    assert a["scores"] == [240, -80, -80, -80]


def test_dispute_mord_lost(runner: CliRunner) -> None:
    a = score(runner, "herzla", "mord", "--declarer", "1", "--lost")
    assert a["scores"] == [80, -240, 80, 80]
    assert any("rule herzla/contract-settlement" in str(x) for x in a["explanation"])  # type: ignore


def test_dispute_herzeln_no_hearts(runner: CliRunner) -> None:
    """Case 22 from the captured hearts alone: -12, -10, -9, -2 (§3 deal 1)."""
    a = score(runner, "herzeln", "no-hearts", "--captured", "HA H7", "--captured", "HT",
              "--captured", "HK HQ HJ", "--captured", "H9 H8")
    assert a["scores"] == [-12, -10, -9, -2]


def test_dispute_auflegen_three_players(runner: CliRunner) -> None:
    a = score(runner, "herzerln", "auflegen", "-p", "3", "--order", "1,0,2")
    assert a["scores"] == [14, 21, 7]


@pytest.mark.parametrize(("args", "message"), [
    (["herzeln", "every-trick", "--tricks", "3,3,2,1"], "add up to 9, but herzeln with 4 players"
                                                         " has 8 tricks"),
    (["herzeln", "no-queens", "--captured", "SQ", "--captured", "sq", "--captured", "-",
      "--captured", "-"], "SQ is captured by seats 0 and 1"),
    (["herzla", "normal", "--hearts", "0,3,5,1"], "add up to 9"),
    (["herzla", "normal", "--tricks", "0,2,6,0", "--hearts", "1,3,4,0"],
     "seat 0 won 0 tricks, so it cannot have captured 1 hearts"),
    (["herzeln", "last-trick", "--tricks", "2,2,4,0", "--last-trick", "3"],
     "seat 3 won no trick"),
    (["herzerln", "auflegen", "--order", "0,1,1,2"], "must name each of the 4 seats once"),
    (["herzla", "beddl", "--lost"], "herzla beddl needs the declarer: give --declarer SEAT"),
    (["herzla", "mord", "--declarer", "0", "--tricks", "3,0,0,0"], "Mord is made only when"),
    (["herzla", "mord", "--declarer", "1", "--tricks", "3,0,1,0"],
     "the defenders cannot have won 4"),
    (["herzla", "beddl", "--declarer", "3", "--tricks", "2,2,2,2"],
     "seat 3 cannot have won 2"),
    (["herzla-kids", "normal", "-p", "4", "--hearts", "3,3,2,0"],
     "the hearts captured add up to 8, not 9"),
    (["herzla-kids", "normal", "-p", "5", "--hearts", "1,0,0,0,0"],
     "add up to at least 8 (only 1 card lies aside)"),
    (["herzeln", "no-hearts", "--hearts", "1,2,3,2"], "needs the cards each seat captured"),
    (["herzla", "normal", "--hearts", "0,3,5"], "one value per seat (4 seats), not 3"),
    (["herzla", "normal", "--captured", "HX"], '"HX" is not a card code'),
])
def test_contradictory_tallies(runner: CliRunner, args: list[str], message: str) -> None:
    assert message in one_error_line(runner.invoke(main, ["score", *args]))


def test_a_sheet_is_one_of_the_kinds_herzla_knows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Game.sheet names a Sheet: the built-in games' are enum members, and a game naming a word
    no sheet implements is refused with one line, not scored as a session."""
    from herzla.contracts import Sheet, games, get_game
    from herzla.records import RecordError
    from herzla.sheets import score_sheet

    assert {Sheet(get_game(g).sheet) for g in games()} <= set(Sheet)
    doc = json.loads((Path(__file__).resolve().parents[1] / "docs" / "examples" /
                      "herzeln-partie.json").read_text(encoding="utf-8"))
    assert score_sheet(doc).kind is Sheet.PARTIE
    monkeypatch.setattr(type(get_game("herzeln")), "sheet", "tournament")
    with pytest.raises(RecordError, match='sheet herzla does not know: "tournament"'):
        score_sheet(doc)


# -- a score sheet of large amounts -----------------------------------------------------------
def test_score_sheet_columns_stay_apart() -> None:
    rec = dict(CASE_RECORDS[0], options={"heart_unit": 10**9})
    out = invoke("replay", "-", stdin=json.dumps([rec]))
    assert out.exit_code == 0
    total = next(line for line in out.stdout.splitlines() if line.strip().startswith("total"))
    assert all(len(cell) > 1 for cell in total.split())


# -- errors that name what a user wrote, checked before any work ------------------------------
@pytest.mark.parametrize("args", [
    ["replay", "no\nsuch\u2028file"], ["solve", "a\rb", "--seat", "0"], ["replay", "--bo\ngus"],
    ["simulate", "herzla", "--hands", "10", "--sample", "1", "--sample-out", "/no\n/x"],
])
def test_an_error_naming_what_a_user_wrote_stays_one_line(args: list[str]) -> None:
    line = one_error(invoke(*args))
    assert "\\n" in line or "\\r" in line or "\\u2028" in line


@pytest.mark.parametrize(("args", "says"), [
    (["simulate", "herzla", "--hands", "10", "--seed", "1", "--cluster", ""],
     "the scheduler address '' is empty"),
    (["match", "herzla", "--policies", "random,heuristic", "--deals", "2", "--seed", "1",
      "--cluster", "tcp://host:99999"], "'99999' is not a port (1 to 65535)"),
    (["solve", str(ROOT / "docs/examples/herzla-two-void-trick6.json"), "--seat", "0",
      "--cluster", "tcp://no host:8786"], "'no host' is not a host name or IP address"),
])
def test_a_cluster_address_is_checked_before_any_work(args: list[str], says: str) -> None:
    assert says in one_error(invoke(*args))
