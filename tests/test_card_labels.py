"""No drawing writes a card so that it reads as another card's code (issue 23, "two meanings of
S"): the German suits are abbreviated Ei Gr Hz Sch (the codes' S is Gras, Schellen is D), and
where people read text the code they type stands beside every card."""

from __future__ import annotations

import html
import json
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from herzla.cards import (
    CARDS,
    PACK_24,
    PACK_30,
    PACK_32,
    PACK_36,
    Card,
    CardError,
    Pack,
    parse_card,
)
from herzla.cli import main
from herzla.contracts import contract_classes, games
from herzla.draw.course import course
from herzla.draw.faces import Faces, labelled, labelled_code, legend, short, suit_abbreviation
from herzla.draw.html import record_page, review_html
from herzla.draw.svg import card_svg, record_svg
from herzla.draw.text import draw_text
from herzla.records import Record, read_record
from herzla.testing import random_hand
from tests.shares import some_in_default

ROOT = Path(__file__).parents[1]
EXAMPLES = ROOT / "docs" / "examples"
CASES = Path(__file__).parent / "cases"

#: every face style a drawing has: (faces, suit symbols)
STYLES = [(f, u) for f in Faces for u in (True, False)]

#: a code as people type it: suit letter, rank (10 for T too)
CODE = re.compile(r"^[CSHD](?:10|[6-9TJQKA])$", re.IGNORECASE)
#: a card label as the drawings write one (German abbreviations, French symbols or letters)
LABEL = re.compile(r"^(?:Ei|Gr|Hz|Sch)-(?:10|[6-9UOKA])$|^[♣♠♥♦](?:10|[6-9JQKA])$")


def packs() -> list[Pack]:
    """Every pack a registered contract plays with, and the packs herzla names."""
    found = {p.name: p for p in (PACK_36, PACK_32, PACK_30, PACK_24)}
    for game in games():
        for cls in contract_classes(game):
            for n in cls.player_counts:
                pack = cls.default(n).pack()
                found.setdefault(f"{pack.name}/{pack.mask}", pack)
    return list(found.values())


def reads_as(text: str) -> Card | None:
    """The card a person reading ``text`` takes it for: the code its letters spell, if they
    spell one (``S-8`` reads as S8, whatever the parser says), else what the parser reads."""
    letters = re.sub(r"[^0-9A-Za-z]", "", text)
    if CODE.match(letters):
        return parse_card(letters)
    try:
        return parse_card(text)
    except CardError:
        return None


@pytest.mark.parametrize("pack", packs(), ids=lambda p: p.name)
@pytest.mark.parametrize("faces,unicode", STYLES)
def test_no_label_reads_as_another_card(pack: Pack, faces: Faces, unicode: bool) -> None:
    codes = {c.code.lower(): c for c in CARDS} | {
        c.suit.code.lower() + "10": c for c in CARDS if c.rank.code == "T"}
    for card in pack.cards:
        label = short(card, faces, unicode)
        shown = labelled(card, faces, unicode)
        for text in (label, shown.split(" (")[0], card.name(faces.value)):
            assert reads_as(text) in (card, None), (card, text)
            assert codes.get(text.lower(), card) == card, (card, text)
        assert parse_card(label) == card, (card, label)  # every label reads back as its card
        assert reads_as(label) == card
        if faces is Faces.GERMAN or unicode:
            assert shown == f"{label} ({card.code})"
        else:
            assert shown == label and reads_as(label) == card  # spelled in the code's letters
        if faces is Faces.GERMAN:
            assert len(suit_abbreviation(card.suit, faces)) >= 2
            assert shown.split("-")[0] not in ("C", "S", "H", "D")
        root = ET.fromstring(card_svg(card, faces))
        title = root.find("{http://www.w3.org/2000/svg}title")
        assert title is not None and title.text is not None and card.code in title.text


def tokens(text: str) -> list[str]:
    return [t.strip("*!,;:.") for t in text.split()]


