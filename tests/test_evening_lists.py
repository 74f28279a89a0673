"""Every reader of a list of hand records reads it alike (herzla.evening.read_session): the stock
the session carries, the same refusals counted from 1, an empty list refused."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from herzla.cli import main
from tests.test_evening import record


def session() -> list[dict[str, Any]]:
    """Case 05 (80c in, 160c out), then case 01 leaving the stock out: it carries 160c."""
    grows = {**record("05-herzla-no-void-stock-grows"), "stock": 80}
    two_void = record("01-herzla-two-void")
    del two_void["stock"]
    return [grows, two_void]


def run(*args: str, stdin: str) -> Any:
    return CliRunner().invoke(main, list(args), input=stdin)


@pytest.mark.slow  # a few seconds: the default set stays under a minute
def test_review_prices_a_mistake_at_the_carried_stock() -> None:
    out = run("review", "-", "--seat", "0", "--json", stdin=json.dumps(session()))
    assert out.exit_code == 0, out.output
    second = json.loads(out.stdout.splitlines()[1])
    costs = {p["index"]: p["loss"] for p in second["plays"] if p["loss"]}
    # seat 0's play 11 costs the void it had: 90c at a stock of 0, and its half of the 160c
    # stock besides: 170c
    assert costs[11] == 170
    alone = run("review", "-", "--seat", "0", "--json",
                stdin=json.dumps(record("01-herzla-two-void")))
    assert {p["index"]: p["loss"] for p in json.loads(alone.stdout)["plays"]}[11] == 90


def test_solve_of_a_list_carries_the_stock() -> None:
    out = run("solve", "-", "--seat", "0", "--json", stdin=json.dumps(session()))
    assert out.exit_code == 0, out.output
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    rec = record("01-herzla-two-void")
    at_160 = run("solve", "-", "--seat", "0", "--json",
                 stdin=json.dumps({**rec, "stock": 160}))
    assert answers[1]["value"] == json.loads(at_160.stdout)["value"]
    at_0 = run("solve", "-", "--seat", "0", "--json", stdin=json.dumps({**rec, "stock": 0}))
    assert answers[1]["value"] != json.loads(at_0.stdout)["value"]


def test_replay_and_show_of_a_list_carry_the_stock() -> None:
    sheet = json.loads(run("replay", "-", "--json", stdin=json.dumps(session())).stdout)
    assert [d["stock"] for d in sheet["deals"]] == [160, 0]
    text = run("show", "-", stdin=json.dumps(session())).stdout
    assert "stock 160c" in text


COMMANDS = [("replay", "-"), ("show", "-"), ("solve", "-", "--seat", "0"), ("review", "-")]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_every_reader_refuses_alike(command: tuple[str, ...]) -> None:
    bad = session()
    bad[1]["stock"] = 999
    out = run(*command, stdin=json.dumps(bad))
    assert out.exit_code == 2 and "Traceback" not in out.output
    assert out.stderr.strip() == ("herzla: error: record 2 says the stock is 999c, but the "
                                  "session carries 160c")
    empty = run(*command, stdin="[]")
    assert empty.exit_code == 2
    assert "a partie or session is a non-empty JSON list of hand records" in empty.stderr
    mixed = [session()[0], record("22-herzeln-1-no-hearts")]
    out = run(*command, stdin=json.dumps(mixed))
    assert out.exit_code == 2
    assert "record 2 is herzeln with 4 players; the sheet is herzla with 4" in out.stderr
