"""Property tests over random legal hands: the invariants of RULES.md §5 and the engines."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herzla.cards import HEARTS_MASK
from herzla.contracts import contract_class, contract_classes, games, get_game
from herzla.contracts.base import Contract
from herzla.kinds.tricks import TrickHand
from herzla.testing import check_contract, random_hand
from tests.shares import some_in_default

ALL = [(c, p) for g in games() for c in contract_classes(g) for p in c.player_counts]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


@pytest.mark.parametrize(("contract", "players"),
                         some_in_default(ALL, kind=lambda case: case[0], every=1_000,
                                         ids=lambda case: f"{case[0].key()}-{case[1]}"))
@settings(max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_conformance(contract: type[Contract], players: int, seed: int) -> None:
    """Random legal play never gets stuck, conserves every card, undo/copy are exact, and every
    hand replays from its record to the same score."""
    report = check_contract(contract, players=players, hands=3, seed=seed)
    assert report.hands == 3


@settings(max_examples=200, deadline=None)
@given(seed=SEEDS, stock=st.integers(0, 500), unit=st.integers(1, 25),
       no_void=st.sampled_from(["pay-stock", "no-payment"]),
       payout=st.sampled_from(["void", "never"]))
def test_herzla_normal_is_zero_sum_and_takes_8_hearts(seed: int, stock: int, unit: int,
                                                      no_void: str, payout: str) -> None:
    rules = contract_class("herzla", "normal")(4, {"heart_unit": unit, "no_void": no_void,
                                                 "stock_payout": payout})
    _, state, _ = random_hand(rules, random.Random(seed))
    assert isinstance(state, TrickHand)
    assert len(state.tricks) == 8, "a normal game is always played out"
    assert sum((m & HEARTS_MASK).bit_count() for m in state.captured) == 8
    result = rules.score(state.outcome(), stock)
    assert result.stock is not None and result.stock >= 0
    assert sum(result.scores) + result.stock - stock == 0
    if payout == "never":
        assert result.stock >= stock


@pytest.mark.parametrize("contract", ["beddl", "mord"])
@settings(max_examples=150, deadline=None)
@given(seed=SEEDS, declarer=st.integers(0, 3), stake=st.integers(0, 200))
def test_beddl_and_mord_end_exactly_when_the_rules_say(contract: str, seed: int, declarer: int,
                                                       stake: int) -> None:
    rules = contract_class("herzla", contract)(4, {"contract_stake": stake}, declarer)
    _, state, _ = random_hand(rules, random.Random(seed))
    assert isinstance(state, TrickHand)
    winners = [t.winner for t in state.tricks]
    if contract == "beddl":
        lost_at = [i for i, w in enumerate(winners) if w == declarer]
    else:
        lost_at = [i for i, w in enumerate(winners) if w != declarer]
    if lost_at:
        assert lost_at == [len(winners) - 1], "ends the moment the contract is lost"
    else:
        assert len(winners) == 8
    result = rules.score(state.outcome(), 40)
    sign = -1 if lost_at else 1
    assert result.scores[declarer] == sign * 3 * stake
    assert all(v == -sign * stake for s, v in enumerate(result.scores) if s != declarer)
    assert result.stock == 40
    assert result.events == (("contract-lost",) if lost_at else ("contract-made",))


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS, players=st.integers(3, 8))
def test_kids_hearts_captured_are_9_minus_leftover_hearts(seed: int, players: int) -> None:
    rules = contract_class("herzla-kids", "normal")(players)
    dealt, state, _ = random_hand(rules, random.Random(seed))
    in_play = 0
    for m in dealt:
        in_play |= m
    leftover_hearts = (rules.pack().mask & ~in_play & HEARTS_MASK).bit_count()
    result = rules.score(state.outcome())
    assert sum(result.scores) == 9 - leftover_hearts
    assert min(result.scores) >= 0


#: the rule book's totals of herzla's own deals, by game, players and contract id
RULE_BOOK_TOTALS: dict[tuple[str, int], dict[str, int]] = {
    ("herzeln", 4): {"no-hearts": -33, "every-trick": 80, "no-tricks": -80, "no-queens": -80,
                     "king-of-hearts": -40, "last-trick": 40, "no-last-trick": -40,
                     "domino": -60},
    ("herzeln", 3): {"no-hearts": -31, "every-trick": 80, "no-tricks": -80, "no-queens": -80,
                     "king-of-hearts": -40, "last-trick": 40, "no-last-trick": -40,
                     "domino": -30},
    ("herzerln", 4): {"tricks": -8, "hearts": -8, "jacks": -8, "red-queens": -8,
                      "king-of-hearts": -8, "auflegen": 40},
    ("herzerln", 3): {"tricks": -10, "hearts": -8, "jacks": -8, "red-queens": -8,
                      "king-of-hearts": -8, "auflegen": 42},
}


@pytest.mark.parametrize("game", ["herzeln", "herzerln"])
@pytest.mark.parametrize("players", [3, 4])
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_deal_totals_and_partie_sums(game: str, players: int, seed: int) -> None:
    # every deal of the partie, whatever the game's contracts: a hand played out adds up to the
    # contract's declared total; herzla's own deals, to the rule book's
    rnd = random.Random(seed)
    partie = 0
    book = RULE_BOOK_TOTALS[game, players]
    for cls in get_game(game).contract_classes()[: get_game(game).partie]:
        rules = cls(players)
        _, state, _ = random_hand(rules, rnd)
        total = sum(rules.score(state.outcome()).scores)
        assert total == rules.score_total(), cls.id
        assert total == book.get(cls.id, total), cls.id
        partie += total
    builtin = sum(book.values())  # -213 / -181 for Herzeln, 0 for Herzerln (zero-sum)
    assert builtin == {"herzeln": -213 if players == 4 else -181, "herzerln": 0}[game]
    if [c.id for c in get_game(game).contract_classes()] == list(book):
        assert partie == builtin


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS)
def test_heart_lead_ban_and_escape(seed: int) -> None:
    """No heart is led to tricks 1-2 unless the leader holds nothing but hearts."""
    rules = contract_class("herzla", "normal")(4)
    dealt, state, _ = random_hand(rules, random.Random(seed))
    assert isinstance(state, TrickHand)
    hands = list(dealt)
    for i, trick in enumerate(state.tricks):
        lead = trick.cards[0]
        if i < 2 and lead.suit == 2:
            assert hands[trick.leader] & ~HEARTS_MASK == 0
        for k, card in enumerate(trick.cards):
            hands[(trick.leader + k) % 4] &= ~card.bit


def test_fixed_totals_are_those_of_the_rule_book() -> None:
    for (game, players), book in RULE_BOOK_TOTALS.items():
        declared = {c.id: c(players).score_total() for c in contract_classes(game)}
        assert {k: declared[k] for k in book} == book
