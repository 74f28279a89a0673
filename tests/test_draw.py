"""Drawing the game (herzla.draw): every game and contract drawn as text, SVG and HTML.

The contracts come from the registry (every game, every contract class, every player count), so
a game or contract added later is drawn by these tests too.  SVG is parsed as XML and its cards
counted; HTML is checked to fetch nothing.
"""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from html import escape
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from herzla.cards import Card, cards_of, parse_cards
from herzla.contracts import Contract, LayoutContract, contract_classes, games
from herzla.draw.course import Mark, course
from herzla.draw.faces import Faces, can_encode, faces_of, labelled, labelled_code
from herzla.draw.html import record_page, review_html, sheet_page
from herzla.draw.svg import (
    card_svg,
    hand_svg,
    histograms_svg,
    record_svg,
    rows_svg,
    sheet_svg,
    trick_svg,
)
from herzla.draw.text import draw_text
from herzla.records import Record, replay
from herzla.sheets import score_sheet
from herzla.sim.stats import Histogram
from herzla.testing import random_hand
from tests.shares import some_in_default

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
SVG = "{http://www.w3.org/2000/svg}"


def _tables() -> list[tuple[str, str, int]]:
    return [(g, cls.id, n) for g in games() for cls in contract_classes(g)
            for n in cls.player_counts]


TABLES = _tables()


def played_record(game: str, contract_id: str, players: int, seed: int = 3,
                  keep: int | None = None) -> Record:
    """A hand of the contract played out with random legal moves (the first ``keep`` plays)."""
    cls = next(c for c in contract_classes(game) if c.id == contract_id)
    contract: Contract = cls.default(players)
    dealt, _, plays = random_hand(contract, random.Random(seed))
    obj: dict[str, Any] = {
        "game": game, "contract": contract_id, "players": players,
        "declarer": contract.declarer,
        "hands": [[str(c) for c in cards_of(m)] for m in dealt],
        "plays": plays[:keep] if keep is not None else plays,
    }
    return Record.from_json(obj)


def example(name: str) -> Record:
    return Record.from_json(json.loads((EXAMPLES / name).read_text(encoding="utf-8")))


