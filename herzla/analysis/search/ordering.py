"""Move ordering: which of a seat's cards the searches try first (the equivalent cards once).

The orders follow the contract's *polarity*: where winning tricks is bad for the maximiser
(``gain`` false: the normal game, Beddl) it tries low cards first and its opponents shed high
cards on tricks it cannot win; where winning is good (Mord) high cards come first.  A good order
changes no value, only how soon the window closes.

- :func:`make_order`: the general search, one function for every seat and card of a trick;
- :func:`make_made_lost_orders`: Beddl and Mord, the leads and the plays after the lead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from herzla.analysis.search.position import SUIT, strength

__all__ = ["make_made_lost_orders", "make_order"]

Runs = Callable[[int, int, int], list[int]]
Order = Callable[..., Sequence[int]]


def make_order(hands: list[int], sig: Sequence[int], seat_max: int, players: int, gain: bool,
               ordering: bool, runs_of: Runs) -> Order:
    """``order(seat, k, legal, out, best, led, bseat=-1)``: the runs (:mod:`herzla.analysis.
    equivalence`) of the ``legal`` cards of ``seat`` playing the ``k``-th card of a trick
    (``best``: the best card so far, ``bseat`` its seat, ``led`` the led suit's bits), in the
    order the general search tries them; with ``ordering`` off, lowest first."""
    n = players
    runs: dict[int, tuple[int, ...]] = {}  # (legal cards, hand, cards out) -> runs
    sorted_runs: dict[int, tuple[int, ...]] = {}  # (runs key, way) -> runs in order
    shed_key = lambda b: b % 9 + (16 if sig[b] else 0)  # noqa: E731
    keep_key = lambda b: b % 9 + (0 if sig[b] else 16)  # noqa: E731

    def sorted_of(rkey: int, way: int, reps: tuple[int, ...]) -> tuple[int, ...]:
        """The runs ``reps`` ordered one ``way``: 1 by strength, 2 by strength downwards,
        3 scoring cards and strength, 4 that downwards, 5 reversed, 6 the other cards and
        strength downwards (scoring cards last)."""
        skey = rkey << 3 | way
        got = sorted_runs.get(skey)
        if got is None:
            if way == 5:
                got = reps[::-1]
            else:
                key = strength if way <= 2 else keep_key if way == 6 else shed_key
                got = tuple(sorted(reps, key=key, reverse=way in (2, 4, 6)))
            sorted_runs[skey] = got
        return got

    def order(seat: int, k: int, legal: int, out: int, best: int, led: int,
              bseat: int = -1) -> Sequence[int]:
        if not legal & (legal - 1):
            return (legal.bit_length() - 1,)
        h = hands[seat]
        following = legal & led
        # following, the runs depend on the suit's cards alone
        rkey = (legal | (out & led) << 36 if following
                else ((h << 36 | legal) << 36 | out) << 1 | 1)
        reps = runs.get(rkey)
        if reps is None:
            reps = runs[rkey] = tuple(runs_of(h, legal, out))
        if not ordering or len(reps) < 2:
            return reps
        if seat != seat_max and not gain:
            # the others, where winning tricks is bad for the seat: follow and lead low,
            # discard high (scoring cards first where the seat may win the trick, last where
            # it cannot)
            if k:
                lost = bseat != seat_max and (
                    (seat_max - seat) % n >= n - k
                    or not hands[seat_max] & led & ~((2 << best) - 1))
                if not following:
                    return sorted_of(rkey, 6 if lost else 4, reps)
                if lost:
                    return sorted_of(rkey, 5, reps)  # the seat cannot win: shed high
                if bseat == seat_max:  # the seat wins so far: the highest card under it
                    return [c for c in reversed(reps) if c < best] + \
                        [c for c in reps if c > best]
                return reps
            # lead in the suits the seat holds, high cards first, then where the seat's low
            # cards are least covered
            mine = hands[seat_max]
            theirs = out & ~mine
            rank: dict[int, int] = {}
            for sh in (0, 9, 18, 27):
                d = mine >> sh & 511
                if d:
                    rank[sh] = (theirs >> sh & 511 & ((d & -d) - 1)).bit_count()
                else:
                    rank[sh] = 16
            return sorted(reps, key=lambda c: (rank[c // 9 * 9] == 16, -(c % 9),
                                               rank[c // 9 * 9]))
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
    return order


def make_made_lost_orders(hands: list[int], sig: Sequence[int], declarer: int, beddl: bool,
                          players: int, ordering: bool
                          ) -> tuple[Callable[[int, list[int], int], list[int]],
                                     Callable[[int, int, list[int], int, int, int], list[int]]]:
    """Beddl and Mord: ``lead_order(leader, reps, out)`` and ``follow_order(seat, k, reps,
    following, best, bseat)``, the runs ``reps`` in the order the made/lost search tries them
    (sorted in place).  The declarer leads low in Beddl and high in Mord; a Beddl defender leads
    where the declarer's low cards are least covered; after the lead, the declarer ducks in
    Beddl and overtakes in Mord, and the defenders shed high cards on tricks the declarer cannot
    win."""
    D = declarer
    n = players

    def lead_order(leader: int, reps: list[int], out: int) -> list[int]:
        if not ordering or len(reps) < 2:
            return reps
        if leader == D:  # low cards first in Beddl, high in Mord
            reps.sort(key=strength, reverse=not beddl)
        elif not beddl:
            reps.sort(key=strength, reverse=True)
        else:  # Beddl: lead where the declarer's low cards are least covered
            mine = hands[D]
            theirs = out & ~mine
            rank = [16, 16, 16, 16]
            for u in range(4):
                d = mine >> (9 * u) & 511
                if d:
                    rank[u] = (theirs >> (9 * u) & 511 & ((d & -d) - 1)).bit_count()
            reps.sort(key=lambda c: rank[c // 9] * 16 + c % 9)
        return reps

    def follow_order(seat: int, k: int, reps: list[int], following: int, best: int,
                     bseat: int) -> list[int]:
        if not ordering or len(reps) < 2:
            return reps
        if seat == D:
            if following:
                ducks = [c for c in reps if c < best]
                overs = [c for c in reps if c > best]
                if beddl:
                    ducks.reverse()
                    overs.reverse()
                    return ducks + overs
                return overs + ducks
            reps.sort(key=lambda b: b % 9 + (16 if sig[b] else 0), reverse=beddl)
        elif not following or not beddl:
            reps.reverse()
        elif bseat != D and ((D - seat) % n >= n - k
                             or not hands[D] & SUIT[best] & ~((2 << best) - 1)):
            reps.reverse()  # the declarer cannot win this trick: shed high cards
        return reps
    return lead_order, follow_order
