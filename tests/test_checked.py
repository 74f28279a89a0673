"""A checked engine: every public way to play a move refuses one the seat to move may not make,
with :class:`herzla.IllegalMove` naming the rule ``check`` names, and leaves the hand as it was;
a hand's score before its end is :class:`herzla.HandNotOver`."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import herzla
from herzla import HandNotOver, HerzlaError, IllegalMove, deal_record
from herzla.cards import Card, cards_of
from herzla.contracts import contract_class, contract_classes, games
from herzla.hand import PASS, Hand, Move
from herzla.kinds.layout import LayoutHand
from herzla.round import Round
from tests.helpers import SCALE

HANDS = ["CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
         "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8"]


def _state(hand: Hand) -> tuple[Any, ...]:
    return (tuple(hand.hands), hand.moves, hand.turn, hand.over)


def _refused(hand: Hand, move: Any, rule: str, play: Any = None) -> IllegalMove:
    before = _state(hand)
    with pytest.raises(IllegalMove) as caught:
        (play or hand.play)(move)
    assert caught.value.rule == rule and rule in str(caught.value)
    assert _state(hand) == before
    return caught.value


def test_the_issues_impossible_play_is_refused() -> None:
    hand = deal_record("herzla", "normal", 4, seed=7).start()
    exc = _refused(hand, "HA", "not-in-hand")
    assert exc.illegal == hand.check("HA") and exc.seat == 0 and str(exc.move) == "HA"
    assert isinstance(exc, HerzlaError) and isinstance(exc, ValueError)
    again = pickle.loads(pickle.dumps(exc))
    assert (again.illegal, again.seat, again.move, str(again)) == (
        exc.illegal, exc.seat, exc.move, str(exc))


def test_a_trick_hand_refuses_each_rule_and_plays_what_is_legal() -> None:
    hand = contract_class("herzla", "normal")().new_hand(HANDS, dealer=3)
    _refused(hand, Card.from_str("CA"), "not-in-hand")
    _refused(hand, PASS, "must-play-if-able")
    for code in ("C7", "CA", "C8", "C9"):
        hand.play(code)
    _refused(hand, "HK", "heart-lead-ban")  # seat 1 leads trick 2
    hand.play("SA")
    _refused(hand, "HA", "follow-suit")
    while not hand.over:
        hand.play(hand.legal_moves()[0])
    _refused(hand, "C7", "hand-over")
    assert hand.score().scores


def test_a_layout_hand_refuses_by_play_lay_and_pass() -> None:
    rec = deal_record("herzerln", "auflegen", seed=3)
    hand = rec.start()
    assert isinstance(hand, LayoutHand)
    seat = hand.turn
    held = cards_of(hand.hands[seat])
    wrong = next(c for c in held if hand.check(c) is not None)
    rule = hand.check(wrong)
    assert rule is not None
    _refused(hand, wrong, rule.rule)
    _refused(hand, Move(wrong, "+"), rule.rule)
    _refused(hand, wrong, rule.rule, play=hand.lay)
    _refused(hand, str(cards_of(hand.hands[(seat + 1) % hand.players])[0]), "not-in-hand")
    if not hand.must_pass:
        _refused(hand, None, "must-play-if-able", play=lambda _: hand.pass_turn())
    while not hand.over:
        hand.play(hand.legal_moves()[0])
    _refused(hand, "pass", "hand-over")


def test_a_round_refuses_as_its_hand_does() -> None:
    deal = Round(contract_class("herzla", "normal")(), HANDS, dealer=3, bidding=True)
    for word in ("pass", "pass", "pass", "pass"):
        deal.announce(word)
    assert deal.hand is not None
    with pytest.raises(IllegalMove, match="not-in-hand"):
        deal.play("HA")
    assert deal.moves == ()
    with pytest.raises(HandNotOver, match="not over"):
        deal.score()


def test_the_score_before_the_end_says_the_hand_is_not_over() -> None:
    for game, cid in (("herzla", "normal"), ("herzeln", "domino")):
        hand = deal_record(game, cid, seed=1).start()
        with pytest.raises(HandNotOver, match="not over"):
            hand.score()
    with pytest.raises(HandNotOver, match="bidding"):
        Round(contract_class("herzla", "normal")(), HANDS, dealer=3, bidding=True).score()
    assert herzla.HandNotOver is HandNotOver and issubclass(HandNotOver, HerzlaError)


def test_deal_record_takes_the_games_usual_players() -> None:
    for game in games():
        for cls in contract_classes(game):
            if not cls.needs_declarer:
                rec = deal_record(game, cls.id, seed=5)
                assert rec.players == cls.player_counts[0]


DEALS = [(g, c.id) for g in games() for c in contract_classes(g)]
#: what is tried: the card as it is, with an end mark, the pass, or one of the legal moves
TRIES = ["", "+", "-", "pass", "legal", "legal"]


@settings(max_examples=60 * SCALE, deadline=None)
@given(deal=st.sampled_from(DEALS), seed=st.integers(0, 2**32 - 1),
       tries=st.lists(st.tuples(st.integers(0, 35), st.sampled_from(TRIES)), max_size=80))
def test_any_attempted_plays_leave_every_card_in_exactly_one_place(
        deal: tuple[str, str], seed: int, tries: list[tuple[int, str]]) -> None:
    """Whatever is attempted (cards held or not, legal or not, the pass, end marks, legal moves
    in between), each card dealt is either in exactly one seat's hand or played exactly
    once."""
    hand = deal_record(deal[0], deal[1], seed=seed).start()
    dealt = 0
    for mask in hand.dealt:
        assert not dealt & mask
        dealt |= mask
    for index, mark in tries:
        legal = hand.legal_moves()
        if mark == "legal" and legal:
            move = str(legal[index % len(legal)])
        else:
            move = "pass" if mark in ("pass", "legal") else f"{Card.from_index(index)}{mark}"
        before = _state(hand)
        try:
            hand.play(move)
        except (IllegalMove, ValueError):
            assert _state(hand) == before
        held = [0] * 36
        for mask in hand.hands:
            for c in cards_of(mask):
                held[c.index] += 1
        played = [m.card.index for m in hand.moves if m.card is not None]
        assert len(played) == len(set(played))
        for i in range(36):
            inside = dealt >> i & 1
            assert held[i] + played.count(i) == inside, Card.from_index(i)
