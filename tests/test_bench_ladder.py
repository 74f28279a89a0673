"""The ladder benchmark's ceiling (benchmarks/bench_ladder.py): ``expert`` with every card seen.
Its worlds must be the true deal, as many as ``expert`` would play out: with the other seats'
play spread, a single world values each card on one drawn line of play (which put the ceiling
below ``expert`` itself)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import cast

import pytest

from herzla.cards import cards_of, mask_of, parse_cards
from herzla.contracts import TrickContract, contract_class
from herzla.kinds.tricks import TrickHand
from herzla.players.views import TrickView

ROOT = Path(__file__).resolve().parent.parent
HANDS = ("CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
         "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8")


@pytest.fixture(scope="module")
def ladder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_ladder",
                                                  ROOT / "benchmarks" / "bench_ladder.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["bench_ladder"] = mod
    spec.loader.exec_module(mod)
    return mod


def _view(plays: int) -> tuple[list[int], TrickView]:
    hands = [mask_of(parse_cards(h)) for h in HANDS]
    state = TrickHand(cast(TrickContract, contract_class("herzla", "normal")()), hands, dealer=3)
    for _ in range(plays):
        state.play(cards_of(state.legal_mask())[0])
    return hands, TrickView.of(state, uniform=3)


@pytest.mark.parametrize(("params", "plays", "copies"), [
    ({}, 5, 768),                     # play-outs, spread: every world the true deal
    ({"worlds": 7}, 5, 7),
    ({"spread": 0.0}, 5, 1),          # one line of play: one world is the same
    ({}, 20, 1),                      # max^n over the last tricks draws nothing
])
def test_the_ceilings_worlds_are_the_true_deal_as_often_as_expert_plays_worlds(
        ladder: ModuleType, params: dict[str, float], plays: int, copies: int) -> None:
    hands, view = _view(plays)
    ladder._TRUE[:] = hands
    ceiling = ladder.Ceiling(**params)
    assert ceiling.searches(view) == (plays == 20)
    worlds = ceiling.trick_worlds(view)
    assert len(worlds) == copies
    assert all(deal == hands and times == 1 for deal, times in worlds)
    # and it decides, on the deal it sees
    assert ceiling.move(view).card in cards_of(view.legal)
