"""The rule vocabulary: contracts declare their rules once, and every part of herzla reads them.

A game defined here, inside the test only, in nothing but the vocabulary, is played by both
engines to the same results, passes the conformance kit, replays, and appears in ``herzla rules``
with its rules in words, without any other edit to herzla.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import ClassVar

import numpy as np
import pytest
from click.testing import CliRunner

from herzla import contracts as registry
from herzla.cards import HEARTS_MASK, SUIT_MASKS, Card, Rank, Suit
from herzla.cli import main
from herzla.contracts import (
    CardValue,
    Counts,
    EarlyEnd,
    LayoutContract,
    LeadBan,
    Rows,
    TallyError,
    TrickContract,
    contract_class,
    contract_classes,
    get_game,
)
from herzla.contracts.vocabulary import early_end_reached
from herzla.records import Record, replay
from herzla.sim import batch, reference
from herzla.sim.spec import BlockResult, DealSpec
from herzla.testing import check_contract
from tests.shares import some_in_default

SPADES = SUIT_MASKS[Suit.S]
HEARTS = HEARTS_MASK & ~Card(Suit.H, Rank.SIX).bit  # the hearts of the 32-card pack


class NoSpades(TrickContract):
    """-1 per spade, -5 more for the last trick; spades neither led nor discarded to the first
    two tricks."""

    game: ClassVar[str] = "test-vocab"
    id: ClassVar[str] = "no-spades"
    title: ClassVar[str] = "No spades"
    player_counts: ClassVar[tuple[int, ...]] = (4, 3)
    values: ClassVar[tuple[CardValue, ...]] = (CardValue(SPADES, -1, "spade"),)
    last_trick: ClassVar[int] = -5
    lead_bans: ClassVar[tuple[LeadBan, ...]] = (
        LeadBan(SPADES, 2, discards=True, rule="spade-ban"),)


class Solo(TrickContract):
    """A declarer who must win every trick; the defenders' captured hearts still count."""

    game: ClassVar[str] = "test-vocab"
    id: ClassVar[str] = "solo"
    title: ClassVar[str] = "Solo"
    needs_declarer: ClassVar[bool] = True
    early_end: ClassVar[EarlyEnd | None] = EarlyEnd.DEFENDER_WINS
    values: ClassVar[tuple[CardValue, ...]] = (CardValue(HEARTS_MASK, -2, "heart"),)
    per_trick: ClassVar[int] = 1


class Ladder(LayoutContract):
    """Rows per suit from the Queen, turning the corner; places 3, 2, 1, 0."""

    game: ClassVar[str] = "test-vocab"
    id: ClassVar[str] = "ladder"
    title: ClassVar[str] = "Ladder"
    rows: ClassVar[Rows | None] = Rows(tuple(r for r in Rank if r >= Rank.SEVEN), wrap=True,
                                       per_suit=True, opening=Rank.QUEEN)
    places: ClassVar[tuple[int, ...]] = (3, 2, 1, 0)


@pytest.fixture
def vocab_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(registry, "_registry", dict(registry._load()))
    for cls in (NoSpades, Solo, Ladder):
        registry.register(cls)
    yield


def _same(a: BlockResult, b: BlockResult) -> None:
    assert a.scores.tolist() == b.scores.tolist()
    assert a.events == b.events
    assert a.records == b.records
    assert (a.hearts is None) == (b.hearts is None)
    if a.hearts is not None and b.hearts is not None:
        assert a.hearts.tolist() == b.hearts.tolist()


@pytest.mark.usefixtures("vocab_game")
@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize(("contract_id", "players", "declarer"), some_in_default([
    ("no-spades", 4, None), ("no-spades", 3, None), ("solo", 4, 2), ("ladder", 4, None)],
    every=2))
def test_both_engines_play_a_new_contract_alike(contract_id: str, players: int,
                                                declarer: int | None, policy: str) -> None:
    spec = DealSpec.of("test-vocab", contract_id, players, players - 1, declarer, policy=policy)
    assert batch.unsupported(spec) is None
    fast = batch.play_block(spec, 21, (0, 3), 300, records=40, chunk=77)
    slow = reference.play_block(spec, 21, (0, 3), 300, records=40)
    _same(fast, slow)
    for rec in fast.records:
        result = replay(Record.from_json(rec))
        assert result.complete and result.illegal is None
    first = replay(Record.from_json(fast.records[0]))
    assert list(first.scores or ()) == fast.scores[0].tolist()


