"""``herzla solve`` and ``herzla advise`` through click, and the advisor's numbers."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from herzla.analysis.advise import (
    CHOICES,
    AdviceError,
    Estimate,
    advise,
    plan_advice,
    sample_hands,
)
from herzla.analysis.estimate import score_range
from herzla.analysis.expert import Expert, modelled
from herzla.analysis.search.scoring import BooleanScore, trick_score
from herzla.analysis.search.trick_search import TrickSearch
from herzla.cards import PACK_32, cards_of, mask_of, parse_cards
from herzla.cli import main
from herzla.contracts import TrickContract, contract_class
from herzla.kinds.tricks import TrickHand
from herzla.players.heuristic import heuristic_order
from tests.helpers import EIGHT

pytestmark = pytest.mark.usefixtures("builtin_registry")

MODEL_EXACT = Expert().exact

ROOT = Path(__file__).resolve().parents[1]
TWO_VOID = ROOT / "docs" / "examples" / "herzla-two-void.json"
HAND = "CJ CT C9 S9 S8 HT D9 D8"


def _partial(tmp_path: Path, plays: int, name: str = "p.json") -> Path:
    obj = json.loads(TWO_VOID.read_text())
    obj["plays"] = obj["plays"][:plays]
    path = tmp_path / name
    path.write_text(json.dumps(obj))
    return path


def test_solve_json_shape_and_plays(runner: CliRunner, tmp_path: Path) -> None:
    path = _partial(tmp_path, 18)
    res = runner.invoke(main, ["solve", str(path), "--seat", "1", "--plays", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert list(d) == ["game", "contract", "players", "seat", "to_move", "value", "made",
                       "line", "plays", "nodes", "elapsed_s"]
    assert d["seat"] == 1 and d["made"] is None and d["to_move"] == 0
    assert len(d["line"]) == 14
    assert d["value"] == min(d["plays"].values())  # seat 0 plays against seat 1
    assert set(d["plays"]) <= {"CJ", "CQ", "SQ", "DQ"}
    res = runner.invoke(main, ["solve", str(path), "--seat", "1", "--json"])
    assert "plays" not in json.loads(res.output)


def test_solve_text(runner: CliRunner, tmp_path: Path) -> None:
    res = runner.invoke(main, ["solve", str(_partial(tmp_path, 24)), "--seat", "2", "--plays"])
    assert res.exit_code == 0
    assert "seat 2 scores" in res.output and "Each play of seat 2" in res.output


def test_solve_beddl_needs_no_seat(runner: CliRunner) -> None:
    res = runner.invoke(main, ["solve", str(ROOT / "docs/examples/herzla-beddl-lost.json"),
                               "--json"])
    assert res.exit_code == 0
    d = json.loads(res.output)
    assert d["made"] is False and d["seat"] == 3 and d["value"] == -240


def test_solve_json_lines(runner: CliRunner, tmp_path: Path) -> None:
    lines = []
    for k in (24, 28, 32):
        lines.append(_partial(tmp_path, k).read_text())
    res = runner.invoke(main, ["solve", "-", "--seat", "0", "--json"], input="\n".join(lines))
    assert res.exit_code == 0
    answers = [json.loads(x) for x in res.output.splitlines()]
    assert len(answers) == 3 and answers[2]["to_move"] is None


def test_solve_exit_codes(runner: CliRunner, tmp_path: Path) -> None:
    illegal = ROOT / "docs/examples/herzerln-heart-free.json"
    res = runner.invoke(main, ["solve", str(illegal), "--seat", "0"])
    assert res.exit_code == 1 and "heart-free-first-trick" in res.output
    res = runner.invoke(main, ["solve", str(illegal), "--seat", "0", "--json"])
    assert res.exit_code == 1
    assert json.loads(res.output)["illegal"]["rule"] == "heart-free-first-trick"
    res = runner.invoke(main, ["solve", str(ROOT / "docs/examples/malformed-duplicate.json")])
    assert res.exit_code == 2 and res.output.startswith("herzla: error:")
    res = runner.invoke(main, ["solve", str(_partial(tmp_path, 4))])
    assert res.exit_code == 2 and "--seat" in res.output
    assert len(res.output.strip().splitlines()) == 1
    res = runner.invoke(main, ["solve", str(tmp_path / "missing.json")])
    assert res.exit_code == 2


def test_advise_cli(runner: CliRunner) -> None:
    res = runner.invoke(main, ["advise", "herzla", "--hand", HAND, "--samples", "2",
                               "--jobs", "1", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert list(d) == ["hand", "seat", "dealer", "stock", "samples", "seed", "model",
                       "exact_samples", "choices", "recommendation", "basis", "margin",
                       "elapsed_s"]
    assert set(d["choices"]) == set(CHOICES)
    assert d["choices"]["normal"]["heuristic"]["p_made"] is None
    assert 0 <= d["choices"]["beddl"]["double_dummy"]["p_made"] <= 1
    # every choice under strong play (the net by default), double dummy and the heuristic
    for c in CHOICES:
        assert list(d["choices"][c]) == ["strong", "double_dummy", "heuristic"]
        assert d["choices"][c]["strong"]["by"] == "net"
    assert d["basis"] == "strong" and d["model"] == "net"
    res = runner.invoke(main, ["advise", "herzla", "--hand", HAND, "--samples", "2",
                               "--jobs", "1", "--only", "beddl", "--only", "mord"])
    assert res.exit_code == 0 and "Recommendation:" in res.output
    assert "normal" not in res.output.split("Recommendation")[0].split("95% CI")[-1]


def test_the_model_searches_the_last_tricks_each_seat_for_itself() -> None:
    """Where the model starts searching, no seat to move could score more with another card
    (max^n: its card is best for itself given how the others then play), and before that
    every card is the heuristic's."""
    plan = plan_advice(HAND, seat=1, seed=5, samples=4, choices=("normal",))
    contract = plan.contract("normal")
    for i in range(4):
        st = TrickHand(contract, sample_hands(plan, i), plan.dealer)
        value = modelled(st.copy(), MODEL_EXACT)
        while sum(h.bit_count() for h in st.hands) > 4 * MODEL_EXACT:
            st.play(heuristic_order(st)[0])
        seat = st.turn
        for card in cards_of(st.legal_mask()):
            after = st.copy()
            after.play(card)
            assert modelled(after, MODEL_EXACT)[seat] <= value[seat]


