"""The alpha-beta search of trick deals with an additive or a table scorer, on bit sets
(:func:`build`); :mod:`herzla.analysis.search.trick_search` describes the techniques and chooses
this search, the made/lost one or the compiled path."""

from __future__ import annotations

from collections.abc import Callable

from herzla.analysis.search.bounds import AdditiveBounds, TableBounds, make_keeps_out
from herzla.analysis.search.equivalence import make_runs
from herzla.analysis.search.frames import caller
from herzla.analysis.search.interface import Moves, Root, Search
from herzla.analysis.search.keys import make_keys
from herzla.analysis.search.leaves import AdditiveValues, TallyStates
from herzla.analysis.search.ordering import make_order
from herzla.analysis.search.position import SUIT, Start, load_position, make_legal
from herzla.analysis.search.scoring import AdditiveScore, BooleanScore, LeafTable
from herzla.kinds.tricks import TrickHand

__all__ = ["build"]


def build(search: Search, state: TrickHand) -> tuple[Root, Moves]:
    """The alpha-beta search of additive and table scorers for the deal of ``state``: one
    function giving (alpha, beta) -> value of a position, and one giving the moves of a position
    in search order.  The units it is made of are built here; the search proper is the two
    nested functions ``play`` (a card of a trick) and ``boundary`` (a trick boundary)."""
    n = search.players
    declared = search.declared
    H = [declared.bits(h) for h in state.hands]
    sc = search.score
    assert not isinstance(sc, BooleanScore)  # made/lost: herzla.analysis.search.made_or_lost
    S = seat_max = search.seat
    sign = search.sign
    T = state.tricks_per_hand
    f = search.features
    use_tt, use_bounds = f.table, f.bounds
    tt = search.tt
    INF = search.inf
    suit_of = SUIT
    lead_ban = declared.lead_bans(T)
    disc_ban = declared.discard_bans(T)
    legal_of = make_legal(H, lead_ban, disc_ban)
    order = make_order(H, declared.signature, seat_max, n, search.gain, f.ordering,
                       make_runs(declared.signature, f.equivalence))
    keeps_out = make_keeps_out(H, S, n, legal_of)
    relative_key = make_keys(declared, H, f.relative)

    # -- the leaves and bounds of the scorer ---------------------------------------------
    additive = isinstance(sc, AdditiveScore)
    table = isinstance(sc, LeafTable)
    cv: list[list[int]] = []
    tv: list[int] = []
    lv: list[int] = []
    abounds: AdditiveBounds | None = None
    if isinstance(sc, AdditiveScore):
        values = AdditiveValues(sc, S, sign, n, declared.to_card)
        cv, tv, lv = values.card, values.trick, values.last
        abounds = AdditiveBounds(values, S, n, T)
    tallies: TallyStates | None = None
    tbounds: TableBounds | None = None
    st_sig: list[int] = []
    trans: dict[int, int] = {}
    pieces: list[int] = []
    pid = [0]  # the current tally state (table scorers)
    if isinstance(sc, LeafTable):
        pieces = [declared.bits(m) for m in sc.classes]
        tallies = TallyStates(sc, S, sign, n, pieces)
        tbounds = TableBounds(sc, S, sign, tallies.sig_of)
        st_sig, trans = tallies.sig, tallies.trans
        pid[0] = tallies.of_captured(state.captured, state.won)

    raw_keys: dict[tuple[int, ...], int] = {}

    def key_of(leader: int) -> object:
        raw = (leader, *H)
        k = raw_keys.get(raw)
        if k is None:
            k = raw_keys[raw] = relative_key(leader)
        if table:
            return (k << 32) | st_sig[pid[0]]
        return k

    def complete_additive(winner: int, tmask: int, t: int, out: int, alpha: int,
                          beta: int) -> int:
        """The value after ``winner`` takes the trick ``tmask``: what it adds, and what
        follows."""
        row = cv[winner]
        gain_now = tv[winner]
        m = tmask
        while m:
            low = m & -m
            gain_now += row[low.bit_length() - 1]
            m ^= low
        if t + 1 == T:
            return gain_now + lv[winner]
        return gain_now + boundary(winner, t + 1, out & ~tmask, alpha - gain_now,
                                   beta - gain_now)

    def complete_table(winner: int, tmask: int, t: int, out: int, alpha: int,
                       beta: int) -> int:
        """The value after ``winner`` takes the trick ``tmask``: a leaf, or the next trick
        with the tallies advanced."""
        assert tallies is not None
        cur = pid[0]
        ks = cur * n + winner
        for m in pieces:
            ks = (ks << 4) | (tmask & m).bit_count()
        nxt_state = trans.get(ks)
        if nxt_state is None:
            nxt_state = tallies.advance(cur, winner, tmask)
        if t + 1 == T:
            return tallies.leaf(nxt_state, winner)
        pid[0] = nxt_state
        v = boundary(winner, t + 1, out & ~tmask, alpha, beta)
        pid[0] = cur
        return v

    complete = complete_additive if additive else complete_table

    def play(seat: int, k: int, t: int, out: int, led: int, best: int, bseat: int,
             tmask: int, alpha: int, beta: int) -> int:
        search.nodes += 1
        h = H[seat]
        legal = h & led
        if not legal:
            ban = disc_ban[t] if k else lead_ban[t]
            legal = h & ~ban if ban and h & ~ban else h
        maxing = seat == seat_max
        v = -INF if maxing else INF
        nxt = (seat + 1) % n
        for c in order(seat, k, legal, out, best, led, bseat):
            bit = 1 << c
            H[seat] = h ^ bit
            if bit & led and c > best:
                nbest, nbseat = c, seat
            else:
                nbest, nbseat = best, bseat
            if k + 1 == n:
                r = complete(nbseat, tmask | bit, t, out, alpha, beta)
            else:
                r = play(nxt, k + 1, t, out, led, nbest, nbseat, tmask | bit, alpha, beta)
            H[seat] = h
            if maxing:
                if r > v:
                    v = r
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif r < v:
                v = r
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return v

    def boundary(leader: int, t: int, out: int, alpha: int, beta: int) -> int:
        if use_bounds and abounds is not None:
            lo, hi = abounds.bounds(t, out)
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if keeps_out(leader, t, out):
                lo2 = abounds.idle(t, out)
                if lo2 >= beta or lo2 == hi:
                    return lo2
                if lo2 > alpha:
                    alpha = lo2
        elif use_bounds and tbounds is not None:
            lo, hi, lo2 = tbounds.of(st_sig[pid[0]])
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo2 > lo and keeps_out(leader, t, out):
                if lo2 >= beta or lo2 == hi:
                    return lo2
                if lo2 > alpha:
                    alpha = lo2
        key: object = None
        first = -1
        if use_tt:
            key = key_of(leader)
            got = tt.get(key)
            if got is not None:
                lo, hi, first = got
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
                if alpha >= beta:
                    return alpha
        search.nodes += 1
        legal = legal_of(leader, 0, t, 0)
        maxing = leader == seat_max
        v = -INF if maxing else INF
        best_card = -1
        h = H[leader]
        nxt = (leader + 1) % n
        moves = order(leader, 0, legal, out, -1, 0)
        if first >= 0 and first in moves and moves[0] != first:
            moves = [first, *(c for c in moves if c != first)]
        aa, bb = alpha, beta
        for c in moves:
            bit = 1 << c
            H[leader] = h ^ bit
            r = play(nxt, 1, t, out, suit_of[c], c, leader, bit, aa, bb)
            H[leader] = h
            if maxing:
                if r > v:
                    v, best_card = r, c
                    if v > aa:
                        aa = v
                        if aa >= bb:
                            break
            elif r < v:
                v, best_card = r, c
                if v < bb:
                    bb = v
                    if aa >= bb:
                        break
        if use_tt:
            old = tt.get(key)
            lo, hi = (old[0], old[1]) if old else (-INF, INF)
            if v <= alpha:
                hi = min(hi, v)
            elif v >= beta:
                lo = max(lo, v)
            else:
                lo = hi = v
            tt[key] = (lo, hi, best_card)
        return v

    # -- the root: the trick in progress ---------------------------------------------
    to_card = declared.to_card

    def reset(st: TrickHand) -> Start:
        """Load a position (the tallies so far too, for a table scorer)."""
        if tallies is not None:
            pid[0] = tallies.of_captured(st.captured, st.won)
        return load_position(declared, st, H)

    def root(st: TrickHand) -> Callable[[int, int], int]:
        seat0, k0, t0, out0, led0, best0, bseat0, tmask0, leader0 = reset(st)
        call: Callable[..., int] = caller(T - t0)  # deep: on a frame stack of its own
        if k0 == 0:
            def run(alpha: int, beta: int) -> int:
                reset(st)
                return call(boundary, leader0, t0, out0, alpha, beta)
        else:
            def run(alpha: int, beta: int) -> int:
                reset(st)
                return call(play, seat0, k0, t0, out0, led0, best0, bseat0, tmask0, alpha,
                            beta)
        return run

    def moves(st: TrickHand) -> list[int]:
        """The moves in the order of :func:`make_order` (not the table's: so that both paths,
        pure and compiled, give the same line)."""
        seat0, k0, t0, out0, led0, best0, bseat0, _tmask, _leader0 = reset(st)
        legal = legal_of(seat0, k0, t0, led0)
        got = order(seat0, k0, legal, out0, best0 if k0 else -1, led0, bseat0)
        return [to_card[b] for b in got]

    return root, moves
