"""The compiled kernel of the general trick search (numba; imported only when numba is installed:
``pip install 'herzla[fast]'``).

It is the alpha-beta search of :func:`herzla.analysis.tricks.build` written over fixed-width
arrays, so that numba compiles it to machine code (once; the compiled code is cached on disk,
``cache=True``).  :mod:`herzla.analysis.compiled` fills the arrays from the same units the pure
search is built from (:mod:`~herzla.analysis.declared`, :mod:`~herzla.analysis.leaves`,
:mod:`~herzla.analysis.bounds`, the scorer of :mod:`~herzla.analysis.scoring`), so no rule is
written here: the kernel only adds up values, compares cards and looks up tables.

Every value is a 64-bit integer: the kernel is used only when the deal's largest value
(:func:`herzla.analysis.scoring.reach`) is below 2**60, so no sum it forms can overflow.

The scalars of a search travel in one array ``Q`` (its slots are the constants below); the
transposition table is an open table of ``2**k`` slots (always replace), stamped with the search's
generation so that one table serves search after search.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

F = TypeVar("F", bound=Callable[..., Any])

if TYPE_CHECKING:  # one signature for mypy, with numba installed or not
    def njit(**_options: Any) -> Callable[[F], F]: ...
else:
    try:
        from numba import njit
    except ImportError:  # pragma: no cover - without the fast extra the module only imports
        def njit(**_options):
            """No numba: the functions stay Python (never called: the compiled path is off)."""
            return lambda f: f

__all__ = ["search"]

# the slots of the scalar array Q
N, T, S, GAIN, KIND, P, HAS_LAST, BOUNDS, USE_TT, ORDERING, EQUIV, RELATIVE = range(12)
TT_MASK, GEN, NODES, INF, TRICK_LO, TRICK_HI, LAST_LO, LAST_HI = range(12, 20)
IDLE_TRICK, IDLE_LAST, BC_MASK, BGEN, CUTS = range(20, 25)
SLOTS = 25

#: the kinds of leaves: additive, a table of final tallies, made/lost (``tv[w]`` is then 1 when a
#: trick won by seat ``w`` ends the contract, lost: 0; made at the end: 1)
ADDITIVE, TABLE, BOOLEAN = 0, 1, 2


@njit(cache=True)
def _popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56  # wraps; the count (<= 36) is the top byte


@njit(cache=True)
def _low(x: int) -> int:
    """The index of the lowest bit of ``x`` (> 0)."""
    return _popcount((x & -x) - 1)


@njit(cache=True)
def _high(x: int) -> int:
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
def _safe_pairs(d: int, o: int) -> bool:
    while d and o:
        dl = d & -d
        ol = o & -o
        if dl > ol:
            return False
        d ^= dl
        o ^= ol
    return True


@njit(cache=True)
def _escapes(mine: int, theirs: int) -> bool:
    for sh in range(0, 36, 9):  # noqa: SIM110 (numba: no generators)
        if not _safe_pairs(mine >> sh & 511, theirs >> sh & 511):
            return False
    return True


@njit(cache=True)
def _legal(h: int, k: int, t: int, led: int, lead_ban: np.ndarray, disc_ban: np.ndarray
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
def _keeps_out(Q: np.ndarray, H: np.ndarray, leader: int, t: int, out: int,
               lead_ban: np.ndarray, disc_ban: np.ndarray) -> bool:
    s = Q[S]
    n = Q[N]
    mine = H[s]
    theirs = out & ~mine
    if leader != s:
        return _escapes(mine, theirs)
    m = _legal(mine, 0, t, 0, lead_ban, disc_ban)
    while m:
        top = _high(m)
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
        if forced and _escapes(mine ^ x, theirs):
            return True
    return False


@njit(cache=True)
def _sort(buf: np.ndarray, keys: np.ndarray, cnt: int, desc: bool) -> None:
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
def _beddl_verdict(H: np.ndarray, smax: int, n: int, leader: int, t: int, out: int,
                   lead_ban: np.ndarray, disc_ban: np.ndarray) -> int:
    """A made/lost search the declarer ``smax`` loses by winning a trick (Beddl), at a trick
    boundary: made (1) or lost (0) when the suits alone decide it, else -1; as
    :func:`herzla.analysis.bounds.make_verdict` decides it.  Not to lead: lost when the leader
    can lead a card the declarer must win (the seats before it follow low, it cannot get under,
    no seat after it must overtake), made when the declarer can play under the others in every
    suit.  To lead: lost when every lead is above every card of its suit the others hold."""
    mine = H[smax]
    theirs = out & ~mine
    legal = _legal(H[leader], 0, t, 0, lead_ban, disc_ban)
    if leader == smax:
        for sh in range(0, 36, 9):
            lead = legal >> sh & 511
            others = theirs >> sh & 511
            if lead and others and _low(lead) <= _high(others):
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
    return 1 if _escapes(mine, theirs) else -1


@njit(cache=True)
def _order(Q: np.ndarray, H: np.ndarray, sig: np.ndarray, seat: int, k: int, legal: int,
           out: int, best: int, led: int, bseat: int, buf: np.ndarray, keys: np.ndarray,
           tmp: np.ndarray) -> int:
    """The runs of ``legal`` in the order :func:`herzla.analysis.ordering.make_order` gives
    them, into ``buf``; returns how many."""
    if not legal & (legal - 1):
        buf[0] = _low(legal)
        return 1
    h = H[seat]
    cnt = 0
    m = legal
    equiv = Q[EQUIV]
    while m:
        low = m & -m
        c = _low(low)
        m ^= low
        if equiv:
            below = out & (low - 1) & ~((1 << (c // 9 * 9)) - 1)
            if below:
                p = _high(below)
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
                _sort(buf, keys, cnt, True)
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
                r = _popcount(theirs >> sh & 511 & ((d & -d) - 1))
            # suits the seat holds first, high cards first, then the least covered suit
            keys[i] = (1024 if r == 16 else 0) + (8 - c % 9) * 32 + r
        _sort(buf, keys, cnt, False)
        return cnt
    if k == 0:
        for i in range(cnt):
            keys[i] = buf[i] % 9
        _sort(buf, keys, cnt, gain != 0)
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
    _sort(buf, keys, cnt, not gain)
    return cnt


@njit(cache=True)
def _squeeze(out: int, held: int) -> int:
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
def _fullkey(Q: np.ndarray, H: np.ndarray, uniform: np.ndarray, leader: int, extra: int,
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
                    part = _squeeze(outs[u], part)
                w |= part << sh
            h = w
        key[i] = h
        x = (x ^ h) * np.int64(1000003)
    key[8] = leader + 8 * extra
    x = (x ^ key[8]) * np.int64(1000003)
    return int(x ^ (x >> 29))


@njit(cache=True)
def _table_bounds(Q: np.ndarray, cnt: np.ndarray, total: np.ndarray, fidx: np.ndarray,
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


# the fields of a frame of the explicit stack
(F_SEAT, F_K, F_T, F_OUT, F_LED, F_BEST, F_BSEAT, F_TMASK, F_ALPHA, F_BETA, F_A0, F_B0, F_V,
 F_BESTC, F_IDX, F_CNT, F_HAND, F_SLOT, F_G, F_W, F_TMC) = range(21)
FIELDS = 21
#: the deepest stack: one frame a card (at most 36) and the root
DEPTH = 40


@njit(cache=True)
def _search(Q: np.ndarray, H: np.ndarray, k0: int, seat0: int, t0: int, out0: int, led0: int,
            best0: int, bseat0: int, tmask0: int, alpha0: int, beta0: int,
            lead_ban: np.ndarray, disc_ban: np.ndarray, sig: np.ndarray, uniform: np.ndarray,
            cv: np.ndarray, tv: np.ndarray, lv: np.ndarray, lo_tab: np.ndarray,
            hi_tab: np.ndarray, idle_tab: np.ndarray,
            pieces: np.ndarray, total: np.ndarray, cnt: np.ndarray, code: np.ndarray,
            pw: np.ndarray, sigid: np.ndarray, smult: np.ndarray, fidx: np.ndarray,
            fstride: np.ndarray, leaf: np.ndarray, comp_off: np.ndarray, comp: np.ndarray,
            tt_key: np.ndarray, tt_val: np.ndarray, tt_gen: np.ndarray,
            bc_key: np.ndarray, bc_val: np.ndarray, bc_gen: np.ndarray) -> int:
    """The value of the position (fail-soft within ``(alpha0, beta0)``): seat ``seat0`` plays
    the ``k0``-th card of trick ``t0`` (``k0 == 0``: a trick boundary).  Alpha-beta on an
    explicit stack (numba caches no recursive function safely)."""
    n = Q[N]
    ntr = Q[T]
    smax = Q[S]
    inf = Q[INF]
    kind = Q[KIND]
    npc = Q[P]
    gen = Q[GEN]
    bgen = Q[BGEN]
    fr = np.zeros((DEPTH, FIELDS), np.int64)
    mv = np.zeros((DEPTH, 12), np.int64)
    ky = np.zeros((DEPTH, 9), np.int64)
    skeys = np.zeros(12, np.int64)
    stmp = np.zeros(12, np.int64)
    res = np.zeros(3, np.int64)
    sp = 0
    fr[0, F_SEAT] = seat0
    fr[0, F_K] = k0
    fr[0, F_T] = t0
    fr[0, F_OUT] = out0
    fr[0, F_LED] = led0
    fr[0, F_BEST] = best0 if k0 else -1
    fr[0, F_BSEAT] = bseat0 if k0 else -1
    fr[0, F_TMASK] = tmask0
    fr[0, F_ALPHA] = alpha0
    fr[0, F_BETA] = beta0
    entering = True
    val = 0
    while True:
        if entering:
            # -- enter frame sp: bounds and the table at a trick boundary, then the moves --
            entering = False
            seat = fr[sp, F_SEAT]
            k = fr[sp, F_K]
            t = fr[sp, F_T]
            out = fr[sp, F_OUT]
            alpha = fr[sp, F_ALPHA]
            beta = fr[sp, F_BETA]
            fr[sp, F_SLOT] = -1
            first = -1
            done = False
            if k == 0:
                if Q[BOUNDS]:
                    if kind == ADDITIVE:
                        left = ntr - t
                        lo = Q[LAST_LO] + left * Q[TRICK_LO]
                        hi = Q[LAST_HI] + left * Q[TRICK_HI]
                        for u in range(4):
                            sub = out >> (9 * u) & 511
                            lo += lo_tab[u, sub]
                            hi += hi_tab[u, sub]
                        if lo >= beta or lo == hi:
                            val = lo
                            done = True
                        elif hi <= alpha:
                            val = hi
                            done = True
                        elif _keeps_out(Q, H, seat, t, out, lead_ban, disc_ban):
                            lo2 = Q[IDLE_LAST] + left * Q[IDLE_TRICK]
                            for u in range(4):
                                lo2 += idle_tab[u, out >> (9 * u) & 511]
                            if lo2 >= beta or lo2 == hi:
                                val = lo2
                                done = True
                            elif lo2 > alpha:
                                alpha = lo2
                    else:
                        combo = 0
                        for p in range(npc):
                            combo += sigid[p, code[p]] * smult[p]
                        bslot = (combo * 0x9E3779B1) & Q[BC_MASK]
                        if bc_gen[bslot] != bgen or bc_key[bslot] != combo:
                            _table_bounds(Q, cnt, total, fidx, fstride, pw, leaf, comp_off,
                                          comp, res)
                            bc_key[bslot] = combo
                            bc_gen[bslot] = bgen
                            bc_val[bslot, 0] = res[0]
                            bc_val[bslot, 1] = res[1]
                            bc_val[bslot, 2] = res[2]
                        lo = bc_val[bslot, 0]
                        hi = bc_val[bslot, 1]
                        lo2 = bc_val[bslot, 2]
                        if lo >= beta or lo == hi:
                            val = lo
                            done = True
                        elif hi <= alpha:
                            val = hi
                            done = True
                        elif lo2 > lo and _keeps_out(Q, H, seat, t, out, lead_ban, disc_ban):
                            if lo2 >= beta or lo2 == hi:
                                val = lo2
                                done = True
                            elif lo2 > alpha:
                                alpha = lo2
                if kind == BOOLEAN and Q[CUTS] and tv[smax]:
                    val = _beddl_verdict(H, smax, n, seat, t, out, lead_ban, disc_ban)
                    done = val >= 0
                if not done and Q[USE_TT]:
                    extra = 0
                    if kind == TABLE:
                        for p in range(npc):
                            extra += sigid[p, code[p]] * smult[p]
                    hsh = _fullkey(Q, H, uniform, seat, extra, ky[sp])
                    slot = hsh & Q[TT_MASK]
                    fr[sp, F_SLOT] = slot
                    if tt_gen[slot] == gen:
                        same = True
                        for i in range(9):
                            if tt_key[slot, i] != ky[sp, i]:
                                same = False
                                break
                        if same:
                            lo = tt_val[slot, 0]
                            hi = tt_val[slot, 1]
                            first = tt_val[slot, 2]
                            if lo >= beta:
                                val = lo
                                done = True
                            elif hi <= alpha:
                                val = hi
                                done = True
                            else:
                                if lo > alpha:
                                    alpha = lo
                                if hi < beta:
                                    beta = hi
                                if alpha >= beta:
                                    val = alpha
                                    done = True
            if not done:
                Q[NODES] += 1
                h = H[seat]
                fr[sp, F_HAND] = h
                fr[sp, F_ALPHA] = alpha
                fr[sp, F_BETA] = beta
                fr[sp, F_A0] = alpha
                fr[sp, F_B0] = beta
                led = fr[sp, F_LED]
                legal = _legal(h, k, t, led, lead_ban, disc_ban)
                m = _order(Q, H, sig, seat, k, legal, out, fr[sp, F_BEST], led,
                           fr[sp, F_BSEAT], mv[sp], skeys, stmp)
                if first >= 0 and mv[sp, 0] != first:
                    for i in range(1, m):
                        if mv[sp, i] == first:
                            for j in range(i, 0, -1):
                                mv[sp, j] = mv[sp, j - 1]
                            mv[sp, 0] = first
                            break
                fr[sp, F_CNT] = m
                fr[sp, F_IDX] = 0
                fr[sp, F_V] = -inf if seat == smax else inf
                fr[sp, F_BESTC] = -1
                continue
            # the frame is decided without a move: return val to the parent
        else:
            # -- continue frame sp: try its next move, or finish it --------------------------
            i = fr[sp, F_IDX]
            if i < fr[sp, F_CNT]:
                seat = fr[sp, F_SEAT]
                k = fr[sp, F_K]
                t = fr[sp, F_T]
                led = fr[sp, F_LED]
                best = fr[sp, F_BEST]
                c = mv[sp, i]
                bit = 1 << c
                H[seat] = fr[sp, F_HAND] ^ bit
                if k == 0:
                    nled = 0x1FF << (c // 9 * 9)
                    nbest = c
                    nbseat = seat
                elif bit & led and c > best:
                    nled = led
                    nbest = c
                    nbseat = seat
                else:
                    nled = led
                    nbest = best
                    nbseat = fr[sp, F_BSEAT]
                tm = fr[sp, F_TMASK] | bit
                ch = sp + 1
                if k + 1 < n:
                    fr[ch, F_SEAT] = (seat + 1) % n
                    fr[ch, F_K] = k + 1
                    fr[ch, F_T] = t
                    fr[ch, F_OUT] = fr[sp, F_OUT]
                    fr[ch, F_LED] = nled
                    fr[ch, F_BEST] = nbest
                    fr[ch, F_BSEAT] = nbseat
                    fr[ch, F_TMASK] = tm
                    fr[ch, F_ALPHA] = fr[sp, F_ALPHA]
                    fr[ch, F_BETA] = fr[sp, F_BETA]
                    fr[ch, F_G] = 0
                    sp = ch
                    entering = True
                    continue
                # the trick's last card: its winner takes it
                w = nbseat
                g = 0
                leaf_now = False
                if kind == BOOLEAN:
                    if tv[w] or t + 1 == ntr:  # lost at once, or made at the end
                        val = 0 if tv[w] else 1
                        leaf_now = True
                elif kind == ADDITIVE:
                    g = tv[w]
                    mm = tm
                    while mm:
                        low = mm & -mm
                        g += cv[w, _low(low)]
                        mm ^= low
                else:
                    for p in range(npc):
                        pm = pieces[p]
                        add = 1 if pm == -1 else _popcount(tm & pm)
                        cnt[p, w] += add
                        code[p] += add * pw[p, w]
                if leaf_now:
                    H[seat] = fr[sp, F_HAND]
                elif t + 1 == ntr:  # the last trick: a leaf
                    if kind == ADDITIVE:
                        val = g + lv[w]
                    else:
                        base = 0
                        for p in range(npc):
                            base += fidx[p, code[p]] * fstride[p]
                        val = leaf[base + (w if Q[HAS_LAST] else 0)]
                        for p in range(npc):
                            pm = pieces[p]
                            add = 1 if pm == -1 else _popcount(tm & pm)
                            cnt[p, w] -= add
                            code[p] -= add * pw[p, w]
                    H[seat] = fr[sp, F_HAND]
                    # fall through to "a child returned val" below, in frame sp
                else:
                    fr[ch, F_SEAT] = w
                    fr[ch, F_K] = 0
                    fr[ch, F_T] = t + 1
                    fr[ch, F_OUT] = fr[sp, F_OUT] & ~tm
                    fr[ch, F_LED] = 0
                    fr[ch, F_BEST] = -1
                    fr[ch, F_BSEAT] = -1
                    fr[ch, F_TMASK] = 0
                    fr[ch, F_ALPHA] = fr[sp, F_ALPHA] - g
                    fr[ch, F_BETA] = fr[sp, F_BETA] - g
                    fr[ch, F_G] = g
                    fr[ch, F_W] = w
                    fr[ch, F_TMC] = tm
                    sp = ch
                    entering = True
                    continue
                # a leaf's value, taken by frame sp as a child's
                r = val
                maxing = seat == smax
                v = fr[sp, F_V]
                if maxing:
                    if r > v:
                        fr[sp, F_V] = r
                        fr[sp, F_BESTC] = c
                        if r > fr[sp, F_ALPHA]:
                            fr[sp, F_ALPHA] = r
                            if r >= fr[sp, F_BETA]:
                                fr[sp, F_IDX] = fr[sp, F_CNT]
                                continue
                elif r < v:
                    fr[sp, F_V] = r
                    fr[sp, F_BESTC] = c
                    if r < fr[sp, F_BETA]:
                        fr[sp, F_BETA] = r
                        if fr[sp, F_ALPHA] >= r:
                            fr[sp, F_IDX] = fr[sp, F_CNT]
                            continue
                fr[sp, F_IDX] = i + 1
                continue
            # every move tried (or a cut-off): the frame's value
            val = fr[sp, F_V]
            if fr[sp, F_K] == 0 and fr[sp, F_SLOT] >= 0:
                slot = fr[sp, F_SLOT]
                same = tt_gen[slot] == gen
                if same:
                    for j in range(9):
                        if tt_key[slot, j] != ky[sp, j]:
                            same = False
                            break
                lo = tt_val[slot, 0] if same else -inf
                hi = tt_val[slot, 1] if same else inf
                if val <= fr[sp, F_A0]:
                    hi = min(hi, val)
                elif val >= fr[sp, F_B0]:
                    lo = max(lo, val)
                else:
                    lo = val
                    hi = val
                for j in range(9):
                    tt_key[slot, j] = ky[sp, j]
                tt_gen[slot] = gen
                tt_val[slot, 0] = lo
                tt_val[slot, 1] = hi
                tt_val[slot, 2] = fr[sp, F_BESTC]
        # -- frame sp returns val to its parent ----------------------------------------------
        if sp == 0:
            return val
        ch = sp
        sp -= 1
        seat = fr[sp, F_SEAT]
        H[seat] = fr[sp, F_HAND]
        r = val
        if fr[sp, F_K] + 1 == n:  # the child started a new trick
            r += fr[ch, F_G]
            if kind == TABLE:
                w = fr[ch, F_W]
                tm = fr[ch, F_TMC]
                for p in range(npc):
                    pm = pieces[p]
                    add = 1 if pm == -1 else _popcount(tm & pm)
                    cnt[p, w] -= add
                    code[p] -= add * pw[p, w]
        i = fr[sp, F_IDX]
        c = mv[sp, i]
        v = fr[sp, F_V]
        if seat == smax:
            if r > v:
                fr[sp, F_V] = r
                fr[sp, F_BESTC] = c
                if r > fr[sp, F_ALPHA]:
                    fr[sp, F_ALPHA] = r
                    if r >= fr[sp, F_BETA]:
                        fr[sp, F_IDX] = fr[sp, F_CNT]
                        continue
        elif r < v:
            fr[sp, F_V] = r
            fr[sp, F_BESTC] = c
            if r < fr[sp, F_BETA]:
                fr[sp, F_BETA] = r
                if fr[sp, F_ALPHA] >= r:
                    fr[sp, F_IDX] = fr[sp, F_CNT]
                    continue
        fr[sp, F_IDX] = i + 1


def search(*args: Any) -> int:
    """The kernel's entry point (the arguments of :func:`_search`)."""
    return int(_search(*args))