@pytest.mark.parametrize(("hand", "named"), [
    ("CJ CT C9 S9 S8 HT D9 X8", "X8"), ("CJ CT C9 S9 S8 HT D9 D9", "D9"),
    ("CJ CT C9 S9 S8 HT D9 D6", "D6"), ("CJ CT C9 S9 S8 HT D9", "8 cards"),
])
def test_advise_bad_hand(runner: CliRunner, hand: str, named: str) -> None:
    res = runner.invoke(main, ["advise", "herzla", "--hand", hand])
    assert res.exit_code == 2
    assert res.output.startswith("herzla: error:") and named in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_advise_other_game(runner: CliRunner) -> None:
    res = runner.invoke(main, ["advise", "herzeln", "--hand", HAND])
    assert res.exit_code == 2


def test_sample_deals_keep_the_hand_and_deal_the_rest() -> None:
    plan = plan_advice(HAND, seat=2, seed=9, samples=5)
    for i in range(5):
        hands = sample_hands(plan, i)
        assert hands[2] == plan.hand
        assert sum(h.bit_count() for h in hands) == 32
        total = 0
        for h in hands:
            total |= h
        assert total == PACK_32.mask
    assert sample_hands(plan, 1) == sample_hands(plan, 1) != sample_hands(plan, 2)


@pytest.mark.parametrize("choices", [("beddl", "mord"), ("normal",)])
@pytest.mark.slow
def test_double_dummy_share_matches_a_direct_computation(choices: tuple[str, ...]) -> None:
    samples = 20 if "normal" not in choices else 2
    res = advise(HAND, seat=1, dealer=0, stock=40, samples=samples, seed=4, jobs=1,
                 choices=choices)
    plan = res.plan
    assert tuple(res.choices) == choices
    for choice in choices:
        contract = plan.contract(choice)
        made, cents = [], []
        for i in range(plan.samples):
            hands = sample_hands(plan, i)
            sc = trick_score(contract, plan.stock, hands)
            v = TrickSearch(contract, sc, plan.seat).exact(TrickHand(contract, hands, 0))
            if isinstance(sc, BooleanScore):
                made.append(bool(v))
                cents.append((sc.made if v else sc.lost)[plan.seat])
            else:
                cents.append(v)
        est = res.choices[choice]["double_dummy"]
        assert est.mean == pytest.approx(sum(cents) / len(cents))
        if made:
            assert est.p_made == pytest.approx(sum(made) / len(made))
        else:
            assert est.p_made is None


def test_advise_is_the_same_for_any_jobs() -> None:
    a = advise(HAND, samples=40, seed=2, jobs=1, choices=("beddl", "mord")).to_dict()
    b = advise(HAND, samples=40, seed=2, jobs=2, choices=("beddl", "mord")).to_dict()
    a.pop("elapsed_s")
    b.pop("elapsed_s")
    assert a == b


