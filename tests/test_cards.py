"""Card codes (spec/cards.md), card names and lists of them, faces, packs, rank orders and the
bit-set encoding."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from herzla.cards import (
    ACE_TEN,
    NATURAL,
    PACK_24,
    PACK_30,
    PACK_32,
    PACK_36,
    Card,
    CardError,
    Rank,
    Suit,
    cards_of,
    mask_of,
    parse_cards,
)
from tests.helpers import HERZLA, invoke, one_error


@given(st.integers(0, 35))
def test_round_trip(index: int) -> None:
    card = Card.from_index(index)
    assert Card.from_str(str(card)) == card
    assert Card.from_str(str(card).lower()) == card
    assert card.index == index and card.bit == 1 << index
    assert Card.from_str(card.name("french")) == card
    assert Card.from_str(card.name("german")) == card
    assert Card.from_str(card.suit.symbol + card.rank.code) == card


@pytest.mark.parametrize(("text", "code"), [
    ("HA", "HA"), ("ha", "HA"), ("C10", "CT"), ("s10", "ST"), ("dt", "DT"), (" S7 ", "S7"),
    ("♥A", "HA"), ("♣10", "CT"), ("Ace of Hearts", "HA"), ("queen of spades", "SQ"),
    ("Herz Sau", "HA"), ("Eichel Ober", "CQ"), ("Schellen Unter", "DJ"), ("Gras König", "SK"),
])
def test_spellings(text: str, code: str) -> None:
    assert str(Card.from_str(text)) == code


@pytest.mark.parametrize("text", ["HX", "H", "", "AH", "10", "Z7", "H11", "Herz", "of Hearts"])
def test_bad_codes_name_the_text(text: str) -> None:
    with pytest.raises(CardError, match="is not a card code"):
        Card.from_str(text)


def test_lists_with_spaces_or_commas() -> None:
    assert [str(c) for c in parse_cards("HA HT, SK,D7")] == ["HA", "HT", "SK", "D7"]
    assert [str(c) for c in cards_of(mask_of(parse_cards("D7 C9 HA")))] == ["C9", "HA", "D7"]


def test_packs() -> None:
    assert (len(PACK_24), len(PACK_30), len(PACK_32), len(PACK_36)) == (24, 30, 32, 36)
    assert Card.from_str("C7") not in PACK_30 and Card.from_str("S7") not in PACK_30
    assert Card.from_str("H7") in PACK_30
    assert {c.rank for c in PACK_24.cards} == {Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN,
                                               Rank.KING, Rank.ACE}
    with pytest.raises(CardError, match="H6 is not in the 32-card pack"):
        PACK_32.parse("H6")


def test_rank_orders() -> None:
    ten, king = Card.from_str("HT"), Card.from_str("HK")
    assert NATURAL.beats(king, ten) and not ACE_TEN.beats(king, ten)
    assert ACE_TEN.beats(ten, king)
    assert [r.code for r in ACE_TEN.high_to_low] == list("ATKQJ9876")
    assert [r.code for r in NATURAL.high_to_low] == list("AKQJT9876")


def test_faces() -> None:
    assert Card(Suit.C, Rank.QUEEN).name("german") == "Eichel Ober"
    assert Card(Suit.D, Rank.ACE).name() == "Ace of Diamonds"


# -- card names, and lists of them ------------------------------------------------------------
@pytest.mark.parametrize("text", ["Herz Sau, Herz König", "Herz Sau Herz König",
                                  "Ace of Hearts, King of Hearts", "HA HK", "ha,hk",
                                  "Ace of Hearts Herz König"])
def test_card_lists_take_names(text: str) -> None:
    assert [str(c) for c in parse_cards(text)] == ["HA", "HK"]


def test_card_lists_name_the_bad_text() -> None:
    with pytest.raises(CardError, match='"Herz Xyz"'):
        parse_cards("HA Herz Xyz")
    with pytest.raises(CardError, match='"XX"'):
        parse_cards("HA XX")


@given(st.lists(st.sampled_from(Card.ALL), max_size=12),
       st.sampled_from(["german", "french"]), st.sampled_from([" ", ", ", ","]))
def test_named_lists_round_trip(cards: list[Card], faces: str, sep: str) -> None:
    text = sep.join(c.name(faces) for c in cards)
    assert parse_cards(text) == cards
    mixed = sep.join(c.name(faces) if i % 2 else str(c) for i, c in enumerate(cards))
    assert parse_cards(mixed) == cards


@pytest.mark.parametrize("text", [
    "\u017fA",  # long s: upper() makes it S
    "C\u212a",  # Kelvin sign: lower() makes it k
    "\u212aing of Hearts",
    "\ufb06",  # the ligature st: upper() makes it ST, Spades Ten
    "\ufb05",  # the ligature long s t
    "Ace of \u017fpades",
    "H\u212a",
])
def test_characters_that_only_fold_to_card_letters_are_not_cards(text: str) -> None:
    from herzla.cards import CardError, parse_card

    with pytest.raises(CardError, match="is not a card code"):
        parse_card(text)
    rec = dict(HERZLA, plays=[text])
    assert "is not a card code" in one_error(invoke("replay", "-", stdin=json.dumps(rec)))


@pytest.mark.parametrize(("text", "code"), [
    ("ha", "HA"), ("h10", "HT"), ("HERZ SAU", "HA"), ("ace OF hearts", "HA"),
    ("KÖNIG of Herz", "HK"), ("GRÜN unter", "SJ"), ("♥ a", "HA"),
])
def test_ascii_case_and_the_german_umlauts_still_fold(text: str, code: str) -> None:
    from herzla.cards import parse_card

    assert str(parse_card(text)) == code
