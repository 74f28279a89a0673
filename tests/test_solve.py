"""The solver against a plain minimax on small end positions of every deal, and its properties."""

from __future__ import annotations

import importlib.util
import json
import os
import random
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herzla.analysis.search.scoring import AdditiveScore, BooleanScore, LeafTable, trick_score
from herzla.analysis.search.trick_search import Features, TrickSearch
from herzla.analysis.solve import IllegalPlayError, SolveError, solve
from herzla.cards import PACK_32, Card, Rank, Suit, cards_of
from herzla.contracts import (
    CardValue,
    Contract,
    LeadBan,
    TrickContract,
    game_of,
    get_game,
)
from herzla.contracts.vocabulary import Counts, Settlement, Stock
from herzla.hand import PASS, Hand
from herzla.kinds.tricks import TrickHand
from herzla.records import Record
from herzla.support.streams import seeded_deal
from tests.shares import some_in_default

pytestmark = pytest.mark.usefixtures("builtin_registry")

_JACKS = sum(Card(suit, Rank.JACK).bit for suit in Suit)

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def every_deal() -> list[tuple[str, str, int]]:
    out = []
    for game in ("herzla", "herzla-kids", "herzeln", "herzerln"):
        for cls in get_game(game).contract_classes():
            for n in cls.player_counts:
                out.append((game, cls.id, n))
    return out


# -- a plain minimax on the reference engines, no pruning --------------------------------------

def minimax(state: Hand, contract: Contract, seat: int, maxer: int, sign: int,
            stock: int) -> int:
    """Seat ``seat``'s score (times ``sign``) when ``maxer`` maximises it and the others
    minimise it, by trying every legal move (a pass where it is the only one)."""
    if state.over:
        return sign * contract.score(state.outcome(), stock).scores[seat]
    values = []
    for move in state.legal_moves():
        state.play(move)
        values.append(minimax(state, contract, seat, maxer, sign, stock))
        state.undo()
    return max(values) if state.turn == maxer else min(values)


def declarer_minimax(state: Hand, contract: Contract, declarer: int,
                     stock: int) -> tuple[int, ...]:
    """Every seat's score when ``declarer`` maximises its own score and the others minimise it,
    by trying every legal play (a trick deal with a declarer: Beddl, Mord)."""
    if state.over:
        return tuple(contract.score(state.outcome(), stock).scores)
    found = []
    for move in state.legal_moves():
        state.play(move)
        found.append(declarer_minimax(state, contract, declarer, stock))
        state.undo()
    pick = max if state.turn == declarer else min
    return pick(found, key=lambda scores: scores[declarer])


def end_position(game: str, contract_id: str, players: int, rnd: random.Random,
                 options: dict[str, Any] | None = None,
                 cls_: type[Contract] | None = None) -> dict[str, Any]:
    """A record of a seeded deal played at random until few cards are left in every hand."""
    if cls_ is None:
        cls_ = next(c for c in get_game(game).contract_classes() if c.id == contract_id)
    declarer = rnd.randrange(players) if cls_.needs_declarer else None
    contract = cls_(players, options or {}, declarer)
    dealer = rnd.randrange(players)
    hands = seeded_deal(contract.pack(), players, contract.hand_size, rnd.randrange(1 << 30))
    state = contract.new_hand(hands, dealer)
    limit = 3 if players <= 5 else 2
    plays: list[str] = []
    extra = rnd.randrange(players)
    while not state.over:
        if max(h.bit_count() for h in state.hands) <= limit:
            if extra == 0:
                break
            extra -= 1
        legal = state.legal_moves()
        state.play(PASS if legal == [PASS] else rnd.choice(legal))
        plays.append(str(state.moves[-1]))
    stock = rnd.choice([0, 30, 80]) if contract.has_stock else 0
    return {"game": game, "contract": contract_id, "players": players, "dealer": dealer,
            "declarer": declarer, "stock": stock, "options": options or {},
            "hands": [[str(c) for c in cards_of(h)] for h in hands], "plays": plays}


