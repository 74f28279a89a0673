"""The evening in the library: a Herzla evening deal by deal against the rule book with the stock
carried, parties kept from the worked records, the children's match, edits, drops and undo."""

from __future__ import annotations

import json
from typing import Any

import pytest

from herzla.contracts.tallies import score_hand
from herzla.evening import Entry, Evening, EveningError, read_session
from herzla.records import replay
from tests.conftest import CASES

PLAYERS = ["Anna", "Berni", "Carla", "Done"]


def record(name: str) -> dict[str, Any]:
    obj: dict[str, Any] = json.loads((CASES / f"{name}.json").read_text())["record"]
    return obj


HERZELN = ["22-herzeln-1-no-hearts", "23-herzeln-2-every-trick", "24-herzeln-3-no-tricks",
           "25-herzeln-4-no-queens", "26-herzeln-5-king-of-hearts", "27-herzeln-6-last-trick",
           "28-herzeln-7-no-last-trick", "29-herzeln-8-domino"]
HERZERLN = ["36-herzerln-1-tricks", "37-herzerln-2-hearts", "38-herzerln-3-jacks",
            "39-herzerln-4-red-queens", "40-herzerln-5-king-of-hearts", "41-herzerln-6-auflegen"]

# A Herzla evening worked by hand from the rule book: (entry, scores, stock after)
BOOK: list[tuple[dict[str, Any], list[int], int]] = [
    # nobody void: every player pays 10c a heart into the stock
    ({"hearts": [2, 2, 2, 2]}, [-20, -20, -20, -20], 80),
    # two void: the takers' 80c split, 40c each, and the stock of 80c split too
    ({"hearts": [0, 3, 5, 0]}, [80, -30, -50, 80], 0),
    ({"hearts": [1, 1, 1, 5]}, [-10, -10, -10, -50], 80),
    # one void: the takers' 80c and the whole stock
    ({"hearts": [0, 2, 3, 3]}, [160, -20, -30, -30], 0),
    # Beddl lost: the declarer pays each defender 80c; the stock is left alone
    ({"contract": "beddl", "declarer": "Carla", "made": False}, [80, 80, -240, 80], 0),
    # every heart to one player: 80c to the stock (the tricks say it was no Schleichermord)
    ({"hearts": [0, 0, 8, 0], "tricks": [2, 2, 2, 2]}, [0, 0, -80, 0], 80),
    # Mord made: each defender pays the declarer 80c
    ({"contract": "Mord", "declarer": 1, "made": True}, [-80, 240, -80, -80], 80),
    # Schleichermord: all 8 tricks unannounced, 80c from each opponent; the stock untouched
    ({"tricks": [8, 0, 0, 0]}, [240, -80, -80, -80], 80),
    # two void again: 40c each and half the stock each
    ({"hearts": [0, 0, 4, 4]}, [80, 80, -40, -40], 0),
]


def book_evening() -> Evening:
    e = Evening.new("herzla", PLAYERS)
    for entry, _, _ in BOOK:
        e = e.add(entry)
    return e


def test_a_herzla_evening_matches_the_rule_book_deal_by_deal() -> None:
    e = book_evening()
    assert [list(d.scores or ()) for d in e.deals] == [s for _, s, _ in BOOK]
    assert [d.stock for d in e.deals] == [st for _, _, st in BOOK]
    assert [d.dealer for d in e.deals] == [3, 0, 1, 2, 3, 0, 1, 2, 3]
    assert e.totals == (530, 240, -630, -140) and e.stock == 0
    assert e.next_dealer == 0 and e.next_contract is None
    carried = 0
    for d, (entry, _, _) in zip(e.deals, BOOK, strict=True):
        # each deal is what `herzla score` answers with the stock carried in
        assert d.stock_before == carried
        kwargs = {k: v for k, v in entry.items() if k in ("hearts", "tricks", "made")}
        declarer = entry.get("declarer")
        seat = PLAYERS.index(declarer) if isinstance(declarer, str) else declarer
        answer = score_hand("herzla", entry.get("contract", "normal").lower(), declarer=seat,
                            stock=carried, **kwargs)
        assert d.score == answer.score
        carried = answer.score.stock or 0
    assert sum(e.totals) + e.stock - e.start_stock == 0


