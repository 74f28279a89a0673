"""A griffe extension for the API reference (mkdocs.yml): the Sphinx roles of herzla's
docstrings (``:func:`simulate```, ``:class:`herzla.sim.rows.RowSpool```) shown as code, and a
doctest (``>>>`` lines and their output) kept as a Python block."""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:func|class|meth|mod|attr|data|exc|obj|const|py:\w+):`~?([^`]+)`")


def markdown_of(text: str) -> str:
    """A docstring's text with its roles as code spans and its doctests fenced."""
    text = _ROLE.sub(r"`\1`", text)
    out: list[str] = []
    in_test = False
    for line in text.split("\n"):
        starts = line.lstrip().startswith(">>>")
        if starts and not in_test:
            out.append("```pycon")
            in_test = True
        elif in_test and not line.strip():
            out.append("```")
            in_test = False
        out.append(line)
    if in_test:
        out.append("```")
    return "\n".join(out)


class SphinxRoles(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_of(obj.docstring.value)
