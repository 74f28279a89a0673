"""The batch engine's layout deals (Herzeln domino, Herzerln Auflegen), vectorised over hands.

Seats are kept in *positions* from the seat that moves first (forehand, or the holder of the
opening card), so at step ``t`` position ``t % players`` moves in every hand; a seat that is out
has no cards and simply passes, which changes nothing.  Rows are kept as two bit sets, the cards
the upper ends ask for and the cards the lower ends ask for (one row regardless of suit: the two
asked ranks), so a seat's legal lays are two ANDs.
"""

from __future__ import annotations

import functools
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from herzla.contracts.base import LayoutContract
from herzla.sim.batch_bits import Bits, U, kth_bit, lowest_bit
from herzla.sim.engine import DealSpec
from herzla.sim.reference import record_of

__all__ = ["LayoutSetup", "layout_chunk"]


@attrs.frozen(slots=True)
class LayoutSetup:
    """The rows of a layout contract in a strength layout."""

    bits: Bits
    players: int
    n: int  # ranks in the sequence; a row field is the suit's whole bit field
    jack: int  # the opening rank's position in the sequence
    wrap: bool
    any_suit: bool
    first: int  # the card that must open (bit), or 0
    places: tuple[int, ...]
    ranks: tuple[int, ...]  # per sequence position, the cards of that rank
    tops: int
    bottoms: int

    @classmethod
    def of(cls, rules: LayoutContract, bits: Bits) -> LayoutSetup:
        seq = rules.sequence()
        st = rules.rank_order().strength
        where = [st[r] - bits.offset for r in seq]
        if where != list(range(len(seq))) or len(seq) != bits.stride:
            raise ValueError(f"{rules.key()}: the sequence is not the strength layout's field")
        n = len(seq)
        pack = bits.pack_mask
        ranks = tuple(sum(1 << (s * bits.stride + q) for s in range(4)) & pack for q in range(n))
        first = rules.first_card()
        any_suit = len({rules.row_of(c) for c in bits.pack.cards}) == 1
        jack = seq.index(rules.opening_rank)
        return cls(bits, rules.players, n, jack, rules.wrap(), any_suit,
                   bits.mask([first]) if first is not None else 0, rules.places(), ranks,
                   sum(1 << (s * bits.stride + n - 1) for s in range(4)),
                   sum(1 << (s * bits.stride) for s in range(4)))

    # the card after each card of ``x`` at the upper / lower end (0 past an unwrapped end)
    def next_up(self, x: U) -> U:
        out = (x & (self.bits.full ^ self.tops)) << 1
        if self.wrap:
            out |= (x & self.tops) >> (self.n - 1)
        return out

    def next_down(self, x: U) -> U:
        out = (x & (self.bits.full ^ self.bottoms)) >> 1
        if self.wrap:
            out |= (x & self.bottoms) << (self.n - 1)
        return out


def _ones(cond: npt.NDArray[np.bool_], dtype: type[np.unsignedinteger]) -> U:
    m = cond.astype(dtype)
    np.negative(m, out=m)
    return m


def _random_lays(bits: Bits, plus: U, minus: U, u: npt.NDArray[np.float64]
                 ) -> tuple[U, npt.NDArray[np.bool_]]:
    """The ``(u * m) >> 32``-th of the moves: cards in index order, ``+`` before ``-``."""
    pi = bits.to_index(plus)
    mi = bits.to_index(minus)
    both = pi & mi
    x = pi | mi
    m = np.bitwise_count(x) + np.bitwise_count(both)
    k = (u * m).astype(np.uint8)
    fast = kth_bit(x, k, int(k.max()))
    at_minus = (fast & pi) == 0
    twice = np.flatnonzero(both)
    if len(twice):  # cards that fit both ends count twice
        xs = x[twice]
        ks = k[twice].astype(np.int64)
        bs = both[twice]
        ps = pi[twice]
        card = np.zeros_like(xs)
        end = np.zeros(len(twice), dtype=bool)
        found = np.zeros(len(twice), dtype=bool)
        while True:
            low = lowest_bit(xs)
            live = ~found & (low != 0)
            if not live.any():
                break
            weight = np.where((low & bs) != 0, 2, 1)
            hit = live & (ks < weight)
            card = np.where(hit, low, card)
            end = np.where(hit, np.where((low & bs) != 0, ks == 1, (low & ps) == 0), end)
            found |= hit
            ks -= np.where(live & ~hit, weight, 0)
            xs ^= low
        fast[twice] = card
        at_minus[twice] = end
    return bits.to_strength(fast), at_minus


