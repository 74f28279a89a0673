"""The header of a file herzla keeps (an evening, a table): its ``format`` names what it is and
its ``version`` which herzla wrote it. One check refuses, in one line, a file that is something
else, one a later herzla wrote, and a key this herzla does not know.

>>> check_kept({"format": "herzla-x", "version": 1}, kind="x", format="herzla-x", version=1,
...            keys=("format", "version"), error=ValueError)
1
>>> check_kept({"format": "herzla-x", "version": 2}, kind="x", format="herzla-x", version=1,
...            keys=("format", "version"), error=ValueError)  # doctest: +ELLIPSIS
Traceback (most recent call last):
ValueError: the x is of version 2, written by a later herzla; ...: update herzla
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from herzla.i18n import _
from herzla.quote import quote

__all__ = ["check_kept"]


def check_kept(obj: object, *, kind: str, format: str, version: int, keys: Collection[str],
               error: type[Exception]) -> int:
    """The version of the kept ``kind`` in ``obj``, after checking it is one (an object with
    ``"format": format``, a version from 1 to ``version``, no key outside ``keys``); ``error``
    with one line otherwise."""
    if not isinstance(obj, Mapping) or obj.get("format") != format:
        raise error(_('not a herzla {kind} (its file is a JSON object with "format": '
                      '"{format}")').format(kind=kind, format=format))
    found: Any = obj.get("version")
    if isinstance(found, bool) or not isinstance(found, int) or found < 1:
        raise error(_("the {kind}'s version must be a whole number from 1, not {found}").format(
            kind=kind, found=quote(found)))
    if found > version:
        raise error(_("the {kind} is of version {found}, written by a later herzla; this "
                      "one reads version {version}: update herzla").format(
            kind=kind, found=quote(found), version=version))
    unknown = sorted(str(k) for k in obj if k not in keys)
    if unknown:
        raise error(_("unknown key {unknown} in the {kind} (keys: {keys})").format(
            unknown=quote(unknown[0]), kind=kind, keys=', '.join(keys)))
    return found
