"""The hostile round's defects of the library and the command line (issue 32), each with the
input that had it: an evening's cost in its deals, digits that are no numbers, renege tallies
that cannot be, read-only files, outputs over inputs, the stock carried past its limit."""

from __future__ import annotations

from pathlib import Path

import pytest

from herzla.evening import Evening
from herzla.evening.deal import Deal
from tests.helpers import invoke, one_error


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


@pytest.mark.parametrize("digit", ["²", "٣", "9" * 5000])
def test_a_digit_that_is_no_number_is_one_line_on_the_command_line(tmp_path: Path,
                                                                   digit: str) -> None:
    evening = tmp_path / "e.json"
    line = one_error(invoke("pad", "new", str(evening), "--game", "herzla", "--players",
                            "A,B,C,D", "--dealer", digit))
    assert "dealer" in line and not evening.exists()
    invoke("pad", "new", str(evening), "--game", "herzla", "--players", "A,B,C,D")
    line = one_error(invoke("pad", "add", str(evening), "--hearts", f"{digit},2,2,2"))
    assert "whole numbers" in line or "too long" in line
    assert one_error(invoke("score", "herzla", "normal", "--hearts", f"0,3,5,{digit}"))
    assert one_error(invoke("score", "herzla", "normal", "--hearts", "0,3,5,0", "--option",
                            f"heart_unit={digit}"))


def test_digits_are_read_as_numbers_only_when_they_are_0_to_9() -> None:
    from herzla.counting import read_whole

    assert [read_whole(t) for t in ("0", "007", " 42\n", "²", "٣", "4²", "", "-1", "1.0")] == \
        [0, 7, 42, None, None, None, None, None, None]
    assert read_whole("-12", signed=True) == -12 and read_whole("9" * 20) is None
