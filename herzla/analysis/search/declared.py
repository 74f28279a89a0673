"""What the trick searches read from a contract's declaration, read once, in search bits.

Inside a search a card is ``suit * 9 + strength``, so within a suit a higher bit is a stronger
card and "does it win the trick" is one comparison.  :class:`Declared` converts between card
indices (:mod:`herzla.cards`) and search bits, and holds every word of the declaration
(:mod:`herzla.contracts.vocabulary`) the searches need:

- the **lead bans** per trick, leading and discarding (``declaration.banned``);
- the **signature** of every card: which counted classes and which lead bans it belongs to.  Two
  cards of one seat that are neighbours in strength among the cards still out and alike in signature
  are equivalent (:mod:`herzla.analysis.search.equivalence`), and a suit whose cards are all alike
  is keyed by relative rank (:mod:`herzla.analysis.search.keys`);
- the **early end**: which trick winners end the hand (``vocabulary.early_end_reached``).

This is the one place the solver reads the declaration: a new word of the vocabulary that makes
cards differ, or changes what is legal, is read here and nowhere else in the searches (scoring
is learnt from ``settle`` by :mod:`herzla.analysis.search.scoring`).

>>> from herzla.contracts import contract_class
>>> d = Declared(contract_class("herzla", "beddl")(4, {}, 0))
>>> d.card(d.to_bit[5]) == 5
True
>>> [d.ends_on(w) for w in range(4)]  # a trick won by the declarer ends Beddl
[True, False, False, False]
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from herzla.contracts import EarlyEnd, TrickContract
from herzla.contracts.vocabulary import early_end_reached

__all__ = ["Declared"]


class Declared:
    """The declaration of ``contract`` as the searches read it (see the module notes)."""

    _memo: ClassVar[dict[TrickContract, Declared]] = {}

    @classmethod
    def of(cls, contract: TrickContract) -> Declared:
        """The (shared, read-only) :class:`Declared` of ``contract``."""
        got = cls._memo.get(contract)
        if got is None:
            if len(cls._memo) > 256:
                cls._memo.clear()
            got = cls._memo[contract] = cls(contract)
        return got

    def __init__(self, contract: TrickContract) -> None:
        self.contract = contract
        self.players = contract.players
        strength = contract.rank_order().strength
        #: card index -> search bit, and back
        self.to_bit = [(i // 9) * 9 + strength[i % 9] for i in range(36)]
        self.to_card = [0] * 36
        for i, b in enumerate(self.to_bit):
            self.to_card[b] = i
        # one suit's cards (9 bits by rank) -> the same in search bits
        self._suit_bits = [0] * 512
        for sub in range(1, 512):
            low = sub & -sub
            self._suit_bits[sub] = self._suit_bits[sub ^ low] | 1 << strength[low.bit_length() - 1]
        d = contract.declaration
        self.declaration = d
        self.classes = d.classes()
        self.bans = d.lead_bans
        self.early_end: EarlyEnd | None = d.early_end
        self.declarer = contract.declarer
        self.pack = self.bits(contract.pack().mask)
        self._ban_cache: dict[tuple[int, bool], int] = {}
        self.signature = self._signatures()
        #: per suit: whether its pack cards are all alike (same signature)
        self.uniform = [len({self.signature[b] for b in range(9 * u, 9 * u + 9)
                             if self.pack >> b & 1}) <= 1 for u in range(4)]
        self._ends = self._ends_on()

    def bits(self, mask: int) -> int:
        """A card-index bit set in search bits."""
        tab = self._suit_bits
        return (tab[mask & 511] | tab[mask >> 9 & 511] << 9 | tab[mask >> 18 & 511] << 18
                | tab[mask >> 27 & 511] << 27)

    def card(self, bit: int) -> int:
        """The card index of a search bit number."""
        return self.to_card[bit]

    def banned(self, trick: int, leading: bool) -> int:
        """The search bits banned from being led (discarded) to trick ``trick``."""
        key = (trick, leading)
        got = self._ban_cache.get(key)
        if got is None:
            ban = self.declaration.banned(trick, leading)
            got = self._ban_cache[key] = self.bits(ban[0]) if ban else 0
        return got

    def lead_bans(self, tricks: int) -> list[int]:
        """Per trick: the search bits that may not be led."""
        return [self.banned(t, True) for t in range(tricks)]

    def discard_bans(self, tricks: int) -> list[int]:
        """Per trick: the search bits that may not be discarded."""
        return [self.banned(t, False) for t in range(tricks)]

    def _signatures(self) -> list[int]:
        """Per search bit: a bit per counted class and per lead ban the card belongs to."""
        sig = []
        for b in range(36):
            i = self.to_card[b]
            key = 0
            for k, m in enumerate(self.classes):
                if m >> i & 1:
                    key |= 1 << k
            for k, ban in enumerate(self.bans):
                if ban.cards >> i & 1:
                    key |= 1 << (k + len(self.classes))
            sig.append(key)
        return sig

    def _ends_on(self) -> list[bool]:
        if self.early_end is None or self.declarer is None:
            return [False] * self.players
        winners = np.arange(self.players).reshape(1, -1)
        hit = early_end_reached(self.early_end, winners, self.declarer)
        return [bool(v) for v in hit[0]]

    def ends_on(self, winner: int) -> bool:
        """Whether a trick won by seat ``winner`` ends the hand early (never without an early
        end)."""
        return self._ends[winner]

    def ended(self, winners: list[int]) -> bool:
        """Whether tricks won by ``winners`` (in order) have ended the hand early."""
        return any(self._ends[w] for w in winners)
