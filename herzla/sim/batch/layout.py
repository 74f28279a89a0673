"""The batch engine's layout deals (Herzeln domino, Herzerln Auflegen), vectorised over hands.

Seats are kept in *positions* from the seat that moves first (forehand, or the holder of the
opening card), so at step ``t`` position ``t % players`` moves in every hand; a seat that is out
has no cards and simply passes, which changes nothing.  Rows are kept as two bit sets, the cards
the upper ends ask for and the cards the lower ends ask for (one row regardless of suit: the two
asked ranks), so a seat's legal lays are two ANDs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from herzla.contracts import Counts, LayoutContract
from herzla.sim.batch.bits import Bits, U, ones
from herzla.sim.batch.form import BatchForm, FormSeating, LayMove, lays_of
from herzla.sim.batch.rows import LayoutSetup
from herzla.sim.spec import DealSpec, sample_record

__all__ = ["layout_chunk"]

def layout_chunk(spec: DealSpec, contract: LayoutContract, bits: Bits, hands: list[U],
                 uniforms: npt.NDArray[np.float64] | None, record: int,
                 forms: Sequence[BatchForm]
                 ) -> tuple[npt.NDArray[np.int64], list[dict[str, Any]]]:
    """Play a chunk of layout deals: (scores (C, players), the first ``record`` hand records).

    The scores are the contract's settlement of the places the seats went out in.
    ``forms`` holds each seat's batch form; ``uniforms`` is (C, moves), or None when no form
    reads the move uniforms.
    """
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
        sel = [ones(start == s, dt) for s in range(P)]
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
            card, at_minus = lays_of(distinct[0].moves(mv))
        else:  # each form lays for the hands whose seat here is its own
            assert shares is not None
            card = np.zeros_like(cur)
            at_minus = np.zeros(C, dtype=bool)
            for f, idx in zip(distinct, shares[j], strict=True):
                if len(idx):
                    card[idx], at_minus[idx] = lays_of(f.moves(mv.subset(idx, f)))
        has = card != 0
        at_minus &= has
        if record:
            trail.append((card[:record].copy(), at_minus[:record].copy(),
                          ((card & plus & minus) != 0)[:record]))
        cur ^= card
        bm = card & ones(at_minus, dt)  # laid at a lower end
        bp = card ^ bm  # laid at an upper end (Jacks opening a row included)
        bo = bp & unopened  # opening a row
        if setup.any_suit:  # the whole rank asked for moves on
            f_up ^= (f_up ^ setup.next_up(f_up)) & ones(bp != 0, dt)
            f_down ^= (f_down ^ setup.next_down(f_down)) & ones(bm != 0, dt)
            opened = ones(bo != 0, dt)
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
                keep = ones(~fin, dt)
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
        records.append(sample_record(contract, spec, masks, plays))
    return final, records
