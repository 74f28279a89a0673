"""Reneges ruled: corrected or established, and settled by the table's ``renege`` option."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from herzla.cli import main
from herzla.contracts import contract_class, game_of, games, get_game
from herzla.contracts.base import LayoutContract, TrickContract
from herzla.contracts.renege import is_renege, places_after, renege_score, renege_text
from herzla.contracts.tallies import score_tallies
from herzla.contracts.vocabulary import ILLEGAL_PLAYS, TallyError
from herzla.records import replay
from tests.conftest import load_cases

CASES = dict(load_cases())


def record(name: str) -> dict[str, Any]:
    rec = CASES[name]["record"]
    assert isinstance(rec, dict)
    return copy.deepcopy(rec)


def test_record_errors_are_not_reneges() -> None:
    assert not is_renege("not-in-hand") and not is_renege("hand-over")
    assert all(is_renege(r) for r in ILLEGAL_PLAYS if r not in ("not-in-hand", "hand-over"))
    # a card the seat does not hold gets no ruling
    rec = record("15-herzla-not-in-hand")
    result = replay(rec)
    assert result.illegal is not None and result.illegal.rule == "not-in-hand"
    assert result.ruling is None


def test_the_ruling_waits_for_the_trick_to_be_complete() -> None:
    rec = record("59-herzla-renege-established")
    rec["plays"] = rec["plays"][:6]  # the renege, second card of trick 2: corrected
    ruling = replay(rec).ruling
    assert ruling is not None and not ruling.established
    assert ruling.scores is None and ruling.legal is not None
    assert set(ruling.legal) == {"ST", "S7"}
    rec = record("59-herzla-renege-established")
    rec["plays"] = rec["plays"][:7]  # one card short of the trick: still corrected
    ruling = replay(rec).ruling
    assert ruling is not None and not ruling.established
    rec["plays"] = record("59-herzla-renege-established")["plays"][:8]  # trick complete
    ruling = replay(rec).ruling
    assert ruling is not None and ruling.established
    assert ruling.scores == (0, 0, -80, 0) and ruling.stock == 160


def test_a_layout_renege_stands_once_the_next_seat_moves() -> None:
    rec = record("64-herzerln-auflegen-pass-while-able")
    rec["plays"] = rec["plays"][:4]  # the pass while able, and nothing after it
    ruling = replay(rec).ruling
    assert ruling is not None and not ruling.established
    assert ruling.legal == ("CQ",)


@pytest.mark.parametrize("option", ["redeal", "none"])
def test_the_option_settles_it(option: str) -> None:
    rec = record("59-herzla-renege-established")
    rec["options"] = {"renege": option}
    result = replay(rec)
    assert result.illegal is not None and result.scores is None
    if option == "none":
        assert result.ruling is None
        return
    assert result.ruling is not None
    assert result.ruling.scores == (0, 0, 0, 0) and result.ruling.stock == 80
    assert "redeal" in result.ruling.events


def test_a_renege_in_a_trick_deal_costs_the_whole_stake() -> None:
    """RULES: Herzeln's and Herzerln's whole stakes, and Herzla's 8 heart units."""
    stakes = {("herzeln", 4): [33, 80, 80, 80, 40, 40, 40], ("herzeln", 3): [31, 80, 80, 80, 40,
                                                                             40, 40],
              ("herzerln", 4): [8, 8, 8, 8, 8], ("herzerln", 3): [10, 8, 8, 8, 8]}
    for (game, n), want in stakes.items():
        got = []
        for cls in get_game(game).contract_classes():
            contract = cls(n)
            if isinstance(contract, TrickContract):
                got.append(-score_tallies(contract, renege=1).scores[1])
        assert got == want, (game, n)
    normal = contract_class("herzla", "normal")(4, {"heart_unit": 5})
    assert score_tallies(normal, renege=0, stock=7).stock == 7 + 40


