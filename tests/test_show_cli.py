"""``herzla show`` and ``herzla replay --html``: reading as replay reads, the text drawing, the
SVG and HTML files, --review, NO_COLOR and the ASCII fallback."""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
import types
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from herzla.cli import main
from herzla.records import Record
from tests.test_draw import REVIEW, assert_fetches_nothing, cards_drawn, parse_svg

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
ROOT = EXAMPLES.parents[1]


def ex(name: str) -> str:
    return str(EXAMPLES / name)


def test_show_draws_a_record(runner: CliRunner) -> None:
    out = runner.invoke(main, ["show", ex("herzla-two-void.json"), "--faces", "french"])
    assert out.exit_code == 0, out.output
    assert out.output.startswith("herzla normal: 4 players, dealer seat 3, forehand seat 0")
    assert "  seat 0 (forehand)  ♣ Q J 10 7      ♠ Q 9     ♥ -          ♦ Q 9" in out.output
    assert "                     (CQ CJ CT C7)   (SQ S9)                (DQ D9)" in out.output
    assert ("      1  seat 0  ♣7 (C7)    ♣A (CA)    ♣8 (C8)    ♣9 (C9)    seat 1"
            in out.output)
    assert "(rule herzla/two-void)" in out.output
    assert "\x1b[" not in out.output  # not a terminal: no colour


def test_deal_pipes_into_show(runner: CliRunner) -> None:
    dealt = runner.invoke(main, ["deal", "herzerln", "--contract", "auflegen", "--seed", "4"])
    assert dealt.exit_code == 0
    out = runner.invoke(main, ["show", "-"], input=dealt.output)
    assert out.exit_code == 0, out.output
    assert "herzerln auflegen: 4 players" in out.output
    assert "no card laid yet" in out.output


def test_illegal_play_exits_1(runner: CliRunner) -> None:
    out = runner.invoke(main, ["show", ex("herzla-heart-lead-ban.json"), "--faces", "french"])
    assert out.exit_code == 1
    assert "♥K (HK)!" in out.output
    assert ("Result: illegal: ♥K (HK) by seat 1 at play 5, trick 2, 1st card (heart-lead-ban)"
            in out.output)


def test_malformed_exits_2_in_one_line(runner: CliRunner) -> None:
    out = runner.invoke(main, ["show", ex("malformed-duplicate.json")])
    assert out.exit_code == 2
    assert out.output == "herzla: error: SA is dealt to seats 0 and 1\n"


def test_json_lines_and_lists(runner: CliRunner, tmp_path: Path) -> None:
    out = runner.invoke(main, ["show", ex("hands.jsonl")])
    assert out.exit_code == 0
    assert out.output.count("herzla normal: 4 players") == 2
    out = runner.invoke(main, ["show", ex("herzerln-partie.json")])
    assert out.exit_code == 0
    assert out.output.count("\nHand ") + out.output.startswith("Hand ") == 6
    assert "herzerln partie, 4 players" in out.output and "Winner: seat 2 with 12." in out.output
    bad = tmp_path / "bad.jsonl"
    lines = (EXAMPLES / "hands.jsonl").read_text(encoding="utf-8").splitlines()
    bad.write_text(lines[0] + "\n" + '{"game": "herzla"}\n', encoding="utf-8")
    out = runner.invoke(main, ["show", str(bad)])
    assert out.exit_code == 2
    assert "herzla: error: line 2: the hand record has no \"contract\"" in out.output


def test_svg_and_html_files(runner: CliRunner, tmp_path: Path) -> None:
    svg, html = tmp_path / "hand.svg", tmp_path / "hand.html"
    out = runner.invoke(main, ["show", ex("herzla-beddl-lost.json"), "--svg", str(svg),
                               "--html", str(html)])
    assert out.exit_code == 0, out.output
    assert out.output == f"Wrote the picture to {svg}.\nWrote the page to {html}.\n"
    rec = Record.from_json(json.loads((EXAMPLES / "herzla-beddl-lost.json").read_text()))
    root = parse_svg(svg.read_text(encoding="utf-8"))
    assert len(cards_drawn(root)) == 32 + len(rec.plays)
    page = html.read_text(encoding="utf-8")
    assert_fetches_nothing(page)
    assert "<code>herzla/contract-settlement</code>" in page
    sheet_svg = tmp_path / "sheet.svg"
    out = runner.invoke(main, ["show", ex("herzla-session.json"), "--svg", str(sheet_svg)])
    assert out.exit_code == 0
    words = "".join(ET.fromstring(sheet_svg.read_text(encoding="utf-8")).itertext())
    assert "herzla session, 4 players" in words and "+100c" in words


