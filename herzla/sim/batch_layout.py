"""The batch engine's layout deals (Herzeln domino, Herzerln Auflegen), vectorised over hands.

Seats are kept in *positions* from the seat that moves first (forehand, or the holder of the
opening card), so at step ``t`` position ``t % players`` moves in every hand; a seat that is out
has no cards and simply passes, which changes nothing.  Rows are kept as two bit sets, the cards
the upper ends ask for and the cards the lower ends ask for (one row regardless of suit: the two
asked ranks), so a seat's legal lays are two ANDs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import numpy.typing as npt

from herzla.contracts import Counts, LayoutContract
from herzla.sim.batch_bits import Bits, U, kth_bit, lowest_bit
from herzla.sim.batch_tricks import FormSeating
from herzla.sim.spec import DealSpec, record_of

if TYPE_CHECKING:
    from herzla.sim.batch_forms import BatchForm

__all__ = ["LayoutSetup", "choose_lays", "layout_chunk"]


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
    places: tuple[int, ...]  # (the contract's settle pays them)
    ranks: tuple[int, ...]  # per sequence position, the cards of that rank
    tops: int
    bottoms: int

    @classmethod
    def of(cls, contract: LayoutContract, bits: Bits) -> LayoutSetup:
        """The setup of a contract's declared rows; ValueError when the batch engine cannot
        hold them (a sequence that is not the pack's ranks in the contract's rank order)."""
        rows = contract.declaration.rows
        seq = rows.sequence
        st = contract.rank_order().strength
        where = [st[r] - bits.offset for r in seq]
        if where != list(range(len(seq))) or len(seq) != bits.stride:
            raise ValueError("its row sequence is not the pack's ranks in its rank order")
        if rows.opening not in seq:
            raise ValueError("its rows open with a rank outside their sequence")
        n = len(seq)
        pack = bits.pack_mask
        ranks = tuple(sum(1 << (s * bits.stride + q) for s in range(4)) & pack for q in range(n))
        first = rows.first
        jack = seq.index(rows.opening)
        return cls(bits, contract.players, n, jack, rows.wrap, not rows.per_suit,
                   bits.mask([first]) if first is not None else 0,
                   contract.declaration.places, ranks,
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


def choose_lays(setup: LayoutSetup, cur: U, plus: U, minus: U, f_up: U, f_down: U,
                unopened: U, u: npt.NDArray[np.float64] | None
                ) -> tuple[U, npt.NDArray[np.bool_]]:
    """The built-in policy's lay for each hand: (card or 0 to pass, laid at the lower end), as
    its batch form (:mod:`herzla.sim.batch_forms`) lays in :func:`layout_chunk`.

    ``plus`` and ``minus`` are the seat's cards that fit an upper or a lower end, ``f_up`` and
    ``f_down`` all the cards the ends ask for, ``unopened`` the Jacks whose rows are not open.
    ``u`` holds the random policy's uniforms, None for the heuristic.
    """
    from herzla.sim.batch_forms import HEURISTIC, RANDOM, LayMove

    form = RANDOM if u is not None else HEURISTIC
    return form.lays(LayMove(setup, cur, plus, minus, f_up, f_down, unopened, u))


def _count(x: U) -> npt.NDArray[np.int64]:
    return np.bitwise_count(x).astype(np.int64)


def _one_row_lays(setup: LayoutSetup, cur: U, plus: U, minus: U, f_up: U, f_down: U,
                  unopened: U) -> tuple[U, npt.NDArray[np.bool_]]:
    """One row: the end after which most of the seat's cards fit it (a new row: either end),
    then the end whose rank the seat holds fewest other cards of; a tie: the first move."""
    key_p = _count(cur & (setup.next_up(f_up) | setup.next_down(unopened))) * 64
    key_p -= _count(plus)
    key_m = _count(cur & setup.next_down(f_down)) * 64
    key_m -= _count(minus)
    has_p = plus != 0
    has_m = minus != 0
    use_p = has_p & (~has_m | (key_p >= key_m))
    use_m = has_m & (~has_p | (key_m >= key_p))
    return _first_of(setup.bits, plus & _ones(use_p, plus.dtype.type),
                     minus & _ones(use_m, minus.dtype.type))


def _far_lays(setup: LayoutSetup, cur: U, plus: U, minus: U, unopened: U
              ) -> tuple[U, npt.NDArray[np.bool_]]:
    """Rows per suit: the move with most of the seat's other cards of that row beyond the laid
    card in the direction of the lay (a new row: all of them); a tie: the first move."""
    bits = setup.bits
    best = np.full(len(cur), -1, dtype=np.int64)
    card = np.zeros_like(cur)
    at_minus = np.zeros(len(cur), dtype=bool)
    for s in range(4):
        held = cur & bits.suit_mask[s]
        up = plus & bits.suit_mask[s]
        down = minus & bits.suit_mask[s]
        above = held & ~((up << 1) - 1)
        far_up = np.where((up & unopened) != 0, _count(held) - 1, _count(above))
        far_down = _count(held & (down - 1))
        for cand, far, end in ((up, far_up, False), (down, far_down, True)):
            # the random policy's order: card index, then + before -
            where = bits.to_index(cand).astype(np.float64).view(np.uint64) >> np.uint64(52)
            order = where.astype(np.int64) * 2 + end
            key = np.where(cand != 0, far * 4096 + 4095 - order, -1)
            better = key > best
            best = np.where(better, key, best)
            card = np.where(better, cand, card)
            at_minus = np.where(better, end, at_minus)
    return card, at_minus


def layout_chunk(spec: DealSpec, contract: LayoutContract, bits: Bits, hands: list[U],
                 uniforms: npt.NDArray[np.float64] | None, record: int,
                 forms: Sequence[BatchForm]
                 ) -> tuple[npt.NDArray[np.int64], list[dict[str, Any]]]:
    """Play a chunk of layout deals: (scores (C, players), the first ``record`` hand records).

    The scores are the contract's settlement of the places the seats went out in.
    ``forms`` holds each seat's batch form; ``uniforms`` is (C, moves), or None when no form
    reads the move uniforms.
    """
    from herzla.sim.batch_forms import LayMove

    seating = FormSeating(forms)
    distinct = seating.distinct
    setup = LayoutSetup.of(contract, bits)
    dt = bits.dtype
    P = setup.players
    C = len(hands[0])
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
    f_up = np.full(C, jacks, dtype=dt)  # the cards the upper ends ask for (and closed rows' Jacks)
    f_down = np.zeros(C, dtype=dt)  # the cards the lower ends ask for
    unopened = np.full(C, jacks, dtype=dt)
    place = np.zeros((P, C), dtype=np.int64)  # per position: the place it went out in
    out_count = np.zeros(C, dtype=np.int64)
    done = np.zeros(C, dtype=bool)
    laid = np.zeros(C, dtype=np.intp)
    moves = uniforms.shape[1] if uniforms is not None else 0
    flat = uniforms.ravel() if uniforms is not None else None
    rowbase = np.arange(C, dtype=np.intp) * moves
    trail: list[tuple[U, npt.NDArray[np.bool_], npt.NDArray[np.bool_]]] = []
    step = 0
    if setup.first:  # the holder of the opening card lays it
        first = np.full(C, setup.first, dtype=dt)
        pos[0] ^= first
        unopened ^= first
        f_up = unopened | setup.next_up(first)
        f_down = setup.next_down(first)
        laid += 1
        if record:
            trail.append((first[:record], np.zeros(record, dtype=bool),
                          np.zeros(record, dtype=bool)))
        step = 1
    limit = 4 * P * (bits.pack_mask.bit_count() + P)
    shares = seating.hands(start) if len(distinct) > 1 else None  # the seats' order is fixed
    while not done.all():
        if step > limit:
            raise RuntimeError("layout deal did not finish (blocked rows?)")
        j = step % P
        cur = pos[j]
        plus: U = cur & f_up
        minus: U = cur & f_down
        u = flat.take(rowbase + laid, mode="clip") if flat is not None else None
        mv = LayMove(setup, cur, plus, minus, f_up, f_down, unopened, u)
        if len(distinct) == 1:
            card, at_minus = distinct[0].lays(mv)
        else:  # each form lays for the hands whose seat here is its own
            assert shares is not None
            card = np.zeros_like(cur)
            at_minus = np.zeros(C, dtype=bool)
            for f, idx in zip(distinct, shares[j], strict=True):
                if len(idx):
                    card[idx], at_minus[idx] = f.lays(mv.subset(idx, f))
        has = card != 0
        at_minus &= has
        if record:
            trail.append((card[:record].copy(), at_minus[:record].copy(),
                          ((card & plus & minus) != 0)[:record]))
        cur ^= card
        bm = card & _ones(at_minus, dt)  # laid at a lower end
        bp = card ^ bm  # laid at an upper end (Jacks opening a row included)
        bo = bp & unopened  # opening a row
        if setup.any_suit:  # the whole rank asked for moves on
            f_up ^= (f_up ^ setup.next_up(f_up)) & _ones(bp != 0, dt)
            f_down ^= (f_down ^ setup.next_down(f_down)) & _ones(bm != 0, dt)
            opened = _ones(bo != 0, dt)
            f_down |= setup.next_down(unopened) & opened
            unopened &= full ^ opened
        else:
            f_up = (f_up & (full ^ bp)) | setup.next_up(bp)
            f_down = (f_down & (full ^ bm)) | setup.next_down(bm) | setup.next_down(bo)
            unopened ^= bo
        laid += has
        out = has & (cur == 0)
        if out.any():
            place[j] = np.where(out, out_count, place[j])
            out_count += out
            fin = out & (out_count == P - 1)
            if fin.any():
                for r in range(P):
                    place[r] = np.where(fin & (pos[r] != 0), P - 1, place[r])
                done |= fin
                keep = _ones(~fin, dt)
                f_up &= keep
                f_down &= keep
        step += 1
    seat_place = np.zeros((P, C), dtype=np.int64)
    for j in range(P):
        seat = (start + j) % P
        for s in range(P):
            seat_place[s] += np.where(seat == s, place[j], 0)
    final = contract.settle(Counts(P, C, places=seat_place)).scores.T
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
        masks = [bits.index_mask_of(int(h[i])) for h in hands]
        records.append(record_of(contract, spec, masks, plays))
    return final, records
