"""The play policies: the heuristic's rules on hand-made states, and the batch engine's bit-level
policies making the same choice as the scalar ones in the same state (random states reached by
random play, so states the heuristic itself would avoid are covered too)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herzla.cards import SUIT_MASKS, Card, cards_of, mask_of, parse_cards
from herzla.contracts import contract_class, contract_classes
from herzla.contracts.base import Contract, LayoutContract, TrickContract
from herzla.layout import Lay, LayoutHand
from herzla.machinery.streams import pick
from herzla.sim.batch import bid_hands
from herzla.sim.batch_bits import bits_of
from herzla.sim.batch_layout import LayoutSetup, choose_lays
from herzla.sim.batch_tricks import BitProfile, heuristic_cards, random_cards
from herzla.sim.policies import (
    announce,
    bidding,
    heuristic_card,
    heuristic_lay,
    random_card,
    random_lay,
    sure_winners,
    trick_profile,
)
from herzla.tricks import TrickHand


def _hands(*texts: str) -> list[int]:
    return [mask_of(parse_cards(t)) for t in texts]


def _play(state: TrickHand, codes: str) -> None:
    for code in codes.split():
        card = Card.from_str(code)
        assert state.check(card) is None, code
        state.play(card)


def _trick(game: str, cid: str, declarer: int | None = None) -> TrickContract:
    rules = contract_class(game, cid)(declarer=declarer)
    assert isinstance(rules, TrickContract)
    return rules


HANDS = _hands("CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
               "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8")


def test_pick_is_floor_u_times_m() -> None:
    assert [pick(r, 3) for r in (0, 2**32 // 3, 2**32 // 3 + 1, 2**32 - 1)] == [0, 0, 1, 2]
    state = TrickHand(_trick("herzla", "normal"), HANDS, dealer=3)
    legal = state.legal_plays()  # hearts may not be led: 8 cards less none
    assert [str(random_card(state, r)) for r in (0, 2**32 - 1)] == [str(legal[0]),
                                                                   str(legal[-1])]


def test_heuristic_ducks_and_sheds_hearts() -> None:
    state = TrickHand(_trick("herzla", "normal"), HANDS, dealer=3)
    assert str(heuristic_card(state)) == "C7"  # lead low, no heart
    _play(state, "C7")
    assert str(heuristic_card(state)) == "CK"  # seat 1 cannot duck under C7: lowest club
    _play(state, "CA C8")
    assert str(heuristic_card(state)) == "C9"  # duck: the highest club below the ace
    _play(state, "C9")  # seat 1 won; it leads
    _play(state, "SA ST SJ SQ D7 DT D8 DQ")  # seat 0 won the diamonds with DQ
    _play(state, "CT CK")
    assert str(heuristic_card(state)) == "HA"  # seat 2, void in clubs: the highest heart


def test_heuristic_profiles() -> None:
    beddl = _trick("herzla", "beddl", declarer=1)
    mord = _trick("herzla", "mord", declarer=0)
    assert trick_profile(beddl, 1).follow == "duck"
    assert trick_profile(beddl, 2).follow == "low"
    assert trick_profile(mord, 0) == trick_profile(mord, 3)
    state = TrickHand(mord, HANDS, dealer=3)
    assert str(heuristic_card(state)) == "CQ"  # Mord: lead the highest card (lowest suit)
    every = _trick("herzeln", "every-trick")
    state = TrickHand(every, HANDS, dealer=3)
    _play(state, "C7")
    assert str(heuristic_card(state)) == "CA"  # try to win: the highest card
    _play(state, "CA")
    assert str(heuristic_card(state)) == "C8"  # cannot beat the ace: the lowest
    _play(state, "C8")
    assert str(heuristic_card(state)) == "C9"


def test_bidding_heuristic() -> None:
    rules = contract_class("herzla", "normal")()
    nearly = mask_of(parse_cards("CA CK CQ SA SK HA DA D7"))
    assert sure_winners(nearly, rules) == 7
    assert announce(nearly, rules) == "pass"
    strong = mask_of(parse_cards("CA CK CQ CJ SA SK HA DA"))
    assert sure_winners(strong, rules) == 8
    assert announce(strong, rules) == announce(strong, rules, forehand=False) == "mord"
    clubs = mask_of(parse_cards("CA CK CQ CJ CT C9 C8 SA"))
    assert announce(clubs, rules) == "mord"  # forehand leads its clubs
    assert announce(clubs, rules, forehand=False) == "pass"  # a red suit may be led first
    run = mask_of(parse_cards("CA CK CQ CJ C7 SA HA D7"))  # the others' 3 clubs fall: C7 wins
    assert sure_winners(run, rules) == 7 and announce(run, rules) == "pass"
    assert announce(HANDS[3], rules) == "beddl"
    hands = [HANDS[0], HANDS[3], HANDS[1], HANDS[2]]
    assert bidding(hands, 3, rules)[1] == 1
    assert bidding([HANDS[0], HANDS[3], HANDS[1], clubs], 2, rules) == ("mord", 3)
    late = bidding([HANDS[0], HANDS[3], HANDS[1], strong], 3, rules)
    assert late == ("beddl", 1)
    priority = contract_class("herzla", "normal")(options={"contract_priority": "mord-over-beddl"})
    assert bidding([HANDS[0], HANDS[3], HANDS[1], strong], 3, priority) == ("mord", 3)
    ace_ten = contract_class("herzla", "normal")(options={"rank_order": "ace-ten"})
    assert announce(mask_of(parse_cards("CQ CJ C9 S8 S7 HQ H9 DJ")), ace_ten) == "beddl"
    assert announce(mask_of(parse_cards("CT CJ C9 S8 S7 HQ H9 DJ")), ace_ten) == "pass"


# -- the batch engine's policies in single states ---------------------------------------------

def batch_card(state: TrickHand, r: int | None) -> Card:
    """The batch engine's choice in this state (random with uniform ``r``, else heuristic)."""
    rules = state.contract
    bits = bits_of(rules.pack(), rules.rank_order())
    dt = bits.dtype
    legal = np.array([bits.mask_of_indices(state.legal_mask())], dtype=dt)
    if r is not None:
        out = random_cards(bits, legal, np.array([r * 2.0**-32]))
        return bits.card_of_mask(int(out[0]))
    prof = BitProfile.of(trick_profile(rules, state.turn), bits)
    follows = top = None
    if state.trick:
        led = state.trick[0].suit
        follows = np.array([bool(state.hands[state.turn] & SUIT_MASKS[led])])
        winner = state.current_winner()
        assert winner is not None
        card = state.trick[(winner - state.leader) % state.players]
        top = np.array([bits.mask([card])], dtype=dt)
    out = heuristic_cards(bits, [(prof, None)], len(state.trick), state.players, legal,
                          follows, top)
    return bits.card_of_mask(int(out[0]))


