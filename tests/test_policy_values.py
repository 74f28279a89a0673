"""Policies are values: wherever a policy is named, a :class:`herzla.Policy` object is taken too,
seeded the same way and on any number of processes; ``herzla.play`` plays a deal out; a hand and a
view print as text; ``view_of`` gives ``random`` real randomness by default."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

import herzla
from herzla import Policy, SimulationError
from herzla.contracts import contract_class
from herzla.hand import Move
from herzla.players.builtin import RandomPolicy
from herzla.players.views import LayoutView, TrickView, view_of
from herzla.table import TableError
from herzla.table.actions import hint, new_table

HANDS = ["CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
         "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8"]


@attrs.frozen
class Lowest(Policy):
    """A policy of one's own: the first legal move.  No name: its import path names it."""

    def move(self, view: TrickView | LayoutView) -> Move:
        return view.legal_moves()[0]


LOWEST = f"{__name__}:Lowest"


def _same(a: dict[str, Any], b: dict[str, Any]) -> None:
    for key in ("elapsed_s", "hands_per_s", "processes"):
        a.pop(key, None)
        b.pop(key, None)
    assert a == b


def test_simulate_takes_objects_as_it_takes_names_on_any_jobs() -> None:
    args: dict[str, Any] = {"hands": 64, "seed": 5, "block": 16}
    by_name = herzla.simulate("herzla", "normal", policy=",".join([LOWEST, "heuristic"] * 2),
                              jobs=1, **args)
    mixed: list[str | Policy] = [Lowest(), "heuristic", Lowest(), "heuristic"]
    for jobs in (1, 2):
        got = herzla.simulate("herzla", "normal", policy=mixed, jobs=jobs, **args)
        assert got.processes == jobs
        _same(got.to_dict(), by_name.to_dict())
    one = herzla.simulate("herzeln", "domino", policy=Lowest(), jobs=2, **args)
    _same(one.to_dict(), herzla.simulate("herzeln", "domino", policy=LOWEST, jobs=1,
                                         **args).to_dict())


def test_match_takes_objects_beside_names() -> None:
    args: dict[str, Any] = {"contract": "normal", "deals": 24, "seed": 3}
    named = herzla.match("herzla", [LOWEST, "heuristic"], jobs=1, **args).to_dict()
    for jobs in (1, 2):
        res = herzla.match("herzla", [Lowest(), "heuristic"], jobs=jobs, **args)
        assert res.processes == jobs
        got = res.to_dict()
        assert [s["policy"] for s in got["standings"]] == ["heuristic", LOWEST]
        _same(got, dict(named))


def test_a_policy_that_does_not_pickle_is_named_for_more_than_one_process() -> None:
    @attrs.frozen
    class Local(Policy):
        name = "local"

        def move(self, view: TrickView | LayoutView) -> Move:
            return view.legal_moves()[0]

    args: dict[str, Any] = {"hands": 32, "seed": 1, "block": 16}
    assert herzla.simulate("herzla", "normal", policy=Local(), jobs=1,
                           **args).to_dict()["hands"] == 32
    with pytest.raises(SimulationError, match=r"cannot be sent to worker processes.*jobs=1"):
        herzla.simulate("herzla", "normal", policy=Local(), jobs=2, **args)
    with pytest.raises(herzla.MatchError, match="cannot be sent to worker processes"):
        herzla.match("herzla", [Local(), "heuristic"], contract="normal", deals=32, seed=1,
                     jobs=2)


@pytest.mark.parametrize("wrong", [[], ["random", "random"], [None], [Lowest, 3], "nobody"])
def test_wrong_policies_are_one_line(wrong: Any) -> None:
    with pytest.raises(SimulationError, match="polic") as caught:
        herzla.simulate("herzla", "normal", hands=10, seed=1, policy=wrong)
    assert "\n" not in str(caught.value)


