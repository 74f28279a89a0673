r"""Text put into SVG and HTML: escaped for markup, and every character that does not print
shown escaped (:func:`herzla.quote.visible`), so that what a plug-in wrote into a title or a
rule (an ESC, a BEL) can neither make an SVG picture malformed XML nor reach a page raw.

>>> escape('<b>"Red"\x1b[31m</b>')
'&lt;b&gt;&quot;Red&quot;\\u001b[31m&lt;/b&gt;'
"""

from __future__ import annotations

import html

from herzla.quote import visible

__all__ = ["escape"]


def escape(text: object) -> str:
    """``text`` for SVG or HTML: visible, then escaped (quotes too, for attributes)."""
    return html.escape(visible(str(text)))
