"""How a card is shown: the French faces (♣ ♠ ♥ ♦, Jack Queen King Ace) or the German faces
(Eichel, Gras, Herz, Schellen; Unter, Ober, König, Sau), with a colour per suit.

A pack says which faces it is usually played with (:attr:`herzla.cards.Pack.faces`); a drawing
may ask for the other.  The suits map as in Skat: Clubs = Eichel, Spades = Gras, Hearts = Herz,
Diamonds = Schellen (rule ``common/suits``); card codes stay the same in both.

A German card is written with its suit's abbreviation, ``Ei`` ``Gr`` ``Hz`` ``Sch``, and its
rank, ``Sch-O`` for the Schellen Ober: never with a single letter, since the codes' letters mean
other suits (the code ``S8`` is the Gras 8, the Schellen 8 is ``D8``).  Where people read text,
the code they type stands beside the card (:func:`labelled`), unless the card is written in its
code's letters already (the French faces without suit symbols, ``H10``).  Every label reads back
as its own card (:func:`herzla.cards.parse_card` takes ``Sch-O`` and ``♥Q``) and as no other.

>>> short(Card.from_str("HQ"), Faces.FRENCH), short(Card.from_str("HQ"), Faces.GERMAN)
('♥Q', 'Hz-O')
>>> ten, eight = Card.from_str("ST"), Card.from_str("D8")
>>> short(ten, Faces.FRENCH, unicode=False), labelled(eight, Faces.GERMAN)
('S10', 'Sch-8 (D8)')
>>> labelled(ten, Faces.FRENCH), labelled(ten, Faces.FRENCH, unicode=False)
('♠10 (ST)', 'S10')
"""

from __future__ import annotations

import enum

from herzla.cards import Card, CardError, Rank, Suit, parse_card
from herzla.contracts import Contract, Game, UnknownContract, get_game
from herzla.i18n import DEFAULT, _, current, pgettext
from herzla.quote import quote

__all__ = ["Faces", "GERMAN_SUITS", "SUIT_COLOURS", "can_encode", "card_name", "code_spelled",
           "faces_of", "german_suits", "labelled", "labelled_code", "legend", "rank_label",
           "short", "suit_abbreviation", "suit_label", "suit_name"]


class Faces(enum.Enum):
    """The two sets of faces a pack of the family comes in."""

    FRENCH = "french"
    GERMAN = "german"

    @classmethod
    def parse(cls, text: str | Faces) -> Faces:
        """``"french"`` or ``"german"``; ValueError names anything else."""
        if isinstance(text, Faces):
            return text
        for f in cls:
            if f.value == str(text).strip().lower():
                return f
        raise ValueError(_("faces are french or german, not {text}").format(text=quote(text)))


def faces_of(contract: Contract, faces: str | Faces | None = None) -> Faces:
    """The faces to draw ``contract``'s cards with: ``faces`` if given, else its pack's."""
    if faces is not None and faces != "auto":
        return Faces.parse(faces)
    return Faces.parse(contract.pack().faces)


_GERMAN_RANKS = {Rank.JACK: "U", Rank.QUEEN: "O", Rank.KING: "K", Rank.ACE: "A"}
#: the German suits as a drawing writes them in a card (C S H D): never one letter, since the
#: codes' letters name other suits (S is Gras in the codes, Schellen is D)
GERMAN_SUITS = ("Ei", "Gr", "Hz", "Sch")

#: fill colours per suit (C S H D), French faces: black and red; German: acorn brown, leaf
#: green, heart red, bell gold
SUIT_COLOURS: dict[Faces, tuple[str, str, str, str]] = {
    Faces.FRENCH: ("#1a1a1a", "#1a1a1a", "#c8102e", "#c8102e"),
    Faces.GERMAN: ("#7a4a1c", "#2e7d32", "#c8102e", "#d9a400"),
}


def rank_label(rank: Rank, faces: Faces, unicode: bool = True) -> str:
    """The rank as the corner of a card shows it: ``10``, ``Q`` (French; German text ``D``,
    the Dame, and ``B``, the Bube, beside a suit sign) or ``O`` (German faces).  Without
    ``unicode`` a French card is written in its code's letters, so its corner is the code's."""
    if faces is Faces.GERMAN:
        return _GERMAN_RANKS.get(rank, "10" if rank == Rank.TEN else rank.code)
    if not unicode or rank < Rank.JACK:
        return "10" if rank == Rank.TEN else rank.code
    return (pgettext("card corner: jack", "J"), pgettext("card corner: queen", "Q"),
            pgettext("card corner: king", "K"), pgettext("card corner: ace", "A"))[
        rank - Rank.JACK]


def german_suits(game: str | None = None) -> tuple[str, str, str, str]:
    """The German pack's suits (C S H D) as text in the current language names them: in
    German as ``game``'s players do (Herzla's Gras and Schelln, the Austrian games' Laub), in
    English by their usual names (Eichel, Gras, Herz, Schellen).

    >>> from herzla.i18n import language
    >>> with language("de"):
    ...     german_suits("herzla")[1:], german_suits("herzeln")[1]
    (('Gras', 'Herz', 'Schelln'), 'Laub')
    >>> german_suits("herzeln")[1]
    'Gras'
    """
    if current() == DEFAULT:
        return (Suit.C.german, Suit.S.german, Suit.H.german, Suit.D.german)
    try:
        return Game.german_suits if game is None else get_game(game).german_suits
    except UnknownContract:
        return Game.german_suits


