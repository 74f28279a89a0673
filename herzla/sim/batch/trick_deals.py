"""A chunk of trick deals in the batch engine: the bidding, the play
(:mod:`herzla.sim.batch.tricks`), the contract's settlement (``settle``, fed the counts of the
play) and the sample hands' records."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from herzla.cards import HEARTS_MASK
from herzla.contracts import Contract, Counts
from herzla.contracts.vocabulary import Stock, early_end_reached, stock_per_hand, trick_rules
from herzla.players.heuristic import trick_profile
from herzla.sim.batch.bidding import bid_hands, bidding_contracts
from herzla.sim.batch.bits import Bits, U
from herzla.sim.batch.form import BatchForm
from herzla.sim.batch.profiles import BitProfile, Groups
from herzla.sim.batch.tricks import ChunkPlay, TrickSetup, per_seat, play_tricks
from herzla.sim.spec import DealSpec, counts_hearts, sample_record

__all__ = ["ChunkScores", "trick_chunk"]

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
            d = trick_rules(c)
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

    def __init__(self, contract: Contract, bits: Bits, play: ChunkPlay,
                 cols: npt.NDArray[np.intp] | None) -> None:
        self.contract = contract
        self.bits = bits
        self.play = play
        self.cols = cols
        self.P = contract.players
        #: the winner seats of these hands' tricks (taken once)
        self.winners = play.winners if cols is None else play.winners[:, cols]
        d = trick_rules(contract)
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
        """The winners' 8-bit lanes (:func:`herzla.sim.batch.tricks.lanes_of`), taken once."""
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


def _settle(contract: Contract, bits: Bits, play: ChunkPlay, stock: Stock,
            cols: npt.NDArray[np.intp] | None, events: Counter[str],
            hits: dict[str, npt.NDArray[np.bool_]]
            ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64] | None, _PlayCounts]:
    """The contract's settlement of some hands: (scores (P, n), stock after or None), counting
    the events, and marking in ``hits`` (per event, every hand of the chunk) the hands each
    happened in.  ``stock``: the stock before them all, or before each of them."""
    source = _PlayCounts(contract, bits, play, cols)
    C = play.winners.shape[1]
    n = C if cols is None else len(cols)
    settled = contract.settle(Counts(contract.players, n, source=source), stock)
    for name, hit in settled.events.items():
        count = int(np.count_nonzero(hit))
        events[name] += count
        if count:
            if name not in hits:
                hits[name] = np.zeros(C, dtype=np.bool_)
            if cols is None:
                hits[name] |= np.broadcast_to(hit, (C,))
            else:
                hits[name][cols] |= np.broadcast_to(hit, (n,))
    return settled.scores, settled.stock, source


class ChunkScores:
    """The results of one chunk (``scores`` and ``hearts``: hands x seats)."""

    def __init__(self, scores: npt.NDArray[np.int64], stock: npt.NDArray[np.int64] | None,
                 contracts: npt.NDArray[np.int8] | None, records: list[dict[str, Any]],
                 hearts: npt.NDArray[np.int64] | None = None,
                 hits: dict[str, npt.NDArray[np.bool_]] | None = None,
                 declarers: npt.NDArray[np.int8] | None = None) -> None:
        self.scores = scores
        self.stock = stock
        self.contracts = contracts
        self.records = records
        self.hearts = hearts
        self.hits = hits or {}  # per event, the hands it happened in
        self.declarers = declarers  # with bidding: each hand's declarer, -1 for none


def trick_chunk(spec: DealSpec, base: Contract, bid: bool, bits: Bits, hands: list[U],
                 uniforms: npt.NDArray[np.float64] | None, record: int,
                 events: Counter[str], cache: dict[tuple[int, int], Contract],
                 forms: Sequence[BatchForm],
                 stock_before: npt.NDArray[np.int64] | None = None) -> ChunkScores:
    """Play and settle a chunk of trick deals; ``stock_before``: the stock before each hand,
    where each has its own (else the spec's for all)."""
    P = spec.players
    before: Stock = spec.stock if stock_before is None else stock_before
    C = len(hands[0])
    forehand = (spec.dealer + 1) % P
    code: npt.NDArray[np.int8] | None = None
    decl: npt.NDArray[np.int64] | None = None
    by_code = bidding_contracts(base) if bid else (base,)
    if bid:
        code, decl = bid_hands(bits, base, hands, forehand, forms)
    elif base.declarer is not None:
        decl = np.full(C, base.declarer, dtype=np.int64)
    setup = _trick_setup(by_code, bits, spec.dealer, code)
    profiles = None
    if any(f.profiles for f in forms):
        profiles = _profile_groups(bits, by_code, P, code, decl)
    play = play_tricks(setup, hands, uniforms, profiles, record, forms, (by_code, code, decl))
    sources: dict[tuple[int, int], tuple[_PlayCounts, npt.NDArray[np.intp] | None]] = {}
    hits: dict[str, npt.NDArray[np.bool_]] = {}
    declarers = None
    if code is None:
        scores, stock, src = _settle(base, bits, play, before, None, events, hits)
        sources[0, -1] = (src, None)
    else:
        assert decl is not None
        declarers = np.full(C, -1, dtype=np.int8)
        scores = np.zeros((P, C), dtype=np.int64)
        stock = stock_per_hand(before, C) if base.has_stock else None
        for k, cls_contract in enumerate(by_code):
            for d in ([-1] if cls_contract.declarer is None else range(P)):
                cols = np.flatnonzero((code == k) & (decl == d))
                if not len(cols):
                    continue
                if (k, d) not in cache:
                    cache[k, d] = type(cls_contract)(P, spec.options, None if d < 0 else d)
                part = before if stock_before is None else stock_before[cols]
                sc, st, src = _settle(cache[k, d], bits, play, part, cols, events, hits)
                scores[:, cols] = sc
                declarers[cols] = d
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
        records.append(sample_record(contract, spec, masks, plays,
                                 None if stock_before is None else int(stock_before[i])))
    return ChunkScores(scores.T, stock, code if bid else None, records,
                       None if hearts is None else hearts.T, hits, declarers)
