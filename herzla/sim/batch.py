"""The numpy batch engine: many hands of one deal in lockstep, with the reference's results.

It plays the built-in contracts of every game (Herzla with its bidding, the children's Herzla,
Herzeln's trick deals and domino, Herzerln's rounds and Auflegen) with both policies, and scores
them with the events of the reference scorers.  Randomness comes from :mod:`herzla.sim.streams`,
so a block gives the same hands, the same choices and the same results as the reference engine
(:mod:`herzla.sim.reference`), whatever the chunk size.

Hands are processed in chunks of ``chunk`` hands; loops run over tricks, positions and moves,
never over hands.  Card sets are bit sets in a strength layout (:mod:`herzla.sim.batch_bits`);
the trick play is :mod:`herzla.sim.batch_tricks`, the domino and Auflegen
:mod:`herzla.sim.batch_layout`.  A Beddl or Mord hand that ends early plays on in lockstep, but
its result is fixed by then (the declarer has won a trick, or a defender has), and its record
stops where the hand ended.  The sample records carry every card played (with the end mark of a
domino card that fits both ends), and replay to the same scores.

Contracts it does not know (third-party ones) and option values it does not know are refused
with a ValueError naming them; :func:`herzla.sim.engine.play_block` then falls back to the
reference engine.

>>> from herzla.sim.engine import DealSpec
>>> res = play_block(DealSpec("herzla", "normal", 4, 3), seed=1, key=(0, 0), n=1000)
>>> res.scores.shape, int(res.scores.sum() + (res.stock_after - 0).sum())
((1000, 4), 0)
"""

from __future__ import annotations

import ctypes
import functools
import os
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from herzla.cards import HEARTS_MASK, Card, Rank, Suit, mask_of
from herzla.contracts import get_contract
from herzla.contracts import herzeln as _herzeln
from herzla.contracts import herzerln as _herzerln
from herzla.contracts import herzla as _herzla
from herzla.contracts import kids as _kids
from herzla.contracts.base import Contract, LayoutContract
from herzla.sim.batch_bits import Bits, U, bits_of
from herzla.sim.batch_tricks import BitProfile, Groups, TrickPlay, TrickSetup, play_tricks
from herzla.sim.engine import BlockResult, DealSpec, counts_hearts
from herzla.sim.policies import AVOID, PROFILES, ROLE_PROFILES, sure_winners, top_ranks
from herzla.sim.reference import CONTRACT_CODES, record_of, spec_rules
from herzla.sim.streams import deal_keys, draw_words, move_uniforms

__all__ = ["DEFAULT_CHUNK", "bid_hands", "deal", "keep_memory", "play_block", "supported",
           "unsupported"]

#: hands per chunk: big enough to amortise numpy's per-call cost, small enough for the caches
DEFAULT_CHUNK = 16384
#: hands dealt at a time within a chunk (the random words of so many hands fit the L2 cache)
DEAL_CHUNK = 1024

#: the options the batch engine plays, per game (any value)
KNOWN_OPTIONS: dict[str, frozenset[str]] = {
    "herzla": frozenset({"heart_unit", "contract_stake", "rank_order", "contract_priority",
                         "heart_lead_ban_tricks", "heart_lead_ban_in_contracts", "no_void",
                         "stock_payout"}),
    "herzla-kids": frozenset({"heart_lead_ban_tricks", "target", "hands"}),
    "herzeln": frozenset({"dealer_rotation", "domino_suits", "domino_wrap"}),
    "herzerln": frozenset(),
}

_BUILTIN: frozenset[type[Contract]] = frozenset(
    (*_herzla.CONTRACTS, *_kids.CONTRACTS, *_herzeln.CONTRACTS, *_herzerln.CONTRACTS))


def _unsupported_rules(rules: Contract) -> str | None:
    cls = type(rules)
    if cls not in _BUILTIN:
        return f"the contract {rules.key()} ({cls.__module__}.{cls.__qualname__}), " \
               f"which is not built into herzla"
    known = KNOWN_OPTIONS.get(rules.game, frozenset())
    for opt in cls.options:
        value = rules.opts.get(opt.name, opt.default)
        if opt.name not in known and value != opt.default:
            return f"the option {opt.name}={value}"
    return None


