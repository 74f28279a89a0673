"""The one move type at the policy boundary: ``Policy.move(view) -> Move`` whatever the deal;
the 0.2 names (``card``/``lay``, ``Lay``, ``legal_plays``, ...) gone in 1.0."""

from __future__ import annotations

import importlib

import attrs
import pytest

import herzla
import herzla.kinds.layout.engine
import herzla.players
from herzla.cards import cards_of
from herzla.contracts import contract_class
from herzla.hand import PASS, Move
from herzla.players import Policy, PolicyError, decide_move
from herzla.players.builtin import HeuristicPolicy, RandomPolicy
from herzla.players.views import LayoutView, TrickView
from herzla.sim.reference import play_hand

HANDS = ["CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
         "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8"]


@attrs.frozen
class Last(Policy):
    """One method for both kinds of deal: the last legal move."""

    name = "last"

    def move(self, view: TrickView | LayoutView) -> Move:
        return view.legal_moves()[-1]


@attrs.frozen
class Bad(Policy):
    name = "bad"
    answer: object = None

    def move(self, view: TrickView | LayoutView) -> Move:
        return self.answer  # type: ignore[return-value]


def test_hand_and_move_are_exported() -> None:
    assert herzla.Move is Move and herzla.Hand is herzla.hand.Hand
    assert {"Hand", "Move"} <= set(herzla.__all__)


@attrs.frozen
class Old(Policy):
    """A policy written against herzla 0.2: ``card`` alone, asked no more in 1.0."""

    name = "old"

    def card(self, view: TrickView) -> herzla.Card:
        return cards_of(view.legal)[-1]


def test_a_02_policy_is_refused_naming_move() -> None:
    hand = contract_class("herzla", "normal")().new_hand(HANDS, dealer=3)
    from herzla.players.views import view_of

    with pytest.raises(PolicyError, match=r"^the policy old does not write move\(\)$"):
        decide_move(Old(), view_of(hand), hand.check)


def test_a_layout_policy_passes_with_the_one_move() -> None:
    rules = contract_class("herzeln", "domino")()
    deal = herzla.deal_record("herzeln", "domino", rules.players, seed=1)
    hand, _ = play_hand(rules, list(deal.start().dealt), deal.dealer, [0] * 64, Last())
    assert PASS in hand.moves  # some seat could not lay, and passed


@pytest.mark.parametrize(("answer", "said"), [
    (None, "answered None for a move (move() returns a herzla Move"),
    (herzla.Card.from_str("C7"), "answered the Card C7 for a move"),
    (Move(herzla.Card.from_str("HA")), "chose an illegal move HA: "),
    (PASS, "chose an illegal move pass: "),
])
def test_a_bad_move_is_one_line_naming_the_policy(answer: object, said: str) -> None:
    hand = contract_class("herzla", "normal")().new_hand(HANDS, dealer=3)
    from herzla.players.views import view_of

    with pytest.raises(PolicyError, match="the policy bad") as err:
        decide_move(Bad(answer), view_of(hand), hand.check)
    assert said in str(err.value)


def test_the_builtin_policies_keep_their_batch_forms() -> None:
    assert RandomPolicy().batch_form() is not None and HeuristicPolicy().batch_form() is not None

    @attrs.frozen
    class Other(HeuristicPolicy):
        def move(self, view: TrickView | LayoutView) -> Move:
            return view.legal_moves()[0]

    assert Other().batch_form() is None  # it chooses otherwise: the reference engine plays


def test_the_02_names_are_gone() -> None:
    hand = contract_class("herzla", "normal")().new_hand(HANDS, dealer=3)
    from herzla.players.views import view_of

    view = view_of(hand)
    domino = contract_class("herzeln", "domino")()
    row = domino.new_hand(herzla.deal_record("herzeln", "domino", 4, seed=3).hands, dealer=0)
    for value, name in [(view, "moves"), (view, "legal_plays"), (hand, "legal_plays"),
                        (HeuristicPolicy(), "card"), (HeuristicPolicy(), "lay"),
                        (herzla, "Lay"), (herzla.kinds.layout.engine, "Lay"),
                        (view, "by_kind"), (view_of(row), "legal_lays"),
                        (view_of(row), "moves"), (row, "legal_lays"),
                        (herzla.players, "decide_card"), (herzla.players, "decide_lay")]:
        assert not hasattr(value, name), (value, name)
    for old in ("herzla.moved", "herzla.machinery", "herzla.tally", "herzla.analysis.many",
                "herzla.analysis.lines", "herzla.tricks", "herzla.layout", "herzla.support.moves"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(old)


def test_every_shipped_policy_writes_move() -> None:
    from herzla.analysis.expert import Expert
    from herzla.analysis.ipimc import Ipimc
    from herzla.analysis.pimc import Pimc
    from herzla.players.net import NetPolicy
    for policy in (RandomPolicy(), HeuristicPolicy(), NetPolicy(), Pimc(), Ipimc(), Expert()):
        assert type(policy).move is not Policy.move, policy
        assert not {"card", "lay"} & {n for c in type(policy).__mro__[:-2] for n in vars(c)}