def _first_of(bits: Bits, plus: U, minus: U) -> tuple[U, npt.NDArray[np.bool_]]:
    """The first move in index order (``+`` before ``-``)."""
    card = bits.to_strength(lowest_bit(bits.to_index(plus | minus)))
    return card, (card & plus) == 0


def choose_lays(setup: LayoutSetup, cur: U, plus: U, minus: U, unopened: U,
                up: npt.NDArray[np.intp], down: npt.NDArray[np.intp],
                u: npt.NDArray[np.float64] | None) -> tuple[U, npt.NDArray[np.bool_]]:
    """The policy's lay for each hand: (card or 0 to pass, laid at the lower end).

    ``plus`` and ``minus`` are the seat's cards that fit an upper or a lower end; ``unopened``
    the Jacks whose rows are not open (rows per suit), ``up`` and ``down`` the sequence positions
    the ends of a row regardless of suit ask for (``n``: not open yet).  ``u`` holds the random
    policy's uniforms, None for the heuristic.
    """
    bits = setup.bits
    dt = bits.dtype
    n = setup.n
    if u is not None:
        return _random_lays(bits, plus, minus, u)
    if setup.any_suit:
        tabs = _tables(setup)
        good_p = plus & _ones((cur & tabs.good_up.take(up)) != 0, dt)
        good_m = minus & _ones((cur & tabs.good_down.take(down)) != 0, dt)
        plain_p = plus & _ones(up < n, dt)
    else:
        pred = setup.next_down(cur)  # cards whose successor up is held
        succ = setup.next_up(cur)  # cards whose successor down is held
        fresh = plus & unopened
        good_p = (plus & pred) | (fresh & succ)
        good_m = minus & succ
        plain_p = plus & (bits.full ^ unopened)
    good: npt.NDArray[np.bool_] = (good_p | good_m) != 0
    plain: npt.NDArray[np.bool_] = (plain_p | minus) != 0
    cp = np.where(good, good_p, np.where(plain, plain_p, plus))
    cm = np.where(good, good_m, minus)
    return _first_of(bits, cp, cm)


@attrs.frozen(slots=True)
class _Tables:
    """Lookup tables of a row regardless of suit, by the sequence position an end asks for
    (``n``: the row is not open, ``n + 1``: the deal is over)."""

    up: npt.NDArray[Any]  # the cards an upper end asks for
    down: npt.NDArray[Any]
    next_up: npt.NDArray[np.intp]  # the position asked for after a lay there
    next_down: npt.NDArray[np.intp]
    good_up: npt.NDArray[Any]  # the cards that continue after a lay there
    good_down: npt.NDArray[Any]


@functools.lru_cache(maxsize=32)
def _tables(setup: LayoutSetup) -> _Tables:
    n, j, r = setup.n, setup.jack, setup.ranks
    dt = setup.bits.dtype
    return _Tables(
        np.array([*r, r[j], 0], dtype=dt),
        np.array([*r, 0, 0], dtype=dt),
        np.array([(q + 1) % n for q in range(n)] + [(j + 1) % n, n + 1], dtype=np.intp),
        np.array([(q - 1) % n for q in range(n)] + [(j - 1) % n, n + 1], dtype=np.intp),
        np.array([r[(q + 1) % n] for q in range(n)] + [r[(j + 1) % n] | r[(j - 1) % n], 0],
                 dtype=dt),
        np.array([r[(q - 1) % n] for q in range(n)] + [0, 0], dtype=dt),
    )


