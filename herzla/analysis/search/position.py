"""What the two trick searches share (:mod:`herzla.analysis.search.trick_search`, the general one,
and :mod:`herzla.analysis.search.made_or_lost`, made or lost): the bit tables of the search
encoding, legality (follow suit, the lead bans with their escape) and loading a position from the
reference engine. The other units they are built from: :mod:`~herzla.analysis.search.declared` (the
declaration), :mod:`~herzla.analysis.search.equivalence`, :mod:`~herzla.analysis.search.keys`,
:mod:`~herzla.analysis.search.ordering`, :mod:`~herzla.analysis.search.bounds` and
:mod:`~herzla.analysis.search.leaves`.

Inside a search a card is ``suit * 9 + strength``, so within a suit a higher bit is a stronger
card (:class:`herzla.analysis.search.declared.Declared` converts).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from herzla.cards import SUIT_MASKS

if TYPE_CHECKING:
    from herzla.analysis.search.declared import Declared
    from herzla.kinds.tricks import TrickHand

__all__ = ["ABOVE", "BELOW", "SUIT", "first_to_front", "load_position", "make_legal",
           "safe_pairs", "strength"]

#: per search bit: the bits of the same suit below it, and above it
BELOW: list[int] = [((1 << b) - 1) & ~((1 << (b // 9 * 9)) - 1) for b in range(36)]
ABOVE: list[int] = [(0x1FF << (b // 9 * 9)) & ~((2 << b) - 1) for b in range(36)]
#: per search bit: its suit's bits
SUIT: list[int] = [SUIT_MASKS[b // 9] for b in range(36)]

#: a position as the searches start from it: the seat to play, the cards played to the trick,
#: the trick's index, the cards out, the led suit, the best card so far and its seat, the trick's
#: cards, the leader
Start = tuple[int, int, int, int, int, int, int, int, int]


def strength(b: int) -> int:
    """A search bit's strength within its suit (a sort key)."""
    return b % 9


def safe_pairs(d: int, o: int) -> bool:
    """Whether in one suit (9 bits each) the i-th lowest card of ``d`` is below the i-th lowest
    of ``o`` for every i: a seat holding ``d`` can play under every card of ``o``."""
    while d and o:
        dl, ol = d & -d, o & -o
        if dl > ol:
            return False
        d ^= dl
        o ^= ol
    return True


def first_to_front(moves: list[int], first: int) -> list[int]:
    """``moves`` with ``first`` (the table's best move, say) tried first, if it is one."""
    if first in moves and moves[0] != first:
        moves.remove(first)
        moves.insert(0, first)
    return moves


def make_legal(hands: list[int], lead_ban: Sequence[int], discard_ban: Sequence[int]
               ) -> Callable[[int, int, int, int], int]:
    """``legal(seat, k, t, led)``: the cards ``seat`` may play as the ``k``-th card of trick
    ``t`` (``led``: the led suit's bits): follow suit if able, else anything but the banned
    cards of the trick (``lead_ban[t]`` when leading, ``discard_ban[t]`` when discarding), unless
    the seat holds nothing else (the escape)."""
    def legal(seat: int, k: int, t: int, led: int) -> int:
        h = hands[seat]
        if k:
            follow = h & led
            if follow:
                return follow
            ban = discard_ban[t]
        else:
            ban = lead_ban[t]
        if ban and h & ~ban:
            return h & ~ban
        return h
    return legal


def load_position(declared: Declared, st: TrickHand, hands: list[int]) -> Start:
    """Load an engine state into ``hands`` (search bits) and return where the search starts."""
    to_bit = declared.to_bit
    n = declared.players
    for i, h in enumerate(st.hands):
        hands[i] = declared.bits(h)
    out = 0
    for h in hands:
        out |= h
    tcards = [to_bit[c.index] for c in st.trick]
    tmask = 0
    for b in tcards:
        tmask |= 1 << b
    out |= tmask
    led = best = bseat = 0
    if tcards:
        led = SUIT[tcards[0]]
        best, bseat = tcards[0], st.leader
        for i, b in enumerate(tcards[1:], 1):
            if (1 << b) & led and b > best:
                best, bseat = b, (st.leader + i) % n
    return st.turn, len(tcards), len(st.tricks), out, led, best, bseat, tmask, st.leader
