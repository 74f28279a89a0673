"""Equivalent cards: which of a seat's legal cards the searches need to try.

Two cards of one seat are equivalent when they are neighbours in strength among the cards still
out (in the hands or on the table) and alike in signature (the same counted classes and lead
bans, :class:`herzla.analysis.search.declared.Declared`): whichever of them is played, the other one
plays the same part later, so both lead to the same values.  A run of such cards is searched
once, through its lowest card.

>>> sig = [0] * 36
>>> runs = make_runs(sig, True)
>>> runs(0b1011, 0b1011, 0b1111)  # the seat's 0, 1 and 3; 2 is another seat's
[0, 3]
>>> group_runs(sig, 0b1011, 0b1011, 0b1111, True)
{0: [0, 1], 3: [3]}
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from herzla.analysis.search.position import BELOW

__all__ = ["group_runs", "make_runs"]


def make_runs(sig: Sequence[int], equivalence: bool) -> Callable[[int, int, int], list[int]]:
    """``runs(hand, legal, out)``: the legal cards, one of each run of equivalent cards (of the
    hand, neighbours in strength among the cards ``out``, alike in ``sig``: scoring and bans),
    lowest first.  With ``equivalence`` off, every legal card."""
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


def group_runs(sig: Sequence[int], hand: int, legal: int, out: int, equivalence: bool
               ) -> dict[int, list[int]]:
    """The legal cards grouped into their runs: the lowest card of each run -> the run's cards
    (search bits, lowest first)."""
    groups: dict[int, list[int]] = {}
    rep_of: dict[int, int] = {}
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        below = out & BELOW[c]
        rep = c
        if below and equivalence:
            p = below.bit_length() - 1
            if hand >> p & 1 and sig[p] == sig[c]:
                rep = rep_of[p]
        rep_of[c] = rep
        groups.setdefault(rep, []).append(c)
    return groups
