"""The double-dummy search of trick deals: alpha-beta on bit sets, with what makes it fast.

A position is every seat's cards (bit sets), the trick in progress and the tricks played.  The
search values it for one seat ``S`` (the *maximiser*; in Beddl and Mord the declarer), everyone else
minimising ("paranoid"), in one of the three ways of :mod:`herzla.analysis.search.scoring`.
:class:`TrickSearch` is the entry point for all three; a made/lost (boolean) scorer is searched by
:mod:`herzla.analysis.search.made_or_lost`, the others by the alpha-beta search of
:mod:`herzla.analysis.search.alphabeta` (or its compiled path,
:mod:`herzla.analysis.search.compiled`).

Techniques (``benchmarks/README.md`` measures what each buys), each a unit of its own:

- **bit sets in strength order** (:mod:`herzla.analysis.search.declared`): inside the search a card
  is ``suit * 9 + strength``, so within a suit a higher bit is a stronger card and "does it win
  the trick" is one comparison;
- **equivalent cards** (:mod:`herzla.analysis.search.equivalence`): two cards of one seat that are
  neighbours in strength among the cards still out (in hands or on the table), and that belong
  to the same counted classes and lead bans, lead to the same values, so only the lowest of each
  run is searched;
- **transposition table** at trick boundaries, keyed (:mod:`herzla.analysis.search.keys`) by the
  hands and the leader (and, for non-additive scorers, the signatures of the partial tallies),
  holding lower and upper bounds and the best lead; the trick index follows from the cards left, so
  the lead bans do too;
- **move ordering** (:mod:`herzla.analysis.search.ordering`): the table's best lead first, then by
  the contract's polarity (where winning tricks is bad for the maximiser everyone tries ducking
  first, else winning first);
- **bounds** (:mod:`herzla.analysis.search.bounds`): what the cards and tricks still to come can add
  to the maximiser's score at most and at least (additive scorers), or the best and worst leaf any
  completion of the partial tallies reaches (table scorers), which ends the search of a position
  whose window it falls outside; and when ``S`` can keep out of every trick still to come, the worst
  score in which it captures nothing more;
- **null-window searches**: exact values come from MTD(f), a series of null-window searches
  sharing the table;
- **memoised work**: equivalence runs and move orders per holding, keys per position, the partial
  tallies of a table scorer interned with their transitions, leaves and bounds.

Legality comes from the declaration alone (:mod:`herzla.analysis.search.declared`): follow suit,
``declaration.banned(trick, leading)`` with the escape (a ban never leaves a seat without a legal
card), ``declaration.early_end``; the leaves from the contract's ``settle``
(:mod:`herzla.analysis.search.scoring`, :mod:`herzla.analysis.search.leaves`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from herzla.analysis.search import made_or_lost
from herzla.analysis.search.declared import Declared
from herzla.analysis.search.equivalence import group_runs
from herzla.analysis.search.interface import Features, Moves, Root
from herzla.analysis.search.scoring import AdditiveScore, BooleanScore, TrickScore, reach
from herzla.contracts import EarlyEnd, TrickContract
from herzla.kinds.tricks import TrickHand

__all__ = ["Features", "TrickSearch"]

#: the compiled path's module (imported by the searches that may take it)
_COMPILED = "herzla.analysis.search.compiled"


class TrickSearch:
    """The search of one trick deal for one maximising seat.

    Build it once for a deal; :meth:`value` answers positions of that deal given as reference
    engine states (:class:`herzla.kinds.tricks.TrickHand`), all sharing one transposition table.
    Values are the maximiser's: made (1) or lost (0) for a boolean scorer, else its final score
    (times ``sign``: -1 where lower is better, so the search always maximises).
    """

    def __init__(self, contract: TrickContract, score: TrickScore, seat: int, sign: int = 1,
                 features: Features | None = None) -> None:
        f = features or Features()
        self.features = f
        self.contract = contract
        self.score = score
        self.seat = seat
        self.sign = sign
        self.nodes = 0
        self.players = contract.players
        #: the declaration in search bits (conversions, bans, signatures, early end)
        self.declared = Declared.of(contract)
        self.tt: dict[object, tuple[int, int, int]] = {}
        self._root: Root | None = None
        self._moves: Moves | None = None
        #: which search ran: "pure" (Python) or "compiled" (herzla.analysis.search.kernel)
        self.path = "pure"
        self._fast: Root | None = None
        self._fast_tried = False
        # the polarity: does the maximiser want to win tricks?
        self.gain = self._polarity()
        #: beyond every value this search can return, at any amount (see scoring.reach)
        self.inf = reach(score, seat, contract.hand_size) + 1

    def _polarity(self) -> bool:
        sc = self.score
        if isinstance(sc, BooleanScore):
            return sc.early_end is EarlyEnd.DEFENDER_WINS
        if isinstance(sc, AdditiveScore):
            s = self.seat
            total = sum(sc.card[s][s]) + sc.trick[s][s] * self.contract.hand_size \
                + sc.last[s][s]
            return self.sign * total > 0
        return False

    # -- the search -------------------------------------------------------------------------
    def value(self, state: TrickHand, alpha: int | None = None, beta: int | None = None) -> int:
        """The value of an engine state (fail-soft within ``(alpha, beta)``; by default the
        full window)."""
        alpha = -self.inf if alpha is None else alpha
        beta = self.inf if beta is None else beta
        if isinstance(self.score, BooleanScore):  # made (1) or lost (0): nothing outside
            if beta <= 0:
                return 0
            if alpha >= 1:
                return 1
        run = self._make(state)
        return run(alpha, beta)

    def exact(self, state: TrickHand, guess: int = 0) -> int:
        """The exact value of an engine state: MTD(f) (or one full-window search)."""
        if isinstance(self.score, BooleanScore):
            fast = self._made_lost_kernel(state)
            if fast is not None:
                return fast(state)(0, 1)
            return self._make(state)(0, 1)
        run = self._make(state)
        INF = self.inf
        if not self.features.mtdf:
            return run(-INF, INF)
        lo, hi, g = -INF, INF, guess
        while lo < hi:
            beta = g + 1 if g == lo else g
            g = run(beta - 1, beta)
            if g < beta:
                hi = g
            else:
                lo = g
        return g

    def _made_lost_kernel(self, state: TrickHand) -> Root | None:
        """The compiled made/lost search, for :meth:`exact` alone (the line of best play keeps
        the pure search's order), where it applies: numba loaded already (by a search that
        needed it, as in ``herzla advise``), since the pure made/lost search answers a deal
        faster than numba loads."""
        if not self._fast_tried:
            self._fast_tried = True
            # the kernel is loaded only through the compiled path's module: where nothing has
            # imported that, nothing has loaded the kernel (nor switched paths), and a made/lost
            # search imports neither (``herzla solve`` of Beddl and Mord: tests/test_startup.py)
            compiled = sys.modules.get(_COMPILED)
            if compiled is not None and self.features.compiled and compiled.available():
                self._fast = compiled.compiled_root(self, state)
        return self._fast

    def classes(self, state: TrickHand) -> dict[int, list[int]]:
        """The legal cards of the seat to play grouped into equivalent runs: the card index of
        each run's lowest card -> the card indices of the run."""
        d = self.declared
        out_cards = d.bits(sum(state.hands) | sum(c.bit for c in state.trick))
        groups = group_runs(d.signature, d.bits(state.hands[state.turn]),
                            d.bits(state.legal_mask()), out_cards, self.features.equivalence)
        return {d.card(rep): [d.card(c) for c in run] for rep, run in groups.items()}

    def _make(self, state: TrickHand) -> Callable[[int, int], int]:
        """A function (alpha, beta) -> value of ``state``."""
        if self._root is None:
            self._root, self._moves = self._search_of(state)
        return self._root(state)

    def _search_of(self, state: TrickHand) -> tuple[Root, Moves]:
        if isinstance(self.score, BooleanScore):
            return made_or_lost.build(self, state)
        from herzla.analysis.search import alphabeta, compiled

        root, moves = alphabeta.build(self, state)
        if self.features.compiled and compiled.available():
            fast = compiled.compiled_root(self, state)
            if fast is not None:
                return fast, moves
        return root, moves

    def moves(self, state: TrickHand) -> list[int]:
        """The card indices the search tries for the seat to play, in its order (equivalent
        cards once; at a trick boundary the table's best lead first)."""
        if self._moves is None:
            self._root, self._moves = self._search_of(state)
        return self._moves(state)
