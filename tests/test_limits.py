"""The limits herzla checks on entry (:mod:`herzla.limits`): amounts, seeds and the cluster
timeout beyond them are refused alike by the library and every command, in one line."""

from __future__ import annotations

import json

import pytest

from herzla.limits import MAX_AMOUNT, MAX_STOCK
from herzla.records import Record, RecordError, deal_record
from tests.helpers import CASE_RECORDS, EIGHT, invoke, one_error


@pytest.mark.parametrize("args", [
    ["--contract", "normal", "--stock", "9223372036854775807"],
    ["--contract", "normal", "--stock", "1" + "0" * 40],
    ["--contract", "normal", "-o", "contract_stake=4611686018427387904"],
    ["--contract", "normal", "-o", "heart_unit=" + "9" * 5000],
    ["--contract", "mord", "-o", "contract_stake=-1"],
    ["--seed", "-1"],
    ["--seed", str(2**64)],
])
def test_amounts_beyond_the_limits_are_refused(args: list[str]) -> None:
    line = one_error(invoke("simulate", "herzla", "--hands", "10", *args))
    assert len(line) < 200


def test_the_limits_agree_across_commands_and_the_library() -> None:
    # a hand is dealt with the stock carried from the deals before: up to MAX_STOCK
    Record.from_json(dict(CASE_RECORDS[0], stock=MAX_AMOUNT + 1))
    rec = dict(CASE_RECORDS[0], stock=MAX_STOCK + 1)
    with pytest.raises(RecordError, match=f"{MAX_STOCK:,}"):
        Record.from_json(rec)
    assert f"{MAX_STOCK:,}" in one_error(invoke("replay", "-", stdin=json.dumps(rec)))
    assert f"{MAX_STOCK:,}" in one_error(
        invoke("score", "herzla", "normal", "--hearts", "0,3,5,0", "--stock", str(MAX_STOCK + 1)))
    # an evening, a simulation and a deal start with at most MAX_AMOUNT
    assert "1,000,000,000,000" in one_error(
        invoke("deal", "herzla", "--seed", "1", "--stock", str(MAX_AMOUNT + 1)))
    ok = invoke("score", "herzla", "normal", "--hearts", "0,3,5,0", "--stock", str(MAX_AMOUNT))
    assert ok.exit_code == 0
    assert "seed" in one_error(invoke("deal", "herzla", "--seed", "-1"))
    with pytest.raises(RecordError, match="seed"):
        deal_record("herzla", "normal", 4, seed=-1)


@pytest.mark.parametrize("value", ["inf", "1e308", "nan", "86401"])
@pytest.mark.parametrize("command", [
    ["simulate", "herzla", "--hands", "10"],
    ["simulate", "herzla", "--hands", "10", "--cluster", "tcp://127.0.0.1:1"],
    ["advise", "herzla", "--hand", " ".join(EIGHT), "--samples", "1"],
    ["advise", "herzla", "--hand", " ".join(EIGHT), "--samples", "1", "--cluster",
     "tcp://127.0.0.1:1"],
])
def test_cluster_timeouts_beyond_the_limit(command: list[str], value: str) -> None:
    line = one_error(invoke(*command, "--cluster-timeout", value))
    assert line.startswith("herzla: error: --cluster-timeout must be more than 0 and at most "
                           "86,400 seconds")


def test_cluster_timeouts_in_the_library() -> None:
    from herzla import AdviceError, SimulationError, advise, simulate

    for wait in (float("inf"), float("nan"), 1e308, 0.0, -1.0):
        with pytest.raises(SimulationError, match="cluster timeout"):
            simulate("herzla", hands=10, seed=1, jobs=1, cluster_timeout=wait)
        with pytest.raises(AdviceError, match="cluster timeout"):
            advise(EIGHT, samples=1, jobs=1, cluster_timeout=wait)