def parse_svg(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    box = [float(x) for x in root.attrib["viewBox"].split()]
    assert box[:2] == [0, 0] and box[2] > 0 and box[3] > 0
    assert float(root.attrib["width"]) == box[2] and float(root.attrib["height"]) == box[3]
    return root


def cards_drawn(root: ET.Element) -> list[str]:
    return [g.attrib["data-code"] for g in root.iter(f"{SVG}g") if g.get("class") == "card"]


#: what fetches something in a page: a URL, a src or href, a script, a stylesheet link, an import
FETCHES = re.compile(r"https?:|//[a-z0-9.-]+\.[a-z]{2,}/|\bsrc\s*=|\bhref\s*=|<script|<link|"
                     r"<img|<iframe|<object|<embed|@import|url\(", re.IGNORECASE)


def assert_fetches_nothing(page: str) -> None:
    assert FETCHES.search(page) is None, FETCHES.search(page)
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")


@pytest.mark.parametrize(("game", "contract_id", "players"),
                         some_in_default(TABLES, kind=lambda case: case[:2], every=1_000,
                                         ids=lambda case: "-".join(map(str, case))))
def test_every_contract_draws_as_text_svg_and_html(game: str, contract_id: str,
                                                   players: int) -> None:
    rec = played_record(game, contract_id, players)
    c = course(rec)
    assert c.result.complete and c.illegal is None
    text = draw_text(c, unicode=False)
    assert text.isascii()
    assert f"{game} {contract_id}: {players} players" in text
    for seat in range(players):
        assert f"seat {seat}" in text
    for line in c.result.explanation:
        assert line in text
    dealt = sum(len(h) for h in rec.hands)
    left = sorted(str(x) for x in rec.leftovers())
    laid = [p for p in rec.plays if not p.is_pass]
    for faces in Faces:
        root = parse_svg(record_svg(c, faces))
        drawn = cards_drawn(root)
        assert sorted(drawn[:dealt]) == sorted(str(x) for h in rec.hands for x in h)
        if isinstance(rec.contract, LayoutContract):
            # the hands as dealt, the cards dealt to nobody, then the rows: every card laid
            assert sorted(drawn[dealt:dealt + len(left)]) == left
            assert sorted(drawn[dealt + len(left):]) == sorted(str(p.card) for p in laid)
            assert len(drawn) == dealt + len(left) + len(laid)
        else:
            # the hands as dealt, every card played trick by trick, the cards dealt to nobody
            played = drawn[dealt:dealt + len(rec.plays)]
            assert played == [str(p.card) for t in c.tricks or () for p in t.cards]
            assert sorted(drawn[dealt + len(rec.plays):]) == left
        page = record_page(c, faces)
        assert_fetches_nothing(page)
        assert page.count("<svg") == 1
        assert escape(rec.contract.title) in page
    if isinstance(rec.contract, LayoutContract):
        assert c.moves and c.rows
        assert sum(len(r.cards) for r in c.rows) == len(laid)
        assert "Out in order: " + ", ".join(f"seat {s}" for s in c.result.order or ()) in text
    else:
        assert c.tricks is not None
        assert [t.winner for t in c.tricks] == [t.winner for t in c.result.tricks or ()]


@pytest.mark.parametrize(("game", "contract_id", "players"),
                         some_in_default(TABLES, kind=lambda case: case[:2], every=1_000,
                                         ids=lambda case: "-".join(map(str, case))))
def test_every_contract_draws_a_hand_in_progress(game: str, contract_id: str,
                                                 players: int) -> None:
    rec = played_record(game, contract_id, players, seed=5, keep=players - 1)
    c = course(rec)
    assert not c.result.complete
    assert "Result: not complete" in draw_text(c)
    parse_svg(record_svg(c))
    assert_fetches_nothing(record_page(c))


def test_discards_and_winners_are_marked() -> None:
    c = course(example("herzla-two-void.json"))
    assert c.tricks is not None
    third = c.tricks[2]
    assert [(p.seat, str(p.card), p.marks) for p in third.cards] == [
        (1, "HK", (Mark.WINNER,)), (2, "H9", ()), (3, "H8", ()), (0, "CT", (Mark.DISCARD,))]
    text = draw_text(c, faces="french", unicode=False)
    assert "      3  seat 1  C10*    HK      H9      H8      seat 1" in text
    assert "* did not follow suit" in text
    assert "seat 1 holds a heart but may not lead it (heart-lead-ban)" in text


def test_the_escape_is_noted() -> None:
    # seat 0 holds only hearts, so may lead one to trick 1 (rule common/escape)
    hands = ["HA HK HQ HJ HT H9 H8 H7", "CA CK CQ CJ CT C9 C8 C7",
             "SA SK SQ SJ ST S9 S8 S7", "DA DK DQ DJ DT D9 D8 D7"]
    rec = Record.from_json({"game": "herzla", "contract": "normal", "players": 4,
                            "hands": [h.split() for h in hands], "plays": ["H7"]})
    c = course(rec)
    assert c.tricks is not None
    assert c.tricks[0].cards[0].marks == (Mark.ESCAPE,)
    assert "holds only banned cards and may lead H7 (heart-lead-ban)" in c.tricks[0].notes[0]


def test_the_illegal_play_is_marked_where_it_happened() -> None:
    c = course(example("herzla-heart-lead-ban.json"))
    assert c.illegal is not None and c.tricks is not None
    last = c.tricks[-1]
    assert last.winner is None and last.cards[-1].marks == (Mark.ILLEGAL,)
    assert str(last.cards[-1].card) == "HK"
    text = draw_text(c, faces="french")
    assert "♥K (HK)!" in text
    assert ("Result: illegal: ♥K (HK) by seat 1 at play 5, trick 2, 1st card (heart-lead-ban)"
            in text)
    root = parse_svg(record_svg(c))
    assert cards_drawn(root)[-1] == "HK"
    assert ("Illegal: Hz-K (HK) by seat 1 at play 5, trick 2, 1st card (heart-lead-ban)"
            in "".join(root.itertext()))
    page = record_page(c)
    assert ('<span class="illegal">Illegal: Hz-K (HK)</span> by seat 1 at play 5, trick 2, '
            '1st card' in page)


def test_an_illegal_layout_move_is_drawn() -> None:
    rec = played_record("herzerln", "auflegen", 4, keep=0)
    holder = next(s for s, h in enumerate(rec.hands) if Card.from_str("HJ") in h)
    other = next(c for c in rec.hands[holder] if str(c) != "HJ")
    bad = Record.from_json({**rec.to_json(), "plays": [str(other)]})
    c = course(bad)
    assert c.moves is not None and c.moves[-1].illegal and c.moves[-1].card == other
    assert c.illegal is not None and c.illegal.rule == "must-open-with-heart-jack"
    assert f"{labelled(other, Faces.GERMAN)}!" in draw_text(c)
    assert "illegal: seat" in "".join(parse_svg(record_svg(c)).itertext())


def test_layout_rounds_and_rows() -> None:
    rec = example("herzeln-3p-domino.json")
    c = course(rec)
    rounds = c.rounds()
    assert sum(len(r.moves) for r in rounds) == len(c.moves or ())
    for r in rounds:
        seats = [m.seat for m in r.moves]
        assert len(seats) == len(set(seats))
    assert [m.seat for m in c.moves or () if m.out] == list(c.result.order or ())[:2]
    final = c.rows
    laid = [str(p.card) for p in rec.plays if not p.is_pass]
    assert len(final) == 1 and sorted(map(str, final[0].cards)) == sorted(laid)
    root = parse_svg(rows_svg(final, "french", per_suit=False))
    assert cards_drawn(root) == [str(x) for x in final[0].cards]


def test_faces() -> None:
    herzla = example("herzla-two-void.json")
    assert faces_of(herzla.contract) is Faces.GERMAN
    assert faces_of(example("herzeln-3p-domino.json").contract) is Faces.FRENCH
    assert faces_of(herzla.contract, "french") is Faces.FRENCH
    with pytest.raises(ValueError, match="french or german"):
        Faces.parse("tarot")
    german = draw_text(course(herzla))
    assert "Eichel O U 10 7" in german and "♣" not in german
    french = draw_text(course(herzla), faces="french")
    assert "♣ Q J 10 7" in french
    ascii_text = draw_text(course(herzla), faces="french", unicode=False)
    assert ascii_text.isascii() and "C Q J 10 7" in ascii_text
    assert not can_encode("♣", "ascii") and can_encode("♣", "utf-8")


def test_colour_only_when_asked() -> None:
    c = course(example("herzla-two-void.json"))
    assert "\x1b[" not in draw_text(c, faces="french")
    coloured = draw_text(c, faces="french", colour=True)
    assert "\x1b[31m♥" in coloured  # hearts red
    assert "\x1b[31m\x1b[1m♥K" in coloured  # the winning card bold
    plain = re.sub(r"\x1b\[[0-9;]*m", "", coloured)
    assert plain == draw_text(c, faces="french")


def test_card_hand_and_trick_pictures() -> None:
    for faces in Faces:
        for card in parse_cards("CA SQ HT D7 CJ SK"):
            root = parse_svg(card_svg(card, faces))
            assert cards_drawn(root) == [str(card)]
            assert card.name(faces.value) in "".join(root.itertext())
    hand = parse_cards("CA CT SQ H9 H7 DK")
    root = parse_svg(hand_svg(hand, Faces.FRENCH, label="seat 2"))
    assert cards_drawn(root) == [str(c) for c in hand]
    res = replay(example("herzla-two-void.json"))
    assert res.tricks is not None
    root = parse_svg(trick_svg(res.tricks[2], 4, Faces.GERMAN, number=3))
    assert cards_drawn(root) == ["CT", "HK", "H9", "H8"]  # seat 0 first
    assert "trick 3: won by seat 1" in "".join(root.itertext())


def test_hearts_and_diamonds_are_red() -> None:
    root = parse_svg(card_svg(Card.from_str("H9"), Faces.FRENCH))
    fills = {e.get("fill") for e in root.iter() if e.get("fill")}
    assert "#c8102e" in fills
    root = parse_svg(card_svg(Card.from_str("D9"), Faces.FRENCH))
    assert "#c8102e" in {e.get("fill") for e in root.iter()}
    root = parse_svg(card_svg(Card.from_str("S9"), Faces.FRENCH))
    assert "#c8102e" not in {e.get("fill") for e in root.iter()}


def test_sheets() -> None:
    doc = json.loads((EXAMPLES / "herzeln-partie.json").read_text(encoding="utf-8"))
    sheet = score_sheet(doc)
    text = sheet.report()
    assert "herzeln partie, 4 players" in text and "total" in text
    root = parse_svg(sheet_svg(sheet))
    words = "".join(root.itertext())
    for row in sheet.rows:
        assert row.result.record.contract_id in words
    assert "Winner: seat 3 with -2." in words
    page = sheet_page(sheet)
    assert_fetches_nothing(page)
    assert page.count("<svg") == 1 + len(sheet.rows)
    assert page.count("<h2>Hand ") == len(sheet.rows)


def test_histograms() -> None:
    hists = [Histogram({0: 5, 10: 3, 20: 2}), Histogram({-5: 1}), Histogram()]
    root = parse_svg(histograms_svg(hists, "a run", "score"))
    bars = [r for r in root.iter(f"{SVG}rect") if r.get("fill") == "#b03030"]
    assert len(bars) == 4
    assert "seat 2: no hands" in "".join(root.itertext())


REVIEW: dict[str, Any] = {
    "game": "herzla", "contract": "normal", "players": 4,
    "plays": [
        {"index": 0, "seat": 0, "card": "C7", "best": 40, "played": 40, "loss": 0,
         "best_cards": ["C7", "CT"]},
        {"index": 4, "seat": 1, "card": "SA", "best": -20, "played": -30, "loss": 10,
         "best_cards": ["SK", "DK"]},
    ],
    "seats": {"0": {"plays": 8, "mistakes": 0, "loss": 0},
              "1": {"plays": 8, "mistakes": 1, "loss": 10}},
    "elapsed_s": 0.25,
}


def test_review_is_drawn() -> None:
    c = course(example("herzla-two-void.json"))
    text = draw_text(c, faces="french", unicode=False, review=REVIEW)
    assert "SA -10" in text
    assert ("play 5, trick 2, 1st card: seat 1 played SA, value -30; best SK or DK, value "
            "-20: cost 10" in text)
    assert "seat 1: 1 of 8 plays, cost 10" in text
    root = parse_svg(record_svg(c, review=REVIEW))
    assert "-10" in list(root.itertext())
    page = record_page(c, review=REVIEW)
    assert_fetches_nothing(page)
    assert ("<td>play 5, trick 2, 1st card</td><td>seat 1</td><td>Gr-A (SA)</td><td class=num>"
            "-30</td><td>Gr-K (SK) or Sch-K (DK)</td><td class=num>-20</td>" in page)
    assert "No mistakes" in review_html({**REVIEW, "plays": REVIEW["plays"][:1]})


def inline_svgs(fragment: str) -> list[ET.Element]:
    """The SVG pictures inlined in an HTML fragment, each parsed (and checked) as XML."""
    found = re.findall(r"<svg .*?</svg>", fragment, re.DOTALL)
    return [parse_svg(s.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))
            for s in found]