def test_advise_checks_its_arguments() -> None:
    with pytest.raises(AdviceError, match="seat 4"):
        advise(HAND, seat=4)
    with pytest.raises(AdviceError, match="samples"):
        advise(HAND, samples=0)
    with pytest.raises(AdviceError, match="choices"):
        advise(HAND, choices=("slam",))
    assert str(cards_of(plan_advice(HAND).hand)[0]) == "C9"


def test_samples_have_a_limit() -> None:
    """A sample count beyond the limit is refused before any work (no memory run away)."""
    from herzla.analysis.advise import MAX_SAMPLES

    out = CliRunner().invoke(main, ["advise", "herzla", "--hand", "CJ CT C9 S9 S8 HT D9 D8",
                                    "--samples", str(10**20)])
    assert out.exit_code == 2 and "--samples" in out.stderr
    with pytest.raises(AdviceError, match="1 to 1,000,000"):
        advise("CJ CT C9 S9 S8 HT D9 D8", samples=MAX_SAMPLES + 1)


# -- advise: the hand it reads ----------------------------------------------------------------
def test_hand_takes_card_names() -> None:
    from herzla.analysis.advise import parse_hand

    table = contract_class("herzla", "normal")()
    assert isinstance(table, TrickContract)
    names = "Eichel 10, Eichel 7, Gras Unter, Gras 8, Herz 9, Herz 7, Schellen 9, Schellen 7"
    assert parse_hand(names, table) == mask_of(parse_cards("CT C7 SJ S8 H9 H7 D9 D7"))


@pytest.mark.parametrize(("extra", "says"), [
    (1, "1 is not a card"),
    (None, "null is not a card"),
    ("XX", '"XX" is not a card code'),
    ([1], "a list is not a card"),
])
def test_advise_refuses_a_hand_with_an_item_that_is_not_a_card(extra: Any, says: str) -> None:
    from herzla import AdviceError, Card, advise

    for hand in ([Card.from_str(c) for c in EIGHT] + [extra], [*EIGHT[:7], extra]):
        with pytest.raises(AdviceError, match=re.escape(says)):
            advise(hand, samples=1, jobs=1)


def test_advise_takes_codes_and_cards_mixed() -> None:
    from herzla import Card, advise

    mixed: list[Any] = [Card.from_str(c) for c in EIGHT[:4]] + EIGHT[4:]
    res = advise(mixed, samples=1, jobs=1, choices=["beddl"])
    assert [str(c) for c in res.hand()] == EIGHT


# -- advise: one choice, and intervals within the possible scores -----------------------------
HOPELESS = "CA CK CQ SA SK HA DA DK"


def test_advise_one_choice_compares_nothing() -> None:
    res = CliRunner().invoke(main, ["advise", "herzla", "--hand", HOPELESS, "--only", "beddl",
                                    "--samples", "8", "--jobs", "1", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "Recommendation" not in res.stdout
    assert "Only beddl was weighed: there was nothing to compare it with." in res.stdout
    assert ("With strong players at every seat (net playing all four hands) Beddl is worth "
            "-240.0 cents to you on average (95% interval -240.0..-240.0), made in 0% of the "
            "deals.") in res.stdout
    both = CliRunner().invoke(main, ["advise", "herzla", "--hand", HOPELESS, "--only", "beddl",
                                     "--only", "mord", "--samples", "8", "--jobs", "1",
                                     "--no-progress"])
    assert "Recommendation: " in both.stdout and "nothing to compare" not in both.stdout


def test_score_range_of_the_choices() -> None:
    table = {cid: contract_class("herzla", cid) for cid in ("normal", "beddl", "mord")}
    beddl = table["beddl"](4, None, 2)
    assert isinstance(beddl, TrickContract)
    assert score_range(beddl, 2, 0) == (-240, 240)
    normal = table["normal"](4)
    assert isinstance(normal, TrickContract)
    low, high = score_range(normal, 0, 80)
    assert low < 0 < 80 < high


@given(st.integers(0, 10), st.integers(2, 60))
def test_the_interval_stays_within_the_possible_scores(made: int, lost: int) -> None:
    cents = [240] * made + [-240] * lost
    est = Estimate.of(cents, [True] * made + [False] * lost, (-240, 240))
    assert -240 <= est.ci95[0] <= est.mean <= est.ci95[1] <= 240


def test_the_unclipped_interval_would_pass_the_bound() -> None:
    cents = [240] * 3 + [-240] * 97
    assert Estimate.of(cents, None).ci95[0] < -240  # why the bound is needed
    assert Estimate.of(cents, None, (-240, 240)).ci95[0] == -240
