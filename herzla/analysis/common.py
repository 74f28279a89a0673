"""What the two trick searches share (:mod:`herzla.analysis.tricks`, the general one, and
:mod:`herzla.analysis.madelost`, made or lost): the bit tables of the search encoding, the runs
of equivalent cards, the relative-rank keys of the transposition tables, and loading a position
from the reference engine.

Inside a search a card is ``suit * 9 + strength``, so within a suit a higher bit is a stronger
card (:class:`herzla.analysis.tricks.TrickSearch` converts).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from herzla.cards import SUIT_MASKS

if TYPE_CHECKING:
    from herzla.analysis.tricks import TrickSearch
    from herzla.tricks import TrickHand

__all__ = ["ABOVE", "BELOW", "SUIT", "first_to_front", "load_position", "make_keys",
           "make_legal", "make_runs", "relative_suits", "safe_pairs", "squeeze", "strength"]

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


def squeeze(out: int, held: int) -> int:
    """The cards ``held`` (within one suit's 9 bits) by their rank among the cards ``out``."""
    got = 0
    k = 0
    while out:
        low = out & -out
        if held & low:
            got |= 1 << k
        k += 1
        out ^= low
    return got


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


def make_runs(sig: Sequence[int], equivalence: bool) -> Callable[[int, int, int], list[int]]:
    """``runs(hand, legal, out)``: the legal cards, one of each run of equivalent cards (of the
    hand, neighbours in strength among the cards ``out``, alike in ``sig``: scoring and bans),
    lowest first."""
    below_tab = BELOW

    def runs(h: int, legal: int, out: int) -> list[int]:
        reps: list[int] = []
        m = legal
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            if equivalence:
                below = out & below_tab[c]
                if below:
                    p = below.bit_length() - 1
                    if h >> p & 1 and sig[p] == sig[c]:
                        continue
            reps.append(c)
        return reps
    return runs


def relative_suits(search: TrickSearch) -> tuple[bool, list[int], int]:
    """Which suits a key holds by relative rank: those whose pack cards all score and are
    banned alike (cards outside the pack never play).  Returns (any, their shifts, the mask of
    the other suits' bits)."""
    sig = search._signatures()
    pack_bits = search.bits(search.contract.pack().mask)
    uniform = [len({sig[b] for b in range(9 * u, 9 * u + 9) if pack_bits >> b & 1}) <= 1
               for u in range(4)]
    relative = search.features.relative and any(uniform)
    shifts = [9 * u for u in range(4) if uniform[u]]
    raw_mask = sum(0x1FF << (9 * u) for u in range(4) if not uniform[u])
    return relative, shifts, raw_mask


def make_keys(search: TrickSearch, hands: list[int]) -> Callable[[int], int]:
    """``key(leader)``: the transposition key of the position the ``hands`` (updated in place
    by the search) hold at a trick boundary: each seat's cards, by relative rank in the suits
    :func:`relative_suits` names."""
    relative, shifts, raw_mask = relative_suits(search)
    memo: dict[int, int] = {}
    suit_bits = 9 * len(hands)

    def key(leader: int) -> int:
        k = leader
        if not relative:
            for h in hands:
                k = (k << 36) | h
            return k
        for sh in shifts:
            x = 0
            for h in hands:
                x = (x << 9) | (h >> sh & 511)
            got = memo.get(x)
            if got is None:
                out = 0
                for h in hands:
                    out |= h >> sh & 511
                got = 0
                for h in hands:
                    got = (got << 9) | squeeze(out, h >> sh & 511)
                memo[x] = got
            k = (k << suit_bits) | got
        if raw_mask:
            for h in hands:
                k = (k << 36) | (h & raw_mask)
        return k
    return key


def load_position(search: TrickSearch, st: TrickHand, hands: list[int]) -> Start:
    """Load an engine state into ``hands`` (search bits) and return where the search starts."""
    to_bit = search._to_bit
    n = search.players
    for i, h in enumerate(st.hands):
        hands[i] = search.bits(h)
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