def suit_name(suit: Suit, faces: Faces, game: str | None = None) -> str:
    """``Clubs`` or ``Eichel``, in the current language (German: ``Treff``; ``game``'s own
    word for a German suit, :func:`german_suits`)."""
    if faces is Faces.GERMAN:
        return german_suits(game)[suit]
    return suit.french if current() == DEFAULT else pgettext("French suit", suit.french)


def card_name(card: Card, faces: Faces, game: str | None = None) -> str:
    """A card in words, in the current language: ``Ace of Hearts``, ``Herz Sau`` (German:
    ``Herz-Ass``, ``Herz-Sau``; the German suits as ``game`` names them).

    >>> from herzla.i18n import language
    >>> card_name(Card.from_str("SA"), Faces.FRENCH), card_name(Card.from_str("SA"), Faces.GERMAN)
    ('Ace of Spades', 'Gras Sau')
    >>> with language("de"):
    ...     card_name(Card.from_str("SA"), Faces.FRENCH), card_name(Card.from_str("SQ"),
    ...                                                            Faces.GERMAN, "herzeln")
    ('Pik-Ass', 'Laub-Ober')
    """
    if current() == DEFAULT:
        return card.name(faces.value)
    if faces is Faces.GERMAN:
        return f"{german_suits(game)[card.suit]}-{card.rank.german}"
    return _("{rank} of {suit}").format(rank=pgettext("French card", card.rank.french),
                                        suit=pgettext("French suit", card.suit.french))


def suit_abbreviation(suit: Suit, faces: Faces, unicode: bool = True) -> str:
    """The suit as a card's label writes it: ``♣`` (or ``C`` without Unicode), German ``Ei``,
    ``Gr``, ``Hz``, ``Sch``."""
    if faces is Faces.GERMAN:
        return GERMAN_SUITS[suit]
    return suit.symbol if unicode else suit.code


def suit_label(suit: Suit, faces: Faces, unicode: bool = True, game: str | None = None) -> str:
    """What stands for a suit in text: ♣ (or its letter without Unicode); German: the name
    (``game``'s word, :func:`german_suits`)."""
    if faces is Faces.GERMAN:
        return german_suits(game)[suit]
    return suit.symbol if unicode else suit.code


def short(card: Card, faces: Faces, unicode: bool = True) -> str:
    """A card in a few characters: ``♥Q`` / ``H10`` (French), ``Hz-O`` / ``Ei-10`` / ``Sch-8``
    (German, the suit abbreviated so that it reads as no card code)."""
    rank = rank_label(card.rank, faces, unicode)
    if faces is Faces.GERMAN:
        return f"{GERMAN_SUITS[card.suit]}-{rank}"
    return f"{card.suit.symbol if unicode else card.suit.code}{rank}"


def code_spelled(faces: Faces, unicode: bool = True) -> bool:
    """Whether these faces write a card in its code's letters (``H10`` is the code ``HT``):
    only the French faces without suit symbols."""
    return faces is Faces.FRENCH and not unicode


def labelled(card: Card, faces: Faces, unicode: bool = True) -> str:
    """A card for people to read: its label and, in brackets, the code they type
    (``Sch-O (DQ)``, ``♥10 (HT)``); a label in the code's letters alone (``H10``)."""
    label = short(card, faces, unicode)
    return label if code_spelled(faces, unicode) else f"{label} ({card.code})"


def labelled_code(text: object, faces: Faces, unicode: bool = True) -> str:
    """A card named by its code (``"DQ"``, as a review or an illegal play names it) as
    :func:`labelled` writes it, ``Sch-O (DQ)``; anything else (``pass``, a lay ``D7-``) as it
    is."""
    word = str(text)
    try:
        card = parse_card(word)
    except CardError:
        return word
    return labelled(card, faces, unicode) if card.code == word else word


def legend(faces: Faces, unicode: bool = True, game: str | None = None) -> list[str]:
    """The lines that explain the labels of :func:`labelled` under a drawing (none when the
    cards are written in their codes' letters); the German suits named as ``game`` names
    them (:func:`german_suits`)."""
    if code_spelled(faces, unicode):
        return []
    if faces is Faces.FRENCH:
        return [_("(in brackets each card's code, as you type it: ♥10 (HT) is the Ten of "
                  "Hearts)")]
    king = "König" if unicode else "Koenig"
    c, s, h, d = german_suits(game)
    leaf = s if s.startswith("Gr") else f"{s} (Grün)"  # Gr: the leaf suit's abbreviation
    return [f"(Ei {c} = C, Gr {leaf} = S, Hz {h} = H, Sch {d} = D; U Unter = J, O Ober = Q,",
            _(" K {king} = K, A Sau = A; in brackets the code you type: Sch-O (DQ), Gr-8 (S8))")
            .format(king=king)]


def can_encode(text: str, encoding: str | None) -> bool:
    """Whether ``text`` can be written in ``encoding`` (None: assume UTF-8)."""
    try:
        text.encode(encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True
