"""The compiled alpha-beta search proper (:func:`search`): the search of
:func:`herzla.analysis.search.alphabeta.build` over the kernel's arrays, an explicit stack of
frames in place of recursion, with the units of :mod:`herzla.analysis.search.kernel.units`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from herzla.analysis.search.kernel import units
from herzla.analysis.search.kernel.cache import drop_stale_caches
from herzla.analysis.search.kernel.jit import njit
from herzla.analysis.search.kernel.slots import (
    ADDITIVE,
    BC_MASK,
    BGEN,
    BOOLEAN,
    BOUNDS,
    CUTS,
    DEPTH,
    F_A0,
    F_ALPHA,
    F_B0,
    F_BEST,
    F_BESTC,
    F_BETA,
    F_BSEAT,
    F_CNT,
    F_G,
    F_HAND,
    F_IDX,
    F_K,
    F_LED,
    F_OUT,
    F_SEAT,
    F_SLOT,
    F_T,
    F_TMASK,
    F_TMC,
    F_V,
    F_W,
    FIELDS,
    GEN,
    HAS_LAST,
    IDLE_LAST,
    IDLE_TRICK,
    INF,
    KIND,
    LAST_HI,
    LAST_LO,
    NODES,
    TABLE,
    TRICK_HI,
    TRICK_LO,
    TT_MASK,
    USE_TT,
    N,
    P,
    S,
    T,
)
from herzla.analysis.search.kernel.units import (
    beddl_verdict,
    full_key,
    keeps_out,
    legal_cards,
    lowest_bit,
    order_moves,
    popcount,
    table_bounds,
)

__all__ = ["search"]


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
                        elif keeps_out(Q, H, seat, t, out, lead_ban, disc_ban):
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
                            table_bounds(Q, cnt, total, fidx, fstride, pw, leaf, comp_off,
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
                        elif lo2 > lo and keeps_out(Q, H, seat, t, out, lead_ban, disc_ban):
                            if lo2 >= beta or lo2 == hi:
                                val = lo2
                                done = True
                            elif lo2 > alpha:
                                alpha = lo2
                if kind == BOOLEAN and Q[CUTS] and tv[smax]:
                    val = beddl_verdict(H, smax, n, seat, t, out, lead_ban, disc_ban)
                    done = val >= 0
                if not done and Q[USE_TT]:
                    extra = 0
                    if kind == TABLE:
                        for p in range(npc):
                            extra += sigid[p, code[p]] * smult[p]
                    hsh = full_key(Q, H, uniform, seat, extra, ky[sp])
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
                legal = legal_cards(h, k, t, led, lead_ban, disc_ban)
                m = order_moves(Q, H, sig, seat, k, legal, out, fr[sp, F_BEST], led,
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
                        g += cv[w, lowest_bit(low)]
                        mm ^= low
                else:
                    for p in range(npc):
                        pm = pieces[p]
                        add = 1 if pm == -1 else popcount(tm & pm)
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
                            add = 1 if pm == -1 else popcount(tm & pm)
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
                    add = 1 if pm == -1 else popcount(tm & pm)
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


# numba keys each function's disk cache to its own file alone: drop them all when any file of
# the kernel changed (herzla.analysis.search.kernel.cache)
drop_stale_caches([_search, *(getattr(units, name) for name in units.__all__)],
                  sorted(Path(__file__).parent.glob("*.py")))