def unsupported(spec: DealSpec) -> str | None:
    """Why the batch engine cannot play ``spec`` (naming the contract or option), or None."""
    rules, _ = spec_rules(spec)
    return _unsupported_rules(rules)


def supported(spec: DealSpec) -> bool:
    return unsupported(spec) is None


# -- dealing -------------------------------------------------------------------------------

def deal(bits: Bits, words: npt.NDArray[np.uint64], players: int, size: int) -> list[U]:
    """Each seat's cards (strength layout) for a chunk of hands, from the block's words (whose
    key words it overwrites)."""
    keys = deal_keys(words, bits.labels(), in_place=True)[:, :players * size]
    keys &= np.uint64(63)
    np.left_shift(np.uint64(1), keys, out=keys)
    one = np.array(keys.T, dtype=bits.dtype, order="C")  # one row per dealt position
    hands = []
    for s in range(players):
        acc = one[s * size] | one[s * size + 1]
        for i in range(2, size):
            acc |= one[s * size + i]
        hands.append(bits.to_strength(acc))
    return hands


def _deal_chunk(gen: np.random.Generator, bits: Bits, n: int, players: int, size: int,
                random: bool, layout: bool
                ) -> tuple[list[U], npt.NDArray[np.float64] | None]:
    """Draw and deal ``n`` hands, :data:`DEAL_CHUNK` at a time (the words stay in the cache).

    Returns each seat's cards and, for the random policy, the move uniforms as fractions (exact
    in float64 when multiplied by a move count): (moves, n), or (n, moves) for layout deals.
    """
    pack = len(bits.pack)
    moves = players * size
    hands = [np.empty(n, dtype=bits.dtype) for _ in range(players)]
    uniforms = None
    if random:
        uniforms = np.empty((n, moves) if layout else (moves, n), dtype=np.float64)
    for d0 in range(0, n, DEAL_CHUNK):
        d1 = min(n, d0 + DEAL_CHUNK)
        words = draw_words(gen, d1 - d0, pack, moves)
        if uniforms is not None:
            u = move_uniforms(words, pack, moves, copy=False)
            if layout:
                np.multiply(u, 2.0 ** -32, out=uniforms[d0:d1])
            else:
                np.multiply(u.T, 2.0 ** -32, out=uniforms[:, d0:d1])
        for s, h in enumerate(deal(bits, words, players, size)):
            hands[s][d0:d1] = h
    return hands, uniforms


def keep_memory() -> None:
    """Ask glibc to keep freed memory for reuse rather than give it back to the system.

    The batch engine frees and allocates the same large arrays chunk after chunk; returned
    memory comes back as fresh pages, one page fault each, which costs about a third of the
    run time.  This sets ``M_TRIM_THRESHOLD`` and ``M_MMAP_THRESHOLD`` for the whole process
    (its memory then stays at its peak), so the library never calls it on its own: the
    simulator's runner does, in its own processes, unless the environment sets
    ``HERZLA_KEEP_MEMORY=0``.  Elsewhere than glibc it does nothing.
    """
    global _KEPT
    if _KEPT:
        return
    _KEPT = True
    if sys.platform != "linux" or os.environ.get("HERZLA_KEEP_MEMORY", "1") == "0":
        return
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return
    mallopt(-1, 1 << 30)  # M_TRIM_THRESHOLD
    mallopt(-3, 1 << 26)  # M_MMAP_THRESHOLD


_KEPT = False


def _index_mask(bits: Bits, m: int) -> int:
    out = 0
    while m:
        low = m & -m
        out |= 1 << bits.card_at[low.bit_length() - 1]
        m ^= low
    return out


# -- herzla bidding ----------------------------------------------------------------------------

@functools.lru_cache(maxsize=16)
def _sure_tables(bits: Bits, rules: Contract) -> list[npt.NDArray[np.int64]]:
    """Per suit, the sure winners (:func:`sure_winners`) of each holding, by its bit field."""
    out = []
    for suit in Suit:
        base = suit * bits.stride
        table = np.zeros(bits.low_field + 1, dtype=np.int64)
        for v in range(bits.low_field + 1):
            table[v] = sure_winners(_index_mask(bits, (v << base) & bits.pack_mask), rules)
        out.append(table)
    return out


