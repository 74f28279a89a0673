"""The shared machinery below the simulator, the analysis and the players.

Nothing here knows a game's rules; everything here is used by more than one of the parts above
(records, :mod:`herzla.sim`, :mod:`herzla.analysis`, :mod:`herzla.openspiel`):

- :mod:`herzla.machinery.streams`: the seeded random streams and the deal procedure (the same
  hands and the same random choices in every engine, for any number of processes);
- :mod:`herzla.machinery.moves`: a move written as a hand record writes it (:func:`mark`);
- :mod:`herzla.machinery.procs`: an ordered map over local worker processes, and
  :func:`default_jobs`, the cores this process may use;
- :mod:`herzla.machinery.cluster`: the same map over the workers of a dask.distributed cluster;
- :mod:`herzla.machinery.files`: a file written whole or not at all;
- :mod:`herzla.machinery.kept`: the header of a file herzla keeps (an evening, a table).
"""
