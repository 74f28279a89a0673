"""The double-dummy search of trick deals: alpha-beta on bit sets, with what makes it fast.

A position is every seat's cards (bit sets), the trick in progress and the tricks played.  The
search values it for one seat ``S`` (the *maximiser*; in Beddl and Mord the declarer), everyone
else minimising ("paranoid"), in one of the three ways of :mod:`herzla.analysis.scoring`.
:class:`TrickSearch` is the entry point for all three; a made/lost (boolean) scorer is searched by
:mod:`herzla.analysis.madelost`, the others by the alpha-beta search here.

Techniques (``benchmarks/README.md`` measures what each buys), each a unit of its own:

- **bit sets in strength order** (:mod:`herzla.analysis.declared`): inside the search a card
  is ``suit * 9 + strength``, so within a suit a higher bit is a stronger card and "does it win
  the trick" is one comparison;
- **equivalent cards** (:mod:`herzla.analysis.equivalence`): two cards of one seat that are
  neighbours in strength among the cards still out (in hands or on the table), and that belong
  to the same counted classes and lead bans, lead to the same values, so only the lowest of each
  run is searched;
- **transposition table** at trick boundaries, keyed (:mod:`herzla.analysis.keys`) by the hands
  and the leader (and, for non-additive scorers, the signatures of the partial tallies), holding
  lower and upper bounds and the best lead; the trick index follows from the cards left, so the
  lead bans do too;
- **move ordering** (:mod:`herzla.analysis.ordering`): the table's best lead first, then by the
  contract's polarity (where winning tricks is bad for the maximiser everyone tries ducking
  first, else winning first);
- **bounds** (:mod:`herzla.analysis.bounds`): what the cards and tricks still to come can add to
  the maximiser's score at most and at least (additive scorers), or the best and worst leaf any
  completion of the partial tallies reaches (table scorers), which ends the search of a position
  whose window it falls outside; and when ``S`` can keep out of every trick still to come, the
  worst score in which it captures nothing more;
- **null-window searches**: exact values come from MTD(f), a series of null-window searches
  sharing the table;
- **memoised work**: equivalence runs and move orders per holding, keys per position, the partial
  tallies of a table scorer interned with their transitions, leaves and bounds.

Legality comes from the declaration alone (:mod:`herzla.analysis.declared`): follow suit,
``declaration.banned(trick, leading)`` with the escape (a ban never leaves a seat without a legal
card), ``declaration.early_end``; the leaves from the contract's ``settle``
(:mod:`herzla.analysis.scoring`, :mod:`herzla.analysis.leaves`).
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from herzla.analysis.bounds import AdditiveBounds, TableBounds, make_keeps_out
from herzla.analysis.common import SUIT, Start, load_position, make_legal
from herzla.analysis.declared import Declared
from herzla.analysis.equivalence import group_runs, make_runs
from herzla.analysis.frames import caller
from herzla.analysis.keys import make_keys
from herzla.analysis.leaves import AdditiveValues, TallyStates
from herzla.analysis.ordering import make_order
from herzla.analysis.scoring import AdditiveScore, BooleanScore, LeafTable, TrickScore, reach
from herzla.contracts import EarlyEnd, TrickContract
from herzla.tricks import TrickHand

__all__ = ["Features", "TrickSearch"]

Root = Callable[[TrickHand], Callable[[int, int], int]]
Moves = Callable[[TrickHand], list[int]]


@attrs.frozen(slots=True)
class Features:
    """Which techniques the search uses (all by default; switched off only to measure them)."""

    equivalence: bool = True
    table: bool = True
    ordering: bool = True
    bounds: bool = True
    mtdf: bool = True
    relative: bool = True
    #: the compiled kernel where it applies (:mod:`herzla.analysis.compiled`), else pure Python
    compiled: bool = True


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
        self.players = contract.players
        #: the declaration in search bits (conversions, bans, signatures, early end)
        self.declared = Declared.of(contract)
        self.tt: dict[object, tuple[int, int, int]] = {}
        self._root: Root | None = None
        self._moves: Moves | None = None
        #: which search ran: "pure" (Python) or "compiled" (herzla.analysis.kernel)
        self.path = "pure"
        self._fast: Root | None = None
        self._fast_tried = False
        # the polarity: does the maximiser want to win tricks?
        self.gain = self._polarity()
        #: beyond every value this search can return, at any amount (see scoring.reach)
        self.inf = reach(score, seat, contract.hand_size) + 1

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
        if isinstance(self.score, BooleanScore):
            fast = self._made_lost_kernel(state)
            if fast is not None:
                return fast(state)(0, 1)
            return self._make(state)(0, 1)
        run = self._make(state)
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

    def _made_lost_kernel(self, state: TrickHand) -> Root | None:
        """The compiled made/lost search, for :meth:`exact` alone (the line of best play keeps
        the pure search's order), where it applies: numba loaded already (by a search that
        needed it, as in ``herzla advise``), since the pure made/lost search answers a deal
        faster than numba loads."""
        if not self._fast_tried:
            self._fast_tried = True
            if self.features.compiled:
                from herzla.analysis import compiled

                if compiled.available():
                    self._fast = compiled.compiled_root(self, state)
        return self._fast

    def classes(self, state: TrickHand) -> dict[int, list[int]]:
        """The legal cards of the seat to play grouped into equivalent runs: the card index of
        each run's lowest card -> the card indices of the run."""
        d = self.declared
        out_cards = d.bits(sum(state.hands) | sum(c.bit for c in state.trick))
        groups = group_runs(d.signature, d.bits(state.hands[state.turn]),
                            d.bits(state.legal_mask()), out_cards, self.features.equivalence)
        return {d.card(rep): [d.card(c) for c in run] for rep, run in groups.items()}

    def _make(self, state: TrickHand) -> Callable[[int, int], int]:
        """A function (alpha, beta) -> value of ``state``."""
        if self._root is None:
            self._root, self._moves = self._search_of(state)
        return self._root(state)

    def _search_of(self, state: TrickHand) -> tuple[Root, Moves]:
        if isinstance(self.score, BooleanScore):
            from herzla.analysis import madelost

            return madelost.build(self, state)
        root, moves = build(self, state)
        if self.features.compiled:
            from herzla.analysis import compiled

            if compiled.available():
                fast = compiled.compiled_root(self, state)
                if fast is not None:
                    return fast, moves
        return root, moves

    def moves(self, state: TrickHand) -> list[int]:
        """The card indices the search tries for the seat to play, in its order (equivalent
        cards once; at a trick boundary the table's best lead first)."""
        if self._moves is None:
            self._root, self._moves = self._search_of(state)
        return self._moves(state)


def build(search: TrickSearch, state: TrickHand) -> tuple[Root, Moves]:
    """The alpha-beta search of additive and table scorers for the deal of ``state``: one
    function giving (alpha, beta) -> value of a position, and one giving the moves of a position
    in search order.  The units it is made of are built here; the search proper is the two
    nested functions ``play`` (a card of a trick) and ``boundary`` (a trick boundary)."""
    n = search.players
    declared = search.declared
    H = [declared.bits(h) for h in state.hands]
    sc = search.score
    assert not isinstance(sc, BooleanScore)  # made/lost: herzla.analysis.madelost
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
