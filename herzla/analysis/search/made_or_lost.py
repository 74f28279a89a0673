"""The made/lost search of contracts that end early (Beddl, Mord): a boolean AND/OR search.

A contract whose score reads nothing but whether the early end came is made or lost, so its
search is boolean: a position of the declarer's is made when one of its plays is, a defender's
when every play is.  Every value is exact (a search never stops at a bound it does not know), so
the transposition table at trick boundaries holds the value itself and the lead that decided it.

Beyond the techniques of :mod:`herzla.analysis.search.trick_search` (equivalent cards,
:mod:`~herzla.analysis.search.equivalence`; relative-rank keys, :mod:`~herzla.analysis.search.keys`;
move ordering, :func:`herzla.analysis.search.ordering.make_made_lost_orders`; the verdicts of the
suits at trick boundaries, :func:`herzla.analysis.search.bounds.make_verdict`), the search cuts
inside a trick:

- *Beddl* (the declarer loses every trick): a declarer's card that would win the trick is not
  tried unless a seat after it holds only higher cards of the led suit (it must overtake); any
  other card is, since the defenders after it simply play low;
- *Mord* (the declarer wins every trick): the declarer tries only cards above the best card and
  above every card of the led suit that a seat after it holds; a defender before the declarer
  that can play above the declarer's cards of the suit (or leads a suit the declarer lacks)
  ends the contract at once;
- the last trick is not searched: one card a hand, its winner is read off.

Which contracts this is for, and their legality (follow suit, lead bans, the early end), come
from the declaration as read by :class:`~herzla.analysis.search.trick_search.TrickSearch`, which
builds this search for a boolean scorer.
"""

from __future__ import annotations

from collections.abc import Callable

from herzla.analysis.search.bounds import make_verdict
from herzla.analysis.search.equivalence import make_runs
from herzla.analysis.search.frames import caller
from herzla.analysis.search.interface import Moves, Root, Search
from herzla.analysis.search.keys import make_keys
from herzla.analysis.search.ordering import make_made_lost_orders
from herzla.analysis.search.position import (
    ABOVE,
    SUIT,
    Start,
    first_to_front,
    load_position,
    make_legal,
)
from herzla.analysis.search.scoring import BooleanScore
from herzla.contracts import EarlyEnd
from herzla.kinds.tricks import TrickHand

__all__ = ["build"]

_SHIFTS = (0, 9, 18, 27)