def check_text(text: str, labels_need_codes: bool) -> None:
    """No word of ``text`` reads as a card code it is not; with ``labels_need_codes`` every
    card label is followed by the code of the same card in brackets."""
    words = tokens(text)
    for i, word in enumerate(words):
        bare = word.strip("()")
        if bare[-1:] in "+-" and CODE.match(bare[:-1]):  # a lay with its end mark, D8+
            bare = bare[:-1]
        letters = re.sub(r"[^0-9A-Za-z]", "", bare)
        if CODE.match(letters) and not CODE.match(bare):
            try:
                parsed = parse_card(bare)
            except CardError:
                parsed = None
            assert parsed == parse_card(letters), f"{bare!r} reads as {letters} in {text!r}"
        if labels_need_codes and LABEL.match(word):
            after = words[i + 1] if i + 1 < len(words) else ""
            code = re.match(r"\(([CSHD][6-9TJQKA])\)", after)
            assert code is not None, (word, after)
            assert parse_card(word) == parse_card(code.group(1)), (word, after)


def page_text(page: str) -> str:
    page = re.sub(r"<style>.*?</style>|<title>.*?</title>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def records() -> Iterator[Record]:
    for path in sorted(EXAMPLES.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(doc, dict) and "hands" in doc:
            try:
                yield read_record(doc)
            except ValueError:
                continue
    for path in sorted(CASES.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8")).get("record")
        if isinstance(doc, dict):
            try:
                yield read_record(doc)
            except ValueError:
                continue


REVIEW: dict[str, Any] = {
    "plays": [{"index": 4, "seat": 1, "card": "SA", "best": -20, "played": -30, "loss": 10,
               "best_cards": ["SK", "DK"]}],
    "seats": {"1": {"plays": 8, "mistakes": 1, "loss": 10}},
}


RECORDS = list(records())


def test_there_are_examples_to_draw() -> None:
    assert len(RECORDS) >= 40


@pytest.mark.parametrize("rec", some_in_default(
    RECORDS, kind=lambda rec: (rec.game, rec.contract.id), every=3,
    ids=lambda rec: f"{rec.game}-{rec.contract.id}-{rec.contract.players}"))
def test_every_drawing_of_every_example(rec: Record) -> None:
    c = course(rec)
    for faces, unicode in STYLES:
        check_text(draw_text(c, faces.value, unicode, review=REVIEW), labels_need_codes=True)
        root = ET.fromstring(record_svg(c, faces.value, review=REVIEW))
        check_text(" ".join(root.itertext()), labels_need_codes=False)
    page = record_page(c, "german", REVIEW)
    check_text(page_text(page), labels_need_codes=True)
    check_text(page_text(record_page(c, "french", REVIEW)), labels_need_codes=True)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([(g, cls.id, n) for g in games() for cls in contract_classes(g)
                        for n in cls.player_counts]),
       st.integers(0, 2**32), st.sampled_from(STYLES))
def test_random_hands_draw_no_misleading_card(table: tuple[str, str, int], seed: int,
                                              style: tuple[Faces, bool]) -> None:
    game, contract_id, n = table
    cls = next(c for c in contract_classes(game) if c.id == contract_id)
    contract = cls.default(n)
    dealt, _, plays = random_hand(contract, random.Random(seed))
    rec = read_record({"game": game, "contract": contract_id, "players": n,
                       "declarer": contract.declarer,
                       "hands": [[c.code for c in CARDS if m >> c.index & 1] for m in dealt],
                       "plays": plays})
    c = course(rec)
    faces, unicode = style
    check_text(draw_text(c, faces.value, unicode), labels_need_codes=True)
    check_text(" ".join(ET.fromstring(record_svg(c, faces.value)).itertext()),
               labels_need_codes=False)


def test_the_schellen_eight_is_never_s8() -> None:
    """The report that started it: the Schellen 8 was drawn S-8, which reads as the Gras 8."""
    d8 = Card.from_str("D8")
    assert short(d8, Faces.GERMAN) == "Sch-8"
    assert labelled(d8, Faces.GERMAN) == "Sch-8 (D8)"
    assert labelled_code("S8", Faces.GERMAN) == "Gr-8 (S8)"
    assert "Sch-O (DQ)" in review_html({"plays": [{**REVIEW["plays"][0], "card": "DQ"}]},
                                       faces="german")
    assert any("Sch Schellen = D" in line for line in legend(Faces.GERMAN))
    rec = json.loads((EXAMPLES / "herzla-two-void.json").read_text(encoding="utf-8"))
    out = CliRunner().invoke(main, ["show", "-"], input=json.dumps(rec))
    assert out.exit_code == 0, out.output
    assert "Sch-8 (D8)" in out.output and "S-8" not in out.output
    check_text(out.output, labels_need_codes=True)
