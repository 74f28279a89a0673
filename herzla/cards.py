"""Cards: codes, faces, packs, rank orders and the integer encoding.

A card is a suit and a rank.  Its *index* is ``suit * 9 + rank`` (suits C S H D are 0..3, ranks
6 7 8 9 T J Q K A are 0..8), so every card set of the family fits in 36 bits: ``1 << index``.
The reference engines and the numpy batch engine share this encoding.

>>> Card.from_str("ha")
Card.from_str('HA')
>>> str(Card.from_str("10d"))
Traceback (most recent call last):
...
herzla.cards.CardError: "10d" is not a card code (write suit then rank, e.g. HA, CT, S7)
>>> str(Card.from_str("D10"))
'DT'
>>> [str(c) for c in cards_of(mask_of(parse_cards("HA, ck s7")))]
['CK', 'S7', 'HA']
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import ClassVar

import attrs

from herzla.i18n import _
from herzla.quote import quote

__all__ = [
    "ACE_TEN",
    "NATURAL",
    "Card",
    "CardError",
    "Pack",
    "Rank",
    "RankOrder",
    "Suit",
    "as_card",
    "cards_of",
    "format_cards",
    "hand_mask",
    "mask_of",
    "parse_card",
    "parse_cards",
    "popcount",
    "HEARTS_MASK",
    "SUIT_MASKS",
]


class CardError(ValueError):
    """Text that is not a card (or not a card of the pack at hand)."""


class Suit(enum.IntEnum):
    """The four suits, in the order C S H D (Skat order of the German faces)."""

    C = 0
    S = 1
    H = 2
    D = 3

    @property
    def code(self) -> str:
        return self.name

    @property
    def french(self) -> str:
        return ("Clubs", "Spades", "Hearts", "Diamonds")[self]

    @property
    def german(self) -> str:
        return ("Eichel", "Gras", "Herz", "Schellen")[self]

    @property
    def symbol(self) -> str:
        return "♣♠♥♦"[self]


class Rank(enum.IntEnum):
    """Ranks in natural order, lowest first."""

    SIX = 0
    SEVEN = 1
    EIGHT = 2
    NINE = 3
    TEN = 4
    JACK = 5
    QUEEN = 6
    KING = 7
    ACE = 8

    @property
    def code(self) -> str:
        return "6789TJQKA"[self]

    @property
    def french(self) -> str:
        return ("6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace")[self]

    @property
    def german(self) -> str:
        return ("6", "7", "8", "9", "10", "Unter", "Ober", "König", "Sau")[self]


_SUIT_WORDS: dict[str, Suit] = {}
for _s in Suit:
    for _w in (_s.code, _s.french, _s.german, _s.symbol):
        _SUIT_WORDS[_w.lower()] = _s
_SUIT_WORDS.update(
    {
        "kreuz": Suit.C,
        "treff": Suit.C,
        "acorns": Suit.C,
        "pik": Suit.S,
        "grün": Suit.S,
        "grun": Suit.S,
        "laub": Suit.S,
        "leaves": Suit.S,
        "herz": Suit.H,
        "karo": Suit.D,
        "bells": Suit.D,
        "schelle": Suit.D,
        "schelln": Suit.D,
        "schellen": Suit.D,
        # the German suits as herzla's drawings abbreviate them (Sch-O, Gr-8): never one letter
        "ei": Suit.C,
        "gr": Suit.S,
        "hz": Suit.H,
        "sch": Suit.D,
        "♧": Suit.C,
        "♤": Suit.S,
        "♡": Suit.H,
        "♢": Suit.D,
    }
)
_RANK_WORDS: dict[str, Rank] = {}
for _r in Rank:
    for _w in (_r.code, _r.french, _r.german):
        _RANK_WORDS[_w.lower()] = _r
_RANK_WORDS.update(
    {
        "10": Rank.TEN,
        "ten": Rank.TEN,
        "zehn": Rank.TEN,
        "daus": Rank.ACE,
        "ass": Rank.ACE,
        "as": Rank.ACE,
        "dame": Rank.QUEEN,
        "bube": Rank.JACK,
        "u": Rank.JACK,  # Unter and Ober as the German faces' corners show them
        "o": Rank.QUEEN,
        "konig": Rank.KING,
        "koenig": Rank.KING,
        "sechs": Rank.SIX,
        "zehner": Rank.TEN,
        "neuner": Rank.NINE,
        "achter": Rank.EIGHT,
        "siebener": Rank.SEVEN,
        "sechser": Rank.SIX,
        "sieben": Rank.SEVEN,
        "acht": Rank.EIGHT,
        "neun": Rank.NINE,
        "six": Rank.SIX,
        "seven": Rank.SEVEN,
        "eight": Rank.EIGHT,
        "nine": Rank.NINE,
    }
)
#: the corners of the French faces' Bube and Dame in German, read after a suit sign alone
#: (``♠D`` is the Pik-Dame, SQ): alone, ``D`` is a suit's letter
_FRENCH_CORNERS = {"b": Rank.JACK, "d": Rank.QUEEN}
_NAME_RE = re.compile(r"^\s*(\S+?)\s*(?:\s+of\s+|-|\s+)\s*(\S+)\s*$")
#: case folding as the card codes say: ASCII letters (and the umlauts of the German names) only,
#: so that no other character that merely folds to one (``ſ`` to ``S``, the Kelvin sign ``K`` to
#: ``k``, the ligature ``ﬆ`` to ``ST``) passes for a card letter
_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyzäöü", "ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ")
_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ", "abcdefghijklmnopqrstuvwxyzäöü")


@attrs.frozen(slots=True, order=True)
class Card:
    """One card.  Round-trips through its code: ``Card.from_str(str(c)) == c``."""

    suit: Suit = attrs.field(converter=Suit)
    rank: Rank = attrs.field(converter=Rank)

    ALL: ClassVar[tuple[Card, ...]]

    @property
    def index(self) -> int:
        """The card's number 0..35 in the shared encoding."""
        return int(self.suit) * 9 + int(self.rank)

    @property
    def bit(self) -> int:
        return 1 << self.index

    @property
    def code(self) -> str:
        return self.suit.code + self.rank.code

    @classmethod
    def from_index(cls, index: int) -> Card:
        return CARDS[index]

    @classmethod
    def from_str(cls, text: str) -> Card:
        """Parse a card code (case-insensitive, ``10`` for ``T``) or a friendly name.

        Accepted: ``HA``, ``h10``, ``♥A``, ``Herz Sau``, ``Ace of Hearts``, ``Queen of Spades``.
        """
        return parse_card(text)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.from_str({self.code!r})"

    def name(self, faces: str = "french") -> str:
        """A display name: ``'Ace of Hearts'`` (french) or ``'Herz Sau'`` (german)."""
        if faces == "german":
            return f"{self.suit.german} {self.rank.german}"
        return f"{self.rank.french} of {self.suit.french}"


