"""``herzla advise`` under strong play: the strong column is the strong player's own play deal by
deal, the recommendation rests on it, and every interval it prints contains its estimate."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from herzla.analysis.advise import (
    CHOICES,
    AdviceError,
    _uniforms,
    advise,
    plan_advice,
    sample_hands,
)
from herzla.analysis.estimate import Estimate, difference, score_range, wilson
from herzla.analysis.strong import played_one
from herzla.cards import PACK_32, Suit, cards_of
from herzla.cli import main
from herzla.players.registry import policy_of
from tests.helpers import SCALE

pytestmark = pytest.mark.usefixtures("builtin_registry")

HAND = "CT C7 SJ S8 H9 H7 D9 D7"
ALL_HEARTS = "HA HK HQ HJ HT H9 H8 H7"
CHEAP_EXPERT = "expert[worlds=4,candidates=8,exact=1,exact_worlds=1,bids=0]"


def test_the_strong_column_is_the_net_playing_deal_by_deal() -> None:
    """The batch engine's net at every seat gives, deal by deal, the cents and made/lost of the
    reference engine's net playing the same deal."""
    res = advise(HAND, seat=1, dealer=2, stock=30, samples=6, seed=7, jobs=1, exact=0)
    plan = res.plan
    net = policy_of("net")
    for choice in CHOICES:
        cents, made = [], []
        for i in range(6):
            got, won = played_one(plan.contract(choice), plan.dealer, plan.stock,
                                  sample_hands(plan, i), plan.seat, net, _uniforms(plan, i))
            cents += got
            made += won or []
        e = res.choices[choice]["strong"]
        assert e.by == "net" and e.samples == 6
        assert e.mean == pytest.approx(sum(cents) / 6)
        assert (e.p_made is None) == (not made)
        if made:
            assert e.p_made == pytest.approx(sum(made) / 6)
    assert "double_dummy" not in res.choices["normal"]  # none searched


def test_the_recommendation_rests_on_strong_play() -> None:
    res = advise(HAND, samples=24, seed=3, jobs=1, exact=2)
    strong = {c: res.choices[c]["strong"].mean for c in CHOICES}
    assert res.recommendation == max(strong, key=lambda c: strong[c])
    d = res.to_dict()
    assert d["basis"] == "strong" and d["exact_samples"] == 2
    assert d["choices"]["normal"]["double_dummy"]["samples"] == 2
    assert d["choices"]["normal"]["heuristic"]["samples"] == 24
    other = d["margin"]["over"]
    diff = strong[res.recommendation] - strong[other]
    assert d["margin"]["mean"] == pytest.approx(diff, abs=0.01) and diff >= 0
    lo, hi = d["margin"]["ci95"]
    assert lo <= d["margin"]["mean"] <= hi
    text = res.report()
    assert f"Recommendation: {res.recommendation}. With strong players at every seat" in text
    assert "With every card seen by every player (double dummy" in text
    assert "At a table of weak players (the heuristic at every seat) it is worth" in text
    assert "These are its bounds" in text


@pytest.mark.slow
def test_advise_under_the_search_player() -> None:
    """--model names another strong player: expert plays deal by deal on the reference engine,
    the same for any --jobs."""
    out = CliRunner().invoke(main, ["advise", "herzla", "--hand", HAND, "--samples", "2",
                                    "--only", "beddl", "--model", CHEAP_EXPERT, "--jobs", "1",
                                    "--exact-samples", "0", "--json"])
    assert out.exit_code == 0, out.output
    d = json.loads(out.output)
    strong = d["choices"]["beddl"]["strong"]
    assert strong["by"] == CHEAP_EXPERT and d["model"] == CHEAP_EXPERT
    plan = plan_advice(HAND, samples=2, choices=("beddl",), model=CHEAP_EXPERT)
    cents = [played_one(plan.contract("beddl"), plan.dealer, 0, sample_hands(plan, i), 0,
                        plan.policy(), _uniforms(plan, i))[0][0] for i in range(2)]
    assert strong["mean"] == pytest.approx(sum(cents) / 2)