def bid_hands(bits: Bits, rules: Contract, hands: list[U], forehand: int
              ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """The bidding heuristic for each hand: contract codes (0 normal, 1 beddl, 2 mord) and the
    declarer seat (-1 for none)."""
    P = len(hands)
    C = len(hands[0])
    tops = top_ranks(rules)
    top_mask = bits.mask(c for c in rules.pack().cards if c.rank in tops)
    field = bits.low_field
    runs = _sure_tables(bits, rules)
    mord_first = np.full(C, -1, dtype=np.int64)
    beddl_first = np.full(C, -1, dtype=np.int64)
    any_first = np.full(C, -1, dtype=np.int64)
    any_code = np.zeros(C, dtype=np.int8)
    for i in range(P):
        seat = (forehand + i) % P
        h = hands[seat]
        beddl = (h & top_mask) == 0
        sure = np.zeros(C, dtype=np.int64)
        for s in range(4):
            sure += runs[s].take(((h >> (s * bits.stride)) & field).astype(np.intp))
        mord = (sure == np.bitwise_count(h)) & ~beddl  # every card a sure winner
        if i:  # after forehand: the first trick may be led in a suit the seat lacks
            for s in range(4):
                mord &= (h & bits.suit_mask[s]) != 0
        mord_first = np.where((mord_first < 0) & mord, seat, mord_first)
        beddl_first = np.where((beddl_first < 0) & beddl, seat, beddl_first)
        new = (any_first < 0) & (mord | beddl)
        any_first = np.where(new, seat, any_first)
        any_code = np.where(new, np.where(mord, 2, 1), any_code).astype(np.int8)
    if rules.opts.get("contract_priority") == "mord-over-beddl":
        code = np.where(mord_first >= 0, 2, np.where(beddl_first >= 0, 1, 0)).astype(np.int8)
        decl = np.where(mord_first >= 0, mord_first, beddl_first)
        return code, decl
    return any_code, any_first


# -- trick deals ---------------------------------------------------------------------------

def _profile_groups(bits: Bits, base: Contract, players: int,
                    code: npt.NDArray[np.int8] | None, decl: npt.NDArray[np.int64] | None
                    ) -> Callable[[list[U]], Groups]:
    key = base.key()
    if code is None:
        prof = BitProfile.of(PROFILES.get(key, AVOID), bits)
        fixed: Groups = [[(prof, None)] for _ in range(players)]
        return lambda seats: fixed
    assert decl is not None
    if key in ROLE_PROFILES:  # a fixed declarer's contract
        dp, fp = (BitProfile.of(p, bits) for p in ROLE_PROFILES[key])
        if dp == fp:
            same: Groups = [[(dp, None)] for _ in range(players)]
            return lambda seats: same

        def roles(seats: list[U]) -> Groups:
            out: Groups = []
            for p in range(players):
                is_decl = seats[p] == decl
                out.append([(fp, None), (dp, is_decl)])
            return out
        return roles
    normal = BitProfile.of(PROFILES["herzla/normal"], bits)
    roles_of = [tuple(BitProfile.of(p, bits) for p in ROLE_PROFILES[f"herzla/{name}"])
                for name in CONTRACT_CODES[1:]]
    present = [bool((code == k).any()) for k in range(3)]

    def bidding(seats: list[U]) -> Groups:
        out: Groups = []
        for p in range(players):
            groups: list[tuple[BitProfile, npt.NDArray[np.bool_] | None]] = []
            if present[0]:
                groups.append((normal, code == 0))
            is_decl = seats[p] == decl
            for k, (dp, fp) in enumerate(roles_of, start=1):
                if not present[k]:
                    continue
                if dp == fp:
                    groups.append((dp, code == k))
                else:
                    groups.append((dp, (code == k) & is_decl))
                    groups.append((fp, (code == k) & ~is_decl))
            groups[0] = (groups[0][0], None)
            out.append(groups)
        return out
    return bidding


_HEART_VALUES = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2}