@given(st.data())
@settings(max_examples=60, deadline=None)
def test_an_established_renege_keeps_the_invariants(data: st.DataObject) -> None:
    """Zero-sum over players and stock in Herzla; elsewhere the deal's total is minus the
    stake (the offender's score); a layout renege places every seat once, the offender last."""
    game = data.draw(st.sampled_from(games()))
    cls = data.draw(st.sampled_from(get_game(game).contract_classes()))
    n = data.draw(st.sampled_from(cls.player_counts))
    declarer = data.draw(st.integers(0, n - 1)) if cls.needs_declarer else None
    contract = cls(n, None, declarer)
    seat = data.draw(st.integers(0, n - 1))
    stock = data.draw(st.integers(0, 10**6)) if contract.has_stock else 0
    lowest = game_of(contract).lowest_wins
    if isinstance(contract, LayoutContract):
        out = data.draw(st.lists(st.sampled_from([s for s in range(n) if s != seat]),
                                 unique=True, max_size=n - 2))
        # a seat out holds no card; one still in (the offender too) at least one, at most a hand
        left = [0 if s in out else data.draw(st.integers(1, contract.hand_size))
                for s in range(n)]
        score = renege_score(contract, seat, lowest, out=out, left=left)
        places = sorted(range(n), key=lambda s: -score.scores[s])
        assert score.scores[seat] == min(score.scores)
        assert places[:len(out)] == list(out) or len(set(score.scores)) < n
        return
    pack = contract.pack()
    aside = data.draw(st.lists(st.sampled_from(pack.cards), unique=True,
                               min_size=contract.leftovers, max_size=contract.leftovers))
    dealt = pack.mask & ~sum(c.bit for c in aside)
    score = renege_score(contract, seat, lowest, stock, dealt=dealt)
    change = (score.stock - stock) if score.stock is not None else 0
    if contract.declarer is not None and isinstance(contract, TrickContract) and \
            contract.declaration.early_end is not None:
        assert sum(score.scores) + change == 0
        assert ("contract-lost" in score.events) == (seat == declarer)
    elif contract.has_stock:
        assert sum(score.scores) + change == 0 and score.scores[seat] < 0
    else:
        assert isinstance(contract, TrickContract)
        stake = contract.whole_stake(dealt)
        assert sum(score.scores) == (stake if lowest else -stake)
        assert [s for s in range(n) if score.scores[s]] in ([seat], [])


def test_places_after_a_renege() -> None:
    # seats out keep their places; the rest by cards left, ties from the offender's left
    assert places_after(1, 4, (3,), [2, 5, 2, 0]) == (3, 2, 0, 1)
    assert places_after(1, 3, (), [9, 9, 9]) == (2, 0, 1)
    with pytest.raises(TallyError, match="left"):
        places_after(1, 4, (), None)
    with pytest.raises(TallyError, match="already out"):
        places_after(3, 4, (3,), [0, 1, 1, 0])


def test_every_game_has_a_page_on_reneges(runner: CliRunner) -> None:
    for game in games():
        res = runner.invoke(main, ["rules", f"{game}/renege", "--json"])
        assert res.exit_code == 0, res.output
        text = json.loads(res.stdout)["entries"][0]["text"]
        for cls in get_game(game).contract_classes():
            contract = cls.default()
            assert renege_text(contract, get_game(game).lowest_wins) in text


@pytest.mark.parametrize("word", ["renege", "revoke", "reneging", "Renege", "misdeal",
                                  "out-of-turn", "exposed-card"])
def test_rules_finds_the_irregularities(runner: CliRunner, word: str) -> None:
    res = runner.invoke(main, ["rules", word])
    assert res.exit_code == 0, res.output
    want = {"revoke": "renege", "reneging": "renege", "Renege": "renege"}.get(word, word)
    assert f"(rule {want})" in res.output


