"""What the pages share: a page rendered from its template, the document a page shows and the
revision its form was shown at, and cards as the pages show them
(the label a person reads, with the code beside it, and the suit's colour as a class of the
style sheet: the pages' Content-Security-Policy allows no inline style)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs
from flask import Response, render_template, request

from herzla.cards import Card, parse_card
from herzla.contracts import Contract
from herzla.counting import read_whole
from herzla.draw.faces import Faces, faces_of, labelled, short
from herzla.web.config import state
from herzla.web.store import Document, Kind

__all__ = ["CardView", "card_view", "faces_for", "form_revision", "load", "page"]

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
