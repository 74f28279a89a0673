"""The reference engines: legal plays, trick winners, early ends, undo/copy, layout rows, and
the hand a record starts (its cards as Cards or codes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from herzla.cards import Card, cards_of, mask_of, parse_cards
from herzla.contracts import contract_class
from herzla.contracts.base import LayoutContract, TrickContract
from herzla.hand import PASS
from herzla.kinds.layout import LayoutHand
from herzla.kinds.tricks import TrickHand
from herzla.records import Record, RecordError, replay

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


HANDS = ["CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
         "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8"]


def masks(hands: list[str]) -> list[int]:
    return [mask_of(parse_cards(h)) for h in hands]


def codes(cards: list[Card]) -> list[str]:
    return [str(c) for c in cards]


def trick_hand(game: str, contract: str, hands: list[str], dealer: int = 3,
               **kw: object) -> TrickHand:
    rules = contract_class(game, contract)(len(hands), **kw)  # type: ignore[arg-type]
    assert isinstance(rules, TrickContract)
    return TrickHand(rules, masks(hands), dealer)


def test_follow_suit_and_free_discard() -> None:
    h = trick_hand("herzla", "normal", HANDS)
    h.play(Card.from_str("C7"))
    assert codes(cards_of(h.legal_mask())) == ["CK", "CA"]
    bad = h.check(Card.from_str("SA"))
    assert bad is not None and bad.rule == "follow-suit"
    assert h.check(Card.from_str("C8")) is not None
    assert h.check(Card.from_str("C8")).rule == "not-in-hand"  # type: ignore[union-attr]


def test_ace_ten_option_changes_the_winner() -> None:
    hands = ["CT C7 C8 C9 SQ S9 DQ D9", "CK CA CQ CJ HK H7 DK D7",
             "SA ST S7 HA HQ H9 DA DT", "SJ S8 SK HJ HT H8 DJ D8"]
    for order, winner in (("natural", 1), ("ace-ten", 0)):
        h = trick_hand("herzla", "normal", hands, options={"rank_order": order})
        for code in ("CT", "CK", "SA", "SJ"):
            h.play(Card.from_str(code))
        assert h.tricks[0].winner == winner


def test_undo_and_copy() -> None:
    h = trick_hand("herzla", "normal", HANDS)
    before = (list(h.hands), h.leader)
    for code in ("C7", "CA", "C8", "C9", "SA"):
        h.play(Card.from_str(code))
    snap = h.copy()
    assert codes([h.undo()]) == ["SA"]
    assert h.turn == 1 and h.tricks and h.won[1] == 1
    for _ in range(4):
        h.undo()
    assert (h.hands, h.leader, h.tricks, h.won) == (before[0], before[1], [], [0, 0, 0, 0])
    assert len(snap.tricks) == 1 and snap.trick == [Card.from_str("SA")]


def test_heart_free_first_trick_bans_discards_with_escape() -> None:
    hands = ["CA CK CQ CJ HA HK DQ DJ", "HQ HJ HT H9 H8 H7 SA SK",
             "CT C9 C8 C7 ST S9 S8 S7", "DA DK DT D9 D8 D7 SQ SJ"]
    h = trick_hand("herzerln", "hearts", hands)
    assert codes(cards_of(h.legal_mask())) == ["CJ", "CQ", "CK", "CA", "DJ", "DQ"]
    h.play(Card.from_str("CA"))
    assert codes(cards_of(h.legal_mask())) == ["SK", "SA"]  # void in clubs: no heart discards
    assert h.check(Card.from_str("H7")).rule == "heart-free-first-trick"  # type: ignore[union-attr]


def test_only_hearts_escape() -> None:
    hands = ["HA HK HQ HJ HT H9 H8 H7", "CA CK CQ CJ CT C9 C8 C7",
             "SA SK SQ SJ ST S9 S8 S7", "DA DK DQ DJ DT D9 D8 D7"]
    h = trick_hand("herzla", "normal", hands)
    assert len(cards_of(h.legal_mask())) == 8


def test_beddl_ends_when_the_declarer_wins_a_trick() -> None:
    h = trick_hand("herzla", "beddl", HANDS, declarer=1)
    for code in ("C7", "CA", "C8", "C9"):
        h.play(Card.from_str(code))
    assert h.over and h.legal_mask() == 0
    assert h.check(Card.from_str("SA")).rule == "hand-over"  # type: ignore[union-attr]


def layout(game: str, contract: str, hands: list[str], dealer: int, **kw: object) -> LayoutHand:
    rules = contract_class(game, contract)(len(hands), **kw)  # type: ignore[arg-type]
    assert isinstance(rules, LayoutContract)
    return LayoutHand(rules, masks(hands), dealer)


DOMINO = ["CT CK SA SQ S9 HJ DK DJ", "C9 C7 SK HQ H9 H8 D8 D7",
          "CJ C8 ST SJ S8 S7 HK DA", "CA CQ HA HT H7 DT DQ D9"]


def test_domino_opens_with_any_jack_and_turns_the_corner() -> None:
    d = layout("herzeln", "domino", DOMINO, dealer=2)
    assert d.turn == 3 and d.legal_moves() == [PASS] and not d.lays()  # no Jack: passes
    d.pass_turn()
    assert sorted(str(m) for m in d.legal_moves()) == ["DJ+", "HJ+"]
    d.lay(Card.from_str("DJ"))
    assert d.asked(0) == ("Q", "9")
    assert sorted(str(m.card) for m in d.legal_moves()) == ["C9", "H9", "HQ"]


def test_domino_corner_both_ends_ask_for_the_same_rank() -> None:
    # 3 players, cycle 9 J Q K T A: after J Q K T A both ends ask for a 9 (the corner)
    hands = ["SJ ST C9 CJ CQ CK CT CA", "SQ SA H9 HJ HQ HK HT HA", "SK S9 D9 DJ DQ DK DT DA"]
    d = layout("herzeln", "domino", hands, dealer=2)
    for code in ("SJ", "SQ", "SK", "ST", "SA"):
        assert d.check(Card.from_str(code)) is None, code
        d.lay(Card.from_str(code))
    assert d.turn == 2 and d.asked(0) == ("9", "9")
    assert [str(m) for m in d.legal_moves()] == ["S9+", "S9-", "D9+", "D9-"]
    upper = d.copy()
    upper.lay(Card.from_str("S9"), "+")
    assert upper.asked(0) == ("J", "9")
    d.lay(Card.from_str("S9"), "-")
    assert d.asked(0) == ("9", "A")
    bad = d.check(Card.from_str("H9"), "+")
    assert bad is not None and bad.rule == "not-in-hand"


def test_same_suit_domino_without_wrap_ends_rows() -> None:
    d = layout("herzeln", "domino", DOMINO, dealer=2,
               options={"domino_suits": "same-suit", "domino_wrap": False})
    d.pass_turn()
    d.lay(Card.from_str("DJ"))
    assert d.asked(3) == ("Q", "9") and d.asked(0) is None
    bad = d.check(Card.from_str("C9"))
    assert bad is not None and bad.rule == "must-open-with-jack"


def test_auflegen_holder_of_the_heart_jack_opens() -> None:
    hands = ["CT C9 SQ SJ HA H9 DK D9", "CK CQ C8 SK S9 HK H8 DA",
             "CA C7 S7 HJ HT DJ D8 D7", "CJ SA ST S8 HQ H7 DQ DT"]
    a = layout("herzerln", "auflegen", hands, dealer=3)
    assert a.turn == 2
    assert [str(m) for m in a.legal_moves()] == ["HJ+"]
    assert a.check(Card.from_str("DJ")).rule == "must-open-with-heart-jack"  # type: ignore
    a.lay(Card.from_str("HJ"))
    assert a.turn == 3 and a.asked(2) == ("Q", "T")
    a.undo()
    assert a.turn == 2 and not a.laid and 2 not in a.rows


# -- a hand from a record; cards as Cards or codes --------------------------------------------
def _record(name: str) -> Record:
    return Record.from_json(json.loads((EXAMPLES / name).read_text()))


def test_trick_hand_from_record_cards() -> None:
    record = _record("herzla-two-void-trick6.json")
    assert isinstance(record.contract, TrickContract)
    hand = TrickHand(record.contract, record.hands, record.dealer)  # Cards, as the record has
    assert hand.hands == [mask_of(h) for h in record.hands]
    assert hand.play(Card.from_str("C7")) is None and hand.play("CA") is None
    assert hand.check("Herz Sau") is not None and hand.check(Card.from_str("C8")) is None


def test_start_at_the_beginning_and_after_the_plays() -> None:
    record = _record("herzla-two-void-trick6.json")
    start = record.start()
    assert isinstance(start, TrickHand) and not start.tricks and start.turn == 0
    after = record.start(played=True)
    assert isinstance(after, TrickHand) and len(after.tricks) == 5
    assert after.turn == 2 and after.moves == record.plays
    assert [str(c) for c in cards_of(after.legal_mask())] == ["ST", "HQ", "DT"]
    assert after.record() == record


def test_layout_hand_from_record() -> None:
    record = _record("herzeln-domino-mark.json")
    after = record.start(played=True)
    assert isinstance(record.start(), LayoutHand) and isinstance(after, LayoutHand)
    assert len(after.laid) == sum(1 for p in record.plays if not p.is_pass)
    # the hand gives back its record, every pass written out
    again = after.record()
    assert [p.card for p in again.plays if not p.is_pass] == [p.card for p in record.plays
                                                               if not p.is_pass]
    assert again.hands == record.hands and replay(again).to_dict() == replay(record).to_dict()


def test_start_after_an_illegal_play() -> None:
    with pytest.raises(RecordError, match="heart-lead-ban"):
        _record("herzla-heart-lead-ban.json").start(played=True)


@pytest.mark.parametrize("bad", [5, 1.5, None, ("C", "7")])
def test_a_card_of_the_wrong_type(bad: object) -> None:
    hand = _record("herzla-two-void.json").start()
    with pytest.raises(TypeError):
        hand.play(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        hand.check(bad)  # type: ignore[arg-type]


def test_a_hand_of_the_wrong_type() -> None:
    record = _record("herzla-two-void.json")
    assert isinstance(record.contract, TrickContract)
    with pytest.raises(TypeError):
        TrickHand(record.contract, [1.5, 2.5, 3.5, 4.5], 3)  # type: ignore[list-item]
