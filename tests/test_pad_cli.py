"""``herzla pad`` as a person at the table uses it: through click's CliRunner, with the file
read back after every command, and every refusal one line, exit 2, the file unchanged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from herzla.cli import main
from herzla.evening import Evening, load
from tests.test_evening import HERZELN, record


def pad(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["pad", *args], input=stdin)


def ok(*args: str, stdin: str | None = None) -> str:
    out = pad(*args, stdin=stdin)
    assert out.exit_code == 0, out.output
    assert out.stderr == ""
    return out.stdout


def one_line(out: Result) -> str:
    assert out.exit_code == 2, out.output
    assert "Traceback" not in out.output and out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("herzla: error: ")
    return lines[0].removeprefix("herzla: error: ")


@pytest.fixture
def evening(tmp_path: Path) -> str:
    path = str(tmp_path / "evening.json")
    out = ok("new", path, "--game", "Herzla", "--players", "Anna, Berni,Carla,Done")
    assert out == ("New herzla evening in " + path + ": Anna, Berni, Carla, Done; stock 0c\n"
                   "next: deal 1, dealt by Done\n")
    return path


def test_an_evening_at_the_table(evening: str) -> None:
    out = ok("add", evening, "--hearts", "2,2,2,2")
    assert out.splitlines() == [
        "deal 1 (dealt by Done), normal: Anna -20c, Berni -20c, Carla -20c, Done -20c; "
        "stock 80c",
        "totals: Anna -20c, Berni -20c, Carla -20c, Done -20c; stock 80c",
        "next: deal 2, dealt by Anna"]
    out = ok("add", evening, "--hearts", "1 0 3 4")
    assert out.splitlines()[0] == ("deal 2 (dealt by Anna), normal: Anna -10c, Berni +160c, "
                                   "Carla -30c, Done -40c; stock 0c")
    ok("add", evening, "--contract", "Beddl", "--declarer", "carla", "--lost")
    ok("add", evening, "--contract", "mord", "--declarer", "2", "--made")
    e = load(evening)
    assert e.totals == (-30 + 80 - 80, 140 + 80 - 80, -50 - 240 + 240, -60 + 80 - 80)
    assert e.entries[2].declarer == "Carla" and e.entries[3].declarer == "2"
    text = ok("show", evening)
    assert "  3  Berni   beddl (Carla)" in text and "Next: deal 5, dealt by Done." in text
    assert ok("show", evening, "--json") == json.dumps(e.to_dict(), indent=1) + "\n"
    settled = json.loads(ok("settle", evening, "--json"))
    net = dict.fromkeys([*e.players, "stock"], 0)
    for p in settled["settlement"]:
        net[p["from"]] += p["cents"]
        net[p["to"]] -= p["cents"]
    assert [net[p] for p in e.players] == [-t for t in e.totals] and net["stock"] == 0
    assert ok("settle", evening).splitlines()[0].startswith("totals: Anna -30c")


def test_edit_drop_and_undo_recompute(evening: str) -> None:
    for hearts in ("2,2,2,2", "0,3,5,0", "0,2,3,3"):
        ok("add", evening, "--hearts", hearts)
    assert load(evening).deals[1].scores == (80, -30, -50, 80)  # the stock of 80c split
    out = ok("edit", evening, "1", "--hearts", "0,4,4,0")
    assert "(2 deals after it scored again)" in out
    e = load(evening)
    assert [d.scores for d in e.deals] == [(40, -40, -40, 40), (40, -30, -50, 40),
                                           (80, -20, -30, -30)]
    out = ok("drop", evening, "2")
    assert out.startswith("Dropped deal 2; 1 deal after it scored again.")
    assert load(evening).deals[1].scores == (80, -20, -30, -30)
    assert ok("undo", evening).startswith("Took back: deal 2 dropped.")
    assert ok("undo", evening).startswith("Took back: deal 1 edited.")
    assert [d.scores for d in load(evening).deals] == [(-20, -20, -20, -20),
                                                       (80, -30, -50, 80), (80, -20, -30, -30)]


@pytest.mark.parametrize(("args", "message"), [
    (["add", "--hearts", "0,3,5"], "deal 1: hearts: give one value per seat (4 seats), not 3"),
    (["add", "--hearts", "1,1,1,1"], "the hearts captured add up to 4"),
    (["add", "--hearts", "a,b"], "write whole numbers"),
    (["add"], "give the deal"),
    (["add", "--contract", "beddl", "--made"],
     "deal 1: herzla beddl needs the declarer: give --declarer SEAT"),
    (["add", "--contract", "bedl", "--declarer", "Anna", "--made"], "did you mean beddl"),
    (["add", "--contract", "beddl", "--declarer", "Ana", "--made"], "did you mean Anna"),
    (["add", "--contract", "beddl", "--declarer", "Anna", "--made", "--lost"], "exclude"),
    (["add", "--contract", "mord", "--declarer", "Anna"],
     "deal 1: herzla mord needs the tricks won by each seat, or whether the declarer made the "
     "contract: give --tricks or --made or --lost"),
    (["add", "--hearts", "0,3,5,0", "--renege", "Anna"], "give no hearts with it"),
    (["add", "--hearts", "0,3,5,0", "--record", "x.json"], "leave out --hearts"),
    (["edit", "1", "--hearts", "0,3,5,0"], "there is no deal 1 (the evening has no deal yet)"),
    (["drop", "0"], "there is no deal 0"),
    (["undo"], "there is no change to take back"),
])
def test_a_bad_change_is_one_line_and_the_file_unchanged(evening: str, args: list[str],
                                                         message: str) -> None:
    before = Path(evening).read_bytes()
    line = one_line(pad(args[0], evening, *args[1:]))
    assert message in line, line
    assert Path(evening).read_bytes() == before


def test_a_missing_tally_names_the_flags(evening: str) -> None:
    line = one_line(pad("add", evening, "--contract", "beddl", "--declarer", "Anna"))
    assert line.endswith(": give --tricks or --made or --lost"), line


def test_records_as_deals(tmp_path: Path) -> None:
    path = str(tmp_path / "partie.json")
    ok("new", path, "--game", "herzeln", "--players", "A,B,C,D")
    for name in HERZELN:
        rec = tmp_path / f"{name}.json"
        rec.write_text(json.dumps(record(name)))
        ok("add", path, "--record", str(rec))
    text = ok("show", path)
    assert "Winner: D with -2." in text and "next: deal 9" not in text
    assert "Next: deal 9 (deal 1 of partie 2), no-hearts, dealt by D." in text
    settle = json.loads(ok("settle", path, "--json"))
    assert settle == {"winners": ["D"], "totals": [-52, -120, -39, -2]}
    before = Path(path).read_bytes()
    line = one_line(pad("add", path, "--record", "-",
                        stdin=json.dumps(record("23-herzeln-2-every-trick"))))
    assert line == "deal 9 is deal 1 of partie 2, so no-hearts, not every-trick"
    assert Path(path).read_bytes() == before


def test_show_draws_the_evening(evening: str, tmp_path: Path) -> None:
    for hearts in ("2,2,2,2", "0,3,5,0"):
        ok("add", evening, "--hearts", hearts)
    svg, html = tmp_path / "totals.svg", tmp_path / "evening.html"
    out = ok("show", evening, "--svg", str(svg), "--html", str(html))
    assert out == f"Wrote the picture to {svg}.\nWrote the page to {html}.\n"
    assert svg.read_text().startswith("<svg xmlns=") and "Anna +60c" in svg.read_text()
    page = html.read_text()
    assert page.startswith("<!DOCTYPE html>") and "Settlement" in page
    drawn = pad("show", evening, "--svg", "-")
    assert drawn.exit_code == 0 and drawn.stdout.startswith("<svg")
    assert drawn.stderr == "Wrote the picture to standard output.\n"


def test_what_is_not_an_evening(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text(json.dumps(record("01-herzla-two-void")))
    assert "not a herzla evening" in one_line(pad("show", str(path)))
    later = Evening.new("herzla", ["A", "B", "C", "D"]).to_json()
    path.write_text(json.dumps({**later, "version": 99}))
    before = path.read_bytes()
    assert "written by a later herzla" in one_line(pad("add", str(path), "--hearts",
                                                       "0,3,5,0"))
    assert path.read_bytes() == before
    assert "no such file" in one_line(pad("show", str(tmp_path / "none.json")))
    path.write_bytes(b"\xff\xfe")
    assert "is not UTF-8 text" in one_line(pad("undo", str(path)))


def test_new_refuses_what_does_not_fit(tmp_path: Path, evening: str) -> None:
    path = str(tmp_path / "n.json")
    assert "exists already" in one_line(pad("new", evening, "--game", "herzla", "--players",
                                            "A,B,C,D"))
    assert "herzla normal is played by 4 players, not 3" in one_line(
        pad("new", path, "--game", "herzla", "--players", "A,B,C"))
    assert "did you mean herzla" in one_line(pad("new", path, "--game", "herzl", "--players",
                                                 "A,B,C,D"))
    assert "unknown option" in one_line(pad("new", path, "--game", "herzla", "--players",
                                            "A,B,C,D", "-o", "pot=3"))
    assert not Path(path).exists()
    ok("new", path, "--game", "herzla-kids", "--players", "Ida,Jo,Kai", "-o", "target=5",
       "--dealer", "jo")
    assert load(path).next_dealer == 1


def test_a_match_refuses_a_deal_after_its_end(tmp_path: Path) -> None:
    path = str(tmp_path / "kids.json")
    ok("new", path, "--game", "herzla-kids", "--players", "Ida,Jo,Kai", "-o", "target=8")
    ok("add", path, "--hearts", "5,3,1")
    assert ok("add", path, "--hearts", "1,1,7").endswith("The match is over: no deal follows.\n")
    assert "the match ended with hand 2; deal 3 comes after it" in one_line(
        pad("add", path, "--hearts", "3,3,3"))
    assert "Winner: Jo with +4." in ok("show", path)


def test_pad_commands_are_forgiving(evening: str) -> None:
    assert "did you mean show" in pad("shwo", evening).stderr
    assert ok("SHOW", evening).startswith("herzla evening")


def test_names_with_markup_stay_text(tmp_path: Path) -> None:
    path = str(tmp_path / "m.json")
    ok("new", path, "--game", "herzla", "--players", "<b>A</b>,B&amp;,C\",D")
    ok("add", path, "--hearts", "0,3,5,0")
    page = tmp_path / "m.html"
    ok("show", path, "--html", str(page))
    text = page.read_text()
    assert "<b>A</b>" not in text and "&lt;b&gt;A&lt;/b&gt;" in text
    data: dict[str, Any] = json.loads(Path(path).read_text())
    assert data["players"][0] == "<b>A</b>"


def test_new_reads_an_option_in_any_case(tmp_path: Path) -> None:
    path = str(tmp_path / "ev.json")
    ok("new", path, "--game", "herzla", "--players", "A,B,C,D", "-o", "Heart_Unit=5")
    assert load(path).options == {"heart_unit": 5}
    assert json.loads(Path(path).read_text())["options"] == {"heart_unit": 5}


def test_show_keeps_standard_output_to_one_picture_or_page(evening: str) -> None:
    ok("add", evening, "--hearts", "2,2,2,2")
    both = pad("show", evening, "--svg", "-", "--html", "-")
    assert one_line(both) == "--svg and --html cannot both write to standard output: give one " \
                             "of them a file"
    page = pad("show", evening, "--json", "--html", "-")
    assert page.exit_code == 0 and page.stdout.startswith("<!DOCTYPE html>")
    assert page.stdout.rstrip().endswith("</html>")
    said = page.stderr.splitlines()
    assert said[0] == "Wrote the page to standard output."
    assert json.loads("\n".join(said[1:]))["totals"] == [-20, -20, -20, -20]


def test_a_missing_tally_names_the_flag_that_gives_it(tmp_path: Path) -> None:
    path = str(tmp_path / "k.json")
    ok("new", path, "--game", "herzla-kids", "--players", "A,B,C,D,E")
    said = one_line(pad("add", path, "--renege", "A"))
    assert said.endswith("the renege's stake counts only the cards dealt: give --aside")
    assert len(load(path).deals) == 0


def test_pad_commands_are_read_as_herzla_reads_names(evening: str) -> None:
    assert ok("SHOW", evening).startswith("herzla evening, 4 players")
    said = pad("ad", evening)
    assert said.exit_code == 2 and said.stderr.startswith(
        'herzla: error: no pad command "ad" (did you mean add? commands: add, ')


def test_show_names_each_deals_kind_and_explains_one(evening: str) -> None:
    ok("add", evening, "--hearts", "0,3,5,0")
    ok("add", evening, "--hearts", "8,0,0,0", "--tricks", "8,0,0,0")
    ok("add", evening, "--hearts", "0,8,0,0", "--tricks", "1,3,2,2")
    ok("add", evening, "--contract", "beddl", "--declarer", "Anna", "--lost")
    table = ok("show", evening).splitlines()
    assert [line.split()[2:4] for line in table[2:6]] == [
        ["normal:", "two"], ["normal:", "schleichermord"], ["normal:", "all"],
        ["beddl", "(Anna):"]]
    assert "contract lost" in table[5]
    assert "Statistics (a deal is won by the best score in it, ties included):" in table
    deal = ok("show", evening, "2").splitlines()
    assert deal[:3] == [
        "deal 2 (dealt by Anna), normal: Anna +240c, Berni -80c, Carla -80c, Done -80c; "
        "stock 0c", "kind: schleichermord", "entered: hearts 8,0,0,0, tricks 8,0,0,0"]
    assert deal[3].startswith("  Anna won all 8 tricks without announcing Mord")
    assert "seat" not in " ".join(deal).lower()  # the players' names, not seat numbers
    assert json.loads(ok("show", evening, "4", "--json"))["declarer"] == 0
    assert one_line(pad("show", evening, "9")) == "the evening has no deal 9 (it has deals 1 to 4)"
    assert "a deal's number" in one_line(pad("show", evening, "two"))
    assert "without a deal number" in one_line(pad("show", evening, "1", "--svg", "x.svg"))


def test_a_tallys_error_names_the_players(evening: str) -> None:
    said = one_line(pad("add", evening, "--contract", "beddl", "--declarer", "Berni",
                        "--tricks", "0,2,3,3"))
    assert said == "deal 1: Beddl ends the moment the declarer wins a trick, so Berni cannot " \
                   "have won 2"
