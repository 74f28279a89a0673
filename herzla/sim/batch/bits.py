"""Bit layouts and vector primitives of the numpy batch engine.

The batch engine keeps card sets as unsigned integers, one per hand, in a *strength layout*: each
suit takes ``stride`` consecutive bits, and within a suit a card's bit position is its strength in
the contract's rank order (less the weakest rank of the pack).  So "higher card" is "higher bit"
whatever the rank order, a suit is a contiguous bit field, and a 32-card pack fits ``uint32``
(the 36-card pack takes ``uint64``).  The *index layout* has the same fields with the ranks in
natural order; it orders cards like their card indices, which the random policy needs.

>>> from herzla.cards import ACE_TEN, PACK_32
>>> bits = Bits(PACK_32, ACE_TEN)
>>> bits.stride, bits.dtype.__name__
(8, 'uint32')
>>> [bits.card_of_bit(b).code for b in (0, 3, 6, 7)]
['C7', 'CJ', 'CT', 'CA']
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from herzla.cards import ALL_MASK, Card, Pack, RankOrder, cards_of

__all__ = ["Bits", "U", "bits_of", "highest_bit", "kth_bit", "lowest_bit", "ones"]

#: card sets of many hands (unsigned integers; the stubs cannot follow unsigned arithmetic)
U = npt.NDArray[Any]
_EXP_MASK = np.uint64(0xFFF0_0000_0000_0000)


class Bits:
    """The strength layout of a pack under a rank order, with its tables and masks."""

    def __init__(self, pack: Pack, order: RankOrder) -> None:
        self.pack = pack
        self.order = order
        self._labels: npt.NDArray[np.uint64] | None = None
        self._tables: tuple[U, ...] | None = None
        st = order.strength
        cards = pack.cards
        ranks = sorted({c.rank for c in cards})
        self.offset = min(int(r) for r in ranks)
        self.stride = max(int(r) for r in ranks) - self.offset + 1
        if any(st[r] < self.offset for r in ranks):
            raise ValueError("the rank order must keep the weakest rank of the pack lowest")
        self.width = 4 * self.stride
        self.dtype: type[np.unsignedinteger] = np.uint32 if self.width <= 32 else np.uint64
        self.full = (1 << self.width) - 1
        #: bit position of each card index (strength layout), -1 outside the pack
        self.pos = [-1] * 36
        #: bit position of each card index in the index layout
        self.ipos = [-1] * 36
        for c in cards:
            self.pos[c.index] = int(c.suit) * self.stride + st[c.rank] - self.offset
            self.ipos[c.index] = int(c.suit) * self.stride + int(c.rank) - self.offset
        self.card_at = [-1] * self.width
        for i, p in enumerate(self.pos):
            if p >= 0:
                self.card_at[p] = i
        self.pack_mask = self.mask(cards)
        self.suit_mask = tuple(((1 << self.stride) - 1) << (s * self.stride) for s in range(4))
        self.rep = sum(1 << (s * self.stride) for s in range(4))
        self.low_field = (1 << self.stride) - 1
        # index layout <-> strength layout: groups of bits moved by the same distance
        shifts: dict[int, int] = {}
        for c in cards:
            d = self.ipos[c.index] - self.pos[c.index]
            shifts[d] = shifts.get(d, 0) | 1 << self.pos[c.index]
        self.natural = set(shifts) <= {0}
        self._to_index = tuple(sorted(shifts.items()))
        self._to_strength = tuple(sorted(
            (-d, _move(m, d)) for d, m in shifts.items()))
        # suit mask of a single bit, indexed by its float64 exponent
        self.suit_by_exp = np.zeros(1024 + self.width, dtype=self.dtype)
        for p in range(self.width):
            self.suit_by_exp[1023 + p] = self.suit_mask[p // self.stride]

    # -- scalar conversions ---------------------------------------------------------------
    def mask(self, cards: Iterable[Card]) -> int:
        """The strength-layout bit set of some cards."""
        m = 0
        for c in cards:
            p = self.pos[c.index]
            if p >= 0:
                m |= 1 << p
        return m

    def mask_of_indices(self, card_mask: int) -> int:
        """Convert a bit set in the card index encoding to the strength layout."""
        return self.mask(cards_of(card_mask))

    def masks_of_indices(self, card_masks: Iterable[int]) -> U:
        """:meth:`mask_of_indices` of many bit sets at once, as an array of :attr:`dtype` (a
        table for each byte of the card index encoding: no loop over the cards)."""
        m = np.fromiter(card_masks, dtype=np.uint64)
        out = np.zeros(len(m), dtype=self.dtype)
        for k, table in enumerate(self._byte_tables()):
            out |= table[(m >> np.uint64(8 * k)) & np.uint64(0xFF)]
        return out

    def _byte_tables(self) -> tuple[U, ...]:
        # for each byte k of a 36-bit card index mask, the strength layout of its 256 values
        if self._tables is None:
            self._tables = tuple(np.array([self.mask_of_indices(v << (8 * k) & ALL_MASK)
                                           for v in range(256)], dtype=self.dtype)
                                 for k in range(5))
        return self._tables

    def index_mask_of(self, m: int) -> int:
        """Convert a bit set in the strength layout to the card index encoding (the inverse of
        :meth:`mask_of_indices`)."""
        out = 0
        while m:
            low = m & -m
            out |= 1 << self.card_at[low.bit_length() - 1]
            m ^= low
        return out

    def card_of_bit(self, p: int) -> Card:
        return Card.from_index(self.card_at[p])

    def card_of_mask(self, bit: int) -> Card:
        return self.card_of_bit(bit.bit_length() - 1)

    def labels(self) -> npt.NDArray[np.uint64]:
        """The deal labels of the pack's cards (index layout positions, in card index order);
        computed once, read-only."""
        if self._labels is None:
            labels = np.array([self.ipos[c.index] for c in self.pack.cards], dtype=np.uint64)
            labels.flags.writeable = False
            self._labels = labels
        return self._labels

    # -- vector conversions ---------------------------------------------------------------
    def to_index(self, x: U) -> U:
        if self.natural:
            return x
        return _apply(x, self._to_index)

    def to_strength(self, x: U) -> U:
        if self.natural:
            return x
        return _apply(x, self._to_strength)

    def suit_of(self, b: U) -> U:
        """The suit mask of each single bit ``b`` (nonzero)."""
        e = (b.astype(np.float64).view(np.uint64) >> np.uint64(52)).astype(np.intp)
        return self.suit_by_exp.take(e, mode="clip")

    def fold(self, x: U) -> U:
        """Each hand's ranks held in any suit, as a bit field in the lowest suit's place."""
        s = self.stride
        f: U = x | (x >> s)
        f |= f >> (2 * s)
        f &= self.low_field
        return f

    def highest(self, x: U) -> U:
        """The highest card of each set (lowest suit on a tie); 0 for an empty set."""
        r = highest_bit(self.fold(x), self.dtype)
        r *= self.dtype(self.rep)
        r &= x
        return lowest_bit(r)

    def lowest(self, x: U) -> U:
        """The lowest card of each set (lowest suit on a tie); 0 for an empty set."""
        r = lowest_bit(self.fold(x))
        r *= self.dtype(self.rep)
        r &= x
        return lowest_bit(r)


@functools.lru_cache(maxsize=64)
def bits_of(pack: Pack, order: RankOrder) -> Bits:
    """The (shared, cached) strength layout of a pack under a rank order."""
    return Bits(pack, order)


def _move(m: int, d: int) -> int:
    return m << d if d >= 0 else m >> -d


def _apply(x: U, groups: tuple[tuple[int, int], ...]) -> U:
    out: U | None = None
    for d, m in groups:
        part = x & m
        if d > 0:
            part <<= d
        elif d < 0:
            part >>= -d
        if out is None:
            out = part
        else:
            out |= part
    assert out is not None
    return out


def lowest_bit(x: U) -> U:
    """The lowest set bit of each element (0 for 0)."""
    out: U = x & np.negative(x)
    return out


def highest_bit(x: U, dtype: type[np.unsignedinteger]) -> U:
    """The highest set bit of each element (0 for 0); exact below 2**53."""
    f = x.astype(np.float64)
    f.view(np.uint64)[...] &= _EXP_MASK
    return f.astype(dtype)


def kth_bit(x: U, k: U, kmax: int) -> U:
    """The ``k``-th lowest set bit (from 0) of each element; ``k`` (uint8 is fastest) below its
    popcount, at most ``kmax``."""
    for i in range(kmax):
        x = x & (x - (k > i))
    return lowest_bit(x)


def ones(cond: npt.NDArray[np.bool_], dtype: type[np.unsignedinteger]) -> U:
    """All ones where ``cond`` holds, else 0, in ``dtype``: a mask to AND with."""
    m = cond.astype(dtype)
    np.negative(m, out=m)
    return m