def check_against_minimax(obj: dict[str, Any], rnd: random.Random,
                          cls_: type[Contract] | None = None) -> None:
    rec = Record.from_json(obj, cls_)
    game = game_of(rec.contract)
    sign = -1 if game.lowest_wins else 1
    res = solve(rec, seat=rnd.randrange(rec.players), plays=True)
    from herzla.analysis.solve import _position

    state = _position(rec)
    if res.made is not None:
        # Beddl and Mord: the declarer plays for its own score, the defenders against it; the
        # value is the asked seat's score in the hand so played
        assert rec.declarer is not None
        scores = declarer_minimax(state, rec.contract, rec.declarer, rec.stock)
        assert res.value == scores[res.seat], (obj, res)
        assert res.made == (scores[rec.declarer] > 0), (obj, res)
        # the seat to move picks the declarer's best (or worst); the asked seat's score rises
        # with the declarer's when it is the declarer, and falls with it otherwise
        up = (state.turn == rec.declarer) == (res.seat == rec.declarer)
    else:
        want = sign * minimax(state, rec.contract, res.seat, res.seat, sign, rec.stock)
        assert res.value == want, (obj, res)
        up = (state.turn == res.seat) == (sign > 0)
    # the value is the best of the children's for the seat to move
    if res.plays:
        assert res.value == (max if up else min)(res.plays.values())


@pytest.mark.parametrize(("game", "contract_id", "players"),
                         some_in_default(every_deal(), kind=lambda case: case[0]))
def test_solver_agrees_with_minimax(game: str, contract_id: str, players: int) -> None:
    rnd = random.Random(f"{game}/{contract_id}/{players}")
    for _ in range(3):
        check_against_minimax(end_position(game, contract_id, players, rnd), rnd)


@pytest.mark.parametrize("options", [
    {"rank_order": "ace-ten", "heart_lead_ban_tricks": 8},
    {"no_void": "no-payment", "stock_payout": "never", "heart_unit": 5},
])
@pytest.mark.parametrize("contract_id", ["normal", "beddl", "mord"])
def test_herzla_options_apply(options: dict[str, Any], contract_id: str) -> None:
    rnd = random.Random(f"{options}/{contract_id}")
    for _ in range(3):
        check_against_minimax(end_position("herzla", contract_id, 4, rnd, options), rnd)


@pytest.mark.parametrize("options", [{"domino_suits": "same-suit", "domino_wrap": False},
                                     {"domino_suits": "same-suit"}])
def test_same_suit_domino(options: dict[str, Any]) -> None:
    rnd = random.Random(str(options))
    for n in (3, 4):
        check_against_minimax(end_position("herzeln", "domino", n, rnd, options), rnd)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(every_deal()), st.integers(0, 1 << 30))
def test_solver_agrees_with_minimax_anywhere(deal: tuple[str, str, int], seed: int) -> None:
    rnd = random.Random(seed)
    check_against_minimax(end_position(*deal, rnd), rnd)


class _Jacks(TrickContract):
    """Not registered anywhere: -3 per Jack, +1 per trick, no Jack led to or discarded on the
    first two tricks."""

    game: ClassVar[str] = "test"
    id: ClassVar[str] = "jacks"
    values: ClassVar[tuple[CardValue, ...]] = (CardValue(_JACKS, -3, "Jack"),)
    per_trick: ClassVar[int] = 1
    lead_bans: ClassVar[tuple[LeadBan, ...]] = (LeadBan(_JACKS, 2, discards=True),)


