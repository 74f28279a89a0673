"""The keys of the searches' transposition tables.

A position at a trick boundary is keyed by the leader and every seat's cards (the trick index
follows from the cards left).  In a suit whose cards are all alike (no counted class or lead ban
tells them apart: :attr:`herzla.analysis.search.declared.Declared.uniform`) only the order of the
cards still out decides the tricks, so there each seat's cards are keyed by their rank among the
cards out (*relative ranks*): positions that differ only in which cards of such a suit are gone
share one entry.

>>> squeeze(0b110100, 0b100100)  # out: bits 2, 4, 5; held: 2 and 5 -> ranks 0 and 2
5
"""

from __future__ import annotations

from collections.abc import Callable

from herzla.analysis.search.declared import Declared

__all__ = ["make_keys", "relative_suits", "squeeze"]


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


def relative_suits(declared: Declared, relative: bool = True) -> tuple[bool, list[int], int]:
    """Which suits a key holds by relative rank (with ``relative``): those whose pack cards are
    all alike.  Returns (any, their shifts, the mask of the other suits' bits)."""
    uniform = declared.uniform
    use = relative and any(uniform)
    shifts = [9 * u for u in range(4) if uniform[u]]
    raw_mask = sum(0x1FF << (9 * u) for u in range(4) if not uniform[u])
    return use, shifts, raw_mask


def make_keys(declared: Declared, hands: list[int], relative: bool = True
              ) -> Callable[[int], int]:
    """``key(leader)``: the transposition key of the position the ``hands`` (search bits,
    updated in place by the search) hold at a trick boundary: the leader and each seat's cards,
    by relative rank in the suits :func:`relative_suits` names."""
    use, shifts, raw_mask = relative_suits(declared, relative)
    memo: dict[int, int] = {}
    suit_bits = 9 * len(hands)

    def key(leader: int) -> int:
        k = leader
        if not use:
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