def batch_lay(state: LayoutHand, r: int | None) -> Lay | None:
    rules = state.contract
    bits = bits_of(rules.pack(), rules.rank_order())
    setup = LayoutSetup.of(rules, bits)
    dt = bits.dtype
    hand = state.hands[state.turn]
    plus = minus = unopened = 0
    for c in cards_of(hand):
        ends = state.fits(c)
        if "+" in ends:
            plus |= bits.mask([c])
        if "-" in ends:
            minus |= bits.mask([c])
    f_up = f_down = 0
    if setup.any_suit:
        jacks = setup.ranks[setup.jack]
        if 0 in state.rows:
            low, high = state.rows[0]
            f_up, f_down = setup.ranks[(high + 1) % setup.n], setup.ranks[(low - 1) % setup.n]
        else:
            f_up = unopened = jacks
    else:
        for c in cards_of(rules.pack().mask):
            rows = rules.declaration.rows
            if c.rank == rows.opening and rows.row_of(c) not in state.rows:
                unopened |= bits.mask([c])
    u = None if r is None else np.array([r * 2.0**-32])
    arr = [np.array([m], dtype=dt) for m in (bits.mask_of_indices(hand), plus, minus, f_up,
                                             f_down, unopened)]
    card, at_minus = choose_lays(setup, arr[0], arr[1], arr[2], arr[3], arr[4], arr[5], u)
    if not card[0]:
        return None
    return Lay(bits.card_of_mask(int(card[0])), "-" if at_minus[0] else "+")