@pytest.mark.parametrize(("model", "says"), [
    ("nett", 'unknown policy "nett" (did you mean net?'),
    ("net[weights=/no/such/model.npz]", "cannot read the model /no/such/model.npz"),
])
def test_a_bad_model_is_one_line(model: str, says: str) -> None:
    out = CliRunner().invoke(main, ["advise", "herzla", "--hand", HAND, "--samples", "2",
                                    "--model", model])
    assert out.exit_code == 2
    assert out.output.startswith("herzla: error: --model") or out.output.startswith(
        "herzla: error: model")
    assert says in out.output and len(out.output.strip().splitlines()) == 1
    with pytest.raises(AdviceError, match=re.escape(says)):
        advise(HAND, samples=1, model=model)


# -- every interval holds its estimate --------------------------------------------------------
def _holds(e: Estimate) -> None:
    assert e.ci95[0] <= e.mean <= e.ci95[1]
    d = e.to_dict()
    assert d["ci95"][0] <= d["mean"] <= d["ci95"][1]  # as printed, too
    if e.p_made is not None:
        assert e.p_made_ci95 is not None
        assert e.p_made_ci95[0] <= e.p_made <= e.p_made_ci95[1]
        assert d["p_made_ci95"][0] <= d["p_made"] <= d["p_made_ci95"][1]


def _printed(text: str) -> None:
    """Every row of the printed table: the mean within its interval, the share within its."""
    for line in text.splitlines():
        m = re.search(r"([+-]?\d+\.\d|0\.0)\s+([+-]?\d+\.\d|0\.0)\.\.([+-]?\d+\.\d|0\.0)\s+\d+$",
                      line)
        if m:
            mean, lo, hi = (float(x) for x in m.groups())
            assert lo <= mean <= hi, line
        share = re.search(r"(\d+\.\d)%\s+(\d+\.\d)%\.\.(\d+\.\d)%", line)
        if share:
            p, lo, hi = (float(x) for x in share.groups())
            assert lo <= p <= hi, line


def test_the_all_hearts_hand_holds_its_mean() -> None:
    """The issue's case: every heart in the hand, a mean of 240 and (before) an interval that
    stopped at 80."""
    res = advise(ALL_HEARTS, samples=2, choices=("normal",), seed=1, jobs=1)
    for e in res.choices["normal"].values():
        assert e.mean == 240 and e.ci95 == (240, 240)
    assert score_range(res.plan.contract("normal"), 0, 0) == (-80, 240)
    _printed(res.report())


_HANDS = (st.randoms(use_true_random=False), st.integers(1, 9), st.sampled_from(CHOICES),
          st.integers(0, 3), st.integers(0, 60), st.booleans())


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*_HANDS)
def test_printed_intervals_hold_their_estimates(rnd: object, samples: int, choice: str,
                                                seat: int, stock: int, hearts: bool) -> None:
    """A few random hands in the default set (the slow set tries many)."""
    _every_interval_holds(rnd, samples, choice, seat, stock, hearts)


@pytest.mark.slow
@settings(max_examples=12 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*_HANDS)
def test_every_printed_interval_holds_its_estimate(rnd: object, samples: int, choice: str,
                                                   seat: int, stock: int, hearts: bool) -> None:
    """Random hands (every heart in the hand some of the time), sample counts from 1 up, every
    choice: each interval contains its estimate, in the result, its JSON and its text."""
    _every_interval_holds(rnd, samples, choice, seat, stock, hearts)


