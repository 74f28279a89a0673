"""Loading the compiled solver ahead of need: :func:`warm_up` runs one small search on the
compiled path, so that numba is imported and the kernel compiled (the first time, into numba's
disk cache) or loaded from that cache before anyone waits for a search.  ``herzla serve`` runs
it in a thread of its own when it starts, so that the first hint at a table does not wait for
a compile.  Without numba (or with ``HERZLA_PURE=1``) it does nothing.

>>> from herzla.analysis.search.compiled import pure
>>> with pure():
...     warm_up()
'pure'
"""

from __future__ import annotations

__all__ = ["warm_up"]

#: the seeded deal searched: a Herzla normal game after its first two tricks
_SEED, _PLAYED = 1, 8


def warm_up() -> str:
    """Load the compiled solver; ``"loaded"``, or ``"pure"`` when the compiled path is off
    (numba missing or unloadable, or ``HERZLA_PURE=1``)."""
    from herzla.analysis.search import compiled

    if not compiled.available():
        return "pure"
    try:
        import numba  # noqa: F401  (installed, but can it load with this numpy?)
    except ImportError:
        return "pure"
    from herzla.analysis.solve import solve
    from herzla.hand import record_of
    from herzla.players.heuristic import heuristic_card
    from herzla.records import deal_record

    hand = deal_record("herzla", "normal", 4, seed=_SEED).start()
    for _ in range(_PLAYED):
        hand._play(heuristic_card(hand))  # type: ignore[arg-type]
    with compiled.always():
        solve(record_of(hand), seat=0)
    return "loaded"
