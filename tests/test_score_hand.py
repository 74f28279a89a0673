"""``herzla.tally.score_hand``: a hand scored from its tallies by names, with values as JSON gives
them (what ``herzla score`` and the table app's ``/api/score`` both call)."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

from herzla.cards import Card
from herzla.cli import main
from herzla.contracts import MissingTally
from herzla.tally import SCORE_ERRORS, numbers_of, score_hand


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
