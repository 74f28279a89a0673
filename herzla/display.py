"""Rich display in notebooks, without an upward import.

herzla's values live in the lower layers (a :class:`~herzla.records.Record`, a score sheet, a
simulation's result), while the part that draws them (:mod:`herzla.draw`) sits above them and
reads them.  So a value's ``_repr_svg_`` / ``_repr_html_`` asks this registry for its picture,
and the public facade (``herzla/__init__.py``, above every part) registers herzla.draw's
renderers (:func:`on_first_use`), loaded only when a notebook first asks.  A value with no
renderer registered answers ``None``, and the notebook shows its one-line ``repr`` instead; so
does a value too large to draw (a list of more hands than :data:`herzla.limits.MAX_DRAWN_HANDS`),
whose renderer raises :class:`~herzla.limits.LimitError`: a notebook expects None, not an
exception, from a ``_repr_*_`` method that has nothing to show.

>>> register("Example", "html", lambda value: f"<b>{value}</b>")
>>> render("Example", "html", 7)
'<b>7</b>'
>>> render("Nothing", "svg", 7) is None
True
>>> from herzla.limits import check_drawn
>>> register("Huge", "svg", lambda value: str(check_drawn(value)))
>>> render("Huge", "svg", 10**6) is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from herzla.limits import LimitError

__all__ = ["Mime", "on_first_use", "register", "render"]

#: the kinds of picture a notebook asks for (``_repr_svg_`` and ``_repr_html_``), and the text
#: ``str()`` shows of a value that draws itself (a hand, a view)
Mime = Literal["svg", "html", "text"]

_RENDERERS: dict[tuple[str, str], Callable[[Any], str]] = {}
_LOADERS: list[Callable[[], None]] = []


def register(kind: str, mime: Mime, renderer: Callable[[Any], str]) -> None:
    """Draw values of ``kind`` (their class's name) as ``mime`` with ``renderer``."""
    _RENDERERS[kind, mime] = renderer


def on_first_use(loader: Callable[[], None]) -> None:
    """Call ``loader`` (which registers renderers) the first time a picture is asked for."""
    _LOADERS.append(loader)


def render(kind: str, mime: Mime, value: Any) -> str | None:
    """The picture of ``value`` (a ``kind``) as ``mime``, or None when nothing draws it."""
    while _LOADERS:
        _LOADERS.pop(0)()
    renderer = _RENDERERS.get((kind, mime))
    if renderer is None:
        return None
    try:
        return renderer(value)
    except LimitError:  # too large to draw: the notebook shows the repr
        return None
