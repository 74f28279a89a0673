"""How the solver values the end of a trick deal, learnt from the contract's own scorer.

The solver never keeps a copy of a scoring rule.  It asks ``contract.settle`` and sorts the
contract into one of three kinds:

``boolean``
    The scorer reads nothing but whether the early end came (Beddl, Mord): the search is a
    made/lost search, and the scores of "made" and "lost" come from two columns of ``settle``.
``additive``
    Each seat's score is a sum over what the seats captured: a number per card of each counted
    class, per trick won and for the last trick, depending on who captured it (every deal of
    Herzeln and Herzerln, the children's Herzla).  The coefficients are fitted to ``settle`` on
    random tallies and then checked exactly on others; the search adds them up trick by trick.
``table``
    Anything else (the Herzla normal game, whose score depends on every seat's hearts and on a
    slam): every possible final tally is settled once, vectorised (one column each), and leaves
    are looked up.  For the transposition table, partial tallies that no completion can tell
    apart are merged (:meth:`LeafTable.signature`), so that, e.g., who took the tricks stops
    mattering once two seats have taken one.

Which pieces of a tally the scorer reads is found by handing it a :class:`~herzla.contracts.
vocabulary.Counts` whose pieces are computed on demand and noting which are asked for.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from herzla.contracts import Contract, EarlyEnd, TallyError, TrickContract
from herzla.contracts.vocabulary import Counts
from herzla.i18n import _

__all__ = ["AdditiveScore", "BooleanScore", "INT64_REACH", "LeafTable", "TrickScore",
           "compositions", "reach", "trick_score"]

Ints = npt.NDArray[np.int64]

#: the most final tallies settled in one table (beyond that the leaves are settled one by one)
TABLE_LIMIT = 400_000
#: random tallies used to fit and to check an additive scorer
PROBES = 64
#: the largest magnitude of any score ``settle`` can give (its scores are 64-bit integers)
INT64_REACH = 1 << 63


def compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    """Every way to write ``total`` as an ordered sum of ``parts`` whole numbers >= 0.

    >>> compositions(2, 2)
    [(0, 2), (1, 1), (2, 0)]
    """
    out = []
    for bars in itertools.combinations(range(total + parts - 1), parts - 1):
        prev = -1
        row = []
        for b in bars:
            row.append(b - prev - 1)
            prev = b
        row.append(total + parts - 1 - prev - 1)
        out.append(tuple(row))
    return out


class _Reads:
    """A count source that hands out the given pieces and notes which ones were read."""

    def __init__(self, tricks: Ints, cards: dict[int, Ints], last: Ints,
                 ended: npt.NDArray[np.bool_]) -> None:
        self._tricks, self._cards, self._last, self._ended = tricks, cards, last, ended
        self.read: set[str | int] = set()

    def tricks(self) -> Ints:
        self.read.add("tricks")
        return self._tricks

    def cards(self, cards: int) -> Ints:
        self.read.add(cards)
        got = self._cards.get(cards)
        if got is None:
            raise TallyError(_("a class the declaration does not count"))
        return got

    def last(self) -> Ints:
        self.read.add("last")
        return self._last

    def ended(self) -> npt.NDArray[np.bool_]:
        self.read.add("ended")
        return self._ended


class BooleanScore:
    """A made/lost contract: the scores of each seat when made and when lost."""

    kind = "boolean"

    def __init__(self, contract: TrickContract, stock: int) -> None:
        end = contract.declaration.early_end
        assert end is not None and contract.declarer is not None
        self.early_end: EarlyEnd = end
        self.declarer: int = contract.declarer
        counts = Counts(contract.players, 2, ended=np.array([False, True]))
        scores = contract.settle(counts, stock).scores
        self.made: tuple[int, ...] = tuple(int(v) for v in scores[:, 0])
        self.lost: tuple[int, ...] = tuple(int(v) for v in scores[:, 1])


class AdditiveScore:
    """Seat ``s``'s score = ``base[s]`` + for every card captured by ``w``: ``card[s][w][c]``,
    for every trick won by ``w``: ``trick[s][w]``, and ``last[s][w]`` for the last trick."""

    kind = "additive"

    def __init__(self, base: Sequence[int], card: Sequence[Sequence[Sequence[int]]],
                 trick: Sequence[Sequence[int]], last: Sequence[Sequence[int]]) -> None:
        self.base = tuple(base)
        self.card = tuple(tuple(tuple(row) for row in w) for w in card)
        self.trick = tuple(tuple(w) for w in trick)
        self.last = tuple(tuple(w) for w in last)

    def of_tally(self, seat: int, captured: Sequence[int], won: Sequence[int],
                 last: int | None) -> int:
        """Seat ``seat``'s score from the captured cards (bit sets), tricks won and last
        winner."""
        v = self.base[seat]
        for w, mask in enumerate(captured):
            row = self.card[seat][w]
            m = mask
            while m:
                low = m & -m
                v += row[low.bit_length() - 1]
                m ^= low
            v += self.trick[seat][w] * won[w]
        if last is not None:
            v += self.last[seat][last]
        return v


class LeafTable:
    """Every final tally of a trick deal without an early end, settled once.

    Pieces: the counted classes the scorer reads (each seat's count of each), the tricks won
    (if read) and the last trick's winner (if read).  ``value(seat, finals, last)`` is a leaf's
    score; ``signature(piece, partial)`` an id that is equal for two partial tallies of a piece
    exactly when no completion of the deal can tell them apart.
    """

    kind = "table"

    def __init__(self, contract: TrickContract, stock: int, classes: Sequence[int],
                 totals: Sequence[int], tricks: bool, last: bool) -> None:
        n = contract.players
        self.players = n
        self.classes = tuple(classes)
        self.totals = tuple(totals)  # per piece: cards of the class dealt, then the tricks
        self.counts_tricks = tricks  # the score counts the tricks each seat won
        self.has_last = last
        finals = [compositions(t, n) for t in self.totals]
        self.finals = finals
        self.index = [{f: i for i, f in enumerate(fs)} for fs in finals]
        shape = [len(fs) for fs in finals] + ([n] if last else [])
        size = int(np.prod(shape)) if shape else 1
        self._lazy: dict[tuple[int, ...], tuple[int, ...]] | None = None
        self._contract = contract
        self._stock = stock
        self.table: Ints | None = None
        if size <= TABLE_LIMIT:
            grids = np.indices(shape).reshape(len(shape), -1) if shape else np.zeros((0, 1),
                                                                                     np.int64)
            counts = self._counts(grids)
            scores = contract.settle(counts, stock).scores  # (players, size)
            self.table = scores.reshape([n, *shape])
        else:
            self._lazy = {}
        self._class_ids: list[dict[bytes, int]] = [{} for _ in finals]
        self._final_class: list[dict[tuple[int, int], int]] = [{} for _ in finals]
        self._sigs: list[dict[tuple[int, tuple[int, ...]], int]] = [{} for _ in finals]
        self._sig_rows: list[dict[tuple[int, int, tuple[int, ...]], int]] = [
            {} for _ in finals]
        self._sig_partial: list[list[tuple[int, ...]]] = [[] for _ in finals]
        self._bounds: dict[tuple[int, tuple[int, ...], bool], tuple[int, int]] = {}
        self._comps = {t: compositions(t, n) for t in range(max(self.totals, default=0) + 1)}

    def _counts(self, grids: npt.NDArray[np.intp]) -> Counts:
        n = self.players
        cols = grids.shape[1]
        pieces = []
        for p, fs in enumerate(self.finals):
            arr = np.asarray(fs, dtype=np.int64).reshape(-1, n)
            pieces.append(arr[grids[p]].T)  # (players, cols)
        cards = {m: pieces[i] for i, m in enumerate(self.classes)}
        tricks = pieces[len(self.classes)] if self.counts_tricks else None
        last = grids[-1].astype(np.int64) if self.has_last else None
        return Counts(n, cols, tricks=tricks, cards=cards, last=last)

    def value(self, seat: int, finals: Sequence[int], last: int | None) -> int:
        """Seat ``seat``'s score for the leaf with final tallies ``finals`` (indices into
        ``self.finals``) and last winner ``last``."""
        key = (*finals, last if last is not None else 0) if self.has_last else tuple(finals)
        if self.table is not None:
            return int(self.table[(seat, *key)])
        assert self._lazy is not None
        got = self._lazy.get(key)
        if got is None:
            grid = np.asarray(key, dtype=np.intp).reshape(-1, 1)
            scores = self._contract.settle(self._counts(grid), self._stock).scores
            got = self._lazy[key] = tuple(int(v) for v in scores[:, 0])
        return got[seat]

    def _class_of(self, seat: int, piece: int, final: int) -> int:
        """An id of what final ``final`` of ``piece`` means for ``seat`` (its table slice)."""
        memo = self._final_class[piece]
        got = memo.get((seat, final))
        if got is not None:
            return got
        if self.table is None:
            got = final  # no table: every final is its own class
        else:
            part = np.take(self.table[seat], final, axis=piece)
            ids = self._class_ids[piece]
            got = ids.setdefault(part.tobytes(), len(ids))
        memo[(seat, final)] = got
        return got

    def signature(self, seat: int, piece: int, partial: tuple[int, ...]) -> int:
        """An id of a partial tally of ``piece``: equal ids, equal futures for ``seat``."""
        key = (seat, partial)
        sigs = self._sigs[piece]
        got = sigs.get(key)
        if got is not None:
            return got
        left = self.totals[piece] - sum(partial)
        index = self.index[piece]
        row = tuple(self._class_of(seat, piece, index[tuple(a + b for a, b in
                                                            zip(partial, c, strict=True))])
                    for c in self._comps[left])
        ids = self._sig_rows[piece]  # per seat: a partial stands for its class for one seat
        got = ids.get((seat, left, row))
        if got is None:
            got = ids[(seat, left, row)] = len(ids)
            self._sig_partial[piece].append(partial)
        sigs[key] = got
        return got

    def bounds(self, seat: int, sigs: tuple[int, ...], idle: bool = False
               ) -> tuple[int, int]:
        """The lowest and highest score ``seat`` can still end with, given the signatures of
        the partial tallies (every completion of each piece, any last winner); with ``idle``,
        only the completions in which ``seat`` captures nothing more."""
        got = self._bounds.get((seat, sigs, idle))
        if got is not None:
            return got
        if self.table is None:  # no table: any score settle can give
            return -INT64_REACH, INT64_REACH
        axes = []
        for piece, sig in enumerate(sigs):
            partial = self._sig_partial[piece][sig]
            left = self.totals[piece] - sum(partial)
            index = self.index[piece]
            axes.append([index[tuple(a + b for a, b in zip(partial, c, strict=True))]
                         for c in self._comps[left] if not (idle and c[seat])])
        if self.has_last:
            axes.append([w for w in range(self.players) if not (idle and w == seat)])
        part = self.table[seat][np.ix_(*axes)]
        got = self._bounds[(seat, sigs, idle)] = (int(part.min()), int(part.max()))
        return got


TrickScore = BooleanScore | AdditiveScore | LeafTable


def reach(sc: TrickScore, seat: int, tricks: int) -> int:
    """The largest magnitude a search value of ``seat`` can take under ``sc`` in a deal of
    ``tricks`` tricks a hand: made/lost 1; additive, the most the cards, the tricks and the last
    trick still to come can add (the search values the future); a table, its largest score (or
    any 64-bit score, with no table).  The searches' infinity lies beyond it, so no value, at
    any amount the limits allow, is ever mistaken for a bound.

    >>> reach(AdditiveScore([0, 0], [[[0] * 36, [0] * 35 + [-7]], [[0] * 36] * 2],
    ...                     [[1, -2], [0, 0]], [[0, 5], [0, 0]]), 0, 3)
    18
    """
    if isinstance(sc, BooleanScore):
        return 1
    if isinstance(sc, AdditiveScore):
        rows = sc.card[seat]
        cards = sum(max(abs(row[c]) for row in rows) for c in range(36))
        return (cards + tricks * max(abs(v) for v in sc.trick[seat])
                + max(abs(v) for v in sc.last[seat]))
    if sc.table is None:
        return INT64_REACH
    return int(np.abs(sc.table[seat]).max())

_CACHE: dict[tuple[Contract, int, tuple[int, ...]], TrickScore] = {}


def trick_score(contract: TrickContract, stock: int, dealt: Sequence[int]) -> TrickScore:
    """The scoring model of ``contract`` for a deal whose hands hold ``dealt`` (bit sets)."""
    d = contract.declaration
    dealt_mask = 0
    for h in dealt:
        dealt_mask |= h
    totals = tuple((m & dealt_mask).bit_count() for m in d.classes())
    key = (contract, stock, totals)
    got = _CACHE.get(key)
    if got is None:
        got = _CACHE[key] = _learn(contract, stock, totals)
    return got


class _Probes:
    """Whole numbers for probing a scorer, the same in every run: a splitmix64 stream in numpy
    arithmetic (numpy's own generators cost every ``herzla solve`` the import of
    ``numpy.random``)."""

    def __init__(self, seed: int) -> None:
        self.drawn = seed

    def integers(self, low: int, high: int, size: int | tuple[int, ...]) -> Ints:
        """Numbers in ``[low, high)``, in an array of shape ``size``."""
        shape = (size,) if isinstance(size, int) else size
        count = int(np.prod(shape))
        z = np.arange(self.drawn + 1, self.drawn + count + 1, dtype=np.uint64)
        self.drawn += count
        z *= np.uint64(0x9E3779B97F4A7C15)
        z ^= z >> np.uint64(30)
        z *= np.uint64(0xBF58476D1CE4E5B9)
        z ^= z >> np.uint64(27)
        z *= np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
        return (low + (z % np.uint64(high - low)).astype(np.int64)).reshape(shape)


def _random_counts(contract: TrickContract, columns: int, rng: _Probes
                   ) -> tuple[Counts, _Reads]:
    n = contract.players
    classes = contract.declaration.classes()
    size = contract.hand_size
    tricks = rng.integers(0, size + 1, size=(n, columns))
    cards = {m: rng.integers(0, m.bit_count() + 1, size=(n, columns)) for m in classes}
    last = rng.integers(0, n, size=columns)
    ended = rng.integers(0, 2, size=columns).astype(np.bool_)
    src = _Reads(tricks, cards, last, ended)
    return Counts(n, columns, source=src), src


def _learn(contract: TrickContract, stock: int, totals: Sequence[int]) -> TrickScore:
    d = contract.declaration
    rng = _Probes(20260)
    counts, src = _random_counts(contract, PROBES, rng)
    try:
        scores = contract.settle(counts, stock).scores
    except TallyError:
        scores = None
    read = set(src.read)
    if d.early_end is not None and contract.declarer is not None and read <= {"ended"}:
        return BooleanScore(contract, stock)
    classes = [m for m in d.classes() if m in read]
    if scores is not None and "ended" not in read:
        fitted = _fit_additive(contract, stock, classes, "tricks" in read, "last" in read, rng)
        if fitted is not None:
            return fitted
    if d.early_end is not None:
        raise NotImplementedError(
            f"{contract.game} {contract.id}: the solver covers contracts with an early end only "
            f"when their score depends on made or lost alone")
    piece_totals = [totals[d.classes().index(m)] for m in classes]
    if "tricks" in read:
        piece_totals.append(contract.hand_size)
    return LeafTable(contract, stock, classes, piece_totals, "tricks" in read, "last" in read)


def _features(n: int, cards: dict[int, Ints], classes: Sequence[int], tricks: Ints | None,
              last: Ints | None, columns: int) -> npt.NDArray[np.float64]:
    rows: list[Ints] = []
    for m in classes:
        rows.extend(cards[m][w] for w in range(n))
    if tricks is not None:
        rows.extend(tricks[w] for w in range(n))
    if last is not None:
        rows.extend((last == w).astype(np.int64) for w in range(n))
    else:
        rows.append(np.ones(columns, dtype=np.int64))
    return np.asarray(rows, dtype=np.float64).T


def _fit_additive(contract: TrickContract, stock: int, classes: Sequence[int], tricks: bool,
                  last: bool, rng: _Probes) -> AdditiveScore | None:
    """Fit per-seat linear scores to ``settle`` on random tallies; None unless exact."""
    n = contract.players
    fit_cols, check_cols = 4 * (len(classes) + 2) * n, PROBES
    fitted = None
    for cols, fit in ((fit_cols, True), (check_cols, False)):
        t = rng.integers(0, contract.hand_size + 1, size=(n, cols))
        cards = {m: rng.integers(0, m.bit_count() + 1, size=(n, cols)) for m in classes}
        lw = rng.integers(0, n, size=cols)
        counts = Counts(n, cols, tricks=t if tricks else None, cards=cards,
                        last=lw if last else None)
        try:
            scores = contract.settle(counts, stock).scores.astype(np.float64)
        except TallyError:
            return None
        x = _features(n, cards, classes, t if tricks else None, lw if last else None, cols)
        if fit:
            coef, *_ = np.linalg.lstsq(x, scores.T, rcond=None)
            fitted = np.rint(coef).astype(np.int64)  # (features, players)
        assert fitted is not None
        if not np.array_equal(x.astype(np.int64) @ fitted, scores.T.astype(np.int64)):
            return None
    assert fitted is not None
    k = 0
    card = [[[0] * 36 for _ in range(n)] for _ in range(n)]
    for m in classes:
        for w in range(n):
            for s in range(n):
                c = int(fitted[k, s])
                if c:
                    for i in range(36):
                        if m >> i & 1:
                            card[s][w][i] += c
            k += 1
    trick = [[0] * n for _ in range(n)]
    if tricks:
        for w in range(n):
            for s in range(n):
                trick[s][w] = int(fitted[k, s])
            k += 1
    last_v = [[0] * n for _ in range(n)]
    base = [0] * n
    if last:
        for w in range(n):
            for s in range(n):
                last_v[s][w] = int(fitted[k, s])
            k += 1
    else:
        base = [int(fitted[k, s]) for s in range(n)]
    return AdditiveScore(base, card, trick, last_v)
