"""The numpy batch engine: many hands of one deal in lockstep, with the reference's results.

It plays every contract whose rules are declared in the vocabulary of
:mod:`herzla.contracts.vocabulary` (every contract of herzla's games, and plug-in contracts
written that way), with both policies and the bidding, and scores them with the contract's own
scorer (``settle``) applied to all the hands of a chunk at once.  Randomness comes from
:mod:`herzla.machinery.streams`, so a block gives the same hands, the same choices and the same
results as the reference engine (:mod:`herzla.sim.reference`), whatever the chunk size.

Hands are processed in chunks of ``chunk`` hands; loops run over tricks, positions and moves,
never over hands.  Card sets are bit sets in a strength layout (:mod:`herzla.sim.batch_bits`);
the trick play is :mod:`herzla.sim.batch_tricks`, the domino and Auflegen
:mod:`herzla.sim.batch_layout`.  A Beddl or Mord hand that ends early plays on in lockstep, but
its result is fixed by then (the declarer has won a trick, or a defender has), and its record
stops where the hand ended.  The sample records carry every card played (with the end mark of a
domino card that fits both ends), and replay to the same scores.

A contract that writes a hook of its own in Python (``banned``, ``ends_early``, ``counts`` or
``score``) is declined with the reason (:func:`unsupported`); :func:`herzla.sim.engine.play_block`
then plays it on the reference engine.

>>> from herzla.sim.spec import DealSpec
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
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import numpy.typing as npt

from herzla.cards import HEARTS_MASK, Suit
from herzla.contracts import (
    Contract,
    Counts,
    LayoutContract,
    TrickContract,
    TrickRules,
    contract_class,
    game_of,
)
from herzla.contracts.vocabulary import early_end_reached
from herzla.machinery.streams import deal_keys, draw_words, move_uniforms
from herzla.players.heuristic import sure_winners, trick_profile
from herzla.players.registry import seat_policies
from herzla.sim.batch_bits import Bits, U, bits_of
from herzla.sim.batch_forms import batch_form_of
from herzla.sim.batch_tricks import (
    BitProfile,
    Groups,
    TrickPlay,
    TrickSetup,
    per_seat,
    play_tricks,
)
from herzla.sim.spec import BlockResult, DealSpec, counts_hearts, record_of, spec_contract

if TYPE_CHECKING:
    from herzla.sim.batch_forms import BatchForm

__all__ = ["DEFAULT_CHUNK", "batch_forms", "bid_hands", "deal", "keep_memory", "play_block",
           "play_blocks", "supported", "unsupported"]

#: hands per chunk: big enough to amortise numpy's per-call cost, small enough for the caches
DEFAULT_CHUNK = 16384
#: hands dealt at a time within a chunk (the random words of so many hands fit the L2 cache)
DEAL_CHUNK = 2048

def _unsupported_contract(contract: Contract) -> str | None:
    cls = type(contract)
    if not isinstance(contract, LayoutContract | TrickContract):
        return f"the contract {contract.key()}, which is neither a trick nor a layout deal"
    for hook in cls.own_hooks():
        return (f"the contract {contract.key()} ({cls.__module__}.{cls.__qualname__}), "
                f"whose {hook}() is Python of its own rather than a declaration")
    try:
        bits = bits_of(contract.pack(), contract.rank_order())
        if isinstance(contract, LayoutContract):
            from herzla.sim.batch_layout import LayoutSetup

            LayoutSetup.of(contract, bits)
    except ValueError as exc:
        return f"the contract {contract.key()}: {exc}"
    if isinstance(contract, TrickContract):
        if contract.declaration.early_end is not None and contract.declarer is None:
            return f"the contract {contract.key()}: an early end needs a declarer"
        if contract.hand_size > 255 // 4:
            return f"the contract {contract.key()}: hands of {contract.hand_size} cards"
    return None


def batch_forms(spec: DealSpec) -> tuple[BatchForm, ...] | None:
    """Each seat's batch form, or None when some seat's policy has none."""
    forms = []
    for policy in seat_policies(spec.policy, spec.players):
        form = batch_form_of(policy)
        if form is None:
            return None
        forms.append(form)
    return tuple(forms)


def unsupported(spec: DealSpec) -> str | None:
    """Why the batch engine cannot play ``spec`` (naming the contract and the hook, or the
    policy without a batch form), or None."""
    base, bid = spec_contract(spec)
    for policy in seat_policies(spec.policy, spec.players):
        if batch_form_of(policy) is None:
            return f"the policy {policy.spec()}, which has no batch form"
    for contract in _bidding_contracts(base) if bid else [base]:
        reason = _unsupported_contract(contract)
        if reason is not None:
            return reason
    return None


def supported(spec: DealSpec) -> bool:
    return unsupported(spec) is None


def _bidding_contracts(base: Contract) -> list[Contract]:
    """With bidding: a contract per code of the game's ``bidding`` (declared by seat 0)."""
    game = game_of(base)
    out = []
    for contract_id in game.bidding:
        cls = contract_class(game.id, contract_id)
        out.append(cls(base.players, base.opts, 0 if cls.needs_declarer else None))
    return out