def _card_values(rules: Contract) -> tuple[list[tuple[int, int]], int]:
    """(card set in the card index encoding, weight) pairs and the points per weight of a
    card-counting contract (weights are positive, so each seat's total fits a byte)."""
    key = rules.key()
    pack = rules.pack().mask
    if key == "herzeln/no-hearts":
        groups: dict[int, int] = {}
        for c in rules.pack().cards:
            if c.suit == Suit.H:
                v = _HEART_VALUES.get(c.rank, 1)
                groups[v] = groups.get(v, 0) | c.bit
        return [(m, v) for v, m in groups.items()], -1
    if key == "herzeln/no-queens":
        return [(mask_of(Card(s, Rank.QUEEN) for s in Suit) & pack, 1)], -20
    if key == "herzeln/king-of-hearts":
        return [(Card(Suit.H, Rank.KING).bit, 1)], -40
    if isinstance(rules, _herzerln._HerzerlnTricks) and key != "herzerln/tricks":
        return [(mask_of(rules.counted()) & pack, 1)], rules.penalty
    raise AssertionError(key)


def _score_tricks(rules: Contract, bits: Bits, play: TrickPlay, stock: int,
                  code: npt.NDArray[np.int8] | None, decl: npt.NDArray[np.int64] | None,
                  events: Counter[str]) -> tuple[npt.NDArray[np.int64],
                                                 npt.NDArray[np.int64] | None]:
    """(scores (P, C), stock after (C,) or None), counting the events."""
    P = rules.players
    T = rules.hand_size
    key = rules.key()
    C = play.cards.shape[1]
    hearts_mask = bits.mask_of_indices(HEARTS_MASK)
    if rules.game == "herzla":
        stake = int(rules.opts["contract_stake"])
        if code is None or decl is None:
            which = {"normal": 0, "beddl": 1, "mord": 2}[rules.id]
            code = np.full(C, which, dtype=np.int8)
            decl = np.full(C, -1 if rules.declarer is None else rules.declarer, dtype=np.int64)
        normal = code == 0
        if normal.all():
            return _score_normal(rules, play, hearts_mask, stock, normal, events)
        scores = np.zeros((P, C), dtype=np.int64)
        stock_after = np.full(C, stock, dtype=np.int64)
        if normal.any():
            ns, nst = _score_normal(rules, play, hearts_mask, stock, normal, events)
            scores[:, normal] = ns[:, normal]
            stock_after[normal] = nst[normal]
        declared = ~normal
        won_by_decl = (play.winners == decl).sum(axis=0)
        made = np.where(code == 1, won_by_decl == 0, won_by_decl == T)
        sign = np.where(made, 1, -1)
        for s in range(P):
            mine = np.where(decl == s, sign * stake * (P - 1), -sign * stake)
            scores[s, declared] = mine[declared]
        events["contract-made"] += int((made & declared).sum())
        events["contract-lost"] += int((~made & declared).sum())
        return scores, stock_after
    if rules.game == "herzla-kids":
        hearts = play.counts(hearts_mask, P)
        taken = hearts.sum(axis=0)
        events["all-hearts"] += int(((taken > 0) & (hearts.max(axis=0) == taken)).sum())
        return hearts, None
    per_trick = {"herzeln/every-trick": 10, "herzeln/no-tricks": -10, "herzerln/tricks": -1}
    if key in per_trick:
        return play.tricks_won(P) * per_trick[key], None
    last = {"herzeln/last-trick": 40, "herzeln/no-last-trick": -40}
    if key in last:
        lw = play.winners[T - 1]
        return np.stack([np.where(lw == s, last[key], 0) for s in range(P)]).astype(
            np.int64), None
    groups, points = _card_values(rules)
    if len(groups) == 1 and groups[0][1] == 1:  # one card per point: shared with the hearts
        return play.counts(bits.mask_of_indices(groups[0][0]), P) * points, None
    weight = np.zeros(play.cards.shape, dtype=np.uint8)
    for m, v in groups:
        weight += np.bitwise_count(play.cards & bits.mask_of_indices(m)) * np.uint8(v)
    return play.per_seat(weight, P) * points, None