def _every_interval_holds(rnd: object, samples: int, choice: str, seat: int, stock: int,
                          hearts: bool) -> None:
    import random

    assert isinstance(rnd, random.Random)
    cards = cards_of(PACK_32.mask)
    hand = [c for c in cards if c.suit == Suit.H] if hearts else rnd.sample(cards, 8)
    res = advise(hand, seat=seat, stock=stock, samples=samples, seed=rnd.randrange(1000),
                 jobs=1, choices=(choice,), exact=1 if choice == "normal" else samples)
    for e in res.choices[choice].values():
        _holds(e)
    _printed(res.report())


@given(st.lists(st.integers(-300, 300), min_size=1, max_size=30), st.integers(-300, 0),
       st.integers(0, 300))
def test_an_estimate_holds_its_mean_whatever_its_bounds(cents: list[int], low: int,
                                                        high: int) -> None:
    e = Estimate.of(cents, [c > 0 for c in cents], (low, high))
    _holds(e)


@given(st.integers(1, 500), st.data())
def test_the_wilson_interval_holds_its_share(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    lo, hi = wilson(k, n)
    assert 0 <= lo <= k / n <= hi <= 1


@given(st.lists(st.tuples(st.integers(-240, 240), st.integers(-240, 240)), min_size=1,
                max_size=20))
def test_a_difference_holds_its_mean(pairs: list[tuple[int, int]]) -> None:
    mean, (lo, hi) = difference([a for a, _ in pairs], [b for _, b in pairs])
    assert lo <= mean <= hi


def test_advise_in_each_seat() -> None:
    """--seat all weighs the hand in each seat in turn: each answer the one of that seat."""
    out = CliRunner().invoke(main, ["advise", "herzla", "--hand", HAND, "--samples", "3",
                                    "--exact-samples", "1", "--only", "beddl", "--only", "mord",
                                    "--seat", "ALL", "--jobs", "1", "--json"])
    assert out.exit_code == 0, out.output
    seats = json.loads(out.output)["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2, 3]
    one = advise(HAND, seat=2, samples=3, exact=1, choices=("beddl", "mord"), jobs=1).to_dict()
    seats[2].pop("elapsed_s")
    one.pop("elapsed_s")
    assert seats[2] == one
    text = CliRunner().invoke(main, ["advise", "herzla", "--hand", HAND, "--samples", "2",
                                     "--exact-samples", "0", "--only", "mord", "--seat", "all",
                                     "--jobs", "1"]).output
    assert text.rstrip().splitlines()[-4:] == [
        f"seat {s}: mord (-240.0 cents under strong play)" for s in range(4)]
    bad = CliRunner().invoke(main, ["advise", "herzla", "--hand", HAND, "--seat", "x"])
    assert bad.exit_code == 2 and "a seat is a number (0 to 3) or 'all'" in bad.output


def test_a_tie_on_every_deal_is_said_as_such() -> None:
    """Eight top cards: the normal game (every heart taken) and Mord pay +240 on every deal;
    the advice says they are worth the same, not that more samples would tell, and without
    double dummy it names no bounds it did not show."""
    res = advise("CA CK CQ SA SK HA DA DK", samples=4, exact=0, choices=("normal", "mord"),
                 jobs=1)
    assert res.margin is not None and res.margin[1:] == (0.0, (0.0, 0.0))
    text = res.report()
    assert "It is worth the same on every deal as the next best choice, Mord." in text
    assert "more samples would tell" not in text and "These are its bounds" not in text


@example([1, 1], 3)  # a third of a cent on every deal: no spread, seven decimals and more
@given(st.lists(st.integers(-10**6, 10**6), min_size=1, max_size=40), st.integers(1, 12))
def test_a_match_interval_holds_its_mean(values: list[int], scale: int) -> None:
    """The match's standings and pairs: the interval, rounded to the JSON's decimals, still
    holds the mean (a mean of many decimals with no spread once fell outside)."""
    from herzla.sim.match import _interval

    mean, ci = _interval(sum(values), sum(v * v for v in values), len(values), scale)
    assert (ci is None) == (len(values) == 1)
    if ci is not None:
        assert ci[0] <= mean <= ci[1]