# -- dealing -------------------------------------------------------------------------------

def deal(bits: Bits, words: npt.NDArray[np.uint64], players: int, size: int) -> list[U]:
    """Each seat's cards (strength layout) for a chunk of hands, from the block's words."""
    keys = deal_keys(words, bits.labels())[:, :players * size]  # a contiguous copy sorts faster
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


# -- the bidding -------------------------------------------------------------------------------

@functools.lru_cache(maxsize=16)
def _sure_tables(bits: Bits, contract: Contract) -> list[npt.NDArray[np.int64]]:
    """Per suit, the sure winners (:func:`sure_winners`) of each holding, by its bit field."""
    out = []
    for suit in Suit:
        base = suit * bits.stride
        table = np.zeros(bits.low_field + 1, dtype=np.int64)
        for v in range(bits.low_field + 1):
            table[v] = sure_winners(bits.index_mask_of((v << base) & bits.pack_mask), contract)
        out.append(table)
    return out


def bid_hands(bits: Bits, base: Contract, hands: list[U], forehand: int,
              forms: Sequence[BatchForm] | None = None
              ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """Each seat's announcement (its policy's batch form; default the bidding heuristic,
    :func:`herzla.players.heuristic.announce`), settled by the game's ``resolve_bids``:
    contract codes and the declarer seat (-1 for none)."""
    from herzla.sim.batch_forms import heuristic_wants

    P = len(hands)
    game = game_of(base)
    tables = _sure_tables(bits, base)
    wants = []
    for i in range(P):
        seat = (forehand + i) % P
        h = hands[seat]
        if forms is None:
            wants.append(heuristic_wants(bits, base, h, i == 0, tables))
        else:
            wants.append(forms[seat].wants(bits, base, h, i == 0, tables))
    code, turn = game.resolve_bids(wants, base.opts)
    decl = np.where(turn >= 0, (forehand + turn) % P, -1)
    return code, decl


# -- trick deals ---------------------------------------------------------------------------

def _profile_groups(bits: Bits, by_code: Sequence[Contract], players: int,
                    code: npt.NDArray[np.int8] | None, decl: npt.NDArray[np.int64] | None
                    ) -> Callable[[list[U]], Groups]:
    """The heuristic's profiles (read from each contract's declaration) and the hands that use
    them, at each position of a trick whose seats are ``seats``."""
    def roles(contract: Contract) -> tuple[BitProfile, BitProfile]:
        d = 0 if contract.declarer is None else contract.declarer
        other = (d + 1) % players
        return (BitProfile.of(trick_profile(contract, d), bits),
                BitProfile.of(trick_profile(contract, other), bits))

    if code is None:
        dp, fp = roles(by_code[0])
        if dp == fp:
            fixed: Groups = [[(dp, None)] for _ in range(players)]
            return lambda seats: fixed
        seat = by_code[0].declarer

        def one(seats: list[U]) -> Groups:
            return [[(fp, None), (dp, seats[p] == seat)] for p in range(players)]
        return one
    assert decl is not None
    # each contract bid: its hands (once per chunk, not per trick and position), its profiles
    present: list[tuple[npt.NDArray[np.bool_], BitProfile, BitProfile]] = []
    for k, contract in enumerate(by_code):
        chosen = code == k
        if chosen.any():
            present.append((chosen, *roles(contract)))

    def bidding(seats: list[U]) -> Groups:
        out: Groups = []
        for p in range(players):
            groups: list[tuple[BitProfile, npt.NDArray[np.bool_] | None]] = []
            is_decl = seats[p] == decl
            for chosen, dp, fp in present:
                if dp == fp:
                    groups.append((dp, chosen))
                else:
                    groups.append((dp, chosen & is_decl))
                    groups.append((fp, chosen & ~is_decl))
            groups[0] = (groups[0][0], None)
            out.append(groups)
        return out
    return bidding


def _trick_setup(by_code: Sequence[Contract], bits: Bits, dealer: int,
                 code: npt.NDArray[np.int8] | None) -> TrickSetup:
    """The trick loop's view of the contracts' lead bans: per trick, the cards a lead (and a
    discard) may be chosen from while the seat holds any, for all hands or per hand."""
    base = by_code[0]
    P = base.players
    T = base.hand_size
    full = bits.full

    def keep(t: int, leading: bool) -> U | int | None:
        masks = []
        for c in by_code:
            d = c.declaration
            assert isinstance(d, TrickRules)
            ban = d.banned(t, leading)
            masks.append(full if ban is None else full ^ bits.mask_of_indices(ban[0]))
        if all(m == full for m in masks):
            return None
        if code is None or len(set(masks)) == 1:
            return masks[0]
        return np.array(masks, dtype=bits.dtype).take(code)

    lead = tuple(keep(t, True) for t in range(T))
    discard = tuple(keep(t, False) for t in range(T))
    return TrickSetup(bits, P, T, (dealer + 1) % P, lead, discard)


class _PlayCounts:
    """The counts of a chunk's play for one contract, over some of its hands (``cols``), each
    computed when the contract's scorer first reads it.  Tricks after an early end do not
    count."""

    def __init__(self, contract: Contract, bits: Bits, play: TrickPlay,
                 cols: npt.NDArray[np.intp] | None) -> None:
        self.contract = contract
        self.bits = bits
        self.play = play
        self.cols = cols
        self.P = contract.players
        #: the winner seats of these hands' tricks (taken once)
        self.winners = play.winners if cols is None else play.winners[:, cols]
        d = contract.declaration
        assert isinstance(d, TrickRules)
        self.alive: npt.NDArray[np.bool_] | None = None
        self.reached: npt.NDArray[np.bool_] | None = None
        if d.early_end is not None:
            assert contract.declarer is not None
            self.reached = early_end_reached(d.early_end, self.winners, contract.declarer)
            alive = np.ones_like(self.reached)
            alive[1:] = ~self.reached[:-1]
            self.alive = alive

    @functools.cached_property
    def lanes(self) -> npt.NDArray[np.uint64]:
        """The winners' 8-bit lanes (:func:`herzla.sim.batch_tricks.lanes_of`), taken once."""
        lanes = self.play.lanes()
        return lanes if self.cols is None else lanes[:, self.cols]

    def _cols(self, a: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return a if self.cols is None else a[:, self.cols]

    def _sum(self, values: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
        if self.alive is not None:
            values = values * self.alive
        return per_seat(values, self.winners, self.P, self.lanes)

    def tricks(self) -> npt.NDArray[np.int64]:
        if self.alive is None and self.cols is None:
            out: npt.NDArray[np.int64] = self.play.tricks_won(self.P)
            return out
        return self._sum(np.ones(self.winners.shape, dtype=np.uint8))

    def cards(self, cards: int) -> npt.NDArray[np.int64]:
        mask = self.bits.mask_of_indices(cards)
        if self.alive is None and self.cols is None:
            out: npt.NDArray[np.int64] = self.play.counts(mask, self.P)
            return out
        return self._sum(np.bitwise_count(self._cols(self.play.cards) & mask))

    def last(self) -> npt.NDArray[np.int64]:
        winners: npt.NDArray[np.int64] = self.winners.astype(np.int64)
        last = np.full(winners.shape[1], winners.shape[0] - 1)
        if self.alive is not None:
            last -= np.argmax(self.alive[::-1], axis=0)
        out: npt.NDArray[np.int64] = np.take_along_axis(winners, last[None, :], axis=0)[0]
        return out

    def ended(self) -> npt.NDArray[np.bool_]:
        if self.reached is None:
            return np.zeros(self.winners.shape[1], dtype=np.bool_)
        out: npt.NDArray[np.bool_] = self.reached[-1]
        return out

    def moves(self, i: int) -> int:
        """How many cards hand ``i`` (of these columns) played before it ended."""
        T: int = self.play.winners.shape[0]
        if self.alive is None:
            return T * self.P
        return int(self.alive[:, i].sum()) * self.P


def _settle(contract: Contract, bits: Bits, play: TrickPlay, stock: int,
            cols: npt.NDArray[np.intp] | None, events: Counter[str]
            ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64] | None, _PlayCounts]:
    """The contract's settlement of some hands: (scores (P, n), stock after or None), counting
    the events."""
    source = _PlayCounts(contract, bits, play, cols)
    n = play.winners.shape[1] if cols is None else len(cols)
    settled = contract.settle(Counts(contract.players, n, source=source), stock)
    for name, hit in settled.events.items():
        events[name] += int(np.count_nonzero(hit))
    return settled.scores, settled.stock, source


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
                 events: Counter[str], cache: dict[tuple[int, int], Contract],
                 forms: Sequence[BatchForm]) -> _Chunk:
    P = spec.players
    C = len(hands[0])
    forehand = (spec.dealer + 1) % P
    code: npt.NDArray[np.int8] | None = None
    decl: npt.NDArray[np.int64] | None = None
    by_code = _bidding_contracts(base) if bid else [base]
    if bid:
        code, decl = bid_hands(bits, base, hands, forehand, forms)
    elif base.declarer is not None:
        decl = np.full(C, base.declarer, dtype=np.int64)
    setup = _trick_setup(by_code, bits, spec.dealer, code)
    profiles = None
    if any(f.profiles for f in forms):
        profiles = _profile_groups(bits, by_code, P, code, decl)
    play = play_tricks(setup, hands, uniforms, profiles, record, forms)
    sources: dict[tuple[int, int], tuple[_PlayCounts, npt.NDArray[np.intp] | None]] = {}
    if code is None:
        scores, stock, src = _settle(base, bits, play, spec.stock, None, events)
        sources[0, -1] = (src, None)
    else:
        assert decl is not None
        scores = np.zeros((P, C), dtype=np.int64)
        stock = np.full(C, spec.stock, dtype=np.int64) if base.has_stock else None
        for k, cls_contract in enumerate(by_code):
            for d in ([-1] if cls_contract.declarer is None else range(P)):
                cols = np.flatnonzero((code == k) & (decl == d))
                if not len(cols):
                    continue
                if (k, d) not in cache:
                    cache[k, d] = type(cls_contract)(P, spec.options, None if d < 0 else d)
                sc, st, src = _settle(cache[k, d], bits, play, spec.stock, cols, events)
                scores[:, cols] = sc
                if stock is not None and st is not None:
                    stock[cols] = st
                sources[k, d] = (src, cols)
    hearts = None
    if counts_hearts(base, bid):  # memoised: a scorer counting hearts has counted them
        hearts = play.counts(bits.mask_of_indices(HEARTS_MASK), P)
    records = []
    for i in range(min(record, C)):
        k = 0 if code is None else int(code[i])
        d = -1 if decl is None or (code is not None and not code[i]) else int(decl[i])
        key = (0, -1) if code is None else (k, d)
        contract = base if code is None else cache[key]
        src, where = sources[key]
        j = i if where is None else int(np.searchsorted(where, i))
        plays = [str(bits.card_of_mask(int(play.plays[m][i]))) for m in range(src.moves(j))]
        masks = [bits.index_mask_of(int(h[i])) for h in hands]
        records.append(record_of(contract, spec, masks, plays))
    return _Chunk(scores.T, stock, code if bid else None, records,
                  None if hearts is None else hearts.T)


# -- the block -----------------------------------------------------------------------------

def play_block(spec: DealSpec, seed: int, key: tuple[int, ...], n: int, records: int = 0,
               chunk: int = DEFAULT_CHUNK, checked: bool = False) -> BlockResult:
    """Play ``n`` hands of block ``key`` of ``seed``, ``chunk`` hands at a time.

    Raises ValueError naming the contract and hook when the batch engine cannot play ``spec``
    (``checked``: the caller has just asked :func:`unsupported`).
    """
    return play_blocks((spec,), seed, key, n, records, chunk, checked)[0]


def play_blocks(specs: Sequence[DealSpec], seed: int, key: tuple[int, ...], n: int,
                records: int = 0, chunk: int = DEFAULT_CHUNK, checked: bool = False
                ) -> list[BlockResult]:
    """:func:`play_block` for each of ``specs``, which differ in their policies only (the
    seatings of a match): the same hands, dealt once per chunk and played by each spec's
    seats in turn.  Each answer is the one :func:`play_block` gives for its spec alone.
    """
    from herzla.machinery.streams import block_generator
    from herzla.sim import batch_layout

    if not specs:
        return []
    first = specs[0]
    for spec in specs[1:]:
        if attrs.evolve(spec, policy=first.policy) != first:
            raise ValueError("the specs of one block differ in more than their policies")
    reasons = [None if checked else unsupported(spec) for spec in specs]
    for reason in reasons:
        if reason is not None:
            raise ValueError(f"the batch engine cannot play {reason}")
    if chunk < 1:
        raise ValueError("chunk must be at least 1")
    base, bid = spec_contract(first)
    P = first.players
    size = base.hand_size
    pack = base.pack()
    bits = bits_of(pack, base.rank_order())
    gen = block_generator(seed, key)
    layout = isinstance(base, LayoutContract)
    all_forms = []
    for spec in specs:
        forms = batch_forms(spec)
        if forms is None:
            raise ValueError(f"the batch engine cannot play {unsupported(spec)}")
        all_forms.append(forms)
    wants_u = [any(f.uniforms for f in forms) for forms in all_forms]
    plays = [_BlockPlay(spec, base, bid, n) for spec in specs]
    for c0 in range(0, n, chunk):
        size_c = min(chunk, n - c0)
        hands, uniforms = _deal_chunk(gen, bits, size_c, P, size, any(wants_u), layout)
        want = max(0, min(records - c0, size_c))
        for block, forms, u in zip(plays, all_forms, wants_u, strict=True):
            if layout:
                assert isinstance(base, LayoutContract)
                lay_scores, lay_records = batch_layout.layout_chunk(
                    block.spec, base, bits, hands, uniforms if u else None, want, forms)
                res = _Chunk(lay_scores, None, None, lay_records)
            else:
                res = _trick_chunk(block.spec, base, bid, bits, hands, uniforms if u else None,
                                   want, block.events, block.cache, forms)
            block.add(c0, size_c, res)
    return [block.result() for block in plays]


class _BlockPlay:
    """One spec's results over a block, chunk by chunk: seats x hands, as the chunks and the
    tallies hold them (the hands x seats answers are their transposed views, so no copy
    transposes them back and forth)."""

    def __init__(self, spec: DealSpec, base: Contract, bid: bool, n: int) -> None:
        P = spec.players
        self.spec = spec
        self.scores = np.zeros((P, n), dtype=np.int64)
        self.stock_after = np.zeros(n, dtype=np.int64) if base.has_stock else None
        self.contracts = np.zeros(n, dtype=np.int8) if bid else None
        self.hearts = np.zeros((P, n), dtype=np.int64) if counts_hearts(base, bid) else None
        self.events: Counter[str] = Counter()
        self.records: list[dict[str, Any]] = []
        self.cache: dict[tuple[int, int], Contract] = {}

    def add(self, c0: int, size: int, res: _Chunk) -> None:
        self.scores[:, c0:c0 + size] = res.scores.T
        if self.stock_after is not None and res.stock is not None:
            self.stock_after[c0:c0 + size] = res.stock
        if self.contracts is not None and res.contracts is not None:
            self.contracts[c0:c0 + size] = res.contracts
        if self.hearts is not None and res.hearts is not None:
            self.hearts[:, c0:c0 + size] = res.hearts.T
        self.records.extend(res.records)

    def result(self) -> BlockResult:
        ev = {k: v for k, v in self.events.items() if v}
        return BlockResult(self.scores.T, self.stock_after, ev, self.contracts,
                           tuple(self.records), None if self.hearts is None else self.hearts.T)
