"""The rows of a layout deal (Herzeln domino, Herzerln Auflegen) in the batch engine's
strength layout."""

from __future__ import annotations

import attrs

from herzla.contracts import LayoutContract
from herzla.sim.batch.bits import Bits, U

__all__ = ["LayoutSetup"]

@attrs.frozen(slots=True)
class LayoutSetup:
    """The rows of a layout contract in a strength layout."""

    bits: Bits
    players: int
    n: int  # ranks in the sequence; a row field is the suit's whole bit field
    jack: int  # the opening rank's position in the sequence
    wrap: bool
    any_suit: bool
    first: int  # the card that must open (bit), or 0
    places: tuple[int, ...]  # (the contract's settle pays them)
    ranks: tuple[int, ...]  # per sequence position, the cards of that rank
    tops: int
    bottoms: int

    @classmethod
    def of(cls, contract: LayoutContract, bits: Bits) -> LayoutSetup:
        """The setup of a contract's declared rows; ValueError when the batch engine cannot
        hold them (a sequence that is not the pack's ranks in the contract's rank order)."""
        rows = contract.declaration.rows
        seq = rows.sequence
        st = contract.rank_order().strength
        where = [st[r] - bits.offset for r in seq]
        if where != list(range(len(seq))) or len(seq) != bits.stride:
            raise ValueError("its row sequence is not the pack's ranks in its rank order")
        if rows.opening not in seq:
            raise ValueError("its rows open with a rank outside their sequence")
        n = len(seq)
        pack = bits.pack_mask
        ranks = tuple(sum(1 << (s * bits.stride + q) for s in range(4)) & pack for q in range(n))
        first = rows.first
        jack = seq.index(rows.opening)
        return cls(bits, contract.players, n, jack, rows.wrap, not rows.per_suit,
                   bits.mask([first]) if first is not None else 0,
                   contract.declaration.places, ranks,
                   sum(1 << (s * bits.stride + n - 1) for s in range(4)),
                   sum(1 << (s * bits.stride) for s in range(4)))

    # the card after each card of ``x`` at the upper / lower end (0 past an unwrapped end)
    def next_up(self, x: U) -> U:
        out = (x & (self.bits.full ^ self.tops)) << 1
        if self.wrap:
            out |= (x & self.tops) >> (self.n - 1)
        return out

    def next_down(self, x: U) -> U:
        out = (x & (self.bits.full ^ self.bottoms)) >> 1
        if self.wrap:
            out |= (x & self.bottoms) << (self.n - 1)
        return out