def test_the_evening_json() -> None:
    d = book_evening().to_dict()
    assert d["game"] == "herzla" and d["players"] == PLAYERS and d["options"] == {}
    assert d["deals"][0] == {**d["deals"][0], "k": 1, "dealer": 3, "contract": "normal",
                             "scores": [-20, -20, -20, -20], "stock": 80,
                             "events": ["no-void"]}
    assert d["deals"][4]["declarer"] == 2 and d["deals"][4]["entry"] == {
        "contract": "beddl", "declarer": "Carla", "made": False}
    assert d["totals"] == [530, 240, -630, -140] and d["stock"] == 0
    assert d["next"] == {"k": 10, "dealer": 0, "contract": None, "partie": None}
    assert "winners" not in d
    paid = {p: 0 for p in PLAYERS}
    for p in d["settlement"]:
        paid[p["from"]] += p["cents"]
        paid[p["to"]] -= p["cents"]
    assert [paid[p] for p in PLAYERS] == [-t for t in d["totals"]]


def test_statistics_read_from_the_deals() -> None:
    stats = {s.name: s for s in book_evening().statistics()}
    anna, berni, carla = stats["Anna"], stats["Berni"], stats["Carla"]
    # Anna void in deals 2, 4, 6 and 9; Berni in 6 and 9; Carla never; Beddl, Mord and the
    # Schleichermord tally tell no hearts
    assert anna.voids == 4 and berni.voids == 2 and carla.voids == 0
    assert anna.stock_collected == 40 + 80 + 40 and berni.stock_collected == 40
    assert stats["Done"].stock_collected == 40 and carla.stock_collected == 0
    assert dict(carla.declared) == {"Beddl": carla.declared["Beddl"]}
    assert (carla.declared["Beddl"].made, carla.declared["Beddl"].lost) == (0, 1)
    assert (berni.declared["Mord"].made, berni.declared["Mord"].lost) == (1, 0)
    assert anna.deals == 9 and anna.best == 240 and carla.worst == -240
    # deal 1 all alike counts for nobody; a best score shared counts for each
    assert anna.won == 7  # deals 2, 3, 4, 5, 6, 8, 9


def test_a_stock_carried_in_is_paid_out_later() -> None:
    e = Evening.new("herzla", PLAYERS, stock=80, dealer="anna")
    assert e.stock == 80 and e.next_dealer == 0
    e = e.add({"hearts": [2, 2, 2, 2]})  # the stock grows by 80
    assert e.stock == 160
    e = e.add({"hearts": [1, 0, 3, 4]})  # one void collects 80c and the stock
    assert e.deals[-1].scores == (-10, 240, -30, -40) and e.stock == 0
    assert sum(e.totals) + e.stock - e.start_stock == 0
    paid_to_stock = sum(p.cents for p in e.settlement() if p.payee == "stock") - sum(
        p.cents for p in e.settlement() if p.payer == "stock")
    assert paid_to_stock == e.stock - e.start_stock == -80


def test_options_change_the_amounts() -> None:
    e = Evening.new("herzla", PLAYERS, {"heart_unit": "5", "stock_payout": "never"})
    assert e.options == {"heart_unit": 5, "stock_payout": "never"}
    e = e.add({"hearts": [2, 2, 2, 2]}).add({"hearts": [0, 2, 3, 3]})
    assert e.deals[0].scores == (-10, -10, -10, -10)
    assert e.deals[1].scores == (40, -10, -15, -15) and e.stock == 40


def test_edits_and_drops_recompute_everything_after() -> None:
    e = book_evening()
    edited = e.edit(1, {"hearts": [0, 3, 5, 0]})
    fresh = Evening.new("herzla", PLAYERS)
    for entry in [{"hearts": [0, 3, 5, 0]}, *(b[0] for b in BOOK[1:])]:
        fresh = fresh.add(entry)
    assert [d.score for d in edited.deals] == [d.score for d in fresh.deals]
    assert edited.deals[1].scores == (40, -30, -50, 40)  # no stock to split any more
    assert edited.totals != e.totals and edited.totals == fresh.totals
    dropped = e.drop(2)
    again = Evening.new("herzla", PLAYERS)
    for entry in [BOOK[0][0], *(b[0] for b in BOOK[2:])]:
        again = again.add(entry)
    assert [d.score for d in dropped.deals] == [d.score for d in again.deals]
    assert [d.dealer for d in dropped.deals] == [3, 0, 1, 2, 3, 0, 1, 2]
    assert dropped.deals[1].stock_before == 80 and dropped.deals[1].scores == (
        -10, -10, -10, -50)