def layout_chunk(spec: DealSpec, rules: LayoutContract, bits: Bits, hands: list[U],
                 uniforms: npt.NDArray[np.float64] | None, record: int
                 ) -> tuple[npt.NDArray[np.int64], list[dict[str, Any]]]:
    """Play a chunk of layout deals: (scores (C, players), the first ``record`` hand records).

    ``uniforms`` is (C, moves) for the random policy, or None for the heuristic.
    """
    setup = LayoutSetup.of(rules, bits)
    dt = bits.dtype
    P = setup.players
    C = len(hands[0])
    n = setup.n
    full = bits.full
    forehand = (spec.dealer + 1) % P
    if setup.first:
        holder = [(h & setup.first) != 0 for h in hands]
        start = np.zeros(C, dtype=np.int64)
        for s in range(P):
            start[holder[s]] = s
        sel = [_ones(start == s, dt) for s in range(P)]
        pos = []
        for j in range(P):
            acc = np.zeros(C, dtype=dt)
            for s in range(P):
                acc |= hands[(s + j) % P] & sel[s]
            pos.append(acc)
    else:
        start = np.full(C, forehand, dtype=np.int64)
        pos = [hands[(forehand + j) % P].copy() for j in range(P)]
    jacks = setup.ranks[setup.jack]
    tabs = _tables(setup)
    up = np.full(C, n, dtype=np.intp)
    down = np.full(C, n, dtype=np.intp)
    f_up = np.full(C, jacks, dtype=dt)
    f_down = np.zeros(C, dtype=dt)
    unopened = np.full(C, jacks, dtype=dt)
    places = np.array(setup.places, dtype=np.int64)
    score = np.zeros((P, C), dtype=np.int64)
    out_count = np.zeros(C, dtype=np.int64)
    done = np.zeros(C, dtype=bool)
    laid = np.zeros(C, dtype=np.intp)
    moves = uniforms.shape[1] if uniforms is not None else 0
    flat = uniforms.ravel() if uniforms is not None else None
    rowbase = np.arange(C, dtype=np.intp) * moves
    trail: list[tuple[U, npt.NDArray[np.bool_], npt.NDArray[np.bool_]]] = []
    step = 0
    if setup.first:  # the holder of the opening card lays it
        first = dt(setup.first)
        pos[0] ^= first
        f_up = np.full(C, (jacks & (full ^ setup.first)), dtype=dt)
        f_up |= setup.next_up(np.full(C, first, dtype=dt))
        f_down = setup.next_down(np.full(C, first, dtype=dt))
        unopened = np.full(C, jacks & (full ^ setup.first), dtype=dt)
        laid += 1
        if record:
            trail.append((np.full(record, first, dtype=dt), np.zeros(record, dtype=bool),
                          np.zeros(record, dtype=bool)))
        step = 1
    limit = 4 * P * (bits.pack_mask.bit_count() + P)
    while not done.all():
        if step > limit:
            raise RuntimeError("layout deal did not finish (blocked rows?)")
        j = step % P
        cur = pos[j]
        if setup.any_suit:
            f_up = tabs.up.take(up)
            f_down = tabs.down.take(down)
        plus: U = cur & f_up
        minus: U = cur & f_down
        u = flat.take(rowbase + laid, mode="clip") if flat is not None else None
        card, at_minus = choose_lays(setup, cur, plus, minus, unopened, up, down, u)
        has = card != 0
        at_minus &= has
        if record:
            trail.append((card[:record].copy(), at_minus[:record].copy(),
                          ((card & plus & minus) != 0)[:record]))
        cur ^= card
        if setup.any_suit:
            opening = has & (up == n)
            up = np.where(has & ~at_minus, tabs.next_up.take(up), up)
            down = np.where(at_minus | opening, tabs.next_down.take(down), down)
        else:
            mm = _ones(at_minus, dt)
            bm = card & mm
            bp = card ^ bm
            bo = bp & unopened
            f_up = (f_up & (full ^ bp)) | setup.next_up(bp)
            f_down = (f_down & (full ^ bm)) | setup.next_down(bm) | setup.next_down(bo)
            unopened ^= bo
        laid += has
        out = has & (cur == 0)
        if out.any():
            score[j] = np.where(out, places.take(out_count, mode="clip"), score[j])
            out_count += out
            fin = out & (out_count == P - 1)
            if fin.any():
                for r in range(P):
                    score[r] = np.where(fin & (pos[r] != 0), places[P - 1], score[r])
                done |= fin
                if setup.any_suit:
                    up = np.where(fin, n + 1, up)
                    down = np.where(fin, n + 1, down)
                else:
                    keep = _ones(~fin, dt)
                    f_up &= keep
                    f_down &= keep
        step += 1
    final = np.zeros((C, P), dtype=np.int64)
    for j in range(P):
        seat = (start + j) % P
        for s in range(P):
            final[:, s] += np.where(seat == s, score[j], 0)
    records = []
    for i in range(min(record, C)):
        plays = []
        for card_a, minus_a, both_a in trail:
            b = int(card_a[i])
            if not b:
                continue
            code = str(bits.card_of_mask(b))
            if both_a[i]:
                code += "-" if minus_a[i] else "+"
            plays.append(code)
        masks = []
        for h in hands:
            m = int(h[i])
            cards = 0
            while m:
                low = m & -m
                cards |= 1 << bits.card_at[low.bit_length() - 1]
                m ^= low
            masks.append(cards)
        records.append(record_of(rules, spec, masks, plays))
    return final, records