def build(search: Search, state: TrickHand) -> tuple[Root, Moves]:
    """The made/lost search of the deal of ``state``: a function giving (alpha, beta) -> value
    (made 1, lost 0) of a position, and one giving the moves of a position in search order."""
    sc = search.score
    assert isinstance(sc, BooleanScore)
    n = search.players
    declared = search.declared
    D = sc.declarer
    beddl = sc.early_end is EarlyEnd.DECLARER_WINS
    #: per trick winner: whether the trick ends the contract (then it is lost)
    lost_by = [declared.ends_on(w) for w in range(n)]
    T = state.tricks_per_hand
    f = search.features
    use_tt, ordering, cutoffs = f.table, f.ordering, f.bounds
    H = [declared.bits(h) for h in state.hands]
    lead_ban = declared.lead_bans(T)
    disc_ban = declared.discard_bans(T)
    sig = declared.signature
    tt: dict[object, tuple[int, int, int]] = search.tt
    above_tab = ABOVE
    suit_of = SUIT
    nodes = [0]
    # the seats after each seat in trick order, per number of cards already played
    after = [[[(s + i) % n for i in range(1, n - k)] for k in range(n)] for s in range(n)]
    defenders = [s for s in range(n) if s != D]
    seen: dict[tuple[int, ...], int] = {}  # positions decided, by their cards
    key_of = make_keys(declared, H, f.relative)
    legal_of = make_legal(H, lead_ban, disc_ban)
    reps_of = make_runs(sig, f.equivalence)
    verdict, witness = make_verdict(H, D, beddl, n, legal_of)
    lead_order, follow_order = make_made_lost_orders(H, sig, D, beddl, n, ordering)

    def last_trick(leader: int) -> int:
        """The last trick, one card a hand: made or lost by its winner."""
        lead = H[leader]
        led = suit_of[lead.bit_length() - 1]
        best, bseat = lead, leader
        for s in after[leader][0]:
            h = H[s]
            if h & led and h > best:
                best, bseat = h, s
        return 0 if lost_by[bseat] else 1

    def boundary(leader: int, t: int, out: int) -> int:
        if t + 1 == T:
            nodes[0] += 1
            return last_trick(leader)
        if not use_tt:
            return decide(leader, t, out)
        rk = (leader, *H)  # the position itself (the cards left tell the trick)
        v = seen.get(rk)
        if v is not None:
            return v
        v = decide(leader, t, out)
        seen[rk] = v
        return v

    def decide(leader: int, t: int, out: int) -> int:
        """The value of a position at a trick boundary not met before: the suits' verdict,
        else the table's, else the search of its leads."""
        if cutoffs:
            got_v = verdict(leader, t, out)
            if got_v >= 0:
                return got_v
        key: object = None
        if use_tt:
            key = key_of(leader)
            got = tt.get(key)
            if got is not None:
                return got[0]
        return lead(leader, t, out, key)

    def lead(leader: int, t: int, out: int, key: object) -> int:
        """Search the leads of a position not decided before, and store its value (and the
        lead that decided it) under ``key``."""
        nodes[0] += 1
        h = H[leader]
        legal = legal_of(leader, 0, t, 0)
        if cutoffs and leader == D:
            legal = declarer_leads(legal)
        moves = lead_order(leader, reps_of(h, legal, out), out)
        maxing = leader == D
        v = 0 if maxing else 1
        best_card = moves[0] if moves else -1
        nxt = (leader + 1) % n
        for c in moves:
            bit = 1 << c
            H[leader] = h ^ bit
            r = play(nxt, 1, t, out, suit_of[c], c, leader, bit)
            H[leader] = h
            if r != v:
                v, best_card = r, c
                break
        if use_tt:
            tt[key] = (v, v, best_card)
        return v

    def declarer_leads(legal: int) -> int:
        """The declarer's leads that keep the contract through this trick."""
        keep = 0
        for sh in _SHIFTS:
            mine = legal >> sh & 511
            if not mine:
                continue
            if beddl:  # a seat holding only higher cards of the suit must overtake
                top = 0
                for s in defenders:
                    held = H[s] >> sh & 511
                    if held and held & -held > top:
                        top = held & -held
                if top:
                    keep |= (mine & (top - 1)) << sh
            else:  # above every card of the suit the others hold
                others = 0
                for s in defenders:
                    others |= H[s] >> sh & 511
                keep |= (mine & ~((1 << others.bit_length()) - 1)) << sh
        return keep

    fmemo: dict[int, tuple[int, ...]] = {}  # a follower's cards -> its equivalence runs
    dmemo: dict[int, tuple[int, ...]] = {}  # a discard's legal cards, hand, cards out -> runs
    dsorted: dict[int, tuple[int, ...]] = {}  # the same -> the declarer's discards in order
    nxt_of = [(s + 1) % n for s in range(n)]
    d_after = [[D in after[s][k] for k in range(n)] for s in range(n)]
    discard_key = lambda b: b % 9 + (16 if sig[b] else 0)  # noqa: E731

    def play(seat: int, k: int, t: int, out: int, led: int, best: int, bseat: int,
             tmask: int) -> int:
        nodes[0] += 1
        h = H[seat]
        following = h & led
        if following:
            legal = following
            fkey = following | (out & led) << 36
            reps = fmemo.get(fkey)
            if reps is None:
                reps = fmemo[fkey] = tuple(reps_of(h, legal, out))
        else:
            ban = disc_ban[t]
            legal = h & ~ban if ban and h & ~ban else h
            dkey = ((h << 36 | legal) << 36) | out
            reps = dmemo.get(dkey)
            if reps is None:
                reps = dmemo[dkey] = tuple(reps_of(h, legal, out))
        if seat == D:
            want = 1
            if following:
                if cutoffs:
                    if beddl:
                        if following >> best:  # cards above the best win unless a seat
                            top = 0  # after must overtake
                            for s in after[seat][k]:
                                held = H[s] & led
                                if held and held & -held > top:
                                    top = held & -held
                            limit = top.bit_length() - 1 if top > 1 << best else best
                            reps = tuple([c for c in reps if c < limit])
                    else:
                        rest = 0
                        for s in after[seat][k]:
                            rest |= H[s]
                        rest &= led
                        limit = rest.bit_length() - 1 if rest > 1 << best else best
                        reps = tuple([c for c in reps if c > limit])
                    if not reps:
                        return 0
                if ordering and len(reps) > 1:
                    if beddl:
                        i = 0
                        for c in reps:
                            if c > best:
                                break
                            i += 1
                        reps = reps[i - 1::-1] + reps[:i - 1:-1] if i else reps[::-1]
                    # Mord: the cards above the best first (all of them, with the cut-offs)
                    elif reps[0] < best:
                        reps = tuple([c for c in reps if c > best] + [c for c in reps if c < best])
            else:
                if cutoffs and not beddl:
                    return 0  # the declarer cannot follow: a defender wins the trick
                if ordering and len(reps) > 1:
                    got = dsorted.get(dkey)
                    if got is None:
                        got = dsorted[dkey] = tuple(sorted(reps, key=discard_key,
                                                           reverse=beddl))
                    reps = got
        else:
            want = 0
            if cutoffs and not beddl and d_after[seat][k]:
                dl = H[D] & led
                if not dl:
                    return 0  # the declarer cannot follow
                top = dl.bit_length() - 1
                if best > top or following & above_tab[top]:
                    return 0  # a card above the declarer's is out, or this seat has one
            if ordering and len(reps) > 1:
                if not following or not beddl:
                    reps = reps[::-1]
                elif bseat != D and (not d_after[seat][k]
                                     or not H[D] & led & ~((2 << best) - 1)):
                    reps = reps[::-1]  # the declarer cannot win this trick: shed high cards
        if k + 1 == n:  # the trick's last card
            nt = t + 1
            for c in reps:
                bit = 1 << c
                w = seat if bit & led and c > best else bseat
                if lost_by[w]:
                    r = 0
                elif nt == T:
                    r = 1
                else:
                    H[seat] = h ^ bit
                    r = boundary(w, nt, out & ~(tmask | bit))
                    H[seat] = h
                if r == want:
                    return r
            return 1 - want
        nxt = nxt_of[seat]
        k1 = k + 1
        for c in reps:
            bit = 1 << c
            H[seat] = h ^ bit
            if bit & led and c > best:
                r = play(nxt, k1, t, out, led, c, seat, tmask | bit)
            else:
                r = play(nxt, k1, t, out, led, best, bseat, tmask | bit)
            H[seat] = h
            if r == want:
                return r
        return 1 - want

    # -- the root: the trick in progress ---------------------------------------------------
    to_card = declared.to_card

    def reset(st: TrickHand) -> Start:
        return load_position(declared, st, H)

    def run_from(st: TrickHand) -> int:
        seat0, k0, t0, out0, led0, best0, bseat0, tmask0, leader0 = reset(st)
        before = nodes[0]
        # a deep search on a stretch of the frame stack of its own (frames.py); a short one
        # directly, which costs less than setting up the stretch
        call: Callable[..., int] = caller(T - t0)
        if k0 == 0:
            v = call(boundary, leader0, t0, out0)
        else:
            v = call(play, seat0, k0, t0, out0, led0, best0, bseat0, tmask0)
        search.nodes += nodes[0] - before
        return v

    def root(st: TrickHand) -> Callable[[int, int], int]:
        def run(alpha: int, beta: int) -> int:
            return run_from(st)
        return run

    def moves(st: TrickHand) -> list[int]:
        seat0, k0, t0, out0, led0, best0, bseat0, _tmask, leader0 = reset(st)
        legal = legal_of(seat0, k0, t0, led0)
        got = reps_of(H[seat0], legal, out0)
        if k0 == 0:
            got = lead_order(seat0, got, out0)
        else:
            got = follow_order(seat0, k0, got, legal & led0, best0, bseat0)
        first = -1
        if k0 == 0 and use_tt:
            hit = tt.get(key_of(leader0))
            if hit is not None:
                first = hit[2]
        if k0 == 0 and cutoffs:
            witness[0] = -1
            if verdict(leader0, t0, out0) == 0 and witness[0] >= 0:
                first = witness[0]
        return [to_card[b] for b in first_to_front(got, first)]

    return root, moves