def _score_normal(rules: Contract, play: TrickPlay, hearts_mask: int, stock: int,
                  which: npt.NDArray[np.bool_], events: Counter[str]
                  ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The normal game's settlement (RULES.md §1) of each hand, and its events where ``which``."""
    P = rules.players
    unit = int(rules.opts["heart_unit"])
    stake = int(rules.opts["contract_stake"])
    total = 8
    hearts = play.counts(hearts_mask, P)
    w = play.winners
    slam = (w == w[0]).all(axis=0)
    void = hearts == 0
    nv = void.sum(axis=0)
    # per number of void players: does every taker pay, what does a void player get, what
    # goes to the stock, and what share of the stock does a void player collect
    pay_stock = rules.opts["no_void"] == "pay-stock"
    payout = stock > 0 and rules.opts["stock_payout"] == "void"
    pays = np.array([pay_stock] + [True] * (P - 1), dtype=np.int64)
    share = np.array([0] + [total * unit // v for v in range(1, P - 1)] + [0], dtype=np.int64)
    to_stock = np.array([total * unit if pay_stock else 0] + [0] * (P - 2) + [total * unit],
                        dtype=np.int64)
    stock_share = np.array([0] + [stock // v if payout else 0 for v in range(1, P - 1)] + [0],
                           dtype=np.int64)
    scores = void * (share + stock_share).take(nv) - hearts * (unit * pays.take(nv))
    new_stock = stock + to_stock.take(nv) - stock_share.take(nv) * nv
    if slam.any():
        slam_seat = np.arange(P)[:, None] == w[0][None, :]
        scores = np.where(slam, np.where(slam_seat, stake * (P - 1), -stake), scores)
        new_stock = np.where(slam, stock, new_stock)
    live = which & ~slam
    counts = np.bincount(nv[live], minlength=P)
    events["schleichermord"] += int((which & slam).sum())
    events["no-void"] += int(counts[0])
    events["one-void"] += int(counts[1])
    events["two-void"] += int(counts[2:P - 1].sum())
    events["all-hearts"] += int(counts[P - 1])
    if payout:
        events["stock-paid"] += int(counts[1:P - 1].sum())
    return scores.astype(np.int64), new_stock.astype(np.int64)


def _trick_setup(rules: Contract, bits: Bits, dealer: int) -> TrickSetup:
    P = rules.players
    lead_ban = 0
    if rules.game in ("herzla", "herzla-kids"):
        lead_ban = int(rules.opts["heart_lead_ban_tricks"])
        if rules.needs_declarer and not rules.opts["heart_lead_ban_in_contracts"]:
            lead_ban = 0
    free = bool(getattr(rules, "heart_free_first_trick", False))
    return TrickSetup(bits, P, rules.hand_size, (dealer + 1) % P, lead_ban, free,
                      bits.mask_of_indices(HEARTS_MASK))


class _Chunk:
    """The results of one chunk (``scores`` and ``hearts``: hands x seats)."""

    def __init__(self, scores: npt.NDArray[np.int64], stock: npt.NDArray[np.int64] | None,
                 contracts: npt.NDArray[np.int8] | None, records: list[dict[str, Any]],
                 hearts: npt.NDArray[np.int64] | None = None) -> None:
        self.scores = scores
        self.stock = stock
        self.contracts = contracts
        self.records = records
        self.hearts = hearts


def _trick_chunk(spec: DealSpec, base: Contract, bid: bool, bits: Bits, hands: list[U],
                 uniforms: npt.NDArray[np.float64] | None, record: int,
                 events: Counter[str], cache: dict[tuple[str, int | None], Contract]
                 ) -> _Chunk:
    P = spec.players
    C = len(hands[0])
    forehand = (spec.dealer + 1) % P
    setup = _trick_setup(base, bits, spec.dealer)
    code: npt.NDArray[np.int8] | None = None
    decl: npt.NDArray[np.int64] | None = None
    lead_ban = None
    if bid:
        code, decl = bid_hands(bits, base, hands, forehand)
        if not base.opts["heart_lead_ban_in_contracts"]:
            lead_ban = code == 0
    elif base.needs_declarer:
        assert base.declarer is not None
        code = np.full(C, 1 if base.id == "beddl" else 2, dtype=np.int8)
        decl = np.full(C, base.declarer, dtype=np.int64)
    profiles = None
    if uniforms is None:
        profiles = _profile_groups(bits, base, P, code, decl)
    play = play_tricks(setup, hands, uniforms, profiles, lead_ban, record)
    scores, stock = _score_tricks(base, bits, play, spec.stock, code, decl, events)
    hearts = None
    if counts_hearts(base, bid):  # memoised: the normal game's scorer has counted them
        hearts = play.counts(bits.mask_of_indices(HEARTS_MASK), P)
    records = []
    for i in range(min(record, C)):
        rules = base
        if bid:
            assert code is not None and decl is not None
            name = CONTRACT_CODES[int(code[i])]
            d = int(decl[i]) if code[i] else None
            if (name, d) not in cache:
                cache[name, d] = get_contract("herzla", name)(P, spec.options, d)
            rules = cache[name, d]
        moves = P * setup.tricks
        if rules.needs_declarer:
            assert rules.declarer is not None
            w = play.winners[:, i]
            ended = w == rules.declarer if rules.id == "beddl" else w != rules.declarer
            if ended.any():
                moves = (int(np.argmax(ended)) + 1) * P
        plays = [str(bits.card_of_mask(int(play.plays[m][i]))) for m in range(moves)]
        masks = [_index_mask(bits, int(h[i])) for h in hands]
        records.append(record_of(rules, spec, masks, plays))
    return _Chunk(scores.T, stock, code if bid else None, records,
                  None if hearts is None else hearts.T)


# -- the block -----------------------------------------------------------------------------

def play_block(spec: DealSpec, seed: int, key: tuple[int, ...], n: int, records: int = 0,
               chunk: int = DEFAULT_CHUNK) -> BlockResult:
    """Play ``n`` hands of block ``key`` of ``seed``, ``chunk`` hands at a time.

    Raises ValueError naming the contract or option when the batch engine cannot play ``spec``.
    """
    from herzla.sim import batch_layout
    from herzla.sim.streams import block_generator

    base, bid = spec_rules(spec)
    reason = _unsupported_rules(base)
    if reason is not None:
        raise ValueError(f"the batch engine cannot play {reason}")
    if chunk < 1:
        raise ValueError("chunk must be at least 1")
    P = spec.players
    size = base.hand_size
    pack = base.pack()
    bits = bits_of(pack, base.rank_order())
    gen = block_generator(seed, key)
    scores = np.zeros((n, P), dtype=np.int64)
    stock_after = np.zeros(n, dtype=np.int64) if base.has_stock else None
    contracts = np.zeros(n, dtype=np.int8) if bid else None
    hearts = np.zeros((n, P), dtype=np.int64) if counts_hearts(base, bid) else None
    events: Counter[str] = Counter()
    out: list[dict[str, Any]] = []
    cache: dict[tuple[str, int | None], Contract] = {}
    layout = isinstance(base, LayoutContract)
    for c0 in range(0, n, chunk):
        size_c = min(chunk, n - c0)
        hands, uniforms = _deal_chunk(gen, bits, size_c, P, size, spec.policy == "random",
                                      layout)
        want = max(0, min(records - c0, size_c))
        if layout:
            assert isinstance(base, LayoutContract)
            lay_scores, lay_records = batch_layout.layout_chunk(spec, base, bits, hands,
                                                                uniforms, want)
            res = _Chunk(lay_scores, None, None, lay_records)
        else:
            res = _trick_chunk(spec, base, bid, bits, hands, uniforms, want, events, cache)
        scores[c0:c0 + size_c] = res.scores
        if stock_after is not None and res.stock is not None:
            stock_after[c0:c0 + size_c] = res.stock
        if contracts is not None and res.contracts is not None:
            contracts[c0:c0 + size_c] = res.contracts
        if hearts is not None and res.hearts is not None:
            hearts[c0:c0 + size_c] = res.hearts
        out.extend(res.records)
    ev = {k: v for k, v in events.items() if v}
    return BlockResult(scores, stock_after, ev, contracts, tuple(out), hearts)
