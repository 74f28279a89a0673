"""Every rule option of RULES.md changes the outcome it names (and bad options are refused)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from herzla.cards import Card, mask_of, parse_cards
from herzla.contracts import contract_class, contract_classes, game_options, games
from herzla.contracts.herzla import resolve_bidding
from herzla.kinds.layout import LayoutHand
from herzla.options import OptionError
from herzla.records import Record, RecordError, replay
from herzla.sheets import score_sheet
from tests.conftest import CASES

RULES_OPTIONS = {
    "herzla": {"heart_unit", "contract_stake", "rank_order", "contract_priority",
               "heart_lead_ban_tricks", "heart_lead_ban_in_contracts", "no_void",
               "stock_payout", "renege"},
    "herzla-kids": {"heart_lead_ban_tricks", "target", "hands", "renege"},
    "herzeln": {"dealer_rotation", "domino_suits", "domino_wrap", "renege"},
    "herzerln": {"renege"},
}


def case(name: str) -> dict[str, Any]:
    rec = json.loads((CASES / f"{name}.json").read_text())["record"]
    assert isinstance(rec, dict)
    return copy.deepcopy(rec)


def run(rec: dict[str, Any], **options: Any) -> Any:
    rec = {**rec, "options": {**rec.get("options", {}), **options}}
    return replay(Record.from_json(rec))


def test_every_option_of_the_rule_book_exists() -> None:
    assert set(RULES_OPTIONS) <= set(games())
    for game in RULES_OPTIONS:
        assert {o.name for o in game_options(game)} == RULES_OPTIONS[game]
        for o in game_options(game):
            assert o.doc and o.rule, o.name


def test_heart_unit_scales_every_heart_amount() -> None:
    assert run(case("01-herzla-two-void")).scores == (40, -30, -50, 40)
    assert run(case("01-herzla-two-void"), heart_unit=5).scores == (20, -15, -25, 20)
    res = run(case("04-herzla-all-hearts"), heart_unit=20)
    assert res.scores == (0, 0, -160, 0) and res.stock == 160


def test_contract_stake() -> None:
    assert run(case("08-herzla-beddl-made"), contract_stake=50).scores == (-50, -50, -50, 150)
    assert run(case("06-herzla-schleichermord"), contract_stake=30).scores == (90, -30, -30, -30)


def test_rank_order_ace_ten() -> None:
    natural = run(case("01-herzla-two-void"))
    ace_ten = run(case("01-herzla-two-void"), rank_order="ace-ten")
    assert [t.winner for t in natural.tricks or ()] != [t.winner for t in ace_ten.tricks or ()]


def test_contract_priority() -> None:
    bids = ["pass", "beddl", "mord", "pass"]
    assert resolve_bidding(bids, 0).contract_id == "beddl"
    assert resolve_bidding(bids, 0, priority="mord-over-beddl").declarer == 2
    assert resolve_bidding(["beddl", "beddl", "pass", "pass"], 3).declarer == 3
    assert resolve_bidding(["pass"] * 4, 1).contract_id == "normal"


def test_heart_lead_ban_tricks() -> None:
    rec = case("13-herzla-heart-lead-ban")  # a heart led to trick 2
    assert run(rec).illegal is not None
    assert run(rec, heart_lead_ban_tricks=1).illegal is None
    lead_heart_trick_3 = case("01-herzla-two-void")  # HK is led to trick 3
    assert run(lead_heart_trick_3).illegal is None
    bad = run(lead_heart_trick_3, heart_lead_ban_tricks=3).illegal
    assert bad is not None and (bad.index, bad.rule) == (8, "heart-lead-ban")


def test_heart_lead_ban_in_contracts() -> None:
    rec = case("13-herzla-heart-lead-ban")
    rec.update(contract="mord", declarer=1)
    assert run(rec).illegal is not None
    assert run(rec, heart_lead_ban_in_contracts=False).illegal is None


def test_no_void() -> None:
    assert run(case("05-herzla-no-void-stock-grows")).stock == 160
    res = run(case("05-herzla-no-void-stock-grows"), no_void="no-payment")
    assert res.scores == (0, 0, 0, 0) and res.stock == 80


def test_stock_payout() -> None:
    assert run(case("02-herzla-one-void-stock-paid")).scores == (160, -30, -30, -20)
    res = run(case("02-herzla-one-void-stock-paid"), stock_payout="never")
    assert res.scores == (80, -30, -30, -20) and res.stock == 80


def test_stock_split_leaves_an_odd_cent() -> None:
    res = run({**case("03-herzla-two-void-stock-split"), "stock": 161})
    assert res.scores == (120, -30, -50, 120) and res.stock == 1


def test_kids_heart_lead_ban_tricks() -> None:
    rec = case("19-herzla-kids-3-players")  # HA is led to trick 4 by seat 2
    bad = run(rec, heart_lead_ban_tricks=4).illegal
    assert bad is not None and bad.rule == "heart-lead-ban"


def kids_hand(points: list[int]) -> dict[str, Any]:
    rec = case("19-herzla-kids-3-players")
    assert run(rec).scores == (3, 3, 3)
    return rec


def test_kids_match_target_and_hands() -> None:
    rec = kids_hand([3, 3, 3])
    seventeen = [rec] * 17  # 17 hands of 3 points each: 51 >= 50
    sheet = score_sheet(seventeen)
    assert sheet.finished and sheet.winners == (0, 1, 2) and sheet.totals == (51, 51, 51)
    with pytest.raises(RecordError, match="the match ended with hand 17"):
        score_sheet([rec] * 18)
    short = [{**rec, "options": {"hands": 2}}] * 2
    assert score_sheet(short).finished
    assert not score_sheet([{**rec, "options": {"target": 10}}] * 3).finished
    assert score_sheet([{**rec, "options": {"target": 9}}] * 3).finished


def herzeln_partie(rotation: str | None) -> list[dict[str, Any]]:
    names = ["22-herzeln-1-no-hearts", "23-herzeln-2-every-trick", "24-herzeln-3-no-tricks",
             "25-herzeln-4-no-queens", "26-herzeln-5-king-of-hearts", "27-herzeln-6-last-trick",
             "28-herzeln-7-no-last-trick", "29-herzeln-8-domino"]
    recs = [case(n) for n in names]
    if rotation:
        for r in recs:
            r["options"] = {"dealer_rotation": rotation}
    return recs


def test_dealer_rotation() -> None:
    assert score_sheet(herzeln_partie(None)).finished
    with pytest.raises(RecordError, match=r"deal 2: the dealer is seat 3, not 0 "
                                          r"\(dealer_rotation=per-partie\)"):
        score_sheet(herzeln_partie("per-partie"))
    recs = herzeln_partie("per-partie")
    fixed = [{**r, "dealer": 3, "plays": []} for r in recs]
    sheet = score_sheet(fixed)
    assert [row.result.record.dealer for row in sheet.rows] == [3] * 8 and not sheet.finished


def test_domino_suits_and_wrap() -> None:
    rec = case("29-herzeln-8-domino")
    assert run(rec).order == (2, 0, 3, 1)
    same = run(rec, domino_suits="same-suit")
    assert same.illegal is not None and same.illegal.rule == "must-open-with-jack"  # H9: no HJ
    with pytest.raises(RecordError, match="domino_wrap=false needs domino_suits=same-suit"):
        run(rec, domino_wrap=False)


@pytest.mark.parametrize(("wrap", "fits"), [(True, ["+"]), (False, [])])
def test_domino_wrap_in_same_suit_rows(wrap: bool, fits: list[str]) -> None:

    rules = contract_class("herzeln", "domino")(4, {"domino_suits": "same-suit",
                                                  "domino_wrap": wrap})
    hands = ["DJ DQ C9 CJ CQ CK CT CA", "DK DT S9 SJ SQ SK ST SA",
             "DA D7 H9 HJ HQ HK HT HA", "D8 D9 C7 C8 S7 S8 H7 H8"]
    d = LayoutHand(rules, [mask_of(parse_cards(h)) for h in hands], dealer=3)  # type: ignore
    d.rows[3] = (3, 7)  # the diamond row holds J Q K T A: its upper end is the Ace
    assert d.fits(Card.from_str("D7")) == fits
    assert d.fits(Card.from_str("D9")) == ["-"]


@pytest.mark.parametrize(("options", "message"), [
    ({"heart_units": 5}, 'unknown option "heart_units"'),
    ({"heart_unit": "ten"}, 'option heart_unit: "ten" is not a whole number'),
    ({"heart_unit": 0}, "option heart_unit: 0 is less than 1"),
    ({"stock_payout": "sometimes"}, "not one of void, never"),
    ({"heart_lead_ban_in_contracts": "yes"}, "is not true or false"),
])
def test_bad_options_are_malformed(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        run(case("01-herzla-two-void"), **options)


def test_option_errors_are_option_errors() -> None:
    with pytest.raises(OptionError):
        contract_class("herzeln", "domino")(4, {"domino_wrap": False})


# -- options are written typed (issue 23) ------------------------------------------------------
@pytest.mark.parametrize("game,item,want", [
    ("herzla", "heart_unit=5", {"heart_unit": 5}),
    ("herzla", "no_void=No-Payment", {"no_void": "no-payment"}),
    ("herzla-kids", "target=30", {"target": 30}),
    ("herzeln", "domino_wrap=TRUE", {"domino_wrap": True}),
])
def test_deal_writes_options_typed(game: str, item: str, want: dict[str, Any]) -> None:
    from click.testing import CliRunner

    from herzla.cli import main

    res = CliRunner().invoke(main, ["deal", game, "--seed", "1", "-o", item])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["options"] == want
    from herzla.records import deal_record

    name, _, value = item.partition("=")
    cls = contract_classes(game)[0]
    rec = deal_record(game, cls.id, cls.player_counts[0], 1, options={name: value})
    assert rec.to_json()["options"] == want
