"""The solver's values are exact at every amount the limits accept (herzla.limits.MAX_AMOUNT):
no value is ever taken for the search's infinity, however large the heart unit, the contract
stake or the stock."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

from herzla.analysis.advise import AdvicePlan, SampleSpan, play_chunk
from herzla.analysis.search.layout import LayoutSearch
from herzla.analysis.search.scoring import AdditiveScore, LeafTable, reach, trick_score
from herzla.analysis.solve import solve
from herzla.cards import PACK_32, cards_of, mask_of, parse_cards
from herzla.contracts import Contract, contract_class
from herzla.contracts.herzeln import Domino, NoHearts
from herzla.contracts.vocabulary import Counts, Settlement, Stock
from herzla.limits import MAX_AMOUNT
from herzla.records import Record
from herzla.support.streams import seeded_deal
from tests.test_solve import check_against_minimax, end_position

pytestmark = pytest.mark.usefixtures("builtin_registry")

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def _scaled(obj: dict[str, Any], **options: int) -> dict[str, Any]:
    return dict(obj, options={**obj.get("options", {}), **options})


@pytest.mark.slow
def test_the_two_void_example_at_the_largest_heart_unit() -> None:
    """The example a heart unit of 10**12 once answered +1099511627776 (2**40, the old
    sentinel) or failed on: every value is the unit-1 value times the unit."""
    obj = json.loads((EXAMPLES / "herzla-two-void.json").read_text())
    for cut in (0, 4, 8, 13, 20):
        pos = dict(obj, plays=obj["plays"][:cut])
        for seat in range(4):
            one = solve(_scaled(pos, heart_unit=1), seat=seat, plays=True)
            big = solve(_scaled(pos, heart_unit=MAX_AMOUNT), seat=seat, plays=True)
            assert big.value == MAX_AMOUNT * one.value
            assert one.plays is not None and big.plays is not None
            assert big.plays == {k: MAX_AMOUNT * v for k, v in one.plays.items()}


@pytest.mark.parametrize("unit", [MAX_AMOUNT, MAX_AMOUNT - 1, 3**25])
def test_normal_game_values_scale_with_the_heart_unit(unit: int) -> None:
    rnd = random.Random(unit)
    for _ in range(6):
        obj = dict(end_position("herzla", "normal", 4, rnd), stock=0)
        seat = rnd.randrange(4)
        one = solve(_scaled(obj, heart_unit=1), seat=seat, plays=True)
        big = solve(_scaled(obj, heart_unit=unit), seat=seat, plays=True)
        assert big.value == unit * one.value
        assert big.plays == {k: unit * v for k, v in (one.plays or {}).items()}


@pytest.mark.parametrize("contract_id", ["beddl", "mord"])
def test_beddl_and_mord_values_scale_with_the_stake(contract_id: str) -> None:
    rnd = random.Random(contract_id)
    for _ in range(6):
        obj = end_position("herzla", contract_id, 4, rnd)
        one = solve(_scaled(obj, contract_stake=1), plays=True)
        big = solve(_scaled(obj, contract_stake=MAX_AMOUNT), plays=True)
        assert big.made == one.made
        assert big.value == MAX_AMOUNT * one.value
        assert big.plays == {k: MAX_AMOUNT * v for k, v in (one.plays or {}).items()}


@pytest.mark.parametrize("contract_id", ["normal", "beddl", "mord"])
def test_the_largest_amounts_agree_with_minimax(contract_id: str) -> None:
    """Heart unit, stake and stock all at the limit, against a plain minimax on the reference
    engine (which has no infinity at all)."""
    rnd = random.Random(f"max/{contract_id}")
    for _ in range(4):
        obj = end_position("herzla", contract_id, 4, rnd,
                           {"heart_unit": MAX_AMOUNT, "contract_stake": MAX_AMOUNT})
        check_against_minimax(dict(obj, stock=MAX_AMOUNT), rnd)


class _BigDomino(Domino):
    """Not registered anywhere: the domino scored in units of the largest amount."""

    id: ClassVar[str] = "big-domino"

    def settle(self, counts: Counts, stock: Stock = 0) -> Settlement:
        return Settlement(super().settle(counts, stock).scores * MAX_AMOUNT)


class _BigNoHearts(NoHearts):
    """Not registered anywhere: Herzeln's no-hearts deal (additive) in units of the largest
    amount."""

    id: ClassVar[str] = "big-no-hearts"

    def settle(self, counts: Counts, stock: Stock = 0) -> Settlement:
        return Settlement(super().settle(counts, stock).scores * MAX_AMOUNT)


@pytest.mark.parametrize(("base", "big"), [(Domino, _BigDomino), (NoHearts, _BigNoHearts)])
def test_layout_and_additive_values_are_exact_at_the_largest_amount(
        base: type[Contract], big: type[Contract]) -> None:
    rnd = random.Random(big.id)
    for n in (3, 4):
        for _ in range(3):
            obj = end_position("herzeln", base.id, n, rnd)
            seat = rnd.randrange(n)
            one = solve(Record.from_json(obj, base), seat=seat, plays=True)
            large = dict(obj, contract=big.id)
            got = solve(Record.from_json(large, big), seat=seat, plays=True)
            assert got.value == MAX_AMOUNT * one.value
            assert got.plays == {k: MAX_AMOUNT * v for k, v in (one.plays or {}).items()}
            check_against_minimax(large, rnd, big)


def test_the_search_infinity_lies_beyond_every_value() -> None:
    contract = contract_class("herzla", "normal")(4, {"heart_unit": MAX_AMOUNT})
    deal = seeded_deal(PACK_32, 4, 8, 7)
    sc = trick_score(contract, MAX_AMOUNT, deal)  # type: ignore[arg-type]
    assert isinstance(sc, LeafTable) and sc.table is not None
    for seat in range(4):
        assert reach(sc, seat, 8) == int(np.abs(sc.table[seat]).max()) > 1 << 40
    kids = contract_class("herzla-kids", "normal")(4, {})
    ad = trick_score(kids, 0, deal)  # type: ignore[arg-type]
    assert isinstance(ad, AdditiveScore)
    assert reach(ad, 0, 8) >= max(abs(v) for v in ad.card[0][0])
    search = LayoutSearch(_BigDomino(4, {}), 0)
    assert search.inf > max(abs(v[0]) for v in search.table.values())


@pytest.mark.slow
def test_advise_double_dummy_cents_scale_with_the_heart_unit() -> None:
    """The advisor's double-dummy cents of the normal game (mean -2**40 with a zero-width
    interval once, at a heart unit of 10**12) are the unit-1 cents times the unit."""
    hand = mask_of(parse_cards("CJ CT C9 S9 S8 HT D9 D8"))

    def cents(unit: int, stake: int) -> dict[tuple[str, str], tuple[int, ...]]:
        plan = AdvicePlan(hand, 0, 3, 0, {"heart_unit": unit, "contract_stake": stake}, 1, 6)
        return dict(play_chunk(plan, SampleSpan(0, 6)).cents)

    one, big = cents(1, 1), cents(MAX_AMOUNT, MAX_AMOUNT)
    assert set(one) == set(big)
    for key, values in one.items():
        assert big[key] == tuple(MAX_AMOUNT * v for v in values), key
    assert any(v for v in one[("normal", "double_dummy")])


@pytest.mark.slow
def test_whole_deals_at_the_largest_heart_unit() -> None:
    """Whole normal-game deals, from the first card."""
    rnd = random.Random(12)
    for _ in range(2):
        hands = seeded_deal(PACK_32, 4, 8, rnd.randrange(1 << 30))
        obj = {"game": "herzla", "contract": "normal", "players": 4, "dealer": 3,
               "declarer": None, "hands": [[str(c) for c in cards_of(h)] for h in hands],
               "plays": []}
        seat = rnd.randrange(4)
        one = solve(_scaled(obj, heart_unit=1), seat=seat)
        big = solve(_scaled(obj, heart_unit=MAX_AMOUNT), seat=seat)
        assert big.value == MAX_AMOUNT * one.value