def test_undo_takes_back_each_change() -> None:
    e = book_evening()
    before = e.to_dict()
    changed = e.edit(3, {"hearts": [0, 0, 4, 4]}).drop(1).add({"hearts": [8, 0, 0, 0],
                                                                "tricks": [2, 2, 2, 2]})
    assert changed.revision == e.revision + 3
    back = changed.undo().undo().undo()
    assert {**back.to_dict(), "revision": 0} == {**before, "revision": 0}
    assert back.revision == e.revision + 6
    assert back.entries == e.entries
    with pytest.raises(EveningError, match="no change to take back"):
        Evening.new("herzla", PLAYERS).undo()


def test_a_herzeln_partie_kept_from_records() -> None:
    e = Evening.new("herzeln", PLAYERS)
    for name in HERZELN:
        assert e.next_contract == record(name)["contract"]
        e = e.add({"record": record(name)})
    assert e.totals == (-52, -120, -39, -2)
    assert e.finished and e.winners() == ("Done",)
    assert e.to_dict()["winners"] == ["Done"] and "settlement" not in e.to_dict()
    assert [d.dealer for d in e.deals] == [3, 0, 1, 2, 3, 0, 1, 2]
    assert [d.scores for d in e.deals] == [replay(record(n)).scores for n in HERZELN]
    # the next partie starts with the seat after the last dealer, and its first deal
    assert (e.next_dealer, e.next_contract) == (3, "no-hearts")
    assert e.to_dict()["next"]["partie"] == 2


def test_a_herzerln_partie_keeps_its_dealer() -> None:
    e = Evening.new("herzerln", PLAYERS)
    for name in HERZERLN:
        e = e.add(Entry.from_json({"record": record(name)}))
    assert e.totals == (-6, -15, 12, 9) and sum(e.totals) == 0
    assert e.winners() == ("Carla",)
    assert [d.dealer for d in e.deals] == [3] * 6 and e.next_dealer == 0
    half = e.drop(6)
    assert not half.finished and half.winners() is None and half.next_contract == "auflegen"


def test_a_partie_from_tallies_knows_its_next_contract() -> None:
    e = Evening.new("herzeln", ["A", "B", "C"])
    e = e.add({"captured": ["HA HK", "HT HQ HJ", "H9"]})  # no-hearts, 3 players
    assert e.deals[0].contract.id == "no-hearts" and e.deals[0].scores == (-15, -15, -1)
    assert e.next_contract == "every-trick" and e.next_dealer == 0
    e = e.add({"tricks": [2, 3, 3]})
    assert e.deals[1].scores == (20, 30, 30)
    with pytest.raises(EveningError, match="deal 3 of a herzeln partie is no-tricks, not "
                                           "no-queens"):
        e.add({"contract": "no-queens", "captured": ["-", "-", "-"]})
    fixed = Evening.new("herzeln", ["A", "B", "C"], {"dealer_rotation": "per-partie"})
    tallies: dict[str, dict[str, Any]] = {
        "no-hearts": {"captured": ["HA HT HK HQ HJ H9", "-", "-"]},
        "every-trick": {"tricks": [8, 0, 0]}, "no-tricks": {"tricks": [0, 8, 0]},
        "no-queens": {"captured": ["CQ SQ", "HQ", "DQ"]},
        "king-of-hearts": {"captured": ["-", "HK", "-"]},
        "last-trick": {"last_trick": "a"}, "no-last-trick": {"last_trick": 2},
        "domino": {"order": ["B", "A", "C"]}}
    for _ in range(8):
        assert fixed.next_contract is not None
        fixed = fixed.add(tallies[fixed.next_contract])
    assert [d.dealer for d in fixed.deals] == [2] * 8 and fixed.next_dealer == 0
    assert fixed.finished and fixed.deals[7].entry.order == ("B", "A", "C")
    # A: -31 (every heart), +80, -40 (two Queens), +40 (last trick), -10 (second out)
    assert fixed.totals == (39, -140, -80) and fixed.winners() == ("A",)