CARDS: tuple[Card, ...] = tuple(Card(Suit(i // 9), Rank(i % 9)) for i in range(36))
Card.ALL = CARDS
_CODES: dict[str, Card] = {c.code: c for c in CARDS}
for _c in CARDS:
    if _c.rank == Rank.TEN:
        _CODES[_c.suit.code + "10"] = _c


def parse_card(text: str) -> Card:
    """Parse one card; raise :class:`CardError` naming the text if it is not a card."""
    if not isinstance(text, str):
        raise CardError(_("{given} is not a card code (write suit then rank, e.g. HA, CT)")
                        .format(given=quote(text)))
    stripped = text.strip()
    card = _CODES.get(stripped.translate(_UPPER))
    if card is not None:
        return card
    lower = stripped.translate(_LOWER)
    if stripped and stripped[0] in "♣♠♥♦♧♤♡♢":
        suit = _SUIT_WORDS[stripped[0]]
        word = lower[1:].strip()
        rank = _RANK_WORDS.get(word, _FRENCH_CORNERS.get(word))
        if rank is not None:
            return Card(suit, rank)
    m = _NAME_RE.match(lower)
    if m:
        a, b = m.group(1), m.group(2)
        if " of " in lower and a in _RANK_WORDS and b in _SUIT_WORDS:
            return Card(_SUIT_WORDS[b], _RANK_WORDS[a])
        if a in _SUIT_WORDS and b in _RANK_WORDS and len(a) > 1:
            return Card(_SUIT_WORDS[a], _RANK_WORDS[b])
    raise CardError(_("{given} is not a card code (write suit then rank, e.g. HA, CT, S7)")
                    .format(given=quote(text)))


def _read_words(words: list[str]) -> Iterator[Card]:
    """The cards of words separated by white space: a word that is a card by itself is one card;
    otherwise it and the next word (``Herz Sau``, ``♥ A``), or the next two (``Ace of Hearts``),
    name one card."""
    i = 0
    while i < len(words):
        for width in (1, 3, 2):
            group = words[i:i + width]
            if len(group) < width or (width == 3 and group[1].lower() != "of"):
                continue
            try:
                card = parse_card(" ".join(group))
            except CardError:
                continue
            yield card
            i += width
            break
        else:
            pair = " ".join(words[i:i + 2])
            if len(words) > i + 1 and words[i].lower() in _SUIT_WORDS.keys() | _RANK_WORDS.keys():
                raise CardError(_("{given} is not a card (write a card as a code, e.g. HA, or a "
                                  "name, e.g. Herz Sau, Ace of Hearts)").format(given=quote(pair)))
            parse_card(words[i])  # raises, naming the word


def as_card(card: Card | str) -> Card:
    """A :class:`Card` given as itself or as text (``"HA"``, ``"Herz Sau"``); TypeError for
    anything else, CardError for text that is not a card."""
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        return parse_card(card)
    raise TypeError(f"a card is a Card or a card code such as 'HA', not {type(card).__name__}")


def hand_mask(hand: int | str | Iterable[Card | str]) -> int:
    """One seat's cards as the engines hold them, a bit set, from a bit set, a card list
    (``"HA HK"``) or Cards (``record.hands[0]``); TypeError for anything else."""
    if isinstance(hand, bool):
        raise TypeError("a hand is a bit set, a card list or cards, not a bool")
    if isinstance(hand, int):
        return hand
    if isinstance(hand, str):
        return mask_of(parse_cards(hand))
    try:
        items = list(hand)
    except TypeError:
        raise TypeError(f"a hand is a bit set, a card list or cards, not "
                        f"{type(hand).__name__}") from None
    return mask_of(as_card(c) for c in items)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse a list of cards, the one reader of every card list herzla takes.

    A string holds cards separated by commas or white space (``"HA HT SK"``, ``"HA, HT,SK"``).
    A card may be written as a name of several words (``"Herz Sau, Herz König"``, ``"Ace of
    Hearts Herz 10 D7"``): a word that is a card code is one card; any other word is read with
    the next word or two as one card name.  An iterable holds one card per item.
    """
    if isinstance(text, str):
        out: list[Card] = []
        for part in text.split(","):
            out += _read_words(part.split())
        return out
    if isinstance(text, Iterable) and not isinstance(text, bytes | bytearray | Mapping):
        return [parse_card(p) for p in text]
    raise CardError(_("{given} is not cards: write codes with spaces or commas (\"HA HT SK\") "
                      "or give a list of codes").format(given=quote(text)))


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def mask_of(cards: Iterable[Card]) -> int:
    """The bit set of some cards."""
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def cards_of(mask: int) -> list[Card]:
    """The cards of a bit set, in index order (C S H D, low rank first)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def iter_indices(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: int) -> int:
    return mask.bit_count()


SUIT_MASKS: tuple[int, int, int, int] = tuple(0x1FF << (9 * s) for s in range(4))  # type: ignore[assignment]
HEARTS_MASK = SUIT_MASKS[Suit.H]
ALL_MASK = (1 << 36) - 1


@attrs.frozen(slots=True)
class RankOrder:
    """A rank order for winning tricks: ``strength[rank]`` is higher for a higher card."""

    name: str
    high_to_low: tuple[Rank, ...]

    @property
    def strength(self) -> tuple[int, ...]:
        s = [0] * 9
        for i, r in enumerate(reversed(self.high_to_low)):
            s[r] = i
        return tuple(s)

    def beats(self, a: Card, b: Card) -> bool:
        """True when ``a`` beats ``b`` of the same suit."""
        st = self.strength
        return st[a.rank] > st[b.rank]


NATURAL = RankOrder("natural", (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN,
                               Rank.NINE, Rank.EIGHT, Rank.SEVEN, Rank.SIX))
ACE_TEN = RankOrder("ace-ten", (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK,
                               Rank.NINE, Rank.EIGHT, Rank.SEVEN, Rank.SIX))
RANK_ORDERS = {NATURAL.name: NATURAL, ACE_TEN.name: ACE_TEN}


@attrs.frozen(slots=True)
class Pack:
    """A pack: which cards are in play, and how they are named for display."""

    name: str
    mask: int
    faces: str = "german"

    @classmethod
    def of_ranks(cls, name: str, ranks: Sequence[Rank], faces: str = "german",
                 without: Iterable[Card] = ()) -> Pack:
        m = 0
        for s in Suit:
            for r in ranks:
                m |= 1 << (int(s) * 9 + int(r))
        m &= ~mask_of(without)
        return cls(name, m, faces)

    @property
    def cards(self) -> list[Card]:
        return cards_of(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask >> card.index & 1)

    def parse(self, text: str) -> Card:
        """Parse a card and check that it belongs to this pack."""
        card = parse_card(text)
        if card not in self:
            raise CardError(_("{card} is not in the {name} pack").format(card=card,
                                                                          name=self.name))
        return card


_ALL_RANKS = tuple(Rank)
PACK_36 = Pack.of_ranks("36-card", _ALL_RANKS[0:])
PACK_32 = Pack.of_ranks("32-card", _ALL_RANKS[1:])
PACK_30 = Pack.of_ranks("30-card", _ALL_RANKS[1:], without=(Card(Suit.C, Rank.SEVEN),
                                                              Card(Suit.S, Rank.SEVEN)))
PACK_24 = Pack.of_ranks("24-card", (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING,
                                    Rank.ACE), faces="french")
