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

from herzla.cards import Card, Rank, Suit, parse_card
from herzla.contracts import Contract, Game, game_of
from herzla.counting import read_whole
from herzla.draw.faces import Faces, faces_of, rank_label
from herzla.draw.pips import pip_id
from herzla.evening.deal import named
from herzla.i18n import format_money
from herzla.web.config import state
from herzla.web.speech import _, pgettext
from herzla.web.store import Document, Kind

__all__ = ["CardView", "Look", "card_view", "euros", "faces_for", "form_revision", "load",
           "named_html", "page", "suit_word", "with_euros"]

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
    """A card on a page: its ``code`` (what a form sends), its ``sign`` (the id of its suit's
    sign in the page's sprite, :mod:`herzla.draw.pips`), its ``rank`` as the pack names it
    (``Sau``, ``O``, ``10``; French ``Q``, German ``D``), its ``name`` for people
    (``Herz-Ober``, ``Queen of Hearts``), its ``title`` (the name with the code, ``Herz-Ober
    (HQ)``) and its style class (the suit's colour)."""

    code: str
    sign: str
    rank: str
    name: str
    title: str
    css: str

    @property
    def label(self) -> str:
        """The card in words, where a page writes it as text (its name)."""
        return self.name


#: the German pack's ranks as its cards name them: corner, and in a card's name
_GERMAN_FACES = {Rank.ACE: ("Sau", "Sau"), Rank.KING: ("K", "König"), Rank.QUEEN: ("O", "Ober"),
                 Rank.JACK: ("U", "Unter"), Rank.TEN: ("10", "Zehner"),
                 Rank.NINE: ("9", "Neuner"), Rank.EIGHT: ("8", "Achter"),
                 Rank.SEVEN: ("7", "Siebener"), Rank.SIX: ("6", "Sechser")}


@attrs.frozen(slots=True)
class Look:
    """How a game's cards are shown: its pack's faces, and the German pack's suits as the
    game's players name them (:attr:`herzla.contracts.Game.german_suits`: the Bavarian Gras,
    the Austrian Laub)."""

    faces: Faces
    suits: tuple[str, str, str, str] = Game.german_suits

    @classmethod
    def of(cls, faces: Faces | Look) -> Look:
        return faces if isinstance(faces, Look) else cls(faces)


def _french_rank(rank: Rank) -> tuple[str, str]:
    """A French card's rank: its corner and its name, in the page's language."""
    names = {Rank.ACE: pgettext("French card", "Ace"), Rank.KING: pgettext("French card", "King"),
             Rank.QUEEN: pgettext("French card", "Queen"),
             Rank.JACK: pgettext("French card", "Jack"), Rank.TEN: pgettext("French card", "Ten"),
             Rank.NINE: pgettext("French card", "Nine"),
             Rank.EIGHT: pgettext("French card", "Eight"),
             Rank.SEVEN: pgettext("French card", "Seven"),
             Rank.SIX: pgettext("French card", "Six")}
    return rank_label(rank, Faces.FRENCH), names[rank]


def _french_suit(suit: Suit) -> str:
    return (pgettext("French suit", "Clubs"), pgettext("French suit", "Spades"),
            pgettext("French suit", "Hearts"), pgettext("French suit", "Diamonds"))[suit]


def suit_word(suit: Suit, faces: Faces | Look) -> str:
    """A suit as the table names it: ``Schelln`` (German pack; the game's word, ``Laub`` in
    the Austrian games), ``Diamonds`` (French, in the page's language)."""
    look = Look.of(faces)
    return look.suits[suit] if look.faces is Faces.GERMAN else _french_suit(suit)


def card_view(card: Card | str, faces: Faces | Look) -> CardView:
    """``card`` (a Card or its code) as the pages show it with ``faces``: its suit's sign and
    its rank as the pack names it (never letters that read as another card's code)."""
    c = card if isinstance(card, Card) else parse_card(card)
    look = Look.of(faces)
    faces = look.faces
    if faces is Faces.GERMAN:
        rank, rank_name = _GERMAN_FACES[c.rank]
        name = f"{look.suits[c.suit]}-{rank_name}"
    else:
        rank, rank_name = _french_rank(c.rank)
        name = _("{rank} of {suit}").format(rank=rank_name, suit=_french_suit(c.suit))
    german = " german" if faces is Faces.GERMAN else ""
    return CardView(c.code, pip_id(c.suit, faces), rank, name, f"{name} ({c.code})",
                    f"pcard s{int(c.suit)}{german}")


def faces_for(contract: Contract) -> Look:
    """How ``contract``'s cards are shown: its pack's faces, its game's suit names."""
    return Look(faces_of(contract), game_of(contract).german_suits)


def euros(cents: int, sign: bool = False) -> str:
    """An amount of cents in euros, in the page's language: ``5.60 €``, ``+5.60 €`` with
    ``sign`` (0 unsigned); German ``5,60 €``; the minus sign U+2212.

    >>> euros(560), euros(-1205, sign=True), euros(0, sign=True)
    ('5.60 €', '−12.05 €', '0.00 €')
    """
    return format_money(cents, sign=sign)


_CENTS = re.compile(r"(?<![\w.])([+\-−]?\d+)(?:c| ct)\b")


def with_euros(text: str) -> str:
    """A sentence of herzla's with each amount of cents followed by its euros.

    >>> with_euros("Carla pays Anna 560c; the stock of 80c stays.")
    'Carla pays Anna 560c (5.60 €); the stock of 80c (0.80 €) stays.'
    """
    def said(m: re.Match[str]) -> str:
        number = m.group(1).replace("\u2212", "-")
        return f"{m.group(0)} ({euros(int(number), number[0] in '+-')})"

    return _CENTS.sub(said, text)


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