def test_the_childrens_match_ends_at_its_target() -> None:
    kids = ["Ida", "Jo", "Kai"]
    e = Evening.new("herzla-kids", kids, {"target": 10})
    assert e.next_contract == "normal"
    for _ in range(3):
        e = e.add({"hearts": [4, 3, 2]})
    assert e.totals == (12, 9, 6) and e.over and e.finished
    assert e.winners() == ("Kai",) and e.next_dealer is None
    assert e.to_dict()["next"] is None and e.to_dict()["winners"] == ["Kai"]
    with pytest.raises(EveningError, match="the match ended with hand 3; deal 4 comes after it"):
        e.add({"hearts": [3, 3, 3]})
    assert [d.dealer for d in e.deals] == [2, 0, 1]
    short = Evening.new("herzla-kids", kids, {"hands": 2}).add({"hearts": [3, 3, 3]})
    assert not short.finished and short.add({"hearts": [3, 3, 3]}).winners() == tuple(kids)
    undone = e.undo()
    assert not undone.over and undone.winners() is None


def test_records_must_fit_the_evening() -> None:
    e = Evening.new("herzla", PLAYERS, stock=80)
    rec = record("05-herzla-no-void-stock-grows")  # dealt by seat 3 with 80c in the stock
    e = e.add({"record": rec})
    assert e.stock == 160 and e.deals[0].result is not None
    assert "stock" not in e.entries[0].record_json()
    with pytest.raises(EveningError, match="the dealer is seat 0, not 3"):
        e.add({"record": record("03-herzla-two-void-stock-split")})
    split = {**record("03-herzla-two-void-stock-split"), "stock": 80}
    del split["dealer"]
    with pytest.raises(EveningError, match="says the stock is 80c, but the evening carries 160c"):
        e.add({"record": split})
    del split["stock"]
    with pytest.raises(EveningError, match=r"deal 2: play 1 .* is illegal"):
        e.add({"record": split})  # dealt by seat 0 now, so seat 1 leads: not the record's play
    with pytest.raises(EveningError, match="the record is herzeln with 4 players; the evening "
                                           "is herzla with 4"):
        e.add({"record": record("22-herzeln-1-no-hearts")})
    with pytest.raises(EveningError, match="deal 1: the record is not complete"):
        Evening.new("herzla", PLAYERS).add({"record": record("16-herzla-incomplete")})
    with pytest.raises(EveningError, match="other options"):
        e.add({"record": {**record("05-herzla-no-void-stock-grows"), "dealer": 0,
                          "stock": 160, "options": {"heart_unit": 5}}})


def test_seats_by_name_or_number() -> None:
    e = Evening.new("herzerln", PLAYERS, dealer="Berni")
    assert e.next_dealer == 1
    for _ in range(5):
        e = e.add({"tricks": [2, 2, 2, 2]} if e.next_contract == "tricks" else
                  {"hearts": [2, 2, 2, 2]} if e.next_contract == "hearts" else
                  {"captured": ["CJ SJ", "HJ DJ", "-", "-"]} if e.next_contract == "jacks" else
                  {"captured": ["HQ DQ", "-", "-", "-"]} if e.next_contract == "red-queens"
                  else {"captured": ["-", "-", "HK", "-"]})
    e = e.add({"order": ["carla", 3, "Anna", "1"]})
    assert e.deals[-1].scores == (6, 0, 20, 14)
    assert e.entries[-1].order == ("Carla", 3, "Anna", "1")
    with pytest.raises(EveningError, match=r'"Berny" is not a player .did you mean Berni'):
        Evening.new("herzla", PLAYERS).add({"contract": "beddl", "declarer": "Berny",
                                            "made": True})
    with pytest.raises(EveningError, match="seat 4 is not a seat"):
        Evening.new("herzla", PLAYERS).add({"contract": "beddl", "declarer": 4, "made": True})


