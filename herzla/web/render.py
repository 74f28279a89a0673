"""What the pages share: a page rendered from its template, and cards as the pages show them
(the label a person reads, with the code beside it, and the suit's colour as a class of the
style sheet: the pages' Content-Security-Policy allows no inline style)."""

from __future__ import annotations

from typing import Any

import attrs
from flask import Response, render_template

from herzla.cards import Card, parse_card
from herzla.contracts import Contract
from herzla.draw.faces import Faces, faces_of, labelled, short

__all__ = ["CardView", "card_view", "faces_for", "page"]


def page(template: str, status: int = 200, **values: Any) -> Response:
    """The page ``template`` filled in with ``values``."""
    return Response(render_template(template, **values), status=status, mimetype="text/html")


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
