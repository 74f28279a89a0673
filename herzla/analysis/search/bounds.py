"""Bounds: what the searches know about a position's value without searching it.

- :class:`AdditiveBounds`: for an additive scorer, the least and the most the cards and tricks
  still to come can add to the maximiser's score, and the least it gets when it captures nothing
  more (its *idle* bound);
- :class:`TableBounds`: for a table scorer, the worst and best leaf any completion of the partial
  tallies reaches (and the worst in which the maximiser captures nothing more), per signature;
- :func:`make_keeps_out`: whether the maximiser can keep out of every trick still to come (then
  its idle bound is a lower bound of the value);
- :func:`make_verdict`: made/lost contracts (Beddl, Mord), the positions the suits alone decide.

A search ends a position whose bounds fall outside its window.

>>> from herzla.analysis.search.scoring import AdditiveScore
>>> from herzla.analysis.search.leaves import AdditiveValues
>>> sc = AdditiveScore([0, 0], [[[-1] * 36, [0] * 36], [[0] * 36] * 2], [[0, 0], [0, 0]],
...                    [[0, 0], [0, 0]])
>>> b = AdditiveBounds(AdditiveValues(sc, 0, 1, 2, list(range(36))), 0, 2, 4)
>>> b.bounds(2, 0b111)  # three cards out, none captured by seat 0 at best, all at worst
(-3, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from herzla.analysis.search.leaves import AdditiveValues
from herzla.analysis.search.position import SUIT, safe_pairs
from herzla.analysis.search.scoring import LeafTable

__all__ = ["AdditiveBounds", "TableBounds", "make_keeps_out", "make_verdict"]

_SHIFTS = (0, 9, 18, 27)


def _suit_sums(values: Sequence[int]) -> list[list[int]]:
    """Per suit: the sum of ``values`` (per search bit) over each subset of the suit's 9 bits."""
    out = []
    for s in range(4):
        tab = [0] * 512
        for sub in range(1, 512):
            low = sub & -sub
            tab[sub] = tab[sub ^ low] + values[s * 9 + low.bit_length() - 1]
        out.append(tab)
    return out


class AdditiveBounds:
    """The bounds of an additive scorer's future for seat ``seat`` (``tricks`` a hand)."""

    def __init__(self, values: AdditiveValues, seat: int, players: int, tricks: int) -> None:
        cv, tv, lv = values.card, values.trick, values.last
        n = players
        self.tricks = tricks
        self.lo_tab = _suit_sums([min(cv[w][b] for w in range(n)) for b in range(36)])
        self.hi_tab = _suit_sums([max(cv[w][b] for w in range(n)) for b in range(36)])
        self.trick_lo, self.trick_hi = min(tv), max(tv)
        self.last_lo, self.last_hi = min(lv), max(lv)
        others = [w for w in range(n) if w != seat]
        self.idle_tab = _suit_sums([min(cv[w][b] for w in others) for b in range(36)])
        self.idle_trick = min(tv[w] for w in others)
        self.idle_last = min(lv[w] for w in others)

    def bounds(self, t: int, out: int) -> tuple[int, int]:
        """The least and most the cards ``out`` and the tricks from ``t`` on can add."""
        left = self.tricks - t
        lo = self.last_lo + left * self.trick_lo
        hi = self.last_hi + left * self.trick_hi
        lo_tab, hi_tab = self.lo_tab, self.hi_tab
        for s in range(4):
            sub = out >> (9 * s) & 511
            lo += lo_tab[s][sub]
            hi += hi_tab[s][sub]
        return lo, hi

    def idle(self, t: int, out: int) -> int:
        """The least the seat gets when it captures nothing more."""
        lo = self.idle_last + (self.tricks - t) * self.idle_trick
        for u in range(4):
            lo += self.idle_tab[u][out >> (9 * u) & 511]
        return lo


class TableBounds:
    """A table scorer's bounds per signature id of
    :class:`herzla.analysis.search.leaves.TallyStates` (times ``sign``): (lowest, highest, lowest
    when the seat captures nothing more)."""

    def __init__(self, sc: LeafTable, seat: int, sign: int, sig_of: list[tuple[int, ...]]
                 ) -> None:
        self.sc, self.seat, self.sign, self.sig_of = sc, seat, sign, sig_of
        self.cache: dict[int, tuple[int, int, int]] = {}

    def of(self, sid: int) -> tuple[int, int, int]:
        got = self.cache.get(sid)
        if got is None:
            sigs = self.sig_of[sid]
            lo, hi = self.sc.bounds(self.seat, sigs)
            lo2, hi2 = self.sc.bounds(self.seat, sigs, idle=True)
            if self.sign < 0:
                lo, hi, lo2, hi2 = -hi, -lo, -hi2, -lo2
            got = self.cache[sid] = (lo, hi, lo2)
        return got