@pytest.mark.parametrize(("names", "message"), [
    (["Anna", "anna", "C", "D"], "both called"),
    (["Anna", "2", "C", "D"], "is a number"),
    (["Anna", "Stock", "C", "D"], "names the stock"),
    (["Anna", "", "C", "D"], "empty"),
    (["Anna", "B\x00x", "C", "D"], "does not print"),
    (["Anna", "B\u202ex", "C", "D"], "does not print"),
    (["Anna", "B", "C"], "herzla normal is played by 4 players, not 3"),
    (["A" * 41, "B", "C", "D"], "longer than 40"),
])
def test_bad_players(names: list[str], message: str) -> None:
    with pytest.raises(EveningError, match=message):
        Evening.new("herzla", names)


def test_names_of_games_and_contracts_are_forgiving() -> None:
    assert Evening.new("HERZELN", PLAYERS).game == "herzeln"
    with pytest.raises(EveningError, match=r"unknown game .herzl. .did you mean herzla"):
        Evening.new("herzl", PLAYERS)
    e = Evening.new("herzla", PLAYERS).add({"contract": "BEDDL", "declarer": 0, "made": True})
    assert e.entries[0].contract == "beddl"
    with pytest.raises(EveningError, match="did you mean beddl"):
        e.add({"contract": "bedl", "declarer": 0, "made": True})
    with pytest.raises(EveningError, match="unknown option"):
        Evening.new("herzla", PLAYERS, {"heart_units": 5})
    with pytest.raises(EveningError, match="herzeln has no stock"):
        Evening.new("herzeln", PLAYERS, stock=80)


def test_a_bad_tally_is_one_line_and_changes_nothing() -> None:
    e = book_evening()
    bads: list[tuple[dict[str, Any], str]] = [
        ({"hearts": [0, 3, 5]}, "one value per seat"),
        ({"hearts": [1, 1, 1, 1]}, "add up to 4"),
        ({"contract": "beddl", "made": True}, "needs the declarer"),
        ({"stock": 999, "hearts": [0, 3, 5, 0]}, "carries 0c"),
        ({"hearts": "0,3,5,0"}, "a list of whole numbers"),
        ({"pot": 3}, "unknown key"),
        ({}, "needs")]
    for bad, message in bads:
        with pytest.raises(EveningError, match=message) as info:
            e.add(bad)
        assert "\n" not in str(info.value)
    assert e.to_dict() == book_evening().to_dict()
    with pytest.raises(EveningError) as missing:
        e.add({})
    assert set(missing.value.needs) >= {"hearts", "captured"}


def test_a_renege_is_ruled_with_the_stock_carried() -> None:
    e = Evening.new("herzla", PLAYERS, stock=40)
    with pytest.raises(EveningError, match="give no hearts"):
        e.add({"hearts": [0, 3, 5, 0], "renege": "Berni"})
    with pytest.raises(EveningError, match="not a player"):
        e.add({"renege": "Nobody"})
    e = e.add({"renege": "Berni"}).add({"hearts": [0, 3, 5, 0]})
    first, second = e.to_dict()["deals"]
    assert first["scores"] == [0, -80, 0, 0] and first["stock"] == 120
    assert first["events"] == ["renege"]
    assert second["scores"] == [100, -30, -50, 100] and second["stock"] == 0  # 120 split
    again = Evening.from_json(json.loads(json.dumps(e.to_json())))
    assert again.to_dict() == e.to_dict()
    assert Entry.from_json({"renege": "Berni"}).renege == "Berni"


def test_a_record_with_an_established_renege_scores_the_ruling() -> None:
    e = Evening.new("herzla", PLAYERS, stock=80).add(
        {"record": record("59-herzla-renege-established")})
    deal = e.to_dict()["deals"][0]
    assert deal["scores"] == [0, 0, -80, 0] and deal["stock"] == 160
    corrected = record("59-herzla-renege-established")
    corrected["plays"] = corrected["plays"][:6]
    with pytest.raises(EveningError, match="corrected"):
        Evening.new("herzla", PLAYERS, stock=80).add({"record": corrected})