@pytest.mark.usefixtures("vocab_game")
def test_the_new_contracts_keep_their_declared_rules() -> None:
    report = check_contract(NoSpades, players=4, hands=60)
    assert report.totals and sum(report.totals) == (-8 - 5) * 60
    check_contract(NoSpades, players=3, hands=30)
    check_contract(Solo, players=4, hands=60, declarer=1)
    check_contract(Ladder, players=4, hands=40)
    no_spades = NoSpades(4)
    assert no_spades.score_total() == -13
    assert no_spades.declaration.banned(0, False) == (SPADES & no_spades.pack().mask,
                                                      "spade-ban")
    assert no_spades.declaration.banned(2, True) is None
    # the reference engine applies the ban with its escape: a hand of spades must lead one
    from herzla.kinds.tricks import TrickHand

    all_spades = sum(Card(Suit.S, r).bit for r in Rank if r >= Rank.SEVEN)
    rest = [c.bit for c in no_spades.pack().cards if not c.bit & all_spades]
    hands = [all_spades, sum(rest[0:8]), sum(rest[8:16]), sum(rest[16:24])]
    state = TrickHand(no_spades, hands, dealer=3)
    assert state.legal_mask() == all_spades


@pytest.mark.usefixtures("vocab_game")
def test_herzla_rules_describes_the_new_game_from_its_declarations() -> None:
    out = CliRunner().invoke(main, ["rules", "test-vocab"])
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())
    assert "-1 per spade; -5 to the winner of the last trick; no spade led to or discarded on " \
           "the first 2 tricks." in text
    assert "-2 per heart; +1 per trick won; the declarer must win every trick" in text
    assert "Lay cards in rows per suit (7 8 9 T J Q K A, turning the corner); any Queen opens; " \
           "places +3, +2, +1, 0" in text
    assert "[plug-in]" in text
    answer = json.loads(CliRunner().invoke(main, ["rules", "test-vocab", "--json"]).output)
    assert {e["id"] for e in answer["entries"]} >= {"test-vocab/no-spades", "test-vocab/solo",
                                                    "test-vocab/ladder"}
    assert {c.id for c in contract_classes("test-vocab")} == {"ladder", "no-spades", "solo"}
    assert get_game("test-vocab").partie == 0


def test_builtin_contracts_describe_their_declarations() -> None:
    def said(game: str, contract_id: str, players: int = 4) -> str:
        return contract_class(game, contract_id).default(players).describe()

    assert said("herzeln", "no-hearts") == \
        "each heart captured: A -11, T -10, K -4, Q -3, J -2, 9/8/7 -1"
    assert said("herzeln", "no-hearts", 3) == "each heart captured: A -11, T -10, K -4, Q -3, " \
        "J -2, 9 -1"
    assert said("herzeln", "every-trick") == "+10 per trick won"
    assert said("herzeln", "no-last-trick") == "-40 to the winner of the last trick"
    assert said("herzerln", "hearts") == "-1 per heart; no heart led to or discarded on trick 1"
    assert said("herzerln", "red-queens") == "-4 per red Queen"


def test_one_scorer_for_one_hand_and_for_many() -> None:
    """The settlement of a column of hands equals each hand's own settlement."""
    normal = contract_class("herzla", "normal")(4)
    hearts = np.array([[0, 2, 8, 0, 1], [3, 2, 0, 0, 1], [5, 2, 0, 8, 3], [0, 2, 0, 0, 3]])
    tricks = np.array([[0, 2, 8, 1, 1], [3, 2, 0, 1, 1], [3, 2, 0, 5, 3], [2, 2, 0, 1, 3]])
    many = normal.settle(Counts(4, 5, tricks=tricks, cards={HEARTS: hearts}), stock=81)
    for i in range(5):
        one = normal.settle(Counts.of_one(4, tricks=tricks[:, i].tolist(),
                                          cards={HEARTS: hearts[:, i].tolist()}), stock=81)
        assert one.column(0) == many.column(i)
    assert many.column(2)[2] == ("schleichermord",)
    assert many.column(3)[2] == ("all-hearts",)


def test_early_end_reached() -> None:
    winners = np.array([[0, 1], [2, 1], [1, 1]])
    assert early_end_reached(EarlyEnd.DECLARER_WINS, winners, 1).tolist() == \
        [[False, True], [False, True], [True, True]]
    assert early_end_reached(EarlyEnd.DEFENDER_WINS, winners, 1).tolist() == \
        [[True, False], [True, False], [True, False]]


def test_stock_paid_only_when_paid() -> None:
    normal = contract_class("herzla", "normal")(4)
    counts = Counts.of_one(4, tricks=[2, 2, 2, 2], cards={HEARTS: [0, 4, 4, 0]})
    scores, stock, events = normal.settle(counts, stock=1).column(0)
    assert (scores, stock, events) == ((40, -40, -40, 40), 1, ("two-void",))
    with pytest.raises(TallyError, match="Schleichermord"):
        normal.settle(Counts.of_one(4, cards={HEARTS: [8, 0, 0, 0]}))
