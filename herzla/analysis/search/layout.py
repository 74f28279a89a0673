"""The double-dummy search of layout deals (the Herzeln domino, the Herzerln Auflegen).

The moves are the reference layout engine's own (:class:`herzla.kinds.layout.LayoutHand`: its legal
lays, and a pass for a seat that cannot lay), so legality is the engine's alone.  A deal's value
for seat ``S`` is read from the places table, which ``contract.settle`` gives for every order of
going out (one column per order).  The search is alpha-beta with a transposition table (hands,
rows, seat to move, seats out), with two further techniques:

- **bounds**: for every order of the seats already out, the best and worst score ``S`` can still
  get; a position whose bounds fall outside the window, or whose score is settled (``S`` is out),
  is not searched further;
- **equivalent cards**: with one row regardless of suit, cards of one rank in one hand lay alike,
  so only one of them is searched.
"""

from __future__ import annotations

import itertools

import numpy as np

from herzla.contracts import LayoutContract
from herzla.contracts.vocabulary import Counts
from herzla.hand import Move
from herzla.kinds.layout import LayoutHand

__all__ = ["LayoutSearch", "places_table"]


def places_table(contract: LayoutContract) -> dict[tuple[int, ...], tuple[int, ...]]:
    """Every order of going out -> each seat's score, from one vectorised ``settle``."""
    n = contract.players
    orders = list(itertools.permutations(range(n)))
    places = np.zeros((n, len(orders)), dtype=np.int64)
    for col, order in enumerate(orders):
        for place, seat in enumerate(order):
            places[seat, col] = place
    scores = contract.settle(Counts(n, len(orders), places=places)).scores
    return {order: tuple(int(v) for v in scores[:, col]) for col, order in enumerate(orders)}


class LayoutSearch:
    """The search of one layout deal for seat ``seat`` (values times ``sign``, maximised)."""

    def __init__(self, contract: LayoutContract, seat: int, sign: int = 1,
                 equivalence: bool = True) -> None:
        self.contract = contract
        self.seat = seat
        self.sign = sign
        self.nodes = 0
        self.equivalence = equivalence
        self.table = places_table(contract)
        self.tt: dict[object, tuple[int, int]] = {}
        n = contract.players
        self._bounds: dict[tuple[int, ...], tuple[int, int]] = {}
        #: beyond every value of the deal, at any amount: one more than its largest score
        self.inf = INF = max(abs(v[seat]) for v in self.table.values()) + 1
        for order, scores in self.table.items():
            v = sign * scores[seat]
            for k in range(n + 1):
                pre = order[:k]
                lo, hi = self._bounds.get(pre, (INF, -INF))
                self._bounds[pre] = (min(lo, v), max(hi, v))
        self._one_row = not contract.declaration.rows.per_suit

    def moves(self, state: LayoutHand) -> list[Move | None]:
        """The moves of the seat to move, equivalent ones once (None: a pass)."""
        lays = state.lays()
        if not lays:
            return [None]
        if not (self.equivalence and self._one_row and state.laid):
            return list(lays)
        seen: set[tuple[int, str | None]] = set()
        out: list[Move | None] = []
        for lay in lays:
            assert lay.card is not None  # a lay, not the pass
            key = (int(lay.card.rank), lay.end)
            if key not in seen:
                seen.add(key)
                out.append(lay)
        return out

    def leaf(self, state: LayoutHand) -> int:
        return self.sign * self.table[tuple(state.order)][self.seat]

    def value(self, state: LayoutHand, alpha: int | None = None, beta: int | None = None
              ) -> int:
        """The value of ``state`` (fail-soft within the window, by default the full one);
        ``state`` is restored."""
        INF = self.inf
        alpha = -INF if alpha is None else alpha
        beta = INF if beta is None else beta
        self.nodes += 1
        if state.over:
            return self.leaf(state)
        lo, hi = self._bounds[tuple(state.order)]
        if lo == hi or lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        key = (tuple(state.hands), tuple(sorted(state.rows.items())), state.turn,
               tuple(state.order))
        got = self.tt.get(key)
        if got is not None:
            tlo, thi = got
            if tlo >= beta:
                return tlo
            if thi <= alpha:
                return thi
            alpha, beta = max(alpha, tlo), min(beta, thi)
            if alpha >= beta:
                return alpha
        maxing = state.turn == self.seat
        v = -INF if maxing else INF
        a, b = alpha, beta
        for move in self.moves(state):
            if move is None:
                state._pass_turn()
            else:
                state._play(move)
            r = self.value(state, a, b)
            state.undo()
            if maxing:
                if r > v:
                    v = r
                    a = max(a, v)
            elif r < v:
                v = r
                b = min(b, v)
            if a >= b:
                break
        old = self.tt.get(key, (-INF, INF))
        if v <= alpha:
            self.tt[key] = (old[0], min(old[1], v))
        elif v >= beta:
            self.tt[key] = (max(old[0], v), old[1])
        else:
            self.tt[key] = (v, v)
        return v

    def exact(self, state: LayoutHand, guess: int = 0) -> int:
        """The exact value of ``state`` (MTD(f) from ``guess``)."""
        lo, hi, g = -self.inf, self.inf, guess
        while lo < hi:
            beta = g + 1 if g == lo else g
            g = self.value(state, beta - 1, beta)
            if g < beta:
                hi = g
            else:
                lo = g
        return g
