"""``herzla.contracts.tallies.score_hand``: a hand scored from its tallies by names, with values
as JSON gives them (what ``herzla score`` and the table app's ``/api/score`` both call); and
``herzla score`` refusing, in one line, tallies that contradict each other or leave out what the
contract needs, and fuzzed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from herzla.cards import Card
from herzla.cli import main
from herzla.contracts import MissingTally, contract_class, contract_classes, games
from herzla.contracts.tallies import SCORE_ERRORS, numbers_of, score_hand
from tests.helpers import SCALE, invoke, one_error


def test_it_answers_what_the_command_line_answers(runner: CliRunner) -> None:
    import json

    out = runner.invoke(main, ["score", "herzeln", "no-hearts", "--captured", "HA H7",
                               "--captured", "HT", "--captured", "HK HQ HJ", "--captured",
                               "H9 H8", "--json"])
    assert out.exit_code == 0
    answer = score_hand("herzeln", "no-hearts",
                        captured=["HA H7", [Card.from_str("HT")], ["HK", "HQ", "HJ"], "H9 H8"])
    assert answer.to_dict() == json.loads(out.stdout)


def test_a_missing_tally_names_the_contract() -> None:
    with pytest.raises(MissingTally) as info:
        score_hand("herzla", "normal")
    assert str(info.value).startswith("herzla normal needs")
    assert set(info.value.needs) >= {"hearts"}


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"hearts": "0,3,5,0"}, "give a list of whole numbers"),
    ({"hearts": [0, 3, True, 5]}, "must be a whole number, not true"),
    ({"tricks": {"a": 1}}, "give a list of whole numbers"),
    ({"captured": "HA"}, "give the cards of each seat"),
    ({"captured": [3, "-", "-", "-"]}, "is not a list of cards"),
    ({"captured": [["HA H7"], "-", "-", "-"]}, "is not a card code"),
    ({"hearts": [0, 3, 5, 0], "made": 1}, "give true or false"),
    ({"hearts": [0, 3, 5, 0], "stock": "80"}, "stock must be a whole number"),
    ({"hearts": [0, 3, 5, 0], "declarer": 2}, "has no declarer"),
    ({"hearts": [0, 3, 5, 0], "options": "stock_payout=never"}, "options: give an object"),
    ({"hearts": [0, 3, 5, 0], "last_winner": "3"}, "must be a whole number"),
])
def test_values_of_the_wrong_kind_are_one_line(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(SCORE_ERRORS) as info:
        score_hand("herzla", "normal", **kwargs)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_numbers_of_what_a_person_typed() -> None:
    assert numbers_of(" 2, 3 1,2 ", "tricks") == [2, 3, 1, 2]
    assert numbers_of("", "tricks") == []
    for bad in ("2;3", "a,b", "1" * 21):
        with pytest.raises(SCORE_ERRORS):
            numbers_of(bad, "tricks")


# -- herzla score: tallies that contradict each other, or are missing -------------------------
@pytest.mark.parametrize(("args", "says"), [
    (["beddl", "--declarer", "3", "--made", "--tricks", "0,0,0,1"], "Beddl was lost, not made"),
    (["beddl", "--declarer", "3", "--lost", "--tricks", "8,0,0,0"], "Beddl was made, not lost"),
    (["mord", "--declarer", "0", "--made", "--tricks", "7,1,0,0"], "Mord was lost, not made"),
    (["beddl", "--declarer", "1", "--made", "--lost"], "--made and --lost exclude each other"),
    (["normal", "--hearts", "-1,3,3,3"], "fewer than 0 hearts"),
    (["normal", "--hearts", "8,0,0,0"], "Schleichermord"),
    (["normal", "--hearts", "1" + "0" * 25 + ",0,0,0"], "too long"),
])
def test_contradictory_tallies(args: list[str], says: str) -> None:
    assert says in one_error(invoke("score", "herzla", *args))


def test_stock_paid_only_when_something_is_paid() -> None:
    odd = json.loads(invoke("score", "herzla", "normal", "--hearts", "0,4,4,0", "--stock", "1",
                            "--json").stdout)
    assert odd["events"] == ["two-void"] and odd["stock"] == 1
    assert any("does not split into whole cents" in line for line in odd["explanation"])
    paid = json.loads(invoke("score", "herzla", "normal", "--hearts", "0,4,4,0", "--stock", "2",
                             "--json").stdout)
    assert paid["events"] == ["two-void", "stock-paid"] and paid["stock"] == 0


def test_score_without_tallies_names_hearts() -> None:
    res = CliRunner().invoke(main, ["score", "herzla", "normal"])
    assert res.exit_code == 2
    assert "hearts each seat captured" in res.stderr and "--hearts" in res.stderr
    ok = CliRunner().invoke(main, ["score", "herzla", "normal", "--hearts", "0,3,5,0"])
    assert ok.exit_code == 0 and "+40c" in ok.stdout


@pytest.mark.parametrize("key", [c.key() for g in games() for c in contract_classes(g)])
def test_score_without_tallies_names_an_option(key: str) -> None:
    game, _, cid = key.partition("/")
    args = ["score", game, cid]
    if contract_class(game, cid).needs_declarer:
        args += ["--declarer", "0"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2
    line = res.stderr.strip()
    assert f"{game} {cid} needs" in line and ": give --" in line, line


def test_captured_takes_card_names() -> None:
    by_name = CliRunner().invoke(main, [
        "score", "herzeln", "no-hearts", "--captured", "Herz Sau, Herz 7",
        "--captured", "Herz 10", "--captured", "Herz König Herz Ober Herz Unter",
        "--captured", "H9 H8"])
    by_code = CliRunner().invoke(main, [
        "score", "herzeln", "no-hearts", "--captured", "HA H7", "--captured", "HT",
        "--captured", "HK HQ HJ", "--captured", "H9 H8"])
    assert by_name.exit_code == 0, by_name.output
    assert by_name.stdout == by_code.stdout


# -- fuzzing ----------------------------------------------------------------------------------
_TALLY = st.one_of(st.none(), st.text(alphabet="0123456789,- x", max_size=12),
                   st.lists(st.integers(-3, 12), min_size=0, max_size=5).map(
                       lambda xs: ",".join(map(str, xs))))


@settings(max_examples=80 * SCALE, deadline=None)
@given(contract=st.sampled_from([("herzla", "normal"), ("herzla", "beddl"), ("herzla", "mord"),
                                 ("herzeln", "no-hearts"), ("herzeln", "domino"),
                                 ("herzeln", "last-trick"), ("herzerln", "jacks"),
                                 ("herzla-kids", "normal")]),
       tricks=_TALLY, hearts=_TALLY, order=_TALLY, captured=st.lists(
           st.sampled_from(["HA HT", "-", "QQ", "DQ HQ", "", "HK"]), max_size=4),
       made=st.sampled_from([[], ["--made"], ["--lost"]]),
       declarer=st.sampled_from([[], ["--declarer", "2"], ["--declarer", "9"]]),
       last=st.sampled_from([[], ["--last-trick", "1"], ["--last-trick", "-4"]]),
       stock=st.sampled_from([[], ["--stock", "80"], ["--stock", "-1"]]))
def test_fuzz_score(contract: tuple[str, str], tricks: str | None, hearts: str | None,
                    order: str | None, captured: list[str], made: list[str],
                    declarer: list[str], last: list[str], stock: list[str]) -> None:
    args = ["score", *contract, *made, *declarer, *last, *stock]
    for flag, value in (("--tricks", tricks), ("--hearts", hearts), ("--order", order)):
        if value is not None:
            args += [flag, value]
    for c in captured:
        args += ["--captured", c]
    result = invoke(*args)
    assert result.exit_code in (0, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    if result.exit_code == 2:
        one_error(result)
    else:
        assert "Scores:" in result.stdout
