"""The search units of the exact analysis: the double-dummy searches and what they are built from.
The services (:mod:`herzla.analysis.solve`, ``review``, ``advise``, ...) call them.

- :mod:`~herzla.analysis.search.trick_search`: the search of trick deals, :class:`TrickSearch`,
  the entry point for every scorer; it builds :mod:`~herzla.analysis.search.alphabeta` (additive
  and table scorers), :mod:`~herzla.analysis.search.made_or_lost` (Beddl and Mord) or the
  compiled path (:mod:`~herzla.analysis.search.compiled`, feeding the numba kernel of
  :mod:`herzla.analysis.search.kernel`), which share :mod:`~herzla.analysis.search.interface`;
- :mod:`~herzla.analysis.search.scoring`: how a trick deal's end is valued, learnt from the
  contract's own scorer (made/lost, additive, or a table of every final tally);
- the units the trick searches are built from: :mod:`~herzla.analysis.search.declared` (the
  declaration in search bits), :mod:`~herzla.analysis.search.position` (the bit encoding,
  legality, loading a position), :mod:`~herzla.analysis.search.equivalence` (equivalent cards),
  :mod:`~herzla.analysis.search.keys` (transposition keys),
  :mod:`~herzla.analysis.search.ordering` (move ordering),
  :mod:`~herzla.analysis.search.bounds` (bounds and verdicts) and
  :mod:`~herzla.analysis.search.leaves` (what a finished trick is worth);
- :mod:`~herzla.analysis.search.layout`: the search of layout deals (the domino, Auflegen);
- :mod:`~herzla.analysis.search.frames`: deep searches on a stretch of the frame stack of their
  own.

Importing this package imports none of them.
"""
