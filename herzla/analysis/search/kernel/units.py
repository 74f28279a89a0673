"""The units of the compiled search, as numba compiles them: bit counts, legality, keeping out
of tricks, move ordering, the Beddl verdicts, transposition keys and the bounds of a table
scorer.  Each mirrors a unit of the pure search (:mod:`herzla.analysis.search.position`,
:mod:`~herzla.analysis.search.bounds`, :mod:`~herzla.analysis.search.ordering`,
:mod:`~herzla.analysis.search.keys`) over the kernel's arrays."""

from __future__ import annotations

import numpy as np

from herzla.analysis.search.kernel.jit import njit
from herzla.analysis.search.kernel.slots import (
    EQUIV,
    GAIN,
    HAS_LAST,
    INF,
    ORDERING,
    RELATIVE,
    N,
    P,
    S,
)

__all__ = ["beddl_verdict", "escapes", "full_key", "highest_bit", "keeps_out", "legal_cards",
           "lowest_bit", "order_moves", "popcount", "safe_pairs", "sort_by_keys", "squeeze",
           "table_bounds"]


@njit(cache=True)
def popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    # the count (<= 36) is the top byte of the product: numba's product wraps at 64 bits,
    # Python's does not (the kernel run as plain Python, kernel/plain.py), hence the mask
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=True)
def lowest_bit(x: int) -> int:
    """The index of the lowest bit of ``x`` (> 0)."""
    return popcount((x & -x) - 1)


@njit(cache=True)
def highest_bit(x: int) -> int:
    """The index of the highest bit of ``x`` (> 0)."""
    r = 0
    if x >> 32:
        x >>= 32
        r += 32
    if x >> 16:
        x >>= 16
        r += 16
    if x >> 8:
        x >>= 8
        r += 8
    if x >> 4:
        x >>= 4
        r += 4
    if x >> 2:
        x >>= 2
        r += 2
    if x >> 1:
        r += 1
    return r


@njit(cache=True)
def safe_pairs(d: int, o: int) -> bool:
    while d and o:
        dl = d & -d
        ol = o & -o
        if dl > ol:
            return False
        d ^= dl
        o ^= ol
    return True


@njit(cache=True)
def escapes(mine: int, theirs: int) -> bool:
    for sh in range(0, 36, 9):  # noqa: SIM110 (numba: no generators)
        if not safe_pairs(mine >> sh & 511, theirs >> sh & 511):
            return False
    return True


@njit(cache=True)
def legal_cards(h: int, k: int, t: int, led: int, lead_ban: np.ndarray, disc_ban: np.ndarray
           ) -> int:
    if k:
        follow = h & led
        if follow:
            return follow
        ban = disc_ban[t]
    else:
        ban = lead_ban[t]
    if ban and h & ~ban:
        return int(h & ~ban)
    return int(h)