def test_notebook_display() -> None:
    from herzla import advise, simulate, solve

    rec = example("herzla-two-void.json")
    assert len(cards_drawn(parse_svg(rec._repr_svg_() or ""))) == 64
    fragment = replay(rec)._repr_html_() or ""
    assert FETCHES.search(fragment) is None
    assert len(inline_svgs(fragment)) == 1 and "<code>herzla/two-void</code>" in fragment
    doc = json.loads((EXAMPLES / "herzerln-partie.json").read_text(encoding="utf-8"))
    words = "".join(parse_svg(score_sheet(doc)._repr_svg_() or "").itertext())
    assert "auflegen" in words and "Winner: seat 2 with 12." in words
    trick6 = json.loads((EXAMPLES / "herzla-two-void-trick6.json").read_text(encoding="utf-8"))
    solved = solve(trick6, seat=2, plays=True)._repr_html_() or ""
    assert "<td>value</td><td>-30</td>" in solved
    assert "<tr><td>ST</td><td>-30</td><td>best</td></tr>" in solved
    assert "<tr><td>HQ</td><td>-50</td><td></td></tr>" in solved
    advice = advise("CT C7 SJ S8 H9 H7 D9 D7", samples=8, jobs=1, choices=["mord"])
    fragment = advice._repr_html_() or ""
    assert len(cards_drawn(inline_svgs(fragment)[0])) == 8
    assert "<td>mord (recommended)</td><td>double dummy</td>" in fragment
    sim = simulate("herzla-kids", "normal", players=5, hands=300, seed=2, jobs=1)
    fragment = sim._repr_html_() or ""
    assert fragment.count("<td>seat ") == 5
    assert len(inline_svgs(fragment)) == 1 and "share of hands" in fragment
    partie = simulate("herzerln", hands=50, seed=2, jobs=1)._repr_html_() or ""
    assert "share of parties" in partie and "<th>wins</th>" in partie


