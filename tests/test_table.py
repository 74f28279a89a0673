"""A table against the computer in the library (herzla.table): whole hands of every game played,
undone and hinted, the record replaying to the table's scores, the evening carried from deal to
deal, the bidding, and what a table refuses."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from herzla.evening import Evening
from herzla.hand import Move
from herzla.players import Policy, PolicyError
from herzla.players.builtin import HeuristicPolicy
from herzla.players.policy import Hint
from herzla.players.policy import hint as policy_hint
from herzla.players.views import view_of
from herzla.records import replay
from herzla.table import (
    Table,
    TableError,
    TableStateError,
    bid,
    hint,
    next_deal,
    play,
    position,
    undo,
)
from herzla.table import new_table as table_of
from tests.shares import some_in_default


def new_table(*args: Any, **kw: Any) -> Table:
    """A table against the heuristic unless a test names other opponents (its moves are what
    these tests follow; the default, expert, is checked on its own below)."""
    kw.setdefault("opponents", "heuristic")
    return table_of(*args, **kw)


def test_the_computer_plays_expert_by_default() -> None:
    t = table_of("herzla", "normal", seat=0, seed=3)
    assert t.opponents == "expert"
    t = play(t, position(t).legal()[0])
    assert position(t).to_dict()["opponents"] == "expert"

#: a table of every game: (game, contract, players); trick and layout deals, the bidding
EVERY = [("herzla", None, 4), ("herzla", "beddl", 4), ("herzla-kids", None, 5),
         ("herzeln", None, 4), ("herzeln", "domino", 3), ("herzerln", None, 3),
         ("herzerln", "auflegen", 4)]


def finish(t: Table) -> Table:
    """Play the person's seat by the table's own hints (passing in the bidding) to the end."""
    while not position(t).over:
        p = position(t)
        if p.bidding_on:
            t = bid(t, "pass")
            continue
        advice = hint(t)
        assert advice.move in p.legal()
        t = play(t, advice.move)
    return t


@pytest.mark.parametrize(("game", "contract", "players"),
                         some_in_default(EVERY, kind=lambda case: case[0]))
def test_a_whole_hand_replays_to_the_tables_scores(game: str, contract: str | None,
                                                   players: int) -> None:
    t = new_table(game, contract, players=players, seat=1, seed=5)
    first = position(t)
    assert first.persons_turn and (first.legal() or first.bidding_on)
    t = finish(t)
    p = position(t)
    d = p.to_dict()
    assert d["over"] and d["phase"] == "over" and d["to_move"] is None and d["legal"] == []
    again = replay(d["record"])
    assert again.complete and again.illegal is None
    assert list(again.scores or ()) == d["scores"]
    assert d["review"] is not None and "error" not in d["review"]
    assert {int(s) for s in d["review"]["seats"]} == {1}  # the person's cards reviewed
    # kept and read back, the table is the same table
    assert Table.from_json(t.to_json()) == t
    assert position(Table.from_json(t.to_json())).to_dict() == d
    # undo goes back to before the person's last move, and the hand goes on from there
    back = undo(t)
    assert position(back).persons_turn and not position(back).over
    assert len(position(back).hand.moves) < len(p.hand.moves)
    assert back.deal.review is None


@pytest.mark.slow  # whole hands, each reviewed at its end: seconds in pure Python
def test_the_evening_carries_the_stock_and_the_dealer() -> None:
    t = finish(new_table("herzla", "normal", seat=0, seed=2))
    first = position(t).to_dict()
    n2 = next_deal(t)
    d2 = position(n2).to_dict()
    assert d2["deal"] == 2 and d2["dealer"] == (first["dealer"] + 1) % 4
    assert d2["stock"] == first["stock_after"]
    assert n2.evening is not None and len(n2.evening.deals) == 1
    # the table's evening is the library's evening of the same records
    e = Evening.new("herzla", list(t.players)).add({"record": first["record"]})
    assert e.totals == tuple(d2["evening"]["totals"]) and e.stock == d2["stock"]
    # the next deal is dealt from the table's seed and the deal's number
    assert d2["record"]["hands"] != first["record"]["hands"]
    with pytest.raises(TableStateError, match="not over"):
        next_deal(n2)


@pytest.mark.slow
def test_a_partie_plays_its_deals_in_order() -> None:
    t = new_table("herzerln", players=3, seat=2, seed=1)
    seen = []
    for _ in range(6):
        seen.append(position(t).contract.id)
        t = finish(t)
        t = next_deal(t)
    assert seen == ["tricks", "hearts", "jacks", "red-queens", "king-of-hearts", "auflegen"]
    assert position(t).contract.id == "tricks" and t.evening is not None
    assert len(t.evening.deals) == 6 and t.evening.finished


@pytest.mark.slow
def test_a_partie_game_with_one_contract_plays_it_again() -> None:
    t = finish(new_table("herzeln", "no-queens", seat=0, seed=4))
    assert t.evening is None and position(t).to_dict()["evening"] is None
    n = next_deal(t)
    assert position(n).contract.id == "no-queens" and n.deal.k == 2
    assert n.deal.dealer == (t.deal.dealer + 1) % 4


def test_the_bidding() -> None:
    t = new_table("herzla", seat=0, seed=8)  # seat 0 is forehand: it announces first
    p = position(t)
    assert p.phase == "bidding" and p.to_dict()["bidding"]["legal"] == ["pass", "beddl", "mord"]
    assert p.to_dict()["contract"] is None and p.legal() == []
    with pytest.raises(TableStateError, match="bidding is on"):
        play(t, p.to_dict()["hand"][0])
    with pytest.raises(TableError, match="announce pass, beddl, mord"):
        bid(t, "slam")
    advice = hint(t)
    assert advice.bid in ("pass", "beddl", "mord") and advice.move is None
    t2 = bid(t, "Beddl")  # names in any case
    p2 = position(t2)
    assert p2.contract.id == "beddl" and p2.contract.declarer == 0
    assert p2.to_dict()["bidding"]["announcements"][0] == {"seat": 0, "bid": "beddl"}
    # the person leads the first trick, so undo now takes back the announcement
    assert p2.persons_turn and t2.deal.moves == ()
    back = undo(t2)
    assert position(back).phase == "bidding" and back.deal.bids == ()
    played = play(t2, p2.legal()[0])
    assert undo(played).deal == t2.deal  # after a card, undo takes back the card


def test_a_layout_deal_passes_when_no_card_fits() -> None:
    t = new_table("herzerln", "auflegen", players=3, seat=0, seed=0)
    passes = 0
    while not position(t).over:
        p = position(t)
        legal = p.legal()
        if legal == ["pass"]:
            passes += 1
            with pytest.raises(TableError, match=r"does not fit|cannot be laid"):
                play(t, p.to_dict()["hand"][0])
        t = play(t, legal[0])
    assert passes == 2
    assert replay(position(t).to_dict()["record"]).complete


def test_a_card_that_fits_both_ends_is_laid_at_the_end_chosen() -> None:
    t = new_table("herzeln", "domino", players=3, seat=0, seed=0)
    while position(t).legal() != ["DT+", "DT-"]:
        t = play(t, position(t).legal()[0])
    lower = play(t, "DT-")
    upper = play(t, "DT")  # the card alone: the upper end
    mine = len(t.deal.moves)
    assert lower.deal.moves[mine] == "DT-" and upper.deal.moves[mine] == "DT+"
    assert play(t, "DT+").deal.moves[mine] == "DT+"


def test_what_a_table_refuses() -> None:
    t = new_table("herzla", "normal", seat=2, seed=1)
    p = position(t)
    with pytest.raises(TableError, match="you may play"):
        play(t, next(c for c in ("CA", "SA", "HA", "DA", "C7") if c not in p.legal()))
    with pytest.raises(TableError, match="not a move"):
        play(t, "XYZ")
    with pytest.raises(TableError, match="a move is"):
        play(t, 7)
    with pytest.raises(TableStateError, match="nothing to take back"):
        undo(t)
    with pytest.raises(TableError, match="seat 4 is not a seat"):
        new_table("herzla", seat=4)
    with pytest.raises(TableError, match="unknown policy"):
        new_table("herzla", opponents="nobody")
    with pytest.raises(TableError, match="unknown game"):
        new_table("herzl")
    with pytest.raises(TableError, match="only a declarer's contract"):
        new_table("herzla", "normal", declarer=1)
    with pytest.raises(TableError, match="not a herzla table"):
        Table.from_json({"format": "x"})
    with pytest.raises(TableError, match="later herzla"):
        Table.from_json({**t.to_json(), "version": 99})
    damaged = t.to_json()
    damaged["deal"]["moves"] = ["HA", "HA"]
    with pytest.raises(TableError, match=r"illegal|not"):
        position(Table.from_json(damaged))
    done = finish(t)
    with pytest.raises(TableStateError, match="hand is over"):
        play(done, "HA")
    with pytest.raises(TableStateError, match="hand is over"):
        hint(done)


def test_named_players_and_a_declarer() -> None:
    t = new_table("herzla", "mord", players=["Anna", "<b>Berni</b>", "Carla", "Done"],
                  seat=3, declarer="carla", seed=9)
    assert t.players[1] == "<b>Berni</b>" and position(t).contract.declarer == 2
    assert next_deal(finish(t)).deal.declarer == 2  # the declarer given stays


def test_pimc_hints_with_the_values_it_averaged() -> None:
    t = new_table("herzla", "normal", seat=0, seed=6)
    # play on by the heuristic to the third trick, where pimc searches
    while len(position(t).hand.moves) < 8:
        t = play(t, hint(t, "heuristic").move)
    advice = hint(t, "pimc[samples=2,tricks=8]")
    p = position(t)
    assert advice.policy == "pimc[samples=2,tricks=8]" and advice.move in p.legal()
    if len(p.legal()) > 1:
        assert set(advice.values) == set(p.legal())
        assert advice.measure is not None and "2 deals" in advice.measure
        assert advice.reason
    early = hint(new_table("herzla", "normal", seat=0, seed=6), "pimc")
    assert early.values == {} and early.reason and "heuristic" in early.reason


def test_the_heuristic_says_which_rule_chose() -> None:
    t = new_table("herzla", "normal", seat=0, seed=6)
    advice = hint(t, "heuristic")
    assert advice.values == {} and advice.reason and advice.reason.startswith("it leads")


def test_a_hint_is_checked_like_a_move() -> None:
    @attrs.frozen
    class Liar(HeuristicPolicy):
        name = "liar"

        def explain(self, view: object) -> Hint:
            return Hint(Move(None))  # a pass in a trick deal

    t = new_table("herzla", "normal", seat=0, seed=6)
    hand = position(t).hand
    with pytest.raises(PolicyError, match="illegal"):
        policy_hint(Liar(), view_of(hand), hand.check)
    plain = policy_hint(Policy.__new__(_Lowest), view_of(hand), hand.check)
    assert plain.values == {} and plain.reason is None


class _Lowest(Policy):
    name = "lowest"

    def move(self, view: object) -> object:  # type: ignore[override]
        return view.legal_moves()[0]  # type: ignore[attr-defined]


def test_pimc_at_a_table_without_the_compiled_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    from herzla.analysis.pimc import TABLE_PURE, Pimc
    from herzla.analysis.search import compiled

    monkeypatch.setattr(compiled, "available", lambda: False)
    assert Pimc().at_table() == Pimc(samples=TABLE_PURE["samples"], tricks=TABLE_PURE["tricks"])
    assert Pimc(samples=16).at_table() == Pimc(samples=16)  # parameters given stay
    monkeypatch.setattr(compiled, "available", lambda: True)
    assert Pimc().at_table() == Pimc()


def test_a_move_replays_the_tables_moves_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A person's move and the answer to it (the app's request) replay the stored moves once:
    the move's position is handed on to the answer, which reads the hand in play."""
    from herzla import records
    from herzla.table.position import Position

    t = new_table("herzla", "normal", seat=0, seed=2, opponents="heuristic")
    for _ in range(2):
        t = play(t, position(t).legal()[0])
    built: list[object] = []
    replays: list[object] = []
    init = Position.__init__

    def counting(self: Position, table: Table) -> None:
        built.append(table)
        init(self, table)

    monkeypatch.setattr(Position, "__init__", counting)
    monkeypatch.setattr(records, "play_moves", lambda *a: replays.append(a))
    fresh = Table.from_json(t.to_json())  # as the app reads it from its store
    after = play(fresh, position(fresh).legal()[0])
    answer = position(after).to_dict()
    assert len(built) == 1 and built[0] is fresh and not replays
    assert answer["moves"] == list(after.deal.moves) and len(after.deal.moves) == 12
