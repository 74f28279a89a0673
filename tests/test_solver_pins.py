"""The solver's answers on a fixed set of positions and deals, pinned.

``tests/pins/solver.jsonl`` holds positions of every kind (whole Beddl and Mord deals, made and
lost, worth announcing or not; Beddl and Mord anywhere in the hand and with rule options; the
Herzla normal game for every seat, whole deals too; the children's Herzla for 3 to 8 players;
every Herzeln and Herzerln deal, the layouts included) with the answers of the solver as it was
first merged (``tools/pin_solver.py`` wrote them).  Any change that makes the search faster must
keep every answer: the value, made or lost, and the value of every play.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from herzla.analysis.solve import solve

pytestmark = pytest.mark.usefixtures("builtin_registry")

PINS = Path(__file__).parent / "pins" / "solver.jsonl"


def pins() -> list[dict[str, Any]]:
    return [json.loads(line) for line in PINS.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def test_the_pins_cover_every_kind() -> None:
    kinds = {(p["record"]["game"], p["record"]["contract"]) for p in pins()}
    assert {("herzla", "beddl"), ("herzla", "mord"), ("herzla", "normal"),
            ("herzla-kids", "normal"), ("herzeln", "domino"), ("herzerln", "auflegen"),
            ("herzeln", "no-hearts"), ("herzerln", "tricks")} <= kinds
    made = {(p["record"]["contract"], p["made"]) for p in pins() if p["made"] is not None}
    assert made == {("beddl", True), ("beddl", False), ("mord", True), ("mord", False)}


@pytest.mark.parametrize("pin", pins(), ids=lambda p: f"{p['record']['game']}-"
                         f"{p['record']['contract']}-{p['record']['players']}")
def test_pinned_answer(pin: dict[str, Any]) -> None:
    res = solve(pin["record"], seat=pin["seat"], plays=pin["plays"])
    assert res.value == pin["value"]
    assert res.made == pin["made"]
    assert (None if res.plays is None else dict(res.plays)) == pin["play_values"]
