"""The compiled kernel of the general trick search (numba; its search is imported only when
numba is installed: ``pip install 'herzla[fast]'``).

It is the alpha-beta search of :func:`herzla.analysis.search.alphabeta.build` written over
fixed-width arrays, so that numba compiles it to machine code (once; the compiled code is cached
on disk, ``cache=True``).  :mod:`herzla.analysis.search.compiled` fills the arrays from the same
units the pure search is built from (:mod:`~herzla.analysis.search.declared`,
:mod:`~herzla.analysis.search.leaves`, :mod:`~herzla.analysis.search.bounds`, the scorer of
:mod:`~herzla.analysis.search.scoring`), so no rule is written here: the kernel only adds up
values, compares cards and looks up tables.

Every value is a 64-bit integer: the kernel is used only when the deal's largest value
(:func:`herzla.analysis.search.scoring.reach`) is below 2**60, so no sum it forms can overflow.

The scalars of a search travel in one array ``Q`` (its slots: :mod:`.slots`); the transposition
table is an open table of ``2**k`` slots (always replace), stamped with the search's generation
so that one table serves search after search.

The modules: :mod:`.slots` (the slots of the arrays), :mod:`.jit` (numba's ``njit``, or a
stand-in), :mod:`.units` (legality, ordering, keys, bounds and verdicts, compiled),
:mod:`.alphabeta` (the search proper, :func:`~.alphabeta.search`) and :mod:`.cache` (the disk
cache kept in step with all of them).  Importing this package imports none of them.
"""