def test_files_take_one_record(runner: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "x.svg"
    out = runner.invoke(main, ["show", ex("hands.jsonl"), "--svg", str(target)])
    assert out.exit_code == 2
    assert "--svg draws one hand record or one JSON list of records" in out.output
    assert not target.exists()
    one = tmp_path / "one.jsonl"
    one.write_text((EXAMPLES / "hands.jsonl").read_text().splitlines()[0] + "\n")
    out = runner.invoke(main, ["show", str(one), "--html", str(tmp_path / "one.html")])
    assert out.exit_code == 0
    out = runner.invoke(main, ["show", ex("herzla-two-void.json"), "--svg", str(tmp_path)])
    assert out.exit_code == 2 and "is a folder, not a file" in out.output


def test_output_written_through_a_link(runner: CliRunner, tmp_path: Path) -> None:
    real = tmp_path / "real.html"
    real.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to(real)
    out = runner.invoke(main, ["show", ex("herzla-two-void.json"), "--html", str(link)])
    assert out.exit_code == 0
    assert link.is_symlink() and real.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_illegal_record_still_written_and_exits_1(runner: CliRunner, tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    out = runner.invoke(main, ["show", ex("herzla-heart-lead-ban.json"), "--html", str(page)])
    assert out.exit_code == 1
    assert ('<span class="illegal">Illegal: Hz-K (HK)</span> by seat 1 at play 5, trick 2'
            in page.read_text(encoding="utf-8"))


def test_replay_html(runner: CliRunner, tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    out = runner.invoke(main, ["replay", ex("herzeln-partie.json"), "--html", str(page)])
    assert out.exit_code == 0
    assert out.output.startswith("herzeln partie, 4 players")  # the answer is unchanged
    text = page.read_text(encoding="utf-8")
    assert_fetches_nothing(text)
    assert text.count("<h2>Hand ") == 8
    page2 = tmp_path / "r2.html"
    out = runner.invoke(main, ["replay", ex("herzla-two-void.json"), "--json", "--html",
                               str(page2)])
    assert json.loads(out.output)["scores"] == [40, -30, -50, 40]
    assert page2.exists()
    out = runner.invoke(main, ["replay", ex("hands.jsonl"), "--html", str(tmp_path / "r3.html")])
    assert out.exit_code == 2 and not (tmp_path / "r3.html").exists()


def test_review_absent_is_one_line(runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("herzla.cli.show.REVIEW_MODULE", "herzla.analysis.no_such_review")
    out = runner.invoke(main, ["show", ex("herzla-two-void.json"), "--review"])
    assert out.exit_code == 2
    assert out.output == ("herzla: error: --review needs herzla.analysis.no_such_review, which "
                          "this herzla does not have\n")


def _fake_review(monkeypatch: pytest.MonkeyPatch) -> list[Record]:
    """A review module answering REVIEW, recording what it was asked."""
    asked: list[Record] = []

    class Answer:
        def to_dict(self) -> dict[str, Any]:
            return REVIEW

    def review(record: Record, seat: int | None = None) -> Answer:
        asked.append(record)
        return Answer()

    module = types.ModuleType("fake_review")
    module.__spec__ = importlib.machinery.ModuleSpec("fake_review", None)
    module.review = review  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_review", module)
    monkeypatch.setattr("herzla.cli.show.REVIEW_MODULE", "fake_review")
    return asked


def test_review_is_rendered(runner: CliRunner, monkeypatch: pytest.MonkeyPatch,
                            tmp_path: Path) -> None:
    asked = _fake_review(monkeypatch)
    out = runner.invoke(main, ["show", ex("herzla-two-void.json"), "--review", "--faces",
                               "french"])
    assert out.exit_code == 0, out.output
    assert "♠A (SA) -10" in out.output
    assert "cost 10" in out.output
    page = tmp_path / "r.html"
    out = runner.invoke(main, ["show", ex("herzla-two-void.json"), "--review", "--html",
                               str(page)])
    assert out.exit_code == 0
    assert "Review: what each mistake cost" in page.read_text(encoding="utf-8")
    assert len(asked) == 2 and asked[0].contract_id == "normal"
    out = runner.invoke(main, ["show", ex("herzla-heart-lead-ban.json"), "--review"])
    assert out.exit_code == 1 and len(asked) == 2  # an illegal hand is not reviewed


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "herzla", *args], cwd=ROOT,
                          env={**os.environ, **env}, capture_output=True, timeout=120,
                          check=False)


def test_ascii_fallback() -> None:
    done = _run(["show", ex("herzeln-3p-domino.json")], {"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode("ascii")
    assert "C 10 9" in text and "D A K Q 9" in text


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.parametrize(("no_color", "coloured"), [("", True), ("1", False)])
def test_colour_on_a_terminal_unless_no_color(no_color: str, coloured: bool) -> None:
    main_fd, sub_fd = os.openpty()
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    if no_color:
        env["NO_COLOR"] = no_color
    proc = subprocess.Popen([sys.executable, "-m", "herzla", "show",
                             ex("herzla-two-void.json")], cwd=ROOT, env=env, stdout=sub_fd,
                            stderr=subprocess.PIPE)
    os.close(sub_fd)
    chunks = []
    while True:
        try:
            chunk = os.read(main_fd, 65536)
        except OSError:  # the terminal closed with the program
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(main_fd)
    assert proc.wait(timeout=120) == 0
    text = b"".join(chunks).decode("utf-8")
    assert "Eichel" in text
    assert ("\x1b[31m" in text) is coloured


def test_color_flag(runner: CliRunner) -> None:
    out = runner.invoke(main, ["show", ex("herzla-two-void.json"), "--color", "always",
                               "--faces", "french"])
    assert "\x1b[31m♥" in out.output
    out = runner.invoke(main, ["show", ex("herzla-two-void.json"), "--color", "never"],
                        env={"NO_COLOR": ""})
    assert "\x1b[" not in out.output


def test_a_page_draws_at_most_the_limit(runner: CliRunner, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import herzla.limits

    monkeypatch.setattr(herzla.limits, "MAX_DRAWN_HANDS", 2)
    page = tmp_path / "s.html"
    out = runner.invoke(main, ["show", ex("herzla-session.json"), "--html", str(page)])
    assert out.exit_code == 2
    assert out.output == ("herzla: error: a picture or page draws at most 2 hands, not 3 (draw "
                          "a shorter list, or the hands one a line as text)\n")
    assert not page.exists()
    out = runner.invoke(main, ["replay", ex("herzla-session.json"), "--html", str(page)])
    assert out.exit_code == 2 and not page.exists()
    out = runner.invoke(main, ["show", ex("herzla-session.json")])
    assert out.exit_code == 0  # text has no such limit



@pytest.mark.slow
def test_review_end_to_end(runner: CliRunner, tmp_path: Path) -> None:
    """--review with the real double-dummy review: the mistakes `herzla review` finds, each
    marked in the text and listed on the page with its cost."""
    from herzla.analysis.review import review

    path = ex("herzla-two-void.json")
    found = review(json.loads(Path(path).read_text(encoding="utf-8")))
    costs = {(m.seat, m.card): m.loss for m in found.mistakes()}
    assert costs[2, "HQ"] == 20  # the hand-checked mistake of the worked case
    out = runner.invoke(main, ["show", path, "--review", "--faces", "french"])
    assert out.exit_code == 0, out.output
    text = out.output
    for (seat, card), loss in costs.items():
        assert f"seat {seat} played " in text and f"({card}), value" in text
        assert f"cost {loss}" in text
    page = tmp_path / "review.html"
    out = runner.invoke(main, ["show", path, "--review", "--html", str(page)])
    assert out.exit_code == 0, out.output
    html = page.read_text(encoding="utf-8")
    assert_fetches_nothing(html)
    assert "cost (double dummy)" in html and ">20<" in html
