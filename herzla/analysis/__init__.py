"""Exact analysis: the double-dummy searches behind ``herzla solve``, ``review`` and ``advise``.

The services, each a library function:

- :mod:`herzla.analysis.solve`: :func:`~herzla.analysis.solve.solve` (``herzla.solve``), the
  exact value of the position a hand record reaches;
- :mod:`herzla.analysis.solve_many` (``herzla.solve_many``): many positions on worker processes
  or a dask cluster, in input order;
- :mod:`herzla.analysis.review` (``herzla.review``): every play of a hand valued, each mistake's
  cost;
- :mod:`herzla.analysis.advise` (``herzla.advise``): what each contract of the bidding is worth
  to a hand;
- :mod:`herzla.analysis.pimc`: the strong player ``pimc``, solving sampled deals;
- :mod:`herzla.analysis.steps`: a hand's plays and lines of best play by seat, trick and winner.

The searches they are built on, and the units of those, are :mod:`herzla.analysis.search`.
"""
