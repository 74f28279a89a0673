"""The one value of a deal in progress (:class:`herzla.round.Round`) and what carries to the
next (:class:`herzla.round.Carry`), and the five places that play deals reading it."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import herzla
from herzla.contracts import contract_class, get_game
from herzla.options import resolve_options
from herzla.round import Carry, Round, resolve
from herzla.sim.reference import play_hand
from tests import sources as shared

HANDS = ["CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
         "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8"]
NORMAL = contract_class("herzla", "normal")()


def test_the_bidding_settles_when_all_have_spoken_or_early() -> None:
    late = Round(NORMAL, HANDS, dealer=3, bidding=True)
    early = Round(NORMAL, HANDS, dealer=3, bidding=True, early=True)
    assert late.phase == early.phase == "bidding" and late.turn == late.bidder == 0
    assert early.announce("beddl") == ("beddl", 0)  # forehand's Beddl: nobody outranks it
    assert late.announce("beddl") is None and late.bidding and late.turn == 1
    for word in ("pass", "pass"):
        assert late.announce(word) is None
    assert late.announce("pass") == ("beddl", 0) == resolve(late.bids, 3, NORMAL)
    for deal in (late, early):
        assert deal.phase == "play" and deal.contract is not None
        assert deal.contract.id == "beddl" and deal.contract.declarer == 0
        assert deal.turn == 0 and deal.hand is not None
    with pytest.raises(ValueError, match="the bidding is over"):
        late.announce("pass")


def test_nobody_announcing_plays_the_first_contract() -> None:
    deal = Round(NORMAL, HANDS, dealer=3, bidding=True)
    for _ in range(4):
        deal.announce("pass")
    assert deal.contract is not None and deal.contract.id == "normal"
    assert deal.contract.declarer is None


def test_undo_takes_back_moves_then_announcements() -> None:
    deal = Round(NORMAL, HANDS, dealer=3, bidding=True)
    for word in ("pass", "pass", "pass", "pass"):
        deal.announce(word)
    deal.play("C7")
    assert str(deal.undo()) == "C7" and deal.moves == () and deal.phase == "play"
    assert deal.undo() == "pass" and deal.bidding and deal.bids == ("pass",) * 3
    assert deal.hand is None and deal.contract is None and deal.turn == 3
    fixed = Round(NORMAL, HANDS, dealer=3)
    with pytest.raises(ValueError, match="nothing to take back"):
        fixed.undo()


def test_a_copy_is_its_own() -> None:
    deal = Round(NORMAL, HANDS, dealer=3)
    other = deal.copy()
    other.play("C7")
    assert deal.moves == () and [str(m) for m in other.moves] == ["C7"]
    assert deal.hand is not other.hand


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_score_record_and_stock_are_the_hands(seed: int) -> None:
    rec = herzla.deal_record("herzla", "normal", 4, seed=seed, stock=6)
    hand, _ = play_hand(rec.contract, list(rec.start().dealt), rec.dealer, [seed] * 32,
                        "heuristic", stock=6)
    deal = Round(rec.contract, rec.hands, rec.dealer, 6)
    for move in hand.moves:
        with pytest.raises(ValueError, match="not over"):
            deal.score()
        deal.play(move)
    assert deal.over and deal.turn is None and deal.phase == "over"
    assert deal.score() == hand.score()
    after = hand.score().stock
    assert deal.stock_after() == (6 if after is None else after)
    assert deal.record().to_json() == hand.record().to_json()


def test_no_record_during_the_bidding() -> None:
    with pytest.raises(ValueError, match="before the bidding chooses"):
        Round(NORMAL, HANDS, dealer=3, bidding=True).record()


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(-20, 20), min_size=1, max_size=20), st.integers(0, 3))
def test_a_carry_places_deals_in_their_partie(scores: list[int], first: int) -> None:
    # Herzerln: parties of six rounds, one dealer a partie, then the deal passes clockwise
    game = get_game("herzerln")
    carry = Carry(game, 4, resolve_options(game.options, {}), first, None, (0, 0, 0, 0))
    for k, s in enumerate(scores):
        place = carry.place()
        assert place.k == k + 1 and place.partie == k // 6 + 1 and place.hand == k % 6
        assert place.contract == game.partie_ids()[k % 6]
        assert place.dealer == (first + k // 6) % 4
        carry = carry.after(place, (s, -s, 0, 0), None)
    assert carry.totals == (sum(scores), -sum(scores), 0, 0) and carry.deals == len(scores)
    assert not carry.over  # a partie game is no match


def test_a_redeal_is_played_again_in_its_place_and_a_deal_unscored_stops_the_count() -> None:
    game = get_game("herzerln")
    carry = Carry(game, 4, resolve_options(game.options, {}), 0, None, (0, 0, 0, 0))
    place = carry.place()
    again = carry.after(place, (0, 0, 0, 0), None, redeal=True).place()
    assert (again.k, again.hand, again.contract) == (2, 0, place.contract)
    stopped = carry.after(place, None, None).after(again, (5, -5, 0, 0), None)
    assert not stopped.counting and stopped.totals == (0, 0, 0, 0)


#: the modules that play a deal of their own surface over the one value
ADAPTERS = ("openspiel/episode.py", "rl/episode.py", "table/position.py", "evening/run.py",
            "sim/reference.py")


@pytest.mark.parametrize("path", ADAPTERS)
def test_each_adapter_reads_the_one_value(path: str) -> None:
    tree = shared.tree_of(shared.ROOT / path)
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
             and n.module == "herzla.round" for a in n.names}
    assert names & {"Round", "Carry"}