@njit(cache=True)
def keeps_out(Q: np.ndarray, H: np.ndarray, leader: int, t: int, out: int,
               lead_ban: np.ndarray, disc_ban: np.ndarray) -> bool:
    s = Q[S]
    n = Q[N]
    mine = H[s]
    theirs = out & ~mine
    if leader != s:
        return escapes(mine, theirs)
    m = legal_cards(mine, 0, t, 0, lead_ban, disc_ban)
    while m:
        top = highest_bit(m)
        x = 1 << top
        m ^= x
        suit = 0x1FF << (top // 9 * 9)
        forced = False
        for w in range(n):
            if w == s:
                continue
            held = H[w] & suit
            if held and (held & -held) > x:
                forced = True
                break
        if forced and escapes(mine ^ x, theirs):
            return True
    return False


@njit(cache=True)
def sort_by_keys(buf: np.ndarray, keys: np.ndarray, cnt: int, desc: bool) -> None:
    """Stable insertion sort of ``buf[:cnt]`` by ``keys`` (ties keep their order)."""
    for i in range(1, cnt):
        c = buf[i]
        kc = keys[i]
        j = i - 1
        while j >= 0 and ((keys[j] < kc) if desc else (keys[j] > kc)):
            buf[j + 1] = buf[j]
            keys[j + 1] = keys[j]
            j -= 1
        buf[j + 1] = c
        keys[j + 1] = kc


@njit(cache=True)
def beddl_verdict(H: np.ndarray, smax: int, n: int, leader: int, t: int, out: int,
                   lead_ban: np.ndarray, disc_ban: np.ndarray) -> int:
    """A made/lost search the declarer ``smax`` loses by winning a trick (Beddl), at a trick
    boundary: made (1) or lost (0) when the suits alone decide it, else -1; as
    :func:`herzla.analysis.search.bounds.make_verdict` decides it.  Not to lead: lost when the
    leader can lead a card the declarer must win (the seats before it follow low, it cannot get
    under, no seat after it must overtake), made when the declarer can play under the others in
    every suit.  To lead: lost when every lead is above every card of its suit the others hold."""
    mine = H[smax]
    theirs = out & ~mine
    legal = legal_cards(H[leader], 0, t, 0, lead_ban, disc_ban)
    if leader == smax:
        for sh in range(0, 36, 9):
            lead = legal >> sh & 511
            others = theirs >> sh & 511
            if lead and others and lowest_bit(lead) <= highest_bit(others):
                return -1
        return 0
    for sh in range(0, 36, 9):
        d = mine >> sh & 511
        lead = legal >> sh & 511
        if not d or not lead:
            continue
        top = lead & -lead
        seat = (leader + 1) % n
        while seat != smax:
            held = H[seat] >> sh & 511
            if held and held & -held > top:
                top = held & -held
            seat = (seat + 1) % n
        dmin = d & -d
        if dmin < top:
            continue
        forced = True
        seat = (smax + 1) % n
        while seat != leader:
            held = H[seat] >> sh & 511
            if held and held & -held > dmin:
                forced = False
                break
            seat = (seat + 1) % n
        if forced:
            return 0
    return 1 if escapes(mine, theirs) else -1


@njit(cache=True)
def order_moves(Q: np.ndarray, H: np.ndarray, sig: np.ndarray, seat: int, k: int, legal: int,
           out: int, best: int, led: int, bseat: int, buf: np.ndarray, keys: np.ndarray,
           tmp: np.ndarray) -> int:
    """The runs of ``legal`` in the order :func:`herzla.analysis.search.ordering.make_order` gives
    them, into ``buf``; returns how many."""
    if not legal & (legal - 1):
        buf[0] = lowest_bit(legal)
        return 1
    h = H[seat]
    cnt = 0
    m = legal
    equiv = Q[EQUIV]
    while m:
        low = m & -m
        c = lowest_bit(low)
        m ^= low
        if equiv:
            below = out & (low - 1) & ~((1 << (c // 9 * 9)) - 1)
            if below:
                p = highest_bit(below)
                if h >> p & 1 and sig[p] == sig[c]:
                    continue
        buf[cnt] = c
        cnt += 1
    if not Q[ORDERING] or cnt < 2:
        return cnt
    smax = Q[S]
    n = Q[N]
    gain = Q[GAIN]
    following = legal & led
    if seat != smax and not gain:
        if k:
            # the seat cannot win this trick: scoring cards are discarded last
            lost = bseat != smax and ((smax - seat) % n >= n - k
                                      or not H[smax] & led & ~((2 << best) - 1))
            if not following:
                for i in range(cnt):
                    c = buf[i]
                    keys[i] = c % 9 + (16 if (sig[c] != 0) != lost else 0)
                sort_by_keys(buf, keys, cnt, True)
                return cnt
            if lost:
                for i in range(cnt // 2):
                    buf[i], buf[cnt - 1 - i] = buf[cnt - 1 - i], buf[i]
            elif bseat == smax:  # the seat wins so far: the highest card under it first
                j = 0
                for i in range(cnt - 1, -1, -1):
                    if buf[i] < best:
                        tmp[j] = buf[i]
                        j += 1
                for i in range(cnt):
                    if buf[i] > best:
                        tmp[j] = buf[i]
                        j += 1
                for i in range(cnt):
                    buf[i] = tmp[i]
            return cnt
        mine = H[smax]
        theirs = out & ~mine
        for i in range(cnt):
            c = buf[i]
            sh = c // 9 * 9
            d = mine >> sh & 511
            r = 16
            if d:
                r = popcount(theirs >> sh & 511 & ((d & -d) - 1))
            # suits the seat holds first, high cards first, then the least covered suit
            keys[i] = (1024 if r == 16 else 0) + (8 - c % 9) * 32 + r
        sort_by_keys(buf, keys, cnt, False)
        return cnt
    if k == 0:
        for i in range(cnt):
            keys[i] = buf[i] % 9
        sort_by_keys(buf, keys, cnt, gain != 0)
        return cnt
    if following:
        j = 0
        if gain:
            for i in range(cnt):
                if buf[i] > best:
                    tmp[j] = buf[i]
                    j += 1
            for i in range(cnt):
                if buf[i] < best:
                    tmp[j] = buf[i]
                    j += 1
        else:
            for i in range(cnt - 1, -1, -1):
                if buf[i] < best:
                    tmp[j] = buf[i]
                    j += 1
            for i in range(cnt - 1, -1, -1):
                if buf[i] > best:
                    tmp[j] = buf[i]
                    j += 1
        for i in range(cnt):
            buf[i] = tmp[i]
        return cnt
    for i in range(cnt):
        c = buf[i]
        keys[i] = c % 9 + (16 if sig[c] else 0)
    sort_by_keys(buf, keys, cnt, not gain)
    return cnt


@njit(cache=True)
def squeeze(out: int, held: int) -> int:
    got = 0
    k = 0
    while out:
        low = out & -out
        if held & low:
            got |= 1 << k
        k += 1
        out ^= low
    return got


@njit(cache=True)
def full_key(Q: np.ndarray, H: np.ndarray, uniform: np.ndarray, leader: int, extra: int,
             key: np.ndarray) -> int:
    """Fill ``key`` (9 words: the (relative) hands of up to 8 seats and leader/tallies) for the
    position at a trick boundary; returns its hash."""
    n = Q[N]
    for i in range(9):
        key[i] = 0
    rel = Q[RELATIVE]
    outs = np.zeros(4, np.int64)
    if rel:
        for u in range(4):
            if uniform[u]:
                o = 0
                for j in range(n):
                    o |= H[j] >> (9 * u) & 511
                outs[u] = o
    x = np.int64(0x345678)
    for i in range(n):
        h = H[i]
        if rel:
            w = 0
            for u in range(4):
                sh = 9 * u
                part = h >> sh & 511
                if uniform[u]:
                    part = squeeze(outs[u], part)
                w |= part << sh
            h = w
        key[i] = h
        x = (x ^ h) * np.int64(1000003)
    key[8] = leader + 8 * extra
    x = (x ^ key[8]) * np.int64(1000003)
    return int(x ^ (x >> 29))


@njit(cache=True)
def table_bounds(Q: np.ndarray, cnt: np.ndarray, total: np.ndarray, fidx: np.ndarray,
                  fstride: np.ndarray, pw: np.ndarray, leaf: np.ndarray,
                  comp_off: np.ndarray, comp: np.ndarray, res: np.ndarray) -> None:
    """The lowest and highest leaf any completion of the tallies ``cnt`` reaches, and the
    lowest in which seat S captures nothing more, into ``res``."""
    n = Q[N]
    npc = Q[P]
    s = Q[S]
    has_last = Q[HAS_LAST]
    lo = Q[INF]
    hi = -Q[INF]
    lo2 = Q[INF]
    first = np.empty(npc, np.int64)
    last_ = np.empty(npc, np.int64)
    at = np.empty(npc, np.int64)
    for p in range(npc):
        left = total[p]
        for w in range(n):
            left -= cnt[p, w]
        first[p] = comp_off[left]
        last_[p] = comp_off[left + 1]
        at[p] = first[p]
    while True:
        base = 0
        idle = True
        for p in range(npc):
            code = 0
            row = at[p]
            for w in range(n):
                code += (cnt[p, w] + comp[row, w]) * pw[p, w]
                if w == s and comp[row, w]:
                    idle = False
            base += fidx[p, code] * fstride[p]
        for w in range(n if has_last else 1):
            v = leaf[base + (w if has_last else 0)]
            if v < lo:
                lo = v
            if v > hi:
                hi = v
            if idle and not (has_last and w == s) and v < lo2:
                lo2 = v
        p = npc - 1
        while p >= 0:
            at[p] += 1
            if at[p] < last_[p]:
                break
            at[p] = first[p]
            p -= 1
        if p < 0:
            break
    res[0] = lo
    res[1] = hi
    res[2] = lo2