def test_score_rules_on_a_renege(runner: CliRunner) -> None:
    res = runner.invoke(main, ["score", "herzla", "normal", "--renege", "2", "--stock", "80",
                               "--json"])
    assert res.exit_code == 0, res.output
    answer = json.loads(res.stdout)
    assert answer["scores"] == [0, 0, -80, 0] and answer["stock"] == 160
    assert answer["events"] == ["renege"]
    res = runner.invoke(main, ["score", "herzerln", "auflegen", "--players", "3", "--renege",
                               "1", "--left", "9,9,9", "--json"])
    assert json.loads(res.stdout)["scores"] == [14, 7, 21]
    res = runner.invoke(main, ["score", "herzla", "mord", "--declarer", "0", "--renege", "1",
                               "--json"])
    assert json.loads(res.stdout)["scores"] == [240, -80, -80, -80]
    res = runner.invoke(main, ["score", "herzla-kids", "normal", "-p", "5", "--renege", "0",
                               "--aside", "H6", "--json"])
    assert json.loads(res.stdout)["scores"] == [8, 0, 0, 0, 0]


@pytest.mark.parametrize("args", [
    ["herzla", "normal", "--renege", "9"],
    ["herzla", "normal", "--renege", "1", "--hearts", "0,3,5,0"],
    ["herzla-kids", "normal", "-p", "5", "--renege", "0"],
    ["herzla-kids", "normal", "-p", "5", "--renege", "0", "--aside", "H6 H7"],
    ["herzeln", "domino", "--renege", "0"],
    ["herzeln", "no-hearts", "--renege", "0", "--left", "1,2,3,4"],
    ["herzla", "normal", "--renege", "0", "-o", "renege=none"],
])
def test_a_bad_renege_tally_is_one_line(runner: CliRunner, args: list[str]) -> None:
    res = runner.invoke(main, ["score", *args])
    assert res.exit_code == 2, res.output
    assert res.stdout == "" and len(res.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["review", "solve"])
def test_review_and_solve_rule_instead_of_a_traceback(runner: CliRunner, command: str) -> None:
    text = json.dumps(record("63-herzeln-renege-established"))
    args = [command, "-"] + (["--seat", "0"] if command == "solve" else [])
    res = runner.invoke(main, [*args, "--json"], input=text)
    assert res.exit_code == 1, res.output
    answer = json.loads(res.stdout)
    assert answer["illegal"]["rule"] == "follow-suit"
    assert answer["ruling"]["scores"] == [-80, 0, 0, 0]
    res = runner.invoke(main, args, input=text)
    assert res.exit_code == 1 and "established" in res.stdout and "Traceback" not in res.output


def test_replay_text_names_the_ruling_counting_from_1(runner: CliRunner) -> None:
    res = runner.invoke(main, ["replay", "-"],
                        input=json.dumps(record("59-herzla-renege-established")))
    assert res.exit_code == 1
    assert "Status: illegal play 6 (trick 2, 2nd card), rule follow-suit" in res.stdout
    assert "Ruling: the renege is established (option renege=penalty)" in res.stdout
    assert "Scores by the ruling: seat 0 0c, seat 1 0c, seat 2 -80c, seat 3 0c" in res.stdout
    assert "Stock by the ruling: 160c" in res.stdout


def test_show_draws_a_renege_as_a_renege(runner: CliRunner, tmp_path: Any) -> None:
    text = json.dumps(record("59-herzla-renege-established"))
    res = runner.invoke(main, ["show", "-"], input=text)
    assert res.exit_code == 1, res.output
    assert "did not follow suit: the seat showed a void" not in res.stdout  # it held spades
    assert "! a renege: seat 2 must follow suit" in res.stdout
    assert "Ruling: a renege by seat 2, established, option renege=penalty" in res.stdout
    page = tmp_path / "hand.html"
    res = runner.invoke(main, ["show", "-", "--html", str(page)], input=text)
    assert "Ruling: a renege by seat 2" in page.read_text(encoding="utf-8")
