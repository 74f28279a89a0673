"""Example hand records that come with herzla, so that every command can be tried without a
checkout: ``herzla example`` lists them and writes one (``herzla example herzla-two-void |
herzla replay -``); from Python, :func:`load` gives one as parsed JSON, for
:func:`herzla.replay` or :func:`herzla.solve`.

Each example is one JSON document, a hand record or a list of records (a partie, a session, a
match); ``malformed-duplicate`` is malformed on purpose, to show how a bad record is refused.
They are the files of ``docs/examples`` in a checkout, which the documentation names.  A name is
read in any case, and a typo is answered with the names it may mean.

>>> "herzla-two-void" in names()
True
>>> load("Herzla-Two-Void")["game"]
'herzla'
>>> load("herzla-to-void")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
herzla.names.UnknownName: unknown example "herzla-to-void" (did you mean herzla-two-void or \
herzla-two-void-trick6? known: herzeln-3p-domino, ...)
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

from herzla.names import read_name

__all__ = ["load", "names", "text"]

_SUFFIX = ".json"


def names() -> list[str]:
    """The examples' names, sorted."""
    return sorted(p.name.removesuffix(_SUFFIX) for p in files(__package__).iterdir()
                  if p.name.endswith(_SUFFIX))


def text(name: str) -> str:
    """The example ``name`` as its file holds it (UTF-8 JSON text); UnknownName (a LookupError
    and a ValueError) names the examples there are."""
    found = read_name(name, names(), "example")
    return files(__package__).joinpath(found + _SUFFIX).read_text(encoding="utf-8")


def load(name: str) -> Any:
    """The example ``name`` as parsed JSON: a hand record (a dict) or a list of records."""
    return json.loads(text(name))
