"""Reading the names people type: games, contracts, policies, options, their values, commands.

Every name herzla reads from a person goes through here, so that all of them are read alike: a
name is matched without regard to case (``Herzla`` is ``herzla``, ``NO-HEARTS`` is
``no-hearts``), and a name that matches none is refused with the known names nearest to it
("did you mean ...?": those it begins, then the close spellings :mod:`difflib` finds).  Only
ASCII letters fold, so no other character that merely looks like one (the Kelvin sign ``K``)
passes for a letter of a name.

>>> find_name("Herzla", ["herzla", "herzeln"])
'herzla'
>>> find_name("herzl", ["herzla", "herzeln"]) is None
True
>>> did_you_mean("herzl", ["herzla", "herzeln", "herzerln"])
'did you mean herzla? '
>>> read_name("sim", ["replay", "simulate", "solve"], "command")
Traceback (most recent call last):
...
herzla.names.UnknownName: unknown command "sim" (did you mean simulate? known: replay, \
simulate, solve)
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from herzla.i18n import _
from herzla.quote import quote

__all__ = ["UnknownName", "close_names", "did_you_mean", "find_name", "fold", "read_name"]

#: how alike a typo and a name must be for :func:`close_names` (difflib's ratio)
CUTOFF = 0.7

_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


class UnknownName(LookupError, ValueError):
    """A name that names nothing herzla knows (a wrong argument: a ValueError too)."""


def fold(name: str) -> str:
    """A name as it is compared: without the white space around it, ASCII letters in lower
    case."""
    return name.strip().translate(_LOWER)


def find_name(given: object, known: Iterable[str]) -> str | None:
    """The name of ``known`` that ``given`` is, whatever its case; None when it is none (or
    not text)."""
    if not isinstance(given, str):
        return None
    want = fold(given)
    names = list(known)
    if given in names:
        return given
    for name in names:
        if fold(name) == want:
            return name
    return None


def close_names(given: object, known: Iterable[str], n: int = 3) -> list[str]:
    """The known names ``given`` most likely meant, at most ``n``: those it begins (``sim``:
    ``simulate``), or failing those the ones spelled like it (``heuristc``: ``heuristic``)."""
    if not isinstance(given, str):
        return []
    want = fold(given)
    names = list(dict.fromkeys(known))
    if not want:
        return []
    folded = {fold(name): name for name in names}
    begun = [name for name in names if len(want) >= 2 and fold(name).startswith(want)]
    if begun:
        return begun[:n]
    return [folded[x] for x in difflib.get_close_matches(want, list(folded), n=n,
                                                         cutoff=CUTOFF)]


def did_you_mean(given: object, known: Iterable[str]) -> str:
    """``"did you mean X or Y? "`` for a message, or ``""`` when nothing is close."""
    close = close_names(given, known)
    return _("did you mean {names}? ").format(names=_(" or ").join(close)) if close else ""


def read_name(given: object, known: Iterable[str], what: str,
              error: type[Exception] = UnknownName) -> str:
    """The name of ``known`` that ``given`` names (see :func:`find_name`); otherwise ``error``
    with the message ``unknown WHAT "given" (did you mean ...? known: ...)``."""
    names = list(known)
    found = find_name(given, names)
    if found is not None:
        return found
    raise error(_("unknown {what} {name} ({hint}known: {known})").format(
        what=_(what), name=quote(given), hint=did_you_mean(given, names),
        known=", ".join(names) or _("none")))
