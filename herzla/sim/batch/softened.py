"""A batch form softened: the card its order puts ``k``-th, with probability proportional to
``exp(-k / temperature)`` (``k`` counted from 0 among the seat's legal cards).

This is the model of the other seats that ``ipimc``'s inference weighs the deals by
(:mod:`herzla.analysis.inference`): a seat plays the heuristic's card most of the time, the
next in its order less often, and so on.  Played out with it, a position is valued against the
spread of what the others may do rather than against one line of play.  The base form's order is
read by asking it again with its card taken out of the legal cards (the heuristic's rule is one
sort key over the legal cards: what it plays from the rest is the next in its order).
"""

from __future__ import annotations

import math

import attrs
import numpy as np
import numpy.typing as npt

from herzla.contracts import Contract
from herzla.sim.batch.bits import Bits, U, kth_bit
from herzla.sim.batch.form import BatchForm, KindForm, LayMove, TrickMove, lays_of

__all__ = ["Softened"]


@attrs.frozen(slots=True)
class Softened(KindForm):
    """``base`` softened at ``temperature`` (> 0): each move reads one uniform."""

    base: BatchForm
    temperature: float
    #: the share of moves that play any legal card alike (the model of a seat the base does
    #: not explain; :func:`herzla.analysis.inference.play_log_p`)
    doubt: float = 0.0

    # it reads the move uniforms, and it hands the profiles to its base (which may read them)
    uniforms = True
    profiles = True

    def tricks(self, move: TrickMove) -> U:
        assert move.u is not None
        legal = move.legal
        pick = self.base.moves(move)[0]
        n = np.bitwise_count(legal).astype(np.int64)
        q = math.exp(-1.0 / self.temperature)
        u = move.u.astype(np.float64)
        alike = None
        if self.doubt:
            # the first ``doubt`` of the uniform's range picks a legal card alike, the rest
            # (stretched back to [0, 1)) goes to the softened order
            alike = u < self.doubt
            place = np.minimum(u / self.doubt * n, n - 1).astype(np.uint8)
            anyone = kth_bit(legal, place, int(n.max()))
            u = np.where(alike, 0.0, (u - self.doubt) / (1.0 - self.doubt))
        left = legal
        k = 0
        active = n > 1
        while active.any():
            m = n - k  # the cards still in the order
            # stop at this card with its share of what is left: (1 - q) / (1 - q^m)
            stop = (1.0 - q) / (1.0 - np.power(q, np.maximum(m, 1)))
            go = active & (u >= stop)
            if not go.any():
                break
            u = np.where(go, (u - stop) / np.where(stop < 1.0, 1.0 - stop, 1.0), u)
            left = np.where(go, left & ~pick, left)
            nxt = self.base.moves(attrs.evolve(move, legal=left))[0]
            pick = np.where(go, nxt, pick)
            k += 1
            active = go & (m - 1 > 1)
        if alike is not None:
            pick = np.where(alike, anyone, pick)
        out: U = pick.astype(legal.dtype)
        return out

    def rows(self, move: LayMove) -> tuple[U, npt.NDArray[np.bool_]]:
        return lays_of(self.base.moves(move))

    def wants(self, bits: Bits, base: Contract, hand: U, first: bool,
              tables: list[npt.NDArray[np.int64]]) -> npt.NDArray[np.int8]:
        return self.base.wants(bits, base, hand, first, tables)