def test_a_redeal_plays_the_deal_again_in_its_place() -> None:
    e = Evening.new("herzeln", PLAYERS, options={"renege": "redeal"})
    e = e.add({"record": record(HERZELN[0])}).add({"renege": 2})
    assert e.next_contract == "every-trick" and e.next_dealer == e.to_dict()["deals"][1]["dealer"]
    e = e.add({"tricks": [2, 2, 2, 2]})
    deals = e.to_dict()["deals"]
    assert [d["contract"] for d in deals] == ["no-hearts", "every-trick", "every-trick"]
    assert deals[1]["scores"] == [0, 0, 0, 0] and deals[1]["dealer"] == deals[2]["dealer"]
    layout = Evening.new("herzerln", ["A", "B", "C"])
    for k in range(5):
        layout = layout.add({"renege": k % 3})
    layout = layout.add({"renege": "B", "order": ["C"], "left": [3, 5, 0]})
    assert layout.to_dict()["deals"][-1]["scores"] == [14, 7, 21]


def test_deals_are_counted_from_1() -> None:
    e = book_evening()
    with pytest.raises(EveningError, match=r"there is no deal 0 .the evening has deals 1 to 9"):
        e.edit(0, {"hearts": [2, 2, 2, 2]})
    with pytest.raises(EveningError, match="there is no deal 10"):
        e.drop(10)
    with pytest.raises(EveningError, match="no deal yet"):
        Evening.new("herzla", PLAYERS).drop(1)


def test_the_list_reader_is_an_evening() -> None:
    grows = {**record("05-herzla-no-void-stock-grows"), "stock": 80}
    split = record("03-herzla-two-void-stock-split")
    del split["stock"]
    e = read_session([grows, split])
    assert e.sheet and [d.stock for d in e.deals] == [160, 0]
    assert [r.stock for r in e.records()] == [80, 160]
    assert e.totals == (100, -50, -70, 100)
    with pytest.raises(EveningError, match="record 2 says the stock is 999c, but the session "
                                           "carries 160c"):
        read_session([grows, {**split, "stock": 999}])
    with pytest.raises(EveningError, match="non-empty JSON list"):
        read_session([])
    with pytest.raises(EveningError, match="record 2: "):
        read_session([grows, None])
    # a list may hold one partie after another
    partie = [record(n) for n in HERZELN]
    two = read_session([*partie, {**partie[0], "dealer": 3}])
    assert len(two.deals) == 9 and not two.finished


def test_repr_and_report() -> None:
    e = book_evening()
    assert repr(e) == "<Evening herzla, 9 deals: Anna +530c, Berni +240c, Carla -630c, " \
                      "Done -140c, stock 0c>"
    text = str(e)
    assert "  5  Done    beddl (Carla)" in text and "Next: deal 10, dealt by Anna." in text
    assert "Carla: won 1 of 9 deals; 0 voids; Beddl made 0, lost 1" in text


def test_hostile_entries_are_one_line() -> None:
    e = Evening.new("herzla", PLAYERS)
    for bad in [{"contract": "beddl", "declarer": 0, "made": True, "options": {"x": 1}},
                {"contract": "beddl", "declarer": 0, "made": True,
                 "options": {"heart_unit": 5}},
                {"hearts": [10**40, 0, 0, 0]},
                {"hearts": [0] * 10_000},
                {"captured": ["HA " * 10_000, "-", "-", "-"]},
                {"captured": [["HA"] * 100, [], [], []]},
                {"declarer": True},
                {"order": "0,1,2,3"},
                {"record": [[["x"]]]},
                {"contract": "<script>"},
                [1, 2]]:
        with pytest.raises(EveningError) as info:
            e.add(bad)  # type: ignore[arg-type]
        assert "\n" not in str(info.value)
    with pytest.raises(EveningError, match="at most 16 seats"):
        Evening.new("herzla-kids", [f"p{i}" for i in range(1000)])


