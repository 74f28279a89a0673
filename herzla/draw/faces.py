"""How a card is shown: the French faces (♣ ♠ ♥ ♦, Jack Queen King Ace) or the German faces
(Eichel, Gras, Herz, Schellen; Unter, Ober, König, Sau), with a colour per suit.

A pack says which faces it is usually played with (:attr:`herzla.cards.Pack.faces`); a drawing
may ask for the other.  The suits map as in Skat: Clubs = Eichel, Spades = Gras, Hearts = Herz,
Diamonds = Schellen (rule ``common/suits``); card codes stay the same in both.

>>> short(Card.from_str("HQ"), Faces.FRENCH), short(Card.from_str("HQ"), Faces.GERMAN)
('♥Q', 'H-O')
>>> ten, ace = Card.from_str("ST"), Card.from_str("DA")
>>> short(ten, Faces.FRENCH, unicode=False), short(ace, Faces.GERMAN)
('S10', 'S-A')
"""

from __future__ import annotations

import enum

from herzla.cards import Card, Rank, Suit
from herzla.contracts import Contract

__all__ = ["Faces", "SUIT_COLOURS", "can_encode", "faces_of", "rank_label", "short",
           "suit_label", "suit_letter", "suit_name"]


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
        raise ValueError(f"faces are french or german, not {text!r}")


def faces_of(contract: Contract, faces: str | Faces | None = None) -> Faces:
    """The faces to draw ``contract``'s cards with: ``faces`` if given, else its pack's."""
    if faces is not None and faces != "auto":
        return Faces.parse(faces)
    return Faces.parse(contract.pack().faces)


_GERMAN_RANKS = {Rank.JACK: "U", Rank.QUEEN: "O", Rank.KING: "K", Rank.ACE: "A"}
_GERMAN_LETTERS = ("E", "G", "H", "S")

#: fill colours per suit (C S H D), French faces: black and red; German: acorn brown, leaf
#: green, heart red, bell gold
SUIT_COLOURS: dict[Faces, tuple[str, str, str, str]] = {
    Faces.FRENCH: ("#1a1a1a", "#1a1a1a", "#c8102e", "#c8102e"),
    Faces.GERMAN: ("#7a4a1c", "#2e7d32", "#c8102e", "#d9a400"),
}


def rank_label(rank: Rank, faces: Faces) -> str:
    """The rank as the corner of a card shows it: ``10``, ``Q`` (French) or ``O`` (German)."""
    if faces is Faces.GERMAN:
        return _GERMAN_RANKS.get(rank, "10" if rank == Rank.TEN else rank.code)
    return "10" if rank == Rank.TEN else rank.code


def suit_name(suit: Suit, faces: Faces) -> str:
    """``Clubs`` or ``Eichel``."""
    return suit.german if faces is Faces.GERMAN else suit.french


def suit_letter(suit: Suit, faces: Faces) -> str:
    """One ASCII letter: the code's (C S H D) or the German initial (E G H S)."""
    return _GERMAN_LETTERS[suit] if faces is Faces.GERMAN else suit.code


def suit_label(suit: Suit, faces: Faces, unicode: bool = True) -> str:
    """What stands for a suit in text: ♣ (or its letter without Unicode); German: the name."""
    if faces is Faces.GERMAN:
        return suit.german
    return suit.symbol if unicode else suit.code


def short(card: Card, faces: Faces, unicode: bool = True) -> str:
    """A card in a few characters: ``♥Q`` / ``H10`` (French), ``H-O`` / ``E-10`` (German, as
    Schafkopf players write them)."""
    rank = rank_label(card.rank, faces)
    if faces is Faces.GERMAN:
        return f"{_GERMAN_LETTERS[card.suit]}-{rank}"
    return f"{card.suit.symbol if unicode else card.suit.code}{rank}"


def can_encode(text: str, encoding: str | None) -> bool:
    """Whether ``text`` can be written in ``encoding`` (None: assume UTF-8)."""
    try:
        text.encode(encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True
