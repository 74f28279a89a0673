"""The one move type at the policy boundary: ``Policy.move(view) -> Move`` whatever the deal,
and the 0.2 methods ``card``/``lay`` still asked where a policy writes only them."""

from __future__ import annotations

import attrs
import pytest

import herzla
import herzla.kinds.layout.engine
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
class LastOld(Policy):
    """The same choices written against herzla 0.2."""

    name = "last-old"

    def card(self, view: TrickView) -> herzla.Card:
        return cards_of(view.legal)[-1]

    def lay(self, view: LayoutView) -> Move | None:
        moves = view.lays()
        return moves[-1] if moves else None


@attrs.frozen
class Bad(Policy):
    name = "bad"
    answer: object = None

    def move(self, view: TrickView | LayoutView) -> Move:
        return self.answer  # type: ignore[return-value]


def test_hand_and_move_are_exported() -> None:
    assert herzla.Move is Move and herzla.Hand is herzla.hand.Hand
    assert {"Hand", "Move"} <= set(herzla.__all__)


@pytest.mark.parametrize(("game", "contract"), [("herzla", "normal"), ("herzeln", "domino"),
                                                ("herzerln", "auflegen")])
def test_move_and_the_02_methods_play_alike(game: str, contract: str) -> None:
    rules = contract_class(game, contract)()
    deal = herzla.deal_record(game, contract, rules.players, seed=3)
    uniforms = [0] * 64
    new, plays_new = play_hand(rules, list(deal.start().dealt), deal.dealer, uniforms, Last())
    with pytest.warns(DeprecationWarning, match="the policy LastOld writes (card|lay)\\(\\), "
                                                "deprecated"):
        old, plays_old = play_hand(rules, list(deal.start().dealt), deal.dealer, uniforms,
                                   LastOld())
    assert plays_new == plays_old and new.score() == old.score()


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


def test_the_02_names_warn_with_their_new_names() -> None:
    hand = contract_class("herzla", "normal")().new_hand(HANDS, dealer=3)
    from herzla.players.views import view_of

    view = view_of(hand)
    assert isinstance(view, TrickView)
    with pytest.warns(DeprecationWarning, match=r"TrickView.moves\(\) .* legal_moves\(\)"):
        assert view.moves() == view.legal_moves()
    with pytest.warns(DeprecationWarning, match=r"TrickView.legal_plays .* legal_moves\(\)"):
        assert [Move(c) for c in view.legal_plays] == view.legal_moves()
    with pytest.warns(DeprecationWarning, match=r"TrickHand.legal_plays\(\) .* legal_moves\(\)"):
        assert [Move(c) for c in hand.legal_plays()] == hand.legal_moves()  # type: ignore
    assert not hasattr(view, "by_kind")  # the dispatch by kind is gone: one Policy.move()
    with pytest.warns(DeprecationWarning, match=r"Policy.card\(\) .* move\(view\)"):
        assert HeuristicPolicy().card(view) == HeuristicPolicy().move(view).card
    with pytest.warns(DeprecationWarning, match=r"herzla.Lay .* herzla.Move\(card, end\)"):
        lay = herzla.Lay
    assert lay(herzla.Card.from_str("HJ"), "+").move() == Move(herzla.Card.from_str("HJ"), "+")
    with pytest.warns(DeprecationWarning, match=r"herzla.kinds.layout.engine.Lay .* herzla.Move"):
        assert herzla.kinds.layout.engine.Lay is lay
    domino = contract_class("herzeln", "domino")()
    row = domino.new_hand(herzla.deal_record("herzeln", "domino", 4, seed=3).hands, dealer=0)
    lview = view_of(row)
    assert isinstance(lview, LayoutView)
    with pytest.warns(DeprecationWarning, match=r"LayoutView.legal_lays\(\) .* lays\(\)"):
        assert lview.legal_lays() == lview.lays()
    with pytest.warns(DeprecationWarning, match=r"LayoutHand.legal_lays\(\) .* legal_moves"):
        assert row.legal_lays() == row.lays()  # type: ignore[attr-defined]


def test_every_shipped_policy_writes_move() -> None:
    from herzla.analysis.expert import Expert
    from herzla.analysis.ipimc import Ipimc
    from herzla.analysis.pimc import Pimc
    from herzla.players.net import NetPolicy
    from herzla.players.policy import writes_move

    for policy in (RandomPolicy(), HeuristicPolicy(), NetPolicy(), Pimc(), Ipimc(), Expert()):
        assert writes_move(policy), policy
        assert not {"card", "lay"} & {n for c in type(policy).__mro__[:-2] for n in vars(c)}
