"""A third-party contract found through the ``herzla.contracts`` entry points, played through
the CLI without any change to herzla, and passing the conformance check."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from herzla.cards import cards_of
from herzla.contracts import Contract, contract_class
from herzla.kinds.tricks import TrickHand
from herzla.records import Record, replay
from herzla.testing import check_contract

PLUGINS = Path(__file__).parent / "plugins"


def herzla(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m herzla`` in a fresh process that sees the plug-in distribution."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PLUGINS), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "herzla", *args], input=stdin,
                          capture_output=True, text=True, env=env, timeout=120, check=False)


def plugin_class() -> type[Contract]:
    sys.path.insert(0, str(PLUGINS))
    try:
        cls: type[Contract] = importlib.import_module("herzla_nojacks").NoJacks
    finally:
        sys.path.remove(str(PLUGINS))
    return cls


def test_plugin_contract_plays_through_the_cli() -> None:
    dealt = herzla("deal", "bube", "--seed", "5", "-o", "jack_penalty=7")
    assert dealt.returncode == 0, dealt.stderr
    record = json.loads(dealt.stdout)
    assert record["contract"] == "no-jacks" and len(record["hands"]) == 4
    # play it out on the reference engine: everybody plays the first legal card
    rec = Record.from_json(record, plugin_class())
    state = TrickHand(rec.contract, [sum(c.bit for c in h) for h in rec.hands],  # type: ignore
                      rec.dealer)
    while not state.over:
        card = cards_of(state.legal_mask())[0]
        record["plays"].append(str(card))
        state.play(card)
    answer = herzla("replay", "-", "--json", stdin=json.dumps(record))
    assert answer.returncode == 0, answer.stderr
    result = json.loads(answer.stdout)
    assert result["complete"] and sum(result["scores"]) == -28
    assert result == replay(Record.from_json(record, plugin_class())).to_dict()
    # the plug-in's lead ban is enforced by the reference engine
    hearts = [str(c) for c in rec.hands[0] if c.suit == 2]
    if hearts and len(hearts) < 8:
        bad = herzla("replay", "-", "--json", stdin=json.dumps({**record, "plays": hearts[:1]}))
        assert bad.returncode == 1
        assert json.loads(bad.stdout)["illegal"]["rule"] == "heart-lead-ban"


def test_plugin_unknown_without_the_distribution() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-m", "herzla", "deal", "bube", "--seed", "1"],
                         capture_output=True, text=True, env=env, timeout=120, check=False)
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        'herzla: error: unknown game "bube" (known: herzla, herzla-kids, herzeln, herzerln)']


def test_plugin_passes_conformance() -> None:
    no_jacks = plugin_class()
    report = check_contract(no_jacks, players=4, hands=50, options={"jack_penalty": 3})
    assert sum(report.totals) == -3 * 4 * 50
    with pytest.raises(ValueError, match="played by 4 players, not 3"):
        check_contract(no_jacks, players=3, hands=1)


def test_register_at_run_time(monkeypatch: pytest.MonkeyPatch) -> None:
    import herzla.contracts as registry
    from herzla.contracts import register
    from herzla.contracts.herzerln import Jacks

    monkeypatch.setattr(registry, "_registry", dict(registry._load()))  # restored afterwards

    class LateJacks(Jacks):
        game = "test-late"
        id = "jacks"

    register(LateJacks)
    assert contract_class("test-late", "jacks") is LateJacks
    with pytest.raises(LookupError, match="not a test-late contract"):
        contract_class("test-late", "queens")



@pytest.mark.slow
def test_plugin_plays_on_the_batch_engine_as_on_the_reference() -> None:
    """The plug-in, written in the vocabulary, gets the fast engine: the same --json."""
    args = ["simulate", "bube", "--contract", "no-jacks", "--hands", "3000", "--seed", "4",
            "--json", "--jobs", "1", "-o", "jack_penalty=3"]
    answers = []
    for engine in ("batch", "reference"):
        out = herzla(*args, "--engine", engine, "--policy", "heuristic")
        assert out.returncode == 0, out.stderr
        answer = json.loads(out.stdout)
        del answer["elapsed_s"], answer["hands_per_s"]
        answers.append(answer)
    assert answers[0] == answers[1]
    assert answers[0]["total"] == {"mean": -12.0, "min": -12, "max": -12, "expected": -12}
    assert answers[0]["checks"] == {"hand-total": 0}
