"""A matrix of cases split between the default set and the slow set (which CI runs): the
default ``pytest`` keeps one case of each kind and a share of the rest, so it stays quick while
every case still runs before a change lands."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import pytest

#: how many of a matrix's cases the default set keeps (one in ``EVERY``, and the first of a kind)
EVERY = 4


def some_in_default(cases: Sequence[Any], kind: Callable[[Any], Hashable] = lambda _c: None,
                    every: int = EVERY, ids: Callable[[Any], str] | None = None,
                    unpack: bool = True) -> list[Any]:
    """``cases`` as pytest parameters: the first case of each ``kind`` and every ``every``-th
    case in the default set, the others marked slow.  A case that is already a
    ``pytest.param`` keeps its marks (and gets slow too where it is not kept; one marked slow
    already is not the first of its kind); a tuple is the
    values of several names (``unpack``), else one value.  ``kind`` and ``ids`` read the case's
    value (a tuple of them for several names)."""
    seen: set[Hashable] = set()
    out = []
    for i, case in enumerate(cases):
        given = case if isinstance(case, _PARAM) else None
        values = given.values if given else case if unpack and isinstance(case, tuple) else (case,)
        value = values[0] if len(values) == 1 else values
        marks = list(given.marks) if given else []
        if any(m.name == "slow" for m in marks):
            out.append(pytest.param(*values, marks=marks, id=given.id if given else None))
            continue  # slow already: not the first of its kind in the default set
        keep = i % every == 0 or kind(value) not in seen
        seen.add(kind(value))
        marks += [] if keep else [pytest.mark.slow]
        name = given.id if given and given.id is not None else ids(value) if ids else None
        out.append(pytest.param(*values, marks=marks, id=name))
    return out


_PARAM = type(pytest.param())
