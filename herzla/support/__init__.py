"""Support code: what the parts above the engines share and none owns (herzla 0.2 called the
package ``herzla.machinery``).

Nothing here knows a game's rules; everything here is used by more than one of the parts above
(records, :mod:`herzla.sim`, :mod:`herzla.analysis`, :mod:`herzla.openspiel`, the evening and
the table's files):

- :mod:`herzla.support.streams`: the seeded random streams and the deal procedure (the same
  hands and the same random choices in every engine, for any number of processes);
- :mod:`herzla.support.procs`: an ordered map over local worker processes, and
  :func:`default_jobs`, the cores this process may use;
- :mod:`herzla.support.cluster`: the same map over the workers of a dask.distributed cluster;
- :mod:`herzla.support.files`: a file written whole or not at all;
- :mod:`herzla.support.kept`: the header of a file herzla keeps (an evening, a table).
- :mod:`herzla.support.words` and :mod:`herzla.support.reports`: amounts, lists and the texts of
  ``herzla score`` and ``herzla replay`` as people read them, in the current language.
"""
