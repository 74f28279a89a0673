"""What a finished trick is worth to the maximiser, in search bits: the leaves of the general
search, read from the scoring model :mod:`herzla.analysis.search.scoring` learnt from the contract's
own ``settle`` (no scoring rule is written here).

- an **additive** scorer: :class:`AdditiveValues`, per winner the value of each card captured, of
  the trick and of the last trick (times ``sign``), so a trick adds its sum;
- a **table** scorer: :class:`TallyStates`, the partial tallies reached (one tuple of per-seat
  counts per piece of the tally), interned with their transitions and their leaves, and the
  signature of each (equal signatures, equal futures: the transposition key holds it).
"""

from __future__ import annotations

from collections.abc import Sequence

from herzla.analysis.search.scoring import AdditiveScore, LeafTable

__all__ = ["AdditiveValues", "TallyStates"]


class AdditiveValues:
    """An additive scorer's values for seat ``seat`` (times ``sign``) in search bits:
    ``card[w][b]`` for card ``b`` captured by ``w``, ``trick[w]`` per trick won by ``w`` and
    ``last[w]`` for the last trick."""

    def __init__(self, sc: AdditiveScore, seat: int, sign: int, players: int,
                 to_card: Sequence[int]) -> None:
        self.card = [[sign * sc.card[seat][w][to_card[b]] for b in range(36)]
                     for w in range(players)]
        self.trick = [sign * sc.trick[seat][w] for w in range(players)]
        self.last = [sign * sc.last[seat][w] for w in range(players)]

    def of_trick(self, winner: int, tmask: int, last: bool) -> int:
        """What taking the trick ``tmask`` (search bits) adds for ``winner``."""
        row = self.card[winner]
        v = self.trick[winner] + (self.last[winner] if last else 0)
        m = tmask
        while m:
            low = m & -m
            v += row[low.bit_length() - 1]
            m ^= low
        return v


class TallyStates:
    """The partial tallies of a table scorer reached by a search, interned.

    A state id stands for the tallies (a tuple of per-seat counts per piece); ``sig[id]`` is the
    id of their signatures (:meth:`LeafTable.signature`); ``trans`` maps
    ``(id, winner, cards of each class in the trick)`` packed into an int to the next id (see
    :meth:`step_key`), ``leaves`` ``id * players + winner`` to the leaf value (times ``sign``).
    """

    def __init__(self, sc: LeafTable, seat: int, sign: int, players: int,
                 pieces: Sequence[int]) -> None:
        self.sc = sc
        self.seat = seat
        self.sign = sign
        self.players = players
        self.pieces = list(pieces)  # the classes, in search bits
        self.partial: list[tuple[tuple[int, ...], ...]] = []
        self.sig: list[int] = []
        self._ids: dict[tuple[tuple[int, ...], ...], int] = {}
        self._sig_ids: dict[tuple[int, ...], int] = {}
        self.sig_of: list[tuple[int, ...]] = []
        self.trans: dict[int, int] = {}
        self.leaves: dict[int, int] = {}

    def of_captured(self, captured: Sequence[int], won: Sequence[int]) -> int:
        """The state of the tallies of cards ``captured`` (card indices, per seat) and tricks
        ``won``."""
        tallies = [tuple((c & m).bit_count() for c in captured) for m in self.sc.classes]
        if self.sc.counts_tricks:
            tallies.append(tuple(won))
        return self.intern(tuple(tallies))

    def intern(self, tallies: tuple[tuple[int, ...], ...]) -> int:
        got = self._ids.get(tallies)
        if got is None:
            sc = self.sc
            got = self._ids[tallies] = len(self.partial)
            self.partial.append(tallies)
            sigs = tuple(sc.signature(self.seat, p, tallies[p]) for p in range(len(tallies)))
            sid = self._sig_ids.get(sigs)
            if sid is None:
                sid = self._sig_ids[sigs] = len(self.sig_of)
                self.sig_of.append(sigs)
            self.sig.append(sid)
        return got

    def step_key(self, cur: int, winner: int, tmask: int) -> int:
        """The key of ``trans`` for ``winner`` taking the trick ``tmask`` in state ``cur``."""
        ks = cur * self.players + winner
        for m in self.pieces:
            ks = (ks << 4) | (tmask & m).bit_count()
        return ks

    def advance(self, cur: int, winner: int, tmask: int) -> int:
        """The state after ``winner`` takes the trick ``tmask`` in state ``cur``."""
        ks = self.step_key(cur, winner, tmask)
        got = self.trans.get(ks)
        if got is None:
            nclass = len(self.pieces)
            tallies = list(self.partial[cur])
            for p in range(nclass):
                k = (tmask & self.pieces[p]).bit_count()
                if k:
                    old = tallies[p]
                    tallies[p] = (*old[:winner], old[winner] + k, *old[winner + 1:])
            if len(tallies) > nclass:
                old = tallies[nclass]
                tallies[nclass] = (*old[:winner], old[winner] + 1, *old[winner + 1:])
            got = self.trans[ks] = self.intern(tuple(tallies))
        return got

    def leaf(self, state: int, winner: int) -> int:
        """The value of the deal ending in state ``state`` with ``winner`` taking the last
        trick."""
        lk = state * self.players + winner
        got = self.leaves.get(lk)
        if got is None:
            sc = self.sc
            tallies = self.partial[state]
            finals = [sc.index[p][tallies[p]] for p in range(len(tallies))]
            got = self.leaves[lk] = self.sign * sc.value(self.seat, finals, winner)
        return got
