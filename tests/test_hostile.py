"""The hostile round's defects of the library and the command line (issue 32), each with the
input that had it: an evening's cost in its deals, digits that are no numbers, renege tallies
that cannot be, read-only files, outputs over inputs, the stock carried past its limit."""

from __future__ import annotations

from pathlib import Path

import pytest

from herzla.evening import Evening
from herzla.evening.deal import Deal


def test_an_evening_is_read_in_time_linear_in_its_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    looked: list[int] = []
    real = Deal.redeal

    def counted(self: Deal) -> bool:
        looked.append(1)
        return bool(real.fget(self))  # type: ignore[attr-defined]

    monkeypatch.setattr(Deal, "redeal", property(counted))
    body = Evening.new("herzla", ["A", "B", "C", "D"]).to_json()
    for n in (100, 400):
        looked.clear()
        body["deals"] = [{"hearts": [0, 3, 5, 0]}] * n
        assert len(Evening.from_json(body).deals) == n
        assert len(looked) <= 3 * n, (n, len(looked))  # a deal looked at a few times, not n
