"""Exact analysis: the double-dummy searches behind ``herzla solve`` and ``herzla advise``.

- :mod:`herzla.analysis.scoring`: how a trick deal's end is valued, learnt from the contract's own
  scorer (made/lost, additive, or a table of every final tally);
- :mod:`herzla.analysis.tricks`: the search of trick deals (alpha-beta for additive and table
  scorers, and the entry point for all);
- :mod:`herzla.analysis.madelost`: the made/lost search of Beddl and Mord (boolean scorers);
- the units both trick searches are built from: :mod:`herzla.analysis.declared` (the
  declaration in search bits), :mod:`herzla.analysis.equivalence` (equivalent cards),
  :mod:`herzla.analysis.keys` (transposition keys), :mod:`herzla.analysis.ordering` (move
  ordering), :mod:`herzla.analysis.bounds` (bounds and verdicts), :mod:`herzla.analysis.leaves`
  (what a finished trick is worth) and :mod:`herzla.analysis.common` (legality, positions);
- :mod:`herzla.analysis.compiled` and :mod:`herzla.analysis.kernel`: the compiled path of the
  trick searches (numba, ``pip install 'herzla[fast]'``), the same answers as the pure one;
- :mod:`herzla.analysis.layout`: the search of layout deals (the domino, Auflegen);
- :mod:`herzla.analysis.frames`: deep searches on a stretch of the frame stack of their own.

The library functions are :func:`herzla.analysis.solve.solve` and
:func:`herzla.analysis.advise.advise` (``herzla.solve`` and ``herzla.advise``).

Built on :func:`~herzla.analysis.solve.solve`: :mod:`herzla.analysis.many` (``herzla.solve_many``:
many positions on worker processes or a dask cluster, in input order),
:mod:`herzla.analysis.review` (``herzla.review``: every play of a hand valued, each mistake's
cost) and :mod:`herzla.analysis.lines` (plays and lines of best play by seat, trick and winner).
"""
