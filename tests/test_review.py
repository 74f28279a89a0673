"""``herzla review`` and :func:`herzla.review`: each play valued as ``herzla solve`` values the
position before it, for the seat that played, in every deal; and the command through click."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import herzla
from herzla.analysis.review import ReviewResult, review
from herzla.analysis.solve import IllegalPlayError, SolveError, solve
from herzla.cards import cards_of
from herzla.cli import main
from herzla.contracts import get_game
from herzla.hand import PASS
from herzla.records import RecordError
from herzla.support.streams import seeded_deal
from tests.shares import some_in_default

pytestmark = pytest.mark.usefixtures("builtin_registry")

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
TWO_VOID = json.loads((EXAMPLES / "herzla-two-void.json").read_text())


def every_deal() -> list[tuple[str, str, int]]:
    """Every contract of every game, at every table size."""
    return [(game, cls.id, n) for game in ("herzla", "herzla-kids", "herzeln", "herzerln")
            for cls in get_game(game).contract_classes() for n in cls.player_counts]


def played_hand(game: str, contract_id: str, players: int, rnd: random.Random,
                drop_passes: bool = False) -> tuple[dict[str, Any], int]:
    """A seeded deal played to its end at random, and the index of the first play made when
    every hand held at most three cards (reviewing from there is quick)."""
    cls_ = next(c for c in get_game(game).contract_classes() if c.id == contract_id)
    declarer = rnd.randrange(players) if cls_.needs_declarer else None
    contract = cls_(players, {}, declarer)
    dealer = rnd.randrange(players)
    hands = seeded_deal(contract.pack(), players, contract.hand_size, rnd.randrange(1 << 30))
    state = contract.new_hand(hands, dealer)
    plays: list[str] = []
    end = None
    moves = 0
    while not state.over:
        if end is None and max(h.bit_count() for h in state.hands) <= 3:
            end = moves
        moves += 1
        legal = state.legal_moves()
        move = PASS if legal == [PASS] else rnd.choice(legal)
        state.play(move)
        if not (move.is_pass and drop_passes):
            plays.append(str(state.moves[-1]))
    stock = rnd.choice([0, 40]) if contract.has_stock else 0
    obj = {"game": game, "contract": contract_id, "players": players, "dealer": dealer,
           "declarer": declarer, "stock": stock,
           "hands": [[str(c) for c in cards_of(h)] for h in hands], "plays": plays}
    return obj, moves if end is None else end


def check_review(res: ReviewResult, obj: dict[str, Any], plays: list[str]) -> None:
    """Every reviewed play against ``herzla solve --plays`` of the position before it."""
    lower = get_game(obj["game"]).lowest_wins
    for p in res.plays:
        ans = solve(dict(obj, plays=plays[:p.index]), seat=p.seat, plays=True)
        assert ans.plays is not None and ans.to_move == p.seat
        assert p.best == ans.value  # the position's value for the seat that played
        assert p.played == ans.plays[p.card]
        assert p.loss == (p.played - p.best if lower else p.best - p.played) >= 0
        assert p.best_cards == tuple(k for k, v in ans.plays.items() if v == p.best)
        assert (p.loss == 0) == (p.card in p.best_cards)


#: the table sizes whose review takes seconds (eight seats of three cards each): run with slow
BIG_TABLES = 8


@pytest.mark.parametrize(("game", "contract_id", "players"), some_in_default(
    [pytest.param(*deal, marks=pytest.mark.slow) if deal[2] >= BIG_TABLES else deal
     for deal in every_deal()], kind=lambda deal: deal[0]))
def test_every_play_is_valued_as_solve_values_it(game: str, contract_id: str,
                                                 players: int) -> None:
    rnd = random.Random(f"review/{game}/{contract_id}/{players}")
    obj, end = played_hand(game, contract_id, players, rnd)
    res = review(obj, start=end)
    assert [p.index for p in res.plays] == list(range(end, len(res.steps)))
    check_review(res, obj, obj["plays"])
    seats = res.to_dict()["seats"]
    assert list(seats) == [str(s) for s in range(players)]
    assert sum(t["plays"] for t in seats.values()) == len(res.plays)
    assert sum(t["loss"] for t in seats.values()) == sum(p.loss for p in res.plays)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "contract_id", "players"), [
    ("herzla", "normal", 4), ("herzla", "beddl", 4), ("herzla-kids", "normal", 8),
    ("herzeln", "domino", 4), ("herzerln", "auflegen", 3), ("herzeln", "no-tricks", 3)])
def test_whole_hands_from_the_first_card(game: str, contract_id: str, players: int) -> None:
    rnd = random.Random(f"whole/{game}/{contract_id}/{players}")
    obj, _ = played_hand(game, contract_id, players, rnd)
    res = review(obj)
    assert len(res.plays) == len(res.steps) == len(obj["plays"])
    check_review(res, obj, obj["plays"])


def test_a_layout_record_without_its_passes_reviews_every_pass() -> None:
    rnd = random.Random(4)
    for _ in range(20):  # a deal in which someone passed
        obj, _ = played_hand("herzeln", "domino", 3, rnd, drop_passes=True)
        res = review(obj, start=len(obj["plays"]) - 6)
        written = [s for s in res.steps if s.written]
        assert [s.play.rstrip("+-") for s in written] == [p.rstrip("+-") for p in obj["plays"]]
        if len(res.steps) > len(obj["plays"]):
            break
    else:
        raise AssertionError("no pass in twenty domino deals")
    passes = [p for p in res.plays if p.card == "pass"]
    full = [s.play for s in res.steps]
    check_review(res, obj, full)
    for p in passes:  # a pass is forced: it costs nothing
        assert p.loss == 0 and p.best_cards == ("pass",)


def test_the_mistake_of_the_two_void_hand() -> None:
    """Worked by hand (docs/analysis.md): seat 2, to lead to trick 6 with ST, HQ, DT, led HQ.
    Nobody else holds a heart above HQ, so it won its own trick and seat 3's HT: -50 cents.
    Leading ST or DT keeps HQ to drop on a trick seat 2 cannot win (seat 1 leads CK to trick
    8 and seat 2 has no club): -30 cents whatever the others do.  The cost is 20 cents."""
    res = review(TWO_VOID, seat=2)
    assert [p.index for p in res.plays] == [2, 5, 9, 13, 16, 20, 24, 29]
    hq = res.plays[5]
    assert (hq.card, hq.best, hq.played, hq.loss, hq.best_cards) == (
        "HQ", -30, -50, 20, ("ST", "DT"))
    assert hq.step.trick == 6
    assert [p.card for p in res.mistakes()] == ["HQ"]
    seats = res.to_dict()["seats"]
    assert list(seats) == ["2"]
    assert {k: seats["2"][k] for k in ("plays", "mistakes", "loss")} == {
        "plays": 8, "mistakes": 1, "loss": 20}
    # beside it, what the plays lost against the model of the other seats
    assert seats["2"]["loss_model"] == round(sum(p.loss_model or 0 for p in res.plays), 1)


def test_lower_is_better_counts_the_loss_the_other_way() -> None:
    obj = json.loads((EXAMPLES / "kids-5-players.json").read_text())
    res = review(obj, seat=0)
    assert res.lower_is_better
    mistakes = res.mistakes()
    assert mistakes
    for p in mistakes:
        assert p.played > p.best and p.loss == p.played - p.best
    for p in res.plays:
        ans = solve(dict(obj, plays=obj["plays"][:p.index]), seat=0, plays=True)
        assert ans.plays is not None and p.best == min(ans.plays.values())


def test_beddl_values_are_each_seats_own_score() -> None:
    """The declarer plays to make, the defenders to break: a defender's best is its own
    score when the contract is lost."""
    rnd = random.Random(12)
    seen = set()
    for _ in range(6):
        obj, end = played_hand("herzla", "beddl", 4, rnd)
        res = review(obj, start=max(0, end - 8))
        check_review(res, obj, obj["plays"])
        for p in res.plays:
            seen.add(p.seat == obj["declarer"])
    assert seen == {True, False}


def test_to_dict_is_the_json_shape() -> None:
    d = review(TWO_VOID, start=24).to_dict()
    assert list(d) == ["game", "contract", "players", "plays", "seats", "elapsed_s"]
    assert list(d["plays"][0]) == ["index", "seat", "card", "best", "played", "loss",
                                   "best_cards", "loss_model"]
    assert list(d["seats"]["0"]) == ["plays", "mistakes", "loss", "loss_model"]
    assert d["plays"][0]["index"] == 24 and d["plays"][0]["card"] == "ST"
    json.dumps(d)


def test_errors_are_named() -> None:
    illegal = json.loads((EXAMPLES / "herzerln-heart-free.json").read_text())
    with pytest.raises(IllegalPlayError) as info:
        review(illegal)
    assert info.value.illegal.rule == "heart-free-first-trick"
    with pytest.raises(SolveError, match="seat 4"):
        review(TWO_VOID, seat=4)
    with pytest.raises(RecordError):
        review({"game": "herzla"})


def test_no_play_no_review() -> None:
    res = review(dict(TWO_VOID, plays=[]))
    assert res.plays == () and res.to_dict()["seats"]["0"] == {"plays": 0, "mistakes": 0,
                                                               "loss": 0, "loss_model": 0.0}


@pytest.mark.slow  # a few seconds: the default set stays under a minute
def test_a_review_is_the_solves_of_its_positions_on_a_whole_hand() -> None:
    """One search per seat, its table shared from position to position, each play tested
    against the best so far: the same values, best plays and losses as ``herzla solve --plays``
    of every position (the two-void hand from its second trick, every seat)."""
    res = review(TWO_VOID, start=4)
    assert len(res.plays) == 28
    check_review(res, TWO_VOID, TWO_VOID["plays"])


@pytest.mark.compiled
def test_both_paths_review_alike() -> None:
    """The compiled path (from 20 cards still to play) and the pure one give the same review."""
    from herzla.analysis.search import compiled

    with compiled.pure():
        slow = review(TWO_VOID, start=8).to_dict()  # 24 cards: the compiled path applies
    with compiled.always():
        fast = review(TWO_VOID, start=8).to_dict()
    slow.pop("elapsed_s")
    fast.pop("elapsed_s")
    assert fast == slow


@pytest.mark.slow  # a few seconds: the default set stays under a minute
def test_the_same_answer_on_two_processes() -> None:
    a = review(TWO_VOID, start=12, jobs=1).to_dict()
    b = review(TWO_VOID, start=12, jobs=2).to_dict()
    del a["elapsed_s"], b["elapsed_s"]
    assert a == b


def test_the_facade_exports_it() -> None:
    assert herzla.review is review and herzla.ReviewResult is ReviewResult


# -- the command --------------------------------------------------------------------------------

def test_review_text(runner: CliRunner) -> None:
    res = runner.invoke(main, ["review", str(EXAMPLES / "herzla-two-void.json"), "--seat", "2"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0] == ("herzla normal, 4 players: the plays of seat 2, against the model and "
                        "double dummy (cents, higher is better)")
    assert lines[1].startswith("Two prices: 'against the model' is what a play lost")
    assert "trick 6: seat 2 HQ*, seat 3 HT, seat 0 CQ, seat 1 CK; seat 2 wins" in lines
    hq = next(x for x in lines if x.startswith("  * seat 2 played HQ"))
    # the model's price first, then the double-dummy one
    assert hq.startswith("  * seat 2 played HQ (play 21, trick 6, 1st card): cost against the "
                         "model ")
    assert hq.endswith("; double dummy 20 cents, best was ST or DT")
    assert lines[-1].startswith("seat 2: 8 plays reviewed, against the model ")
    assert lines[-1].endswith(" cents lost; double dummy 1 mistake costing 20 cents")
    assert sum(1 for x in lines if x.startswith("trick ")) == 8


def test_review_json_and_seat(runner: CliRunner) -> None:
    res = runner.invoke(main, ["review", str(EXAMPLES / "herzla-two-void.json"), "--seat", "2",
                               "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert {p["seat"] for p in d["plays"]} == {2} and list(d["seats"]) == ["2"]
    assert [p["card"] for p in d["plays"] if p["loss"]] == ["HQ"]


def test_review_layout_text(runner: CliRunner) -> None:
    res = runner.invoke(main, ["review", str(EXAMPLES / "herzeln-3p-domino.json"), "--seat",
                               "1"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[1].startswith("Two prices:") and lines[2] == "seat 0 pass, seat 1 CJ, seat 2 H9"
    ck = next(x for x in lines if x.startswith("  * seat 1 played CK (play 8): cost against the "
                                              "model "))
    assert ck.endswith("; double dummy 10 points, best was ST")


def test_review_json_lines(runner: CliRunner) -> None:
    lines = [json.dumps(dict(TWO_VOID, plays=TWO_VOID["plays"][:k])) for k in (0, 4)]
    res = runner.invoke(main, ["review", "-", "--seat", "3", "--json"], input="\n".join(lines))
    assert res.exit_code == 0, res.output
    answers = [json.loads(x) for x in res.output.splitlines()]
    assert [len(a["plays"]) for a in answers] == [0, 1]


def test_review_exit_codes(runner: CliRunner, tmp_path: Path) -> None:
    illegal = EXAMPLES / "herzerln-heart-free.json"
    res = runner.invoke(main, ["review", str(illegal)])
    assert res.exit_code == 1 and "heart-free-first-trick" in res.output
    res = runner.invoke(main, ["review", str(illegal), "--json"])
    assert res.exit_code == 1
    assert json.loads(res.output)["illegal"]["rule"] == "heart-free-first-trick"
    for args in (["review", str(EXAMPLES / "malformed-duplicate.json")],
                 ["review", str(EXAMPLES / "herzla-two-void.json"), "--seat", "7"],
                 ["review", str(tmp_path / "missing.json")],
                 ["review", str(EXAMPLES / "herzla-two-void.json"), "--jobs", "2",
                  "--cluster", "tcp://127.0.0.1:1"]):
        res = runner.invoke(main, args)
        assert res.exit_code == 2, (args, res.output)
        assert res.output.startswith("herzla: error:") and len(res.output.splitlines()) == 1
    for text in ("[1]", "7"):  # not a record: one line
        res = runner.invoke(main, ["review", "-"], input=text)
        assert res.exit_code == 2 and "must be a JSON object" in res.output
        assert len(res.output.splitlines()) == 1
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(dict(TWO_VOID, plays=[])) + "\n{not json\n")
    res = runner.invoke(main, ["review", str(bad), "--json"])
    assert res.exit_code == 2 and "line 2" in res.output
    assert json.loads(res.output.splitlines()[0])["plays"] == []


def test_review_beddl_names_the_declarer(runner: CliRunner) -> None:
    res = runner.invoke(main, ["review", str(EXAMPLES / "herzla-beddl-lost.json"), "--seat",
                               "3"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0] == ("herzla beddl, 4 players, seat 3 declares: the plays of seat 3, double "
                        "dummy (cents, higher is better)")
    assert lines[-1] == "seat 3: 7 plays reviewed, no mistake"  # lost from the first card


def test_loss_model_is_zero_for_the_best_card_and_never_negative() -> None:
    """Against the model each play loses the best move's mean minus its own: 0 for the move
    the model values best, never below; Beddl and Mord (one side against the declarer) carry
    none."""
    from herzla.analysis.expert import Expert
    from herzla.analysis.model_loss import MODEL, model_loss_of
    from herzla.players.views import view_of
    from herzla.records import read_record

    res = review(TWO_VOID, seat=2)
    assert all(p.loss_model is not None and p.loss_model >= 0 for p in res.plays)
    rec = read_record(TWO_VOID)
    state = rec.start()
    for _ in range(5):
        state.play(state.legal_moves()[0])
    view = view_of(state, uniform=5)
    val = MODEL.valuation(view)
    assert isinstance(MODEL, Expert) and val.means
    best = max(val.means, key=lambda k: val.means[k])
    assert model_loss_of(val, best, False) == 0.0
    assert all(model_loss_of(val, k, False) >= 0 for k in val.means)
    beddl = json.loads((EXAMPLES / "herzla-beddl-lost.json").read_text())
    d = review(beddl).to_dict()
    assert d["plays"] and all("loss_model" not in p for p in d["plays"])
    assert all("loss_model" not in t for t in d["seats"].values())
