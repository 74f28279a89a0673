"""The compiled path of the general trick search: the kernel of :mod:`herzla.analysis.search.kernel`
fed from the same units as the pure search.

The compiled path is taken when numba is installed (``pip install 'herzla[fast]'``), at least
:data:`MIN_CARDS` cards are still to play, the search is an additive or table search (the made/lost
search of Beddl and Mord only once the kernel is loaded, as ``herzla advise`` does for many samples:
alone it answers in milliseconds, less than importing numba costs; the layout search stays pure
Python), and every value of the deal stays below 2**60
(:func:`herzla.analysis.search.scoring.reach`; the limits of :mod:`herzla.limits` keep every
contract herzla ships far below it).  Otherwise, or with the environment variable ``HERZLA_PURE=1``,
or inside ``with pure():``, the pure-Python search runs. Both give the same values
(``tests/test_search_paths.py`` runs both on every kind of position).  Inside ``with plain():``
the compiled path runs the kernel as plain Python (:mod:`herzla.analysis.search.kernel.plain`),
numba installed or not: the default tests hold it to the pure search
(``tests/test_kernel_plain.py``).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, Protocol

import numpy as np

from herzla.analysis.search.bounds import AdditiveBounds
from herzla.analysis.search.interface import Root, Search
from herzla.analysis.search.kernel import slots
from herzla.analysis.search.leaves import AdditiveValues
from herzla.analysis.search.position import load_position
from herzla.analysis.search.scoring import AdditiveScore, BooleanScore, LeafTable, compositions
from herzla.kinds.tricks import TrickHand

__all__ = ["KERNEL", "always", "available", "compiled_root", "plain", "pure"]

#: the module of the compiled search, imported on the first compiled search (it imports numba)
KERNEL = "herzla.analysis.search.kernel.alphabeta"
#: values at or above this magnitude are searched by the pure path (no 64-bit sum can overflow)
LIMIT = 1 << 60
#: slots of the shared transposition table, and of the bounds cache
TT_BITS = 17
BC_BITS = 14
#: the largest per-piece code table (base ** players) the kernel takes
MAX_CODES = 1 << 20
#: the fewest cards still to play for which the compiled path is taken: below it the pure
#: search answers in milliseconds, less than importing numba and loading the kernel costs
MIN_CARDS = 20

_state: dict[str, Any] = {"on": os.environ.get("HERZLA_PURE", "") in ("", "0"), "gen": 0,
                          "min_cards": MIN_CARDS}

class Kernel(Protocol):
    """The kernel's search: compiled (:mod:`herzla.analysis.search.kernel.alphabeta`) or plain
    Python (:class:`herzla.analysis.search.kernel.plain.PlainKernel`)."""

    def search(self, *args: Any) -> int: ...


_tables: dict[tuple[object, int, int], tuple[np.ndarray, ...]] = {}


def available() -> bool:
    """Whether the compiled path is on and numba is installed (or the kernel runs as plain
    Python: :func:`plain`)."""
    if not _state["on"]:
        return False
    if _state.get("kernel") is not None:
        return True
    got = _state.get("numba")
    if got is None:
        got = _state["numba"] = importlib.util.find_spec("numba") is not None
    return bool(got)


@contextlib.contextmanager
def pure() -> Iterator[None]:
    """Within the block every search takes the pure-Python path."""
    before = _state["on"]
    _state["on"] = False
    try:
        yield
    finally:
        _state["on"] = before


@contextlib.contextmanager
def always() -> Iterator[None]:
    """Within the block the compiled path is taken wherever it applies, however few cards are
    left (for tests, which compare the paths on small positions)."""
    before = _state["on"], _state["min_cards"]
    _state["on"], _state["min_cards"] = True, 0
    try:
        yield
    finally:
        _state["on"], _state["min_cards"] = before


@contextlib.contextmanager
def plain() -> Iterator[None]:
    """Within the block the compiled path is taken wherever it applies, however few cards are
    left, and runs the kernel as plain Python (for tests: slow, but what numba compiles, checked
    without numba)."""
    from herzla.analysis.search.kernel.plain import plain_kernel

    before = _state["on"], _state["min_cards"], _state.get("kernel")
    _state["on"], _state["min_cards"], _state["kernel"] = True, 0, plain_kernel()
    try:
        yield
    finally:
        _state["on"], _state["min_cards"], _state["kernel"] = before


def _shared() -> tuple[np.ndarray, ...]:
    got = _state.get("tt")
    if got is None:
        size = 1 << TT_BITS
        bsize = 1 << BC_BITS
        got = _state["tt"] = (np.zeros((size, 9), np.int64), np.zeros((size, 3), np.int64),
                              np.full(size, -1, np.int64), np.zeros(bsize, np.int64),
                              np.zeros((bsize, 3), np.int64), np.full(bsize, -1, np.int64))
    return tuple(got)


def _table_arrays(sc: LeafTable, seat: int, sign: int) -> tuple[np.ndarray, ...] | None:
    """A table scorer's arrays for the kernel: per piece the totals, the powers of its code,
    the signature id and final index of every code, the signatures' mixed radix, the leaves
    (times ``sign``) and their strides, and the compositions of every remainder."""
    key = (sc, seat, sign)
    got = _tables.get(key)
    if got is not None:
        return got
    if sc.table is None:
        return None
    n = sc.players
    npc = len(sc.totals)
    base = [t + 1 for t in sc.totals]
    size = max(b ** n for b in base) if base else 1
    if size > MAX_CODES:
        return None
    total = np.asarray(sc.totals, np.int64)
    pw = np.asarray([[b ** w for w in range(n)] for b in base], np.int64).reshape(npc, n)
    sigid = np.full((npc, size), -1, np.int64)
    fidx = np.full((npc, size), -1, np.int64)
    for p in range(npc):
        for r in range(sc.totals[p] + 1):
            for comp in compositions(r, n):
                code = sum(c * int(pw[p, w]) for w, c in enumerate(comp))
                sigid[p, code] = sc.signature(seat, p, comp)
                if r == sc.totals[p]:
                    fidx[p, code] = sc.index[p][comp]
    smult = np.ones(npc, np.int64)
    for p in range(1, npc):
        smult[p] = smult[p - 1] * (int(sigid[p - 1].max()) + 1)
    tab = np.ascontiguousarray(sign * sc.table[seat], dtype=np.int64)
    fstride = np.asarray([s // 8 for s in tab.strides[:npc]], np.int64)
    leaf = tab.reshape(-1)
    most = max(sc.totals, default=0)
    rows: list[tuple[int, ...]] = []
    off = [0]
    for r in range(most + 1):
        rows.extend(compositions(r, n))
        off.append(len(rows))
    comp_arr = np.asarray(rows, np.int64).reshape(-1, n)
    got = _tables[key] = (total, pw, sigid, smult, fidx, fstride, leaf,
                          np.asarray(off, np.int64), comp_arr)
    return got


def compiled_root(search: Search, state: TrickHand) -> Root | None:
    """The compiled search of ``search`` (a function giving, for a position, (alpha, beta) ->
    value), or None when the compiled path does not apply (see the module notes)."""
    sc = search.score
    if not (isinstance(sc, AdditiveScore | LeafTable | BooleanScore) and search.inf < LIMIT):
        return None
    if sum(h.bit_count() for h in state.hands) < _state["min_cards"]:
        return None
    if isinstance(sc, BooleanScore) and _state["min_cards"] and KERNEL not in sys.modules:
        return None  # made/lost alone: the pure search is faster than loading numba
    kernel: Kernel | None = _state.get("kernel")
    if kernel is None:
        try:
            import numba  # noqa: F401  (installed, but can it load with this numpy?)
        except ImportError:  # pragma: no cover - a numba that does not fit: the pure path
            _state["numba"] = False
            return None
        from herzla.analysis.search.kernel import alphabeta

        kernel = alphabeta

    declared = search.declared
    n = search.players
    T = state.tricks_per_hand
    f = search.features
    S, sign = search.seat, search.sign
    if isinstance(sc, BooleanScore):
        S, sign = sc.declarer, 1
    Q = np.zeros(slots.SLOTS, np.int64)
    Q[slots.N], Q[slots.T], Q[slots.S], Q[slots.GAIN] = n, T, S, int(search.gain)
    Q[slots.BOUNDS], Q[slots.USE_TT] = int(f.bounds), int(f.table)
    Q[slots.ORDERING], Q[slots.EQUIV] = int(f.ordering), int(f.equivalence)
    Q[slots.RELATIVE] = int(f.relative and any(declared.uniform))
    Q[slots.TT_MASK], Q[slots.BC_MASK] = (1 << TT_BITS) - 1, (1 << BC_BITS) - 1
    Q[slots.INF] = search.inf
    lead_ban = np.asarray(declared.lead_bans(T), np.int64)
    disc_ban = np.asarray(declared.discard_bans(T), np.int64)
    sig = np.asarray(declared.signature, np.int64)
    uniform = np.asarray(declared.uniform, np.int64)
    cv = np.zeros((n, 36), np.int64)
    tv = np.zeros(n, np.int64)
    lv = np.zeros(n, np.int64)
    lo_tab = hi_tab = idle_tab = np.zeros((4, 512), np.int64)
    one = np.zeros(1, np.int64)
    pieces = one
    table: tuple[np.ndarray, ...] = (one, np.zeros((1, n), np.int64), np.zeros((1, 1), np.int64),
                                     one, np.zeros((1, 1), np.int64), one, one, np.zeros(2,
                                     np.int64), np.zeros((1, n), np.int64))
    classes: list[int] = []
    counts_tricks = False
    if isinstance(sc, BooleanScore):
        Q[slots.KIND] = slots.BOOLEAN
        Q[slots.CUTS] = int(f.bounds)  # the declarer's cards that lose at once
        Q[slots.BOUNDS] = 0
        tv = np.asarray([int(declared.ends_on(w)) for w in range(n)], np.int64)
    elif isinstance(sc, AdditiveScore):
        values = AdditiveValues(sc, S, sign, n, declared.to_card)
        bounds = AdditiveBounds(values, S, n, T)
        cv = np.asarray(values.card, np.int64)
        tv = np.asarray(values.trick, np.int64)
        lv = np.asarray(values.last, np.int64)
        lo_tab = np.asarray(bounds.lo_tab, np.int64)
        hi_tab = np.asarray(bounds.hi_tab, np.int64)
        idle_tab = np.asarray(bounds.idle_tab, np.int64)
        Q[slots.KIND] = slots.ADDITIVE
        Q[slots.TRICK_LO], Q[slots.TRICK_HI] = bounds.trick_lo, bounds.trick_hi
        Q[slots.LAST_LO], Q[slots.LAST_HI] = bounds.last_lo, bounds.last_hi
        Q[slots.IDLE_TRICK], Q[slots.IDLE_LAST] = bounds.idle_trick, bounds.idle_last
    else:
        got = _table_arrays(sc, S, sign)
        if got is None:
            return None
        table = got
        classes = list(sc.classes)
        counts_tricks = sc.counts_tricks
        pieces = np.asarray([declared.bits(m) for m in classes] + ([-1] if counts_tricks else []),
                            np.int64)
        Q[slots.KIND] = slots.TABLE
        Q[slots.P] = len(pieces)
        Q[slots.HAS_LAST] = int(sc.has_last)
    total, pw, sigid, smult, fidx, fstride, leaf, comp_off, comp = table
    shared = _shared()
    # the bounds of a table scorer depend on the scorer, seat and sign alone: one generation
    # of the bounds cache for each, shared by every search of them (advise's samples)
    bgens: dict[tuple[object, int, int], int] = _state.setdefault("bgens", {})
    bgen = bgens.setdefault((sc, S, sign), len(bgens) + 1)
    # the table's entries of this search: a generation of its own (the others' do not match)
    _state["gen"] += 1
    gen = _state["gen"]
    H = np.zeros(n, np.int64)
    hands = [0] * n
    npc = int(Q[slots.P])

    def root(st: TrickHand) -> Callable[[int, int], int]:
        seat0, k0, t0, out0, led0, best0, bseat0, tmask0, leader0 = load_position(
            declared, st, hands)
        cnt = np.zeros((max(npc, 1), n), np.int64)
        for p, m in enumerate(classes):
            for w in range(n):
                cnt[p, w] = (st.captured[w] & m).bit_count()
        if counts_tricks:
            cnt[len(classes)] = st.won
        code = np.asarray([int((cnt[p] * pw[p]).sum()) if npc else 0
                           for p in range(max(npc, 1))], np.int64)
        start_hands = list(hands)

        def run(alpha: int, beta: int) -> int:
            Q[slots.GEN] = gen
            Q[slots.BGEN] = bgen
            Q[slots.NODES] = 0
            H[:] = start_hands
            if k0 == 0:
                args = (0, leader0, t0, out0, 0, -1, -1, 0)
            else:
                args = (k0, seat0, t0, out0, led0, best0, bseat0, tmask0)
            v = kernel.search(Q, H, *args, max(alpha, -search.inf), min(beta, search.inf),
                              lead_ban, disc_ban, sig, uniform, cv, tv, lv, lo_tab, hi_tab,
                              idle_tab, pieces, total, cnt, code, pw, sigid, smult, fidx,
                              fstride, leaf, comp_off, comp, *shared)
            search.nodes += int(Q[slots.NODES])
            return v
        return run
    search.path = "compiled" if _state.get("kernel") is None else "plain kernel"
    return root