@pytest.mark.slow  # a few seconds: the default set stays under a minute
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32), data=st.data())
def test_any_prefix_or_wrong_card_draws(table: tuple[str, str, int], seed: int,
                                        data: st.DataObject) -> None:
    """Any prefix of a hand, and a hand with one play replaced by any card of the pack, draws as
    text, SVG and HTML; an illegal play is marked where replay finds it."""
    game, contract_id, players = table
    full = played_record(game, contract_id, players, seed=seed)
    plays = [str(p) for p in full.plays]
    keep = data.draw(st.integers(0, len(plays)), label="keep")
    plays = plays[:keep]
    corrupt = data.draw(st.booleans(), label="corrupt")
    if plays and corrupt:
        at = data.draw(st.integers(0, len(plays) - 1), label="at")
        card = data.draw(st.sampled_from(full.contract.pack().cards), label="card")
        plays[at] = str(card)
    rec = Record.from_json({**full.to_json(), "plays": plays})
    c = course(rec)
    text = draw_text(c, unicode=False)
    root = parse_svg(record_svg(c))
    assert_fetches_nothing(record_page(c))
    bad = c.illegal
    if bad is None:
        assert "illegal" not in text.lower()
        return
    shown = labelled_code(bad.card, faces_of(c.contract), unicode=False)
    assert f"Result: illegal: {shown} by seat {bad.seat} at {c.place(bad.index)}" in text
    assert c.place(bad.index).startswith(f"play {bad.index + 1}")
    if c.tricks is not None:
        marked = [p for t in c.tricks for p in t.cards if Mark.ILLEGAL in p.marks]
        assert [(p.index, str(p.card), p.seat) for p in marked] == [(bad.index, bad.card,
                                                                    bad.seat)]
        assert cards_drawn(root)[sum(len(h) for h in rec.hands) + bad.index] == bad.card
    else:
        assert c.moves is not None and c.moves[-1].illegal and c.moves[-1].seat == bad.seat