def test_the_running_totals_drawn() -> None:
    from xml.etree import ElementTree

    from herzla.draw.evening import evening_page, evening_svg

    e = Evening.new("herzla", ["<Anna>", "Berni & Co", "Carla", "Done"])
    for entry, _, _ in BOOK:
        e = e.add(entry)
    svg = evening_svg(e)
    root = ElementTree.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    texts = [t.text for t in root.iter(f"{ns}text")]
    assert "<Anna> +530c" in texts and "Berni & Co +240c" in texts and "stock 0c" in texts
    lines = [p for p in root.iter(f"{ns}path") if p.get("fill") == "none"]
    assert len(lines) == 5  # a line per player and the stock's
    assert e._repr_svg_() == svg
    page = evening_page(e)
    assert "&lt;Anna&gt;" in page and "<Anna>" not in page and "herzla/stock-payout" in page
    kids = Evening.new("herzla-kids", ["Ida", "Jo", "Kai"]).add({"hearts": [3, 3, 3]})
    assert "stock" not in [t.text for t in ElementTree.fromstring(evening_svg(kids)).iter(
        f"{ns}text")]


def test_a_drop_inside_a_partie_must_still_fit() -> None:
    e = Evening.new("herzeln", PLAYERS)
    for name in HERZELN[:4]:
        e = e.add({"record": record(name)})
    with pytest.raises(EveningError, match="deal 2 of a herzeln partie is every-trick, not "
                                           "no-tricks"):
        e.drop(2)  # the deals after it are the partie's deals they were
    tallies = Evening.new("herzeln", ["A", "B", "C"]).add(
        {"captured": ["HA HT HK HQ HJ H9", "-", "-"]}).add({"tricks": [8, 0, 0]}).add(
        {"tricks": [0, 8, 0]})
    with pytest.raises(EveningError, match="deal 2 of a herzeln partie is every-trick, not "
                                           "no-tricks"):
        tallies.drop(2)
    assert len(tallies.drop(3).deals) == 2 and tallies.drop(3).next_contract == "no-tricks"


def test_options_are_read_in_any_case_and_kept_as_the_game_spells_them() -> None:
    e = Evening.new("herzla", ["A", "B", "C", "D"], {"HEART_UNIT": 5, "Stock_Payout": "NEVER"})
    assert e.options == {"heart_unit": 5, "stock_payout": "never"}
    assert e.add({"hearts": [2, 2, 2, 2]}).deals[0].scores == (-10, -10, -10, -10)
    with pytest.raises(EveningError, match="option heart_unit is given twice"):
        Evening.new("herzla", ["A", "B", "C", "D"], {"heart_unit": 5, "HEART_UNIT": 6})


def test_a_redeal_leaves_the_partie_where_it_was() -> None:
    from herzla.evening.text import next_line

    e = Evening.new("herzeln", PLAYERS, options={"renege": "redeal"})
    e = e.add({"record": record(HERZELN[0])}).add({"renege": 2})
    for name in HERZELN[1:7]:
        e = e.add({"record": record(name)})
    # eight deals, one of them redealt: the partie's domino is still to play
    assert len(e.deals) == 8 and e.deals[1].redeal
    assert not e.finished and e.winners() is None and e.next_contract == "domino"
    assert next_line(e) == "next: deal 9 (deal 8 of partie 1), domino, dealt by Carla"
    assert "The partie is not over yet." in e.report()
    e = e.add({"record": record(HERZELN[7])})
    assert e.finished and e.winners() == ("Done",)
    assert next_line(e) == "next: deal 10 (deal 1 of partie 2), no-hearts, dealt by Done"
    e = e.add({"contract": "no-hearts", "captured": ["HA HK", "HT HQ HJ", "H9 H8 H7", "-"]})
    assert not e.finished
    with pytest.raises(EveningError, match="deal 11 is deal 2 of partie 2, so every-trick, "
                                           "not no-queens"):
        e.add({"contract": "no-queens", "captured": ["-", "-", "-", "-"]})


def test_the_end_of_a_match_is_one_sentence_with_one_full_stop() -> None:
    from herzla.draw.evening import evening_page

    e = Evening.new("herzla-kids", ["Ida", "Jo", "Kai"], {"target": 10})
    for _ in range(3):
        e = e.add({"hearts": [4, 3, 2]})
    assert "The match is over: no deal follows." in e.report().splitlines()
    assert "<p>The match is over: no deal follows.</p>" in evening_page(e)
    assert ".." not in e.report()