def test_play_plays_a_deal_out_seeded() -> None:
    rec = herzla.play("herzla", [Lowest(), "heuristic", "random", "heuristic"], seed=11)
    assert herzla.replay(rec).complete and rec.to_json()["plays"]
    assert herzla.play("herzla", [Lowest(), "heuristic", "random", "heuristic"], seed=11) == rec
    plays = {tuple(herzla.play("herzla", "random", seed=s).to_json()["plays"]) for s in range(4)}
    assert len(plays) == 4
    # a record played on from where it stands, the same deal
    start = herzla.deal_record("herzla", "beddl", seed=2)
    out = herzla.play(start, Lowest(), seed=1)
    assert out.hands == start.hands and herzla.replay(out).complete
    # the first hand `herzla simulate --seed S` plays is the deal `herzla.play` deals
    first: list[Any] = []
    herzla.simulate("herzla", "normal", hands=1, seed=9, policy="random", jobs=1, sample=1,
                    engine="reference", on_records=first.extend)
    assert herzla.play("herzla", "random", contract="normal", seed=9).to_json()["plays"] == \
        first[0]["plays"]


def test_play_bids_in_a_game_with_bidding() -> None:
    @attrs.frozen
    class Beddl(Policy):
        name = "beddl"

        def announce(self, view: Any) -> str:
            return "beddl" if view.forehand else "pass"

        def move(self, view: TrickView | LayoutView) -> Move:
            return view.legal_moves()[0]

    rec = herzla.play("herzla", Beddl(), seed=4)
    assert (rec.contract_id, rec.declarer) == ("beddl", 0)


def test_a_hand_and_a_view_print_as_text() -> None:
    hand = contract_class("herzla", "normal")().new_hand(HANDS, dealer=3)
    hand.play("C7")
    text = str(hand)
    assert text.startswith("herzla normal: 4 players")
    assert text.endswith("To play: seat 1, trick 1")
    view = str(view_of(hand))
    assert view.startswith("herzla normal: seat 1 to play, trick 1") and "legal CK CA" in view
    assert "object at 0x" not in text + view


def test_view_of_gives_random_real_randomness() -> None:
    hand = contract_class("herzla", "normal")().new_hand(HANDS, dealer=3)
    chosen = {str(RandomPolicy().move(view_of(hand))) for _ in range(40)}
    assert len(chosen) > 2
    assert view_of(hand, 0).uniform == 0


def test_the_table_takes_a_policy_object() -> None:
    table = new_table("herzla", "normal", seed=3, opponents=Lowest())
    assert table.opponents == LOWEST
    assert hint(table, policy=Lowest()).policy == LOWEST

    @attrs.frozen
    class Unnamed(Policy):
        name = "nowhere"

    with pytest.raises(TableError, match="keeps its policy by name"):
        new_table("herzla", "normal", seed=3, opponents=Unnamed())


@pytest.mark.slow
def test_the_duck_of_the_docs_passes_mypy_strict(tmp_path: Path) -> None:
    """The policy docs/policies.md writes, as a module of its own, passes ``mypy --strict``."""
    text = (Path(__file__).parent.parent / "docs" / "policies.md").read_text(encoding="utf-8")
    block = text[text.index("... class Duck(Policy):") - 200:]
    lines = block[block.index(">>> import attrs"):block.index(">>> Duck().with_params")]
    source = "\n".join(line[4:] for line in lines.splitlines()
                       if line.startswith((">>> ", "... ", "...")))
    assert "def move(self, view: TrickView | LayoutView) -> Move:" in source
    (tmp_path / "duck.py").write_text(source + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                           str(tmp_path / "duck.py")], capture_output=True, text=True,
                          cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


def test_play_refuses_a_record_with_an_illegal_play() -> None:
    rec = herzla.deal_record("herzla", "normal", seed=7).to_json()
    rec["plays"] = ["HA"]
    with pytest.raises(herzla.RecordError, match=r"HA by seat 0, is illegal.*not-in-hand"):
        herzla.play(rec, "random", seed=1)


def test_the_position_and_the_refusal_speak_german() -> None:
    from herzla.i18n import language

    hand = contract_class("herzla", "normal")().new_hand(HANDS, dealer=3)
    with language("de"):
        assert str(hand).endswith("Am Zug: Platz 0, Stich 1")
        assert str(view_of(hand, 0)).startswith("herzla normal: Platz 0 ist am Zug, Stich 1")
        with pytest.raises(herzla.HandNotOver, match="nicht aus: 0 von 8 Stichen"):
            hand.score()
        with pytest.raises(herzla.IllegalMove, match=r"\(Regel not-in-hand\)"):
            hand.play("HA")