def test_the_discard_ban_is_noted() -> None:
    # Herzerln round 2: no heart discarded on trick 1 while the seat holds other cards
    hands = ["CA CK CQ CJ CT C9 C8 C7", "SA SK SQ SJ HA HK HQ HJ",
             "ST S9 S8 S7 HT H9 H8 H7", "DA DK DQ DJ DT D9 D8 D7"]
    rec = Record.from_json({"game": "herzerln", "contract": "hearts", "players": 4,
                            "hands": [h.split() for h in hands],
                            "plays": ["C7", "SA", "S7", "D7"]})
    c = course(rec)
    assert c.tricks is not None
    first = c.tricks[0]
    assert first.notes == (
        "seat 1 holds a heart but may not discard it (heart-free-first-trick)",
        "seat 2 holds a heart but may not discard it (heart-free-first-trick)")
    assert [Mark.DISCARD in p.marks for p in first.cards] == [False, True, True, True]
    assert first.winner == 0 and first.cards[0].marks == (Mark.WINNER,)


def test_the_drawings_import_no_click() -> None:
    import subprocess
    import sys

    code = ("import sys, herzla.draw.html, herzla.draw.notebook, herzla.draw.svg, "
            "herzla.draw.text; print('click' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.strip() == "False"


# -- a notebook picture over the limit --------------------------------------------------------
def test_a_notebook_picture_over_the_limit_is_none_not_an_error() -> None:
    """IPython takes None from a ``_repr_*_`` method to mean "show the repr instead"; an
    exception would print a traceback under every such value."""
    from herzla.limits import MAX_DRAWN_HANDS
    from herzla.sheets import score_sheet

    two_void = json.loads((ROOT / "docs/examples/herzla-two-void.json").read_text())
    sheet = score_sheet([two_void] * (MAX_DRAWN_HANDS + 1))
    assert sheet._repr_svg_() is None
    small = score_sheet([two_void] * 2)._repr_svg_()
    assert small is not None and small.startswith("<svg")
