"""The units the trick searches are built from, each on its own: the declaration in search bits,
equivalent cards, transposition keys, move ordering, bounds and leaves."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from herzla.analysis.search.bounds import AdditiveBounds, make_keeps_out, make_verdict
from herzla.analysis.search.declared import Declared
from herzla.analysis.search.equivalence import group_runs, make_runs
from herzla.analysis.search.keys import make_keys, relative_suits, squeeze
from herzla.analysis.search.leaves import AdditiveValues, TallyStates
from herzla.analysis.search.ordering import make_made_lost_orders, make_order
from herzla.analysis.search.position import SUIT, load_position, make_legal
from herzla.analysis.search.scoring import AdditiveScore, LeafTable, trick_score
from herzla.analysis.search.trick_search import Features, TrickSearch
from herzla.cards import HEARTS_MASK, PACK_32, Card, Rank, Suit, cards_of
from herzla.contracts import TrickContract, contract_class
from herzla.contracts.vocabulary import Counts, Stock
from herzla.kinds.tricks import TrickHand
from herzla.support.streams import seeded_deal

pytestmark = pytest.mark.usefixtures("builtin_registry")


def _contract(game: str, cid: str, n: int = 4, options: dict[str, Any] | None = None,
              declarer: int | None = 0) -> TrickContract:
    cls = contract_class(game, cid)
    c = cls(n, options or {}, declarer if cls.needs_declarer else None)
    assert isinstance(c, TrickContract)
    return c


def _state(contract: TrickContract, seed: int, plays: int) -> TrickHand:
    """A seeded deal of ``contract`` after ``plays`` random legal cards."""
    rnd = random.Random(seed)
    hands = seeded_deal(contract.pack(), contract.players, contract.hand_size, seed)
    st = contract.new_hand(hands, rnd.randrange(contract.players))
    assert isinstance(st, TrickHand)
    for _ in range(plays):
        if st.over:
            break
        st.play(rnd.choice(cards_of(st.legal_mask())))
    return st


# -- the declaration ---------------------------------------------------------------------------

@pytest.mark.parametrize("order", ["natural", "ace-ten"])
def test_search_bits_are_in_strength_order(order: str) -> None:
    c = _contract("herzla", "normal", options={"rank_order": order})
    d = Declared(c)
    strength = c.rank_order().strength
    for i in range(36):
        b = d.to_bit[i]
        assert d.card(b) == i and b // 9 == i // 9 and b % 9 == strength[i % 9]
    assert d.bits(c.pack().mask) == d.pack
    assert d.bits(1 << 5 | 1 << 20) == 1 << d.to_bit[5] | 1 << d.to_bit[20]


def test_bans_and_signatures_come_from_the_declaration() -> None:
    c = _contract("herzla", "normal")
    d = Declared(c)
    for t in range(c.hand_size):
        for leading in (True, False):
            ban = c.declaration.banned(t, leading)
            assert d.banned(t, leading) == (d.bits(ban[0]) if ban else 0)
    assert d.lead_bans(3)[0] == d.bits(HEARTS_MASK)
    heart = d.to_bit[Card(Suit.H, Rank.SEVEN).index]
    club = d.to_bit[Card(Suit.C, Rank.SEVEN).index]
    club2 = d.to_bit[Card(Suit.C, Rank.ACE).index]
    assert d.signature[heart] != d.signature[club] == d.signature[club2]
    assert d.uniform == [True] * 4  # every heart counts and is banned alike
    king = Declared(_contract("herzeln", "king-of-hearts"))
    assert king.uniform == [s != Suit.H for s in Suit]


@pytest.mark.parametrize(("cid", "ends"), [("beddl", [True, False, False, False]),
                                           ("mord", [False, True, True, True]),
                                           ("normal", [False] * 4)])
def test_the_early_end_comes_from_the_declaration(cid: str, ends: list[bool]) -> None:
    d = Declared(_contract("herzla", cid))
    assert [d.ends_on(w) for w in range(4)] == ends
    assert d.ended([1, 2]) == any(ends[1:3])


# -- equivalent cards --------------------------------------------------------------------------

@pytest.mark.parametrize(("game", "cid"), [("herzla", "normal"), ("herzeln", "no-queens"),
                                           ("herzla-kids", "normal")])
def test_runs_partition_the_legal_cards_into_neighbours_alike(game: str, cid: str) -> None:
    c = _contract(game, cid)
    d = Declared(c)
    sig = d.signature
    for seed in range(20):
        st = _state(c, seed, seed % 13)
        hand = d.bits(st.hands[st.turn])
        legal = d.bits(st.legal_mask())
        out = d.bits(sum(st.hands) | sum(x.bit for x in st.trick))
        groups = group_runs(sig, hand, legal, out, True)
        assert sorted(itertools.chain(*groups.values())) == [b for b in range(36)
                                                            if legal >> b & 1]
        assert make_runs(sig, True)(hand, legal, out) == sorted(groups)
        for rep, run in groups.items():
            assert rep == run[0] == min(run)
            for a, b in itertools.pairwise(run):
                between = out & ((1 << b) - 1) & ~((2 << a) - 1)
                assert not between and sig[a] == sig[b] and SUIT[a] == SUIT[b]
        assert make_runs(sig, False)(hand, legal, out) == [b for b in range(36)
                                                           if legal >> b & 1]


# -- transposition keys ------------------------------------------------------------------------

def test_squeeze_ranks_cards_among_those_out() -> None:
    assert squeeze(0b111, 0b101) == 0b101
    assert squeeze(0b101010, 0b100010) == 0b101
    assert squeeze(0, 0) == 0


def test_keys_hold_uniform_suits_by_relative_rank() -> None:
    d = Declared(_contract("herzeln", "king-of-hearts"))
    use, shifts, raw = relative_suits(d)
    hearts = 9 * int(Suit.H)
    assert use and hearts not in shifts and raw == 0x1FF << hearts
    # clubs 7 and 9 against 8 and 10, or clubs 7 and Queen against 10 and King: same order
    c = 9 * int(Suit.C)
    a = [1 << c | 1 << (c + 2), 1 << (c + 1) | 1 << (c + 3), 0, 0]
    b = [1 << c | 1 << (c + 5), 1 << (c + 3) | 1 << (c + 6), 0, 0]
    w = [1 << (c + 1) | 1 << (c + 2), 1 << c | 1 << (c + 3), 0, 0]
    hands = list(a)
    key = make_keys(d, hands)
    ka = key(0)
    hands[:] = b
    assert key(0) == ka
    assert key(1) != ka
    hands[:] = w
    assert key(0) != ka
    # hearts (the King of hearts scores) are kept as they are
    h7, h8, h9, ht = (1 << (hearts + i) for i in range(4))
    hands[:] = [h7 | h8, h9 | ht, 0, 0]
    k1 = key(0)
    hands[:] = [h7 | h9, h8 | ht, 0, 0]
    assert key(0) != k1
    plain = make_keys(d, hands, relative=False)
    assert plain(0) == ((((0 << 36 | hands[0]) << 36 | hands[1]) << 36 | 0) << 36 | 0)


# -- move ordering -----------------------------------------------------------------------------

@pytest.mark.parametrize(("game", "cid", "seat"), [("herzla", "normal", 0),
                                                   ("herzerln", "tricks", 1),
                                                   ("herzla-kids", "normal", 2)])
def test_orders_are_the_runs_rearranged(game: str, cid: str, seat: int) -> None:
    c = _contract(game, cid)
    search = TrickSearch(c, trick_score(c, 0, seeded_deal(c.pack(), 4, c.hand_size, 1)), seat)
    d = search.declared
    for seed in range(25):
        st = _state(c, seed, seed % 11)
        hands = [0] * 4
        seat0, k, t, out, led, best, bseat, _tm, _ld = load_position(d, st, hands)
        legal = make_legal(hands, d.lead_bans(c.hand_size), d.discard_bans(c.hand_size))(
            seat0, k, t, led)
        runs = make_runs(d.signature, True)
        want = runs(hands[seat0], legal, out)
        on = make_order(hands, d.signature, seat, 4, search.gain, True, runs)
        off = make_order(hands, d.signature, seat, 4, search.gain, False, runs)
        got = list(on(seat0, k, legal, out, best if k else -1, led, bseat))
        assert sorted(got) == want
        assert list(off(seat0, k, legal, out, best if k else -1, led, bseat)) == want


def test_the_seat_avoiding_tricks_leads_low_and_ducks() -> None:
    c = _contract("herzla", "normal")
    d = Declared(c)
    clubs = 9 * int(Suit.C)
    hands = [1 << (clubs + 1) | 1 << (clubs + 4) | 1 << (clubs + 8),
             1 << (clubs + 2) | 1 << (clubs + 6), 0, 0]
    out = hands[0] | hands[1]
    order = make_order(hands, d.signature, 0, 4, False, True, make_runs(d.signature, True))
    assert list(order(0, 0, hands[0], out, -1, 0)) == [clubs + 1, clubs + 4, clubs + 8]
    # following to the Jack of clubs (strength 5): the highest card under it first
    led = SUIT[clubs]
    assert list(order(0, 1, hands[0], out | 1 << (clubs + 5), clubs + 5, led, 3)) == [
        clubs + 4, clubs + 1, clubs + 8]


def test_made_lost_orders_are_permutations() -> None:
    c = _contract("herzla", "beddl")
    d = Declared(c)
    for beddl in (True, False):
        for seed in range(10):
            st = _state(c, seed, seed % 9)
            hands = [0] * 4
            seat0, k, _t, out, led, best, bseat, _tm, _ld = load_position(d, st, hands)
            lead_order, follow_order = make_made_lost_orders(hands, d.signature, 0, beddl, 4,
                                                             True)
            legal = d.bits(st.legal_mask())
            reps = make_runs(d.signature, True)(hands[seat0], legal, out)
            if k == 0:
                got = lead_order(seat0, list(reps), out)
            else:
                got = follow_order(seat0, k, list(reps), legal & led, best, bseat)
            assert sorted(got) == reps


# -- bounds ------------------------------------------------------------------------------------

def _every_completion(st: TrickHand, f: Any) -> list[Any]:
    """``f(state)`` at the end of every way to play ``st`` out."""
    if st.over:
        return [f(st)]
    out = []
    for card in cards_of(st.legal_mask()):
        st.play(card)
        out.extend(_every_completion(st, f))
        st.undo()
    return out


@pytest.mark.parametrize(("game", "cid"), [("herzeln", "no-hearts"), ("herzla-kids", "normal"),
                                           ("herzerln", "tricks"), ("herzeln", "last-trick")])
def test_additive_bounds_hold_every_completion(game: str, cid: str) -> None:
    c = _contract(game, cid)
    kept = 0
    for seed in range(12):
        st = _state(c, seed, 4 * (c.hand_size - 3) + seed % 3)
        sc = trick_score(c, 0, seeded_deal(c.pack(), 4, c.hand_size, seed))
        assert isinstance(sc, AdditiveScore)
        seat = seed % 4
        d = Declared(c)
        values = AdditiveValues(sc, seat, 1, 4, d.to_card)
        bounds = AdditiveBounds(values, seat, 4, c.hand_size)
        hands = [0] * 4
        _s, _k, t, out, *_ = load_position(d, st, hands)
        past = sc.of_tally(seat, st.captured, st.won, None)
        finals = _every_completion(st, lambda s, sc=sc, seat=seat, past=past: sc.of_tally(
            seat, s.captured, s.won, s.tricks[-1].winner) - past)
        lo, hi = bounds.bounds(t, out)
        assert lo <= min(finals) and max(finals) <= hi
        keeps = make_keeps_out(hands, seat, 4, make_legal(
            hands, d.lead_bans(c.hand_size), d.discard_bans(c.hand_size)))
        value = TrickSearch(c, sc, seat).exact(st.copy())
        assert min(finals) <= value <= max(finals)
        if keeps(st.leader, t, out):  # the seat can take nothing more: at least its idle bound
            assert bounds.idle(t, out) <= value
            kept += 1
    assert kept


def _can_keep_out(st: TrickHand, seat: int) -> bool:
    """Whether ``seat`` can play so as to win no further trick whatever the others play."""
    if st.over:
        return True
    results = []
    for card in cards_of(st.legal_mask()):
        before = len(st.tricks)
        st.play(card)
        won = len(st.tricks) > before and st.tricks[-1].winner == seat
        results.append(not won and _can_keep_out(st, seat))
        st.undo()
    return any(results) if st.turn == seat else all(results)


def test_keeps_out_only_when_the_seat_can() -> None:
    c = _contract("herzla", "normal")
    d = Declared(c)
    seen = set()
    for seed in range(60):
        st = _state(c, seed, 20)
        while st.trick:
            st.play(cards_of(st.legal_mask())[0])
        if st.over:
            continue
        hands = [0] * 4
        _s, _k, t, out, *_ = load_position(d, st, hands)
        keeps = make_keeps_out(hands, seed % 4, 4, make_legal(hands, d.lead_bans(8),
                                                               d.discard_bans(8)))
        got = keeps(st.leader, t, out)
        if got:
            assert _can_keep_out(st, seed % 4)
        seen.add(got)
    assert seen == {True, False}


@pytest.mark.parametrize("cid", ["beddl", "mord"])
def test_a_verdict_is_the_searched_value(cid: str) -> None:
    decided = 0
    for seed in range(40):
        c = _contract("herzla", cid, declarer=seed % 4)
        st = _state(c, seed, 4 * (seed % 6))
        sc = trick_score(c, 0, seeded_deal(c.pack(), 4, 8, seed))
        d = Declared(c)
        hands = [0] * 4
        _s, _k, t, out, *_ = load_position(d, st, hands)
        verdict, _witness = make_verdict(hands, seed % 4, cid == "beddl", 4,
                                         make_legal(hands, d.lead_bans(8), d.discard_bans(8)))
        got = verdict(st.leader, t, out)
        if got >= 0:
            decided += 1
            plain = TrickSearch(c, sc, seed % 4, 1, Features(bounds=False))
            assert plain.exact(st.copy()) == got
    assert decided


# -- leaves ------------------------------------------------------------------------------------

def test_an_additive_trick_adds_what_the_scorer_says() -> None:
    c = _contract("herzla-kids", "normal")
    deal = seeded_deal(c.pack(), 4, 8, 3)
    sc = trick_score(c, 0, deal)
    assert isinstance(sc, AdditiveScore)
    d = Declared(c)
    values = AdditiveValues(sc, 1, -1, 4, d.to_card)
    tmask = deal[0] & -deal[0] | deal[2] & -deal[2]
    for w in range(4):
        captured = [0] * 4
        captured[w] = tmask
        won = [int(s == w) for s in range(4)]
        want = sc.of_tally(1, captured, won, w) - sc.base[1]
        assert values.of_trick(w, d.bits(tmask), True) == -want


def test_table_leaves_are_the_contracts_settle() -> None:
    c = _contract("herzla", "normal", options={"heart_unit": 7})
    deal = seeded_deal(PACK_32, 4, 8, 5)
    sc = trick_score(c, 30, deal)
    assert isinstance(sc, LeafTable)
    d = Declared(c)
    states = TallyStates(sc, 2, 1, 4, [d.bits(m) for m in sc.classes])
    rnd = random.Random(5)
    for _ in range(20):
        st = c.new_hand(deal, 3)
        assert isinstance(st, TrickHand)
        while not st.over:
            st.play(rnd.choice(cards_of(st.legal_mask())))
        cur = states.of_captured([0] * 4, [0] * 4)
        winner = -1
        for trick in st.tricks:
            assert trick.winner is not None
            winner = trick.winner
            cur = states.advance(cur, winner, d.bits(sum(x.bit for x in trick.cards)))
        assert states.leaf(cur, winner) == c.score(st.outcome(), 30).scores[2]
        assert cur == states.of_captured(st.captured, st.won)


def test_settle_is_read_for_the_leaves_not_a_copy_of_its_rule() -> None:
    """A contract changed only in ``settle`` is solved by its own scores."""
    base = _contract("herzla", "normal")

    class Doubled(type(base)):  # type: ignore[misc]
        def settle(self, counts: Counts, stock: Stock = 0) -> Any:
            s = super().settle(counts, stock)
            return type(s)(s.scores * 2)

    c2 = Doubled(4, {})
    deal = seeded_deal(PACK_32, 4, 8, 9)
    st = _state(base, 9, 20)
    v1 = TrickSearch(base, trick_score(base, 0, deal), 0).exact(st.copy())
    v2 = TrickSearch(c2, trick_score(c2, 0, deal), 0).exact(st.copy())
    assert v2 == 2 * v1


def test_the_kernels_disk_cache_is_flushed_when_any_kernel_file_changes(tmp_path: Any) -> None:
    """numba keys a cache to the function's own file; the kernel's caches are flushed together
    when any of its files changes (stand-ins for numba's dispatchers and their caches)."""
    from herzla.analysis.search.kernel.cache import STAMP, drop_stale_caches

    class Cache:
        def __init__(self) -> None:
            self.cache_path = str(tmp_path / "cache")
            self.flushed = 0

        def flush(self) -> None:
            self.flushed += 1

    class Dispatcher:
        def __init__(self) -> None:
            self._cache = Cache()

    units, search = tmp_path / "units.py", tmp_path / "search.py"
    units.write_text("one")
    search.write_text("two")
    both = [Dispatcher(), Dispatcher()]
    assert drop_stale_caches(both, [units, search])  # no digest yet
    assert [d._cache.flushed for d in both] == [1, 1]
    assert (tmp_path / "cache" / STAMP).exists()
    assert not drop_stale_caches(both, [units, search])  # nothing changed: kept
    units.write_text("one, changed")  # a file beside the search's own
    assert drop_stale_caches(both, [units, search])
    assert [d._cache.flushed for d in both] == [2, 2]
    assert not drop_stale_caches([object()], [units])  # no numba cache: nothing to do
