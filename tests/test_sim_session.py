"""Evenings in the simulator (``herzla simulate herzla --session N``): the stock carried from
deal to deal, lane by lane, on both engines.

Each evening is checked against what the evening library (:mod:`herzla.evening`) makes of its
deals' hand records, which carries the stock on its own: the totals, the stock at the end, the
zero sum over the players and the stock.  The batch engine and the reference engine give the
same answer; so do one and two processes; a session of one deal is a run of single hands; and
the stock at the end of an evening agrees with an estimate from single hands (slow).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from herzla.cards import HEARTS_MASK
from herzla.contracts import Counts, contract_class
from herzla.evening import read_session
from herzla.records import Record, replay
from herzla.sim.api import SimulationError, plan_run, simulate
from herzla.sim.runner import SimResult, run
from herzla.sim.stats import Histogram

SCALE = max(1, int(os.environ.get("HERZLA_SLOW_SCALE", "1") or 1))
TIMING = ("elapsed_s", "hands_per_s")


def answer(res: SimResult) -> dict[str, Any]:
    out = res.to_dict()
    for key in TIMING:
        del out[key]
    return out


def evenings_of(records: Sequence[dict[str, Any]], deals: int) -> list[list[dict[str, Any]]]:
    assert len(records) % deals == 0
    return [list(records[i:i + deals]) for i in range(0, len(records), deals)]


def histogram_json(values: Sequence[int]) -> dict[str, int]:
    h = Histogram(Counter(values))
    return h.summary().to_dict()["histogram"]  # type: ignore[no-any-return]


def check_against_the_evening_library(res: SimResult, records: list[dict[str, Any]],
                                      start: int, first_dealer: int) -> None:
    """Every evening, as the evening library scores its records: the stock each record says
    it starts with is the one carried (read_session refuses another), the deal passes
    clockwise, every evening is zero-sum over the players and the stock, and the run's seat
    histograms and stock at the end are those of the evenings."""
    p = res.plan
    n = p.players
    assert len(records) == p.hands * p.session
    totals: list[list[int]] = [[] for _ in range(n)]
    ends: list[int] = []
    peaks: list[int] = []
    paid = 0
    for evening in evenings_of(records, p.session):
        assert evening[0]["stock"] == start
        assert [r["dealer"] for r in evening] == [(first_dealer + k) % n
                                                  for k in range(p.session)]
        e = read_session(evening)  # carries the stock itself; refuses a record that says other
        assert e.stock is not None
        assert sum(e.totals) + e.stock - start == 0
        for s in range(n):
            totals[s].append(e.totals[s])
        ends.append(e.stock)
        peaks.append(max([start] + [d.stock or 0 for d in e.deals]))
        for d in e.deals:
            assert d.stock_before is not None and d.stock is not None
        paid += any((d.stock or 0) < (d.stock_before or 0) for d in e.deals)
    out = res.to_dict()
    assert [seat["histogram"] for seat in out["seats"]] == [histogram_json(t) for t in totals]
    session = out["session"]
    assert session["stock_end"]["histogram"] == histogram_json(ends)
    assert session["stock_peak"]["histogram"] == histogram_json(peaks)
    assert session["stock_paid_evenings"] == paid
    assert out["checks"]["zero-sum"] == 0 and out["checks"]["evening-zero-sum"] == 0


# -- every evening, recomputed --------------------------------------------------------------

@pytest.mark.slow  # a few seconds: the default set stays under a minute
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), deals=st.integers(1, 9), start=st.sampled_from([0, 30, 85]),
       dealer=st.integers(0, 3), contract=st.sampled_from([None, "normal"]),
       policy=st.sampled_from(["random", "heuristic", "heuristic,random,random,heuristic"]),
       options=st.sampled_from([{}, {"no_void": "no-payment"}, {"stock_payout": "never"},
                                {"heart_unit": 5, "contract_stake": 30},
                                {"contract_priority": "mord-over-beddl"}]))
def test_every_evening_is_zero_sum_and_carries_its_stock(
        seed: int, deals: int, start: int, dealer: int, contract: str | None, policy: str,
        options: dict[str, Any]) -> None:
    records: list[dict[str, Any]] = []
    hands = 11
    plan = plan_run("herzla", contract, hands=hands, seed=seed, policy=policy, options=options,
                    dealer=dealer, stock=start, sample=hands, block=4, session=deals)
    res = run(plan, on_records=records.extend)
    check_against_the_evening_library(res, records, start, dealer)
    # every record replays to the score the simulator counted (the events, pooled)
    events: Counter[str] = Counter()
    for rec in records:
        got = replay(Record.from_json(rec))
        assert got.illegal is None and got.score is not None
        events.update(got.score.events)
    assert dict(events) == res.to_dict()["events"]


# -- the engines, the processes, one deal ---------------------------------------------------

@pytest.mark.parametrize(("contract", "policy", "start", "options"), [
    ("normal", "random", 0, {}),
    (None, "heuristic", 45, {"contract_priority": "mord-over-beddl"}),
    (None, "random,heuristic,heuristic,random", 0, {"heart_lead_ban_in_contracts": False}),
    ("mord", "heuristic", 10, {}),
])
def test_the_batch_engine_plays_evenings_as_the_reference_engine(
        contract: str | None, policy: str, start: int, options: dict[str, Any]) -> None:
    got: dict[str, list[dict[str, Any]]] = {}
    answers = {}
    for engine in ("batch", "reference"):
        got[engine] = []
        res = simulate("herzla", contract, hands=14, seed=77, policy=policy, options=options,
                       stock=start, session=6, block=5, sample=14, engine=engine, jobs=1,
                       on_records=got[engine].extend)
        answers[engine] = answer(res)
    assert answers["batch"] == answers["reference"]
    assert got["batch"] == got["reference"]


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main_command(), ["simulate", *args, "--no-progress"])


def main_command() -> Any:
    from herzla.cli import main

    return main


def without_timing(*args: str) -> dict[str, Any]:
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert isinstance(out, dict)
    for key in TIMING:
        del out[key]
    return out


@pytest.mark.slow
def test_the_same_seed_gives_the_same_evenings_on_any_number_of_processes() -> None:
    common = ["herzla", "--session", "7", "--hands", "900", "--seed", "31", "--block-size",
              "128", "--policy", "heuristic", "--stock", "40"]
    one = without_timing(*common, "--jobs", "1")
    assert one == without_timing(*common, "--jobs", "2")
    assert one == without_timing(*common, "--jobs", "2", "--batch-size", "300")
    assert one["hands"] == 900 and one["session"]["deals"] == 7


@pytest.mark.parametrize("args", [
    ["--contract", "normal"],
    [],
    ["--contract", "beddl", "--declarer", "2", "--stock", "80"],
    ["--contract", "normal", "--stock", "160", "--dealer", "1", "-o", "no_void=no-payment"],
])
def test_a_session_of_one_deal_is_a_run_of_single_hands(args: list[str],
                                                       tmp_path: Path) -> None:
    common = ["herzla", *args, "--hands", "700", "--seed", "9", "--jobs", "1",
              "--policy", "heuristic", "--sample", "5"]
    plain = without_timing(*common, "--sample-out", str(tmp_path / "plain.jsonl"))
    evening = without_timing(*common, "--session", "1", "--sample-out",
                             str(tmp_path / "evening.jsonl"))
    for key, value in plain.items():
        if key == "checks":
            assert evening[key] == {**value, "evening-zero-sum": 0}
        elif key == "rates":  # the evening's own rates besides
            assert {k: v for k, v in evening[key].items()
                    if k not in ("wins", "shared_wins", "stock_paid")} == value
        else:
            assert evening[key] == value, key
    assert evening["session"]["deals"] == 1
    assert evening["session"]["stock_end"]["histogram"] == plain["stock"]["histogram"]
    assert ((tmp_path / "plain.jsonl").read_text(encoding="utf-8")
            == (tmp_path / "evening.jsonl").read_text(encoding="utf-8"))


def test_deal_one_of_each_evening_is_the_hand_of_single_hands() -> None:
    plain: list[dict[str, Any]] = []
    evening: list[dict[str, Any]] = []
    simulate("herzla", hands=6, seed=3, jobs=1, sample=6, on_records=plain.extend)
    simulate("herzla", hands=6, seed=3, jobs=1, sample=6, session=4, on_records=evening.extend)
    assert [e[0]["hands"] for e in evenings_of(evening, 4)] == [r["hands"] for r in plain]


def test_the_json_and_the_table(tmp_path: Path) -> None:
    common = ["herzla", "--session", "20", "--hands", "300", "--seed", "5", "--jobs", "1",
              "--policy", "heuristic"]
    out = without_timing(*common)
    assert out["mode"] == "bidding" and out["contract"] is None and out["hands"] == 300
    session = out["session"]
    assert list(session) == ["deals", "stock_end", "stock_peak", "stock_paid",
                             "stock_paid_evenings", "stock_by_deal"]
    end, peak = session["stock_end"], session["stock_peak"]
    for h in (end, peak):
        assert list(h) == ["mean", "std", "ci95", "min", "max", "p50", "p95", "histogram"]
        assert sum(h["histogram"].values()) == 300
        assert h["min"] <= h["p50"] <= h["p95"] <= h["max"]
    assert peak["mean"] >= max(session["stock_by_deal"]) and peak["p95"] >= end["p95"]
    assert session["stock_paid"] == round(session["stock_paid_evenings"] / 300, 6)
    assert len(session["stock_by_deal"]) == 20
    assert session["stock_by_deal"][-1] == end["mean"]
    assert sum(out["contracts"][c]["hands"] for c in ("normal", "beddl", "mord")) == 6000
    assert sum(out["wins"]) >= 300
    for seat in out["seats"]:
        assert sum(seat["histogram"].values()) == 300
    table = invoke(*common)
    assert table.exit_code == 0, table.output
    text = table.stdout
    assert "herzla, each deal's contract chosen by the bidding, 4 players: evenings of 20 " \
           "deals, the first dealt by seat 3, the deal passing clockwise" in text
    assert "300 evenings, policy heuristic, seed 5, default rules, stock 0c at the start of " \
           "each evening" in text
    assert "Evening total per seat, in cents" in text
    assert f"95th percentile {end['p95']:,}c, max {end['max']:,}c" in text
    assert (f"Highest stock of the evening: mean {peak['mean']:,.3f}c, std {peak['std']:,.3f}, "
            f"median {peak['p50']:,}c, 95th percentile {peak['p95']:,}c, max {peak['max']:,}c"
            in text)
    assert "Mean stock after deal 1: " in text and ", 20: " in text
    assert (f"Evenings in which a deal paid the stock out: {session['stock_paid_evenings']:,}"
            in text)
    assert "Check: the players and the stock sum to 0 over every evening: ok" in text
    assert "6,000 hands (300 evenings of 20 deals)" in text


def test_sample_records_are_evenings_in_order(tmp_path: Path) -> None:
    target = tmp_path / "evenings.jsonl"
    result = invoke("herzla", "--session", "5", "--hands", "40", "--seed", "2", "--jobs", "1",
                    "--stock", "80", "--sample", "3", "--sample-out", str(target))
    assert result.exit_code == 0, result.output
    assert "Wrote 15 hand records" in result.stdout
    records = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 15
    for evening in evenings_of(records, 5):
        e = read_session(evening)
        assert e.deals[0].stock_before == 80 and evening[0]["stock"] == 80
        assert [d.stock_before for d in e.deals[1:]] == [d.stock for d in e.deals[:-1]]


@pytest.mark.slow  # a few seconds: the default set stays under a minute
def test_the_plot_draws_evening_totals(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "evenings.svg"
    result = invoke("herzla", "--session", "4", "--hands", "50", "--seed", "2", "--jobs", "1",
                    "--plot", str(target))
    assert result.exit_code == 0, result.output
    assert "evening total" in target.read_text(encoding="utf-8")


def test_the_notebook_shows_evening_totals() -> None:
    res = simulate("herzla", hands=30, seed=1, jobs=1, session=3)
    html = res._repr_html_()
    assert html is not None and "evening total" in html and "30 evenings of 3 deals" in html
    assert repr(res).startswith("<SimResult herzla, bidding, evenings of 3 deals: 30 evenings")


# -- bad input ------------------------------------------------------------------------------

def one_error_line(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("herzla: error: ")
    assert result.stdout == ""
    return lines[0]


@pytest.mark.parametrize(("args", "says"), [
    (["herzla", "--session", "0"], "an evening (session) has 1 to 10,000 deals, not 0"),
    (["herzla", "--session", "-3"], "not -3"),
    (["herzla", "--session", "10001"], "not 10001"),
    (["herzla", "--session", "x"], "'x' is not a valid integer"),
    (["herzla", "--session", "3", "--partie"], "a session and a partie exclude each other"),
    (["herzeln", "--session", "3"], "herzeln has no stock to carry from deal to deal"),
    (["herzerln", "--session", "3", "--contract", "hearts"], "herzerln has no stock"),
    (["herzla-kids", "--session", "3"], "herzla-kids has no stock to carry from deal to deal"),
    (["herzla", "--session", "10000", "--hands", "1e9"], "are more than 1e+12 hands"),
    (["herzla", "--session", "3", "--declarer", "1"], "a declarer goes with the contract"),
    (["herzla", "--session", "3", "--contract", "domino"], "is not a herzla contract"),
])
def test_bad_sessions_are_one_line(args: list[str], says: str, tmp_path: Path) -> None:
    target = tmp_path / "never.jsonl"
    line = one_error_line(invoke(*args, "--sample", "1", "--sample-out", str(target)))
    assert says in line
    assert not target.exists()


@pytest.mark.parametrize("session", [True, 2.0, "3"])
def test_the_library_wants_a_whole_number_of_deals(session: object) -> None:
    with pytest.raises(SimulationError, match="session must be a whole number"):
        simulate("herzla", hands=5, seed=1, session=session)  # type: ignore[arg-type]


# -- a stock per hand, settled ----------------------------------------------------------------

def _counts(cards: int, tricks: npt.NDArray[np.int64], hearts: npt.NDArray[np.int64],
            ended: npt.NDArray[np.bool_], cols: slice) -> Counts:
    return Counts(4, len(range(tricks.shape[1])[cols]), tricks=tricks[:, cols],
                  cards={cards: hearts[:, cols]}, ended=ended[cols])


@pytest.mark.slow  # a few seconds: the default set stays under a minute
@settings(max_examples=60, deadline=None)
@given(data=st.data(), hands=st.integers(1, 12),
       options=st.sampled_from([{}, {"stock_payout": "never"}, {"no_void": "no-payment"},
                                {"heart_unit": 3}]))
def test_a_stock_per_hand_settles_each_hand_as_alone(data: st.DataObject, hands: int,
                                                      options: dict[str, Any]) -> None:
    """Normal, Beddl and Mord: settling hands each with its own stock gives, column by column,
    what settling each hand alone with its stock gives."""
    for contract_id, declarer in (("normal", None), ("beddl", 1), ("mord", 2)):
        contract = contract_class("herzla", contract_id)(4, options, declarer)
        hearts = np.zeros((4, hands), dtype=np.int64)
        tricks = np.zeros((4, hands), dtype=np.int64)
        for i in range(hands):
            cut = sorted(data.draw(st.lists(st.integers(0, 8), min_size=3, max_size=3)))
            hearts[:, i] = np.diff([0, *cut, 8])
            t = sorted(data.draw(st.lists(st.integers(0, 8), min_size=3, max_size=3)))
            tricks[:, i] = np.diff([0, *t, 8])
        stock = np.array(data.draw(st.lists(st.integers(0, 10**6), min_size=hands,
                                            max_size=hands)), dtype=np.int64)
        ended = np.array(data.draw(st.lists(st.booleans(), min_size=hands, max_size=hands)))

        cards = contract.pack().mask & HEARTS_MASK
        every = slice(None)
        many = contract.settle(_counts(cards, tricks, hearts, ended, every), stock)
        assert many.stock is not None
        for i in range(hands):
            one = contract.settle(_counts(cards, tricks, hearts, ended, slice(i, i + 1)),
                                  int(stock[i]))
            assert many.column(i) == one.column(0)
        # a stock for all the hands is each hand's
        same = contract.settle(_counts(cards, tricks, hearts, ended, every), int(stock[0]))
        alike = contract.settle(_counts(cards, tricks, hearts, ended, every),
                                np.full(hands, stock[0]))
        assert np.array_equal(same.scores, alike.scores)
        assert same.stock is not None and alike.stock is not None
        assert np.array_equal(same.stock, alike.stock)
        assert {k: v.tolist() for k, v in same.events.items()} == \
            {k: v.tolist() for k, v in alike.events.items()}


# -- the stock at the end, against an estimate from single hands (slow) ---------------------

def _stock_end_mean(deals: int, grows: float, pays: float, grow_by: int) -> tuple[float, float]:
    """The mean stock after ``deals`` deals starting from 0, for deals that add ``grow_by`` to
    the stock with probability ``grows``, pay it all out with probability ``pays`` and leave it
    alone otherwise (default options: every amount into the stock is 80c, and a payout to one or
    two void players leaves nothing of a multiple of 80c); and the probability that some deal
    paid a stock out."""
    dist = {0: 1.0}
    never = {0: 1.0}  # the same, over the evenings in which no deal has paid a stock out yet
    for _ in range(deals):
        nxt: dict[int, float] = {}
        nxt_never: dict[int, float] = {}
        for s, q in dist.items():
            stay = 1.0 - grows - pays
            for t, w in ((s + grow_by, grows), (0, pays), (s, stay)):
                nxt[t] = nxt.get(t, 0.0) + q * w
        for s, q in never.items():
            for t, w in ((s + grow_by, grows), (s, 1.0 - grows - pays)):
                nxt_never[t] = nxt_never.get(t, 0.0) + q * w
            if s == 0:  # a payout of an empty stock pays nothing out
                nxt_never[0] = nxt_never.get(0, 0.0) + q * pays
        dist, never = nxt, nxt_never
    return sum(s * q for s, q in dist.items()), 1.0 - sum(never.values())


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_the_stock_at_the_end_agrees_with_an_estimate_from_single_hands(policy: str) -> None:
    """Single hands (another seed) give how often a normal game feeds the stock (nobody void,
    or all hearts to one player), pays it out (one or two void players) or leaves it
    (Schleichermord); the stock of an evening is the chain they make, deal after deal."""
    hands = 400_000 * SCALE
    single = simulate("herzla", "normal", hands=hands, seed=1001, policy=policy).to_dict()
    rates = single["event_rates"]
    grows = rates.get("no-void", 0.0) + rates["all-hearts"]
    pays = rates["one-void"] + rates["two-void"]
    deals, evenings = 20, 40_000 * SCALE
    res = simulate("herzla", "normal", hands=evenings, seed=2002, policy=policy,
                   session=deals).to_dict()
    got = res["session"]
    end = got["stock_end"]
    mean, paid = _stock_end_mean(deals, grows, pays, 80)
    # the estimate's own uncertainty: the rates move by their standard error
    se = [(r * (1 - r) / hands) ** 0.5 for r in (grows, pays)]
    spread = max(abs(_stock_end_mean(deals, grows + a * se[0], pays + b * se[1], 80)[0] - mean)
                 for a in (-1, 1) for b in (-1, 1))
    half = (end["ci95"][1] - end["ci95"][0]) / 2
    assert abs(end["mean"] - mean) <= 2 * (half + 1.96 * spread), (end["mean"], mean)
    share_se = (paid * (1 - paid) / evenings) ** 0.5
    assert abs(got["stock_paid"] - paid) <= 4 * share_se + 0.01, (got["stock_paid"], paid)


def test_a_declarer_s_contract_is_declared_by_each_deal_s_forehand_unless_one_is_named() -> None:
    for declarer, want in ((None, [0, 1, 2, 3, 0]), (2, [2] * 5)):
        records: list[dict[str, Any]] = []
        res = simulate("herzla", "mord", hands=3, seed=8, jobs=1, session=5, declarer=declarer,
                       sample=3, on_records=records.extend, policy="heuristic")
        for evening in evenings_of(records, 5):
            assert [r["declarer"] for r in evening] == want
            assert [r["dealer"] for r in evening] == [3, 0, 1, 2, 3]
        assert res.to_dict()["declarer"] == want[0]
        assert ("declared by each deal's forehand" in res.report()) == (declarer is None)
