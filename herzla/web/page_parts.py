"""What the pages share: a page rendered from its template, the document a page shows and the
revision its form was shown at, and cards as the pages show them
(the label a person reads, with the code beside it, and the suit's colour as a class of the
style sheet: the pages' Content-Security-Policy allows no inline style)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

import attrs
from flask import Response, render_template, request
from markupsafe import Markup, escape

from herzla.cards import Card, parse_card
from herzla.contracts import Contract
from herzla.counting import read_whole
from herzla.draw.faces import Faces, faces_of, labelled, short
from herzla.evening.deal import named
from herzla.web.config import state
from herzla.web.store import Document, Kind

__all__ = ["CardView", "card_view", "euros", "faces_for", "form_revision", "load", "named_html",
           "page", "with_euros"]

_T = TypeVar("_T")


def page(template: str, status: int = 200, **values: Any) -> Response:
    """The page ``template`` filled in with ``values``."""
    return Response(render_template(template, **values), status=status, mimetype="text/html")


def form_revision() -> int | None:
    """The revision the posted form was shown at (None: none, or not a number)."""
    text = (request.form.get("revision") or "").strip()
    return read_whole(text, digits=15)


def load(kind: Kind, doc_id: str, read: Callable[[Document], _T]) -> tuple[Document, _T]:
    """The document ``doc_id`` of ``kind`` and what ``read`` reads of it."""
    doc = state().store.get(kind, doc_id)
    return doc, read(doc)


@attrs.frozen(slots=True)
class CardView:
    """A card on a page: its ``code`` (what a form sends), its ``label`` (``♥Q``, ``Hz-O``),
    its ``title`` (the label with the code, ``Hz-O (HQ)``) and its style class (the suit's
    colour)."""

    code: str
    label: str
    title: str
    css: str


def card_view(card: Card | str, faces: Faces) -> CardView:
    """``card`` (a Card or its code) as the pages show it with ``faces``."""
    c = card if isinstance(card, Card) else parse_card(card)
    german = " german" if faces is Faces.GERMAN else ""
    return CardView(c.code, short(c, faces), labelled(c, faces), f"pcard s{int(c.suit)}{german}")


def faces_for(contract: Contract) -> Faces:
    """The faces ``contract``'s cards are shown with (its pack's)."""
    return faces_of(contract)


def euros(cents: int, sign: bool = False) -> str:
    """An amount of cents in euros: ``5.60 €``, ``+5.60 €`` with ``sign`` (0 unsigned).

    >>> euros(560), euros(-1205, sign=True), euros(0, sign=True)
    ('5.60 €', '-12.05 €', '0.00 €')
    """
    head = "-" if cents < 0 else ("+" if sign and cents > 0 else "")
    return f"{head}{abs(cents) // 100:,}.{abs(cents) % 100:02d} €"


_CENTS = re.compile(r"(?<![\w.])([+-]?\d+)c\b")


def with_euros(text: str) -> str:
    """A sentence of herzla's with each amount of cents followed by its euros.

    >>> with_euros("Carla pays Anna 560c; the stock of 80c stays.")
    'Carla pays Anna 560c (5.60 €); the stock of 80c (0.80 €) stays.'
    """
    return _CENTS.sub(lambda m: f"{m.group(0)} ({euros(int(m.group(1)), m.group(1)[0] in '+-')})",
                      text)


_SVG = re.compile(r"(<svg\b.*?</svg>)", re.DOTALL)


def named_html(html: str, players: list[str] | tuple[str, ...]) -> Markup:
    """herzla's HTML of a hand (a ruling, its drawing) with each seat it names in its text
    (``seat 0``) called by the player's name, escaped; the pictures (SVG), laid out for the
    short ``seat 0``, keep it.

    >>> str(named_html("<p>seat 1 led</p><svg><text>seat 1</text></svg>", ["A", "<B>"]))
    '<p>&lt;B&gt; led</p><svg><text>seat 1</text></svg>'
    """
    shown = [str(escape(p)) for p in players]
    return Markup("".join(part if part.startswith("<svg") else named(part, shown)
                          for part in _SVG.split(html)))