class _MostTricks(TrickContract):
    """Not registered anywhere, scored by hand (not additively): the seats with the most tricks
    share 12 points."""

    game: ClassVar[str] = "test"
    id: ClassVar[str] = "most-tricks"
    player_counts: ClassVar[tuple[int, ...]] = (3, 4)

    def settle(self, counts: Counts, stock: Stock = 0) -> Settlement:
        tricks = counts.trick_counts()
        top = tricks == tricks.max(axis=0)
        return Settlement((12 // top.sum(axis=0)) * top)


@pytest.mark.parametrize("cls_", [_Jacks, _MostTricks])
def test_a_contract_nobody_registered_is_solved_by_its_declaration(
        cls_: type[TrickContract]) -> None:
    rnd = random.Random(cls_.id)
    for n in cls_.player_counts:
        for _ in range(4):
            check_against_minimax(end_position("test", cls_.id, n, rnd, cls_=cls_), rnd, cls_)


# -- properties ------------------------------------------------------------------------------

def test_every_technique_off_gives_the_same_values() -> None:
    rnd = random.Random(5)
    for game, cid, n in [("herzla", "normal", 4), ("herzla", "beddl", 4),
                         ("herzeln", "no-hearts", 4), ("herzla-kids", "normal", 5)]:
        rec = Record.from_json(end_position(game, cid, n, rnd))
        from herzla.analysis.solve import _position

        state = _position(rec)
        assert isinstance(state, TrickHand)
        if state.over:
            continue
        sc = trick_score(rec.contract, rec.stock, [h for h in _hands(rec)])  # type: ignore[arg-type]
        values = set()
        for off in ("equivalence", "table", "ordering", "bounds", "mtdf"):
            ts = TrickSearch(rec.contract, sc, 0, 1, Features(**{off: False}))  # type: ignore[arg-type]
            values.add(ts.exact(state.copy()))
        assert len(values) == 1


def _hands(rec: Record) -> list[int]:
    from herzla.cards import mask_of

    return [mask_of(h) for h in rec.hands]


def test_scoring_kinds_are_read_from_settle() -> None:
    from herzla.contracts import contract_class

    deal = seeded_deal(contract_class("herzla", "normal")().pack(), 4, 8, 1)
    kinds = {}
    for game, cid in [("herzla", "normal"), ("herzla", "beddl"), ("herzla", "mord"),
                      ("herzeln", "no-hearts"), ("herzeln", "last-trick"),
                      ("herzerln", "tricks"), ("herzla-kids", "normal")]:
        cls = contract_class(game, cid)
        c = cls(4, {}, 0 if cls.needs_declarer else None)
        kinds[cid if game != "herzla-kids" else "kids"] = trick_score(c, 0, deal)  # type: ignore[arg-type]
    assert isinstance(kinds["normal"], LeafTable)
    assert isinstance(kinds["beddl"], BooleanScore) and isinstance(kinds["mord"], BooleanScore)
    for k in ("no-hearts", "last-trick", "tricks", "kids"):
        assert isinstance(kinds[k], AdditiveScore), k


def test_beddl_made_exactly_when_the_declarers_value_is_positive() -> None:
    rnd = random.Random(11)
    seen = set()
    for _ in range(12):
        obj = end_position("herzla", "beddl", 4, rnd)
        res = solve(obj)
        assert res.seat == obj["declarer"]
        assert res.made == (res.value > 0)
        seen.add(res.made)
    assert seen == {True, False}


def test_the_line_keeps_the_value() -> None:
    rnd = random.Random(3)
    for game, cid, n in [("herzla", "normal", 4), ("herzeln", "domino", 4),
                         ("herzerln", "jacks", 3), ("herzla", "mord", 4)]:
        obj = end_position(game, cid, n, rnd)
        seat = rnd.randrange(n)
        res = solve(obj, seat=seat)
        if res.complete:
            continue
        after = solve(dict(obj, plays=[*obj["plays"], res.line[0]]), seat=seat)
        assert after.value == res.value
        assert list(after.line) == list(res.line[1:]) or after.value == res.value
        whole = solve(dict(obj, plays=[*obj["plays"], *res.line]), seat=seat)
        assert whole.complete and whole.value == res.value


def test_kids_seat_minimises_its_penalty() -> None:
    rnd = random.Random(8)
    for _ in range(5):
        obj = end_position("herzla-kids", "normal", 4, rnd)
        res = solve(obj, seat=obj["dealer"], plays=True)
        if res.complete or not res.plays:
            continue
        pick = min if res.to_move == res.seat else max
        assert res.value == pick(res.plays.values())


def test_a_complete_hand_answers_its_result_without_search() -> None:
    obj = json.loads((EXAMPLES / "herzla-two-void.json").read_text())
    res = solve(obj, seat=1, plays=True)
    assert res.complete and res.nodes == 0 and res.line == () and res.plays == {}
    assert res.value == -30 and res.to_move is None
    d = res.to_dict()
    assert list(d) == ["game", "contract", "players", "seat", "to_move", "value", "made",
                       "line", "plays", "nodes", "elapsed_s"]


def test_an_illegal_play_is_named() -> None:
    obj = json.loads((EXAMPLES / "herzerln-heart-free.json").read_text())
    with pytest.raises(IllegalPlayError) as info:
        solve(obj, seat=0)
    assert info.value.illegal.rule == "heart-free-first-trick"


def test_a_seat_is_needed_outside_beddl_and_mord() -> None:
    obj = json.loads((EXAMPLES / "herzla-two-void.json").read_text())
    with pytest.raises(SolveError, match="seat"):
        solve(dict(obj, plays=[]))
    with pytest.raises(SolveError, match="seat 4"):
        solve(obj, seat=4)


def test_the_two_void_example_mid_hand() -> None:
    obj = json.loads((EXAMPLES / "herzla-two-void.json").read_text())
    res = solve(dict(obj, plays=obj["plays"][:12]), seat=2, plays=True)
    assert res.to_move == 1 and res.value == min(res.plays.values())  # type: ignore[union-attr]


# -- whole deals against an independent search (slow) -----------------------------------------

SCALE = max(1, int(os.environ.get("HERZLA_SLOW_SCALE", "1") or 1))


@pytest.mark.slow
def test_whole_beddl_and_mord_deals_agree_with_the_bare_search() -> None:
    """Whole deals from the first card, worth announcing or not, against the benchmark's bare
    alpha-beta search (which shares no code with herzla)."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bare_search.py"
    spec = importlib.util.spec_from_file_location("bare_search", path)
    assert spec is not None and spec.loader is not None
    bare: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bare)

    rnd = random.Random(99)
    for i in range(12 * SCALE):
        contract = ("beddl", "mord")[i % 2]
        declarer = rnd.randrange(4)
        hands = seeded_deal(PACK_32, 4, 8, rnd.randrange(1 << 30))
        codes = [[str(c) for c in cards_of(h)] for h in hands]
        obj = {"game": "herzla", "contract": contract, "players": 4, "dealer": 3,
               "declarer": declarer, "hands": codes, "plays": []}
        res = solve(obj)
        bits = [sum(bare.card_bit(c) for c in h) for h in codes]
        want = bare.solve_beddl_mord(bits, 0, declarer, contract == "beddl")
        assert res.made == (want > 0), obj


def test_a_contract_with_a_play_hook_of_its_own_is_declined() -> None:
    """The solver reads declared rules only; a ``banned()`` of its own is refused, by name."""
    from herzla.cards import HEARTS_MASK
    from herzla.contracts.herzla import Normal
    from herzla.records import deal_record

    class OwnBan(Normal):
        def banned(self, state: object, seat: int, leading: bool) -> tuple[int, str] | None:
            return (HEARTS_MASK, "heart-lead-ban") if leading else None

    rec = Record.from_json(deal_record("herzla", "normal", 4, seed=3).to_json(), OwnBan)
    with pytest.raises(SolveError, match=r"banned\(\)"):
        solve(rec, seat=0)
