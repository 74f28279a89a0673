"""The double-dummy search of trick deals: alpha-beta on bit sets, with what makes it fast.

A position is every seat's cards (bit sets), the trick in progress and the tricks played.  The
search values it for one seat ``S`` (the *maximiser*; in Beddl and Mord the declarer), everyone
else minimising ("paranoid"), in one of the three ways of :mod:`herzla.analysis.scoring`.
:class:`TrickSearch` is the entry point for all three; a made/lost (boolean) scorer is searched by
:mod:`herzla.analysis.madelost`, the others by the alpha-beta search here.

Techniques (``benchmarks/README.md`` measures what each buys):

- **bit sets in strength order**: inside the search a card is ``suit * 9 + strength``, so within a
  suit a higher bit is a stronger card and "does it win the trick" is one comparison;
- **equivalent cards**: two cards of one seat that are neighbours in strength among the cards
  still out (in hands or on the table), and that belong to the same counted classes and lead
  bans, lead to the same values, so only the lowest of each run is searched;
- **transposition table** at trick boundaries, keyed by the hands and the leader (and, for
  non-additive scorers, the signatures of the partial tallies), holding lower and upper bounds
  and the best lead; the trick index follows from the cards left, so the lead bans do too;
- **move ordering**: the table's best lead first, then by the contract's polarity (where
  winning tricks is bad for the maximiser everyone tries ducking first, else winning first);
- **bounds**: what the cards and tricks still to come can add to the maximiser's score at most
  and at least (additive scorers), or the best and worst leaf any completion of the partial
  tallies reaches (table scorers), which ends the search of a position whose window it falls
  outside; and when ``S`` can keep out of every trick still to come, the worst score in which it
  captures nothing more;
- **null-window searches**: exact values come from MTD(f), a series of null-window searches
  sharing the table;
- **memoised work**: equivalence runs and move orders per holding, keys per position, the partial
  tallies of a table scorer interned with their transitions, leaves and bounds.

Legality comes from the declaration alone: follow suit, ``declaration.banned(trick, leading)``
with the escape (a ban never leaves a seat without a legal card), ``declaration.early_end``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from herzla.analysis.common import (
    BELOW,
    SUIT,
    Start,
    first_to_front,
    load_position,
    make_keys,
    make_legal,
    make_runs,
    safe_pairs,
    strength,
)
from herzla.analysis.frames import on_own_stack
from herzla.analysis.scoring import AdditiveScore, BooleanScore, LeafTable, TrickScore, reach
from herzla.contracts import EarlyEnd, TrickContract
from herzla.tricks import TrickHand

__all__ = ["Features", "TrickSearch"]


@attrs.frozen(slots=True)
class Features:
    """Which techniques the search uses (all by default; switched off only to measure them)."""

    equivalence: bool = True
    table: bool = True
    ordering: bool = True
    bounds: bool = True
    mtdf: bool = True
    relative: bool = True


class TrickSearch:
    """The search of one trick deal for one maximising seat.

    Build it once for a deal; :meth:`value` answers positions of that deal given as reference
    engine states (:class:`herzla.tricks.TrickHand`), all sharing one transposition table.
    Values are the maximiser's: made (1) or lost (0) for a boolean scorer, else its final score
    (times ``sign``: -1 where lower is better, so the search always maximises).
    """

    def __init__(self, contract: TrickContract, score: TrickScore, seat: int, sign: int = 1,
                 features: Features | None = None) -> None:
        f = features or Features()
        self.features = f
        self.contract = contract
        self.score = score
        self.seat = seat
        self.sign = sign
        self.nodes = 0
        n = contract.players
        self.players = n
        strength = contract.rank_order().strength
        # card index -> search bit, and back
        to_bit = [0] * 36
        for i in range(36):
            to_bit[i] = (i // 9) * 9 + strength[i % 9]
        self._to_bit = to_bit
        # one suit's cards (9 bits by rank) -> the same in search bits (the order is per rank)
        self._suit_bits = [0] * 512
        for sub in range(1, 512):
            low = sub & -sub
            self._suit_bits[sub] = self._suit_bits[sub ^ low] | 1 << strength[low.bit_length() - 1]
        self._to_card = [0] * 36
        for i, b in enumerate(to_bit):
            self._to_card[b] = i
        d = contract.declaration
        self._classes = d.classes()
        self._bans = d.lead_bans
        self._early_end = d.early_end
        self._ban_cache: dict[tuple[int, bool], int] = {}
        self.tt: dict[object, tuple[int, int, int]] = {}
        self._root: Callable[[TrickHand], Callable[[int, int], int]] | None = None
        self._moves: Callable[[TrickHand], list[int]] | None = None
        # the polarity: does the maximiser want to win tricks?
        self.gain = self._polarity()
        #: beyond every value this search can return, at any amount (see scoring.reach)
        self.inf = reach(score, seat, contract.hand_size) + 1

    # -- conversions ------------------------------------------------------------------------
    def bits(self, mask: int) -> int:
        """A card-index bit set in search bits."""
        tab = self._suit_bits
        return (tab[mask & 511] | tab[mask >> 9 & 511] << 9 | tab[mask >> 18 & 511] << 18
                | tab[mask >> 27 & 511] << 27)

    def card(self, bit: int) -> int:
        """The card index of a search bit number."""
        return self._to_card[bit]

    def banned(self, trick: int, leading: bool) -> int:
        """The search bits banned from being led (discarded) to trick ``trick``."""
        key = (trick, leading)
        got = self._ban_cache.get(key)
        if got is None:
            ban = self.contract.declaration.banned(trick, leading)
            got = self._ban_cache[key] = self.bits(ban[0]) if ban else 0
        return got

    def _polarity(self) -> bool:
        sc = self.score
        if isinstance(sc, BooleanScore):
            return sc.early_end is EarlyEnd.DEFENDER_WINS
        if isinstance(sc, AdditiveScore):
            s = self.seat
            total = sum(sc.card[s][s]) + sc.trick[s][s] * self.contract.hand_size \
                + sc.last[s][s]
            return self.sign * total > 0
        return False

    # -- the search -------------------------------------------------------------------------
    def value(self, state: TrickHand, alpha: int | None = None, beta: int | None = None) -> int:
        """The value of an engine state (fail-soft within ``(alpha, beta)``; by default the
        full window)."""
        alpha = -self.inf if alpha is None else alpha
        beta = self.inf if beta is None else beta
        if isinstance(self.score, BooleanScore):  # made (1) or lost (0): nothing outside
            if beta <= 0:
                return 0
            if alpha >= 1:
                return 1
        run = self._make(state)
        return run(alpha, beta)

    def exact(self, state: TrickHand, guess: int = 0) -> int:
        """The exact value of an engine state: MTD(f) (or one full-window search)."""
        run = self._make(state)
        if isinstance(self.score, BooleanScore):
            return run(0, 1)
        INF = self.inf
        if not self.features.mtdf:
            return run(-INF, INF)
        lo, hi, g = -INF, INF, guess
        while lo < hi:
            beta = g + 1 if g == lo else g
            g = run(beta - 1, beta)
            if g < beta:
                hi = g
            else:
                lo = g
        return g

    def classes(self, state: TrickHand) -> dict[int, list[int]]:
        """The legal cards of the seat to play grouped into equivalent runs: the card index of
        each run's lowest card -> the card indices of the run."""
        legal = self.bits(state.legal_mask())
        seat = state.turn
        h = self.bits(state.hands[seat])
        out_cards = self.bits(sum(state.hands) | sum(c.bit for c in state.trick))
        sig = self._signatures()
        runs: dict[int, list[int]] = {}
        m = legal
        rep_of: dict[int, int] = {}
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            below = out_cards & BELOW[c]
            rep = c
            if below and self.features.equivalence:
                p = below.bit_length() - 1
                if h >> p & 1 and sig[p] == sig[c]:
                    rep = rep_of[p]
            rep_of[c] = rep
            runs.setdefault(self.card(rep), []).append(self.card(c))
        return runs

    def _signatures(self) -> list[int]:
        got: list[int] | None = getattr(self, "_sig", None)
        if got is None:
            sig = []
            for b in range(36):
                i = self._to_card[b]
                key = 0
                for k, m in enumerate(self._classes):
                    if m >> i & 1:
                        key |= 1 << k
                for k, ban in enumerate(self._bans):
                    if ban.cards >> i & 1:
                        key |= 1 << (k + len(self._classes))
                sig.append(key)
            got = self._sig = sig
        return got

    def _make(self, state: TrickHand) -> Callable[[int, int], int]:
        """A function (alpha, beta) -> value of ``state``."""
        if self._root is None:
            self._root, self._moves = self._search_of(state)
        return self._root(state)

    def _search_of(self, state: TrickHand) -> tuple[
            Callable[[TrickHand], Callable[[int, int], int]], Callable[[TrickHand], list[int]]]:
        if isinstance(self.score, BooleanScore):
            from herzla.analysis import madelost

            return madelost.build(self, state)
        return self._build(state)

    def moves(self, state: TrickHand) -> list[int]:
        """The card indices the search tries for the seat to play, in its order (equivalent
        cards once; at a trick boundary the table's best lead first)."""
        if self._moves is None:
            self._root, self._moves = self._search_of(state)
        return self._moves(state)

    def _build(self, state: TrickHand) -> tuple[Callable[[TrickHand], Callable[[int, int], int]],
                                                Callable[[TrickHand], list[int]]]:
        """The search's functions for the deal of ``state``: one giving (alpha, beta) -> value
        of a position, and one giving the moves of a position in search order."""
        n = self.players
        H = [self.bits(h) for h in state.hands]
        sc = self.score
        assert not isinstance(sc, BooleanScore)  # made/lost: herzla.analysis.madelost
        seat_max = self.seat
        sign = self.sign
        T = state.tricks_per_hand
        f = self.features
        equivalence, use_tt, ordering, use_bounds = f.equivalence, f.table, f.ordering, f.bounds
        tt = self.tt
        sig = self._signatures()
        gain = self.gain
        lead_ban = [self.banned(t, True) for t in range(T)]
        disc_ban = [self.banned(t, False) for t in range(T)]
        suit_of = SUIT
        S = self.seat
        search = self
        INF = self.inf

        # -- what a finished trick is worth, per scoring kind --------------------------------
        additive = isinstance(sc, AdditiveScore)
        table = isinstance(sc, LeafTable)
        cv: list[list[int]] = []
        tv: list[int] = []
        lv: list[int] = []
        lo_tab: list[list[int]] = []
        hi_tab: list[list[int]] = []
        trick_lo = trick_hi = last_lo = last_hi = 0
        idle_tab: list[list[int]] = []
        idle_trick = idle_last = 0
        if isinstance(sc, AdditiveScore):
            for w in range(n):
                row = [0] * 36
                for b in range(36):
                    row[b] = sign * sc.card[S][w][self._to_card[b]]
                cv.append(row)
                tv.append(sign * sc.trick[S][w])
                lv.append(sign * sc.last[S][w])
            cmin = [min(cv[w][b] for w in range(n)) for b in range(36)]
            cmax = [max(cv[w][b] for w in range(n)) for b in range(36)]
            for s in range(4):
                los, his = [0] * 512, [0] * 512
                for sub in range(1, 512):
                    low = sub & -sub
                    b = s * 9 + low.bit_length() - 1
                    los[sub] = los[sub ^ low] + cmin[b]
                    his[sub] = his[sub ^ low] + cmax[b]
                lo_tab.append(los)
                hi_tab.append(his)
            trick_lo, trick_hi = min(tv), max(tv)
            last_lo, last_hi = min(lv), max(lv)
            others = [w for w in range(n) if w != S]
            imin = [min(cv[w][b] for w in others) for b in range(36)]
            for u in range(4):
                tab = [0] * 512
                for sub in range(1, 512):
                    low = sub & -sub
                    tab[sub] = tab[sub ^ low] + imin[u * 9 + low.bit_length() - 1]
                idle_tab.append(tab)
            idle_trick = min(tv[w] for w in others)
            idle_last = min(lv[w] for w in others)
        # table scorer: the partial tallies (per piece: a tuple per seat) and their masks
        pieces: list[int] = []
        partial: list[tuple[int, ...]] = []
        if isinstance(sc, LeafTable):
            pieces = [self.bits(m) for m in sc.classes]
            for m in sc.classes:
                partial.append(tuple((c & m).bit_count() for c in state.captured))
            if sc.has_tricks:
                partial.append(tuple(state.won))
        nclass = len(pieces)
        # the partial tallies reached, interned: state id -> the tallies (a tuple per piece),
        # the id of their signatures; transitions (state, winner, cards of each class in the
        # trick) -> state; leaves (state, winner) -> value
        st_partial: list[tuple[tuple[int, ...], ...]] = []
        st_sig: list[int] = []
        st_ids: dict[tuple[tuple[int, ...], ...], int] = {}
        sig_ids: dict[tuple[int, ...], int] = {}
        sig_of: list[tuple[int, ...]] = []
        trans: dict[int, int] = {}
        leaves: dict[int, int] = {}
        pid = [0]  # the current state

        def intern(tallies: tuple[tuple[int, ...], ...]) -> int:
            got = st_ids.get(tallies)
            if got is None:
                assert isinstance(sc, LeafTable)
                got = st_ids[tallies] = len(st_partial)
                st_partial.append(tallies)
                sigs = tuple(sc.signature(S, p, tallies[p]) for p in range(len(tallies)))
                sid = sig_ids.get(sigs)
                if sid is None:
                    sid = sig_ids[sigs] = len(sig_of)
                    sig_of.append(sigs)
                st_sig.append(sid)
            return got

        def advance(cur: int, winner: int, tmask: int) -> int:
            """The state after ``winner`` takes the trick ``tmask`` in state ``cur``."""
            ks = cur * n + winner
            for p in range(nclass):
                ks = (ks << 4) | (tmask & pieces[p]).bit_count()
            got = trans.get(ks)
            if got is None:
                tallies = list(st_partial[cur])
                for p in range(nclass):
                    k = (tmask & pieces[p]).bit_count()
                    if k:
                        old = tallies[p]
                        tallies[p] = (*old[:winner], old[winner] + k, *old[winner + 1:])
                if len(tallies) > nclass:
                    old = tallies[nclass]
                    tallies[nclass] = (*old[:winner], old[winner] + 1, *old[winner + 1:])
                got = trans[ks] = intern(tuple(tallies))
            return got

        def leaf_of(state_id: int, winner: int) -> int:
            lk = state_id * n + winner
            got = leaves.get(lk)
            if got is None:
                assert isinstance(sc, LeafTable)
                tallies = st_partial[state_id]
                finals = [sc.index[p][tallies[p]] for p in range(len(tallies))]
                got = leaves[lk] = sign * sc.value(S, finals, winner)
            return got

        if isinstance(sc, LeafTable):
            pid[0] = intern(tuple(partial))
        bcache: dict[int, tuple[int, int, int]] = {}
        # relative ranks (herzla.analysis.common.make_keys), memoised by the position's cards
        relative_key = make_keys(self, H)
        raw_keys: dict[tuple[int, ...], int] = {}

        def key_of(leader: int) -> object:
            if table:
                return (cards_key(leader) << 32) | st_sig[pid[0]]
            return cards_key(leader)

        def cards_key(leader: int) -> int:
            raw = (leader, *H)
            k = raw_keys.get(raw)
            if k is None:
                k = raw_keys[raw] = relative_key(leader)
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
            cur = pid[0]
            ks = cur * n + winner
            for p in range(nclass):
                ks = (ks << 4) | (tmask & pieces[p]).bit_count()
            nxt_state = trans.get(ks)
            if nxt_state is None:
                nxt_state = advance(cur, winner, tmask)
            if t + 1 == T:
                return leaf_of(nxt_state, winner)
            pid[0] = nxt_state
            v = boundary(winner, t + 1, out & ~tmask, alpha, beta)
            pid[0] = cur
            return v

        complete = complete_additive if additive else complete_table

        runs: dict[int, tuple[int, ...]] = {}  # (legal cards, hand, cards out) -> runs

        runs_of = make_runs(sig, equivalence)

        sorted_runs: dict[int, tuple[int, ...]] = {}  # (runs key, way) -> runs in order
        shed_key = lambda b: b % 9 + (16 if sig[b] else 0)  # noqa: E731

        def sorted_of(rkey: int, way: int, reps: tuple[int, ...]) -> tuple[int, ...]:
            """The runs ``reps`` ordered one ``way``: 1 by strength, 2 by strength downwards,
            3 scoring cards and strength, 4 that downwards, 5 reversed."""
            skey = rkey << 3 | way
            got = sorted_runs.get(skey)
            if got is None:
                if way == 5:
                    got = reps[::-1]
                else:
                    got = tuple(sorted(reps, key=strength if way <= 2 else shed_key,
                                       reverse=way in (2, 4)))
                sorted_runs[skey] = got
            return got

        def order(seat: int, k: int, legal: int, out: int, best: int, led: int,
                  bseat: int = -1) -> Sequence[int]:
            if not legal & (legal - 1):
                return (legal.bit_length() - 1,)
            h = H[seat]
            following = legal & led
            if following:  # the runs depend on the suit's cards alone
                rkey = legal | (out & led) << 36
            else:
                rkey = ((h << 36 | legal) << 36 | out) << 1 | 1
            reps = runs.get(rkey)
            if reps is None:
                reps = runs[rkey] = tuple(runs_of(h, legal, out))
            if not ordering or len(reps) < 2:
                return reps
            if seat != seat_max and not gain:
                # the others, where winning tricks is bad for the seat: follow and lead low,
                # discard high
                if k:
                    if not following:
                        return sorted_of(rkey, 4, reps)
                    if bseat != seat_max and (
                            (seat_max - seat) % n >= n - k
                            or not H[seat_max] & led & ~((2 << best) - 1)):
                        return sorted_of(rkey, 5, reps)  # the seat cannot win: shed high
                    return reps
                # lead where the seat's low cards are least covered
                mine = H[seat_max]
                theirs = out & ~mine
                rank: dict[int, int] = {}
                for sh in (0, 9, 18, 27):
                    d = mine >> sh & 511
                    if d:
                        rank[sh] = (theirs >> sh & 511 & ((d & -d) - 1)).bit_count()
                    else:
                        rank[sh] = 16
                return sorted(reps, key=lambda c: (rank[c // 9 * 9], c % 9))
            if k == 0:  # lead: low cards first when avoiding, high when winning
                return sorted_of(rkey, 2 if gain else 1, reps)
            if following:
                ducks = [c for c in reps if c < best]
                overs = [c for c in reps if c > best]
                if gain:
                    return overs + ducks
                ducks.reverse()
                overs.reverse()
                return ducks + overs
            # discard: the highest first when avoiding
            return sorted_of(rkey, 3 if gain else 4, reps)

        legal_of = make_legal(H, lead_ban, disc_ban)

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

        def bounds(t: int, out: int) -> tuple[int, int]:
            lo = last_lo + (T - t) * trick_lo
            hi = last_hi + (T - t) * trick_hi
            for s in range(4):
                sub = out >> (9 * s) & 511
                lo += lo_tab[s][sub]
                hi += hi_tab[s][sub]
            return lo, hi

        others_of_s = [w for w in range(n) if w != S]

        def escapes(out: int) -> bool:
            """Whether seat ``S``, not to lead, can keep out of every trick still to come: in
            every suit its i-th lowest card is below the others' i-th lowest (it plays low under
            every lead and discards high, and so never leads)."""
            mine = H[S]
            theirs = out & ~mine
            return all(safe_pairs(mine >> sh & 511, theirs >> sh & 511)
                       for sh in (0, 9, 18, 27))

        def keeps_out(leader: int, t: int, out: int) -> bool:
            """Whether seat ``S`` can keep out of every trick still to come: not to lead, as
            :func:`escapes`; to lead, when it can lead a card that a seat holding only higher
            cards of the suit must overtake, and escapes with the rest (the others' cards that
            fall to this trick only make escaping easier)."""
            if leader != S:
                return escapes(out)
            mine = H[S]
            theirs = out & ~mine
            m = legal_of(S, 0, t, 0)
            while m:
                top = m.bit_length() - 1
                x = 1 << top
                m ^= x
                suit = suit_of[top]
                for s_ in others_of_s:
                    held = H[s_] & suit
                    if held and held & -held > x:
                        break
                else:
                    continue
                rest = mine ^ x
                if all(safe_pairs(rest >> sh & 511, theirs >> sh & 511)
                       for sh in (0, 9, 18, 27)):
                    return True
            return False

        def idle_bound(t: int, out: int) -> int:
            """Additive scorers: the least ``S`` gets when it captures nothing more."""
            lo = idle_last + (T - t) * idle_trick
            for u in range(4):
                lo += idle_tab[u][out >> (9 * u) & 511]
            return lo

        def boundary(leader: int, t: int, out: int, alpha: int, beta: int) -> int:
            if additive and use_bounds:
                lo, hi = bounds(t, out)
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                if keeps_out(leader, t, out):
                    lo2 = idle_bound(t, out)
                    if lo2 >= beta or lo2 == hi:
                        return lo2
                    if lo2 > alpha:
                        alpha = lo2
            elif table and use_bounds:
                sid = st_sig[pid[0]]
                got_b = bcache.get(sid)
                if got_b is None:
                    assert isinstance(sc, LeafTable)
                    lo, hi = sc.bounds(S, sig_of[sid])
                    lo2, hi2 = sc.bounds(S, sig_of[sid], idle=True)
                    if sign < 0:
                        lo, hi, lo2, hi2 = -hi, -lo, -hi2, -lo2
                    got_b = bcache[sid] = (lo, hi, lo2)
                lo, hi, lo2 = got_b
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
        to_card = self._to_card

        def reset(st: TrickHand) -> Start:
            """Load a position (the tallies so far too, for a table scorer)."""
            if isinstance(sc, LeafTable):
                partial[:] = [tuple((c & m).bit_count() for c in st.captured)
                              for m in sc.classes]
                if sc.has_tricks:
                    partial.append(tuple(st.won))
                pid[0] = intern(tuple(partial))
            return load_position(search, st, H)

        def root(st: TrickHand) -> Callable[[int, int], int]:
            seat0, k0, t0, out0, led0, best0, bseat0, tmask0, leader0 = reset(st)
            if k0 == 0:
                def run(alpha: int, beta: int) -> int:
                    reset(st)
                    return on_own_stack(boundary, leader0, t0, out0, alpha, beta)
            else:
                def run(alpha: int, beta: int) -> int:
                    reset(st)
                    return on_own_stack(play, seat0, k0, t0, out0, led0, best0, bseat0, tmask0,
                                        alpha, beta)
            return run

        def moves(st: TrickHand) -> list[int]:
            seat0, k0, t0, out0, led0, best0, bseat0, _tmask, leader0 = reset(st)
            legal = legal_of(seat0, k0, t0, led0)
            got = list(order(seat0, k0, legal, out0, best0 if k0 else -1, led0, bseat0))
            first = -1
            if k0 == 0 and use_tt:
                hit = tt.get(key_of(leader0))
                if hit is not None:
                    first = hit[2]
            return [to_card[b] for b in first_to_front(got, first)]

        return root, moves
