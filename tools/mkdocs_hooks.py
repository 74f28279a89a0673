"""The documentation site's hooks (mkdocs.yml ``hooks``): the pages of ``docs/`` as GitHub and
the doc tests read them, made plain to mkdocs' Markdown.

- A fence's info string keeps its first word: ```` ```console no-check ```` (a transcript the
  doc tests do not run) is a ```` ```console ```` block on the site.
- Outside code, a word in brackets that is no link (``**[ruling]**``, a rule's source) is text,
  not a reference link to look up.
"""

from __future__ import annotations

import re
from typing import Any

_FENCE = re.compile(r"^(\s*)(```+|~~~+)(\S*)\s.*$")
_BRACKETED = re.compile(r"(?<![\\!\]])\[([^\[\]\n]+)\](?![\(\[:])")


def plain(markdown: str) -> str:
    """``markdown`` with its fences' info strings cut to their language and the bracketed words
    outside code escaped."""
    out = []
    fence: str | None = None
    for line in markdown.split("\n"):
        stripped = line.lstrip()
        if fence is None and stripped.startswith(("```", "~~~")):
            m = _FENCE.match(line)
            if m:
                line = f"{m.group(1)}{m.group(2)}{m.group(3)}"
            fence = stripped[:3]
        elif fence is not None and stripped.startswith(fence) and not stripped.strip("`~"):
            fence = None
        elif fence is None:
            line = _escaped(line)
        out.append(line)
    return "\n".join(out)


def _escaped(line: str) -> str:
    """The bracketed words of a line of prose escaped, code spans left alone."""
    parts = line.split("`")
    for i in range(0, len(parts), 2):  # the even parts are outside code spans
        parts[i] = _BRACKETED.sub(r"\\[\1\\]", parts[i])
    return "`".join(parts)


def on_page_markdown(markdown: str, **_: Any) -> str:
    return plain(markdown)