def make_keeps_out(hands: list[int], seat: int, players: int,
                   legal_of: Callable[[int, int, int, int], int]
                   ) -> Callable[[int, int, int], bool]:
    """``keeps_out(leader, t, out)``: whether ``seat`` can keep out of every trick still to come
    in the position the ``hands`` hold (search bits, updated in place).  Not to lead: in every
    suit its i-th lowest card is below the others' i-th lowest (it plays low under every lead and
    discards high, and so never leads).  To lead: when it can lead a card that a seat holding only
    higher cards of the suit must overtake, and escapes with the rest (the others' cards that
    fall to this trick only make escaping easier)."""
    others = [w for w in range(players) if w != seat]

    def escapes(mine: int, theirs: int) -> bool:
        return all(safe_pairs(mine >> sh & 511, theirs >> sh & 511) for sh in _SHIFTS)

    def keeps_out(leader: int, t: int, out: int) -> bool:
        mine = hands[seat]
        theirs = out & ~mine
        if leader != seat:
            return escapes(mine, theirs)
        m = legal_of(seat, 0, t, 0)
        while m:
            top = m.bit_length() - 1
            x = 1 << top
            m ^= x
            suit = SUIT[top]
            for s_ in others:
                held = hands[s_] & suit
                if held and held & -held > x:
                    break
            else:
                continue
            if escapes(mine ^ x, theirs):
                return True
        return False
    return keeps_out


def make_verdict(hands: list[int], declarer: int, beddl: bool, players: int,
                 legal_of: Callable[[int, int, int, int], int]
                 ) -> tuple[Callable[[int, int, int], int], list[int]]:
    """Made/lost contracts: ``verdict(leader, t, out)``, made (1) or lost (0) when the suits
    alone decide the position the ``hands`` hold at a trick boundary, else -1; and a one-item
    list that a lost verdict fills with a lead that decides it (or leaves alone).

    Beddl (the declarer loses every trick): made when, not to lead, the declarer can play under
    the others in every suit; lost when a defender can lead a card the declarer must win, or the
    declarer must lead above every card of its suits the others hold.  Mord (the declarer wins
    every trick): made when the declarer leads and its lowest card of every suit is above the
    others'; lost when the declarer cannot lead above them, or a defender leads a suit in which
    the others hold a card above the declarer's."""
    n = players
    D = declarer
    safe_memo: dict[int, bool] = {}
    witness = [-1]

    def forced_to_win(leader: int, sh: int, x: int, dmin: int) -> bool:
        """Beddl: whether a lead of ``x`` (suit at ``sh``) by a defender wins the declarer the
        trick, whose lowest card of the suit is ``dmin``: the defenders before it follow low,
        the declarer cannot get under, and nobody after it must overtake."""
        top = x
        seat = (leader + 1) % n
        while seat != D:
            held = hands[seat] >> sh & 511
            if held and held & -held > top:
                top = held & -held
            seat = (seat + 1) % n
        if dmin < top:
            return False
        seat = (D + 1) % n
        while seat != leader:
            held = hands[seat] >> sh & 511
            if held and held & -held > dmin:
                return False
            seat = (seat + 1) % n
        return True

    def verdict(leader: int, t: int, out: int) -> int:
        mine = hands[D]
        theirs = out & ~mine
        legal = legal_of(leader, 0, t, 0)
        if beddl:
            if leader != D:
                safe = True
                for sh in _SHIFTS:
                    d = mine >> sh & 511
                    if not d:
                        continue
                    lead = legal >> sh & 511
                    if lead and forced_to_win(leader, sh, lead & -lead, d & -d):
                        witness[0] = (lead & -lead).bit_length() - 1 + sh
                        return 0
                    if safe:
                        pair = d << 9 | (theirs >> sh & 511)
                        got = safe_memo.get(pair)
                        if got is None:
                            got = safe_memo[pair] = safe_pairs(d, theirs >> sh & 511)
                        if not got:
                            safe = False
                return 1 if safe else -1
            for sh in _SHIFTS:
                lead = legal >> sh & 511
                if lead and (lead & -lead).bit_length() <= (theirs >> sh & 511).bit_length():
                    return -1
            return 0
        if leader == D:
            made = True
            for sh in _SHIFTS:
                d = mine >> sh & 511
                if d and (d & -d).bit_length() <= (theirs >> sh & 511).bit_length():
                    made = False
                    break
            if made:
                return 1
            for sh in _SHIFTS:
                if (legal >> sh & 511).bit_length() > (theirs >> sh & 511).bit_length():
                    return -1
            return 0
        for sh in _SHIFTS:
            lead = legal >> sh & 511
            if lead and (theirs >> sh & 511).bit_length() > (mine >> sh & 511).bit_length():
                witness[0] = lead.bit_length() - 1 + sh
                return 0
        return -1
    return verdict, witness