def _contract(game: str, cid: str, players: int, options: dict[str, Any],
              declarer: int) -> Contract:
    cls = contract_class(game, cid)
    return cls(players, options, declarer if cls.needs_declarer else None)


def _deal(rules: Contract, rng: random.Random) -> list[int]:
    cards = rules.pack().cards
    rng.shuffle(cards)
    h = rules.hand_size
    return [mask_of(cards[s * h:(s + 1) * h]) for s in range(rules.players)]


TRICK_CASES = [("herzla", c.id, 4) for c in contract_classes("herzla")] + [
    ("herzla-kids", "normal", p) for p in (3, 4, 5, 8)] + [
    (g, c.id, p) for g in ("herzeln", "herzerln") for c in contract_classes(g)
    if c.kind == "tricks" for p in (3, 4)]


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from(TRICK_CASES), seed=st.integers(0, 2**32),
       ace_ten=st.booleans(), declarer=st.integers(0, 3), dealer=st.integers(0, 7))
def test_batch_trick_policies_agree(case: tuple[str, str, int], seed: int, ace_ten: bool,
                                    declarer: int, dealer: int) -> None:
    game, cid, players = case
    options = {"rank_order": "ace-ten"} if ace_ten and game == "herzla" else {}
    rules = _contract(game, cid, players, options, declarer % players)
    assert isinstance(rules, TrickContract)
    rng = random.Random(seed)
    state = TrickHand(rules, _deal(rules, rng), dealer % players)
    while not state.over:
        assert heuristic_card(state) == batch_card(state, None)
        r = rng.getrandbits(32)
        card = random_card(state, r)
        assert card == batch_card(state, r)
        state.play(card)


LAYOUT_CASES = [("herzeln", "domino", p, o) for p in (3, 4) for o in (
    {}, {"domino_suits": "same-suit"}, {"domino_suits": "same-suit", "domino_wrap": False})] + [
    ("herzerln", "auflegen", p, {}) for p in (3, 4)]


@settings(max_examples=30, deadline=None)
@given(case=st.sampled_from(LAYOUT_CASES), seed=st.integers(0, 2**32),
       dealer=st.integers(0, 3))
def test_batch_layout_policies_agree(case: tuple[str, str, int, dict[str, Any]], seed: int,
                                     dealer: int) -> None:
    game, cid, players, options = case
    rules = _contract(game, cid, players, options, 0)
    assert isinstance(rules, LayoutContract)
    rng = random.Random(seed)
    state = LayoutHand(rules, _deal(rules, rng), dealer % players)
    while not state.over:
        assert heuristic_lay(state) == batch_lay(state, None)
        r = rng.getrandbits(32)
        lay = random_lay(state, r)
        assert lay == batch_lay(state, r)
        if lay is None:
            state.pass_turn()
        else:
            state.lay(lay.card, lay.end)


@pytest.mark.parametrize("options", [{}, {"rank_order": "ace-ten"},
                                     {"contract_priority": "mord-over-beddl"}])
def test_batch_bidding_agrees(options: dict[str, Any]) -> None:
    rules = contract_class("herzla", "normal")(4, options)
    bits = bits_of(rules.pack(), rules.rank_order())
    rng = random.Random(3)
    deals = [_deal(rules, rng) for _ in range(1000)]
    strong = [mask_of(parse_cards(h)) for h in ("CA CK CQ CJ SA SK HA DA",
                                                 "CA CK CQ CJ CT C9 C8 SA")]
    weak = mask_of(parse_cards("CJ CT C9 S8 S7 H9 DJ D8"))
    for i in range(0, 1000, 25):  # make sure both announcements and both priorities happen
        deals[i][i % 4] = strong[i // 25 % 2]
        deals[i][(i + 1 + i // 50 % 3) % 4] = weak
    for dealer in range(4):
        hands = [np.array([bits.mask_of_indices(d[s]) for d in deals], dtype=bits.dtype)
                 for s in range(4)]
        code, decl = bid_hands(bits, rules, hands, (dealer + 1) % 4)
        for i, d in enumerate(deals):
            contract_id, declarer = bidding(d, dealer, rules)
            assert ("normal", "beddl", "mord")[code[i]] == contract_id
            assert (None if code[i] == 0 else int(decl[i])) == declarer
