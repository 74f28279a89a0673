"""What a trick search's builders share: the techniques it uses (:class:`Features`), what each
builder reads of the search it builds for (:class:`Search`), and what a builder returns
(:data:`Root`, :data:`Moves`).

The builders are the alpha-beta search (:func:`herzla.analysis.search.alphabeta.build`), the
made/lost search (:func:`herzla.analysis.search.made_or_lost.build`) and the compiled path
(:func:`herzla.analysis.search.compiled.compiled_root`);
:class:`~herzla.analysis.search.trick_search.TrickSearch` chooses among them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import attrs

from herzla.analysis.search.declared import Declared
from herzla.analysis.search.scoring import TrickScore
from herzla.kinds.tricks import TrickHand

__all__ = ["Features", "Moves", "Root", "Search"]

#: a search of a deal: for a position, a function (alpha, beta) -> its value
Root = Callable[[TrickHand], Callable[[int, int], int]]
#: for a position, the card indices the search tries, in its order
Moves = Callable[[TrickHand], list[int]]


@attrs.frozen(slots=True)
class Features:
    """Which techniques the search uses (all by default; switched off only to measure them)."""

    equivalence: bool = True
    table: bool = True
    ordering: bool = True
    bounds: bool = True
    mtdf: bool = True
    relative: bool = True
    #: the compiled kernel where it applies (:mod:`herzla.analysis.search.compiled`), else pure
    #: Python
    compiled: bool = True


class Search(Protocol):
    """What a builder reads of the search it builds for (one deal, one maximising seat), and
    what it writes back: the nodes it visits and, on the compiled path, ``path``."""

    players: int
    #: the declaration in search bits (conversions, bans, signatures, early end)
    declared: Declared
    score: TrickScore
    seat: int
    #: -1 where lower is better, so that the search always maximises
    sign: int
    features: Features
    #: the transposition table, shared by every position of the deal
    tt: dict[object, tuple[int, int, int]]
    #: beyond every value the search can return
    inf: int
    #: the polarity: does the maximiser want to win tricks?
    gain: bool
    nodes: int
    #: which search ran: "pure" (Python) or "compiled"
    path: str
