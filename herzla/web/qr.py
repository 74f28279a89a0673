"""The address a phone opens, as a QR code (segno, pure Python, in the ``web`` extra): as text
for the terminal, and as an image for the start page.

>>> qr_text("http://192.0.2.7:8000/?token=abcdefgh").count("\\n") > 10
True
>>> qr_image("http://192.0.2.7:8000/").startswith("data:image/svg+xml")
True
"""

from __future__ import annotations

import functools
import io
from typing import Any

__all__ = ["qr_image", "qr_text"]


def _code(url: str) -> Any:
    import segno

    return segno.make(url, error="m", micro=False)


def qr_text(url: str) -> str:
    """``url`` as a QR code drawn with block characters, two rows of modules a line (light on
    dark as a terminal shows it; phones read either)."""
    out = io.StringIO()
    _code(url).terminal(out=out, compact=True)
    return out.getvalue()


@functools.lru_cache(maxsize=256)
def qr_image(url: str) -> str:
    """``url`` as a QR code, an SVG image in a ``data:`` address (the pages' Content-Security-
    Policy allows images so, and nothing from elsewhere)."""
    return str(_code(url).svg_data_uri(scale=5, dark="#000", light="#fff"))
